"""The REST tests' server: `memql serve` as a subprocess on 127.0.0.1 (a free port), and a handle on it
that makes keys in the same store and HTTP clients that send them (httpx, a real HTTP client)."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import httpx

from memql.interfaces.apikeys import NewKey, create_key, revoke_key
from memql.ports.store import Store


@cache
def tls() -> ssl.SSLContext:
    """The one SSL context of the test process's HTTP clients. The servers speak plain HTTP on loopback,
    but an httpx client (and each module-level httpx.get or post) loads the CA bundle into a context of its
    own unless given one: ~45 ms of CPU a client, hundreds of them a run."""
    return ssl.create_default_context()


def get(url: str, **kwargs: Any) -> httpx.Response:
    """httpx.get on a new connection, with the shared SSL context."""
    return httpx.get(url, verify=tls(), **kwargs)


def post(url: str, **kwargs: Any) -> httpx.Response:
    """httpx.post on a new connection, with the shared SSL context."""
    return httpx.post(url, verify=tls(), **kwargs)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env() -> dict[str, str]:
    """The test process's environment without anything that would reach a model server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMQL_LLM", "MEMQL_EMBED"))}
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(Path(__file__).parents[3] / "src"), env.get("PYTHONPATH")) if p
    )
    return env


def start_server(memql: Path, location: str, log: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    """`memql --db LOCATION serve --port P ...` and its base URL once /healthz answers. `memql` is the root
    conftest's shim (memql_shim): the real entry point, in a process forked from one that imported the CLI
    and the REST server once (~1.5 s of CPU a server otherwise); terminating it stops the server."""
    port = free_port()
    args = [str(memql), "--db", location, "serve", "--port", str(port)]
    args += ["--access-log", str(log), *extra]
    stderr = open(log.with_suffix(".stderr"), "wb")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(args, env=server_env(), stdout=stderr, stderr=stderr)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"memql serve exited: {log.with_suffix('.stderr').read_text()}")
        try:
            if get(f"{base}/healthz", timeout=1).status_code == 200:
                return process, base
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("memql serve did not answer /healthz within 120 s")


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@dataclass
class Server:
    backend: str
    base: str
    location: str
    access_log: Path
    store: Store  # the same store, opened by the test process: keys are made and revoked here
    clients: list[httpx.Client] = field(default_factory=list)

    def key(self, tenant: str, actor: str = "mira", role: str = "user", **identity: Any) -> NewKey:
        return create_key(
            self.store, tenant=tenant, actor=actor, role=role, now=datetime.now(UTC), **identity
        )

    def revoke(self, key_id: str) -> None:
        assert revoke_key(self.store, key_id, now=datetime.now(UTC)) is not None

    def client(self, key: NewKey | str | None = None, via: str = "bearer") -> httpx.Client:
        """An HTTP client sending the key by `via`: bearer, header (X-API-Key) or cookie (memql_key)."""
        secret = key.secret if isinstance(key, NewKey) else key
        headers, cookies = {}, {}
        if secret is not None:
            if via == "bearer":
                headers["Authorization"] = f"Bearer {secret}"
            elif via == "header":
                headers["X-API-Key"] = secret
            else:
                cookies["memql_key"] = secret
        client = httpx.Client(base_url=self.base, headers=headers, cookies=cookies, timeout=60, verify=tls())
        self.clients.append(client)
        return client
