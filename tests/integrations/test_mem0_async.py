"""mem0's `AsyncMemory` on memql, on every backend: the synchronous API's results awaited, calls of one
instance applied in the order they were made, errors and scopes exactly the synchronous API's."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime

import pytest

from memql.integrations.mem0 import AsyncMemory, InvalidRequest, Memory
from memql.ports.clock import FixedClock

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_every_method_awaits_the_synchronous_result(new_location) -> None:
    async def scenario() -> None:
        async with AsyncMemory(new_location(in_memory=True), embedder="none", clock=FixedClock(T0)) as m:
            added = await m.add("I live in Berlin", user_id="alice")
            assert [(r["event"], r["memory"]) for r in added["results"]] == [
                ("ADD", "alice's residence: Berlin")
            ]
            moved = await m.add("I moved to Lisbon", user_id="alice")
            assert [r["event"] for r in moved["results"]] == ["UPDATE"]  # extraction supersedes
            raw = await m.add("thinking about a bike", user_id="alice", infer=False)
            note_id = raw["results"][0]["id"]
            found = await m.search("where does alice live", user_id="alice")
            assert "alice's residence: Lisbon" in [r["memory"] for r in found["results"]]
            everything = await m.get_all(user_id="alice")
            assert {r["memory"] for r in everything["results"]} >= {"thinking about a bike"}
            assert (await m.get(note_id))["memory"] == "thinking about a bike"
            await m.update(note_id, "thinking about a cargo bike")
            assert [h["new_memory"] for h in await m.history(note_id)][-1] == "thinking about a cargo bike"
            assert (await m.delete(note_id))["message"]
            assert await m.get(note_id) is None
            await m.delete_all(user_id="alice")
            assert (await m.get_all(user_id="alice"))["results"] == []

    asyncio.run(scenario())


def test_calls_are_applied_in_order_off_the_event_loop(new_location) -> None:
    async def scenario() -> None:
        m = AsyncMemory(new_location(in_memory=True), embedder="none", clock=FixedClock(T0))
        loop_thread = threading.get_ident()
        seen: list[int] = []
        original = m.sync.add

        def add(*args, **kwargs):  # a probe on the synchronous API: which thread runs it
            seen.append(threading.get_ident())
            return original(*args, **kwargs)

        m.sync.add = add  # type: ignore[method-assign]
        users = [f"user{i}" for i in range(12)]
        await asyncio.gather(*(m.add(f"note of {u}", user_id=u, infer=False) for u in users))
        assert len(set(seen)) == 1 and loop_thread not in seen  # one thread of its own, never the loop's
        for u in users:
            assert [r["memory"] for r in (await m.get_all(user_id=u))["results"]] == [f"note of {u}"]
        await m.delete_all(user_id="user0")  # one scope only
        assert (await m.get_all(user_id="user0"))["results"] == []
        assert len((await m.get_all(user_id="user1"))["results"]) == 1
        await m.close()

    asyncio.run(scenario())


def test_errors_are_the_synchronous_apis(new_location) -> None:
    async def scenario() -> None:
        async with AsyncMemory(new_location(in_memory=True), embedder="none") as m:
            with pytest.raises(InvalidRequest) as sync_error:
                Memory(m.sync.store, embedder="none").add("no scope given")
            with pytest.raises(InvalidRequest) as async_error:
                await m.add("no scope given")
            assert async_error.value.rule == sync_error.value.rule

    asyncio.run(scenario())


def test_from_config_takes_memqls_options(tmp_path) -> None:
    m = AsyncMemory.from_config({"path": str(tmp_path / "m.db"), "embedder": "none"})
    assert isinstance(m.sync, Memory)
    asyncio.run(m.close())
    with pytest.raises(InvalidRequest):
        AsyncMemory.from_config({"vector_store": {"provider": "qdrant"}})
