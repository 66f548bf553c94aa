"""A hard delete and the `anonymize` expiry action remove a record's content from the audit log (issue 16,
item 3; docs/engine.md, "Audit log and history"): its events keep only their governance fields, every
operation that touched it keeps its op and target ids but none of its IR's content, and the history of a
record that is gone is governed by the governance its delete event keeps."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import cast

import pytest

from memql.ports.store import PortableSession

TEXT = "biopsy results from the northside clinic"
TAG = "oncology"
COMMENT = "copied from the lab letter"
FACET = "dr-okafor"


def _raw_log(m) -> str:
    """Every operation (IR, affected ids) and event (before, after) of m's tenant as stored, as one text
    to search: the raw rows, read as `memql copy` exports them."""
    rows = []
    with m.store.dry_run() as store_session:
        session = cast(PortableSession, store_session)
        after = 0
        while page := session.export_log(after, 500):
            for op, events in page:
                if op.tenant == m.tenant:
                    rows.append([op.ir, op.affected_ids, [[e.before, e.after] for e in events]])
            after = page[-1][0].seq
    return json.dumps(rows, ensure_ascii=False, default=str)


def _encode(m, read_level: str | None = "private") -> str:
    args = {"payload": {"text": TEXT}, "tags": [TAG, "draft"], "facets": {"doctor": FACET}}
    if read_level is not None:
        args["read_perm_level"] = read_level
    result = m.execute({"op": "Encode", "args": args, "_comment": COMMENT})
    assert result.success, result.diagnostics
    return result.affected_ids[0]


def _touch(m, rid: str) -> None:
    """Operations that quote the content: an edit, a label, a search that finds it, a filter on its tag."""
    for ir in (
        {"op": "Update", "target": {"ids": [rid]}, "args": {"set": {"text": TEXT + " (reviewed)"}}},
        {"op": "Label", "target": {"ids": [rid]}, "args": {"tags": ["biopsy"]}, "_comment": COMMENT},
        {"op": "Retrieve", "target": {"search": {"intent": {"query": "biopsy northside"}}}, "args": {}},
        {"op": "Retrieve", "target": {"filter": {"has_tags": [TAG]}}, "args": {}},
    ):
        result = m.execute(ir)
        assert result.success and rid in result.affected_ids, (ir, result.diagnostics)


def _hard_delete(m, rid: str):
    result = m.execute(
        {
            "op": "Delete",
            "target": {"ids": [rid]},
            "args": {"soft": False, "reason": "the northside letter"},
            "meta": {"confirmation": True},
            "_comment": "purge the " + TAG + " note",
        }
    )
    assert result.success, result.diagnostics
    return result


def _assert_no_content(text: str, content_hash: str) -> None:
    for secret in (TEXT, "biopsy", "northside", TAG, COMMENT, FACET, content_hash):
        assert secret not in text, secret


@pytest.fixture
def people(memory):
    alice = memory(actor="alice")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice),
        "admin": memory(actor="root", role="admin", share=alice),
        "agent": memory(actor="bot", role="agent", consent="read", share=alice),
    }


def test_a_hard_delete_leaves_no_content_in_the_raw_log_or_history(people, db, t0):
    alice = people["alice"]
    rid = _encode(alice)
    other = alice.encode("an unrelated note about gardening", tags=["garden"]).affected_ids[0]
    _touch(alice, rid)
    content_hash = db.record(alice, rid).content_hash
    assert content_hash and content_hash in _raw_log(alice)
    # a dry-run preview still shows what would go (it is not logged)
    preview = alice.execute(
        {"op": "Delete", "target": {"ids": [rid]}, "args": {"soft": False}, "meta": {"dry_run": True}}
    )
    assert preview.success and TEXT in preview.preview[0].before["text"]
    assert TAG in _raw_log(alice)

    _hard_delete(alice, rid)
    assert db.record(alice, rid) is None
    raw = _raw_log(alice)
    _assert_no_content(raw, content_hash)
    _assert_no_content(repr(alice.history(rid)), content_hash)
    _assert_no_content(repr(people["admin"].history(rid)), content_hash)
    # the operations are all still there, with their op, target ids and affected ids
    ops = [o for o in db.operations(alice) if rid in o["affected_ids"]]
    assert [o["op"] for o in ops] == ["Encode", "Update", "Label", "Retrieve", "Retrieve", "Delete"]
    assert ops[-1]["ir"]["target"] == {"ids": [rid]} and ops[-1]["ir"]["args"]["soft"] is False
    assert all(o["actor"] == "alice" for o in ops)
    # an operation that did not touch the record keeps its content
    (kept,) = [o for o in db.operations(alice) if o["affected_ids"] == [other] and o["op"] == "Encode"]
    assert kept["ir"]["args"]["payload"] == {"text": "an unrelated note about gardening"}
    assert alice.history(other)[0]["after"]["tags"] == ["garden"]


def test_the_owner_and_admins_still_see_that_it_happened_by_whom_and_when(people, db, clock, t0):
    alice = people["alice"]
    rid = _encode(alice)
    clock.advance(timedelta(hours=3))
    _hard_delete(alice, rid)
    for who in ("alice", "admin"):
        trail = people[who].history(rid)
        assert [e["change"] for e in trail] == ["insert", "delete"]
        assert [(e["actor"], e["op"], e["time"]) for e in trail] == [
            ("alice", "Encode", t0),
            ("alice", "Delete", t0 + timedelta(hours=3)),
        ]
        gone = trail[-1]["before"]
        assert (gone["owner"], gone["read_perm_level"], gone["status"]) == ("alice", "private", "active")
        assert gone["text"] == "[redacted]" and gone["tags"] == [] and gone["facets"] == {}
        assert trail[0]["note"] == "[redacted]"


def test_a_reader_who_could_not_read_the_private_record_sees_nothing_after(people):
    alice = people["alice"]
    rid = _encode(alice, read_level="private")
    assert people["bob"].history(rid) == [] and people["bob"].lineage(rid) == []
    _hard_delete(alice, rid)
    for who in ("bob", "agent"):
        assert people[who].history(rid) == []
        assert people[who].lineage(rid) == []
    assert people["bob"].history("999") == []  # never existed: nothing either


def test_a_reader_of_a_public_record_sees_that_it_was_deleted_and_nothing_of_it(people, db):
    alice = people["alice"]
    rid = _encode(alice, read_level=None)  # public: everyone reads it
    assert people["bob"].history(rid) != []
    content_hash = db.record(alice, rid).content_hash
    _hard_delete(alice, rid)
    for who in ("bob", "agent"):
        trail = people[who].history(rid)
        assert [(e["change"], e["actor"]) for e in trail] == [("insert", "alice"), ("delete", "alice")]
        _assert_no_content(repr(trail), content_hash)


def test_a_restricted_record_stays_beyond_a_standard_clearance_after_it_is_gone(people, memory):
    alice = people["alice"]
    cleared = memory(actor="bot", role="agent", consent="read", clearance="restricted", share=alice)
    result = alice.execute({"op": "Encode", "args": {"payload": {"text": TEXT}, "sensitivity": "restricted"}})
    rid = result.affected_ids[0]
    _hard_delete(alice, rid)
    assert people["agent"].history(rid) == []  # a standard-clearance agent, even on a public record
    for who in (people["bob"], cleared):  # who could read it while it lived still sees that it went
        assert [e["change"] for e in who.history(rid)] == ["insert", "delete"]


def test_anonymize_on_expiry_removes_the_content_from_history_and_the_ir(people, db, clock):
    alice = people["alice"]
    rid = _encode(alice)
    _touch(alice, rid)
    content_hash = db.record(alice, rid).content_hash
    assert alice.expire(rid, ttl="PT1H", on_expire="anonymize").success
    clock.advance(timedelta(hours=2))
    assert people["admin"].sweep().data["expired"] == {"anonymize": [rid]}
    kept = db.record(alice, rid)
    assert kept is not None and kept.text == "[anonymized]" and kept.status == "active"
    assert kept.tags == [] and kept.facets == {}  # what was said goes from the record too
    _assert_no_content(_raw_log(alice), content_hash)
    trail = alice.history(rid)
    _assert_no_content(repr(trail), content_hash)
    assert [e["op"] for e in trail] == ["Encode", "Update", "Label", "Expire", "Sweep"]
    assert trail[-2]["after"]["on_expire"] == "anonymize"  # governance stays
    assert people["bob"].history(rid) == []  # still private
    # the record lives on: later changes are logged in full, and point-in-time reads replay cleanly
    assert alice.label(rid, tags=["reviewed"]).success
    assert alice.history(rid)[-1]["after"]["tags"] == ["reviewed"]
    then = alice.retrieve(filter={}, as_of=clock.now().isoformat(), include=["id", "text", "weight"])
    assert then.success and [(r["id"], r["text"]) for r in then.data["rows"]] == [(rid, "[redacted]")]
    assert then.data["rows"][0]["weight"] == 0.5  # a blanked number replays as its default


@pytest.mark.parametrize("how", ["hard_delete expiry", "purge after the recovery window"])
def test_the_sweep_removes_content_from_the_log_when_it_hard_deletes(people, db, clock, how):
    alice = people["alice"]
    rid = _encode(alice)
    content_hash = db.record(alice, rid).content_hash
    if how == "hard_delete expiry":
        assert alice.expire(rid, ttl="PT1H", on_expire="hard_delete").success
        clock.advance(timedelta(hours=2))
    else:
        assert alice.delete(rid).success  # soft: restorable for the recovery window
        clock.advance(timedelta(days=31))
    assert rid in people["admin"].sweep().affected_ids
    assert db.record(alice, rid) is None
    _assert_no_content(_raw_log(alice), content_hash)
    assert [e["change"] for e in alice.history(rid)][-1] == "delete"
    assert people["bob"].history(rid) == []


def test_a_workflow_that_encodes_and_hard_deletes_keeps_no_content(people, db):
    alice = people["alice"]
    result = alice.execute(
        {
            "workflow": [
                {"op": "Encode", "args": {"payload": {"text": TEXT}, "tags": [TAG]}, "_comment": COMMENT},
                {"op": "Encode", "args": {"payload": {"text": "an unrelated note"}}},
                {"op": "Delete", "target": {"from_step": 0}, "args": {"soft": False}},
            ],
            "meta": {"confirmation": True},
        }
    )
    assert result.success, result.diagnostics
    _assert_no_content(_raw_log(alice), "biopsy")
    # each step is its own operation: the step that did not touch the record keeps its IR
    steps = {o["step"]: o for o in db.operations(alice)}
    assert steps[1]["ir"]["args"]["payload"] == {"text": "an unrelated note"}
    assert steps[2]["ir"]["target"] == {"from_step": 0}


def test_a_point_in_time_read_governs_a_gone_record_by_its_last_governance(people, clock, t0):
    alice, bob = people["alice"], people["bob"]
    rid = _encode(alice, read_level=None)  # public while bob could read it
    clock.advance(timedelta(hours=1))
    assert alice.update(rid, read_perm_level="private").success
    clock.advance(timedelta(hours=1))
    _hard_delete(alice, rid)
    then = (t0 + timedelta(minutes=30)).isoformat()
    assert _ids(bob.retrieve(filter={}, as_of=then)) == []  # private when it went: nothing after
    rows = alice.retrieve(filter={}, as_of=then, include=["id", "text", "tags"]).data["rows"]
    assert rows == [{"id": rid, "text": "[redacted]", "tags": []}]


def _ids(result) -> list[str]:
    assert result.success, result.diagnostics
    return [row["id"] for row in result.data["rows"]]
