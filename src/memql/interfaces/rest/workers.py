"""`memql serve --workers N`: N processes answer on one listening socket.

The parent binds the socket, says the address, and supervises N worker processes (uvicorn's own
supervisor: spawned, restarted when one dies, stopped on SIGINT/SIGTERM). Each worker opens the store
itself — a SQLite file in WAL mode (readers beside one writer; every process catches up with the others'
writes) or PostgreSQL — loads its own embedder, and serves the same app `memql serve` serves. A worker
closes its store when it stops, so its buffered visits are written (docs/engine.md, "Reads"). What the
parent passes its workers travels in one environment variable, read by `worker_app` in each of them.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import uvicorn
from uvicorn.supervisors.multiprocess import Multiprocess

CONFIG_VARIABLE = "MEMQL_SERVE_WORKER"  # the workers' settings, as JSON (set by the parent)


@dataclass(frozen=True)
class WorkerSettings:
    location: str
    embedder: str
    max_body: int
    access_log: str


def worker_app() -> Any:
    """The app of one worker (uvicorn calls it in the worker process): its own store and embedder, closed
    when the worker stops."""
    from memql.interfaces.rest.app import create_app, on_shutdown
    from memql.interfaces.rest.server import access_logger
    from memql.memory import default_embedder
    from memql.store import open_store

    settings = WorkerSettings(**json.loads(os.environ[CONFIG_VARIABLE]))
    store = open_store(settings.location)
    app = create_app(
        store,
        embedder=default_embedder(settings.embedder),
        max_body=settings.max_body,
        access_log=access_logger(settings.access_log),
    )
    on_shutdown(app, store.close)  # the worker's buffered visits are written before it exits
    return app


def serve_workers(
    settings: WorkerSettings,
    *,
    workers: int,
    host: str,
    port: int,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve with `workers` processes until interrupted; `on_ready` hears the base URL once the socket
    listens (connections made before a worker is up wait in the socket's backlog)."""
    os.environ[CONFIG_VARIABLE] = json.dumps(asdict(settings))  # spawned workers inherit it
    config = uvicorn.Config(
        f"{__name__}:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=False,  # memql's structured access log replaces uvicorn's
        log_level="warning",
        lifespan="on",
    )
    sock = tcp_socket(config)
    if on_ready is not None:
        on_ready(_url(sock))
    Multiprocess(config, sockets=[sock]).run()


def tcp_socket(config: uvicorn.Config) -> socket.socket:
    """The listening socket uvicorn binds, said to be TCP: asyncio sets TCP_NODELAY only on connections
    accepted from a socket whose proto is IPPROTO_TCP, and uvicorn binds with proto 0 — every response
    then waited ~40 ms for a delayed ACK (Nagle's algorithm holding back its last segment)."""
    bound = config.bind_socket()
    return socket.socket(bound.family, bound.type, socket.IPPROTO_TCP, fileno=bound.detach())


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"
