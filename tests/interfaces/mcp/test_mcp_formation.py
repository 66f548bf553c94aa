"""memory_remember and memory_add_messages (on both backends): an agent hands memql what people say, and
memql forms typed facts from it — a newer value supersedes its key's old one — as the identity the server
was started with, refused with structured diagnostics where governance says no."""

from __future__ import annotations

import anyio
from mcp_harness import call, connect, rules

PASSPORT = [
    {"role": "user", "text": "My passport deadline is July 15.", "time": "2026-02-10T09:00:00Z"},
    {"role": "assistant", "text": "Noted, July 15.", "time": "2026-02-10T09:00:05Z"},
]


def test_memory_remember_forms_current_facts_as_the_servers_identity(new_location):
    location = new_location()

    async def scenario():
        async with connect(location, "--actor", "mira", tools="core") as mira:
            error, first = await call(mira, "memory_remember", said="I live in Lisbon.", time="2026-02-01")
            assert not error and [(m["event"], m["fact"]["value"]) for m in first["memories"]] == [
                ("ADD", "Lisbon")
            ]
            error, moved = await call(
                mira,
                "memory_remember",
                said="I moved to Porto.",
                tags=["home"],
                write_perm_level="owner_only",
            )
            [porto] = moved["memories"]
            assert not error and porto["event"] == "UPDATE" and porto["fact"]["subject"] == "mira"
            assert porto["superseded"] == [
                {"id": first["memories"][0]["id"], "text": "mira's residence: Lisbon"}
            ]
            error, found = await call(mira, "memory_retrieve", query="where does mira live", facts="current")
            assert not error and [f["value"] for f in found["data"]["facts"]] == ["Porto"]
            error, refused = await call(mira, "memory_remember", said="I live in Faro.", time="never ever")
            assert error and rules(refused) == [("/time", "time.invalid")]
            error, _ = await call(mira, "memory_lock", ids=[porto["id"]], reason="hold")
            assert not error
            error, refused = await call(mira, "memory_remember", said="I moved to Faro.")
            assert error and rules(refused)[0][1] == "governance.locked"
        async with connect(location, "--actor", "ravi") as ravi:  # mira's fact is hers to change
            error, refused = await call(ravi, "memory_remember", said="I moved to Oslo.", speaker="mira")
            assert error and rules(refused) == [("/args/payload/structured", "permission.fact")]
        agent = ("--actor", "helper", "--role", "agent", "--consent", "propose")
        async with connect(location, *agent) as helper:
            error, proposed = await call(helper, "memory_remember", said="I moved to Rome.", speaker="mira")
            assert not error and [(m["proposal"], m["superseded"]) for m in proposed["memories"]] == [
                (True, [])
            ]
        async with connect(location, "--actor", "mira") as mira:
            error, facts = await call(mira, "memory_facts", subject="mira")
            assert not error and [f["value"] for f in facts["facts"]] == ["Porto"]

    anyio.run(scenario)


def test_memory_add_messages_feeds_a_conversations_context_for_its_participants_only(new_location):
    location = new_location()

    async def scenario():
        async with connect(location, "--actor", "mira") as mira:
            error, stored = await call(mira, "memory_add_messages", messages=PASSPORT)
            assert not error and stored["conversation"] == "mira/assistant"
            assert [m["source_ids"] for m in stored["messages"]] == [["M1"], ["M2"]]
            assert stored["messages"][0]["fact_ids"] and not stored["messages"][1]["fact_ids"]
            fix = [{"role": "user", "text": "Correction: it's June 30."}]
            bad = [*fix, {"role": "user", "text": "ok", "time": "the day after never"}]
            error, refused = await call(mira, "memory_add_messages", messages=bad)  # none of them stored
            assert error and rules(refused) == [("/messages/1/time", "time.invalid")]
            error, stored = await call(mira, "memory_add_messages", messages=fix, time="2026-02-20")
            assert not error and stored["messages"][0]["source_ids"] == ["M3"]
            error, context = await call(mira, "memory_context", query="when is my passport due?")
            assert (
                not error
                and context["pieces"][0]["source_ids"] == ["M3"]
                and "June 30" in context["pieces"][0]["text"]
            )
            error, refused = await call(
                mira, "memory_add_messages", messages=[{"role": "user", "text": "hi", "x": 1}]
            )
            assert error and rules(refused) == [("/messages/0/x", "field.unknown")]
        async with connect(location, "--actor", "ravi") as ravi:
            error, refused = await call(ravi, "memory_add_messages", messages=PASSPORT, user="mira")
            assert error and rules(refused) == [("/user", "conversation.participant")]
        reader = ("--actor", "assistant", "--role", "agent", "--consent", "read")
        async with connect(location, *reader) as assistant:
            error, refused = await call(assistant, "memory_add_messages", messages=PASSPORT, user="mira")
            assert error and rules(refused) == [("", "consent.write")]
        writer = ("--actor", "assistant", "--role", "agent", "--consent", "read_write")
        async with connect(location, *writer) as assistant:
            said = [{"role": "assistant", "text": "Shall I set a reminder for June 23?"}]
            error, stored = await call(assistant, "memory_add_messages", messages=said, user="mira")
            assert not error and stored["messages"][0]["position"] == 3
        async with connect(location) as nobody:
            error, refused = await call(nobody, "memory_add_messages", messages=PASSPORT, user="mira")
            assert error and rules(refused) == [("/user", "conversation.participant")]
        async with connect(location, "--actor", "root", "--role", "admin") as admin:
            error, stored = await call(admin, "memory_add_messages", messages=PASSPORT[:1], user="mira")
            assert not error and stored["messages"][0]["position"] == 4
        async with connect(location, "--actor", "mira") as mira:
            error, context = await call(mira, "memory_context", query="reminder", budget_tokens=400)
            assert not error and "June 23" in context["text"]

    anyio.run(scenario)
