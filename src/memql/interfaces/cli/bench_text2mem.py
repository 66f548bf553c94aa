"""`memql bench text2mem`: the Text2Mem Bench runner (gold IRs, later planners)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memql.interfaces.cli.bench_cmds import bench_group, prepare_report_dir, report_option, save_report
from memql.interfaces.cli.bench_data import TEXT2MEM_DATA
from memql.interfaces.cli.common import emit_json, wants_json
from memql.interfaces.cli.progress import progress_bars

_DEFAULT_FILES = ("text2mem-bench-dev.jsonl", "text2mem-bench-v1-merge-split-dev.jsonl")
_GROUPS = (
    ("by_file", "file"),
    ("by_op", "verb"),
    ("by_lang", "language"),
    ("by_structure", "structure"),
    ("by_instruction", "instruction"),
    ("by_instruction_structure", "instruction/structure"),
)


def _fraction(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


@bench_group.command("text2mem")
@click.option(
    "--data",
    "data",
    multiple=True,
    type=TEXT2MEM_DATA,
    help="Text2Mem Bench JSONL file, or a shipped set by name (memql-v1); repeatable "
    "(default: the two dev files in ../shared/data).",
)
@click.option(
    "--planner",
    type=click.Choice(["gold", "rules", "llm"]),
    default="gold",
    show_default=True,
    help="How instructions become IRs (gold: the sample's own schema_list; rules, llm: a planner that "
    "sees only the instruction and the store).",
)
@click.option(
    "--store",
    type=click.Choice(["sqlite", "mem0"]),
    default="sqlite",
    show_default=True,
    help="Where the samples run: memql's own in-memory store, or a mem0 OSS store through "
    "memql.adapters.mem0 (gold IRs only; reported per verb beside the SQLite run). Needs memql[mem0].",
)
@click.option("--limit", type=click.IntRange(min=1), help="Run at most N samples of each file.")
@click.option(
    "--lines",
    type=click.Choice(["even", "odd"]),
    help="Only the samples at even (0, 2, 4 ...) or odd positions of each file: a development half and a "
    "held-out half.",
)
@click.option("--only", "only", multiple=True, metavar="ID", help="Run only this sample id; repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.option("--failures", "show_failures", is_flag=True, help="List every failing sample with its reason.")
@report_option
def bench_text2mem_command(
    data: tuple[Path, ...],
    planner: str,
    store: str,
    limit: int | None,
    lines: str | None,
    only: tuple[str, ...],
    as_json: bool,
    show_failures: bool,
    report_dir: Path | None,
) -> None:
    """Run Text2Mem Bench samples and report ESR (executed) and EMR (assertions and ranking hold)."""
    from memql.bench import text2mem, text2mem_plan, text2mem_report
    from memql.bench.corpus import default_shared_dir

    if not data:
        shared = default_shared_dir() / "data"
        data = tuple(shared / name for name in _DEFAULT_FILES if (shared / name).is_file())
    if not data:
        click.echo("memql: no data found; pass --data FILE", err=True)
        sys.exit(2)
    try:
        chosen = text2mem_plan.resolve_planner(planner)
    except (ImportError, ValueError, RuntimeError) as exc:  # e.g. the LLM planner without a model configured
        click.echo(f"memql: planner {planner} is not available: {exc}", err=True)
        sys.exit(2)
    if store == "mem0":
        if planner != "gold":
            click.echo("memql: --store mem0 runs the gold IRs only (--planner gold)", err=True)
            sys.exit(2)
        _run_on_mem0(data, only=only, limit=limit, lines=lines, as_json=as_json, show_failures=show_failures)
        return
    prepare_report_dir(report_dir)
    with progress_bars(lines=True) as progress:
        results = text2mem.run_files(data, chosen, only=only, limit=limit, lines=lines, progress=progress)
    report = text2mem_report.summarize(results, planner)
    if wants_json(as_json):
        emit_json(report)
    else:
        _print_tables(report, show_failures)
    if report_dir is not None:  # written after the output, so a failure to write it loses no results
        from memql.bench.report_pages import text2mem_page

        save_report(report_dir, text2mem_page(report))


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _print_tables(report: dict[str, Any], show_failures: bool, console: Any = None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console()
    table = Table(title=f"Text2Mem Bench (planner: {report['planner']})")
    sma = "sma_lev" in report
    columns = [("group", "left"), ("", "left"), ("n", "right"), ("ESR", "right"), ("EMR", "right")]
    columns += [("EMR (paper)", "right")]  # satisfied assertions over all assertions
    if sma:
        columns += [("SMA-Lev", "right"), ("SMA-Cos", "right"), ("SMA (paper)", "right")]
    for column, justify in columns:
        table.add_column(column, justify=justify)  # type: ignore[arg-type]

    def cells(row: dict[str, Any]) -> list[str]:
        out = [str(row["n"]), f"{row['esr']:.1%}", f"{row['emr']:.1%}", _percent(row.get("emr_assertions"))]
        if sma:
            out += [
                _fraction(row.get("sma_lev")),
                _fraction(row.get("sma_cos")),
                _percent(row.get("sma_exact")),
            ]
        return out

    table.add_row("[bold]all[/bold]", "", *cells(report))
    valid = report["valid"]
    table.add_row("valid (gold not defective)", f"{valid['excluded']} excluded", *cells(valid))
    for key, label in _GROUPS:
        table.add_section()
        for name, row in report[key].items():
            table.add_row(label, escape(name), *cells(row))
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


def _run_on_mem0(data: tuple[Path, ...], *, as_json: bool, show_failures: bool, **choice: Any) -> None:
    """The samples on memql's store and on mem0 through the adapter; ESR/EMR per verb side by side."""
    from importlib.util import find_spec

    from memql.bench import text2mem, text2mem_report

    if find_spec("mem0") is None:  # said before the SQLite half runs for nothing
        click.echo("memql: the mem0 store needs mem0ai: pip install 'memql[mem0]'", err=True)
        sys.exit(2)
    from memql.bench.text2mem_mem0 import mem0_samples

    with progress_bars(lines=True) as progress:
        sqlite = text2mem.run_files(data, None, progress=progress, **choice)
        with mem0_samples() as on_mem0:
            mem0 = text2mem.run_files(data, None, progress=progress, store=on_mem0, **choice)
    report = text2mem_report.beside(
        {"sqlite": text2mem_report.summarize(sqlite), "mem0": text2mem_report.summarize(mem0)}
    )
    if wants_json(as_json):
        emit_json(report)
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    table = Table(title="Text2Mem Bench, gold IRs: memql's SQLite store beside mem0 (memql.adapters.mem0)")
    for column in ("verb", "n", "SQLite ESR", "SQLite EMR", "mem0 ESR", "mem0 EMR"):
        table.add_column(column, justify="left" if column == "verb" else "right")
    for name, row in report["rows"].items():
        if name in ("all", "single-op"):
            table.add_section()
        table.add_row(
            escape(name),
            str(row["n"]),
            *(f"{row[f'{store}_{rate}']:.1%}" for store in ("sqlite", "mem0") for rate in ("esr", "emr")),
        )
    console.print(table)
    failures = report["mem0"]["failures"]
    if failures and not show_failures:
        console.print(f"{len(failures)} samples fail on mem0; --failures lists them")
    for failure in failures if show_failures else []:
        console.print(f"[red]{failure['stage']}[/red] {escape(failure['id'])}: {escape(failure['reason'])}")
