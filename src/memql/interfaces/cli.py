"""The `memql` command line: a thin shell over the Python API.

Human output (rich) when stdout is a terminal, JSON otherwise or with --json.
Exit codes: 0 success/valid, 1 invalid input, 2 the input could not be read or a usage error.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from memql import __version__
from memql.lang import json_schema, validate
from memql.lang.time import TimeParseError, parse_instant


def _now_option(value: str | None) -> datetime:
    """--now pins the clock (ISO-8601 with an offset); default is the system clock, read here in the shell.

    The offset is kept: calendar words ("tomorrow", "下周五") are read in the caller's timezone.
    """
    if value is None:
        return datetime.now(UTC).astimezone()
    try:
        parse_instant(value)  # the language's own check, for a consistent message
        instant = datetime.fromisoformat(value.strip())
    except (TimeParseError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--now") from None
    if instant.tzinfo is None:
        raise click.BadParameter("give a UTC offset, e.g. 2026-03-31T12:00:00+08:00", param_hint="--now")
    return instant


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _wants_json(flag: bool) -> bool:
    return flag or not sys.stdout.isatty()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memql")
def main() -> None:
    """memql: one typed, validated memory operation language for LLM agents."""


@main.command("validate")
@click.argument("file", required=False, default="-")
@click.option(
    "--now", "now_text", metavar="ISO", help="Reference time for relative expressions (default: now)."
)
@click.option("--strict", is_flag=True, help="Treat warnings (defaults, legacy spellings) as errors.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def validate_command(file: str, now_text: str | None, strict: bool, as_json: bool) -> None:
    """Validate an IR or workflow from FILE (or - for standard input).

    Prints {"valid", "kind", "diagnostics", "canonical"}; exits 0 when valid, 1 when invalid,
    2 when the input cannot be read.
    """
    now = _now_option(now_text)
    try:
        if file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(file, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        click.echo(f"memql: cannot read {file}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    result = validate(data, now=now, strict=strict)
    if _wants_json(as_json):
        _emit_json(result.to_json())
    else:
        _print_result(result, file)
    sys.exit(0 if result.valid else 1)


def _print_result(result, source: str) -> None:
    from rich.console import Console
    from rich.syntax import Syntax
    from rich.table import Table

    console = Console()
    where = "standard input" if source == "-" else source
    if result.valid:
        steps = len(result.canonical["workflow"]) if result.kind == "workflow" else 1
        what = f"workflow of {steps} step{'s' * (steps != 1)}" if result.kind == "workflow" else "IR"
        console.print(f"[green]valid[/green] {what} ({where})")
    else:
        console.print(f"[red]invalid[/red] ({where})")
    if result.diagnostics:
        table = Table(show_header=True, header_style="bold")
        for column in ("severity", "path", "rule", "message"):
            table.add_column(column, overflow="fold")
        for d in result.diagnostics:
            colour = "red" if d.severity == "error" else "yellow"
            table.add_row(f"[{colour}]{d.severity}[/{colour}]", d.path or "/", d.rule, d.message)
        console.print(table)
    if result.canonical is not None:
        text = json.dumps(result.canonical, ensure_ascii=False, indent=2)
        console.print(Syntax(text, "json", word_wrap=True, background_color="default"))


@main.command("schema")
@click.option(
    "--kind",
    type=click.Choice(["program", "ir", "workflow"]),
    default="program",
    show_default=True,
    help="Schema of one IR, a workflow, or either.",
)
def schema_command(kind: str) -> None:
    """Print the JSON Schema (Draft 2020-12) generated from the typed models."""
    _emit_json(json_schema(kind))  # type: ignore[arg-type]


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
    if _wants_json(as_json):
        _emit_json(report)
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


if __name__ == "__main__":  # pragma: no cover
    main()
