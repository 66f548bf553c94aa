"""Concurrency: several processes writing one SQLite file — no error reaches a caller, no lost update.

Four processes run 500 mixed operations each (125 in the default Hypothesis profile, the same
share as the property tests' budgets: tests/budgets.py; helpers_durability.concurrency_worker), one
Memory per process: Encode, Update, Promote (a read-modify-write of the weight) and soft Delete of
their own records, Retrieve with read-your-writes checks, and Label add of a unique tag to ONE shared
record — the classic lost-update case, since every Label reads the tag list and writes it back.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from pathlib import Path
from typing import Any

from helpers_durability import OP_WEIGHTS, concurrency_worker, conversation_writer, fresh_file_opener

from budgets import examples
from memql import Memory

WORKERS = 4
OPS_PER_WORKER = examples(500)  # the overlap of the workers is asserted, whatever the count
SEED = 20240611
# what the fork server imports once, so that its children do not (see run_processes)
PRELOAD = ["memql.memory", "memql.store.sqlite", "memql.store.postgres", "memql.services.embedding"]


def fork_context() -> Any:
    """multiprocessing's fork server context, preloading PRELOAD (the first call in a test process starts
    the server; run_processes says why)."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    return ctx


def run_processes(target, args_for, n: int, timeout: float = 120) -> list:
    """Start n processes target(*args_for(i), barrier, queue); return what each one puts.

    Each is a new process forked from multiprocessing's fork server (a clean process, no threads, no open
    store, started once per test process), which has imported what a worker's Memory runs on: a spawned
    process would spend a second of CPU importing it before its first operation. `memql` alone is not
    enough, its root names are lazy: `memql.memory` brings the engine, the verbs and formation (~1 s of CPU
    a child otherwise), the embedding package is what a store's open reads, and PostgreSQL's store brings
    psycopg. (The workers' own modules are not preloaded: Python 3.11's fork server does not take the
    parent's sys.path, so it cannot import them; each child imports them, standard library only.)"""
    ctx = fork_context()
    barrier, queue = ctx.Barrier(n), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*args_for(i), barrier, queue)) for i in range(n)]
    for p in procs:
        p.start()
    try:
        out = [queue.get(timeout=timeout) for _ in procs]  # drain before join (large payloads)
    finally:
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.kill()
    assert [p.exitcode for p in procs] == [0] * n
    return out


def test_four_processes_mixed_writes_lose_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "concurrent.db")
    with Memory(db, tenant="T", actor="setup") as m:
        shared = m.encode("the shared record everybody labels", tags=["shared"])
        assert shared.success
        shared_id = shared.id

    started = time.monotonic()
    reports = run_processes(
        concurrency_worker, lambda w: (db, w, OPS_PER_WORKER, shared_id, SEED), WORKERS, timeout=150
    )
    elapsed = time.monotonic() - started
    print(f"\n{WORKERS} processes x {OPS_PER_WORKER} ops: {elapsed:.1f} s")

    failures = [f for r in reports for f in r["failures"]]
    assert failures == [], "\n".join(failures[:20])
    counts = {k: sum(r["counts"][k] for r in reports) for k in OP_WEIGHTS}
    assert sum(counts.values()) == WORKERS * OPS_PER_WORKER
    assert all(n > 0 for n in counts.values()), counts
    # the workers really overlapped (otherwise this would test nothing)
    assert max(r["started"] for r in reports) < min(r["finished"] for r in reports)

    with Memory(db, tenant="T", actor="checker") as m:

        def sql(query: str, *params: object) -> list:
            return m.store.execute_sql(query, params)

        # no lost update on the shared record: every Label's tag is there, once
        labels = [label for r in reports for label in r["labels"]]
        assert len(labels) == len(set(labels)) == counts["label_shared"]
        tags = json.loads(sql("SELECT tags FROM records WHERE num = ?", int(shared_id))[0][0])
        assert len(tags) == len(set(tags)) == len(labels) + 1
        assert set(tags) == {"shared", *labels}
        label_events = "SELECT COUNT(*) FROM events WHERE record_id = ? AND kind = 'update'"
        assert sql(label_events, shared_id)[0][0] == len(labels)

        # each worker's records are in the state its own operations imply
        owned = [set(r["own"]) for r in reports]
        assert sum(len(o) for o in owned) == len(set().union(*owned)) == counts["encode"]
        for report in reports:
            for rid, want in report["own"].items():
                (row,) = sql("SELECT text, weight, status, tags, tenant FROM records WHERE num = ?", int(rid))
                got = {"text": row[0], "weight": row[1], "status": row[2], "tags": json.loads(row[3])}
                assert got == want, (report["worker"], rid)
                assert row[4] == "T"
        assert sql("SELECT COUNT(*) FROM records")[0][0] == 1 + counts["encode"]

        # the audit log has every operation once (Retrieve included), and the store is intact
        assert sql("SELECT COUNT(*) FROM operations")[0][0] == 1 + WORKERS * OPS_PER_WORKER
        assert sql("SELECT COUNT(*) FROM records_fts")[0][0] == 1 + counts["encode"]
        assert [tuple(r) for r in sql("PRAGMA integrity_check")] == [("ok",)]
        hits = m.retrieve("shared record everybody").data["rows"]
        assert [h["id"] for h in hits] == [shared_id]


def test_processes_opening_a_fresh_file_at_once_all_succeed(tmp_path: Path) -> None:
    """Several processes open a store file that does not exist yet, at the same moment: each must get a
    working store (the first-run migration must not fail in the processes that lose the race)."""
    for attempt in range(4):
        db = str(tmp_path / f"fresh{attempt}.db")
        reports = run_processes(fresh_file_opener, lambda w, db=db: (db, w), WORKERS, timeout=60)
        assert [problem for _, problem in sorted(reports) if problem] == []
        with Memory(db, tenant="T") as m:
            assert m.store.execute_sql("SELECT COUNT(*) FROM records")[0][0] == WORKERS


def test_processes_adding_to_one_conversation_at_once_each_take_their_own_positions(new_location) -> None:
    """Each call reads the conversation's last position, then writes in a transaction of its own: three
    processes at once took the same positions (and turn ids). The write now checks, in its transaction,
    that no message took the position meanwhile (conversation.moved), and the served call tries again."""
    location = new_location()
    with Memory(location, tenant="T", actor="mira", embedder=None) as m:
        m.conversation(user="mira", agent="assistant").add_message("user", "hello")
    calls = 8
    reports = run_processes(conversation_writer, lambda w: (location, w, calls), 3, timeout=120)
    assert [problem for _, problem in sorted(reports) if problem] == []
    with Memory(location, tenant="T", actor="mira", embedder=None) as m:
        found = m.retrieve(
            filter={"has_tags": ["conv:mira/assistant"], "facets": {"level": "message"}, "limit": 100},
            include=["facets"],
        ).data["rows"]
    positions = sorted(row["facets"]["position"] for row in found)
    assert positions == list(range(1 + 3 * calls))
    assert len({row["facets"]["source_ids"][0] for row in found}) == len(found)
