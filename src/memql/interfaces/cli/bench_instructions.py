"""`memql bench instructions`: are plain instructions read right, asked about, or misread?"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memql.interfaces.cli.bench_cmds import bench_group
from memql.interfaces.cli.bench_data import INSTRUCTIONS_DATA
from memql.interfaces.cli.common import emit_json, wants_json


@bench_group.command("instructions")
@click.option(
    "--data",
    "data",
    type=INSTRUCTIONS_DATA,
    default="instructions-v1",
    show_default=True,
    help="Instruction set JSONL file, or a shipped set by name.",
)
@click.option(
    "--planner",
    type=click.Choice(["rules", "llm"]),
    default="rules",
    show_default=True,
    help="rules: offline; llm: the LLM of $MEMQL_LLM_BASE_URL/$MEMQL_LLM_MODEL.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def bench_instructions_command(data: Path, planner: str, as_json: bool) -> None:
    """Plan each instruction against a twelve-record store and judge the plan: right, asked (the planner
    asked where it could have planned) or misread (a program that is not the reading). Reported overall
    and for the development half (even positions of each language) and the held-out half (odd)."""
    from memql.bench import instructions
    from memql.cognition.planner import make_planner

    try:
        chosen = make_planner(planner)
        items = instructions.load(data)
    except (ImportError, ValueError, RuntimeError, OSError, KeyError) as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    report = instructions.summary(instructions.run(chosen, items)) | {"planner": planner, "data": str(data)}
    if wants_json(as_json):
        emit_json(report)
        return
    _print(report)


def _print(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"Plain instructions (planner: {report['planner']})")
    for column in ("slice", "n", "right", "asked", "misread"):
        table.add_column(column, justify="left" if column == "slice" else "right")
    for name in ("all", "dev", "dev_en", "dev_zh", "heldout", "heldout_en", "heldout_zh"):
        row = report[name]
        table.add_row(name, str(row["n"]), *(f"{row[k]:.3f}" for k in ("right", "asked", "misread")))
    console = Console()
    console.print(table)
    for miss in report["misread"]:
        console.print(f"[red]misread[/red] {miss['id']}: {escape(miss['text'])} — {escape(miss['why'])}")
