"""`memql bench state`: do contexts say what is true now (or at as_of), with extraction, against flat?"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memql.interfaces.cli.bench_cmds import bench_group
from memql.interfaces.cli.bench_data import STATE_DATA
from memql.interfaces.cli.common import emit_json, wants_json


@bench_group.command("state")
@click.option(
    "--data",
    "data",
    type=STATE_DATA,
    required=True,
    help="State bench JSONL file, or a shipped set by name (state-v1).",
)
@click.option(
    "--extractor",
    type=click.Choice(["rules", "llm", "none"]),
    default="rules",
    show_default=True,
    help="rules: offline; llm: the LLM of $MEMQL_LLM_BASE_URL/$MEMQL_LLM_MODEL; none: no extraction "
    "(the flat baseline alone).",
)
@click.option(
    "--budget", type=click.IntRange(1), default=300, show_default=True, help="Context budget in tokens."
)
@click.option(
    "--split",
    type=click.Choice(["all", "dev", "heldout"]),
    default="all",
    show_default=True,
    help="Only the items of one split (items without a split count under all only).",
)
@click.option(
    "--embedder",
    type=click.Choice(["none", "minilm", "auto"]),
    default="auto",
    show_default=True,
    help="auto: the packaged MiniLM when installed, else lexical search (as the other benches).",
)
@click.option("--limit", type=click.IntRange(1), default=None, help="Use only the first N items.")
@click.option("--contexts", is_flag=True, help="Give each miss in `wrong` the context text it was scored on.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def bench_state_command(
    data: Path,
    extractor: str,
    budget: int,
    split: str,
    embedder: str,
    limit: int | None,
    contexts: bool,
    as_json: bool,
) -> None:
    """Ingest each item's conversation on a fresh store and check that the context for each question
    holds the right value and no stale one outside history; baseline_flat answers the same questions
    with the flat strategy and no extraction."""
    from memql.bench.state import evaluate
    from memql.bench.state_data import StateDataError, load_items

    try:
        items = load_items(data)
    except (StateDataError, OSError) as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    if split != "all":
        items = [i for i in items if i.split == split]
    items = items[:limit] if limit else items
    if not items:
        click.echo(f"memql: no items in split {split!r} of {data}", err=True)
        sys.exit(2)
    chosen: Any = None if extractor == "none" else extractor
    if extractor == "llm":
        from memql.services.extract import make_extractor
        from memql.services.llm import LLMConfigError, llm_from_env

        try:
            chosen = make_extractor("llm", llm=llm_from_env())
        except LLMConfigError as exc:
            click.echo(f"memql: {exc}", err=True)
            sys.exit(2)
    report = evaluate(items, extractor=chosen, budget=budget, embedder=embedder, contexts=contexts)
    report["extractor"] = extractor
    report["data"] = str(data)
    if wants_json(as_json):
        emit_json(report)
        return
    _print(report)


def _print(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"State bench ({report['n']} questions, budget {report['budget']} tokens)")
    table.add_column("slice")
    table.add_column(f"extractor {report['extractor']}", justify="right")
    table.add_column("flat baseline", justify="right")
    base = report["baseline"]
    table.add_row("all", f"{report['accuracy']:.3f}", f"{base['accuracy']:.3f}")
    for group in ("by_kind", "by_lang", "by_split"):
        for name, value in report[group].items():
            table.add_row(f"{group[3:]} {name}", f"{value:.3f}", f"{base[group].get(name, 0.0):.3f}")
    Console().print(table)
