"""Running the app under uvicorn: the shared store and embedder, the access log's destination."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import uvicorn

from memql.interfaces.rest.app import ACCESS_LOGGER, create_app
from memql.memory import default_embedder
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
) -> None:
    """Serve until interrupted. The embedder is loaded once, before the first request."""
    errors = logging.getLogger("memql.rest")
    if not errors.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        errors.addHandler(handler)
        errors.propagate = False
    app = create_app(
        store, embedder=default_embedder(embedder), max_body=max_body, access_log=access_logger(access_log)
    )
    # uvicorn's own access log is replaced by memql's structured one
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning")
