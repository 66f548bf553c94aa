"""`memql mcp` spoken to as JSON-RPC over stdio, with no SDK client: the same on either MCP SDK line the
server runs on (1.x or 2.x), so this file is what checks the line a CI job installs."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memql.interfaces.mcp.catalog import TOOLS, tool_names

NOW = "2026-03-02T09:00:00+00:00"


class Wire:
    """One `memql mcp` subprocess and the JSON-RPC requests sent to it, one line each."""

    def __init__(self, memql: Path | list[str], db: str, tools: str = "") -> None:
        env = {**os.environ, "MEMQL_EMBEDDER": "none", "MEMQL_MCP_TOOLS": tools}
        # the real entry point, forked from a process that imported it (conftest's memql_shim), or the
        # command line given
        command = [*([str(memql)] if isinstance(memql, Path) else memql), "--db", db, "--actor", "mira"]
        self.process = subprocess.Popen(
            [*command, "--now", NOW, "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self.next_id = 0

    def send(self, method: str, params: dict[str, Any] | None = None, *, notify: bool = False) -> Any:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
        if not notify:
            self.next_id += 1
            message["id"] = self.next_id
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        if notify:
            return None
        while True:  # skip notifications (logs) until our answer
            reply = json.loads(self.process.stdout.readline())
            if reply.get("id") == self.next_id:
                assert "error" not in reply, reply
                return reply["result"]

    def __enter__(self) -> Wire:
        hello = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        self.info = self.send("initialize", hello)
        self.send("notifications/initialized", notify=True)
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait(timeout=30)


def test_lists_and_calls_tools_over_stdio(tmp_path, memql_shim):
    with Wire(memql_shim / "memql", str(tmp_path / "mcp.db")) as wire:
        assert wire.info["serverInfo"]["name"] == "memql"
        listed = wire.send("tools/list")
        assert len(json.dumps(listed)) <= 16_000
        tools = {tool["name"]: tool for tool in listed["tools"]}
        assert list(tools) == tool_names("core")
        for name, tool in tools.items():
            hints = tool["annotations"]
            assert hints["readOnlyHint"] == TOOLS[name].read_only, name
            assert hints["destructiveHint"] == TOOLS[name].destructive, name
            assert tool["inputSchema"]["additionalProperties"] is False, name

        stored = wire.send("tools/call", {"name": "memory_encode", "arguments": {"text": "Aisle seats."}})
        assert not stored.get("isError") and stored["structuredContent"]["data"]["id"] == "1"
        wire.send("tools/call", {"name": "memory_lock", "arguments": {"ids": ["1"], "reason": "confirmed"}})
        refused = wire.send(
            "tools/call", {"name": "memory_delete", "arguments": {"ids": ["1"], "hard": None}}
        )
        assert refused["isError"] is True
        assert refused["structuredContent"]["diagnostics"][0]["rule"] == "governance.locked"
        assert refused["content"][0]["text"].startswith("refused: error: /target:")
        wrong = wire.send("tools/call", {"name": "memory_promote", "arguments": {"ids": ["1"], "weight": 2}})
        assert wrong["isError"] and wrong["structuredContent"]["diagnostics"][0]["path"] == "/weight"
        history = wire.send("tools/call", {"name": "memory_history", "arguments": {"ids": ["1"]}})
        events = history["structuredContent"]["records"][0]["events"]
        assert [e["op"] for e in events] == ["Encode", "Lock"]

    with Wire(memql_shim / "memql", str(tmp_path / "mcp.db"), tools="full") as wire:
        full = wire.send("tools/list")["tools"]
        assert [tool["name"] for tool in full] == list(TOOLS)
        assert "outputSchema" in next(t for t in full if t["name"] == "memory_encode")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_stdio_server_after_it_wrote_what_its_reads_buffered(tmp_path, stop):
    """A client whose closed input did not stop the server sends SIGTERM (the MCP stdio transport's
    shutdown), a terminal's user Ctrl-C: either one closes the store first -- the visits and read audit
    entries still buffered are written -- and ends the process with 128 + the signal. (SIGTERM ended it
    unclosed, losing them; SIGINT waited for ever for the thread reading its input.) The real command
    line, not the shim: what is checked is the process's own end."""
    db = tmp_path / "mcp.db"
    wire = Wire([sys.executable, "-m", "memql.interfaces.cli"], str(db))
    with wire:
        wire.send("tools/call", {"name": "memory_encode", "arguments": {"text": "The ferry leaves at nine."}})
        for _ in range(3):
            found = wire.send("tools/call", {"name": "memory_retrieve", "arguments": {"query": "ferry"}})
            assert found["structuredContent"]["affected_ids"] == ["1"]
        wire.process.send_signal(stop)
        assert wire.process.wait(timeout=60) == 128 + stop
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT visits FROM records").fetchall() == [(3,)]
        reads = conn.execute("SELECT count(*) FROM operations WHERE op = 'Retrieve'").fetchone()
    assert reads == (3,)
