"""`memql bench concurrency`: Retrieve throughput of reader processes over one SQLite file (or one
PostgreSQL schema), alone and beside a writer process (issue 20: readers must not queue behind each other
or behind a writer).

One store of `records` synthetic notes (memql.bench.perf's corpus) is loaded first, and every round starts
from it as loaded: a writer's round adds thousands of records, which the next round would otherwise read
(its readers, then, searching a larger store than the rounds they are compared with). A SQLite store's
files are kept aside once loaded and put back after each round; on PostgreSQL each round after the first
loads a new schema. `repeat` runs every round that many times, in turn, for ratios of medians (a round
of a few seconds on shared cores moves by a tenth from one run to the next). Then, for each count
of readers and with and without a writer, that many processes each open their own Memory on the file,
warm up (the first searches load the lexical index), wait for a common start and run lexical Retrieves
(k = 10, the perf bench's queries) for `seconds`; the writer Encodes new notes, one transaction each, for
the same time. Throughput is all readers' Retrieves over the measured time. The ratios the acceptance
names: readers=N over readers=1 (scaling), and with a writer over without (the writer's cost to reads).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memql.bench.perf import Note, corpus, in_store, machine, memql_load, memql_open, search_queries
from memql.bench.stores import fresh_postgres, is_postgres
from memql.ports.progress import Progress, silent

WARMUP_QUERIES = 20


def _opened(location: str) -> Path | str:
    """A store's location as the processes are given it (a string): a file's path, or a URL."""
    return location if is_postgres(location) else Path(location)


def _reader(start: Any, out: Any, seconds: float, location: str, queries: list[str]) -> None:
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


def _writer(
    start: Any,
    out: Any,
    seconds: float,
    location: str,
    texts: list[str],
    name: str = "",
    pause_s: float = 0.0,
) -> None:
    """Encode as fast as it can, or with a pause of up to `pause_s` (uniform, seeded by `name`) after each."""
    m = memql_open(_opened(location))
    pauses = random.Random(name)
    try:
        start.wait()
        done, failed, i, took = 0, 0, 0, []
        stop = time.perf_counter() + seconds
        while (began := time.perf_counter()) < stop:
            result = m.encode(f"{texts[i % len(texts)]} #{name}{i}")  # distinct: no de-duplication
            took.append(time.perf_counter() - began)
            done += result.success
            failed += not result.success
            i += 1
            if pause_s:
                time.sleep(pauses.uniform(0, pause_s))
        out.put(("write", done, failed, 0.0, took))
    finally:
        m.close()


def _round(location: str, readers: int, writer: bool, queries: list[str], texts: list[str], seconds: float):
    """One measured round: `readers` reader processes (and a writer) started together."""
    jobs: list[tuple[Callable[..., None], tuple[Any, ...]]] = [
        (_reader, (location, queries[r::readers] or queries)) for r in range(readers)
    ]
    results = _together(seconds, [*jobs, *([(_writer, (location, texts))] if writer else [])])
    reads = sum(r[1] for r in results if r[0] == "read")
    writes = sum(r[1] for r in results if r[0] == "write")
    failures = sum(r[2] for r in results)
    cpu = sum(r[3] for r in results if r[0] == "read")
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


def _writers_round(
    location: str, writers: int, texts: list[str], seconds: float, pause_s: float
) -> dict[str, Any]:
    """`writers` processes each Encoding (one transaction each; `_writer`) for `seconds`: their Encodes/s,
    each one's share, and how long a write took (its wait for the others' write lock included)."""
    results = _together(seconds, [(_writer, (location, texts, f"w{w}.", pause_s)) for w in range(writers)])
    took = sorted(t for r in results for t in r[4])
    return {
        "writers": writers,
        "encode_per_s": round(sum(r[1] for r in results) / seconds, 1),
        "encode_per_s_each": sorted(round(r[1] / seconds, 1) for r in results),
        "write_ms_p50": _ms_at(took, 0.5),
        "write_ms_p99": _ms_at(took, 0.99),
        "write_ms_max": _ms_at(took, 1.0),
        "failed": sum(r[2] for r in results),
    }


def _together(seconds: float, jobs: list[tuple[Callable[..., None], tuple[Any, ...]]]) -> list[Any]:
    """Each job (a target and its own arguments) in a process of its own, each opening the store itself,
    all measuring from one moment once every one has warmed up; what each put on the queue."""
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(len(jobs) + 1), context.Queue()  # (and this process)
    procs = [context.Process(target=target, args=(start, out, seconds, *args)) for target, args in jobs]
    for p in procs:
        p.start()
    start.wait(timeout=600)  # every process has warmed up: all start measuring now
    results = [out.get(timeout=seconds + 600) for _ in procs]
    for p in procs:
        p.join()
    return results


def _ms_at(ordered: list[float], q: float) -> float | None:
    """The q-quantile of times in seconds (ordered), in ms."""
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else None


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


@contextmanager
def _as_loaded(location: Path | str, folder: Path, load: Callable[[str], Any]) -> Iterator[Callable[[], Any]]:
    """A context manager per round giving the store as loaded: a SQLite store's files (the file and what
    lies beside it: <file>.lexical, <file>.vectors) copied aside now (removed at the end) and put back
    after each round; for PostgreSQL the store loaded for the first round, then a new schema loaded by
    `load` for each other one, dropped after it."""
    if is_postgres(location):
        first = True

        @contextmanager
        def loaded_schema() -> Iterator[str]:
            nonlocal first
            if first:
                first = False
                yield str(location)
                return
            store = fresh_postgres(str(location), "concurrency")
            try:
                load(store.url)
                yield store.url
            finally:
                store.drop()
                store.close()

        yield loaded_schema
        return
    path = Path(location)
    aside = folder / "as-loaded"
    aside.mkdir()
    _copy(_beside(path), aside)

    @contextmanager
    def loaded_file() -> Iterator[Path]:
        try:
            yield path
        finally:
            for item in _beside(path):  # (the -wal and -shm files too: the processes have closed it)
                shutil.rmtree(item) if item.is_dir() else item.unlink()
            _copy(list(aside.iterdir()), path.parent)

    try:
        yield loaded_file
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def _copy(items: list[Path], into: Path) -> None:
    """Files and folders copied into a folder, under their own names."""
    for item in items:
        (shutil.copytree if item.is_dir() else shutil.copy2)(item, into / item.name)


def _beside(path: Path) -> list[Path]:
    """The store's file and everything named after it in its folder."""
    return [
        p
        for p in path.parent.iterdir()
        if p.name == path.name or p.name.startswith(f"{path.name}.") or p.name.startswith(f"{path.name}-")
    ]


def _count(location: Path | str) -> int:
    """The store's records (every tenant's): what a round starts from."""
    m = memql_open(location)
    try:
        return int(m.store.execute_sql("SELECT count(*) AS n FROM memory")[0]["n"])
    finally:
        m.close()


def run(
    records: int = 10_000,
    *,
    readers: Sequence[int] = (1, 4),
    writers: Sequence[int] = (),
    writer_pause_ms: float = 0.0,
    seconds: float = 5.0,
    seed: int = 7,
    directory: str | os.PathLike[str] | None = None,
    repeat: int = 1,
    progress: Progress = silent,
) -> dict[str, Any]:
    """`directory` keeps the SQLite file; a postgresql:// URL there puts the store in a new schema of that
    database instead, dropped afterwards. `repeat`: every round that many times, in turn (the rounds of
    one turn, then the next), the ratios of the median Retrieve/s of each (with each turn's own). `writers`:
    counts of writer processes each measured by itself (`_writers_round`), after the readers' rounds, each
    writer pausing up to `writer_pause_ms` after each write (0: as fast as it can)."""

    def measure(location: Path | str, folder: Path) -> dict[str, Any]:
        _, _, queries, texts = load_store(location, records, seed, progress)
        rounds: list[dict[str, Any]] = []
        written: list[dict[str, Any]] = []
        total = (2 * len(readers) + len(writers)) * repeat
        with _as_loaded(location, folder, lambda at: load_store(at, records, seed, progress)) as as_loaded:
            for turn in range(repeat):
                for count in readers:
                    for writer in (False, True):
                        progress(f"{count} reader(s){' + writer' if writer else ''}", len(rounds), total)
                        with as_loaded() as at:
                            start = _count(at)
                            rounds.append(_round(str(at), count, writer, queries, texts, seconds))
                            rounds[-1].update(records_at_start=start, turn=turn)
                for count in writers:
                    progress(f"{count} writer(s)", len(rounds) + len(written), total)
                    with as_loaded() as at:
                        written.append(
                            {
                                **_writers_round(str(at), count, texts, seconds, writer_pause_ms / 1000),
                                "turn": turn,
                            }
                        )
        return {"rounds": rounds, "writer_rounds": written}

    report = in_store(directory, "concurrency", f"concurrency-{records}.db", measure)
    report["ratios"] = _ratios(report["rounds"], readers) | _writer_ratios(report["writer_rounds"], writers)
    if repeat > 1:
        turns = [[r for r in report["rounds"] if r["turn"] == t] for t in range(repeat)]
        report["ratios_by_turn"] = [_ratios(rounds, readers) for rounds in turns]
    report.update(
        records=records,
        seconds=seconds,
        repeat=repeat,
        writer_pause_ms=writer_pause_ms,
        machine=machine(),
        load_average=os.getloadavg(),
    )
    return report


def _ratios(rounds: Sequence[dict[str, Any]], readers: Sequence[int]) -> dict[str, float]:
    """The acceptance's ratios, of each round kind's median Retrieve/s: N readers over one, and one minus
    N readers beside the writer over N readers alone; and that cost per 100 Encodes/s of the writer (its
    median): the writer writes as fast as it can, so a faster writer costs the readers more (it commits
    more often, the store grows more in a round), and this tells a change that made reads cheaper beside
    a writer from one that made the writer faster."""

    def median(n: int, writer: bool, key: str) -> float:
        return statistics.median(r[key] for r in rounds if (r["readers"], r["writer"]) == (n, writer))

    alone = {n: median(n, False, "retrieve_per_s") for n in readers}
    one = alone.get(1)
    out = {f"readers_{n}_over_1": round(alone[n] / one, 2) for n in readers if one and n != 1}
    for n in readers:
        if alone[n]:
            cost = 1 - median(n, True, "retrieve_per_s") / alone[n]
            out[f"writer_cost_{n}_readers"] = round(cost, 3)
            writes = median(n, True, "encode_per_s")
            if writes:
                out[f"writer_cost_{n}_readers_per_100_encodes_s"] = round(cost / (writes / 100), 4)
    return out


def _writer_ratios(rounds: Sequence[dict[str, Any]], writers: Sequence[int]) -> dict[str, float]:
    """Of each count's median: N writers' Encodes/s over one writer's, and a write's p99 and slowest."""
    out: dict[str, float] = {}
    median = {
        n: {k: statistics.median(r[k] for r in rounds if r["writers"] == n) for k in _WRITER_FIGURES}
        for n in writers
    }
    for n in writers:
        if 1 in median and median[1]["encode_per_s"] and n != 1:
            out[f"writers_{n}_over_1"] = round(median[n]["encode_per_s"] / median[1]["encode_per_s"], 2)
        out[f"write_ms_p99_{n}_writers"] = median[n]["write_ms_p99"]
        out[f"write_ms_max_{n}_writers"] = median[n]["write_ms_max"]
    return out


_WRITER_FIGURES = ("encode_per_s", "write_ms_p99", "write_ms_max")
