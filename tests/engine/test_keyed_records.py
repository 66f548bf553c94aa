"""Key-addressed records (issue 18), on every backend: Encode with namespace + key (one live record per
tenant; a put on an existing key is an audited Update), the filter's namespace / namespace_prefix / key /
where, Retrieve's offset, refresh_ttl and namespace listing, Encode ttl and index — and the governance
each new path keeps: tenants, read and write permissions, locks, expiry."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memql import Memory
from memql.lang import validate


def put(m: Memory, namespace: list[str], key: str, value: dict[str, Any], **args: Any):
    return m.execute(
        {"op": "Encode", "args": {"payload": {"document": value}, "namespace": namespace, "key": key, **args}}
    )


def get(m: Memory, namespace: list[str], key: str, **args: Any) -> list[dict[str, Any]]:
    result = m.execute(
        {
            "op": "Retrieve",
            "target": {"filter": {"namespace": namespace, "key": key}},
            "args": {"include": ["id", "namespace", "key", "structured", "expire_at", "updated_at"], **args},
        }
    )
    assert result.success, result.diagnostics
    return result.data["rows"]


def keys(m: Memory, filter: dict[str, Any], **args: Any) -> list[str]:
    result = m.execute({"op": "Retrieve", "target": {"filter": filter}, "args": {"include": ["key"], **args}})
    assert result.success, result.diagnostics
    return [row["key"] for row in result.data["rows"]]


def namespaces(m: Memory, **listing: Any) -> list[list[str]]:
    program = {
        "op": "Retrieve",
        "target": {"filter": {"namespace_prefix": []}},
        "args": {"namespaces": listing},
    }
    result = m.execute(program)
    assert result.success, result.diagnostics
    return result.data["namespaces"]


def test_a_put_on_an_existing_key_updates_that_record_with_history(m: Memory) -> None:
    first = put(m, ["u", "notes"], "k", {"v": 1})
    second = put(m, ["u", "notes"], "k", {"v": 2, "w": "x"})
    assert first.success and second.success
    assert first.data == {"id": first.data["id"], "created": True}
    assert second.data == {"id": first.data["id"], "created": False}
    (row,) = get(m, ["u", "notes"], "k")
    assert row["structured"] == {"v": 2, "w": "x"} and row["namespace"] == ["u", "notes"]
    changes = [(h["op"], h["change"]) for h in m.history(first.data["id"])]
    assert changes == [("Encode", "insert"), ("Encode", "update")]
    assert m.history(first.data["id"])[1]["before"]["structured"] == {"v": 1}


def test_delete_by_key_then_a_put_makes_a_new_record(m: Memory) -> None:
    first = put(m, ["u"], "k", {"v": 1}).data["id"]
    deleted = m.execute({"op": "Delete", "target": {"filter": {"namespace": ["u"], "key": "k"}}})
    assert deleted.affected_ids == [first]
    assert get(m, ["u"], "k") == []
    again = put(m, ["u"], "k", {"v": 3})
    assert again.data["created"] is True and again.data["id"] != first


def test_a_key_is_per_tenant_and_hidden_from_other_users(memory) -> None:
    alice = memory(actor="alice")
    bob = memory(actor="bob", share=alice)
    other_tenant = memory(tenant="other", actor="alice", share=alice)
    mine = put(alice, ["shared"], "k", {"secret": 1}, read_perm_level="private").data["id"]
    assert get(bob, ["shared"], "k") == []
    refused = put(bob, ["shared"], "k", {"secret": 2})
    assert [d.rule for d in refused.diagnostics] == ["key.taken"]
    assert refused.diagnostics[0].path == "/args/key"
    assert get(alice, ["shared"], "k")[0]["structured"] == {"secret": 1}
    theirs = put(other_tenant, ["shared"], "k", {"secret": 3})
    assert theirs.data["created"] is True and theirs.data["id"] != mine
    assert get(alice, ["shared"], "k")[0]["structured"] == {"secret": 1}
    assert namespaces(bob) == []  # a namespace whose only record bob may not read is not listed to him


def test_a_put_respects_write_permissions_and_locks(memory) -> None:
    alice = memory(actor="alice")
    bob = memory(actor="bob", share=alice)
    record = put(alice, ["team"], "k", {"v": 1}, write_perm_level="owner_only").data["id"]
    refused = put(bob, ["team"], "k", {"v": 2})
    assert [d.rule for d in refused.diagnostics] == ["permission.write"]
    assert alice.lock([record]).success
    locked = put(alice, ["team"], "k", {"v": 3})
    assert [d.rule for d in locked.diagnostics] == ["governance.locked"]
    assert get(alice, ["team"], "k")[0]["structured"] == {"v": 1}


def test_namespace_prefix_stops_at_label_boundaries(m: Memory) -> None:
    for ns in (["foo"], ["foo", "child"], ["foobar"], ["foo%"], ["Foo"]):
        put(m, ns, "k" + "".join(ns), {"v": 1})
    assert sorted(keys(m, {"namespace_prefix": ["foo"]})) == ["kfoo", "kfoochild"]
    assert keys(m, {"namespace": ["foo"]}) == ["kfoo"]
    assert keys(m, {"namespace_prefix": ["fo"]}) == []


def test_namespace_listing_matches_cuts_and_pages(m: Memory) -> None:
    for ns in (["a", "b", "c"], ["a", "b", "d", "e"], ["a", "c", "f"], ["b", "a", "f"], ["users", "1"]):
        put(m, ns, "k", {"v": 1})
    assert namespaces(m, match=[{"type": "prefix", "path": ["a", "b"]}]) == [
        ["a", "b", "c"],
        ["a", "b", "d", "e"],
    ]
    assert namespaces(m, match=[{"type": "suffix", "path": ["f"]}]) == [["a", "c", "f"], ["b", "a", "f"]]
    assert namespaces(m, match=[{"type": "prefix", "path": ["a", "*", "f"]}]) == [["a", "c", "f"]]
    assert namespaces(m, max_depth=2) == [["a", "b"], ["a", "c"], ["b", "a"], ["users", "1"]]
    assert namespaces(m, limit=2, offset=1) == [["a", "b", "d", "e"], ["a", "c", "f"]]


def test_where_compares_structured_values(m: Memory) -> None:
    docs = {
        "n1": {"n": 1, "s": "apple", "b": True, "tags": ["x", "y"], "user": {"level": 3}},
        "n2": {"n": 2.5, "s": "banana", "b": False, "tags": ["y"]},
        "n3": {"n": "3", "s": "cherry"},
    }
    for key, value in docs.items():
        put(m, ["docs"], key, value)
    scope = {"namespace": ["docs"]}
    assert sorted(keys(m, {**scope, "where": {"n": {"$gt": 1}}})) == ["n2"]  # "3" is a string, not a number
    assert sorted(keys(m, {**scope, "where": {"n": {"$gte": 1, "$lt": 2.5}}})) == ["n1"]
    assert sorted(keys(m, {**scope, "where": {"n": {"$lte": 2.5}}})) == ["n1", "n2"]
    assert sorted(keys(m, {**scope, "where": {"s": {"$gt": "b"}}})) == ["n2", "n3"]
    assert sorted(keys(m, {**scope, "where": {"n": {"$ne": 1}}})) == ["n2", "n3"]
    assert sorted(keys(m, {**scope, "where": {"b": True}})) == ["n1"]
    assert sorted(keys(m, {**scope, "where": {"b": {"$ne": True}}})) == [
        "n2",
        "n3",
    ]  # missing counts as not equal
    assert sorted(keys(m, {**scope, "where": {"b": None}})) == ["n3"]
    assert sorted(keys(m, {**scope, "where": {"tags": ["y"]}})) == ["n2"]
    assert sorted(keys(m, {**scope, "where": {"user.level": 3}})) == ["n1"]
    assert sorted(keys(m, {**scope, "where": {"user": {"level": {"$gte": 3}}}})) == ["n1"]
    assert sorted(keys(m, {**scope, "where": {"n": {"$eq": 1}}})) == ["n1"]


def test_offset_skips_ordered_results(m: Memory) -> None:
    for i in range(5):
        put(m, ["p"], f"k{i}", {"text": f"note number {i}"}, index=["text"])
    everything = keys(m, {"namespace": ["p"]})
    assert keys(m, {"namespace": ["p"], "limit": 2}, offset=2) == everything[2:4]
    searched = m.execute(
        {"op": "Retrieve", "target": {"search": {"intent": {"query": "note"}, "overrides": {"k": 5}}}}
    )
    skipped = m.execute(
        {
            "op": "Retrieve",
            "target": {"search": {"intent": {"query": "note"}, "overrides": {"k": 2}}},
            "args": {"offset": 3},
        }
    )
    ids = [r["id"] for r in searched.data["rows"]]
    assert [r["id"] for r in skipped.data["rows"]] == ids[3:5]


def test_ttl_expires_and_a_refreshing_read_renews_it_without_a_content_change(m: Memory, clock) -> None:
    record = put(m, ["t"], "k", {"v": 1}, ttl="PT10M").data["id"]
    put(m, ["t"], "plain", {"v": 2}, ttl="PT10M")
    written = get(m, ["t"], "k")[0]
    clock.advance(timedelta(minutes=8))
    (refreshed,) = get(m, ["t"], "k", refresh_ttl=True)
    assert refreshed["expire_at"] == clock.now() + timedelta(minutes=10)
    assert refreshed["updated_at"] == written["updated_at"]  # not a content change
    assert m.history(record)[-1]["after"] == {"expire_at": "2026-03-04T10:18:00Z"}  # audited: 10:08 + 10 min
    clock.advance(timedelta(minutes=8))
    assert get(m, ["t"], "k") != []  # alive: renewed 8 minutes ago
    assert get(m, ["t"], "plain") == []  # expired: never refreshed
    clock.advance(timedelta(minutes=3))
    assert get(m, ["t"], "k") == []
    again = put(m, ["t"], "k", {"v": 3})  # the expired record no longer holds the key
    assert again.data["created"] is True


def test_a_refresh_leaves_locked_and_unwritable_records_alone(memory, clock) -> None:
    alice = memory(actor="alice")
    bob = memory(actor="bob", share=alice)
    record = put(alice, ["t"], "k", {"v": 1}, ttl="PT10M", write_perm_level="owner_only").data["id"]
    expiry = get(alice, ["t"], "k")[0]["expire_at"]
    clock.advance(timedelta(minutes=5))
    assert get(bob, ["t"], "k", refresh_ttl=True)[0]["expire_at"] == expiry  # bob may read, not write
    assert alice.lock([record]).success
    assert get(alice, ["t"], "k", refresh_ttl=True)[0]["expire_at"] == expiry  # a lock holds


def test_index_paths_decide_what_search_finds(m: Memory) -> None:
    put(m, ["i"], "both", {"title": "alpaca", "body": "zebra"}, index=["title"])
    put(m, ["i"], "none", {"title": "alpaca", "body": "zebra"}, index=False)
    put(m, ["i"], "all", {"title": "okapi", "body": "zebra"})
    found = m.retrieve("alpaca", include=["key", "text"]).data["rows"]
    assert [(r["key"], r["text"]) for r in found] == [("both", "alpaca")]
    assert sorted(r["key"] for r in m.retrieve("zebra", include=["key"]).data["rows"]) == ["all"]


@pytest.mark.parametrize(
    ("program", "rule", "path"),
    [
        ({"op": "Encode", "args": {"payload": {"document": {"a": 1}}, "key": "k"}}, "encode.key", "/args"),
        (
            {"op": "Encode", "args": {"payload": {"text": "x"}, "index": ["a"]}},
            "encode.index",
            "/args",
        ),
        (
            {"op": "Encode", "args": {"payload": {"document": {}}, "namespace": ["a\x1fb"], "key": "k"}},
            "field.invalid",
            "/args/namespace/0",
        ),
        (
            {"op": "Retrieve", "target": {"filter": {"where": {"a": {"$regex": "x"}}}}},
            "filter.where",
            "/target/filter/where",
        ),
        (
            {"op": "Retrieve", "target": {"filter": {"where": {"a": {"$gt": True}}}}},
            "filter.where",
            "/target/filter/where",
        ),
        (
            {"op": "Retrieve", "target": {"filter": {"where": {"a..b": 1}}}},
            "filter.where",
            "/target/filter/where",
        ),
        (
            {"op": "Retrieve", "target": {"ids": ["1"]}, "args": {"namespaces": {}}},
            "retrieve.namespaces",
            "",
        ),
        (
            {"op": "Retrieve", "target": {"filter": {"key": "k"}}, "args": {"offset": -1}},
            "field.range",
            "/args/offset",
        ),
    ],
)
def test_bad_keyed_programs_get_diagnostics(program: dict[str, Any], rule: str, path: str) -> None:
    result = validate(program)
    assert not result.valid
    assert [(d.rule, d.path) for d in result.diagnostics if d.severity == "error"] == [(rule, path)]


def test_a_put_by_another_user_cannot_change_who_reads_the_record(memory) -> None:
    alice = memory(actor="alice")
    bob = memory(actor="bob", share=alice)
    put(alice, ["team"], "k", {"v": 1})  # public, open: bob may read and edit it
    assert put(bob, ["team"], "k", {"v": 2}).success
    hidden = put(bob, ["team"], "k", {"v": 3}, read_perm_level="private")
    assert [(d.rule, d.path) for d in hidden.diagnostics] == [("permission.owner", "/args/read_perm_level")]
    assert get(alice, ["team"], "k")[0]["structured"] == {"v": 2}
    assert put(alice, ["team"], "k", {"v": 4}, read_perm_level="private").success  # the owner may
    assert get(bob, ["team"], "k") == []


def test_a_restore_never_makes_a_second_holder_of_a_key(m: Memory) -> None:
    first = put(m, ["r"], "k", {"v": 1}).data["id"]
    m.execute({"op": "Delete", "target": {"filter": {"namespace": ["r"], "key": "k"}}})
    second = put(m, ["r"], "k", {"v": 2}).data["id"]
    assert [d.rule for d in m.restore(first).diagnostics] == ["key.taken"]
    m.execute({"op": "Delete", "target": {"filter": {"namespace": ["r"], "key": "k"}}})
    assert m.restore(first).success and get(m, ["r"], "k")[0]["id"] == first
    assert second != first


def test_the_store_keeps_one_live_record_per_key(m: Memory) -> None:
    """Even a writer that skips the engine's holder lookup (a concurrent one) cannot add a second."""
    from memql.ports.record import Record

    put(m, ["u"], "k", {"v": 1})
    with pytest.raises(Exception, match=r"(?i)unique"), m.store.transaction() as session:
        now = m.clock.now()
        session.insert(
            Record(tenant=m.tenant, namespace="u", key="k", text="twin", created_at=now, updated_at=now)
        )


def test_memory_retrieve_takes_offset_and_refresh_ttl(m: Memory, clock) -> None:
    for i in range(5):
        put(m, ["p"], f"k{i}", {"v": i}, ttl="PT10M")
    listed = m.retrieve(filter={"namespace": ["p"], "limit": 10}, include=["key"], order_by="created_at")
    paged = m.retrieve(
        filter={"namespace": ["p"], "limit": 2}, include=["key"], order_by="created_at", offset=3
    )
    assert listed.success and paged.success, paged.diagnostics
    assert [r["key"] for r in paged.data["rows"]] == [r["key"] for r in listed.data["rows"]][3:5]
    clock.advance(timedelta(minutes=8))
    renewed = m.retrieve(filter={"namespace": ["p"], "key": "k0"}, include=["expire_at"], refresh_ttl=True)
    assert renewed.data["rows"][0]["expire_at"] == clock.now() + timedelta(minutes=10)
    assert (
        m.retrieve(filter={"namespace": ["p"], "key": "k0"}, offset=-1).diagnostics[0].path == "/args/offset"
    )
