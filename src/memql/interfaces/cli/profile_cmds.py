"""`memql export-a2p`, `import-a2p`, `reclassify`, `consolidate` and `promote-episodes`: a2p profiles on the
command line (each a thin shell over a Memory method; docs/profile.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from memql.engine.bulk import DEFAULT_BATCH
from memql.interfaces.cli.common import alias, emit_json, main, open_memory, read_input, wants_json
from memql.interfaces.cli.progress import progress_bars
from memql.interfaces.cli.store_cmds import _finish


def _print_diagnostics(items, *, err: bool = False) -> None:
    for d in items:
        click.echo(f"{d.severity}: {d.path or '/'}: {d.message} [{d.rule}]", err=err)


@main.command("export-a2p")
@click.option("--format", "fmt", type=click.Choice(["a2p"]), default="a2p", show_default=True)
@click.option("--user", default=None, help="Only the memories this user (owner) holds.")
@click.option("--did", default=None, help="The profile's DID (default: derived from the user or tenant).")
@click.option("--out", "out", type=click.Path(dir_okay=False), help="Write here instead of standard output.")
@click.pass_context
def export_command(ctx: click.Context, fmt: str, user: str | None, did: str | None, out: str | None) -> None:
    """The tenant's (or one user's) memories as an a2p profile: canonical JSON (Memory.export_a2p).

    Exits 0 on success, 1 when the export is refused (its diagnostics go to standard error).
    """
    with open_memory(ctx, reads_only=True) as memory:
        result = memory.export_a2p(user=user, did=did)
    if not result.success:
        _print_diagnostics(result.diagnostics, err=True)
        sys.exit(1)
    if out is None:
        click.echo(result.text(), nl=False)
        return
    try:
        Path(out).write_text(result.text(), encoding="utf-8")
    except OSError as exc:
        click.echo(f"memql: cannot write {out}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    click.echo(f"exported {result.count} memories to {out}", err=True)


@main.command("import-a2p")
@click.argument("file", required=False, default="-")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["a2p", "jsonl"]),
    default="a2p",
    show_default=True,
    help="a2p: a profile (Memory.import_a2p); jsonl: one Encode IR, Encode args or text per line "
    "(Memory.import_jsonl).",
)
@click.option(
    "--batch-size",
    default=DEFAULT_BATCH,
    show_default=True,
    type=click.IntRange(1),
    help="Encodes written at a time (one transaction whatever the size).",
)
@click.option("--dry-run", is_flag=True, help="Check and show the import; commit nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def import_command(
    ctx: click.Context, file: str, fmt: str, batch_size: int, dry_run: bool, as_json: bool
) -> None:
    """Import FILE (or - for standard input) into the tenant, owned by --actor: an a2p profile, or JSON
    Lines of Encodes as one bulk write.

    All or nothing. Exits 0 when imported, 1 when refused (nothing imported), 2 when unreadable.
    """
    data = read_input(file)
    if fmt == "jsonl":
        with open_memory(ctx) as memory, progress_bars() as progress:
            done = _counter(progress, "importing JSON Lines")
            written = memory.import_jsonl(data, batch_size=batch_size, dry_run=dry_run, on_step=done)
        _finish_bulk(written, as_json)
        return
    with open_memory(ctx) as memory, progress_bars() as progress:
        result = memory.import_a2p(data, dry_run=dry_run, progress=progress)
    if wants_json(as_json):
        emit_json(result.to_json())
    else:
        state = "imported" if result.success else "refused (nothing imported)"
        dry = " (dry run: nothing committed)" if result.dry_run else ""
        click.echo(f"{state}{dry}: {len(result.imported)} memories")
        _print_diagnostics(result.diagnostics + result.warnings)
    sys.exit(0 if result.success else 1)


def _counter(progress, task: str):
    """An on_step observer that reports every thousandth step (its total is not known in advance)."""

    def step(index: int, _result) -> None:
        if (index + 1) % 1000 == 0:
            progress(task, index + 1, None)

    return step


def _finish_bulk(result, as_json: bool) -> None:
    if wants_json(as_json):
        emit_json(result.to_json() | {"steps": len(result.steps or [])})
    else:
        state = "imported" if result.success else "refused (nothing imported)"
        dry = " (dry run: nothing committed)" if result.dry_run else ""
        records = len(result.affected_ids) if result.success else 0
        click.echo(f"{state}{dry}: {len(result.steps or [])} Encodes, {records} records")
        where = f" (step {result.failed_step})" if result.failed_step is not None else ""
        if where:
            click.echo(f"failed at{where}", err=True)
        _print_diagnostics(result.diagnostics + result.warnings)
    sys.exit(0 if result.success else 1)


@main.command("reclassify")
@click.argument("record_id")
@click.option("--type", "memory_type", type=click.Choice(["episodic", "semantic", "procedural"]))
@click.option("--category", default=None, help="The new category, e.g. a2p:preferences.ui.")
@click.option("--note", default=None, help="Why (kept in the audit log).")
@click.option("--dry-run", is_flag=True, help="Show the change; commit nothing.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def reclassify_command(
    ctx: click.Context,
    record_id: str,
    memory_type: str | None,
    category: str | None,
    note: str | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Give a memory another type and/or category (one audited Update)."""
    with open_memory(ctx) as memory:
        result = memory.reclassify(
            record_id, memory_type=memory_type, category=category, note=note, dry_run=dry_run
        )
    _finish(result, as_json)


@main.command("consolidate")
@click.argument("record_ids", nargs=-1, required=True)
@click.option("--primary", default=None, help="The memory that stays (default: as Merge picks).")
@click.option("--note", default=None, help="Why (kept in the audit log).")
@click.option("--dry-run", is_flag=True, help="Show the change; commit nothing.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def consolidate_command(
    ctx: click.Context,
    record_ids: tuple[str, ...],
    primary: str | None,
    note: str | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Fold memories into one (one Merge recording consolidatedFrom)."""
    with open_memory(ctx) as memory:
        result = memory.consolidate(list(record_ids), primary=primary, note=note, dry_run=dry_run)
    _finish(result, as_json)


@main.group("maintain")
def maintain_group() -> None:
    """Memory housekeeping written in the language."""


@maintain_group.command("promote")
@click.option("--dry-run", is_flag=True, help="Show the plan; change nothing.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--min-confidence", type=click.FloatRange(0, 1), default=0.9, show_default=True)
@click.option("--min-uses", type=click.IntRange(0), default=10, show_default=True)
@click.option("--min-similar", type=click.IntRange(1), default=2, show_default=True)
@click.option("--cosine", type=click.FloatRange(0, 1), default=0.75, show_default=True)
@click.option("--lexical", type=click.FloatRange(0, 1), default=0.5, show_default=True)
@click.option("--consolidate", is_flag=True, help="Also merge the repeats into the promoted memory.")
@click.pass_context
def promote_command(
    ctx: click.Context,
    dry_run: bool,
    as_json: bool,
    min_confidence: float,
    min_uses: int,
    min_similar: int,
    cosine: float,
    lexical: float,
    consolidate: bool,
) -> None:
    """Promote episodic memories to semantic ones: confidence above --min-confidence, more uses than
    --min-uses, and at least --min-similar similar episodes (embedding cosine >= --cosine, or without
    embeddings content-term overlap >= --lexical). Exits 0 on success, 1 when refused."""
    from memql.cognition.profile.promotion import PromotionConfig

    config = PromotionConfig(
        min_confidence=min_confidence,
        min_uses=min_uses,
        min_similar=min_similar,
        cosine_threshold=cosine,
        lexical_threshold=lexical,
        consolidate=consolidate,
    )
    with open_memory(ctx) as memory:
        report = memory.promote_episodes(config, dry_run=dry_run)
    if wants_json(as_json):
        emit_json(report.to_json())
    else:
        verb = "would promote" if dry_run else "promoted"
        click.echo(f"{verb} {len(report.promoted)} episodic memories to semantic")
        for p in report.promoted:
            repeats = ", ".join(f"{s['id']} ({s['similarity']})" for s in p.similar)
            click.echo(f"  {p.id}: confidence {p.confidence}, {p.uses} uses, repeats: {repeats}")
        for s in report.skipped:
            click.echo(f"  left {s['id']}: {s['reason']}")
        _print_diagnostics(report.diagnostics + report.warnings)
    sys.exit(0 if report.success else 1)


main.add_command(promote_command, "promote-episodes")  # Memory.promote_episodes; also `maintain promote`
alias("export-a2p", "export")
alias("import-a2p", "import")
