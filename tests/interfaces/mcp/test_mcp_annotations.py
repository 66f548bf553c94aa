"""Each tool's MCP annotations say the truth about what it does to the store, checked by running it.

Every tool runs the calls below on a fresh store holding the same four records; the store's state (every
record of every status, every field but the access statistics, and each record's audit history) is read
through the Python API before the call, after it, and after the same call again. Then:
  readOnlyHint    -> no call changes the state;
  destructiveHint -> false: no call changes or removes an existing record (new records only);
                     true: some call does;
  idempotentHint  -> true: the second call leaves the state as the first did; false: some call does not.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, get_args

import anyio
import pytest
from mcp_harness import Client

from memql import Memory
from memql.interfaces.mcp import build_server
from memql.interfaces.mcp.catalog import TOOLS
from memql.lang.ops.read import IncludeField
from memql.ports.clock import FixedClock

NOW = "2026-03-02T09:00:00+00:00"
# visits and last_access_at count reads (ranking statistics); score and explain belong to a search
STATE_FIELDS = [
    f for f in get_args(IncludeField) if f not in ("visits", "last_access_at", "score", "explain")
]
LONG = "First point about the trip. Second point about the hotel. Third point about the flight."

# tool -> calls exercising its modes (the most far-reaching first)
CALLS: dict[str, list[dict[str, Any]]] = {
    "memory_encode": [{"text": "Mira likes tea.", "dedupe": False}, {"text": "A new note.", "tags": ["n"]}],
    "memory_retrieve": [{"query": "trip"}, {"ids": ["1", "2"]}, {"filter": {"status": "any"}}],
    "memory_summarize": [{"ids": ["1", "2"]}],
    "memory_update": [{"ids": ["1"], "text": "changed"}, {"ids": ["2"], "tags": ["x"]}],
    "memory_label": [{"ids": ["1"], "tags": ["travel"], "mode": "remove"}, {"ids": ["2"], "tags": ["y"]}],
    "memory_promote": [{"ids": ["1"], "delta": 0.1}, {"ids": ["2"], "weight": 0.9}],
    "memory_demote": [{"ids": ["1"], "delta": -0.1}, {"ids": ["2"], "archive": True}],
    "memory_merge": [{"ids": ["1", "2"]}, {"ids": ["1", "2"], "keep_children": True}],
    "memory_delete": [{"ids": ["1"]}, {"ids": ["2"], "hard": True, "confirm": True}],
    "memory_split": [{"ids": ["4"], "max_sentences": 1}],
    "memory_lock": [{"ids": ["1"], "reason": "hold"}],
    "memory_unlock": [{"ids": ["3"]}],
    "memory_expire": [{"ids": ["1"], "ttl": "P1D", "on_expire": "hard_delete"}],
    "memory_plan": [
        {"text": "Remember that the standup moved to 9:30"},
        {"text": "Delete memory 1", "execute": True, "confirm": True},
        {"text": "Promote memory 1", "execute": True},
    ],
    "memory_execute": [
        {"program": {"op": "Promote", "target": {"ids": ["1"]}, "args": {"weight_delta": 0.1}}}
    ],
    "memory_facts": [{"subject": "mira"}, {"subject": "mira", "attribute": "city", "history": True}],
    "memory_history": [{"ids": ["1", "3"]}],
    "memory_context": [{"query": "trip", "user": "mira", "agent": "helper"}],
    "memory_remember": [
        {"said": "I moved to Lisbon last month."},
        {"said": "Lovely weather.", "tags": ["x"]},
    ],
    "memory_add_messages": [
        {"messages": [{"role": "user", "text": "I moved to Lisbon."}, {"role": "assistant", "text": "Nice!"}]}
    ],
}


def _seed(memory: Memory) -> None:
    memory.encode("Plan the trip to Lisbon.", tags=["travel"], weight=0.5)
    memory.encode("Book the hotel near the river.", tags=["travel", "hotel"], weight=0.4)
    memory.encode("Passport number is in the safe.", tags=["docs"])
    memory.lock(["3"], reason="confirmed")
    memory.encode(LONG, tags=["notes"])
    memory.encode(structured={"subject": "mira", "attribute": "city", "value": "Porto"})
    memory.encode(structured={"subject": "mira", "attribute": "residence", "value": "Porto"})


def _state(memory: Memory) -> dict[str, Any]:
    rows = memory.retrieve(filter={"status": "any", "limit": 1000}, include=STATE_FIELDS).data["rows"]
    return {row["id"]: (row, memory.history(row["id"])) for row in rows}


def _run(tool: str, arguments: dict[str, Any]) -> tuple[dict, dict, dict]:
    """The store's state before the call, after it, and after the same call again."""
    clock = FixedClock(datetime.fromisoformat(NOW))
    memory = Memory(":memory:", tenant="acme", actor="mira", embedder="none", clock=clock)
    try:
        _seed(memory)
        server = build_server(memory, tools="full")

        async def twice() -> list[dict[str, Any]]:
            states = [_state(memory)]
            async with Client(server) as client:
                first = await client.call_tool(tool, arguments)
                assert not first.is_error, (tool, arguments, first.structured_content)
                states.append(_state(memory))
                clock.advance(timedelta(minutes=1))  # a repeated call comes later
                await client.call_tool(tool, arguments)  # may be refused: then it changed nothing
                states.append(_state(memory))
            return states

        before, once, again = anyio.run(twice)
        return before, once, again
    finally:
        memory.close()


def _changes_existing(before: dict, after: dict) -> bool:
    return any(after.get(record_id) != state for record_id, state in before.items())


@pytest.mark.parametrize("tool", list(TOOLS))
def test_annotations_say_what_the_tool_does(tool):
    info = TOOLS[tool]
    runs = [_run(tool, arguments) for arguments in CALLS[tool]]
    changed = [once != before for before, once, _ in runs]
    if info.read_only:
        assert not any(changed), f"{tool} is annotated read-only but changed the store"
        return
    assert any(changed), f"{tool} is annotated as writing but no call changed the store"
    destroyed = [_changes_existing(before, once) for before, once, _ in runs]
    assert any(destroyed) == info.destructive, (tool, destroyed)
    repeated_differs = [again != once for _, once, again in runs]
    assert (not any(repeated_differs)) == info.idempotent, (tool, repeated_differs)


def test_every_tool_is_annotated_with_all_four_hints():
    async def listed():
        with Memory(":memory:", actor="mira", embedder="none") as memory:
            async with Client(build_server(memory, tools="full")) as client:
                return (await client.list_tools()).tools

    tools = anyio.run(listed)
    assert {tool.name for tool in tools} == set(TOOLS) == set(CALLS)
    for tool in tools:
        hints = tool.annotations
        info = TOOLS[tool.name]
        assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (
            info.read_only,
            info.destructive,
            info.idempotent,
        ), tool.name
        assert hints.open_world_hint is False, tool.name
    assert TOOLS["memory_retrieve"].read_only and TOOLS["memory_history"].read_only
    assert TOOLS["memory_delete"].destructive and not TOOLS["memory_encode"].destructive
