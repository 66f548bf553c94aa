"""`memql bench concurrency`: Retrieve throughput of reader processes over one SQLite file (or one
PostgreSQL schema), alone and beside a writer process (issue 20: readers must not queue behind each other
or behind a writer).

One store of `records` synthetic notes (memql.bench.perf's corpus) is loaded first. Then, for each count
of readers and with and without a writer, that many processes each open their own Memory on the file,
warm up (the first searches load the lexical index), wait for a common start and run lexical Retrieves
(k = 10, the perf bench's queries) for `seconds`; the writer Encodes new notes, one transaction each, for
the same time. Throughput is all readers' Retrieves over the measured time. The ratios the acceptance
names: readers=N over readers=1 (scaling), and with a writer over without (the writer's cost to reads).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memql.bench.perf import Note, corpus, in_store, machine, memql_load, memql_open, search_queries
from memql.bench.stores import is_postgres
from memql.ports.progress import Progress, silent

WARMUP_QUERIES = 20


def _opened(location: str) -> Path | str:
    """A store's location as the processes are given it (a string): a file's path, or a URL."""
    return location if is_postgres(location) else Path(location)


def _reader(location: str, queries: list[str], start: Any, seconds: float, out: Any) -> None:
    m = memql_open(_opened(location))
    try:
        for q in queries[:WARMUP_QUERIES]:
            m.retrieve(query=q, k=10)
        start.wait()
        done, failed, i = 0, 0, 0
        cpu = time.process_time()
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            result = m.retrieve(query=queries[i % len(queries)], k=10)
            done += result.success
            failed += not result.success
            i += 1
        out.put(("read", done, failed, time.process_time() - cpu))
    finally:
        m.close()


def _writer(location: str, texts: list[str], start: Any, seconds: float, out: Any) -> None:
    m = memql_open(_opened(location))
    try:
        start.wait()
        done, failed, i = 0, 0, 0
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            result = m.encode(f"{texts[i % len(texts)]} #{i}")  # distinct: no de-duplication
            done += result.success
            failed += not result.success
            i += 1
        out.put(("write", done, failed, 0.0))
    finally:
        m.close()


def _round(location: str, readers: int, writer: bool, queries: list[str], texts: list[str], seconds: float):
    """One measured round: `readers` reader processes (and a writer) started together."""
    context = multiprocessing.get_context("spawn")  # each process opens the store itself
    parties = readers + (1 if writer else 0) + 1  # and this process
    start, out = context.Barrier(parties), context.Queue()
    procs = [
        context.Process(target=_reader, args=(location, queries[r::readers] or queries, start, seconds, out))
        for r in range(readers)
    ]
    if writer:
        procs.append(context.Process(target=_writer, args=(location, texts, start, seconds, out)))
    for p in procs:
        p.start()
    start.wait(timeout=600)  # every process has warmed up: all start measuring now
    results = [out.get(timeout=seconds + 600) for _ in procs]
    for p in procs:
        p.join()
    reads = sum(n for kind, n, _, _ in results if kind == "read")
    writes = sum(n for kind, n, _, _ in results if kind == "write")
    failures = sum(f for _, _, f, _ in results)
    cpu = sum(c for kind, _, _, c in results if kind == "read")
    return {
        "readers": readers,
        "writer": writer,
        "retrieves": reads,
        "retrieve_per_s": round(reads / seconds, 1),
        # the readers' own CPU time per Retrieve: with C cores free, C / this is the most they can do
        "cpu_ms_per_retrieve": round(1000 * cpu / reads, 3) if reads else None,
        "reader_cpu_share": round(cpu / (readers * seconds), 3),  # of the time they ran: the rest waited
        "encode_per_s": round(writes / seconds, 1) if writer else None,
        "failed": failures,
    }


def load_store(
    path: Path | str, records: int, seed: int, progress: Progress
) -> tuple[Path | str, list[Note], list[str], list[str]]:
    """A new SQLite file at `path` (or the empty store a postgresql:// URL names) with `records` of perf's
    notes: the location, the notes, 400 search queries and 500 texts to Encode (distinct from the notes)."""
    if isinstance(path, Path) and path.exists():
        raise FileExistsError(f"{path} exists: give an empty directory")
    notes = corpus(records, seed)
    m = memql_open(path)
    try:
        memql_load(m, notes, 100, lambda n: progress("loading", n, records))
    finally:
        m.close()
    return path, notes, search_queries(400, seed), [n.text for n in corpus(500, seed + 2)]


def run(
    records: int = 10_000,
    *,
    readers: Sequence[int] = (1, 4),
    seconds: float = 5.0,
    seed: int = 7,
    directory: str | os.PathLike[str] | None = None,
    progress: Progress = silent,
) -> dict[str, Any]:
    """`directory` keeps the SQLite file; a postgresql:// URL there puts the store in a new schema of that
    database instead, dropped afterwards."""

    def measure(location: Path | str) -> dict[str, Any]:
        _, _, queries, texts = load_store(location, records, seed, progress)
        rounds = []
        for count in readers:
            for writer in (False, True):
                progress(f"{count} reader(s){' + writer' if writer else ''}", len(rounds), 2 * len(readers))
                rounds.append(_round(str(location), count, writer, queries, texts, seconds))
        return {"rounds": rounds}

    report = in_store(directory, "concurrency", f"concurrency-{records}.db", lambda at, _folder: measure(at))
    by = {(r["readers"], r["writer"]): r["retrieve_per_s"] for r in report["rounds"]}
    one = by.get((1, False))
    report["ratios"] = {
        f"readers_{n}_over_1": round(by[(n, False)] / one, 2) for n in readers if one and n != 1
    } | {
        f"writer_cost_{n}_readers": round(1 - by[(n, True)] / by[(n, False)], 3)
        for n in readers
        if by.get((n, False))
    }
    report.update(records=records, seconds=seconds, machine=machine(), load_average=os.getloadavg())
    return report
