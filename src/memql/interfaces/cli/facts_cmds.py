"""`memql facts get|history`: typed facts (a shell over Memory.facts)."""

from __future__ import annotations

import json
import sys

import click

from memql.interfaces.cli.common import emit_json, main, open_memory, wants_json

_PARAMETER_NAMES = {"/as_of": "--as-of", "/recorded_at": "--recorded-at", "/subject": "SUBJECT"}


@main.group("facts")
def facts_group() -> None:
    """Typed facts: (subject, attribute) -> value over time, with sources."""


@facts_group.command("get")
@click.argument("subject")
@click.argument("attribute", required=False)
@click.option("--as-of", "as_of", metavar="TIME", help="World time: what was true then (default: now).")
@click.option(
    "--recorded-at", "recorded_at", metavar="TIME", help="Record time: what memql knew then (default: now)."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def get_command(
    ctx: click.Context,
    subject: str,
    attribute: str | None,
    as_of: str | None,
    recorded_at: str | None,
    as_json: bool,
) -> None:
    """The value of each of SUBJECT's attributes (or of ATTRIBUTE) at a world time, with its source.

    TIME is an ISO-8601 instant or a time expression ("2026-06-02", "yesterday"). An unknown subject
    gives an empty list (exit 0); a malformed time is a diagnostic (exit 1).
    """
    with open_memory(ctx, reads_only=True) as memory:
        result = memory.facts.get(subject, attribute, as_of=as_of, recorded_at=recorded_at)
    _finish(result, as_json, f"{subject} {attribute or ''}".strip())


@facts_group.command("history")
@click.argument("subject")
@click.argument("attribute")
@click.option(
    "--recorded-at", "recorded_at", metavar="TIME", help="Record time: the history as memql knew it then."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def history_command(
    ctx: click.Context, subject: str, attribute: str, recorded_at: str | None, as_json: bool
) -> None:
    """Every value SUBJECT's ATTRIBUTE has held, oldest first, each with its validity window and source."""
    with open_memory(ctx, reads_only=True) as memory:
        result = memory.facts.history(subject, attribute, recorded_at=recorded_at)
    _finish(result, as_json, f"history of {subject} {attribute}")


def _finish(result, as_json: bool, title: str) -> None:
    if wants_json(as_json):
        emit_json(result.to_json())
    else:
        _print(result, title)
    sys.exit(0 if result.success else 1)


def _print(result, title: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    for d in result.diagnostics + result.warnings:
        colour = "red" if d.severity == "error" else "yellow"
        where = _PARAMETER_NAMES.get(d.path, d.path or "/")
        text = escape(f"{where}: {d.message} [{d.rule}]")
        console.print(f"[{colour}]{d.severity}[/{colour}] {text}", highlight=False)
    if not result.success:
        return
    table = Table(title=escape(title))
    # "message": the record a fact was formed from (a conversation's), shown when any fact has one
    formed = any(fact.derived_from for fact in result.facts)
    columns = ("id", "attribute", "value", "valid from", "valid to", "source", "message", "recorded")
    for column in columns if formed else tuple(c for c in columns if c != "message"):
        table.add_column(column, overflow="fold")
    for fact in result.facts:
        data = fact.to_json()
        value = fact.value if isinstance(fact.value, str) else json.dumps(fact.value, ensure_ascii=False)
        cells = (fact.id, fact.attribute, value, data["valid_from"], data["valid_to"] or "-")
        derived = (", ".join(fact.derived_from) or "-",) if formed else ()
        table.add_row(*(escape(c) for c in (*cells, fact.source or "-", *derived, data["recorded_at"])))
    console.print(table)
