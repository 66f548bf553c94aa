"""Tenant isolation: random operations as tenants A and B on ONE store (a SQLite file, or a PostgreSQL
schema) never read or change the other tenant's records; a scoped bulk write never escapes its tenant.

Two Memory objects (two connections) share a file; ids are numbered across both tenants, so the ids
an operation names are a mix of the caller's own, the other tenant's and missing ones. Every text a
tenant writes carries its marker word (or is "common …" text that both tenants store), so a leak shows
up as the other marker in a result. Tenant B's session is an admin: admin rights must not cross tenants.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from backends import BACKENDS
from budgets import examples
from memql import Memory
from memql.ports.clock import FixedClock

MARK = {"A": "alphamark", "B": "betamark"}
ACTOR = {"A": "alice", "B": "bob"}
OTHER = {"A": "B", "B": "A"}
WORDS = ["apple", "river", "stone"]
TAGS = ["red", "blue"]
START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

# --- operations ------------------------------------------------------------------------------------

ID_VERBS = [
    "update", "label_add", "label_replace", "label_remove", "promote", "promote_remind", "demote",
    "archive", "soft_delete", "hard_delete", "lock", "unlock", "expire", "merge", "split", "restore",
    "summarize", "retrieve",
]  # fmt: skip
BULK_VERBS = [
    "update", "label_add", "label_remove", "promote", "demote", "archive", "soft_delete", "hard_delete",
    "lock", "expire", "summarize", "retrieve",
]  # fmt: skip
ON_EXPIRE = ["soft_delete", "hard_delete", "anonymize", "archive", "demote", "none"]

ids = st.lists(st.integers(1, 10).map(str), min_size=1, max_size=3)
operation = st.one_of(
    st.tuples(st.just("encode"), st.sampled_from(WORDS), st.sampled_from(TAGS), st.booleans(), st.booleans()),
    st.tuples(st.just("query"), st.sampled_from([*WORDS, *MARK.values(), "common", "alphamark apple"])),
    st.tuples(st.just("ids"), st.sampled_from(ID_VERBS), ids, st.sampled_from(ON_EXPIRE)),
    st.tuples(st.just("ids"), st.just("expire"), ids, st.sampled_from(ON_EXPIRE)),  # feeds the sweeper
    st.tuples(
        st.just("filter"),
        st.sampled_from(BULK_VERBS),
        st.sampled_from(TAGS),
        st.integers(1, 20),
        st.sampled_from([None, "any"]),
        st.sampled_from(ON_EXPIRE),
    ),
    st.tuples(st.just("all"), st.sampled_from(BULK_VERBS), st.sampled_from(ON_EXPIRE)),
    st.tuples(st.just("as_of"), st.booleans()),
    st.tuples(st.just("history"), st.integers(1, 10).map(str)),
    st.tuples(st.just("sweep"), st.sampled_from([2, 40])),
    st.tuples(st.just("advance"), st.sampled_from([1, 2, 40])),
)
programs = st.lists(st.tuples(st.sampled_from(["A", "B"]), operation), min_size=5, max_size=40)


def verb_ir(verb: str, target: dict, tenant: str, on_expire: str = "soft_delete") -> dict[str, Any]:
    """The IR of `verb` on `target`, written by `tenant` (its texts carry its marker)."""
    mark = MARK[tenant]
    args: dict[str, Any] = {
        "update": {"set": {"text": f"{mark} rewritten note"}},
        "label_add": {"tags": ["green"], "mode": "add"},
        "label_replace": {"tags": ["blue"], "mode": "replace"},
        "label_remove": {"tags": ["red"], "mode": "remove"},
        "promote": {"weight_delta": 0.2},
        "promote_remind": {"remind": {"rrule": "FREQ=DAILY;COUNT=3"}},
        "demote": {"weight": 0.1},
        "archive": {"archive": True},
        "soft_delete": {"soft": True},
        "hard_delete": {"soft": False},
        "lock": {"mode": "read_only", "reason": "frozen"},
        "unlock": {"mode": "unlock"},
        "expire": {"ttl": "P1D", "on_expire": on_expire},
        "merge": {},
        "split": {"strategy": "by_sentences"},
        "summarize": {"max_tokens": 60},
        "retrieve": {},
    }[verb]
    op = {
        "update": "Update", "label_add": "Label", "label_replace": "Label", "label_remove": "Label",
        "promote": "Promote", "promote_remind": "Promote", "demote": "Demote", "archive": "Demote",
        "soft_delete": "Delete", "hard_delete": "Delete", "lock": "Lock", "unlock": "Lock",
        "expire": "Expire", "merge": "Merge", "split": "Split", "summarize": "Summarize",
        "retrieve": "Retrieve",
    }[verb]  # fmt: skip
    ir: dict[str, Any] = {"op": op, "target": target, "args": args}
    if verb == "hard_delete" or "all" in target:
        ir["meta"] = {"confirmation": True}
    return ir


def run(m: Memory, tenant: str, clock: FixedClock, op: tuple) -> Any:
    """Run one generated operation; returns an ExecutionResult, a history list, or None."""
    kind = op[0]
    if kind == "encode":
        _, word, tag, common, sentences = op
        text = f"common {word}" if common else f"{MARK[tenant]} {word}."
        if sentences:
            text += f" More about the {word} here. A last {word} line."
        return m.encode(text, tags=[tag], facets={"topic": word})
    if kind == "query":
        return m.retrieve(op[1], k=20)
    if kind == "ids":
        _, verb, id_list, on_expire = op
        if verb == "restore":
            return m.restore(id_list[0])
        return m.execute(verb_ir(verb, {"ids": id_list}, tenant, on_expire))
    if kind == "filter":
        _, verb, tag, limit, status, on_expire = op
        flt: dict[str, Any] = {"has_tags": [tag], "limit": limit}
        if status is not None and verb in ("retrieve", "summarize"):
            flt["status"] = status
        return m.execute(verb_ir(verb, {"filter": flt}, tenant, on_expire))
    if kind == "all":
        return m.execute(verb_ir(op[1], {"all": True}, tenant, op[2]))
    if kind == "as_of":
        when = clock.now() - (timedelta(days=1) if op[1] else timedelta(0))
        return m.execute(
            {
                "op": "Retrieve",
                "target": {"all": True},
                "args": {"as_of": when.isoformat()},
                "meta": {"confirmation": True},
            }
        )
    if kind == "history":
        return m.history(op[1])
    if kind == "sweep":  # some time passes, then the tenant's sweeper runs
        clock.advance(timedelta(days=op[1]))
        return m.sweep()
    clock.advance(timedelta(days=op[1]))
    return None


# --- what the store holds --------------------------------------------------------------------------


SQLITE_SNAPSHOT = [
    "SELECT * FROM records WHERE tenant = ? ORDER BY num",
    "SELECT * FROM memory WHERE tenant = ? ORDER BY CAST(id AS INTEGER)",
    "SELECT f.rowid, f.body FROM records_fts f JOIN records r ON r.num = f.rowid "
    "WHERE r.tenant = ? ORDER BY f.rowid",
    "SELECT * FROM links WHERE tenant = ? ORDER BY src, dst, relation",
    "SELECT * FROM operations WHERE tenant = ? ORDER BY seq",
    "SELECT * FROM events WHERE tenant = ? ORDER BY seq",
]
POSTGRES_SNAPSHOT = [
    "SELECT * FROM records WHERE tenant = %s ORDER BY num",
    "SELECT * FROM memory WHERE tenant = %s ORDER BY id::bigint",
    "SELECT * FROM lexical_postings WHERE tenant = %s ORDER BY num, term",
    "SELECT * FROM lexical_df WHERE tenant = %s ORDER BY term",
    "SELECT * FROM lexical_stats WHERE tenant = %s",
    "SELECT * FROM links WHERE tenant = %s ORDER BY src, dst, relation",
    "SELECT * FROM operations WHERE tenant = %s ORDER BY seq",
    "SELECT * FROM events WHERE tenant = %s ORDER BY seq",
]


def is_postgres(m: Memory) -> bool:
    return type(m.store).__name__ == "PostgresStore"


def rows(m: Memory, sql: str, params: tuple = ()) -> list[tuple]:
    """Rows as tuples on either backend (PostgreSQL's come as dicts)."""
    if is_postgres(m):
        return [tuple(r.values()) for r in m.store.execute_sql(sql.replace("?", "%s"), params)]
    return [tuple(r) for r in m.store.execute_sql(sql, params)]


def snapshot(m: Memory, tenant: str) -> list[list[tuple]]:
    """Everything the store keeps for one tenant: rows (all columns), the reference view, the index
    entries of its rows, lineage links and the audit log."""
    queries = POSTGRES_SNAPSHOT if is_postgres(m) else SQLITE_SNAPSHOT
    return [rows(m, q, (tenant,)) for q in queries]


def owners(m: Memory) -> dict[str, str]:
    return {str(num): tenant for num, tenant in rows(m, "SELECT num, tenant FROM records")}


def ids_in(result: Any) -> list[str]:
    """Every record id a result hands back: affected ids, rows, ids in data."""
    found = list(result.affected_ids)
    data = result.data or {}
    found += [row["id"] for row in data.get("rows", []) if row.get("id") is not None]
    found += list(data.get("source_ids", []))
    found += [data["id"]] if isinstance(data.get("id"), str) else []
    for parent, children in (data.get("children") or {}).items():
        found += [parent, *children]
    for step in result.steps or []:
        found += ids_in(step)
    return found


def check_result(tenant: str, op: tuple, result: Any, ever: dict[str, str]) -> None:
    other = OTHER[tenant]
    if isinstance(result, list):  # history
        if ever.get(op[1]) != tenant:
            assert result == [], f"{tenant} sees the history of {other}'s record {op[1]}"
        assert all(e["actor"] == ACTOR[tenant] for e in result)
        return
    if result is None:
        return
    text = result.model_dump_json()
    assert MARK[other] not in text, f"{tenant} read {other}'s text: {text}"
    assert ACTOR[other] not in text, f"{tenant}'s result names {other}'s actor: {text}"
    for record_id in ids_in(result):
        assert ever.get(record_id) == tenant, f"{tenant}'s result names {other}'s record {record_id}"


def check_store(m: Memory, ever: dict[str, str]) -> None:
    """Whole-store invariants: texts and lineage never cross tenants; the index matches the rows."""
    for tenant, text in rows(m, "SELECT tenant, text FROM records"):
        assert MARK[OTHER[tenant]] not in (text or ""), f"a record of {tenant} holds {OTHER[tenant]}'s text"
    for tenant, src, dst in rows(m, "SELECT tenant, src, dst FROM links"):
        assert ever.get(src) == tenant and ever.get(dst) == tenant, (tenant, src, dst)
    for tenant, record_id in rows(m, "SELECT tenant, record_id FROM events"):
        assert ever.get(record_id) == tenant, (tenant, record_id)
    n_records = rows(m, "SELECT COUNT(*) FROM records")[0][0]
    if is_postgres(m):
        n_docs = rows(m, "SELECT COUNT(*) FROM lexical_docs")[0][0]
        joined = "SELECT COUNT(*) FROM lexical_docs d JOIN records r ON r.num = d.num AND r.tenant = d.tenant"
        assert n_docs == rows(m, joined)[0][0] == n_records
        return
    n_fts = rows(m, "SELECT COUNT(*) FROM records_fts")[0][0]
    n_joined = rows(m, "SELECT COUNT(*) FROM records_fts f JOIN records r ON r.num = f.rowid")
    assert n_fts == n_joined[0][0] == n_records


def outcome(result: Any) -> str:
    if result is None or isinstance(result, list):
        return "n/a"
    return "refused" if not result.success else "changed" if result.affected_ids else "no-op"


def live_count(m: Memory, tenant: str, now: datetime) -> int:
    when: Any = now if is_postgres(m) else int(now.timestamp() * 1_000_000)
    return rows(
        m,
        "SELECT COUNT(*) FROM records WHERE tenant = ? AND status = 'active' "
        "AND (expire_at IS NULL OR expire_at > ?)",
        (tenant, when),
    )[0][0]


# --- the property ----------------------------------------------------------------------------------


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(program=programs)
def test_tenants_never_read_or_change_each_others_records(program: list[tuple[str, tuple]]) -> None:
    check_isolation(program, "sqlite")


@settings(
    max_examples=examples(100),  # a fresh PostgreSQL schema per example costs more than a SQLite file
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(program=programs)
def test_tenants_never_read_or_change_each_others_records_on_postgres(
    program: list[tuple[str, tuple]],
) -> None:
    check_isolation(program, "postgres")


def check_isolation(program: list[tuple[str, tuple]], backend: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = BACKENDS[backend].location(Path(tmp))
        clock = FixedClock(START)
        mems = {
            "A": Memory(db, tenant="A", actor=ACTOR["A"], clock=clock),
            "B": Memory(db, tenant="B", actor=ACTOR["B"], admin=True, clock=clock),
        }
        try:
            # a prelude: ids 1-6 alternate between the tenants; 7 and 8 hold text the other may encode too
            for i in range(3):
                for tenant in ("A", "B"):
                    text = f"{MARK[tenant]} {WORDS[i]}. Then more {WORDS[i]}."
                    assert mems[tenant].encode(text, tags=[TAGS[i % 2]]).success
            assert mems["A"].encode("common apple", tags=["red"], facets={"topic": "apple"}).id == "7"
            assert mems["B"].encode("common river", tags=["blue"], facets={"topic": "river"}).id == "8"
            ever = owners(mems["A"])
            for tenant, op in program:
                m, other = mems[tenant], OTHER[tenant]
                before = snapshot(m, other)
                result = run(m, tenant, clock, op)
                ever.update(owners(m))
                assert snapshot(m, other) == before, f"{tenant}'s {op} changed {other}'s records"
                check_result(tenant, op, result, ever)
                event(f"{op[0]}: {outcome(result)}")
                if op[0] == "all" and op[1] in ("soft_delete", "hard_delete") and result.success:
                    assert live_count(m, tenant, clock.now()) == 0  # the tenant's own records did go
                check_store(m, ever)
            for tenant, m in mems.items():
                for record_id, owner in ever.items():
                    if owner != tenant:
                        assert m.history(record_id) == []
        finally:
            for m in mems.values():
                m.close()


# --- the generated operations are real: each one does something on the caller's own records --------


def test_every_generated_operation_works_on_own_records(tmp_path: Path) -> None:
    """Guards the property against vacuity: each verb it generates succeeds and affects own records."""
    clock = FixedClock(START)
    m = Memory(tmp_path / "own.db", tenant="A", actor="alice", clock=clock)

    made = iter(range(1_000))

    def fresh() -> list[str]:
        texts = [f"alphamark fresh {n}. Second sentence {n}." for n in (next(made), next(made))]
        return [m.encode(text, tags=["red"]).id for text in texts]

    for verb in ID_VERBS:
        id_list = fresh()
        if verb in ("restore", "unlock"):  # first something to restore or to unlock
            setup = verb_ir("soft_delete" if verb == "restore" else "lock", {"ids": id_list}, "A")
            assert m.execute(setup).success
        result = (
            m.restore(id_list[0])
            if verb == "restore"
            else m.execute(verb_ir(verb, {"ids": id_list}, "A", "hard_delete"))
        )
        assert result.success, (verb, result.diagnostics)
        assert result.affected_ids, verb
    for verb in BULK_VERBS:
        for target in ({"filter": {"has_tags": ["red"], "limit": 5}}, {"all": True}):
            assert m.execute(verb_ir("unlock", {"all": True}, "A")).success
            fresh()
            result = m.execute(verb_ir(verb, target, "A", "archive"))
            assert result.success, (verb, target, result.diagnostics)
            assert result.affected_ids, (verb, target)
            if verb == "lock":
                assert m.execute(verb_ir("unlock", {"all": True}, "A")).success
    assert m.history("1") != []
    m.close()
