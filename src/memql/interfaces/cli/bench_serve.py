"""`memql bench serve`: the REST server with N workers under 1, 4 and 16 concurrent clients."""

from __future__ import annotations

import sys

import click

from memql.interfaces.cli.bench_cmds import bench_group, positive_ints
from memql.interfaces.cli.common import emit_json, wants_json
from memql.interfaces.cli.progress import progress_bars


@bench_group.command("serve")
@click.option("--records", default=10_000, show_default=True, type=click.IntRange(1), help="Store size.")
@click.option(
    "--workers",
    default="1,2",
    show_default=True,
    callback=positive_ints("worker counts", "1,2"),
    help="`memql serve --workers` counts, each measured.",
)
@click.option(
    "--clients",
    default="1,4,16",
    show_default=True,
    callback=positive_ints("client counts", "1,4,16"),
    help="Concurrent clients, each count a round per worker count.",
)
@click.option(
    "--seconds", default=5.0, show_default=True, type=click.FloatRange(0.1, 600), help="Time per round."
)
@click.option(
    "--write-share",
    default=0.1,
    show_default=True,
    type=click.FloatRange(0.0, 1.0),
    help="The share of requests that are Encodes (the rest: Retrieves).",
)
@click.option(
    "--db",
    "directory",
    metavar="DIR|URL",
    help="Keep the store in DIR (default: a temporary one); or a postgresql:// URL: the store goes in a new "
    "schema there, dropped afterwards (raw SQLite's floor stays a file).",
)
@click.option("--seed", default=7, show_default=True, type=int, help="Corpus and query seed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def bench_serve_command(
    records: int,
    workers: list[int],
    clients: list[int],
    seconds: float,
    write_share: float,
    directory: str | None,
    seed: int,
    as_json: bool,
) -> None:
    """Requests/s and p50/p95 per operation of `memql serve --workers W` (127.0.0.1 only) under C
    concurrent clients (Retrieve, and Encode with --write-share), beside one Retrieve's CPU bound and raw
    SQLite's query rate in the same run."""
    from memql.bench import serve

    try:
        with progress_bars() as progress:
            report = serve.run(
                records,
                workers=workers,
                clients=clients,
                seconds=seconds,
                write_share=write_share,
                seed=seed,
                directory=directory,
                progress=progress,
            )
    except (FileExistsError, OSError, RuntimeError, ValueError) as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    if wants_json(as_json):
        emit_json(report)
        return
    click.echo(
        f"{records} records, {seconds:g} s per round, {report['machine']['cpus']} CPUs; one Retrieve "
        f"{report['cpu_ms_per_retrieve']} ms CPU (bound {report['cpu_bound_retrieve_per_s']}/s); raw SQLite "
        f"{report['raw_sqlite_queries_per_s']} queries/s"
    )
    for r in report["rounds"]:
        click.echo(
            f"  {r['workers']} worker(s), {r['clients']:>2} client(s), writes {r['write_share']:.0%}: "
            f"{r['retrieve_per_s']} Retrieve/s (p50 {r['retrieve_p50_ms']}, p95 {r['retrieve_p95_ms']} ms), "
            f"{r['encode_per_s']} Encode/s (p50 {r['encode_p50_ms']} ms), failed {r['failed']}"
        )
    for name, value in report["rest_over_cpu_bound"].items():
        click.echo(f"  Retrieve/s over the CPU bound, read-only, {name}: {value}")
