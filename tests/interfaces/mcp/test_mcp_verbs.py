"""Every verb tool does what its Memory method does, on both backends (the server in-process: the
stdio path is covered by test_mcp_tools)."""

from __future__ import annotations

from datetime import UTC, datetime

import anyio
from mcp_harness import Client, call, rules

from memql import Memory
from memql.interfaces.mcp import build_server

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_each_verb_tool_runs_its_verb(new_location):
    memory = Memory(new_location(in_memory=True), tenant="acme", actor="mira", clock=T0, embedder="none")

    async def scenario():
        async with Client(build_server(memory, tools="full")) as client:
            for text in ("Lisbon trip in May. Book the flights. Renew the passport.", "Flights to Lisbon."):
                error, _ = await call(client, "memory_encode", text=text, tags=["travel"], weight=0.4)
                assert not error
            error, updated = await call(client, "memory_update", ids=["2"], text="Flights to Lisbon, TAP.")
            assert not error and updated["affected_ids"] == ["2"]
            error, labelled = await call(client, "memory_label", ids=["1", "2"], tags=["2026"])
            assert not error and labelled["affected_ids"] == ["1", "2"]
            error, _ = await call(client, "memory_label", ids=["2"], tags=["travel"], mode="remove")
            assert not error
            error, _ = await call(client, "memory_demote", ids=["2"], delta=-0.1)
            assert not error
            error, rows = await call(client, "memory_retrieve", ids=["2"], include=["tags", "weight", "text"])
            assert rows["data"]["rows"] == [
                {"tags": ["2026"], "weight": 0.3, "text": "Flights to Lisbon, TAP."}
            ]
            error, split = await call(client, "memory_split", ids=["1"], strategy="by_sentences")
            assert not error and len(split["affected_ids"]) >= 3
            error, parts = await call(
                client, "memory_retrieve", filter={"has_tags": ["travel"]}, include=["id"]
            )
            part_ids = [r["id"] for r in parts["data"]["rows"]]
            assert "1" not in part_ids and len(part_ids) == 3  # the parent is archived
            error, merged = await call(client, "memory_merge", ids=part_ids[:2], primary=part_ids[0])
            assert not error and merged["data"]["id"] == part_ids[0]
            error, summary = await call(client, "memory_summarize", ids=["2", part_ids[0]], focus="flights")
            assert not error and summary["data"]["summary"]
            error, _ = await call(client, "memory_expire", ids=["2"], ttl="P7D", on_expire="archive")
            assert not error
            error, rows = await call(client, "memory_retrieve", ids=["2"], include=["expire_at", "on_expire"])
            assert rows["data"]["rows"] == [{"expire_at": "2026-03-09T09:00:00Z", "on_expire": "archive"}]
            error, _ = await call(client, "memory_lock", ids=["2"], mode="append_only", deny=["Delete"])
            assert not error
            error, refused = await call(client, "memory_label", ids=["2"], tags=["x"], mode="replace")
            assert error and rules(refused) == [("/target", "governance.locked")]
            error, _ = await call(client, "memory_unlock", ids=["2"])
            assert not error
            error, deleted = await call(client, "memory_delete", ids=["2"], reason="booked elsewhere")
            assert not error and deleted["affected_ids"] == ["2"]

    try:
        anyio.run(scenario)
    finally:
        memory.close()


def test_encode_interprets_and_label_infers_through_the_tools(new_location):
    memory = Memory(new_location(in_memory=True), tenant="acme", actor="mira", clock=T0, embedder="none")

    async def scenario():
        async with Client(build_server(memory, tools="full")) as client:
            text = "I need to renew my passport by next Friday. Lena works at Google."
            error, stored = await call(client, "memory_encode", text=text, interpret=True)
            assert not error
            error, rows = await call(
                client, "memory_retrieve", ids=[stored["data"]["id"]], include=["facets", "time"]
            )
            (row,) = rows["data"]["rows"]
            assert row["time"] == "2026-03-06T00:00:00Z"  # said on Monday 2026-03-02: the coming Friday
            assert (
                row["facets"]["tasks"][0]["evidence"]["quote"] == "I need to renew my passport by next Friday"
            )
            error, labelled = await call(client, "memory_label", ids=[stored["data"]["id"]], infer=True)
            assert not error and labelled["affected_ids"] == [stored["data"]["id"]]
            error, rows = await call(client, "memory_retrieve", ids=[stored["data"]["id"]], include=["tags"])
            assert rows["data"]["rows"] == [{"tags": ["lena", "google", "employer", "professional"]}]
            error, empty = await call(client, "memory_label", ids=["1"])
            assert error and rules(empty) == [("/args", "label.empty")]

    anyio.run(scenario)
