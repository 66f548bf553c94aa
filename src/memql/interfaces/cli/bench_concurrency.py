"""`memql bench concurrency`: Retrieve throughput of reader processes over one SQLite file (or one
PostgreSQL schema), with and without a writer process beside them; and writer processes by themselves."""

from __future__ import annotations

import sys

import click

from memql.errors import MemqlError
from memql.interfaces.cli.bench_cmds import bench_group, positive_ints
from memql.interfaces.cli.common import emit_json, wants_json
from memql.interfaces.cli.progress import progress_bars


@bench_group.command("concurrency")
@click.option("--records", default=10_000, show_default=True, type=click.IntRange(1), help="Store size.")
@click.option(
    "--readers",
    default="1,4",
    show_default=True,
    callback=positive_ints("reader process counts", "1,4"),
    help="Reader process counts, each measured alone and beside one writer process.",
)
@click.option(
    "--writers",
    default=None,
    callback=positive_ints("writer process counts", "1,4"),
    help="Writer process counts, each measured by itself: Encodes/s, and how long a write took (p99, "
    "slowest) while the others wrote.",
)
@click.option(
    "--writer-pause-ms",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 10_000),
    help="With --writers: each writer pauses up to this long (uniformly drawn) after each write, as agents "
    "between their writes (0: as fast as it can).",
)
@click.option(
    "--seconds", default=5.0, show_default=True, type=click.FloatRange(0.1, 600), help="Time per round."
)
@click.option(
    "--db",
    "directory",
    metavar="DIR|URL",
    help="Keep the store in DIR (default: a temporary one); or a postgresql:// URL: the store goes in a new "
    "schema there, dropped afterwards.",
)
@click.option("--seed", default=7, show_default=True, type=int, help="Corpus and query seed.")
@click.option(
    "--repeat",
    default=1,
    show_default=True,
    type=click.IntRange(1, 50),
    help="Every round this many times, in turn; the ratios are of the median Retrieve/s.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def bench_concurrency_command(
    records: int,
    readers: list[int],
    writers: list[int] | None,
    writer_pause_ms: float,
    seconds: float,
    directory: str | None,
    seed: int,
    repeat: int,
    as_json: bool,
) -> None:
    """Retrieve/s of N reader processes (lexical search, k = 10) over one SQLite file in WAL (or one
    PostgreSQL schema), alone and beside one writer process (an Encode per transaction); the scaling and
    the writer's cost as ratios. With --writers, N writer processes by themselves: Encodes/s and the time
    a write took while the others wrote."""
    from memql.bench import concurrency

    try:
        with progress_bars() as progress:
            report = concurrency.run(
                records,
                readers=readers,
                writers=writers or (),
                writer_pause_ms=writer_pause_ms,
                seconds=seconds,
                seed=seed,
                directory=directory,
                repeat=repeat,
                progress=progress,
            )
    except (FileExistsError, OSError, ValueError, MemqlError) as exc:  # (an unreachable server)
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    if wants_json(as_json):
        emit_json(report)
        return
    turns = f", each {repeat} times" if repeat > 1 else ""
    click.echo(f"{records} records, {seconds:g} s per round{turns}, {report['machine']['cpus']} CPUs")
    for r in report["rounds"]:
        writer = f", writer {r['encode_per_s']} Encode/s" if r["writer"] else ""
        click.echo(
            f"  {r['readers']} reader(s): {r['retrieve_per_s']} Retrieve/s{writer}, failed {r['failed']}"
        )
    for r in report["writer_rounds"]:
        click.echo(
            f"  {r['writers']} writer(s): {r['encode_per_s']} Encode/s (each {r['encode_per_s_each']}), "
            f"a write p50 {r['write_ms_p50']} ms, p99 {r['write_ms_p99']} ms, "
            f"slowest {r['write_ms_max']} ms, failed {r['failed']}"
        )
    for name, value in report["ratios"].items():
        click.echo(f"  {name}: {value}")
