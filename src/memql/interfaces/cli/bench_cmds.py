"""`memql bench ...`: benchmarks over the Text2Mem and LoCoMo data."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from memql.interfaces.cli.common import emit_json, main, wants_json
from memql.interfaces.cli.progress import shows_progress


def positive_ints(what: str, example: str):
    """A click callback reading "N[,N2...]" into sorted distinct positive ints (None stays None)."""

    def parse(_ctx: click.Context, _param: click.Parameter, value: str | None) -> list[int] | None:
        if value is None:
            return None
        try:
            numbers = sorted({int(part) for part in value.split(",") if part.strip()})
        except ValueError:
            raise click.BadParameter(f"give {what} separated by commas, e.g. {example}") from None
        if not numbers or numbers[0] < 1:
            raise click.BadParameter(f"{what} must be positive")
        return numbers

    return parse


def report_option(command):
    """`--report DIR` on a bench command: its HTML and Markdown report with plots, and results.json."""
    return click.option(
        "--report",
        "report_dir",
        metavar="DIR",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Also write a report into DIR: index.html (self-contained, with plots), report.md with its "
        ".svg plots, and results.json (the --json output).",
    )(command)


def prepare_report_dir(directory: Path | None) -> None:
    """Make the report folder before the bench runs, so an unusable one fails in a second, not after it."""
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        click.echo(f"memql: --report {directory}: {exc.strerror or exc}", err=True)
        sys.exit(2)


def save_report(directory: Path | None, page) -> None:
    """Write a bench's report page (memql.bench.report.Report) into `directory`, when one was asked for."""
    if directory is None:
        return
    try:
        page.write(directory)
    except OSError as exc:
        click.echo(f"memql: cannot write the report into {directory}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    if shows_progress():
        click.echo(f"report: {directory / 'index.html'} (and report.md, results.json)", err=True)


@main.group("bench")
def bench_group() -> None:
    """Benchmarks over the Text2Mem and LoCoMo data."""


@bench_group.command("compat")
@click.option(
    "--reference",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of official Text2Mem example IRs (default: ../shared/reference/...).",
)
@click.option(
    "--data",
    "data",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Text2Mem Bench JSONL file; repeatable (default: every *.jsonl in ../shared/data).",
)
@click.option("--strict", is_flag=True, help="Count IRs that need a compatibility rewrite as failures.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def bench_compat_command(reference: Path | None, data: tuple[Path, ...], strict: bool, as_json: bool) -> None:
    """Count how many official example IRs and bench IRs validate, and say why the others do not."""
    from memql.bench import compat
    from memql.bench.corpus import default_shared_dir

    shared = default_shared_dir()
    if reference is None and not data:
        candidate = shared / "reference" / "text2mem-official-examples"
        reference = candidate if candidate.is_dir() else None
        data = tuple(sorted((shared / "data").glob("*.jsonl")))
    if reference is None and not data:
        click.echo("memql: no data found; pass --reference and/or --data", err=True)
        sys.exit(2)
    report = compat.run(compat.collect(reference, list(data)), strict=strict).to_json()
    if wants_json(as_json):
        emit_json(report)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Text2Mem IRs accepted by memql" + (" (strict)" if strict else ""))
    for column in ("source: group", "IRs", "valid", "share"):
        table.add_column(column, justify="left" if column.startswith("source") else "right")
    for group, row in report["groups"].items():
        table.add_row(group, str(row["total"]), str(row["valid"]), f"{row['valid'] / row['total']:.1%}")
    table.add_row(
        "[bold]all[/bold]",
        str(report["total"]),
        str(report["valid"]),
        f"{report['valid'] / max(report['total'], 1):.1%}",
    )
    console = Console()
    console.print(table)
    if report["warnings_by_rule"]:
        console.print(
            "warnings by rule: " + ", ".join(f"{k} {v}" for k, v in report["warnings_by_rule"].items())
        )
    for failure in report["failures"]:
        console.print(f"[red]refused[/red] {failure['source']} {failure['where']}")
        for line in failure["errors"]:
            console.print(f"    {line}")


@bench_group.command("embed")
@click.option("-n", "count", default=1000, show_default=True, help="Synthetic sentences to embed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def bench_embed_command(count: int, as_json: bool) -> None:
    """Load time and sentences/s of the local embedder (all-MiniLM-L6-v2 in numpy)."""
    from memql.bench.embed_speed import measure
    from memql.services.embedding import EmbedderUnavailable

    try:
        report = measure(n=count)
    except EmbedderUnavailable as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    if wants_json(as_json):
        emit_json(report)
    else:
        for key, value in report.items():
            click.echo(f"{key}: {value}")
