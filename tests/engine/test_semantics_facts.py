"""Typed facts in the engine (DESIGN §4, §5, §9): an Encode whose payload.structured names a subject and an
attribute stores (tenant, subject, attribute) -> value with a world-time window [valid_from, valid_to),
provenance and evidence; a newer value closes the current one in the same op (an audited Update) and is
linked `supersedes`; a repeat stores nothing; a late older value slots into history; Retrieve reads facts
with filter.fact {subject, attribute, valid_at} and, for record time, as_of."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.ports.record import SCHEMA_VERSION


def fact(subject="alice", attribute="city", value="Paris", **more):
    return {"subject": subject, "attribute": attribute, "value": value, **more}


def rows(m, **filter_fact):
    result = m.retrieve(
        filter={"fact": filter_fact, "status": "any"},
        include=["id", "subject", "attribute", "value", "valid_from", "valid_to", "source"],
    )
    assert result.success, result.diagnostics
    return sorted(result.data["rows"], key=lambda r: int(r["id"]))


# --- what a fact is -------------------------------------------------------------------------------


def test_a_fact_is_a_semantic_record_of_kind_fact(m, db, t0):
    result = m.encode(structured=fact(valid_from="2026-01-01T00:00:00Z", source="chat:7"))
    assert result.success and result.data == {"id": "1"} and result.warnings == []
    r = db.record(m, "1")
    assert (r.subject, r.attribute, r.value) == ("alice", "city", "Paris")
    assert r.valid_from == t0.replace(month=1, day=1, hour=0) and r.valid_to is None
    assert r.source == "chat:7" and r.kind == "fact" and r.memory_type == "semantic"
    assert r.facets == {"subject": "alice"}  # the fact's subject is its subject facet too
    assert r.evidence == [{"valid_from": "2026-01-01T00:00:00Z", "source": "chat:7"}]
    assert r.schema_version == SCHEMA_VERSION
    assert r.structured == {
        "subject": "alice",
        "attribute": "city",
        "value": "Paris",
        "valid_from": "2026-01-01T00:00:00Z",
        "source": "chat:7",
    }


def test_valid_from_is_the_payloads_else_the_episode_time_else_now(m, db, t0):
    m.encode(structured=fact(attribute="a", valid_from="2026-01-01T00:00:00Z"), time="2026-02-01T00:00:00Z")
    m.encode(structured=fact(attribute="b"), time="2026-02-01T00:00:00Z")
    m.encode(structured=fact(attribute="c"))
    starts = [db.record(m, i).valid_from for i in ("1", "2", "3")]
    assert starts == [t0.replace(month=1, day=1, hour=0), t0.replace(month=2, day=1, hour=0), t0]


def test_the_type_and_memory_type_given_are_kept_and_args_source_is_the_provenance(m, db):
    m.encode(structured=fact(), type="profile", memory_type="episodic", source="crm")
    r = db.record(m, "1")
    assert (r.kind, r.memory_type, r.source) == ("profile", "episodic", "crm")


def test_other_structured_payloads_and_text_of_kind_fact_are_not_typed_facts(m, db):
    m.encode(structured={"subject": "Re: lunch", "from": "bob"})  # an e-mail: no attribute
    m.encode("Alice lives in Paris", type="fact")
    assert all(r.attribute is None and r.valid_from is None for r in db.records(m).values())
    assert rows(m) == []


def test_values_are_any_json_and_compare_as_json(m, db):
    for value in (1, True, 1.5, [], {}, {"b": 1, "a": [2]}, {"a": [2], "b": 1}):
        m.encode(structured=fact(attribute="x", value=value))
    history = [(r.value, r.valid_to is None) for r in db.records(m).values()]
    # true is not 1; 1.5 follows; [] and {} are values; the same object in another key order repeats
    assert history == [
        (1, False),
        (True, False),
        (1.5, False),
        ([], False),
        ({}, False),
        ({"b": 1, "a": [2]}, True),
    ]


# --- a newer value closes the current one --------------------------------------------------------


def test_a_newer_value_closes_the_current_one_in_the_same_audited_op(m, db, clock, t0):
    m.encode(structured=fact(value="Paris"))
    clock.advance(timedelta(days=1))
    result = m.encode(structured=fact(value="Lyon"))
    assert result.success and result.data == {"id": "2", "closed": ["1"]} and result.affected_ids == ["2"]
    assert db.record(m, "1").valid_to == t0 + timedelta(days=1)
    assert db.links(m) == {("2", "1", "supersedes")}
    inserted, close = m.history("1")
    assert inserted["change"] == "insert"
    assert close["op"] == "Encode" and close["change"] == "update" and close["actor"] == "alice"
    assert close["before"]["valid_to"] is None and close["after"]["valid_to"] == "2026-03-05T10:00:00Z"
    # no op of its own: the closing is part of the second Encode (one transaction, one audited operation)
    assert [o["op"] for o in db.operations(m)] == ["Encode", "Encode"]
    assert close["time"] == m.history("2")[0]["time"] == t0 + timedelta(days=1)


def test_keys_are_subject_and_attribute(m, db):
    m.encode(structured=fact(value="Paris"))
    m.encode(structured=fact(attribute="employer", value="ACME"))
    m.encode(structured=fact(subject="bob", value="Rome"))
    assert all(r.valid_to is None for r in db.records(m).values())
    assert db.links(m) == set()


def test_an_identical_repeat_stores_nothing_and_says_so(m, db, clock, warned):
    m.encode(structured=fact(source="e1"))
    clock.advance(timedelta(days=2))
    again = m.encode(structured=fact(source="e2"))
    assert again.success and again.id == "1" and again.data == {"id": "1", "deduplicated": True}
    assert warned(again) == ["fact.repeat"]
    assert db.ids(m) == ["1"]
    assert [e["source"] for e in db.record(m, "1").evidence] == ["e1", "e2"]  # the repeat is evidence
    same = m.encode(structured=fact(source="e3", valid_from=db.record(m, "1").evidence[1]["valid_from"]))
    assert warned(same) == ["fact.repeat"] and len(db.record(m, "1").evidence) == 2  # asserted exactly so


def test_a_late_older_value_slots_in_without_touching_the_current_one(m, db, clock):
    m.encode(structured=fact(value="Lyon", valid_from="2026-02-01T00:00:00Z"))
    current_events = len(m.history("1"))
    result = m.encode(structured=fact(value="Paris", valid_from="2025-06-01T00:00:00Z"))
    assert result.data == {"id": "2"} and result.warnings == []
    late = db.record(m, "2")
    assert late.valid_to == db.record(m, "1").valid_from  # it ends where the current one starts
    assert db.record(m, "1").valid_to is None and len(m.history("1")) == current_events + 1  # one link
    assert db.links(m) == {("1", "2", "supersedes")}


def test_a_value_between_two_rethreads_the_links_and_the_unlinking_is_audited(m, db):
    m.encode(structured=fact(value="Berlin", valid_from="2025-01-01T00:00:00Z"))
    m.encode(structured=fact(value="Lyon", valid_from="2026-02-01T00:00:00Z"))
    assert db.links(m) == {("2", "1", "supersedes")}
    m.encode(structured=fact(value="Paris", valid_from="2025-06-01T00:00:00Z"))
    assert db.links(m) == {("3", "1", "supersedes"), ("2", "3", "supersedes")}
    changes = [(e["change"], e["before"], e["after"]) for e in m.history("2")]
    assert ("link", {"dst": "1", "relation": "supersedes"}, {}) in changes
    assert ("link", {}, {"dst": "3", "relation": "supersedes"}) in changes
    assert db.record(m, "1").valid_to == db.record(m, "3").valid_from


def test_an_equal_value_from_earlier_extends_the_later_fact(m, db, warned):
    m.encode(structured=fact(value="Paris", valid_from="2025-01-01T00:00:00Z", source="e1"))
    m.encode(structured=fact(value="Lyon", valid_from="2026-02-01T00:00:00Z", source="e2"))
    result = m.encode(structured=fact(value="Lyon", valid_from="2025-12-01T00:00:00Z", source="e3"))
    assert result.data == {"id": "2", "extended": True, "closed": ["1"]}
    assert warned(result) == ["fact.extended"]
    lyon = db.record(m, "2")
    assert lyon.valid_from.isoformat().startswith("2025-12-01") and lyon.source == "e3"
    assert db.record(m, "1").valid_to == lyon.valid_from and db.ids(m) == ["1", "2"]


def test_a_value_inside_a_window_with_later_evidence_restores_the_tail(m, db):
    m.encode(structured=fact(value="Paris", valid_from="2025-01-01T00:00:00Z", source="e1"))
    m.encode(structured=fact(value="Paris", valid_from="2025-09-01T00:00:00Z", source="e2"))  # evidence
    m.encode(structured=fact(value="Rome", valid_from="2025-05-01T00:00:00Z", source="e3"))
    values = [
        (r.value, r.valid_from.month, r.valid_to and r.valid_to.month, r.source) for r in rows_of(db, m)
    ]
    assert values == [("Paris", 1, 5, "e1"), ("Rome", 5, 9, "e3"), ("Paris", 9, None, "e2")]
    assert db.links(m) == {("2", "1", "supersedes"), ("3", "2", "supersedes")}


def rows_of(db, m):
    return sorted(db.records(m).values(), key=lambda r: (r.valid_from, int(r.id)))


def test_a_value_for_the_same_valid_from_is_a_correction(m, db):
    m.encode(structured=fact(value="Rome", valid_from="2026-02-01T00:00:00Z"))
    result = m.encode(structured=fact(value="Milan", valid_from="2026-02-01T00:00:00Z"))
    assert result.data == {"id": "2", "closed": ["1"]}
    rome = db.record(m, "1")
    assert rome.valid_from == rome.valid_to  # an empty window: true at no time
    assert [r["value"] for r in rows(m, valid_at="2026-02-15T00:00:00Z")] == ["Milan"]
    assert db.links(m) == {("2", "1", "supersedes")}


def test_correcting_the_value_between_two_equal_ones_folds_them_together(m, db):
    m.encode(structured=fact(value="Paris", valid_from="2025-01-01T00:00:00Z"))
    m.encode(structured=fact(value="Rome", valid_from="2025-05-01T00:00:00Z"))
    m.encode(structured=fact(value="Paris", valid_from="2025-09-01T00:00:00Z"))
    m.encode(structured=fact(value="Paris", valid_from="2025-05-01T00:00:00Z"))  # Rome was wrong
    paris, rome, later = db.record(m, "1"), db.record(m, "2"), db.record(m, "3")
    assert paris.valid_to is None and len(paris.evidence) == 3
    assert rome.status == "active" and rome.valid_from == rome.valid_to  # corrected
    assert later.status == "deleted" and ("3", "1", "merged_into") in db.links(m)
    assert [r["value"] for r in rows(m, valid_at="2025-06-01T00:00:00Z")] == ["Paris"]


# --- reads ----------------------------------------------------------------------------------------


def test_filter_fact_reads_by_subject_attribute_and_world_time(m, clock):
    m.encode(structured=fact(value="Paris", valid_from="2025-01-01T00:00:00Z"))
    m.encode(structured=fact(value="Lyon", valid_from="2026-01-01T00:00:00Z"))
    m.encode(structured=fact(attribute="employer", value="ACME", valid_from="2025-01-01T00:00:00Z"))
    m.encode("Alice likes Paris", subject="alice")  # not a fact
    assert [r["id"] for r in rows(m)] == ["1", "2", "3"]
    assert [r["id"] for r in rows(m, attribute="city")] == ["1", "2"]
    assert [r["value"] for r in rows(m, subject="alice", valid_at="2025-06-01T00:00:00Z")] == [
        "Paris",
        "ACME",
    ]
    assert [r["value"] for r in rows(m, attribute="city", valid_at="2026-01-01T00:00:00Z")] == ["Lyon"]
    assert rows(m, attribute="city", valid_at="2024-01-01T00:00:00Z") == []
    assert rows(m, subject="nobody") == []


def test_record_time_reads_replay_what_was_known(m, clock, t0):
    m.encode(structured=fact(value="Paris", valid_from="2025-01-01T00:00:00Z"))
    clock.advance(timedelta(hours=1))
    m.encode(structured=fact(value="Lyon", valid_from="2026-01-01T00:00:00Z"))
    then = m.retrieve(
        filter={"fact": {"attribute": "city"}},
        as_of=(t0 + timedelta(minutes=30)).isoformat(),
        include=["id", "value", "valid_to"],
    )
    assert then.data["rows"] == [{"id": "1", "value": "Paris", "valid_to": None}]  # not closed yet then


def test_facts_beyond_the_clearance_are_neither_seen_nor_closed(memory, db, rules):
    """Nor is a second current value stored beside them (issue 16): the Encode is refused."""
    owner = memory()
    owner.encode(structured=fact(value="Paris"), sensitivity="restricted")
    low = memory(share=owner, clearance="standard")
    result = low.encode(structured=fact(value="Lyon"))
    assert rules(result) == ["permission.fact"] and "Paris" not in result.diagnostics[0].message
    assert db.ids(owner) == ["1"]
    assert db.record(owner, "1").valid_to is None and db.links(owner) == set()
    assert rows(low) == []


# --- governance and atomicity -------------------------------------------------------------------


def test_a_locked_current_fact_refuses_a_new_value_and_nothing_is_stored(m, db, rules):
    m.encode(structured=fact(value="Paris"))
    m.lock("1", mode="read_only", reason="verified")
    result = m.encode(structured=fact(value="Lyon", valid_from="2027-01-01T00:00:00Z"))
    assert not result.success and rules(result) == ["governance.locked"]
    assert result.diagnostics[0].path == "/args/payload/structured"
    assert db.ids(m) == ["1"] and db.record(m, "1").valid_to is None


def test_an_append_only_fact_takes_more_evidence_but_is_not_closed(m, db, rules):
    m.encode(structured=fact(value="Paris", valid_from="2025-01-01T00:00:00Z"))
    m.lock("1", mode="append_only")
    assert m.encode(structured=fact(value="Paris", valid_from="2025-06-01T00:00:00Z")).success
    assert len(db.record(m, "1").evidence) == 2
    assert rules(m.encode(structured=fact(value="Lyon"))) == ["governance.locked"]


def test_a_failing_workflow_undoes_the_closing_too(m, db):
    m.encode(structured=fact(value="Paris"))
    result = m.execute(
        [
            {"op": "Encode", "args": {"payload": {"structured": fact(value="Lyon")}}},
            {"op": "Delete", "target": {"ids": ["1"]}, "args": {"soft": False}},  # unconfirmed: refused
        ]
    )
    assert not result.success
    assert db.ids(m) == ["1"] and db.record(m, "1").valid_to is None and db.links(m) == set()
    assert [e["change"] for e in m.history("1")] == ["insert"]


def test_a_dry_run_previews_the_closing_and_commits_nothing(m, db):
    m.encode(structured=fact(value="Paris"))
    result = m.execute(
        {"op": "Encode", "args": {"payload": {"structured": fact(value="Lyon")}}}, dry_run=True
    )
    assert result.success and result.dry_run
    kinds = {(c.record_id, c.kind) for c in result.preview}
    assert {("2", "insert"), ("1", "update"), ("2", "link")} <= kinds
    assert db.ids(m) == ["1"] and db.record(m, "1").valid_to is None


# --- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("structured", "path", "rule"),
    [
        (fact(value=None), "/args/payload/structured/value", "field.required"),
        ({"subject": "alice", "attribute": "city"}, "/args/payload/structured/value", "field.required"),
        (fact(subject=3), "/args/payload/structured/subject", "field.type"),
        (fact(attribute="  "), "/args/payload/structured/attribute", "field.empty"),
        (fact(valid_from="someday"), "/args/payload/structured/valid_from", "time.invalid"),
        (fact(valid_form="2026-01-01"), "/args/payload/structured/valid_form", "field.unknown"),
        (fact(valid_to="2026-01-01T00:00:00Z"), "/args/payload/structured/valid_to", "field.unknown"),
        (fact(source=7), "/args/payload/structured/source", "field.type"),
    ],
    ids=[
        "null-value",
        "no-value",
        "subject-type",
        "blank-attribute",
        "bad-time",
        "typo",
        "valid-to",
        "source",
    ],
)
def test_a_malformed_fact_is_refused_at_its_field_and_nothing_is_stored(m, db, structured, path, rule):
    result = m.encode(structured=structured)
    assert not result.success
    assert [(d.path, d.rule) for d in result.diagnostics] == [(path, rule)]
    assert db.ids(m) == []


def test_dedupe_false_does_not_apply_to_facts_and_says_so(m, db, warned):
    m.encode(structured=fact())
    again = m.encode(structured=fact(), dedupe=False)
    assert warned(again) == ["fact.dedupe", "fact.repeat"] and db.ids(m) == ["1"]


# --- erasure --------------------------------------------------------------------------------------


def test_a_hard_deleted_fact_leaves_no_value_in_the_audit_log(m, db):
    m.encode(structured=fact(value="HIV positive", attribute="diagnosis", source="clinic"))
    m.encode(structured=fact(value="in remission", attribute="diagnosis"))
    assert m.delete("1", hard=True, confirm=True).success
    log = repr(m.history("1"))
    assert "HIV" not in log and "clinic" not in log and "diagnosis" not in log
    assert db.record(m, "1") is None


def test_an_anonymized_fact_is_no_longer_a_fact(m, db, clock):
    m.encode(structured=fact(value="HIV positive", attribute="diagnosis"))
    m.expire("1", ttl="PT1H", on_expire="anonymize")
    clock.advance(timedelta(hours=2))
    assert m.sweep().affected_ids == ["1"]
    r = db.record(m, "1")
    assert (r.subject, r.attribute, r.value, r.evidence, r.structured) == (None, None, None, None, None)
    assert "HIV" not in repr(m.history("1"))
    assert rows(m) == [] and m.facts.get("alice").facts == []


_JSON_VALUES = st.one_of(
    st.text(max_size=3), st.integers(-2, 2), st.booleans(), st.floats(-2, 2, width=16), st.none()
)


@settings(max_examples=examples(300), deadline=None)
@given(a=st.one_of(_JSON_VALUES, st.lists(_JSON_VALUES, max_size=2)), b=_JSON_VALUES)
def test_same_value_is_json_equality(a, b):
    """Plain values compared as they are, others by their JSON: one answer (true is not 1, 1 is not 1.0)."""
    import memql.engine.verbs  # noqa: F401 (first: the verbs and facts import each other)
    from memql.engine.facts import same_value

    def canonical(value):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    for x, y in ((a, b), (b, a), (a, a)):
        assert same_value(x, y) == (canonical(x) == canonical(y))
