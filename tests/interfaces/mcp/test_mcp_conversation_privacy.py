"""`memory_context` acts only for the identity the server was started as (issue 16, item 6): another
user or agent is refused naming the field, an admin may name anyone, a server without an --actor reads
no one's conversation; its defaults are its own name."""

from __future__ import annotations

import anyio
from mcp_harness import NOW, call, connect, rules

from memql import Memory


def _conversation(location: str) -> None:
    with Memory(location, actor="mira", embedder=None) as m:
        conv = m.conversation(user="mira", agent="assistant", strategy="flat")
        conv.add_message("mira", "My sister Ana moved to Porto in March.", time=NOW, source_id="D1:1")
        conv.add_message("assistant", "Nice! Is she enjoying the city?", time=NOW, source_id="D1:2")


def test_memory_context_acts_only_for_the_servers_identity(new_location):
    location = new_location()
    _conversation(location)
    question = {"query": "Where did Ana move?", "budget_tokens": 200}

    async def scenario():
        async with connect(location, "--actor", "ravi") as ravi:
            error, refused = await call(ravi, "memory_context", user="mira", **question)
            assert error and rules(refused) == [("/user", "conversation.participant")]
            assert "Porto" not in str(refused)
            error, own = await call(ravi, "memory_context", **question)  # his own: empty
            assert not error and own["pieces"] == []
            error, rows = await call(ravi, "memory_retrieve", filter={"has_tags": ["conv:mira/assistant"]})
            assert not error and rows["data"]["count"] == 0
        async with connect(location, "--actor", "mira") as mira:
            error, context = await call(mira, "memory_context", **question)  # user defaults to mira
            assert not error and "D1:1" in context["source_ids"]
        agent = ("--actor", "assistant", "--role", "agent", "--consent", "read")
        async with connect(location, *agent) as assistant:
            error, context = await call(assistant, "memory_context", user="mira", **question)
            assert not error and "Porto" in context["text"]
            error, refused = await call(assistant, "memory_context", user="mira", agent="other", **question)
            assert error and rules(refused) == [("/agent", "conversation.participant")]
        async with connect(location, "--actor", "spy", "--role", "agent", "--consent", "read") as spy:
            error, refused = await call(spy, "memory_context", user="mira", agent="assistant", **question)
            assert error and rules(refused) == [("/agent", "conversation.participant")]
        async with connect(location, "--actor", "root", "--role", "admin") as admin:
            error, context = await call(admin, "memory_context", user="mira", **question)
            assert not error and "Porto" in context["text"]
        async with connect(location) as nobody:
            error, refused = await call(nobody, "memory_context", user="mira", **question)
            assert error and rules(refused) == [("/user", "conversation.participant")]

    anyio.run(scenario)
