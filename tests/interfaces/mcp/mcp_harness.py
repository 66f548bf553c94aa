"""Connecting to `memql mcp` as an MCP client does: `connect_stdio` starts a subprocess spoken to over stdio
with the SDK's Client; `connect` serves what the same command line would serve, in-process. On the SDK's 1.x
line, which has no `Client`, `Client` here is the 1.x ClientSession behind the same interface, its results
read with the 2.x (snake_case) attribute names, so every test runs on either line."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import timedelta
from typing import Any

from mcp import StdioServerParameters
from pydantic import BaseModel
from pydantic.alias_generators import to_camel

NOW = "2026-03-02T09:00:00+00:00"

try:
    from mcp import Client  # the 2.x line
except ImportError:  # the 1.x line

    class _Snake:
        """A 1.x result read with 2.x attribute names (structured_content for structuredContent)."""

        def __init__(self, model: BaseModel) -> None:
            self._model = model

        def __getattr__(self, name: str) -> Any:
            model = self.__dict__["_model"]
            value = getattr(model, name) if hasattr(model, name) else getattr(model, to_camel(name))
            return _snake(value)

    def _snake(value: Any) -> Any:
        if isinstance(value, BaseModel):
            return _Snake(value)
        if isinstance(value, list):
            return [_snake(item) for item in value]
        return value

    class Client:  # type: ignore[no-redef]
        def __init__(self, server: Any, read_timeout_seconds: float | None = None) -> None:
            self._server = server
            self._timeout = timedelta(seconds=read_timeout_seconds) if read_timeout_seconds else None
            self._stack = AsyncExitStack()

        async def __aenter__(self) -> Client:
            from mcp import ClientSession
            from mcp.client.stdio import stdio_client
            from mcp.shared.memory import create_connected_server_and_client_session

            if isinstance(self._server, StdioServerParameters | str):
                if isinstance(self._server, str):  # a streamable HTTP URL
                    from mcp.client.streamable_http import streamablehttp_client

                    streams = await self._stack.enter_async_context(streamablehttp_client(self._server))
                    read, write = streams[0], streams[1]
                else:
                    read, write = await self._stack.enter_async_context(stdio_client(self._server))
                session = ClientSession(read, write, read_timeout_seconds=self._timeout)
                self._session = await self._stack.enter_async_context(session)
                await self._session.initialize()
            else:
                connected = create_connected_server_and_client_session(self._server._mcp_server)
                self._session = await self._stack.enter_async_context(connected)
            return self

        async def __aexit__(self, *exc: object) -> None:
            await self._stack.aclose()

        async def list_tools(self) -> Any:
            return _snake(await self._session.list_tools())

        async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
            return _snake(await self._session.call_tool(name, arguments))


def server_command(db: str, *options: str, tools: str = "full") -> StdioServerParameters:
    """`memql --db DB OPTIONS... mcp` (the CLI entry point, run by this interpreter), embedder off,
    serving the tool set `tools` ($MEMQL_MCP_TOOLS)."""
    env = {**os.environ, "MEMQL_EMBEDDER": "none", "MEMQL_MCP_TOOLS": tools}
    args = ["-m", "memql.interfaces.cli", "--db", db, "--now", NOW, *options, "mcp"]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


@asynccontextmanager
async def connect_stdio(db: str, *options: str, tools: str = "full") -> AsyncIterator[Client]:
    """A client of `memql --db DB OPTIONS... mcp` started as a subprocess over stdio (for the tests whose
    subject is the process and its wire; a new interpreter costs seconds of CPU)."""
    async with Client(server_command(db, *options, tools=tools), read_timeout_seconds=60) as client:
        yield client


@asynccontextmanager
async def connect(db: str, *options: str, tools: str = "full") -> AsyncIterator[Client]:
    """A client of the server `memql --db DB OPTIONS... mcp` serves, built in this process: the same
    command line (and environment) goes through the CLI's own option parsing and `open_memory`, and the
    server `mcp` would run is served over the SDK's in-memory transport."""
    from memql.interfaces.cli import main
    from memql.interfaces.cli.common import open_memory
    from memql.interfaces.mcp import build_server

    args = ["--db", db, "--now", NOW, *options, "mcp"]
    environment = {"MEMQL_EMBEDDER": "none", "MEMQL_MCP_TOOLS": tools}  # as server_command's
    saved = {name: os.environ.get(name) for name in environment}
    os.environ.update(environment)
    try:
        ctx = main.make_context("memql", args)
        with ctx:
            ctx.invoke(main.callback, **ctx.params)  # fills ctx.obj from the global options
            rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
            name, command, rest = main.resolve_command(ctx, rest)
            options_of_mcp = command.make_context(name, rest, parent=ctx).params
            memory = open_memory(ctx)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    try:
        server = build_server(memory, tools=options_of_mcp["tool_set"])
        async with Client(server, read_timeout_seconds=60) as client:
            yield client
    finally:
        memory.close()


async def call(client: Client, tool: str, **arguments: Any) -> tuple[bool, dict[str, Any]]:
    """(is_error, structured content) of one tool call."""
    result = await client.call_tool(tool, arguments)
    assert result.structured_content is not None, result.content
    return bool(result.is_error), result.structured_content


def rules(content: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d["path"], d["rule"]) for d in content["diagnostics"]]
