"""Concurrency on PostgreSQL: eight writer processes × 500 mixed operations (125 in the default profile of
tests/budgets.py) — no error reaches a caller, no update is lost, lineage stays whole, and the kept
lexical statistics equal a recount.

The first test runs the SQLite concurrency workload (helpers_durability) in one tenant: every worker
labels ONE shared record (the classic lost-update case) and promotes, updates, deletes and reads its own.
The second merges records under contention in two tenants at once (tenant writers are serialised by
the backend, different tenants run side by side)."""

from __future__ import annotations

import json
import time

from helpers_durability import OP_WEIGHTS, concurrency_worker
from helpers_lineage import lineage_worker
from test_concurrency import run_processes

from budgets import examples
from memql import Memory
from pgtest import fresh_location

WORKERS = 8
OPS_PER_WORKER = examples(500)  # the overlap of the workers is asserted, whatever the count
SEED = 20240611


def sql(m: Memory, statement: str, *params: object) -> list[dict]:
    return m.store.execute_sql(statement, params)  # type: ignore[attr-defined]


def assert_lexical_statistics_match_a_recount(m: Memory) -> None:
    (kept,) = sql(m, "SELECT sum(docs) AS docs, sum(tokens) AS tokens FROM lexical_stats")
    (real,) = sql(m, "SELECT count(*) AS docs, sum(len) AS tokens FROM lexical_docs")
    assert (kept["docs"], kept["tokens"]) == (real["docs"], real["tokens"])
    assert real["docs"] == sql(m, "SELECT count(*) AS n FROM records")[0]["n"]
    stale = sql(
        m,
        "SELECT f.term FROM (SELECT term, tenant, sum(docs) AS docs FROM lexical_df GROUP BY term, tenant) f "
        "FULL JOIN (SELECT term, tenant, count(*) AS docs FROM lexical_postings GROUP BY term, tenant) p "
        "USING (term, tenant) WHERE COALESCE(f.docs, 0) <> COALESCE(p.docs, 0)",
    )
    assert stale == []


def test_eight_processes_mixed_writes_lose_nothing() -> None:
    db = fresh_location()
    with Memory(db, tenant="T", actor="setup") as m:
        shared_id = m.encode("the shared record everybody labels", tags=["shared"]).id

    started = time.monotonic()
    reports = run_processes(
        concurrency_worker, lambda w: (db, w, OPS_PER_WORKER, shared_id, SEED), WORKERS, timeout=300
    )
    print(f"\n{WORKERS} processes x {OPS_PER_WORKER} ops on PostgreSQL: {time.monotonic() - started:.1f} s")

    failures = [f for r in reports for f in r["failures"]]
    assert failures == [], "\n".join(failures[:20])
    counts = {k: sum(r["counts"][k] for r in reports) for k in OP_WEIGHTS}
    assert sum(counts.values()) == WORKERS * OPS_PER_WORKER and all(n > 0 for n in counts.values())
    assert max(r["started"] for r in reports) < min(r["finished"] for r in reports)

    with Memory(db, tenant="T", actor="checker") as m:
        labels = [label for r in reports for label in r["labels"]]
        assert len(labels) == len(set(labels)) == counts["label_shared"]
        (row,) = sql(m, "SELECT tags::text AS tags FROM records WHERE num = %s", int(shared_id))
        tags = json.loads(row["tags"])
        assert len(tags) == len(set(tags)) == len(labels) + 1 and set(tags) == {"shared", *labels}
        updates = "SELECT count(*) AS n FROM events WHERE record_id = %s AND kind = 'update'"
        assert sql(m, updates, shared_id)[0]["n"] == len(labels)

        owned = [set(r["own"]) for r in reports]
        assert sum(len(o) for o in owned) == len(set().union(*owned)) == counts["encode"]
        for report in reports:
            for rid, want in report["own"].items():
                (row,) = sql(
                    m,
                    "SELECT text, weight, status, tags::text AS tags, tenant FROM records WHERE num = %s",
                    int(rid),
                )
                got = {"text": row["text"], "weight": row["weight"], "status": row["status"]}
                assert {**got, "tags": json.loads(row["tags"])} == want, (report["worker"], rid)
                assert row["tenant"] == "T"
        assert sql(m, "SELECT count(*) AS n FROM records")[0]["n"] == 1 + counts["encode"]
        # ids are gapless: every number was taken by a committed insert
        assert sql(m, "SELECT max(num) AS n FROM records")[0]["n"] == 1 + counts["encode"]
        assert sql(m, "SELECT count(*) AS n FROM operations")[0]["n"] == 1 + WORKERS * OPS_PER_WORKER
        assert_lexical_statistics_match_a_recount(m)
        assert [h["id"] for h in m.retrieve("shared record everybody").data["rows"]] == [shared_id]


def test_eight_processes_merging_in_two_tenants_keep_lineage_whole() -> None:
    db = fresh_location()
    shared = {}
    for tenant in ("L0", "L1"):
        with Memory(db, tenant=tenant, actor="setup") as m:
            shared[tenant] = m.encode(f"the record {tenant} labels", tags=["shared"]).id
    reports = run_processes(lineage_worker, lambda w: (db, w, 150, shared, SEED), WORKERS, timeout=300)
    failures = [f for r in reports for f in r["failures"]]
    assert failures == [], "\n".join(failures[:20])
    assert sum(len(r["merges"]) for r in reports) > 50

    with Memory(db, tenant="L0", actor="checker") as m:
        for report in reports:
            tenant = f"L{report['worker'] % 2}"
            for rid, status in report["status"].items():
                (row,) = sql(m, "SELECT status, tenant FROM records WHERE num = %s", int(rid))
                assert (row["status"], row["tenant"]) == (status, tenant), (report["worker"], rid)
            for child, primary in report["merges"]:
                assert (
                    sql(
                        m,
                        "SELECT count(*) AS n FROM links WHERE tenant = %s AND src = %s AND dst = %s "
                        "AND relation = 'merged_into'",
                        tenant,
                        child,
                        primary,
                    )[0]["n"]
                    == 1
                )
        # every link joins two records of its own tenant; every merged child points at one primary
        dangling = sql(
            m,
            "SELECT l.* FROM links l WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.num::text = l.src "
            "AND r.tenant = l.tenant) OR NOT EXISTS (SELECT 1 FROM records r WHERE r.num::text = l.dst "
            "AND r.tenant = l.tenant)",
        )
        assert dangling == []
        twice = (
            "SELECT src FROM links WHERE relation = 'merged_into' GROUP BY tenant, src HAVING count(*) > 1"
        )
        assert sql(m, twice) == []
        for tenant, rid in shared.items():
            labels = {label for r in reports if f"L{r['worker'] % 2}" == tenant for label in r["labels"]}
            (row,) = sql(m, "SELECT tags::text AS tags FROM records WHERE num = %s", int(rid))
            assert set(json.loads(row["tags"])) == {"shared", *labels}
        assert_lexical_statistics_match_a_recount(m)
