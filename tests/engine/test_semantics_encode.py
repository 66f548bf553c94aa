"""Encode (DESIGN §5): +1 record with keywords and a lexical index entry; identical content in the same
tenant returns the existing id unless dedupe is false; a payload is required."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memql.ports.record import SCHEMA_VERSION


def test_encode_adds_one_record_with_every_given_field(m, db, t0):
    result = m.encode(
        "Standup moves to 9:30 on Mondays",
        type="task",
        tags=["team", "schedule"],
        facets={"topic": "meetings", "room": "B2"},
        subject="standup",
        time="2026-03-09T09:30:00Z",
        weight=0.8,
        source="chat:42",
        memory_type="semantic",
        category="a2p:professional",
        sensitivity="restricted",
        confidence=0.7,
    )
    assert result.success and result.op == "Encode"
    assert result.affected_ids == ["1"] and result.data == {"id": "1"} and result.id == "1"
    assert result.diagnostics == [] and result.warnings == []
    r = db.record(m, "1")
    assert r.tenant == "t" and r.owner == "alice"
    assert r.text == "Standup moves to 9:30 on Mondays"
    assert r.kind == "task"
    assert r.tags == ["team", "schedule"]
    assert r.facets == {"topic": "meetings", "room": "B2", "subject": "standup"}
    assert r.time == t0.replace(day=9, hour=9, minute=30)
    assert r.weight == 0.8 and r.status == "active"
    assert r.source == "chat:42"
    assert (r.memory_type, r.category, r.sensitivity, r.confidence) == (
        "semantic",
        "a2p:professional",
        "restricted",
        0.7,
    )
    assert r.created_at == r.updated_at == t0
    assert r.deleted_at is None and r.expire_at is None and r.lock_mode is None
    assert r.content_hash and len(r.content_hash) == 64
    assert r.schema_version == SCHEMA_VERSION
    assert {"standup", "mondays"} <= set(r.keywords)


def test_defaults_of_a_bare_encode(m, db):
    m.encode("just a note")
    r = db.record(m, "1")
    assert r.weight == 0.5 and r.sensitivity == "standard" and r.status == "active"
    assert r.kind is None and r.tags == [] and r.facets == {} and r.time is None
    assert r.visits == 0 and r.last_access_at is None
    assert r.embedding_status == "pending"  # no embedder configured: embedding deferred


def test_ids_count_up_in_creation_order(m):
    assert [m.encode(f"note number {i}").id for i in range(1, 5)] == ["1", "2", "3", "4"]


def test_encoded_text_is_in_the_lexical_index(m, visible):
    m.encode("The quarterly budget review is on Friday")
    m.encode("Buy oat milk")
    assert visible(m, "budget") == ["1"]
    assert visible(m, "milk") == ["2"]
    assert visible(m, "nonexistentword") == []


def test_tags_and_facet_values_are_searchable_too(m, visible):
    m.encode("plain text", tags=["zeppelin"], facets={"location": "Reykjavik"})
    assert visible(m, "zeppelin") == ["1"]
    assert visible(m, "Reykjavik") == ["1"]


def test_chinese_text_is_searchable(m, visible):
    m.encode("明天下午三点开会讨论预算")
    m.encode("周末去爬山")
    assert visible(m, "预算") == ["1"]
    assert visible(m, "爬山") == ["2"]


def test_url_and_structured_payloads(m, db, visible):
    assert m.encode(url="https://example.org/paper.pdf").id == "1"
    assert m.encode(structured={"dish": "ramen", "rating": 5}).id == "2"
    assert db.record(m, "1").url == "https://example.org/paper.pdf" and db.record(m, "1").text is None
    assert db.record(m, "2").structured == {"dish": "ramen", "rating": 5}
    assert visible(m, "ramen") == ["2"]


def test_payload_extra_keys_are_kept_as_payload_metadata(m, db):
    m.execute({"op": "Encode", "args": {"payload": {"text": "hello", "lang_hint": "en"}}})
    assert db.record(m, "1").payload_meta == {"lang_hint": "en"}


def test_encode_is_audited_as_one_insert(m, t0):
    m.encode("audited note", tags=["a"])
    (event,) = m.history("1")
    assert event["op"] == "Encode" and event["change"] == "insert" and event["actor"] == "alice"
    assert event["time"] == t0 and event["before"] == {}
    assert event["after"]["text"] == "audited note" and event["after"]["tags"] == ["a"]
    assert event["after"]["status"] == "active"


def test_encode_with_expire_at_gets_the_default_action(m, db, t0):
    m.encode("flash sale", expire_at="2026-03-05T10:00:00Z")
    r = db.record(m, "1")
    assert r.expire_at == t0 + timedelta(days=1) and r.on_expire == "soft_delete"


def test_natural_times_resolve_against_the_pinned_clock(m, db, t0, warned):
    result = m.encode("dentist", time="tomorrow")
    assert result.success and warned(result) == ["time.natural_resolved"]
    assert db.record(m, "1").time == t0.replace(day=5, hour=0)


# --- dedup ----------------------------------------------------------------------------------------


def test_identical_content_returns_the_existing_id(m, db):
    first = m.encode("Call the dentist", tags=["health"])
    again = m.encode("Call the dentist", tags=["health"], weight=0.9)  # the weight is not compared
    assert again.success and again.id == first.id == "1"
    assert again.affected_ids == ["1"] and again.data == {"id": "1", "deduplicated": True}
    assert db.ids(m) == ["1"]
    assert db.record(m, "1").weight == 0.5  # the existing record is returned untouched
    assert [e["change"] for e in m.history("1")] == ["insert"]


def test_dedup_ignores_whitespace_differences(m, db):
    m.encode("Call   the\n dentist ")
    assert m.encode("Call the dentist").id == "1"
    assert db.ids(m) == ["1"]


def test_dedup_of_structured_content_ignores_key_order(m):
    m.encode(structured={"a": 1, "b": [1, 2]})
    assert m.encode(structured={"b": [1, 2], "a": 1}).data == {"id": "1", "deduplicated": True}


def test_different_content_is_not_deduplicated(m):
    m.encode("Call the dentist")
    assert m.encode("Call the doctor").id == "2"
    assert m.encode(url="https://example.org/x").id == "3"


def test_dedupe_false_stores_a_second_copy(m, db):
    m.encode("Call the dentist")
    second = m.encode("Call the dentist", dedupe=False)
    assert second.id == "2" and "deduplicated" not in second.data
    assert db.ids(m) == ["1", "2"]


def test_dedup_is_scoped_to_the_tenant(memory, db):
    a = memory(tenant="a")
    b = memory(tenant="b", share=a)
    a.encode("shared words")
    other = b.encode("shared words")
    assert other.data == {"id": "2"}
    assert db.ids(a) == ["1"] and db.ids(b) == ["2"]


def test_identical_content_to_a_deleted_record_makes_a_new_record(m, visible):
    m.encode("old thought")
    m.delete("1")
    assert m.encode("old thought").id == "2"
    assert visible(m, "thought") == ["2"]


def test_identical_content_to_an_expired_record_makes_a_visible_record(m, clock, visible):
    m.encode("parking spot 42")
    m.expire("1", ttl="PT1H", on_expire="none")
    clock.advance(timedelta(hours=2))
    result = m.encode("parking spot 42")
    assert result.id != "1"
    assert visible(m, "parking") == [result.id]


# --- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"payload": {}},
        {"payload": {"text": "a", "url": "https://example.org"}},
        {"payload": {"meta_only": 1}},
    ],
    ids=["no-payload", "empty-payload", "two-kinds", "only-extras"],
)
def test_encode_without_exactly_one_payload_is_refused(m, db, rules, args):
    result = m.execute({"op": "Encode", "args": args})
    assert not result.success
    assert rules(result) == ["encode.payload"]
    assert db.ids(m) == []


def test_blank_text_is_refused(m, db, rules):
    result = m.execute({"op": "Encode", "args": {"payload": {"text": "   "}}})
    assert not result.success and rules(result) == ["field.empty"]
    assert db.ids(m) == []


def test_encode_refuses_a_target(m, rules):
    result = m.execute({"op": "Encode", "target": {"ids": ["1"]}, "args": {"payload": {"text": "x"}}})
    assert not result.success and rules(result) == ["target.forbidden"]


# --- typed facts (DESIGN §5: a structured fact closes the current fact) ------------------------------


def test_a_structured_fact_closes_the_current_fact_with_the_same_subject_and_attribute(m, clock, db, t0):
    m.encode(structured={"subject": "alice", "attribute": "city", "value": "Paris"})
    clock.advance(timedelta(days=1))
    m.encode(structured={"subject": "alice", "attribute": "city", "value": "Lyon"})
    m.encode(structured={"subject": "bob", "attribute": "city", "value": "Rome"})  # another subject
    assert db.links(m) == {("2", "1", "supersedes")}
    rows = {
        r["id"]: r
        for r in m.retrieve(filter={"status": "any"}, include=["id", "valid_from", "valid_to"]).data["rows"]
    }
    assert rows["1"]["valid_to"] == t0 + timedelta(days=1)
    assert rows["2"]["valid_from"] == t0 + timedelta(days=1) and rows["2"]["valid_to"] is None
    assert rows["3"]["valid_to"] is None


class _FakeEmbedder:
    model = "fake-3d"
    dimension = 3

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts):
        self.calls.append(list(texts))
        return [[1.0, 0.0, 0.0] for _ in texts]


def test_encode_embeds_now_with_an_embedder_and_defers_with_skip_embedding(memory, db):
    embedder = _FakeEmbedder()
    m = memory(embedder=embedder)
    m.encode("embed me now")
    m.encode("embed me later", skip_embedding=True)
    now, later = db.record(m, "1"), db.record(m, "2")
    assert embedder.calls == [["embed me now"]]
    assert now.embedding_status == "ready" and now.embedding is not None
    assert (now.embedding_model, now.embedding_dim) == ("fake-3d", 3)
    assert later.embedding_status == "pending" and later.embedding is None
