"""The default tool set's input schemas are strict, as OpenAI's strict mode (the Agents SDK's
`convert_schemas_to_strict=True`) requires: checked structurally always, and through the Agents SDK
itself over stdio (`openai-agents` is in the `test` extra)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import anyio
from mcp_harness import Client

from memql import Memory
from memql.interfaces.mcp import build_server
from memql.interfaces.mcp.catalog import tool_names
from memql.interfaces.mcp.compact import KEPT


def _objects(node: Any, path: str = "") -> list[tuple[str, dict]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            found.append((path, node))
        for key, value in node.items():
            if key != "properties":
                found += _objects(value, f"{path}/{key}")
        for name, value in node.get("properties", {}).items():
            found += _objects(value, f"{path}/{name}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _objects(value, f"{path}/{i}")
    return found


def _keywords(node: Any) -> set[str]:
    if isinstance(node, list):
        return set().union(*map(_keywords, node)) if node else set()
    if not isinstance(node, dict):
        return set()
    words = set(node) - {"properties"}
    for key, value in node.items():
        children = value.values() if key == "properties" else [value]
        words |= set().union(*(_keywords(child) for child in children))
    return words


def _core_schemas() -> dict[str, dict]:
    async def listed():
        with Memory(":memory:", actor="mira", embedder="none") as memory:
            async with Client(build_server(memory, tools="core")) as client:
                return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}

    return anyio.run(listed)


def test_every_core_schema_is_closed_fully_required_and_uses_only_strict_keywords():
    schemas = _core_schemas()
    assert list(schemas) == tool_names("core")
    for name, schema in schemas.items():
        objects = _objects(schema)
        assert objects and objects[0][0] == "", name
        for path, node in objects:
            assert node["additionalProperties"] is False, (name, path)
            assert node["required"] == list(node["properties"]), (name, path)
        assert _keywords(schema) <= KEPT, (name, _keywords(schema) - KEPT)
    # optional parameters are nullable; required ones are not
    encode = schemas["memory_encode"]["properties"]
    assert encode["text"]["type"] == ["string", "null"] and None in encode["memory_type"]["enum"]
    expire = schemas["memory_expire"]["properties"]
    assert expire["on_expire"]["type"] == "string" and None not in expire["on_expire"]["enum"]


def test_the_agents_sdk_converts_every_default_tool_to_strict(tmp_path, memql_shim):
    from agents import Agent
    from agents.mcp import MCPServerStdio, MCPUtil
    from agents.run_context import RunContextWrapper

    env = {**os.environ, "MEMQL_EMBEDDER": "none", "MEMQL_MCP_TOOLS": ""}
    args = ["--db", str(tmp_path / "mcp.db"), "--actor", "mira", "mcp"]

    async def converted():
        # the real entry point, forked from a process that imported it (conftest's memql_shim)
        params = {"command": str(memql_shim / "memql"), "args": args, "env": env}
        async with MCPServerStdio(params=params, client_session_timeout_seconds=60) as server:
            agent = Agent(name="assistant", mcp_servers=[server])
            return await MCPUtil.get_all_function_tools([server], True, RunContextWrapper(None), agent)

    tools = asyncio.run(converted())
    assert [tool.name for tool in tools] == tool_names("core")
    assert [tool.name for tool in tools if not tool.strict_json_schema] == []
