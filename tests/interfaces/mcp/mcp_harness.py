"""Starting `memql mcp` as an MCP client does: a subprocess spoken to over stdio with the SDK's Client."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp import Client, StdioServerParameters

NOW = "2026-03-02T09:00:00+00:00"


def server_command(db: str, *options: str, tools: str = "full") -> StdioServerParameters:
    """`memql --db DB OPTIONS... mcp` (the CLI entry point, run by this interpreter), embedder off,
    serving the tool set `tools` ($MEMQL_MCP_TOOLS)."""
    env = {**os.environ, "MEMQL_EMBEDDER": "none", "MEMQL_MCP_TOOLS": tools}
    args = ["-m", "memql.interfaces.cli", "--db", db, "--now", NOW, *options, "mcp"]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


@asynccontextmanager
async def connect(db: str, *options: str, tools: str = "full") -> AsyncIterator[Client]:
    async with Client(server_command(db, *options, tools=tools), read_timeout_seconds=60) as client:
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> tuple[bool, dict[str, Any]]:
    """(is_error, structured content) of one tool call."""
    result = await client.call_tool(tool, arguments)
    assert result.structured_content is not None, result.content
    return bool(result.is_error), result.structured_content


def rules(content: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d["path"], d["rule"]) for d in content["diagnostics"]]
