"""a2p profile export and import (docs/profile.md), on every backend.

The round trip is exact: export -> import into a fresh store -> export gives the same canonical JSON,
for the project's fixture profile (all three memory types, every status an export carries, a2p and ext
categories, every sensitivity, metadata, consolidation, non-text payloads, unicode) and for a store
built with the verbs. Bad input imports nothing and says where and why.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from helpers_profile import A2P_PROFILE, PROFILE_CONFIG
from memql.cognition.profile.a2p import derived_id, dumps

FIXTURE = A2P_PROFILE


@pytest.fixture
def memory(memory):
    """Sessions whose engine knows the profiles' extension categories."""
    return lambda **kwargs: memory(**{"config": PROFILE_CONFIG, **kwargs})


@pytest.fixture
def fixture_text() -> str:
    return FIXTURE.read_text(encoding="utf-8")


def _by_id(profile: dict) -> dict[str, dict]:
    return {mem["id"]: mem for key in profile["memories"] for mem in profile["memories"][key]}


def test_the_fixture_covers_what_the_round_trip_must_carry(fixture_text):
    profile = json.loads(fixture_text)
    memories = list(_by_id(profile).values())
    assert set(profile["memories"]) == {"a2p:episodic", "a2p:semantic", "a2p:procedural"}
    assert all(profile["memories"][key] for key in profile["memories"])
    assert {m["status"] for m in memories} == {"approved", "archived", "expired"}  # what an export carries
    assert {m["sensitivity"] for m in memories} == {"standard", "sensitive", "restricted"}
    assert {m["category"].split(":")[0] for m in memories} == {"a2p", "ext"}
    assert {m["memql"].get("payload", "text") for m in memories} == {"text", "url", "structured"}
    assert any(m.get("consolidatedFrom") for m in memories) and any("createdAt" in m for m in memories)
    assert any(any(ord(c) > 0x2FFF for c in m["content"]) for m in memories)  # CJK, emoji, Arabic
    assert fixture_text == dumps(profile)  # stored in canonical form


def test_fixture_profile_round_trips_exactly(memory, db, fixture_text):
    first = memory()
    imported = first.import_a2p(fixture_text)
    assert imported.success, imported.diagnostics
    assert imported.warnings == []
    exported = first.export_a2p(user="alice")
    assert exported.success and exported.count == 12
    assert exported.text() == fixture_text  # the canonical fixture is a fixed point

    second = memory()
    assert second.import_a2p(exported.text()).success
    assert second.export_a2p(user="alice").text() == fixture_text
    assert len(db.records(second)) == 12


def test_import_puts_each_field_where_memql_keeps_it(m, db, fixture_text, t0):
    result = m.import_a2p(fixture_text)
    record_of = {row["id"]: row["record"] for row in result.imported}
    records = db.records(m)

    madrid = records[record_of["mem_madrid02"]]
    assert (madrid.status, madrid.memory_type, madrid.category) == (
        "archived",
        "episodic",
        "a2p:interests.travel",
    )
    assert madrid.facets == {"location": "Madrid"} and madrid.confidence == 0.7
    moving = records[record_of["mem_move03"]]
    assert (moving.expire_at, moving.on_expire) == (t0, "none")  # expired as of the import, and stays so
    routine = records[record_of["mem_routine11"]]
    assert routine.on_expire == "archive" and routine.expire_at.year == 2027
    assert routine.tags == ["routine", "morning"] and routine.memory_type == "procedural"
    allergy = records[record_of["mem_allergy06"]]
    assert (allergy.sensitivity, allergy.category) == ("restricted", "a2p:health.allergies")
    guide = records[record_of["mem_guide09"]]
    assert guide.url == "https://example.com/guides/ünicode-handbook" and guide.text is None
    ci = records[record_of["mem_ci12"]]
    assert ci.structured == {"steps": ["lint", "test", "deploy"], "tool": "make"}
    python = records[record_of["mem_py01"]]
    assert python.time.isoformat() == "2026-01-15T10:30:00+00:00" and python.kind == "event"
    assert python.payload_meta["a2p"]["id"] == "mem_py01"
    assert python.payload_meta["a2p"]["source"]["agentDid"] == "did:a2p:agent:local:claude"
    music = records[record_of["mem_music07"]]
    assert music.payload_meta["consolidated_from"] == ["mem_jazz01", "mem_electro02"]
    assert all(r.owner == "alice" for r in records.values())  # owned by the importing session's actor
    # reads see what the statuses say
    visible = {row["id"] for row in m.retrieve(filter={}, include=["id"]).data["rows"]}
    assert record_of["mem_madrid02"] not in visible and record_of["mem_move03"] not in visible
    assert record_of["mem_py01"] in visible


def test_a_store_built_with_the_verbs_round_trips(memory, clock, t0):
    m = memory()
    team = m.encode(
        "Standup moves to 9:30",
        memory_type="procedural",
        category="ext:acme:team",
        confidence=0.7,
        tags=["team"],
        facets={"topic": "meetings", "room": {"floor": 3}},
        time="2026-03-01T09:00:00Z",
    ).id
    jazz = m.encode("Likes jazz music", memory_type="episodic", category="a2p:interests.music").id
    electro = m.encode("Enjoys electronic music", memory_type="episodic", category="a2p:interests.music").id
    assert m.consolidate([jazz, electro]).success
    old = m.encode("An old idea about kites").id
    m.demote(old, archive=True)
    lapsing = m.encode("Parking permit valid this week").id
    m.expire(lapsing, until=(t0 + timedelta(hours=1)).isoformat(), on_expire="none")
    swept = m.encode("Conference badge pickup").id
    m.expire(swept, until=(t0 + timedelta(hours=1)).isoformat(), on_expire="none")
    later = m.encode("Trial subscription").id
    m.expire(later, ttl="P30D", on_expire="archive")
    m.encode(url="https://example.com/ünicode")
    m.encode(structured={"b": [1, 2], "a": "é"}, memory_type="semantic")
    m.encode("Blood type 0+", sensitivity="restricted", category="a2p:health", memory_type="semantic")
    gone = m.encode("A mistake").id
    m.delete(gone)
    clock.advance(timedelta(hours=2))
    m.sweep()  # one lapsed record swept to status expired, the other still lapsing lazily
    m.retrieve(ids=[team])  # a use

    exported = m.export_a2p()
    assert exported.success, exported.diagnostics
    profile = exported.profile
    mems = _by_id(profile)
    assert derived_id("t", gone) not in mems  # deleted memories are not part of a profile
    assert mems[derived_id("t", team)]["metadata"]["useCount"] == 1
    assert mems[derived_id("t", jazz)]["consolidatedFrom"] == [derived_id("t", electro)]
    assert derived_id("t", electro) not in mems  # folded away
    statuses = {mems[derived_id("t", i)]["status"] for i in (old, lapsing, swept, later)}
    assert statuses == {"archived", "expired", "approved"}
    assert mems[derived_id("t", later)]["memql"]["onExpire"] == "archive"

    fresh = memory()
    assert fresh.import_a2p(exported.text()).success
    assert fresh.export_a2p().text() == exported.text()


def test_export_is_a_dry_read_it_counts_no_use_and_logs_nothing(m, db):
    m.encode("A quiet memory")
    before = len(db.operations(m))
    m.export_a2p()
    m.export_a2p()
    assert db.record(m, "1").visits == 0
    assert len(db.operations(m)) == before


def test_export_only_holds_what_the_session_may_read(memory):
    m = memory()
    m.encode("Everyday fact")
    m.encode("Medical fact", sensitivity="restricted")
    m.encode("Family fact", sensitivity="sensitive")
    guarded = memory(share=m, clearance="standard")
    assert [mem["content"] for mem in _by_id(guarded.export_a2p().profile).values()] == ["Everyday fact"]
    other_tenant = memory(share=m, tenant="u")
    assert other_tenant.export_a2p().count == 0


def test_a_users_profile_holds_that_users_memories(memory):
    alice = memory(actor="alice")
    bob = memory(share=alice, actor="bob")
    alice.encode("Alice likes tea")
    bob.encode("Bob likes coffee")
    profile = alice.export_a2p(user="bob").profile
    assert profile["id"] == "did:a2p:user:local:bob" and profile["profileType"] == "human"
    assert [mem["content"] for mem in _by_id(profile).values()] == ["Bob likes coffee"]
    assert alice.export_a2p().profile["id"] == "did:a2p:entity:local:t"


def test_importing_the_same_memories_again_is_refused(m, db, fixture_text):
    assert m.import_a2p(fixture_text).success
    again = m.import_a2p(fixture_text)
    assert not again.success and len(db.records(m)) == 12
    assert {d.rule for d in again.diagnostics} == {"a2p.id_exists"}
    assert again.diagnostics[0].path == "/memories/a2p:episodic/0/id"
    own = m.import_a2p(m.export_a2p().text())  # derived ids count too
    assert not own.success and {d.rule for d in own.diagnostics} == {"a2p.id_exists"}


def test_a_foreign_profile_is_filled_in_and_normalised(m, t0):
    foreign = {
        "id": "did:a2p:user:local:zoe",
        "profileType": "human",
        "accessPolicies": [{"id": "p1", "agentPattern": "*"}],
        "memories": {
            "a2p:episodic": [
                {
                    "content": "Asked for a vegan recipe",
                    "sensitivity": "public",
                    "source": {"type": "agent_proposal", "timestamp": "2026-01-02T10:00:00+02:00"},
                    "metadata": {"lastUsed": "2026-01-03T00:00:00-05:00", "customScore": 2},
                }
            ],
            "a2p:semantic": [{"id": "mem_veg", "content": "Vegan", "confidence": 1}],
        },
    }
    result = m.import_a2p(foreign)
    assert result.success, result.diagnostics
    assert {(w.path, w.rule) for w in result.warnings} == {
        ("/accessPolicies", "a2p.ignored"),
        ("/memories/a2p:episodic/0/sensitivity", "a2p.sensitivity_public"),
    }
    mems = list(_by_id(m.export_a2p().profile).values())
    recipe = next(mem for mem in mems if mem["content"] == "Asked for a vegan recipe")
    assert recipe["id"] == derived_id("t", result.imported[0]["record"]) and recipe["status"] == "approved"
    assert recipe["sensitivity"] == "standard"
    assert recipe["source"] == {"type": "agent_proposal", "timestamp": "2026-01-02T08:00:00Z"}
    assert recipe["metadata"] == {"lastUsed": "2026-01-03T05:00:00Z", "customScore": 2, "useCount": 0}
    vegan = next(mem for mem in mems if mem["id"] == "mem_veg")
    assert vegan["confidence"] == 1.0 and vegan["source"] == {
        "type": "user_import",
        "timestamp": "2026-03-04T10:00:00Z",
    }


def test_import_dry_run_commits_nothing(m, db, fixture_text):
    result = m.import_a2p(fixture_text, dry_run=True)
    assert result.success and result.dry_run and len(result.imported) == 12
    assert db.records(m) == {} and db.operations(m) == []


GOOD = {"content": "A fine memory"}


def _doc(*memories, key="a2p:episodic"):
    return {"memories": {key: [GOOD, *memories]}}


BAD_INPUT = {
    "malformed JSON": ("{nope", "", "json.malformed"),
    "not an object": ("[]", "", "field.type"),
    "no memories": ({"id": "did:a2p:user:local:x"}, "/memories", "field.required"),
    "memories as a list": ({"memories": []}, "/memories", "field.type"),
    "unknown memory type key": (
        {"memories": {"a2p:episodic": [GOOD], "a2p:episodes": []}},
        "/memories/a2p:episodes",
        "a2p.memory_type",
    ),
    "a structured category section": (
        {"memories": {"a2p:episodic": [GOOD], "a2p:professional": {"occupation": "Chef"}}},
        "/memories/a2p:professional",
        "a2p.memory_type",
    ),
    "memory list as an object": ({"memories": {"a2p:semantic": {}}}, "/memories/a2p:semantic", "field.type"),
    "memory as a string": (_doc("just text"), "/memories/a2p:episodic/1", "field.type"),
    "memory without content": (_doc({"id": "mem_x"}), "/memories/a2p:episodic/1/content", "field.required"),
    "blank content": (_doc({"content": "  "}), "/memories/a2p:episodic/1/content", "field.empty"),
    "content of the wrong type": (_doc({"content": 42}), "/memories/a2p:episodic/1/content", "field.type"),
    "misspelt field": (
        _doc({"content": "x", "confidance": 0.5}),
        "/memories/a2p:episodic/1/confidance",
        "field.unknown",
    ),
    "confidence as text": (
        _doc({"content": "x", "confidence": "high"}),
        "/memories/a2p:episodic/1/confidence",
        "field.type",
    ),
    "confidence above 1": (
        _doc({"content": "x", "confidence": 1.5}),
        "/memories/a2p:episodic/1/confidence",
        "field.range",
    ),
    "unknown status": (
        _doc({"content": "x", "status": "done"}),
        "/memories/a2p:episodic/1/status",
        "field.enum",
    ),
    "unknown sensitivity": (
        _doc({"content": "x", "sensitivity": "secret"}),
        "/memories/a2p:episodic/1/sensitivity",
        "field.enum",
    ),
    "tags as text": (_doc({"content": "x", "tags": "a,b"}), "/memories/a2p:episodic/1/tags", "field.type"),
    "bad category": (
        _doc({"content": "x", "category": "health stuff"}),
        "/memories/a2p:episodic/1/category",
        "category.namespace",
    ),
    "source as text": (
        _doc({"content": "x", "source": "chat"}),
        "/memories/a2p:episodic/1/source",
        "field.type",
    ),
    "bad timestamp": (
        _doc({"content": "x", "source": {"type": "user_manual", "timestamp": "last spring"}}),
        "/memories/a2p:episodic/1/source/timestamp",
        "time.invalid",
    ),
    "negative use count": (
        _doc({"content": "x", "metadata": {"useCount": -1}}),
        "/memories/a2p:episodic/1/metadata/useCount",
        "field.range",
    ),
    "duplicate ids": (
        _doc({"id": "mem_a", "content": "x"}, {"id": "mem_a", "content": "y"}),
        "/memories/a2p:episodic/2/id",
        "a2p.duplicate_id",
    ),
    "structured content that is not JSON": (
        _doc({"content": "not json", "memql": {"payload": "structured"}}),
        "/memories/a2p:episodic/1/content",
        "a2p.content",
    ),
    "a URL payload that is not a URL": (  # refused by the import workflow's own validation
        _doc({"content": "not a url", "memql": {"payload": "url"}}),
        "/memories/a2p:episodic/1",
        "url.invalid",
    ),
    "unknown memql field": (
        _doc({"content": "x", "memql": {"weight": 1}}),
        "/memories/a2p:episodic/1/memql/weight",
        "field.unknown",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUT))
def test_bad_input_is_diagnosed_and_imports_nothing(m, db, case):
    source, path, rule = BAD_INPUT[case]
    m.encode("Already here")
    before = (len(db.records(m)), len(db.operations(m)))
    result = m.import_a2p(source)
    assert not result.success and result.imported == []
    assert (path, rule) in {(d.path, d.rule) for d in result.diagnostics}, result.diagnostics
    assert all(d.severity == "error" for d in result.diagnostics)
    assert (len(db.records(m)), len(db.operations(m))) == before


def test_proposals_import_as_proposals_and_round_trip(memory, db):
    """A pending memory imports as a proposal, a rejected one as a proposal then its rejection (both
    audited); neither is in default reads, and the export gives them back unchanged."""
    doc = json.dumps(
        {
            "id": "did:a2p:entity:local:t",
            "memories": {
                "a2p:episodic": [
                    {"id": "mem_p", "content": "Prefers window seats", "status": "pending"},
                    {"id": "mem_r", "content": "Dislikes tea", "status": "rejected"},
                    {"id": "mem_a", "content": "Lives in Lisbon"},
                ]
            },
        }
    )
    m = memory()
    imported = m.import_a2p(doc)
    assert imported.success, imported.diagnostics
    assert [r["id"] for r in m.retrieve(filter={}).data["rows"]] == ["3"]
    rows = m.retrieve(filter={"status": "any"}, include=["id", "status"]).data["rows"]
    assert {r["id"]: r["status"] for r in rows} == {"1": "pending", "2": "rejected", "3": "active"}
    assert [h["proposal"] for h in m.history("2")] == ["proposed", "rejected"]
    exported = json.loads(m.export_a2p().text())["memories"]["a2p:episodic"]
    assert {e["id"]: e["status"] for e in exported} == {
        "mem_p": "pending",
        "mem_r": "rejected",
        "mem_a": "approved",
    }
    fresh = memory()
    assert fresh.import_a2p(m.export_a2p().text()).success
    assert fresh.export_a2p().text() == m.export_a2p().text()
