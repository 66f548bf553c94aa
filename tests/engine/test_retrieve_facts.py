"""Retrieve `facts` (issue 17, item 4; docs/language.md, "Retrieve facts"): beside the hits, the typed facts
the query names, true at the Retrieve's as_of or now ("history": with their earlier values), each cited to
what it was formed from; every hit says whether the facts it states still hold (superseded_by,
superseded_at). Governed like every read: a fact the reader may not read appears nowhere. Both backends."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from memql.lang import build, validate
from memql.lang.ops import RetrieveArgs

QUERY = "when is my passport due?"


def city(value: str, valid_from: str, subject: str = "alice") -> dict:
    return {"subject": subject, "attribute": "city", "value": value, "valid_from": valid_from}


@pytest.fixture
def passport(memory, clock):
    """mira says July 15 on March 4, then corrects it to June 30 on March 10; her son Leo's passport
    deadline (August 1) is another subject's and is never superseded by hers. Read on April 1."""
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", extractor="rules", strategy="flat")
    conv.add_message("user", "My son Leo's passport deadline is August 1.")
    first = conv.add_message("user", "My passport deadline is July 15.")
    clock.set(datetime.fromisoformat("2026-03-10T10:00:00+00:00"))
    fix = conv.add_message("user", "Correction: it's June 30.")
    clock.set(datetime.fromisoformat("2026-04-01T00:00:00+00:00"))
    return m, first, fix


def by_value(facts: list[dict]) -> dict:
    return {f["value"]: f for f in facts}


def test_current_facts_lead_and_superseded_hits_say_so(passport):
    m, first, fix = passport
    result = m.retrieve(QUERY, facts="current")
    assert result.success, result.diagnostics
    facts = by_value(result.data["facts"])
    assert set(facts) == {"2026-06-30", "2026-08-01"}  # mira's current value and Leo's; never July 15
    assert result.data["facts"][0]["value"] == "2026-06-30"  # "my": the asker's own first
    now = facts["2026-06-30"]
    assert (now["subject"], now["attribute"], now["current"]) == ("mira", "passport.deadline", True)
    assert now["source"] == fix.source_ids[0] and now["valid_to"] is None
    assert now["derived_from"] == [fix.memory_id]
    assert now["evidence"] == [{"valid_from": "2026-03-10T10:00:00Z", "source": fix.source_ids[0]}]
    assert facts["2026-08-01"]["subject"] == "Leo"

    rows = {r["id"]: r for r in result.data["rows"]}
    old_message = first.memory_id
    old_fact = next(r for r in rows.values() if r["type"] == "fact" and r["superseded_by"])
    for stale in (rows[old_message], old_fact):
        assert stale["superseded_by"] == [now["id"]]
        assert stale["superseded_at"] == datetime.fromisoformat("2026-03-10T10:00:00+00:00")
    fresh = [r for r in rows.values() if r["id"] not in (old_message, old_fact["id"])]
    assert fresh and all(r["superseded_by"] == [] and r["superseded_at"] is None for r in fresh)


def test_history_lists_earlier_values_with_their_windows(passport):
    m, first, _ = passport
    result = m.retrieve("passport deadline", facts="history")
    mira = [f for f in result.data["facts"] if f["subject"] == "mira"]
    assert [(f["value"], f["current"]) for f in mira] == [("2026-07-15", False), ("2026-06-30", True)]
    assert mira[0]["valid_to"] == mira[1]["valid_from"]
    assert mira[0]["derived_from"] == [first.memory_id]


def test_as_of_reads_the_facts_true_then(passport):
    m, first, _ = passport
    result = m.retrieve(QUERY, facts="current", as_of="2026-03-05T00:00:00Z")
    assert result.success, result.diagnostics
    assert {f["value"] for f in result.data["facts"]} == {"2026-07-15", "2026-08-01"}
    assert all(f["current"] and f["valid_to"] is None for f in result.data["facts"])  # as known then
    assert all(r["superseded_by"] == [] for r in result.data["rows"])
    assert first.memory_id in {r["id"] for r in result.data["rows"]}


def test_without_a_query_text_the_facts_are_the_hits_own(passport):
    m, first, _ = passport
    old = first.memory_id
    result = m.retrieve(ids=[old], facts="current")
    assert [r["id"] for r in result.data["rows"]] == [old]
    assert [f["value"] for f in result.data["facts"]] == ["2026-06-30"]  # its key's value now
    assert result.data["rows"][0]["superseded_by"] == [result.data["facts"][0]["id"]]


def test_a_query_naming_no_fact_joins_none_and_without_facts_rows_are_unchanged(m):
    m.encode(structured=city("Paris", "2026-01-01T00:00:00Z"))
    m.encode("alice likes green tea")
    none = m.retrieve("green tea", facts="current")
    assert none.success and none.data["facts"] == []
    assert [(r["superseded_by"], r["superseded_at"]) for r in none.data["rows"]] == [([], None)]
    plain = m.retrieve("city")
    assert "facts" not in plain.data and "superseded_by" not in plain.data["rows"][0]


def test_a_hit_stating_a_fact_that_still_holds_is_not_superseded(m):
    m.encode(structured=city("Paris", "2026-01-01T00:00:00Z"))
    m.encode(structured=city("Rome", "2026-02-01T00:00:00Z"))
    m.encode(structured=city("Oslo", "2026-01-15T00:00:00Z", subject="bob"))
    result = m.retrieve(filter={"fact": {"attribute": "city"}}, include=["id", "value"], facts="current")
    marks = {r["value"]: r["superseded_by"] for r in result.data["rows"]}
    rome = next(f["id"] for f in result.data["facts"] if f["value"] == "Rome")
    assert marks == {"Paris": [rome], "Rome": [], "Oslo": []}  # bob's city is another key
    assert {f["value"] for f in result.data["facts"]} == {"Rome", "Oslo"}


def test_facts_is_current_or_history():
    assert RetrieveArgs(facts="history").facts == "history"
    for bad in ("now", True, 1):
        program = build.retrieve("x", facts=bad)  # type: ignore[arg-type]
        report = validate(program)
        assert not report.valid
        assert [(d.path, d.rule) for d in report.diagnostics] == [("/args/facts", "field.enum")]


def test_canonical_form_keeps_facts(m):
    result = m.execute(
        {"op": "Retrieve", "target": {"search": {"intent": {"query": "x"}}}, "args": {"facts": "current"}}
    )
    assert result.success and result.data["facts"] == []


# --- governance ---------------------------------------------------------------------------------------


@pytest.fixture
def team(memory):
    alice = memory(actor="alice", embedder="none")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice, embedder="none"),
        "admin": memory(actor="root", role="admin", share=alice, embedder="none"),
        "reader": memory(actor="bot", role="agent", consent="read", share=alice, embedder="none"),
        "proposer": memory(actor="bot", role="agent", consent="propose", share=alice, embedder="none"),
        "other_tenant": memory(tenant="u", actor="alice", share=alice, embedder="none"),
    }


def test_a_private_value_never_appears_and_never_names_what_superseded_a_hit(team):
    """alice's private Lyon sits between two public values: bob sees Paris then Rome, never Lyon."""
    alice, bob, admin = team["alice"], team["bob"], team["admin"]
    alice.encode(structured=city("Paris", "2026-01-01T00:00:00Z"))
    alice.encode(structured=city("Lyon", "2026-02-01T00:00:00Z"), read_perm_level="private")
    admin.encode(structured=city("Rome", "2026-03-01T00:00:00Z"))
    mine = alice.retrieve("alice city", facts="history")
    assert [f["value"] for f in mine.data["facts"]] == ["Paris", "Lyon", "Rome"]
    seen = bob.retrieve("alice city", facts="history")
    assert [f["value"] for f in seen.data["facts"]] == ["Paris", "Rome"]
    assert "Lyon" not in str(seen.data)
    # on February 15 (record time now) Lyon held the key: bob is shown no value, and Paris no successor
    alice.encode(structured=city("Nice", "2026-03-02T00:00:00Z"), read_perm_level="private")
    now = bob.retrieve("alice city", facts="current")
    assert now.data["facts"] == [] and "Nice" not in str(now.data)
    assert {r["superseded_by"] == [] for r in now.data["rows"]} == {True}
    assert all(r["superseded_at"] is not None for r in now.data["rows"])  # their own windows closed


def test_a_facts_source_message_the_reader_may_not_read_is_not_named(team):
    alice, bob = team["alice"], team["bob"]
    message = alice.encode("alice: I live in Paris now", read_perm_level="private").data["id"]
    alice.execute(
        build.encode(structured=city("Paris", "2026-01-01T00:00:00Z"), derived_from={"ids": [message]})
    )
    assert alice.retrieve("city", facts="current").data["facts"][0]["derived_from"] == [message]
    assert bob.retrieve("city", facts="current").data["facts"][0]["derived_from"] == []


def test_tenant_consent_clearance_and_expiry_hold(team, clock):
    alice = team["alice"]
    alice.encode(structured=city("Paris", "2026-01-01T00:00:00Z"))
    alice.encode(
        structured={"subject": "alice", "attribute": "diagnosis", "value": "flu"}, sensitivity="restricted"
    )
    mood = {"subject": "alice", "attribute": "mood", "value": "calm"}
    assert alice.encode(structured=mood, expire_at="2026-03-04T11:00:00Z").success
    query = "alice city diagnosis mood"
    assert {f["value"] for f in alice.retrieve(query, facts="current").data["facts"]} == {
        "Paris",
        "flu",
        "calm",
    }
    assert team["other_tenant"].retrieve(query, facts="current").data["facts"] == []
    assert team["proposer"].retrieve(query, facts="current").data["facts"] == []  # only its own proposals
    assert {f["value"] for f in team["reader"].retrieve(query, facts="current").data["facts"]} == {
        "Paris",
        "calm",
    }  # an agent's standard clearance: not the restricted diagnosis
    clock.advance(timedelta(hours=2))
    assert {f["value"] for f in alice.retrieve(query, facts="current").data["facts"]} == {"Paris", "flu"}
