"""Subprocess side of the crash-safety and concurrency tests (not a test module).

``run_crash_logged`` (the crash tests), ``concurrency_worker`` and ``fresh_file_opener`` are targets of
processes forked from multiprocessing's fork server, so they live in an importable module rather than in
a test file. ``python helpers_durability.py MODE DB MARKER`` runs a crash helper by hand.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

# --- crash safety ----------------------------------------------------------------------------------

STOP_AFTER_STEP = 8  # the crashing workflow is killed after this step completes (of CRASH_WORKFLOW)
HANG_SECONDS = 120  # how long a "crashing" process sleeps inside its callback before giving up

# Fourteen steps: Encodes, then writes on the records of earlier steps and on records that were
# committed before the workflow started (ids 1-3), so a partial commit of any kind would be visible.
CRASH_WORKFLOW: list[dict[str, Any]] = [
    {"op": "Encode", "args": {"payload": {"text": "crash note zero about harbours"}, "tags": ["crash"]}},
    {"op": "Encode", "args": {"payload": {"text": "crash note one about lighthouses"}, "tags": ["crash"]}},
    {"op": "Encode", "args": {"payload": {"text": "crash note two about ferries"}, "tags": ["crash"]}},
    {"op": "Encode", "args": {"payload": {"text": "crash note three about tides"}, "weight": 0.2}},
    {"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["labelled"], "mode": "add"}},
    {"op": "Promote", "target": {"from_step": 1}, "args": {"weight_delta": 0.25}},
    {"op": "Label", "target": {"from_step": 2}, "args": {"tags": ["ferry"], "mode": "add"}},
    {"op": "Update", "target": {"from_step": 3}, "args": {"set": {"text": "crash note three, revised"}}},
    {"op": "Promote", "target": {"ids": ["1"]}, "args": {"weight": 0.95}},
    {"op": "Label", "target": {"ids": ["2"]}, "args": {"tags": ["touched"], "mode": "add"}},
    {"op": "Delete", "target": {"ids": ["3"]}, "args": {"soft": True}},
    {"op": "Encode", "args": {"payload": {"text": "crash note four about buoys"}}},
    {"op": "Expire", "target": {"from_step": 0}, "args": {"ttl": "P1D", "on_expire": "soft_delete"}},
    {"op": "Lock", "target": {"from_step": 1}, "args": {"mode": "read_only"}},
]

FIRST_IR = {
    "op": "Encode",
    "args": {"payload": {"text": "first durable note about anchors"}, "tags": ["first"], "weight": 0.7},
}


def second_ir(record_id: str) -> dict[str, Any]:
    return {"op": "Label", "target": {"ids": [record_id]}, "args": {"tags": ["second"], "mode": "add"}}


def _write_marker(marker: str, content: dict[str, Any]) -> None:
    """Atomically: the test must never read a half-written marker."""
    tmp = marker + ".tmp"
    Path(tmp).write_text(json.dumps(content))
    os.replace(tmp, marker)


def _hang(marker: str, content: dict[str, Any]) -> None:
    _write_marker(marker, content)
    time.sleep(HANG_SECONDS)  # the test kills us here
    sys.exit(3)  # not killed: the test fails on the exit code


def run_crash(mode: str, db: str, marker: str) -> None:
    from memql import Memory

    m = Memory(db, tenant="A", actor="crasher")
    if mode == "workflow":
        done: list[dict[str, Any]] = []

        def on_step(index: int, step: Any) -> None:
            done.append({"index": index, "success": step.success, "affected_ids": step.affected_ids})
            if index == STOP_AFTER_STEP:
                _hang(marker, {"steps": done})

        m.execute(CRASH_WORKFLOW, on_step=on_step)
    elif mode in ("between", "inside_second"):
        first = m.execute(FIRST_IR)
        state = {"first_success": first.success, "first_id": first.affected_ids}
        if mode == "between":  # the first IR has committed; the second has not begun
            _hang(marker, state)
        m.execute(second_ir(first.affected_ids[0]), on_step=lambda i, r: _hang(marker, state))
    else:
        raise SystemExit(f"unknown mode {mode}")
    sys.exit(4)  # reaching this point means the callback never hung


def run_crash_logged(mode: str, db: str, marker: str, log: str) -> None:
    """run_crash in a process of multiprocessing's, its output (and a traceback) written to `log`."""
    with open(log, "w") as out:
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
    run_crash(mode, db, marker)


# --- concurrency -----------------------------------------------------------------------------------

OP_WEIGHTS = {"encode": 22, "label_shared": 18, "promote": 15, "retrieve": 15, "update": 15, "delete": 15}
PROMOTE_DELTA = 0.0625


def clamp(value: float) -> float:
    """The engine's weight clamp (memql.engine.verbs.clamp), restated so the model is independent."""
    return min(1.0, max(0.0, round(value, 6)))


def concurrency_worker(
    db: str, worker: int, n_ops: int, shared_id: str, seed: int, barrier: Any, results: Any
) -> None:
    """Run n_ops mixed operations on one Memory; report failures and the state the ops imply."""
    failures: list[str] = []
    own: dict[str, dict[str, Any]] = {}  # id -> {"text", "weight", "status", "tags"}
    labels: list[str] = []
    counts = dict.fromkeys(OP_WEIGHTS, 0)
    started = finished = 0.0
    try:
        from memql import Memory

        rng = random.Random(seed * 1000 + worker)
        m = Memory(db, tenant="T", actor=f"worker{worker}")  # one Memory (one connection) for all ops
        tag = f"w{worker}"
        kinds, weights = list(OP_WEIGHTS), list(OP_WEIGHTS.values())
        barrier.wait(timeout=60)
        started = time.time()
        for i in range(n_ops):
            kind = rng.choices(kinds, weights)[0]
            live = [rid for rid, rec in own.items() if rec["status"] == "active"]
            if kind in ("promote", "update", "delete") and not live:
                kind = "encode"
            counts[kind] += 1
            try:
                problem = _one_op(m, kind, i, rng, tag, shared_id, own, live, labels)
            except Exception:
                problem = traceback.format_exc()
            if problem:
                failures.append(f"worker {worker} op {i} ({kind}): {problem}")
        finished = time.time()
        m.close()
    except Exception:
        failures.append(f"worker {worker}: {traceback.format_exc()}")
    results.put(
        {
            "worker": worker,
            "failures": failures,
            "own": own,
            "labels": labels,
            "counts": counts,
            "started": started,
            "finished": finished,
        }
    )


def _failed(result: Any) -> str | None:
    if result.success:
        return None
    return "; ".join(f"{d.rule}: {d.message}" for d in result.diagnostics) or "success False"


def _one_op(
    m: Any,
    kind: str,
    i: int,
    rng: random.Random,
    tag: str,
    shared_id: str,
    own: dict[str, dict[str, Any]],
    live: list[str],
    labels: list[str],
) -> str | None:
    """One operation and its check against the worker's model; returns a problem or None."""
    if kind == "encode":
        text = f"{tag} item {i} about {rng.choice(['rivers', 'hills', 'roads', 'bridges'])}"
        weight = rng.choice([0.25, 0.5])
        r = m.encode(text, tags=[tag], weight=weight)
        if (problem := _failed(r)) is not None:
            return problem
        if r.data.get("deduplicated") or r.id in own:
            return f"encode returned an existing id {r.id}"
        own[r.id] = {"text": text, "weight": weight, "status": "active", "tags": [tag]}
        return None
    if kind == "label_shared":
        label = f"{tag}-n{i}"
        r = m.label(shared_id, [label], mode="add")
        if (problem := _failed(r)) is not None:
            return problem
        labels.append(label)
        return None if r.affected_ids == [shared_id] else f"label affected {r.affected_ids}"
    if kind == "promote":
        rid = rng.choice(live)
        r = m.promote(rid, delta=PROMOTE_DELTA)
        if (problem := _failed(r)) is not None:
            return problem
        own[rid]["weight"] = clamp(own[rid]["weight"] + PROMOTE_DELTA)
        return None if r.affected_ids == [rid] else f"promote affected {r.affected_ids}"
    if kind == "update":
        rid = rng.choice(live)
        text = f"{tag} item {rid} revised at {i}"
        fields: dict[str, Any] = {"text": text}
        if rng.random() < 0.5:
            fields["weight"] = rng.choice([0.125, 0.375, 0.625])
        r = m.update(rid, **fields)
        if (problem := _failed(r)) is not None:
            return problem
        own[rid]["text"] = text
        own[rid]["weight"] = fields.get("weight", own[rid]["weight"])
        return None if r.affected_ids == [rid] else f"update affected {r.affected_ids}"
    if kind == "delete":
        rid = rng.choice(live)
        r = m.delete(rid)
        if (problem := _failed(r)) is not None:
            return problem
        own[rid]["status"] = "deleted"
        return None if r.affected_ids == [rid] else f"delete affected {r.affected_ids}"
    # retrieve: read-your-writes on own records, which no other worker touches
    if own and rng.random() < 0.6:
        rid = rng.choice(list(own))
        r = m.retrieve(ids=rid)
        if (problem := _failed(r)) is not None:
            return problem
        rows = r.data["rows"]
        if own[rid]["status"] != "active":
            return None if rows == [] else f"deleted record {rid} returned"
        if len(rows) != 1:
            return f"retrieve by id {rid} returned {len(rows)} rows"
        got = (rows[0]["text"], rows[0]["weight"])
        want = (own[rid]["text"], own[rid]["weight"])
        return None if got == want else f"record {rid} reads {got}, expected {want}"
    r = m.retrieve(filter={"has_tags": [tag], "limit": 20})
    if (problem := _failed(r)) is not None:
        return problem
    stray = [row["id"] for row in r.data["rows"] if own.get(row["id"], {}).get("status") != "active"]
    return None if not stray else f"filter on {tag} returned records not live for this worker: {stray}"


def fresh_file_opener(db: str, worker: int, barrier: Any, results: Any) -> None:
    """Open a store file that does not exist yet, at the same moment as the other workers, and write."""
    try:
        from memql import Memory

        barrier.wait(timeout=60)
        m = Memory(db, tenant="T", actor=f"opener{worker}")
        r = m.encode(f"opened by worker {worker}")
        m.close()
        results.put((worker, None if r.success else _failed(r)))
    except Exception:
        results.put((worker, traceback.format_exc()))


def conversation_writer(location: str, worker: int, calls: int, barrier: Any, results: Any) -> None:
    """Add `calls` messages, one a call, to one conversation as a server does (each call opens it anew:
    cognition/conversation/served.py), at the same time as the other workers."""
    try:
        from memql import Memory
        from memql.cognition.conversation.served import served_messages

        m = Memory(location, tenant="T", actor="mira", embedder=None)
        barrier.wait(timeout=60)
        for i in range(calls):
            served_messages(m.executor, [{"role": "user", "text": f"worker {worker} says {i}"}])
        m.close()
        results.put((worker, None))
    except Exception:
        results.put((worker, traceback.format_exc()))


if __name__ == "__main__":
    run_crash(*sys.argv[1:4])
