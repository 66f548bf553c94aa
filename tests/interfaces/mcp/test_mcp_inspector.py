"""MCP Inspector's CLI (`npx @modelcontextprotocol/inspector --cli`, the pinned version in
tests/node_tools/package.json) against `memql mcp` over stdio: it lists the default tools and calls them,
and a refused call comes back as a tool error naming the rule. The Inspector is installed by .ci/run
(tests/npm_tools.py); nothing is downloaded here (`npx --no-install`). Without node, npm or the pinned
Inspector the test skips, saying how to install it, except in CI (CI=true), where it fails."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

from memql import Memory
from memql.interfaces.mcp.catalog import TOOLS, tool_names
from npm_tools import node_modules

INSPECTOR = "@modelcontextprotocol/inspector"


@pytest.fixture
def inspect(tmp_path, memql_shim):
    """Run the Inspector's CLI on a `memql mcp` of one store (a new server each call, as the CLI starts
    one per invocation: the real entry point, forked from a process that imported it, tests/conftest.py's
    memql_shim); returns the JSON it prints."""
    (tmp_path / "node_modules").symlink_to(node_modules(INSPECTOR), target_is_directory=True)
    db = str(tmp_path / "mcp.db")
    env = {**os.environ, "MEMQL_EMBEDDER": "none", "MEMQL_MCP_TOOLS": ""}

    def run(*args: str, session: tuple[str, ...] = ("--actor", "mira")) -> Any:
        server = [str(memql_shim / "memql"), "--db", db, *session, "mcp"]
        command = ["npx", "--no-install", INSPECTOR, "--cli", *server, *args]
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        return json.loads(done.stdout)

    run.db = db
    return run


def _result(called: dict) -> dict:
    """The ExecutionResult a tool call returned: its structured content, else its one text part."""
    return called.get("structuredContent") or json.loads(called["content"][0]["text"])


def test_the_inspector_lists_the_default_tools_with_their_hints(inspect):
    tools = {tool["name"]: tool for tool in inspect("--method", "tools/list")["tools"]}
    assert list(tools) == tool_names("core")
    for name, tool in tools.items():
        assert (
            tool["inputSchema"]["type"] == "object" and tool["inputSchema"]["additionalProperties"] is False
        )
        hints = tool["annotations"]
        assert (hints["readOnlyHint"], hints["destructiveHint"]) == (
            TOOLS[name].read_only,
            TOOLS[name].destructive,
        )


def test_the_inspector_calls_encode_then_retrieve_and_a_refusal_is_a_tool_error(inspect):
    encoded = inspect(
        "--method", "tools/call", "--tool-name", "memory_encode",
        "--tool-arg", "text=the design review moves to Friday", "--tool-arg", 'tags=["meetings"]',
    )  # fmt: skip
    assert encoded["isError"] is False
    record = _result(encoded)["data"]["id"]
    # a later server on the same store, as an agent that may only read: the record is there
    reader = ("--actor", "helper", "--role", "agent", "--consent", "read")
    found = inspect(
        "--method", "tools/call", "--tool-name", "memory_retrieve", "--tool-arg", f'ids=["{record}"]',
        session=reader,
    )  # fmt: skip
    rows = _result(found)["data"]["rows"]
    assert [(row["id"], row["text"], row["tags"]) for row in rows] == [
        (record, "the design review moves to Friday", ["meetings"])
    ]
    # the same agent's delete is refused: a tool error naming the rule, and nothing changes
    refused = inspect(
        "--method", "tools/call", "--tool-name", "memory_delete", "--tool-arg", f'ids=["{record}"]',
        session=reader,
    )  # fmt: skip
    assert refused["isError"] is True
    assert [d["rule"] for d in _result(refused)["diagnostics"]] == ["consent.write"]
    with Memory(inspect.db, actor="mira", embedder="none") as memory:  # the store agrees: still there
        assert memory.retrieve(ids=[record], include=["status"]).data["rows"] == [{"status": "active"}]
