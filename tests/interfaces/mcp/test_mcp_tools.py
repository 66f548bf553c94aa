"""`memql mcp` as an agent's MCP client sees it: typed tools (listed over stdio), results, refusals (from
the server the same command line serves, in-process: mcp_harness.connect)."""

from __future__ import annotations

import anyio
from mcp_harness import call, connect, connect_stdio, rules

VERBS = [
    "memory_encode",
    "memory_retrieve",
    "memory_summarize",
    "memory_update",
    "memory_label",
    "memory_promote",
    "memory_demote",
    "memory_merge",
    "memory_delete",
    "memory_split",
    "memory_lock",
    "memory_unlock",
    "memory_expire",
]


def test_lists_one_typed_tool_per_verb_plus_plan_execute_facts_history(tmp_path):
    async def scenario():
        async with connect_stdio(str(tmp_path / "mcp.db"), "--actor", "mira") as client:
            return {tool.name: tool for tool in (await client.list_tools()).tools}

    tools = anyio.run(scenario)
    assert list(tools) == [
        *VERBS,
        "memory_plan",
        "memory_execute",
        "memory_facts",
        "memory_history",
        "memory_remember",
        "memory_add_messages",
        "memory_context",
    ]
    for tool in tools.values():
        assert tool.input_schema["additionalProperties"] is False, tool.name
        assert "Refused" in tool.description and "Returns" in tool.description, tool.name
    encode = tools["memory_encode"].input_schema["properties"]
    assert {"type": "number", "minimum": 0.0, "maximum": 1.0} in encode["weight"]["anyOf"]
    assert {"enum": ["episodic", "semantic", "procedural"], "type": "string"} in encode["memory_type"][
        "anyOf"
    ]
    facets = next(s for s in encode["facets"]["anyOf"] if s.get("type") == "object")
    assert {"subject", "time", "location", "topic"} <= set(facets["properties"])
    expire = tools["memory_expire"].input_schema
    assert set(expire["required"]) == {"ids", "on_expire"}
    assert expire["properties"]["on_expire"]["enum"] == [
        "soft_delete",
        "hard_delete",
        "demote",
        "archive",
        "anonymize",
        "none",
    ]
    assert tools["memory_merge"].input_schema["properties"]["ids"]["minItems"] == 2
    assert tools["memory_lock"].input_schema["properties"]["mode"]["enum"] == ["read_only", "append_only"]
    retrieve = tools["memory_retrieve"].input_schema["properties"]
    include = next(s for s in retrieve["include"]["anyOf"] if s.get("type") == "array")
    assert "text" in include["items"]["enum"] and "explain" in include["items"]["enum"]
    filter_schema = next(s for s in retrieve["filter"]["anyOf"] if s.get("type") == "object")
    assert filter_schema["properties"]["status"]["anyOf"][0]["enum"][-1] == "any"
    assert "$ref" not in str(filter_schema)  # self-contained: no reference into a missing $defs
    # the verb tools publish the API's ExecutionResult as their output schema
    output = tools["memory_encode"].output_schema
    assert {"success", "op", "affected_ids", "data", "diagnostics"} <= set(output["properties"])


def test_encode_promote_lock_retrieve_and_a_refused_delete(new_location):
    location = new_location()

    async def scenario():
        async with connect(location, "--actor", "mira") as client:
            error, passport = await call(
                client, "memory_encode", text="Passport renewal is due 2026-07-15.", tags=["travel"]
            )
            assert not error and passport["success"] and passport["data"]["id"] == "1"
            error, policy = await call(client, "memory_encode", text="Insurance policy number 4471-22.")
            assert not error and policy["data"]["id"] == "2"
            error, promoted = await call(
                client, "memory_promote", ids=["1"], weight=0.9, remind="FREQ=WEEKLY;BYDAY=MO"
            )
            assert not error and promoted["affected_ids"] == ["1"]
            assert promoted["data"]["next_remind_at"]["1"] == "2026-03-09T09:00:00Z"  # the next Monday
            error, locked = await call(client, "memory_lock", ids=["2"], reason="legal hold")
            assert not error and locked["affected_ids"] == ["2"]
            error, found = await call(
                client, "memory_retrieve", query="passport renewal", include=["id", "text", "weight"]
            )
            assert not error
            assert found["data"]["rows"][0] == {
                "id": "1",
                "text": "Passport renewal is due 2026-07-15.",
                "weight": 0.9,
            }
            error, refused = await call(client, "memory_delete", ids=["2"])
            assert error and not refused["success"]
            assert rules(refused) == [("/target", "governance.locked")]
            assert "legal hold" in refused["diagnostics"][0]["message"]
            error, still = await call(client, "memory_retrieve", ids=["2"], include=["id", "lock"])
            assert not error and still["data"]["rows"][0]["lock"]["mode"] == "read_only"
            error, history = await call(client, "memory_history", record_id="1")
            assert not error
            assert [(e["op"], e["actor"]) for e in history["events"]] == [
                ("Encode", "mira"),
                ("Promote", "mira"),
            ]
            assert history["events"][1]["after"]["weight"] == 0.9

    anyio.run(scenario)


def test_agents_and_other_actors_are_refused_with_the_engines_diagnostics(tmp_path):
    db = str(tmp_path / "mcp.db")

    async def scenario():
        async with connect(db, "--actor", "mira") as mira:
            await call(mira, "memory_encode", text="Team offsite is in Porto.", read_perm_level="public")
            error, _ = await call(mira, "memory_lock", ids=["1"], reason="confirmed")
            assert not error
        async with connect(db, "--actor", "ravi") as ravi:
            error, refused = await call(ravi, "memory_unlock", ids=["1"])
            assert error and rules(refused) == [("/target", "governance.lock_owner")]
        agent = ("--actor", "helper", "--role", "agent", "--consent", "read")
        async with connect(db, *agent) as bot:
            error, found = await call(bot, "memory_retrieve", query="offsite", include=["id"])
            assert not error and found["data"]["rows"] == [{"id": "1"}]
            error, refused = await call(bot, "memory_delete", ids=["1"])
            assert error and [d["rule"] for d in refused["diagnostics"]] == ["consent.write"]
            assert "helper" in refused["diagnostics"][0]["message"]
            error, proposed = await call(bot, "memory_encode", text="Mira prefers aisle seats.")
            assert not error and proposed["success"]
            error, rows = await call(
                bot, "memory_retrieve", filter={"status": "pending"}, include=["id", "status"]
            )
            assert rows["data"]["rows"] == [{"id": proposed["data"]["id"], "status": "pending"}]

    anyio.run(scenario)


def test_parameters_that_do_not_fit_are_refused_with_diagnostics_and_change_nothing(tmp_path):
    async def scenario():
        async with connect(str(tmp_path / "mcp.db"), "--actor", "mira") as client:
            cases = [
                ("memory_encode", {"text": "x", "tag": ["a"]}, [("/tag", "field.unknown")]),
                ("memory_encode", {"text": "x", "weight": 3}, [("/weight", "field.range")]),
                ("memory_encode", {"text": "x", "weight": "high"}, [("/weight", "field.type")]),
                ("memory_encode", {"text": ""}, [("/text", "field.empty")]),
                ("memory_lock", {"ids": ["1"], "mode": "forever"}, [("/mode", "field.enum")]),
                ("memory_expire", {"ids": ["1"], "ttl": "P1D"}, [("/on_expire", "field.required")]),
                ("memory_delete", {"ids": []}, [("/ids", "field.empty")]),
                ("memory_merge", {"ids": ["1"]}, [("/ids", "field.size")]),
                ("memory_retrieve", {"k": 0}, [("/k", "field.range")]),
            ]
            for tool, arguments, expected in cases:
                error, refused = await call(client, tool, **arguments)
                assert error and not refused["success"], (tool, arguments)
                assert rules(refused) == expected, (tool, arguments)
                assert all(d["message"] for d in refused["diagnostics"])
            error, unknown = await call(client, "memory_encode", text="x", tag=["a"])
            assert "did you mean 'tags'" in unknown["diagnostics"][0]["message"]
            # the engine's own invariants come back the same way, located in the IR
            error, refused = await call(client, "memory_encode", text="x", url="https://example.org")
            assert error and rules(refused) == [("/args/payload", "encode.payload")]
            error, refused = await call(client, "memory_expire", ids=["1"], ttl="soon", on_expire="archive")
            assert error and rules(refused) == [("/args/ttl", "duration.invalid")]
            error, everything = await call(client, "memory_retrieve", filter={"status": "any"})
            assert not error and everything["data"]["count"] == 0  # nothing was stored by any of them

    anyio.run(scenario)
