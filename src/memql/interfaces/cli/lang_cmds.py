"""`memql validate` and `memql schema`: the language on the command line."""

from __future__ import annotations

import json
import sys

import click

from memql.interfaces.cli.common import emit_json, main, parse_now, read_input, wants_json
from memql.lang import json_schema, validate


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
    clock = parse_now(now_text) if now_text else click.get_current_context().obj["clock"]
    data = read_input(file)
    result = validate(data, now=clock.now(), strict=strict)
    if wants_json(as_json):
        emit_json(result.to_json())
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
    emit_json(json_schema(kind))  # type: ignore[arg-type]
