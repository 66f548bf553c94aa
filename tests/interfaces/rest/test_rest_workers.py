"""`memql serve --workers N` on both backends: N processes answer on one socket; what one writes every
other reads; tenants stay apart; a clean stop writes every worker's buffered visits."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import rest_server
from rest_server import server_env

from memql import Memory
from memql.interfaces.apikeys import create_key
from memql.store import open_store

WORKERS = 2


def _start(location: str, tmp_path: Path, workers: int = WORKERS) -> tuple[subprocess.Popen, str]:
    """`memql serve --workers N --port 0` (one process: no --workers) and the address it says it listens on,
    once /healthz answers."""
    err = tmp_path / "serve.stderr"
    args = [sys.executable, "-m", "memql.interfaces.cli", "--db", location, "serve", "--port", "0"]
    args += ["--workers", str(workers)] if workers > 1 else []
    args += ["--embedder", "none", "--access-log", "off"]
    with open(err, "wb") as sink:
        process = subprocess.Popen(args, env=server_env(), stdout=sink, stderr=sink)
    deadline = time.monotonic() + 120  # a bound for a loaded machine
    while time.monotonic() < deadline:
        assert process.poll() is None, err.read_text()
        said = re.search(r"listening on (http://127\.0\.0\.1:\d+)", err.read_text())
        if said:
            try:
                if rest_server.get(f"{said[1]}/healthz", timeout=2).status_code == 200:
                    return process, said[1]
            except httpx.HTTPError:
                pass
        time.sleep(0.1)
    process.kill()
    raise AssertionError(f"no worker answered within 120 s: {err.read_text()}")


def _workers_of(process: subprocess.Popen) -> list[int]:
    """The pids of the server's worker processes (its children running multiprocessing's spawn)."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    return [int(c) for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]


def _stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


def test_workers_share_one_store_keep_tenants_apart_and_write_their_visits(backend, new_location, tmp_path):
    location = new_location()
    setup = open_store(location)
    now = datetime.now(UTC)
    mira = create_key(setup, tenant="acme", actor="mira", role="user", now=now).secret
    other = create_key(setup, tenant="globex", actor="ravi", role="user", now=now).secret
    setup.close()
    process, base = _start(location, tmp_path)
    try:
        assert len(_workers_of(process)) == WORKERS
        as_mira = {"Authorization": f"Bearer {mira}"}

        def encode(i: int) -> str:
            body = {"op": "Encode", "args": {"payload": {"text": f"standup note {i} about the ferry"}}}
            reply = rest_server.post(f"{base}/v1/execute", json=body, headers=as_mira, timeout=60)
            assert reply.status_code == 200, reply.text
            return reply.json()["affected_ids"][0]

        with ThreadPoolExecutor(8) as pool:  # concurrent writers through both workers
            ids = list(pool.map(encode, range(24)))
        assert len(set(ids)) == 24

        def read(record: str) -> dict:
            reply = rest_server.get(f"{base}/v1/memories/{record}", headers=as_mira, timeout=60)
            assert reply.status_code == 200, reply.text
            return reply.json()["memory"]

        with ThreadPoolExecutor(8) as pool:  # every write is read back, whichever worker answers
            assert [r["text"] for r in pool.map(read, ids)] == [
                f"standup note {i} about the ferry" for i in range(24)
            ]

        found = rest_server.post(
            f"{base}/v1/retrieve", json={"query": "ferry", "k": 50}, headers=as_mira, timeout=60
        ).json()
        assert found["data"]["count"] == 24
        theirs = rest_server.post(
            f"{base}/v1/retrieve",
            json={"query": "ferry", "k": 50},
            headers={"Authorization": f"Bearer {other}"},
            timeout=60,
        ).json()
        assert theirs["data"]["count"] == 0  # another tenant's key reads none of them

        reads = 30
        with ThreadPoolExecutor(6) as pool:
            list(pool.map(lambda _: read(ids[0]), range(reads)))
    finally:
        code = _stop(process)
    assert code == 0
    with Memory(location, tenant="acme", actor="mira", embedder=None) as m:
        # 24 Retrieve hits of the search above, then the 30 reads of ids[0] and its one read-back before
        rows = m.retrieve(ids=[ids[0]], include=["visits"]).data["rows"]
    assert rows == [{"visits": reads + 2}]


@pytest.mark.parametrize("workers", [1, WORKERS])
def test_a_server_stopped_by_sigterm_writes_what_its_reads_buffered(backend, new_location, tmp_path, workers):
    """SIGTERM (how a service manager stops a server) closes the store first: the visits of the last reads,
    still buffered, are written. One process once lost them: uvicorn raises the signal again after its
    shutdown, which ended the process before the command's own close ran."""
    location = new_location()
    setup = open_store(location)
    mira = create_key(setup, tenant="acme", actor="mira", role="user", now=datetime.now(UTC)).secret
    setup.close()
    with Memory(location, tenant="acme", actor="mira", embedder=None) as m:
        record = m.encode("the ferry leaves at nine").affected_ids[0]
    process, base = _start(location, tmp_path, workers)
    as_mira = {"Authorization": f"Bearer {mira}"}
    try:
        for _ in range(5):
            reply = rest_server.get(f"{base}/v1/memories/{record}", headers=as_mira)
            assert reply.status_code == 200, reply.text
    finally:
        code = _stop(process)
    assert code == (0 if workers > 1 else -signal.SIGTERM)  # (one process: uvicorn ends it by the signal)
    with Memory(location, tenant="acme", actor="mira", embedder=None) as m:
        assert m.retrieve(ids=[record], include=["visits"]).data["rows"] == [{"visits": 5}]


def test_workers_need_a_store_they_can_share(memql_shim):
    # the real entry point, forked from a process that imported it (conftest's memql_shim)
    args = [str(memql_shim / "memql"), "--db", ":memory:", "serve", "--workers", "2"]
    done = subprocess.run(args, env=server_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "--workers needs a store file or a PostgreSQL URL" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("value", ["0", "x"])
def test_a_bad_worker_count_is_a_usage_error(value, memql_shim):
    args = [str(memql_shim / "memql"), "serve", "--workers", value]
    done = subprocess.run(args, env=server_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--workers" in done.stderr and "Traceback" not in done.stderr


def test_the_workers_socket_gives_connections_without_nagles_delay():
    """Connections accepted from the workers' shared socket have TCP_NODELAY, as uvicorn's own sockets do
    (without it each response waited for a delayed ACK, ~40 ms)."""
    import asyncio
    import socket

    import uvicorn

    from memql.interfaces.rest.workers import tcp_socket

    sock = tcp_socket(uvicorn.Config("memql.interfaces.rest.workers:worker_app", host="127.0.0.1", port=0))
    seen: list[int] = []

    async def scenario() -> None:
        def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            conn = writer.get_extra_info("socket")
            seen.append(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(accepted, sock=sock)
        _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
        while not seen:
            await asyncio.sleep(0.01)
        writer.close()
        server.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))
    assert seen == [1]
