"""The tool sets: the compact default (`core`) fits in 16,000 characters of tools/list and is strict;
the full set (`--tools full`, $MEMQL_MCP_TOOLS=full) has every tool; `memql mcp --help` lists them all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime

import anyio
import pytest
from mcp_harness import Client, call, connect, rules

from memql import Memory
from memql.interfaces.mcp import build_server
from memql.interfaces.mcp.catalog import TOOLS, tool_names

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
BUDGET = 16_000


async def _listed(server) -> tuple[int, dict]:
    """The serialized length of tools/list's result (as sent) and the tools by name."""
    async with Client(server) as client:
        result = await client.list_tools()
    sent = json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True))
    return len(sent), {tool.name: tool for tool in result.tools}


def test_core_set_fits_the_budget_and_full_set_has_every_tool(monkeypatch):
    monkeypatch.delenv("MEMQL_MCP_TOOLS", raising=False)
    with Memory(":memory:", actor="mira", embedder="none") as memory:
        core_size, core = anyio.run(_listed, build_server(memory))
        full_size, full = anyio.run(_listed, build_server(memory, tools="full"))
        monkeypatch.setenv("MEMQL_MCP_TOOLS", "full")
        _, from_env = anyio.run(_listed, build_server(memory))
        with pytest.raises(ValueError, match="unknown tool set 'most'"):
            build_server(memory, tools="most")
    assert core_size <= BUDGET, core_size
    assert list(core) == tool_names("core") and len(core) >= 8
    assert {"memory_encode", "memory_retrieve", "memory_delete", "memory_history"} <= set(core)
    assert list(full) == list(from_env) == list(TOOLS)
    assert full_size > BUDGET  # the full set is what the compact one saves
    # the full set publishes the ExecutionResult as the verb tools' output schema; the core set none
    assert full["memory_encode"].output_schema and core["memory_encode"].output_schema is None


def _strict_arguments(schema: dict, given: dict) -> dict:
    """What a strict client sends: every property, null for those it leaves out."""
    return {name: given.get(name) for name in schema["properties"]}


def test_a_strict_clients_nulls_mean_not_given_and_governance_holds(new_location):
    memory = Memory(new_location(in_memory=True), tenant="acme", actor="mira", clock=T0, embedder="none")
    agent = Memory(memory.store, tenant="acme", actor="helper", role="agent", consent="read", clock=T0)

    async def scenario():
        _, tools = await _listed(build_server(memory))
        schema = {name: tool.input_schema for name, tool in tools.items()}
        async with Client(build_server(memory)) as client:
            facets = {"subject": "mira", "time": None, "location": None, "topic": None}
            stored = _strict_arguments(schema["memory_encode"], {"text": "Aisle seat", "facets": facets})
            error, encoded = await call(client, "memory_encode", **stored)
            assert not error and encoded["data"]["id"] == "1", encoded
            row = memory.get("1")
            assert row["facets"] == {"subject": "mira"} and row["weight"] == 0.5  # defaults, not nulls
            condition = {
                key: None
                for key in schema["memory_retrieve"]["properties"]["filter"]["anyOf"][0]["properties"]
            }
            condition["has_tags"] = None
            condition["subject"] = "mira"
            found = _strict_arguments(schema["memory_retrieve"], {"query": "seat", "filter": condition})
            error, hits = await call(client, "memory_retrieve", **found)
            assert not error and [r["id"] for r in hits["data"]["rows"]] == ["1"]
            locked = _strict_arguments(schema["memory_lock"], {"ids": ["1"], "reason": "confirmed"})
            assert not (await call(client, "memory_lock", **locked))[0]
            deleted = _strict_arguments(schema["memory_delete"], {"ids": ["1"]})
            error, refused = await call(client, "memory_delete", **deleted)
            assert error and rules(refused) == [("/target", "governance.locked")]
            error, history = await call(client, "memory_history", ids=["1", "404"])
            assert not error and [e["op"] for e in history["records"][0]["events"]] == ["Encode", "Lock"]
            assert [w["rule"] for w in history["warnings"]] == ["target.not_found"]
            error, unnamed = await call(client, "memory_history", ids=None)
            assert error and rules(unnamed) == [("/ids", "field.required")]
            error, absent = await call(client, "memory_history", ids=["404"])
            assert error and rules(absent) == [("/ids", "target.not_found")]
        async with Client(build_server(agent)) as client:  # an agent with read consent only
            error, proposed = await call(client, "memory_encode", **stored)
            assert not error and proposed["data"]["proposal"] is True  # a proposal, not a memory
            forget = _strict_arguments(schema["memory_delete"], {"ids": ["2"]})
            error, refused = await call(client, "memory_delete", **forget)
            assert error and refused["diagnostics"][0]["rule"].startswith("consent"), refused

    try:
        anyio.run(scenario)
    finally:
        agent.close()
        memory.close()


def test_memql_mcp_serves_the_core_set_by_default_and_full_on_request(tmp_path):
    async def names(tools: str) -> list[str]:
        async with connect(str(tmp_path / "mcp.db"), "--actor", "mira", tools=tools) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    assert anyio.run(names, "") == tool_names("core")  # $MEMQL_MCP_TOOLS empty: the default
    assert anyio.run(names, "full") == list(TOOLS)


def test_mcp_help_lists_every_tool_with_a_summary(memql_shim):
    # the real entry point, forked from a process that imported it (conftest's memql_shim)
    shown = subprocess.run(
        [str(memql_shim / "memql"), "mcp", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for name, info in TOOLS.items():
        line = next(line for line in shown.splitlines() if line.strip().startswith(name + " "))
        assert info.summary in line and ("*" in line) == info.core, line
    assert "--tools [core|full]" in shown and "MEMQL_MCP_TOOLS" in shown


def test_without_the_mcp_sdk_the_cli_names_the_extra(tmp_path):
    """The core install has no MCP SDK: `memql --help` works and `memql mcp` says what to install."""
    blocked = (
        "import sys; sys.modules['mcp'] = None; sys.modules['mcp_types'] = None; "
        "from memql.interfaces.cli import main; main()"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "MEMQL_EMBEDDER": "none"}

    def run(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-c", blocked, "--db", str(tmp_path / "m.db"), *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)

    assert run("mcp", "--help").returncode == 0
    served = run("mcp")
    assert served.returncode == 1 and "pip install 'memql[mcp]'" in served.stderr, served.stderr
    assert "Traceback" not in served.stderr
