"""`memql bench text2mem`: the Text2Mem Bench runner (gold IRs, later planners)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memql.interfaces.cli.bench_cmds import bench_group
from memql.interfaces.cli.bench_data import BENCH_DATA
from memql.interfaces.cli.common import emit_json, wants_json

_DEFAULT_FILES = ("text2mem-bench-dev.jsonl", "text2mem-bench-v1-merge-split-dev.jsonl")
_GROUPS = (
    ("by_file", "file"),
    ("by_op", "verb"),
    ("by_lang", "language"),
    ("by_structure", "structure"),
    ("by_instruction", "instruction"),
)


@bench_group.command("text2mem")
@click.option(
    "--data",
    "data",
    multiple=True,
    type=BENCH_DATA,
    help="Text2Mem Bench JSONL file, or a shipped set by name (memql-v1); repeatable "
    "(default: the two dev files in ../shared/data).",
)
@click.option(
    "--planner",
    type=click.Choice(["gold"]),
    default="gold",
    show_default=True,
    help="How instructions become IRs (gold: the sample's own schema_list).",
)
@click.option("--limit", type=click.IntRange(min=1), help="Run at most N samples of each file.")
@click.option("--only", "only", multiple=True, metavar="ID", help="Run only this sample id; repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.option("--failures", "show_failures", is_flag=True, help="List every failing sample with its reason.")
def bench_text2mem_command(
    data: tuple[Path, ...],
    planner: str,
    limit: int | None,
    only: tuple[str, ...],
    as_json: bool,
    show_failures: bool,
) -> None:
    """Run Text2Mem Bench samples and report ESR (executed) and EMR (assertions and ranking hold)."""
    from memql.bench import text2mem, text2mem_report
    from memql.bench.corpus import default_shared_dir

    if not data:
        shared = default_shared_dir() / "data"
        data = tuple(shared / name for name in _DEFAULT_FILES if (shared / name).is_file())
    if not data:
        click.echo("memql: no data found; pass --data FILE", err=True)
        sys.exit(2)
    results = text2mem.run_files(data, text2mem.resolve_planner(planner), only=only, limit=limit)
    report = text2mem_report.summarize(results, planner)
    if wants_json(as_json):
        emit_json(report)
        return
    _print_tables(report, show_failures)


def _print_tables(report: dict[str, Any], show_failures: bool, console: Any = None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console()
    table = Table(title=f"Text2Mem Bench (planner: {report['planner']})")
    for column, justify in (
        ("group", "left"),
        ("", "left"),
        ("n", "right"),
        ("ESR", "right"),
        ("EMR", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    table.add_row("[bold]all[/bold]", "", str(report["n"]), f"{report['esr']:.1%}", f"{report['emr']:.1%}")
    valid = report["valid"]
    table.add_row(
        "valid (gold not defective)",
        f"{valid['excluded']} excluded",
        str(valid["n"]),
        f"{valid['esr']:.1%}",
        f"{valid['emr']:.1%}",
    )
    for key, label in _GROUPS:
        table.add_section()
        for name, row in report[key].items():
            table.add_row(label, escape(name), str(row["n"]), f"{row['esr']:.1%}", f"{row['emr']:.1%}")
    console.print(table)
    failures = report["failures"]
    if not show_failures:
        if failures:
            console.print(f"{len(failures)} failing samples; --failures lists them")
        return
    for failure in failures:
        note = " [dim](known defect)[/dim]" if "known_defect" in failure else ""
        console.print(
            f"[red]{failure['stage']}[/red] {escape(failure['id'])}{note}: {escape(failure['reason'])}"
        )
        if "known_defect" in failure:
            console.print(f"    [dim]{escape(failure['known_defect'])}[/dim]")
