"""`memql bench conversation`: a long synthetic conversation through the MemoryOS tiers (bounded memory,
eviction by heat and promotion into LPM, checked in the audit log)."""

from __future__ import annotations

import sys
from typing import Any

import click

from memql.interfaces.cli.bench_cmds import bench_group
from memql.interfaces.cli.common import emit_json, wants_json


@bench_group.command("conversation")
@click.option(
    "--turns", type=click.IntRange(1), default=10_000, show_default=True, help="Exchanges to ingest."
)
@click.option("--stm", type=click.IntRange(1), default=None, help="STM capacity in pages (default: 7).")
@click.option("--mtm", type=click.IntRange(1), default=None, help="MTM capacity in segments (default: 200).")
@click.option(
    "--embedder",
    type=click.Choice(["none", "minilm", "auto"]),
    default="none",
    show_default=True,
    help="none: lexical cosine in Fscore (fast); minilm: the packaged MiniLM embeddings.",
)
@click.option(
    "--query-every",
    type=click.IntRange(0),
    default=10,
    show_default=True,
    help="Ask for a context every N turns.",
)
@click.option("--seed", type=int, default=7, show_default=True, help="Seed of the synthetic conversation.")
@click.option("--db", metavar="PATH|URL", default=None, help="Store location (default: SQLite in memory).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def bench_conversation_command(
    turns: int,
    stm: int | None,
    mtm: int | None,
    embedder: str,
    query_every: int,
    seed: int,
    db: str | None,
    as_json: bool,
) -> None:
    """Ingest a deterministic synthetic conversation with the tiers; report rate, tier sizes, evictions,
    promotions, peak Python memory, and audit-log evidence of both."""
    from memql.bench.conversation import run

    try:
        report = run(
            turns,
            stm=stm,
            mtm=mtm,
            embedder=embedder,
            location=db or ":memory:",
            query_every=query_every,
            seed=seed,
        )
    except (ValueError, OSError) as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    if wants_json(as_json):
        emit_json(report)
        return
    _print(report)


def _print(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Synthetic conversation through the tiers ({report['turns']} turns)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    rows = [
        ("ingest seconds", report["seconds"]),
        ("turns per second", report["turns_per_second"]),
        ("STM pages / capacity", f"{report['sizes']['stm']} / {report['config']['stm_capacity']}"),
        ("MTM segments / capacity", f"{report['sizes']['mtm']} / {report['config']['mtm_capacity']}"),
        ("LPM knowledge (<= 100)", report["sizes"]["lpm_knowledge"]),
        ("segments created", report["segments_created"]),
        ("evictions (coldest)", report["evictions"]),
        ("promotions into LPM", report["promotions"]),
        ("peak Python memory (MB)", report["peak_python_mb"]),
        ("within capacity", report["within_capacity"]),
    ]
    for name, value in rows:
        table.add_row(name, str(value))
    console = Console()
    console.print(table)
    for kind in ("evictions", "promotions"):
        for item in report["audit"][kind]:
            console.print(f"history of {item['id']}: {item['note']}")
