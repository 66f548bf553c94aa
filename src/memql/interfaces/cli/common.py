"""Shared pieces of the CLI: the `memql` group with its global options, clock and JSON helpers."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

import click

from memql import __version__
from memql.engine.access import CONSENTS, ROLES
from memql.lang.encoding import json_default
from memql.lang.fields import SENSITIVITY_ORDER
from memql.lang.time import TimeParseError, parse_instant
from memql.ports.clock import Clock, FixedClock, SystemClock


def parse_now(value: str | None) -> Clock:
    """--now pins the clock (ISO-8601 with an offset, which is kept: calendar words are read in it)."""
    if value is None:
        return SystemClock()
    try:
        parse_instant(value)  # the language's own check, for a consistent message
        instant = datetime.fromisoformat(value.strip())
    except (TimeParseError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--now") from None
    if instant.tzinfo is None:
        raise click.BadParameter("give a UTC offset, e.g. 2026-03-31T12:00:00+08:00", param_hint="--now")
    return FixedClock(instant)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=json_default))


def wants_json(flag: bool) -> bool:
    return flag or not sys.stdout.isatty()


class MemqlGroup(click.Group):
    """The `memql` group: commands under their API method's name (`export-a2p` is Memory.export_a2p), the
    older or shorter spellings kept as aliases (not listed twice in --help), and global options accepted
    after the subcommand too (`memql add TEXT --db x.db` is `memql --db x.db add TEXT`)."""

    aliases: ClassVar[dict[str, str]] = {}

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, self.aliases.get(cmd_name, cmd_name))

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name, command, rest = super().resolve_command(ctx, args)
        return self.aliases.get(name, name) if name else name, command, rest

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(self, ctx, list(args)))

    def invoke(self, ctx: click.Context) -> Any:
        """A refusal said outside a program's result (a command that writes without the engine, such as
        `keys create`, on a store another process keeps busy: store.busy) is a diagnostic and exit 1, as a
        refused program's is -- never a traceback."""
        from memql.errors import Refusal

        try:
            return super().invoke(ctx)
        except Refusal as refusal:
            click.echo(f"memql: refused: {refusal.message} [{refusal.rule}]", err=True)
            sys.exit(1)


def alias(name: str, *old: str) -> None:
    """Register older spellings of the command `name` (they run it; its help says so)."""
    command = main.commands[name]
    for spelling in old:
        MemqlGroup.aliases[spelling] = name
    command.help = (command.help or "") + "\n\nAlso spelled: " + ", ".join(f"memql {o}" for o in old) + "."


def _option_arity(command: click.Command) -> dict[str, int]:
    """Each option string of `command` -> how many values follow it (0 for a flag)."""
    arity = {"-h": 0, "--help": 0}
    for param in command.params:
        if isinstance(param, click.Option):
            count = 0 if param.is_flag or param.count else param.nargs
            for opt in (*param.opts, *param.secondary_opts):
                arity[opt] = count
    return arity


def hoist_global_options(group: click.Group, ctx: click.Context, args: list[str]) -> list[str]:
    """Move the group's own options found after the subcommand (and its sub-subcommands) to before it,
    unless the subcommand has an option of that name itself (`keys create --tenant` stays its own)."""
    own = _option_arity(group)
    i = 0
    while i < len(args):  # the group's options before the subcommand, as given
        name = args[i].split("=", 1)[0] if args[i].startswith("--") else args[i]
        if name not in own or name in ("-h", "--help"):
            break
        i += 1 if "=" in args[i] else 1 + own[name]
    if i >= len(args):
        return args
    path_end, command = i + 1, group.get_command(ctx, args[i])
    if command is None:
        return args
    theirs = _option_arity(command)
    while isinstance(command, click.Group) and path_end < len(args):
        sub = command.get_command(ctx, args[path_end])
        if sub is None:
            break
        command, path_end = sub, path_end + 1
        theirs |= _option_arity(command)
    moved: list[str] = []
    rest: list[str] = []
    j = path_end
    while j < len(args):
        token = args[j]
        if token == "--":
            rest.extend(args[j:])
            break
        name = token.split("=", 1)[0] if token.startswith("--") else token
        if name in own and name not in theirs and name not in ("-h", "--help"):
            width = 1 if "=" in token else 1 + own[name]
            moved.extend(args[j : j + width])
            j += width
            continue
        width = 1 if "=" in token else 1 + theirs.get(name, 0)
        rest.extend(args[j : j + width])
        j += width
    return args[:i] + moved + args[i:path_end] + rest


@click.group(cls=MemqlGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memql")
@click.option(
    "--db",
    envvar="MEMQL_DB",
    metavar="PATH",
    help="Store location (default: $MEMQL_DB, else memql.db in the per-user data directory).",
)
@click.option(
    "--tenant", default="default", show_default=True, envvar="MEMQL_TENANT", help="Tenant to act in."
)
@click.option("--actor", default=None, envvar="MEMQL_ACTOR", help="Who is acting (audited; owns locks).")
@click.option("--admin", is_flag=True, help="Act as an administrator (same as --role admin).")
@click.option(
    "--role",
    type=click.Choice(ROLES),
    default=None,
    envvar="MEMQL_ROLE",
    help="Act as a user (default), an admin, or an agent.",
)
@click.option(
    "--consent",
    type=click.Choice(CONSENTS),
    default=None,
    envvar="MEMQL_CONSENT",
    help="An agent's consent: propose (default), read, read_write.",
)
@click.option(
    "--clearance",
    type=click.Choice(SENSITIVITY_ORDER),
    default=None,
    envvar="MEMQL_CLEARANCE",
    help="The most protected sensitivity this session may read or act on "
    "[default: restricted; standard for an agent].",
)
@click.option(
    "--category",
    "categories",
    multiple=True,
    metavar="EXT=LEVEL",
    envvar="MEMQL_CATEGORIES",
    callback=lambda _ctx, _param, value: _categories(value),
    help="Register an extension category and its sensitivity, e.g. ext:acme:payroll=restricted; "
    "repeatable ($MEMQL_CATEGORIES: space-separated).",
)
@click.option("--now", "now_text", metavar="ISO", help="Pin the clock (ISO-8601 with offset).")
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    envvar="MEMQL_QUIET",
    help="No progress bars (they are drawn on standard error only when it is a terminal).",
)
@click.pass_context
def main(
    ctx: click.Context,
    db: str | None,
    tenant: str,
    actor: str | None,
    admin: bool,
    role: str | None,
    consent: str | None,
    clearance: str | None,
    categories: dict[str, str],
    now_text: str | None,
    quiet: bool,
) -> None:
    """memql: one typed, validated memory operation language for LLM agents."""
    ctx.obj = {
        "db": db,
        "tenant": tenant,
        "actor": actor,
        "admin": admin,
        "role": role,
        "consent": consent,
        "clearance": clearance,
        "categories": categories,
        "clock": parse_now(now_text),
        "now_text": now_text,
        "quiet": quiet,
    }


def _categories(values: tuple[str, ...]) -> dict[str, str]:
    """--category ext:acme:payroll=restricted (repeatable) -> {name: sensitivity}; a malformed one is a
    usage error naming the option, before any store is opened."""
    from memql.lang.categories import check_category

    registered: dict[str, str] = {}
    for value in values:
        name, _, level = value.partition("=")
        try:
            if not name.startswith("ext:"):
                raise ValueError("only ext: categories are registered; a2p: ones are standard")
            check_category(name)
        except ValueError as exc:
            raise click.BadParameter(f"{value!r}: {exc}", param_hint="--category") from None
        if level not in SENSITIVITY_ORDER:
            raise click.BadParameter(
                f"{value!r}: the sensitivity after '=' must be one of {', '.join(SENSITIVITY_ORDER)}",
                param_hint="--category",
            )
        registered[name] = level
    return registered


def open_memory(ctx: click.Context, *, reads_only: bool = False):
    """The Memory the global options describe (opened lazily: `validate` and `schema` need no store).
    `reads_only`: the command only reads, so a store file that --db or $MEMQL_DB names and that is not
    there is a mistake to say (exit 2), not an empty store to create (with its folders) and search."""
    from memql import Memory
    from memql.engine.access import identity
    from memql.engine.context import EngineConfig
    from memql.store import default_db_path, is_postgres_url

    o = ctx.obj
    try:  # a contradictory identity is a usage error, before any store is opened
        identity(o["actor"], role=o["role"], consent=o["consent"], clearance=o["clearance"], admin=o["admin"])
    except ValueError as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    named = o["db"] or os.environ.get("MEMQL_DB")
    location = o["db"] or str(default_db_path())
    if reads_only and named and not is_postgres_url(location) and not file_exists(location):
        click.echo(
            f"memql: no store at {location}: nothing to read there (a command that writes creates it)",
            err=True,
        )
        sys.exit(2)
    try:
        return Memory(
            location,
            tenant=o["tenant"],
            actor=o["actor"],
            admin=o["admin"],
            clock=o["clock"],
            clearance=o["clearance"],
            role=o["role"],
            consent=o["consent"],
            config=EngineConfig(categories=o["categories"]) if o["categories"] else None,
        )
    except (OSError, ValueError, RuntimeError, sqlite3.DatabaseError) as exc:  # unusable: not a traceback
        click.echo(store_problem(location, exc), err=True)
        sys.exit(2)


def close_on_stop_signals(close: Callable[[], None]) -> None:
    """SIGTERM and SIGINT end this process after `close()` (a Memory's or a store's: the visits and read
    audit entries its reads buffered are written), with the shells' usual status (128 + the signal).
    For a server that a signal would otherwise end unclosed: by default SIGTERM ends the process at once,
    and a stdio server's SIGINT waited for ever for the thread reading its input to finish (a uvicorn
    server captures both while it serves and raises the signal again after its shutdown: here)."""

    def stop(signum: int, frame: Any) -> None:
        try:
            close()
        finally:
            os._exit(128 + signum)  # (no wait for threads blocked reading a pipe)

    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, stop)


def file_exists(location: str) -> bool:
    """Whether a store file is at `location` (":memory:" always is; a name the system refuses, too long
    for one, names none)."""
    if location == ":memory:":
        return True
    try:
        return Path(location).expanduser().exists()
    except OSError:
        return False


def store_problem(location: str, exc: BaseException) -> str:
    """Why the store at `location` cannot be opened, in words: the path and the reason."""
    from memql.store import is_postgres_url

    text = str(exc).strip() or type(exc).__name__
    if is_postgres_url(location):
        parts = urlsplit(location)
        if parts.password:  # never echo a password
            netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
            location = urlunsplit(parts._replace(netloc=netloc))
        return f"memql: cannot open the store {location}: {text}"
    try:
        reason = _path_problem(Path(location).expanduser(), exc, text)
    except OSError:  # a name the system will not even look up (too long): its own error says so
        reason = text
    return f"memql: cannot open the store {location}: {reason}"


def _path_problem(path: Path, exc: BaseException, text: str) -> str:
    if path.is_dir():
        return "it is a directory; give a file in it, e.g. --db " + str(path / "memql.db")
    if "readonly" in text or "read-only" in text or (path.exists() and not os.access(path, os.W_OK)):
        return "it is read-only (memql writes its schema, records and audit log there)"
    if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text or "encrypted" in text):
        return "it is not a SQLite database, so not a memql store"
    if not path.exists() and not os.access(_existing_parent(path), os.W_OK):
        return f"{_existing_parent(path)} is not writable, so the store cannot be created"
    return text


def _existing_parent(path: Path) -> Path:
    parent = path.absolute().parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent


def port_free_or_exit(host: str, port: int) -> None:
    """Exit 2 with the reason when host:port cannot be listened on (taken, or not an address here)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do: TIME_WAIT is free
        try:
            probe.bind((host, port))
        except OSError as exc:
            click.echo(f"memql: cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
            sys.exit(2)


def announce_when_listening(host: str, port: int, message: str, *, timeout: float = 60.0) -> None:
    """Print `message` to standard error once something accepts connections on host:port (a server
    started next, in this thread); a daemon thread, so it never keeps the process alive."""

    def watch() -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((host, port), timeout=0.5):
                    click.echo(message, err=True)
                    return
            except OSError:
                time.sleep(0.1)

    threading.Thread(target=watch, name="memql-announce", daemon=True).start()


def read_input(source: str) -> bytes:
    """The bytes of FILE or of standard input ('-'); exit 2 when unreadable. On a terminal, reading
    standard input says so first (a command waiting for input should not look hung)."""
    try:
        if source == "-":
            if sys.stdin.isatty():
                click.echo(
                    "memql: reading from standard input (type or paste JSON, then Ctrl-D; or give a FILE)",
                    err=True,
                )
            return sys.stdin.buffer.read()
        with open(source, "rb") as handle:
            return handle.read()
    except OSError as exc:
        click.echo(f"memql: cannot read {source}: {exc.strerror or exc}", err=True)
        sys.exit(2)
