"""Running the app under uvicorn: the shared store and embedder, the access log's destination."""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn

from memql.interfaces.rest.app import ACCESS_LOGGER, create_app, on_shutdown
from memql.memory import default_embedder
from memql.ports.models import Embedder
from memql.ports.store import Store


def access_logger(destination: str) -> logging.Logger | None:
    """The access log: "-" standard error, "off" none, else a file (appended to)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    logger.handlers.clear()
    logger.propagate = False
    if destination == "off":
        logger.disabled = True
        return logger
    logger.disabled = False
    if destination == "-":
        handler: logging.Handler = logging.StreamHandler(sys.stderr)
    else:
        Path(destination).expanduser().parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(Path(destination).expanduser(), encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return logger


def serve(
    store: Store,
    *,
    host: str = "127.0.0.1",
    port: int = 8750,
    embedder: str = "auto",
    max_body: int,
    access_log: str = "-",
    on_ready: Callable[[str], None] | None = None,
    on_stop: Callable[[], None] | None = None,
) -> None:
    """Serve until interrupted. The embedder is loaded once, before the first request. `on_ready` hears
    the base URL once the socket listens (with port 0, the port the system chose); `on_stop` runs as the
    server shuts down, whatever stops it (SIGTERM included: `on_shutdown`)."""
    errors = logging.getLogger("memql.rest")
    if not errors.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        errors.addHandler(handler)
        errors.propagate = False
    app = create_app(
        store, embedder=default_embedder(embedder), max_body=max_body, access_log=access_logger(access_log)
    )
    if on_stop is not None:
        on_shutdown(app, on_stop)
    # uvicorn's own access log is replaced by memql's structured one
    config = uvicorn.Config(app, host=host, port=port, access_log=False, log_level="warning")
    _AnnouncingServer(config, on_ready).run()


class _AnnouncingServer(uvicorn.Server):
    """uvicorn's server, telling `on_ready` the address it listens on once it does."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[str], None] | None) -> None:
        super().__init__(config)
        self.on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.on_ready is None or not self.started:
            return
        host, port = next(s.getsockname() for server in self.servers for s in server.sockets)[:2]
        self.on_ready(f"http://{f'[{host}]' if ':' in host else host}:{port}")


@contextmanager
def background_server(
    store: Store, *, embedder: str | Embedder = "auto", host: str = "127.0.0.1"
) -> Iterator[str]:
    """The REST app served on a free port of `host` by a thread of this process, for as long as the block
    runs: its base URL. `embedder`: a choice as for `memql serve --embedder`, or an Embedder. What a tool
    that needs memql's endpoints for a while uses (`memql bench text2mem --store mem0` gives mem0 memql's
    /v1/embeddings this way)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port = probe.getsockname()[1]
    model = default_embedder(embedder) if isinstance(embedder, str) else embedder
    app = create_app(store, embedder=model, access_log=access_logger("off"))
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, access_log=False, log_level="warning"))
    thread = threading.Thread(target=server.run, name=f"memql-rest-{port}", daemon=True)
    thread.start()
    try:
        while not server.started:  # uvicorn sets it once the socket listens
            if not thread.is_alive():
                raise RuntimeError(f"the REST server on {host}:{port} did not start")
            time.sleep(0.01)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
