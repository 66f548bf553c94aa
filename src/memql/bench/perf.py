"""`memql bench perf`: Encode throughput and Retrieve latency, each beside raw SQLite in the same run.

The corpus is synthetic and deterministic (seeded): short English and Chinese notes (about 80/20) drawn
from word lists with a Zipf-like word frequency, one to three tags from a small vocabulary, a topic facet
and an event time spread over a year.

The baseline (``memql.store.sqlite.baseline``, beside the backend whose SQL it is) is plain ``sqlite3`` on
a second file with the same settings (WAL, synchronous NORMAL) and the same ``records`` / ``records_fts``
DDL as memql's store, holding the same rows and the same pre-tokenised FTS body. Its inputs (JSON text,
FTS body, MATCH expression) are prepared outside the timed region, so it measures SQLite alone: the ratio
is memql's whole overhead (validation, dedupe hashing, keywords, tokenising, the audit log, row decoding,
visit bookkeeping). Its SELECTs return the same rows as memql's reads (same ORDER BY), so ``same_top``
reports how often the two top-10 lists agree.
"""

from __future__ import annotations

import os
import platform
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memql import Memory
from memql.bench.stores import fresh_postgres, is_postgres
from memql.engine.context import EngineConfig
from memql.ports.progress import Progress, silent
from memql.ports.record import Record
from memql.ports.store import Store
from memql.services.tokenize import STOP_WORDS
from memql.store.sqlite.baseline import RawRow, RawSQLite, match_expression, prepare

TENANT = "bench"
NOW = datetime(2026, 6, 1, tzinfo=UTC)  # the pinned clock: created_at of every record
_START = datetime(2025, 6, 1, tzinfo=UTC)  # event times spread over the year before NOW


def _words(block: str) -> list[str]:
    return block.split()


EN_WORDS = _words(
    """
    meeting project budget review deadline client report design launch team manager schedule call email
    invoice contract release server database backup deploy customer feedback roadmap sprint ticket
    bug feature test coffee lunch dinner flight hotel train passport visa doctor dentist gym run
    yoga recipe garden birthday gift party wedding school homework exam lecture library book article
    paper draft slide demo interview hiring salary tax bank loan rent insurance car repair garage
    phone laptop password account subscription renewal vacation beach mountain museum concert movie
    music guitar piano weather rain snow morning evening weekend monday friday office remote kitchen
    grocery milk bread apple medicine allergy appointment reminder plan idea goal habit note summary
    the a of to and in for with on about after before next this
"""
)
ZH_WORDS = _words(
    """
    会议 项目 预算 报告 客户 设计 发布 团队 经理 日程 电话 邮件 合同 服务器 数据库 备份 部署 反馈
    计划 任务 测试 咖啡 午饭 晚饭 航班 酒店 火车 护照 医生 牙医 健身 跑步 生日 礼物 聚会 学校 作业
    考试 图书馆 论文 演示 面试 工资 银行 房租 保险 汽车 手机 电脑 密码 假期 海边 博物馆 音乐会 电影
    天气 下雨 周末 办公室 厨房 牛奶 面包 药品 提醒 目标 习惯 笔记 明天 下周 已经 需要 记得
"""
)
TAGS = [f"t{i}" for i in range(20)]
TOPICS = ["work", "family", "health", "travel", "finance", "study", "home", "hobby"]
KINDS = ["note", "note", "note", "task", "event"]


@dataclass(frozen=True)
class Note:
    text: str
    tags: list[str]
    topic: str
    kind: str
    time: datetime

    @property
    def iso_time(self) -> str:
        return self.time.strftime("%Y-%m-%dT%H:%M:%SZ")

    def ir(self) -> dict[str, Any]:
        args = {"payload": {"text": self.text}, "tags": self.tags, "type": self.kind}
        return {"op": "Encode", "args": {**args, "facets": {"topic": self.topic}, "time": self.iso_time}}


def _zipf(n: int) -> list[float]:
    weights, total = [], 0.0
    for rank in range(n):
        total += 1.0 / (rank + 1) ** 0.9
        weights.append(total)
    return weights


def corpus(n: int, seed: int) -> list[Note]:
    """n distinct notes (memql would de-duplicate identical texts, which would desynchronise the ids)."""
    rng = random.Random(seed)
    en_cum, zh_cum = _zipf(len(EN_WORDS)), _zipf(len(ZH_WORDS))
    notes: list[Note] = []
    seen: set[str] = set()
    while len(notes) < n:
        if rng.random() < 0.8:
            words = rng.choices(EN_WORDS, cum_weights=en_cum, k=rng.randint(6, 14))
            text = " ".join(words).capitalize() + "."
        else:
            text = "".join(rng.choices(ZH_WORDS, cum_weights=zh_cum, k=rng.randint(4, 8))) + "。"
        if text in seen:
            continue
        seen.add(text)
        tags = sorted(rng.sample(TAGS, rng.randint(1, 3)))
        when = _START + timedelta(seconds=rng.randrange(365 * 86_400))
        notes.append(Note(text, tags, rng.choice(TOPICS), rng.choice(KINDS), when))
    return notes


def search_queries(n: int, seed: int) -> list[str]:
    """2-3 content words each: English joined by spaces, Chinese (one in five) written without spaces."""
    rng = random.Random(seed + 1)
    content = [w for w in EN_WORDS if w not in STOP_WORDS]
    return [
        " ".join(rng.sample(content, rng.randint(2, 3)))
        if rng.random() < 0.8
        else "".join(rng.sample(ZH_WORDS, rng.randint(2, 3)))
        for _ in range(n)
    ]


# --- raw SQLite baseline (memql.store.sqlite.baseline holds its SQL) ----------------------------------


def raw_rows(notes: Sequence[Note]) -> list[RawRow]:
    """The notes as records an application would insert (untimed: the baseline's inputs are prepared)."""
    return prepare(
        [
            Record(
                tenant=TENANT,
                owner=TENANT,
                text=n.text,
                kind=n.kind,
                tags=n.tags,
                facets={"topic": n.topic},
                time=n.time,
                created_at=NOW,
                updated_at=NOW,
            )
            for n in notes
        ]
    )


BULK_BATCH = 1000  # Encodes per batch of the bulk write (memql.engine.bulk.DEFAULT_BATCH)
BULK_LOAD = 10_000  # Encodes per bulk write when the Retrieve stores are loaded by bulk writes

# --- memql ---------------------------------------------------------------------------------------


def memql_open(path: Path | str | Store) -> Memory:
    """Without an embedder, whatever the environment says: this part measures lexical search against
    SQLite's own FTS, and embedding each Encode would charge memql for work the baseline does not do
    (hybrid search is measured by perf_dense). Recency and heat shaping are off: raw SQLite ranks by BM25
    alone, and `same_top` compares the two orders."""
    return Memory(
        str(path) if isinstance(path, Path) else path,  # a file, a postgresql:// URL or a store
        tenant=TENANT,
        actor=TENANT,
        clock=NOW,
        embedder=None,
        config=EngineConfig(recency_shaping=0.0, heat_shaping=0.0),
    )


def memql_load(
    m: Memory, notes: Sequence[Note], batch: int, done: Callable[[int], None] | None = None
) -> None:
    """Encode `notes`, `batch` per workflow; `done` hears how many are stored after each batch."""
    for start in range(0, len(notes), batch):
        result = m.execute([n.ir() for n in notes[start : start + batch]])
        if not result.success:
            raise RuntimeError(f"memql refused a load batch: {result.diagnostics}")
        if done is not None:
            done(min(start + batch, len(notes)))


def memql_bulk(m: Memory, irs: Sequence[dict[str, Any]], batch_size: int) -> None:
    """Encode `irs` (Note.ir) as one bulk write: one workflow, one transaction (Memory.encode_many)."""
    result = m.encode_many(irs, batch_size=batch_size)
    if not result.success:
        raise RuntimeError(f"memql refused the bulk write: {result.diagnostics}")


def memql_bulk_load(
    m: Memory, notes: Sequence[Note], per_write: int, done: Callable[[int], None] | None = None
) -> None:
    """Encode `notes` by bulk writes of `per_write` (one transaction each; `--bulk-load`)."""
    for start in range(0, len(notes), per_write):
        memql_bulk(m, [n.ir() for n in notes[start : start + per_write]], BULK_BATCH)
        if done is not None:
            done(min(start + per_write, len(notes)))


def memql_per_op(m: Memory, notes: Sequence[Note], done: Callable[[int], None] | None = None) -> None:
    for i, n in enumerate(notes, start=1):
        result = m.encode(n.text, tags=n.tags, type=n.kind, facets={"topic": n.topic}, time=n.iso_time)
        if not result.success:
            raise RuntimeError(f"memql refused an Encode: {result.diagnostics}")
        if done is not None and (i % 100 == 0 or i == len(notes)):
            done(i)


# --- measuring -----------------------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * p / 100
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def _timed(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def _latency(
    fn: Callable[[Any], list[str]], inputs: Sequence[Any], tick: Callable[[], None] = lambda: None
) -> tuple[list[float], list[list[str]]]:
    for item in inputs[:5]:  # warm-up
        fn(item)
    millis, answers = [], []
    for item in inputs:
        started = time.perf_counter()
        answer = fn(item)
        millis.append((time.perf_counter() - started) * 1000)
        answers.append(answer)
        tick()  # outside the timed span
    return millis, answers


def _compare(memql: tuple[list[float], list[list[str]]], raw: tuple[list[float], list[list[str]]]) -> dict:
    (mq, mq_ids), (rq, rq_ids) = memql, raw
    out = {
        "memql_p50_ms": percentile(mq, 50),
        "memql_p95_ms": percentile(mq, 95),
        "raw_p50_ms": percentile(rq, 50),
        "raw_p95_ms": percentile(rq, 95),
    }
    out["ratio_p50"] = out["memql_p50_ms"] / out["raw_p50_ms"]
    out["ratio_p95"] = out["memql_p95_ms"] / out["raw_p95_ms"]
    out["same_top"] = sum(a == b for a, b in zip(mq_ids, rq_ids, strict=True)) / len(mq_ids)
    out["mean_hits"] = sum(len(a) for a in mq_ids) / len(mq_ids)
    rounded: dict[str, Any] = {k: round(v, 4) for k, v in out.items()}
    # every query's time, in query order, so a report can draw the distribution behind p50/p95
    rounded["memql_latencies_ms"] = [round(v, 3) for v in mq]
    rounded["raw_latencies_ms"] = [round(v, 3) for v in rq]
    return rounded


def _retrieve(
    m: Memory,
    raw: RawSQLite,
    queries: list[str],
    tags: list[str],
    tick: Callable[[], None] = lambda: None,
) -> dict[str, Any]:
    def memql_search(q: str) -> list[str]:
        return [r["id"] for r in m.retrieve(query=q, k=10).data["rows"]]

    def memql_filter(tag: str) -> list[str]:
        return [r["id"] for r in m.retrieve(filter={"has_tags": [tag], "limit": 10}).data["rows"]]

    def raw_search(match: str) -> list[str]:
        return raw.search(TENANT, match, 10)

    def raw_filter(tag: str) -> list[str]:
        return raw.with_tag(TENANT, tag, 10)

    matches = [match_expression(q) for q in queries]
    return {
        "search": _compare(_latency(memql_search, queries, tick), _latency(raw_search, matches, tick)),
        "filter": _compare(_latency(memql_filter, tags, tick), _latency(raw_filter, tags, tick)),
    }


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
    }


def in_folder(
    directory: str | os.PathLike[str] | None, prefix: str, run: Callable[[Path], dict[str, Any]]
) -> dict[str, Any]:
    """`run` in `directory` (created if needed, kept) or in a temporary directory removed afterwards."""
    if directory is None:
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            return run(Path(tmp))
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    return run(folder)


def in_store(
    directory: str | os.PathLike[str] | None,
    label: str,
    file_name: str,
    run: Callable[[Path | str, Path], dict[str, Any]],
) -> dict[str, Any]:
    """`run(location, folder)` on a new store: the file `file_name` in `in_folder`'s folder or, when
    `directory` is a postgresql:// URL, a new schema of that database, dropped afterwards (the folder then
    temporary, for what stays a file); the report says which backend."""
    if not is_postgres(directory):
        report = in_folder(directory, f"memql-{label}-", lambda folder: run(folder / file_name, folder))
        return report | {"backend": "sqlite"}
    store = fresh_postgres(str(directory), label)
    try:
        report = in_folder(None, f"memql-{label}-", lambda folder: run(store.url, folder))
    finally:
        store.drop()
        store.close()
    return report | {"backend": "postgresql"}


def run(
    sizes: Sequence[int] = (10_000, 100_000),
    *,
    queries: int = 200,
    seed: int = 7,
    directory: str | os.PathLike[str] | None = None,
    encode_ops: int = 2_000,
    batch: int = 100,
    progress: Progress | None = None,
    backend: str | None = None,
    bulk_ops: int = 10_000,
    bulk_load: bool = False,
) -> dict[str, Any]:
    """Run the benchmark; stores go in `directory` (kept) or a temporary directory (removed). `backend`, a
    postgresql:// URL, puts memql's stores in new schemas of that database (dropped afterwards); the raw
    SQLite baseline stays the same."""
    if backend is not None and not is_postgres(backend):
        raise ValueError(f"backend must be a postgresql:// URL, not {backend!r}")
    sizes = sorted(set(sizes))
    if not sizes or sizes[0] <= 0 or queries <= 0 or encode_ops <= 0 or batch <= 0:
        raise ValueError("sizes, queries, encode_ops and batch must be positive")
    if bulk_ops < 0:
        raise ValueError("bulk_ops must be 0 (no bulk figure) or positive")
    say = progress or silent
    started = time.perf_counter()
    report = in_folder(
        directory,
        "memql-perf-",
        lambda f: _run(f, sizes, queries, seed, encode_ops, batch, say, backend, bulk_ops, bulk_load),
    )
    report["backend"] = "postgresql" if backend else "sqlite"
    report["elapsed_s"] = round(time.perf_counter() - started, 2)
    return report


def _run(
    folder: Path,
    sizes: list[int],
    queries: int,
    seed: int,
    encode_ops: int,
    batch: int,
    say: Progress,
    backend: str | None = None,
    bulk_ops: int = 0,
    bulk_load: bool = False,
) -> dict[str, Any]:
    names = ("encode-memql.db", "encode-raw.db", "bulk-memql.db", "bulk-raw.db", "memql.db", "raw.db")
    made: list[Store] = []

    def memql_store(name: str) -> Path | Store:
        if backend is None:
            return folder / name
        made.append(fresh_postgres(backend, "perf"))
        return made[-1]

    taken = [n for n in names if (folder / n).exists()]
    if taken:
        raise FileExistsError(f"{folder} already holds {', '.join(taken)}; use an empty directory")
    notes = corpus(max(sizes[-1], encode_ops, bulk_ops), seed)
    rows = raw_rows(notes)
    say(f"corpus: {len(notes)} notes (seed {seed})")

    task = f"encode, one transaction per op: {encode_ops} ops"
    say(task, 0, encode_ops)
    m = memql_open(memql_store("encode-memql.db"))
    memql_s = _timed(lambda: memql_per_op(m, notes[:encode_ops], lambda done: say(task, done, encode_ops)))
    m.close()
    raw = RawSQLite(folder / "encode-raw.db")
    raw_s = _timed(lambda: raw.insert(rows[:encode_ops], 1))
    raw.close()
    encode: dict[str, Any] = {"per_op": _throughput(encode_ops, 1, memql_s, raw_s)}
    if bulk_ops:
        encode["bulk"] = _bulk(folder, memql_store, notes[:bulk_ops], rows[:bulk_ops], say)

    m, raw = memql_open(memql_store("memql.db")), RawSQLite(folder / "raw.db")
    rng = random.Random(seed + 2)
    search = search_queries(queries, seed)
    tags = [rng.choice(TAGS) for _ in range(queries)]
    retrieve: dict[str, Any] = {}
    loaded, memql_total, raw_total = 0, 0.0, 0.0
    try:
        for size in sizes:
            step = BULK_LOAD if bulk_load else batch
            task = f"load {loaded} -> {size} records, {'bulk writes' if bulk_load else 'batches'} of {step}"
            say(task, 0, size - loaded)
            load = memql_bulk_load if bulk_load else memql_load
            memql_s = _timed(
                lambda lo=loaded, hi=size, task=task, load=load, step=step: load(
                    m, notes[lo:hi], step, lambda done: say(task, done, hi - lo)
                )
            )
            raw_s = _timed(lambda lo=loaded, hi=size: raw.insert(rows[lo:hi], batch))
            if loaded == 0:
                encode["batched"] = _throughput(size, batch, memql_s, raw_s)
            memql_total, raw_total, loaded = memql_total + memql_s, raw_total + raw_s, size
            caught_up_s = _timed(lambda: _lexical_settled(m))
            task, asked = f"retrieve at {size} records: {queries} searches, {queries} tag filters", [0]
            say(task, 0, 4 * queries)  # memql and raw SQLite each run both kinds

            def tick(task: str = task, asked: list[int] = asked) -> None:
                asked[0] += 1
                say(task, asked[0], 4 * queries)

            retrieve[str(size)] = {
                "records": size,
                "load_s": {"memql": round(memql_total, 3), "raw": round(raw_total, 3)},
                "lexical_settle_s": round(caught_up_s, 3),
                **_retrieve(m, raw, search, tags, tick),
            }
    finally:
        m.close()
        raw.close()
        for store in made:
            store.drop()  # type: ignore[attr-defined]
            store.close()
    return {
        "encode": encode,
        "retrieve": retrieve,
        "machine": machine(),
        "settings": {
            "seed": seed,
            "queries": queries,
            "encode_ops": encode_ops,
            "batch": batch,
            "bulk_ops": bulk_ops,
            "load": "bulk" if bulk_load else "workflows",
        },
    }


def _bulk(
    folder: Path,
    memql_store: Callable[[str], Path | Store],
    notes: Sequence[Note],
    rows: Sequence[RawRow],
    say: Progress,
) -> dict[str, Any]:
    """The bulk figure: `notes` as one bulk write (one transaction, written BULK_BATCH at a time) beside
    raw SQLite inserting the same rows in one transaction with `executemany`."""
    task = f"encode, one bulk write: {len(notes)} ops"
    say(task, 0, len(notes))
    m = memql_open(memql_store("bulk-memql.db"))
    irs = [n.ir() for n in notes]  # the input, built untimed as the baseline's rows are
    try:
        memql_s, memql_cpu = _timed_cpu(lambda: memql_bulk(m, irs, BULK_BATCH))
    finally:
        m.close()
    say(task, len(notes), len(notes))
    raw = RawSQLite(folder / "bulk-raw.db")
    try:
        raw_s, raw_cpu = _timed_cpu(lambda: raw.insert_many(rows))
    finally:
        raw.close()
    # on cores shared with other work the wall clock mostly measures the others: the CPU time of this
    # process (memql's Python and SQLite alike run in it; on PostgreSQL the server's share is not in it)
    n = len(notes)
    cpu = {"memql_cpu_ops_s": round(n / memql_cpu, 1), "raw_cpu_ops_s": round(n / raw_cpu, 1)}
    return _throughput(len(notes), len(notes), memql_s, raw_s) | cpu | {"batch_size": BULK_BATCH}


def _lexical_settled(m: Memory) -> None:
    """Until the store's lexical index has absorbed the load (a thread keeps it as the loader commits;
    the searches measure it settled, as a store serving searches runs, and the wait is reported)."""
    wait = getattr(getattr(m.store, "lexical", None), "wait", None)
    if wait is not None:
        wait()


def _timed_cpu(fn: Callable[[], Any]) -> tuple[float, float]:
    """(wall seconds, this process's CPU seconds) of fn()."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def _throughput(n: int, batch: int, memql_s: float, raw_s: float) -> dict[str, Any]:
    memql_ops, raw_ops = n / memql_s, n / raw_s
    return {
        "ops": n,
        "per_transaction": batch,
        "memql_ops_s": round(memql_ops, 1),
        "raw_ops_s": round(raw_ops, 1),
        "ratio": round(memql_ops / raw_ops, 4),
    }
