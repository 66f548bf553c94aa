"""Properties of typed facts, on every backend (hypothesis):

- order independence: for any order in which a set of dated values for one (subject, attribute) arrives,
  the history is the one an oracle computes from the set alone — windows, values, sources, evidence, the
  current value, and `supersedes` links joining exactly the neighbours — and after each arrival, the
  history as recorded at that moment is the oracle's for the values that had arrived;
- tenant isolation: two tenants writing the same keys, interleaved, each end up with exactly the history
  their own values give; neither reads, closes or links the other's facts.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples

DAY0 = datetime(2026, 1, 1, tzinfo=UTC)
VALUES = ["red", "green", 3, {"hex": "#00f"}]  # few values, so that equal neighbours are common
SETTINGS = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

dated_values = st.lists(
    st.tuples(st.integers(0, 60), st.sampled_from(VALUES)), min_size=1, max_size=7, unique_by=lambda a: a[0]
)


def day(n: int) -> datetime:
    return DAY0 + timedelta(days=n)


def oracle(assertions: list[tuple[int, object]]) -> list[dict]:
    """The history a set of (day, value) assertions gives, computed from the set alone: by day, equal
    neighbours joined; each window ends where the next begins; the source is the window's first."""
    runs: list[list[tuple[int, object]]] = []
    for d, v in sorted(assertions, key=lambda a: a[0]):
        if runs and runs[-1][0][1] == v:
            runs[-1].append((d, v))
        else:
            runs.append([(d, v)])
    return [
        {
            "value": run[0][1],
            "valid_from": day(run[0][0]),
            "valid_to": day(runs[i + 1][0][0]) if i + 1 < len(runs) else None,
            "source": f"s{run[0][0]}",
            "evidence": [{"valid_from": day(d), "source": f"s{d}"} for d, _ in run],
        }
        for i, run in enumerate(runs)
    ]


def observed(facts) -> list[dict]:
    return [
        {
            "value": f.value,
            "valid_from": f.valid_from,
            "valid_to": f.valid_to,
            "source": f.source,
            "evidence": [{"valid_from": e["valid_from"], "source": e["source"]} for e in f.evidence],
        }
        for f in facts
    ]


def encode(m, subject: str, attribute: str, d: int, value) -> None:
    fact = {"subject": subject, "attribute": attribute, "value": value, "valid_from": day(d).isoformat()}
    result = m.encode(structured={**fact, "source": f"s{d}"})
    assert result.success, result.diagnostics


def supersedes_pairs(db, m, ids: list[str]) -> set[tuple[str, str]]:
    return {(src, dst) for src, dst, rel in db.links(m, *ids) if rel == "supersedes"} if ids else set()


@SETTINGS
@given(data=st.data(), assertions=dated_values)
def test_any_arrival_order_gives_the_same_history(memory, db, clock, data, assertions):
    order = data.draw(st.permutations(assertions), label="arrival order")
    m = memory(tenant=f"t{uuid.uuid4().hex[:8]}")
    arrived_at = []
    for d, value in order:
        clock.advance(timedelta(minutes=1))
        encode(m, "alice", "color", d, value)
        arrived_at.append(clock.now())
    clock.advance(timedelta(minutes=1))
    facts = m.facts.history("alice", "color").facts
    expected = oracle(assertions)
    assert observed(facts) == [{**e, "evidence": _iso(e["evidence"])} for e in expected]
    ids = [f.id for f in facts]
    assert supersedes_pairs(db, m, ids) == {(later, earlier) for earlier, later in pairwise(ids)}
    (current,) = m.facts.get("alice", "color").facts
    assert (current.value, current.source) == (expected[-1]["value"], expected[-1]["source"])
    for d in range(0, 62, 7):  # the value at a world time: the window that holds it, none before the first
        holding = [e for e in expected if e["valid_from"] <= day(d) and (e["valid_to"] or day(99)) > day(d)]
        got = m.facts.get("alice", "color", as_of=day(d)).facts
        assert [(f.value, f.source) for f in got] == [(e["value"], e["source"]) for e in holding]
    for k, when in enumerate(arrived_at, start=1):  # record time: what memql knew after k arrivals
        then = m.facts.history("alice", "color", recorded_at=when).facts
        assert observed(then) == [{**e, "evidence": _iso(e["evidence"])} for e in oracle(order[:k])]


def _iso(evidence: list[dict]) -> list[dict]:
    return [
        {"valid_from": e["valid_from"].isoformat().replace("+00:00", "Z"), "source": e["source"]}
        for e in evidence
    ]


writes = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),
        st.sampled_from(["city", "employer"]),
        st.integers(0, 30),
        st.sampled_from(VALUES),
    ),
    min_size=1,
    max_size=12,
    unique_by=lambda w: (w[0], w[1], w[2]),
)


@SETTINGS
@given(ops=writes)
def test_tenants_never_read_or_close_each_others_facts(memory, db, ops):
    run = uuid.uuid4().hex[:8]
    first = memory(tenant=f"a-{run}", actor="ann")
    sessions = {"a": first, "b": memory(tenant=f"b-{run}", actor="bob", share=first)}
    for tenant, attribute, d, value in ops:
        encode(sessions[tenant], "alice", attribute, d, value)
    ids = {t: set(db.records(s)) for t, s in sessions.items()}
    assert not ids["a"] & ids["b"]
    for tenant, m in sessions.items():
        for attribute in ("city", "employer"):
            own = [(d, v) for t, a, d, v in ops if t == tenant and a == attribute]
            facts = m.facts.history("alice", attribute).facts
            expected = [{**e, "evidence": _iso(e["evidence"])} for e in oracle(own)] if own else []
            assert observed(facts) == expected
            assert {f.id for f in facts} <= ids[tenant]
        current = m.facts.get("alice").facts
        assert {f.id for f in current} <= ids[tenant]
        for src, dst, _ in db.links(m):
            assert {src, dst} <= ids[tenant]  # no link reaches into the other tenant
        actor = "ann" if tenant == "a" else "bob"
        for record_id in ids[tenant]:
            assert {e["actor"] for e in m.history(record_id)} == {actor}  # only its own tenant changed it
