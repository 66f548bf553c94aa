"""`memql add`, `search`, `get`, `lineage`: the memory from the shell without writing IR JSON, each a thin
shell over the Memory method of the same name (add = encode, search = retrieve)."""

from __future__ import annotations

import json
import sys

import click

from memql.interfaces.cli.common import alias, emit_json, main, open_memory, wants_json
from memql.interfaces.cli.store_cmds import _finish

MEMORY_TYPES = ("episodic", "semantic", "procedural")


def _record_text(row: dict) -> str:
    if row.get("text") is not None:
        return row["text"]
    return json.dumps(row.get("structured"), ensure_ascii=False, default=str)


@main.command("add")
@click.argument("text")
@click.option("--tag", "tags", multiple=True, help="A tag (repeat for several).")
@click.option("--type", "type_", default=None, help="The record's type (note, task, event, knowledge, ...).")
@click.option("--memory-type", type=click.Choice(MEMORY_TYPES), default=None, help="a2p memory type.")
@click.option("--category", default=None, help="An a2p category, e.g. a2p:preferences.")
@click.option("--time", "time_", default=None, metavar="WHEN", help="When it happened (ISO-8601 or words).")
@click.option("--weight", type=click.FloatRange(0, 1), default=None, help="Importance, 0 to 1.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def add_command(
    ctx: click.Context,
    text: str,
    tags: tuple[str, ...],
    type_: str | None,
    memory_type: str | None,
    category: str | None,
    time_: str | None,
    weight: float | None,
    as_json: bool,
) -> None:
    """Remember TEXT (one Encode, as Memory.add). Prints the new record's id.

    Exits 0 when stored, 1 when refused (the diagnostics say why).
    """
    extra = {k: v for k, v in {"memory_type": memory_type, "category": category}.items() if v is not None}
    with open_memory(ctx) as memory:
        result = memory.add(text, type=type_, tags=list(tags) or None, time=time_, weight=weight, **extra)
    if wants_json(as_json) or not result.success:
        _finish(result, as_json)
    click.echo(f"added {result.id}")
    for w in result.warnings:
        click.echo(f"  warning {w.path or '/'} {w.message} [{w.rule}]", err=True)


@main.command("search")
@click.argument("query")
@click.option("-k", "k", type=click.IntRange(1, 1000), default=None, help="How many results [10].")
@click.option("--tag", "tags", multiple=True, help="Only records with this tag (repeatable: all of them).")
@click.option("--as-of", default=None, metavar="WHEN", help="Search the memory as it was then.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def search_command(
    ctx: click.Context, query: str, k: int | None, tags: tuple[str, ...], as_of: str | None, as_json: bool
) -> None:
    """Search the memory for QUERY (one Retrieve, as Memory.search), best first.

    Exits 0 (also when nothing matches), 1 when refused.
    """
    with open_memory(ctx, reads_only=True) as memory:
        result = memory.search(query, k=k, filter={"has_tags": list(tags)} if tags else None, as_of=as_of)
    if wants_json(as_json) or not result.success:
        _finish(result, as_json)
    rows = result.data.get("rows") or []
    if not rows:
        click.echo(f"no memories match {query!r}")
        return
    for row in rows:
        tags_text = f"  [{', '.join(row['tags'])}]" if row.get("tags") else ""
        click.echo(f"{row['id']:>6}  {row.get('score', 0):.3f}  {_record_text(row)}{tags_text}")


@main.command("get")
@click.argument("record_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def get_command(ctx: click.Context, record_id: str, as_json: bool) -> None:
    """One memory with every field this session may read (as Memory.get).

    Exits 0 when found, 1 when there is no such live record in the tenant (or it may not be read).
    """
    from memql.errors import Refusal

    with open_memory(ctx, reads_only=True) as memory:
        try:
            row = memory.get(record_id)
        except Refusal as exc:
            click.echo(f"memql: refused: {exc.message} [{exc.rule}]", err=True)
            sys.exit(1)
    if row is None:  # deleted, archived and expired records are not live: their history still shows them
        click.echo(
            f"memql: no record {record_id} in this tenant (deleted, archived and expired ones are not shown: "
            f"memql history {record_id})",
            err=True,
        )
        sys.exit(1)
    if wants_json(as_json):
        emit_json(row)
        return
    click.echo(f"{row['id']}: {_record_text(row)}")
    for key, value in row.items():
        if key in ("id", "text") or value in (None, [], {}):
            continue
        shown = value.isoformat() if hasattr(value, "isoformat") else value
        click.echo(f"  {key}: {json.dumps(shown, ensure_ascii=False, default=str)}")


@main.command("lineage")
@click.argument("record_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def lineage_command(ctx: click.Context, record_id: str, as_json: bool) -> None:
    """The record's lineage links, both directions (merged_into, split_from, supersedes, ...), as
    Memory.lineage. Exits 0 (a record with no links prints none), 1 for an id this session cannot read."""
    with open_memory(ctx, reads_only=True) as memory:
        links = memory.lineage(record_id)
        known = bool(links) or bool(memory.history(record_id))
    if not known:
        click.echo(f"memql: no record {record_id} in this tenant", err=True)
        sys.exit(1)
    if wants_json(as_json):
        emit_json(links)
        return
    if not links:
        click.echo(f"record {record_id} has no lineage links")
    for link in links:
        when = link["created_at"].strftime("%Y-%m-%d %H:%M:%S") if link.get("created_at") else "-"
        click.echo(f"{link['src']} {link['relation']} {link['dst']}  ({when})")


alias("add", "encode")
alias("search", "retrieve")
