"""`memql maintain run`: the maintenance runner (Memory.maintenance) from the shell — once, or every N
seconds until interrupted, one JSON line per run that did something."""

from __future__ import annotations

import json
import signal
import sys

import click

from memql.interfaces.cli.common import emit_json, open_memory
from memql.interfaces.cli.profile_cmds import maintain_group


@maintain_group.command("run")
@click.option("--once", is_flag=True, help="Run once and print what it did, then exit.")
@click.option(
    "--every", type=click.FloatRange(min=0.01), default=60.0, show_default=True, metavar="SECONDS",
    help="Seconds between runs.",
)  # fmt: skip
@click.option(
    "--promote-every", type=click.FloatRange(min=0.01), default=None, metavar="SECONDS",
    help="Also promote episodes, at most this often (default: never).",
)  # fmt: skip
@click.option("--webhook", default=None, metavar="URL", help="POST the reminders due to this URL (JSON).")
@click.option("--json", "as_json", is_flag=True, help="With --once: print JSON even on a terminal.")
@click.pass_context
def maintain_run_command(
    ctx: click.Context,
    once: bool,
    every: float,
    promote_every: float | None,
    webhook: str | None,
    as_json: bool,
) -> None:
    """Apply expiry (Sweep), fire the reminders due (Remind, advancing each to its next occurrence) and,
    with --promote-every, promote episodes — each run through the verbs, visible in `memql history`.
    Exits 1 when a run reported an error (with --once), 2 on a bad option."""
    with open_memory(ctx) as memory:
        try:
            runner = memory.maintenance(every=every, promote_every=promote_every, webhook=webhook)
        except ValueError as exc:
            click.echo(f"memql: {exc}", err=True)
            sys.exit(2)
        if once:
            run = runner.run_once()
            if as_json or not sys.stdout.isatty():
                emit_json(run.to_json())
            else:
                _say(run.to_json())
            sys.exit(1 if run.errors else 0)
        click.echo(f"memql: maintenance every {every:g} s; Ctrl-C stops", err=True)
        # SIGTERM (systemd, Docker, Kubernetes) stops it as Ctrl-C does: a run under way is rolled back and
        # the store closes, buffered reads written (by default the signal ended the process unclosed)
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            while True:
                run = runner.run_once().to_json()
                if run["swept"] or run["due"] or run["promoted"] or run["errors"]:
                    click.echo(json.dumps(run, default=str))
                runner.wait(every)
        except KeyboardInterrupt:
            pass


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _say(run: dict) -> None:
    click.echo(f"swept {len(run['swept'])}, reminders due {len(run['due'])}")
    for due in run["due"]:
        click.echo(f"  due {due['id']}: {due['text']}")
    if run["promoted"] is not None:
        click.echo(f"promoted {len(run['promoted'])}")
    for error in run["errors"]:
        click.echo(f"  error: {error}", err=True)
