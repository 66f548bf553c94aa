"""`memql plan`: a natural-language instruction -> IR or workflow, optionally executed.

A destructive plan (any delete, all records, a lock change) is shown as a dry run first: it runs only
with --yes, or when the user confirms at the prompt (standard input a terminal).
"""

from __future__ import annotations

import json
import sys

import click

from memql.interfaces.cli.common import emit_json, main, open_memory, wants_json


@main.command("plan")
@click.argument("text")
@click.option("--lang", type=click.Choice(["auto", "en", "zh"]), default="auto", show_default=True)
@click.option(
    "--planner",
    type=click.Choice(["rules", "llm"]),
    default="rules",
    show_default=True,
    help="rules: offline, deterministic; llm: the OpenAI-compatible model configured in the environment.",
)
@click.option(
    "--execute", is_flag=True, help="Run the plan (a destructive one needs --yes or a confirmation)."
)
@click.option("--yes", "-y", is_flag=True, help="Confirm a destructive plan without asking.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def plan_command(
    ctx: click.Context, text: str, lang: str, planner: str, execute: bool, yes: bool, as_json: bool
):
    """Plan TEXT (English or Chinese) as memql IR; print the program, confidence and diagnostics.

    Exits 0 when planned (and, with --execute, run), 1 when the instruction needs clarifying, the run was
    refused, or a destructive plan was not confirmed; 2 on a usage error.
    """
    with open_memory(ctx) as memory:
        try:
            outcome = memory.plan(text, lang=lang, planner=planner, execute=execute, confirm=yes)
        except (ImportError, RuntimeError, ValueError) as exc:  # e.g. no LLM configured
            click.echo(f"memql: planner {planner} is not available: {exc}", err=True)
            sys.exit(2)
        shown = False
        if outcome.needs_confirmation and not as_json and _interactive():
            _print(outcome, asking=True)
            if not click.confirm("This plan is destructive. Execute it?", default=False):
                click.echo("not executed")
                sys.exit(1)
            outcome, shown = memory.execute_plan(outcome.plan, confirm=True), True
    if wants_json(as_json):
        emit_json(outcome.to_json())
    else:
        _print(outcome, plan_shown=shown)
    sys.exit(0 if outcome.ok else 1)


def _interactive() -> bool:
    """A person at a terminal, who can be asked."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _print(outcome, asking: bool = False, plan_shown: bool = False) -> None:
    from rich.console import Console
    from rich.syntax import Syntax

    console = Console()
    plan = outcome.plan
    if plan_shown:
        pass
    elif plan.program is None:
        console.print("[red]no plan[/red]")
    else:
        warn = " [yellow]destructive[/yellow]" if plan.destructive else ""
        console.print(f"plan ({plan.planner}, {plan.lang}) confidence {plan.confidence:.2f}{warn}")
        text = json.dumps(plan.program, ensure_ascii=False)  # one line: a plan reads like a sentence
        console.print(Syntax(text, "json", word_wrap=True, background_color="default"))
    for d in outcome.diagnostics:
        if d.rule == "plan.needs_confirmation":
            continue  # said below, with what the dry run found
        colour = "red" if d.severity == "error" else "yellow"
        console.print(f"  [{colour}]{d.severity}[/{colour}] {d.message} [{d.rule}]")
    result = outcome.result
    if result is None:
        return
    if outcome.needs_confirmation:
        hint = "" if asking else "; confirm with --yes to execute"
        console.print(f"[yellow]dry run[/yellow]: would affect {', '.join(result.affected_ids) or '-'}{hint}")
    else:
        state = "[green]executed[/green]" if outcome.executed else "[red]not executed[/red]"
        console.print(f"{state} {result.op} affected: {', '.join(result.affected_ids) or '-'}")
    for d in result.diagnostics:
        console.print(f"  [red]error[/red] {d.path or '/'} {d.message} [{d.rule}]")
    for change in result.preview or []:
        console.print(f"  would change {change.record_id} ({change.kind})")
    rows = (result.data or {}).get("rows")
    for row in rows or []:
        console.print(f"  {row.get('id')}: {str(row.get('text') or '')[:100]}")
    if (result.data or {}).get("summary"):
        console.print(f"  summary: {result.data['summary']}")
