"""Shared pieces of the CLI: the `memql` group with its global options, clock and JSON helpers."""

from __future__ import annotations

import json
import sqlite3
import sys
from datetime import datetime
from typing import Any

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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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


def open_memory(ctx: click.Context):
    """The Memory the global options describe (opened lazily: `validate` and `schema` need no store)."""
    from memql import Memory
    from memql.engine.context import EngineConfig

    o = ctx.obj
    try:
        return Memory(
            o["db"],
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
        click.echo(f"memql: cannot open the store: {exc}", err=True)
        sys.exit(2)


def read_input(source: str) -> bytes:
    """The bytes of FILE or of standard input ('-'); exit 2 when unreadable."""
    try:
        if source == "-":
            return sys.stdin.buffer.read()
        with open(source, "rb") as handle:
            return handle.read()
    except OSError as exc:
        click.echo(f"memql: cannot read {source}: {exc.strerror or exc}", err=True)
        sys.exit(2)
