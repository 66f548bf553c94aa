"""A store that refuses a read said outside a program's result -- history, facts or context reading a
PostgreSQL server that went out of reach -- is that refusal over MCP (`store.unavailable`, an error result
naming the rule), not `exec.internal` ("an unexpected error") with a traceback in the server's log."""

from __future__ import annotations

import asyncio
import logging

from mcp_harness import call, connect, rules

from memql.store.postgres import PostgresStore
from pgtest import back_in_reach, out_of_reach, own_database


def test_a_store_out_of_reach_is_store_unavailable_over_mcp(monkeypatch, caplog):
    monkeypatch.setattr(PostgresStore, "pool_wait_s", 0.5)  # the wait for a pooled connection (30 s)

    async def scenario():
        with own_database() as (location, name):
            async with connect(location, "--actor", "mira") as client:
                error, stored = await call(client, "memory_encode", text="the ferry leaves at nine")
                assert not error, stored
                record = stored["affected_ids"][0]
                out_of_reach(name)
                for tool, arguments in (
                    ("memory_history", {"ids": [record]}),
                    ("memory_retrieve", {"ids": [record]}),
                    ("memory_encode", {"text": "the ferry leaves at ten"}),
                ):
                    error, refused = await call(client, tool, **arguments)
                    assert error, (tool, refused)
                    assert [rule for _, rule in rules(refused)] == ["store.unavailable"], tool
                    assert "cannot be reached" in refused["diagnostics"][0]["message"]
                back_in_reach(name)
                for _ in range(150):  # the pool retries its connections with a growing pause
                    error, found = await call(client, "memory_history", ids=[record])
                    if not error:
                        break
                    await asyncio.sleep(0.2)
                assert not error and found["records"][0]["record_id"] == record

    with caplog.at_level(logging.ERROR, logger="memql.mcp"):
        asyncio.run(scenario())
    assert not [r for r in caplog.records if r.name == "memql.mcp"]  # no "failed" with a traceback
