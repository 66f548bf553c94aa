"""`memql proposals list|approve|reject|edit`: review what agents proposed (Memory.proposals)."""

from __future__ import annotations

import json

import click

from memql.cognition.profile.proposals import STATUSES
from memql.interfaces.cli.common import main, open_memory, wants_json
from memql.interfaces.cli.store_cmds import _finish


@main.group("proposals")
def proposals_group() -> None:
    """Memories agents proposed: list them, approve (optionally with edits) or reject them."""


@proposals_group.command("list")
@click.option("--status", type=click.Choice(STATUSES), default="pending", show_default=True)
@click.option("--limit", type=click.IntRange(1, 100_000), default=100, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def list_command(ctx: click.Context, status: str, limit: int, as_json: bool) -> None:
    """Proposals in a status, newest first (an agent sees only its own)."""
    with open_memory(ctx, reads_only=True) as memory:
        result = memory.proposals.list(status, limit=limit)
    if wants_json(as_json) or not result.success:
        _finish(result, as_json)
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{status} proposals")
    for column in ("id", "agent", "category", "sensitivity", "proposed", "expires", "text"):
        table.add_column(column, overflow="fold")
    for row in result.data["rows"]:
        content = (
            row["text"] if row["text"] is not None else json.dumps(row["structured"], ensure_ascii=False)
        )
        table.add_row(
            row["id"],
            row["agent"] or "-",
            row["category"] or "-",
            row["sensitivity"],
            row["created_at"].strftime("%Y-%m-%d %H:%M"),
            row["expire_at"].strftime("%Y-%m-%d %H:%M") if row["expire_at"] else "-",
            content or "",
        )
    Console().print(table)


@proposals_group.command("approve")
@click.argument("ids", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def approve_command(ctx: click.Context, ids: tuple[str, ...], as_json: bool) -> None:
    """Accept pending proposals as they are (the approver becomes their owner)."""
    with open_memory(ctx) as memory:
        _finish(memory.proposals.approve(list(ids)), as_json)


@proposals_group.command("reject")
@click.argument("ids", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def reject_command(ctx: click.Context, ids: tuple[str, ...], as_json: bool) -> None:
    """Reject pending proposals (kept, with status rejected, in the audit trail)."""
    with open_memory(ctx) as memory:
        _finish(memory.proposals.reject(list(ids)), as_json)


@proposals_group.command("edit")
@click.argument("record_id")
@click.option("--text", help="The corrected text.")
@click.option("--category", help="An a2p category (a2p:preferences, ...).")
@click.option("--memory-type", type=click.Choice(["episodic", "semantic", "procedural"]))
@click.option("--sensitivity", type=click.Choice(["standard", "sensitive", "restricted"]))
@click.option("--confidence", type=float)
@click.option("--tag", "tags", multiple=True, help="A tag (repeat for several; replaces the tags).")
@click.option("--set", "sets", multiple=True, metavar="FIELD=JSON", help="Any other Update field.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def edit_command(ctx: click.Context, record_id: str, sets: tuple[str, ...], as_json: bool, **given) -> None:
    """Approve a pending proposal with edits: the changes and the approval in one audited Update."""
    fields = {k: v for k, v in given.items() if v not in (None, ())}
    if "tags" in fields:
        fields["tags"] = list(fields["tags"])
    for item in sets:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{item!r} is not FIELD=JSON", param_hint="--set")
        try:
            fields[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            fields[name.strip()] = value  # a bare word: a string
    if not fields:
        raise click.UsageError("nothing to edit: give --text, --category, ... (or approve it as it is)")
    with open_memory(ctx) as memory:
        _finish(memory.proposals.edit(record_id, **fields), as_json)
