"""`memql bench perf`: throughput and latency beside raw SQLite."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memql.errors import MemqlError
from memql.interfaces.cli.bench_cmds import (
    bench_group,
    positive_ints,
    prepare_report_dir,
    report_option,
    save_report,
)
from memql.interfaces.cli.common import emit_json, wants_json
from memql.interfaces.cli.progress import progress_bars


@bench_group.command("perf")
@click.option(
    "--sizes",
    default="10000,100000",
    show_default=True,
    callback=positive_ints("record counts", "10000,100000"),
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
    "--bulk-ops",
    default=10_000,
    show_default=True,
    type=click.IntRange(0),
    help="Encodes of the bulk write measured in one transaction (Memory.encode_many); 0 skips it.",
)
@click.option(
    "--bulk-load",
    is_flag=True,
    help="Load the Retrieve stores, and the first-query part's stores with their embeddings, by bulk writes "
    "of 10,000 Encodes (Memory.encode_many, one transaction each) instead of workflows of 100: the same "
    "records, loaded faster (a million on PostgreSQL, whose HNSW index is then built after the load).",
)
@click.option(
    "--db",
    "directory",
    metavar="DIR|URL",
    help="Keep the bench stores in this directory (default: a temporary one, removed afterwards); or a "
    "postgresql:// URL: memql's stores go in new schemas there (dropped afterwards), the raw SQLite "
    "baseline stays, and the hybrid part (SQLite's own vector index) is skipped.",
)
@click.option(
    "--dense-sizes",
    default="10000,100000,1000000",
    show_default=True,
    callback=positive_ints("record counts", "10000,100000"),
    help="Store sizes (records) at which hybrid Retrieve is measured, HNSW index beside exact search.",
)
@click.option("--no-dense", is_flag=True, help="Skip the hybrid (BM25 + dense) part.")
@click.option(
    "--first-sizes",
    default=None,
    callback=positive_ints("record counts", "100000"),
    help="Store sizes (records) loaded with embeddings, closed and reopened, to time the first hybrid "
    "Retrieve and the next ones (on the --db backend).  [default: the largest of --sizes]",
)
@click.option("--no-first", is_flag=True, help="Skip the first-query part.")
@click.option(
    "--word-vectors",
    type=click.Choice(["minilm", "random"]),
    default="minilm",
    show_default=True,
    help="Word vectors of the hybrid part's embedder: MiniLM's (random ones if its weights are missing), "
    "or seeded random ones (quick checks).",
)
@click.option("--seed", default=7, show_default=True, type=int, help="Corpus and query seed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@report_option
def bench_perf_command(
    sizes: list[int],
    queries: int,
    encode_ops: int,
    bulk_ops: int,
    bulk_load: bool,
    directory: str | None,
    dense_sizes: list[int],
    no_dense: bool,
    first_sizes: list[int] | None,
    no_first: bool,
    word_vectors: str,
    seed: int,
    as_json: bool,
    report_dir: Path | None,
) -> None:
    """Encode ops/s and Retrieve p50/p95 latency, each beside raw SQLite doing the same in the same run;
    then hybrid Retrieve with the HNSW vector index beside exact vector search, and the index's recall."""
    from memql.bench import perf, perf_dense, perf_first
    from memql.bench.stores import is_postgres

    backend = directory if is_postgres(directory) else None
    folder = None if directory is None or backend else Path(directory)
    prepare_report_dir(report_dir)
    try:
        with progress_bars(lines=True) as progress:
            report = perf.run(
                sizes,
                queries=queries,
                seed=seed,
                directory=folder,
                encode_ops=encode_ops,
                bulk_ops=bulk_ops,
                bulk_load=bulk_load,
                progress=progress,
                backend=backend,
            )
            if not no_dense and backend is None:
                report["dense"] = perf_dense.run(
                    dense_sizes,
                    queries=queries,
                    seed=seed,
                    directory=folder,
                    word_vectors=word_vectors,
                    progress=progress,
                )
                report["retrieve_hybrid"] = report["dense"].pop("retrieve_hybrid")
            if not no_first:
                first = perf_first.run(
                    first_sizes or sizes[-1:],
                    queries=queries,
                    seed=seed,
                    directory=folder,
                    backend=backend,
                    progress=progress,
                    bulk_load=bulk_load,
                )
                report["first_query"] = first.pop("first_query")
                report["first_query_settings"] = first["settings"] | {"elapsed_s": first["elapsed_s"]}
    except (FileExistsError, OSError, ValueError, MemqlError) as exc:  # (an unreachable server)
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    if wants_json(as_json):
        emit_json(report)
    else:
        _print(report)
    if report_dir is not None:  # written after the output, so a failure to write it loses no results
        from memql.bench.report_pages import perf_page

        save_report(report_dir, perf_page(report))


# the Encode throughput figures: the report's key, its label
ENCODE_MODES = (
    ("per_op", "1 op per transaction"),
    ("batched", "100 ops per transaction"),
    ("bulk", "bulk write (encode_many), 1 transaction"),
)


def _print(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    memql = f"memql ({report.get('backend', 'sqlite')})"
    encode = Table(title="Encode throughput (ops/s)")
    for column in ("mode", "ops", memql, "raw SQLite", "memql/raw"):
        encode.add_column(column, justify="left" if column == "mode" else "right")
    for key, label in ENCODE_MODES:
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
    if "retrieve_hybrid" in report:
        _print_dense(console, report)
    if "first_query" in report:
        _print_first(console, report)
    m = report["machine"]
    total = report["elapsed_s"] + report.get("dense", {}).get("elapsed_s", 0.0)
    total += report.get("first_query_settings", {}).get("elapsed_s", 0.0)
    console.print(
        f"Python {m['python']}, SQLite {m['sqlite']}, {m['cpus']} CPUs; "
        f"{report['settings']['queries']} queries per read; total {total:.0f} s"
    )


def _x(ratio: float) -> str:
    return f"{ratio:.2f}×"


def _ms(block: dict[str, Any], prefix: str) -> str:
    """p50 / p95, or n/a when the figure was not measured (no query embedder installed)."""
    p50, p95 = block.get(f"{prefix}_p50_ms"), block.get(f"{prefix}_p95_ms")
    return "n/a" if p50 is None or p95 is None else f"{p50:.1f} / {p95:.1f}"


def _print_dense(console: Any, report: dict[str, Any]) -> None:
    from rich.table import Table

    dense, blocks = report["dense"], report["retrieve_hybrid"]
    ann = dense["settings"]["ann_index"]
    load = Table(
        title=f"Hybrid part: load with embeddings ({dense['embedder']['model']}), index warm-up",
        caption="warm-up: a fresh store's first query (builds or catches up its index); "
        "reopen: the same once the index is saved at this size",
    )
    columns = (
        "records",
        "load s",
        "of which embedding s",
        f"{ann} warm-up s",
        f"{ann} reopen s",
        "exact warm-up s",
        "lexical warm-up s",
        "lexical reopen s",
    )
    for column in columns:
        load.add_column(column, justify="right")
    for size, b in blocks.items():
        load.add_row(
            f"{int(size):,}",
            f"{b['load_s']:.1f}",
            f"{b['embed_s']:.1f}",
            f"{b['hnsw_warmup_s']:.2f}",
            f"{b['hnsw_reopen_s']:.2f}",
            f"{b['exact_warmup_s']:.2f}",
            f"{b.get('lexical_warmup_s', 0.0):.2f}",
            f"{b.get('lexical_reopen_s', 0.0):.2f}",
        )
    console.print(load)
    words = dense["embedder"]
    console.print(f"{words['vocabulary']:,} distinct words embedded first, in {words['vocabulary_s']:.1f} s")
    if dense["embedder"]["fallback"]:
        console.print(f"[yellow]{dense['embedder']['fallback']}[/yellow]")

    table = Table(
        title=f"Hybrid Retrieve (BM25 + dense), k = 10, p50 / p95 ms, query embedding excluded; "
        f"× = {ann}/exact",
        caption="recall@10: the index's dense top 10 against exact search's; lexical side: Retrieve with "
        f"alpha = 0; {ann} dense: the store's dense search alone (top 10)",
    )
    for column in ("records", ann, "exact", "× p50", "× p95", "recall@10", "lexical side", f"{ann} dense"):
        table.add_column(column, justify="right")
    for size, b in blocks.items():
        table.add_row(
            f"{int(size):,}",
            _ms(b, "hnsw"),
            _ms(b, "exact"),
            _x(b["ratio_p50"]),
            _x(b["ratio_p95"]),
            f"{b['recall_at_10']:.3f}",
            _ms(b, "lexical"),
            _ms(b, "hnsw_dense"),
        )
    console.print(table)

    lexical = Table(
        title="Lexical side alone (Retrieve, alpha = 0, k = 10), p50 / p95 ms; × = index/FTS5",
        caption="index: the store's lexical index in its default mode (which one answered: 'index'); "
        "FTS5: a store opened with lexical_index='fts5', queries alternating; same rows: the two stores' "
        "own top 10 (records and scores) agree",
    )
    for column in ("records", "index", "lexical side", "FTS5 alone", "× p50", "× p95", "same rows"):
        lexical.add_column(column, justify="right")
    for size, b in blocks.items():
        if "lexical_fts5_p50_ms" not in b:
            continue
        lexical.add_row(
            f"{int(size):,}",
            b["lexical_index"],
            _ms(b, "lexical"),
            _ms(b, "lexical_fts5"),
            _x(b["lexical_ratio_p50"]),
            _x(b["lexical_ratio_p95"]),
            f"{b['lexical_same_top']:.0%}",
        )
    console.print(lexical)

    cpu = Table(
        title="CPU time per query, p50 / p95 ms (the calling thread's: no waiting for a core)",
        caption="the same calls as above; on a shared machine wall time also holds the wait for a core; "
        "exact search's matrix product also runs on BLAS threads, not counted here",
    )
    for column in ("records", f"hybrid, {ann}", "hybrid, exact", "lexical side", "FTS5 alone"):
        cpu.add_column(column, justify="right")
    for size, b in blocks.items():
        if "hnsw_cpu_p50_ms" in b:
            cpu.add_row(
                f"{int(size):,}",
                _ms(b, "hnsw_cpu"),
                _ms(b, "exact_cpu"),
                _ms(b, "lexical_cpu"),
                _ms(b, "lexical_fts5_cpu"),
            )
    console.print(cpu)

    _print_baseline(console, blocks)

    embed = Table(
        title="With the query embedded by MiniLM, p50 / p95 ms",
        caption="each query's Retrieve time plus its embedding time, then percentiles of the sums",
    )
    for column in ("records", "embedding alone", f"{ann} + embedding", "exact + embedding"):
        embed.add_column(column, justify="right")
    for size, b in blocks.items():
        embed.add_row(
            f"{int(size):,}", _ms(b, "embed"), _ms(b, "hnsw_with_embed"), _ms(b, "exact_with_embed")
        )
    console.print(embed)


def _print_first(console: Any, report: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(
        title=f"First hybrid Retrieve after a load (memql {report.get('backend', 'sqlite')}), k = 10, ms",
        caption=f"loaded with embeddings ({_load_words(report)}), closed, reopened; first: its first "
        "Retrieve (query vector given), wall / CPU of the calling thread; then p50 / p95 of the next ones; "
        "building: an index build was still running in the background when the first answer came; "
        "settled: the next ones again once the store's background builds were done",
    )
    columns = ("records", "load s", "close s", "open s", "first", "next", "next CPU", "building", "settled")
    for column in columns:
        table.add_column(column, justify="right")
    for size, b in report["first_query"].items():
        table.add_row(
            f"{int(size):,}",
            f"{b['load_s']:.1f}",
            f"{b['close_s']:.2f}",
            f"{b['open_s']:.3f}",
            f"{b['first_ms']:.1f} / {b['first_cpu_ms']:.1f}",
            _ms(b, "after"),
            _ms(b, "after_cpu"),
            "yes" if b["building_after_first"] else "no",
            _ms(b, "settled") if "settled_p50_ms" in b else "",
        )
    console.print(table)


def _load_words(report: dict[str, Any]) -> str:
    settings = report.get("first_query_settings", {})
    batch = settings.get("batch", 100)
    return (
        f"bulk writes of {batch:,} Encodes"
        if settings.get("load") == "bulk"
        else f"batches of {batch} Encodes"
    )


def _print_baseline(console: Any, blocks: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(
        title="Hybrid Retrieve beside a hand-written hybrid search (plain sqlite3 + numpy), p50 / p95 ms",
        caption="baseline: exact cosine by a matrix product, FTS5 BM25, reciprocal rank fusion, the rows' "
        "text; same texts and vectors, queries alternating; CPU: the calling thread's; × = memql/baseline",
    )
    for column in ("records", "memql", "baseline", "× p50", "CPU memql", "CPU baseline", "× CPU p50"):
        table.add_column(column, justify="right")
    for size, b in blocks.items():
        c = b.get("baseline")
        if c:
            table.add_row(
                f"{int(size):,}",
                _ms(c, "memql"),
                _ms(c, "raw"),
                _x(c["ratio_p50"]),
                _ms(c, "memql_cpu"),
                _ms(c, "raw_cpu"),
                _x(c["ratio_cpu_p50"]),
            )
    console.print(table)
