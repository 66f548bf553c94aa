"""Consolidation (a Merge recording consolidatedFrom) and reclassification (an audited Update), on every
backend: both show in `history`, and the a2p export carries what they did."""

from __future__ import annotations

from datetime import timedelta

from memql.cognition.profile.a2p import derived_id


def _memories(profile: dict) -> dict[str, dict]:
    return {mem["id"]: {**mem, "key": key} for key, items in profile["memories"].items() for mem in items}


def test_consolidation_is_one_merge_that_records_its_sources(m, db):
    a = m.encode("Likes jazz", memory_type="episodic").id
    b = m.encode("Enjoys electronic music", memory_type="episodic").id
    c = m.encode("Listens to jazz on Sundays", memory_type="episodic").id
    before = len(db.operations(m))
    result = m.consolidate([a, b, c], primary=a, note="music taste")
    assert result.success and result.op == "Merge", result.diagnostics
    assert len(db.operations(m)) == before + 1  # one op (the read that named the sources is a dry run)
    primary = db.record(m, a)
    assert primary.payload_meta["consolidated_from"] == [derived_id("t", b), derived_id("t", c)]
    assert {db.record(m, i).status for i in (b, c)} == {"deleted"}
    assert db.links(m, b) == {(b, a, "merged_into")}
    merge = m.history(a)[-1]
    assert (merge["op"], merge["note"]) == ("Merge", "consolidate: music taste")
    assert merge["after"]["payload_meta"]["consolidated_from"] == [derived_id("t", b), derived_id("t", c)]
    assert [(e["op"], e["change"]) for e in m.history(b)][-2:] == [("Merge", "update"), ("Merge", "link")]

    exported = _memories(m.export_a2p().profile)
    assert exported[derived_id("t", a)]["consolidatedFrom"] == [derived_id("t", b), derived_id("t", c)]
    assert set(exported) == {derived_id("t", a)}


def test_the_default_primary_is_the_one_merge_picks(m, db):
    low = m.encode("Tea at noon", weight=0.2).id
    high = m.encode("Tea at four", weight=0.9).id
    also = m.encode("Tea with milk", weight=0.9).id
    result = m.consolidate([low, high, also])
    assert result.data["primary_id"] == high  # the highest weight, then the oldest
    assert db.record(m, high).payload_meta["consolidated_from"] == [
        derived_id("t", low),
        derived_id("t", also),
    ]


def test_consolidating_imported_memories_keeps_their_a2p_ids_after_the_children_are_purged(m, clock):
    profile = {
        "memories": {
            "a2p:semantic": [
                {"id": "mem_jazz", "content": "Likes jazz"},
                {"id": "mem_electro", "content": "Enjoys electronic music"},
            ]
        }
    }
    imported = m.import_a2p(profile)
    records = [row["record"] for row in imported.imported]
    assert m.consolidate(records).success
    clock.advance(timedelta(days=31))
    swept = m.sweep()
    assert swept.data["purged"] == [records[1]]  # the folded child is gone for good
    (music,) = _memories(m.export_a2p().profile).values()
    assert music["id"] == "mem_jazz" and music["consolidatedFrom"] == ["mem_electro"]


def test_a_second_consolidation_adds_to_the_sources(m, db):
    a, b, c = (m.encode(t).id for t in ("Runs on Mondays", "Runs on Fridays", "Runs by the river"))
    m.consolidate([a, b], primary=a)
    m.consolidate([a, c], primary=a)
    assert db.record(m, a).payload_meta["consolidated_from"] == [derived_id("t", b), derived_id("t", c)]


def test_consolidation_of_memories_that_are_not_live_is_refused(m, db):
    a = m.encode("Alpha").id
    b = m.encode("Beta").id
    m.demote(b, archive=True)
    result = m.consolidate([a, b, "99"])
    assert not result.success
    assert {d.rule for d in result.diagnostics} == {"target.hidden", "target.not_found"}
    assert db.record(m, a).payload_meta == {} and db.record(m, b).status == "archived"


def test_the_merge_language_extension_validates_its_ids(m):
    m.encode("One")
    m.encode("Two")
    bad = m.execute(
        {"op": "Merge", "target": {"ids": ["1", "2"]}, "args": {"consolidated_from": ["ok", "bad\nid"]}}
    )
    assert not bad.success
    assert [(d.path, d.rule) for d in bad.diagnostics] == [("/args/consolidated_from/1", "field.invalid")]


def test_reclassification_is_one_audited_update(m, db):
    rid = m.encode("Prefers window seats", memory_type="episodic", category="a2p:preferences").id
    result = m.reclassify(rid, memory_type="semantic", category="a2p:preferences.travel", note="a habit")
    assert result.success and result.op == "Update"
    record = db.record(m, rid)
    assert (record.memory_type, record.category) == ("semantic", "a2p:preferences.travel")
    event = m.history(rid)[-1]
    assert (event["op"], event["change"], event["note"]) == ("Update", "update", "reclassify: a habit")
    assert {k: event["before"][k] for k in ("memory_type", "category")} == {
        "memory_type": "episodic",
        "category": "a2p:preferences",
    }
    assert {k: event["after"][k] for k in ("memory_type", "category")} == {
        "memory_type": "semantic",
        "category": "a2p:preferences.travel",
    }
    assert _memories(m.export_a2p().profile)[derived_id("t", rid)]["key"] == "a2p:semantic"


def test_reclassification_refuses_what_an_update_refuses(m, db):
    rid = m.encode("Prefers aisle seats", memory_type="episodic").id
    bad_type = m.reclassify(rid, memory_type="factual")
    assert [(d.path, d.rule) for d in bad_type.diagnostics] == [("/args/set/memory_type", "field.enum")]
    nothing = m.reclassify(rid)
    assert [d.rule for d in nothing.diagnostics] == ["update.empty"]
    m.lock(rid, reason="under review")
    locked = m.reclassify(rid, memory_type="semantic")
    assert [d.rule for d in locked.diagnostics] == ["governance.locked"]
    assert db.record(m, rid).memory_type == "episodic"
    dry = m.reclassify(rid, category="a2p:context", dry_run=True)
    assert not dry.success  # a dry run refuses what the real one would
    m.unlock(rid)
    preview = m.reclassify(rid, category="a2p:context", dry_run=True)
    assert preview.success and preview.dry_run and db.record(m, rid).category is None
