"""`memql bench perf`: throughput and latency beside raw SQLite."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memql.interfaces.cli.bench_cmds import bench_group
from memql.interfaces.cli.common import emit_json, wants_json


def _sizes(_ctx: click.Context, _param: click.Parameter, value: str) -> list[int]:
    try:
        sizes = sorted({int(part) for part in value.split(",") if part.strip()})
    except ValueError:
        raise click.BadParameter("give record counts separated by commas, e.g. 10000,100000") from None
    if not sizes or sizes[0] <= 0:
        raise click.BadParameter("record counts must be positive")
    return sizes


@bench_group.command("perf")
@click.option(
    "--sizes",
    default="10000,100000",
    show_default=True,
    callback=_sizes,
    help="Store sizes (records) at which Retrieve is measured; loaded incrementally.",
)
@click.option("--queries", default=200, show_default=True, type=click.IntRange(1), help="Reads per kind.")
@click.option(
    "--encode-ops",
    default=2000,
    show_default=True,
    type=click.IntRange(1),
    help="Encodes measured one transaction per op.",
)
@click.option(
    "--db",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep the bench stores in this directory (default: a temporary one, removed afterwards).",
)
@click.option("--seed", default=7, show_default=True, type=int, help="Corpus and query seed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
def bench_perf_command(
    sizes: list[int], queries: int, encode_ops: int, directory: Path | None, seed: int, as_json: bool
) -> None:
    """Encode ops/s and Retrieve p50/p95 latency, each beside raw SQLite doing the same in the same run."""
    from memql.bench import perf

    def progress(message: str) -> None:
        if sys.stderr.isatty():
            click.echo(f"… {message}", err=True)

    try:
        report = perf.run(
            sizes, queries=queries, seed=seed, directory=directory, encode_ops=encode_ops, progress=progress
        )
    except (FileExistsError, OSError) as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    if wants_json(as_json):
        emit_json(report)
        return
    _print(report)


def _print(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    encode = Table(title="Encode throughput (ops/s)")
    for column in ("mode", "ops", "memql", "raw SQLite", "memql/raw"):
        encode.add_column(column, justify="left" if column == "mode" else "right")
    for key, label in (("per_op", "1 op per transaction"), ("batched", "100 ops per transaction")):
        row = report["encode"].get(key)
        if row:
            encode.add_row(
                label,
                str(row["ops"]),
                f"{row['memql_ops_s']:,.0f}",
                f"{row['raw_ops_s']:,.0f}",
                _x(row["ratio"]),
            )
    console.print(encode)

    load = Table(title="Load (batched) to each size, seconds")
    for column in ("records", "memql", "raw SQLite", "memql/raw time"):
        load.add_column(column, justify="right")
    for size, block in report["retrieve"].items():
        memql_s, raw_s = block["load_s"]["memql"], block["load_s"]["raw"]
        load.add_row(f"{int(size):,}", f"{memql_s:.1f}", f"{raw_s:.1f}", _x(memql_s / raw_s))
    console.print(load)

    table = Table(title="Retrieve latency (ms), 10 rows; × = memql/raw")
    for column in (
        "records",
        "read",
        "memql p50",
        "memql p95",
        "raw p50",
        "raw p95",
        "× p50",
        "× p95",
        "same top",
    ):
        table.add_column(column, justify="left" if column == "read" else "right")
    for size, block in report["retrieve"].items():
        for kind, label in (("search", "search"), ("filter", "tag filter")):
            r = block[kind]
            table.add_row(
                f"{int(size):,}",
                label,
                f"{r['memql_p50_ms']:.2f}",
                f"{r['memql_p95_ms']:.2f}",
                f"{r['raw_p50_ms']:.2f}",
                f"{r['raw_p95_ms']:.2f}",
                _x(r["ratio_p50"]),
                _x(r["ratio_p95"]),
                f"{r['same_top']:.0%}",
            )
    console.print(table)
    m = report["machine"]
    console.print(
        f"Python {m['python']}, SQLite {m['sqlite']}, {m['cpus']} CPUs; "
        f"{report['settings']['queries']} queries per read; total {report['elapsed_s']:.0f} s"
    )


def _x(ratio: float) -> str:
    return f"{ratio:.2f}×"
