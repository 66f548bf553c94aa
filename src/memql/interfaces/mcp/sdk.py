"""The MCP SDK's names, from either of its lines: 2.x (`MCPServer`, the `mcp_types` package) or 1.x
(`FastMCP`, `mcp.types`), so memql[mcp] installs beside whichever line other tools pin (CrewAI and
langchain-mcp-adapters require mcp<2). The two lines' server classes take the same tools and calls;
what differs is said here once. Models are built with the protocol's camelCase names, which both lines
accept."""

from __future__ import annotations

from typing import Any

try:  # the 2.x line
    from mcp.server.mcpserver import MCPServer as BaseServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.tools import Tool
    from mcp_types import CallToolResult, TextContent, ToolAnnotations

    SDK_LINE = 2
except ImportError:  # the 1.x line
    from mcp.server.fastmcp import FastMCP as BaseServer  # type: ignore[no-redef]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef]
    from mcp.server.fastmcp.tools import Tool  # type: ignore[no-redef]
    from mcp.types import CallToolResult, TextContent, ToolAnnotations  # type: ignore[no-redef]

    SDK_LINE = 1


def server_options(version: str) -> dict[str, Any]:
    """Constructor options only one line has (1.x's FastMCP takes no version)."""
    return {"version": version} if SDK_LINE == 2 else {}


def run_http(server: Any, host: str, port: int) -> None:
    """Serve streamable HTTP on host:port (2.x takes them in run, 1.x in its settings)."""
    if SDK_LINE == 2:
        server.run("streamable-http", host=host, port=port)
    else:
        server.settings.host, server.settings.port = host, port
        server.run("streamable-http")


__all__ = [
    "SDK_LINE",
    "BaseServer",
    "CallToolResult",
    "TextContent",
    "Tool",
    "ToolAnnotations",
    "ToolError",
    "run_http",
    "server_options",
]
