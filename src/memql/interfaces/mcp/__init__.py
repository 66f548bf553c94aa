"""The MCP server (`memql mcp`): one tool per verb plus planning, programs, facts and history, over the
Python API. See docs/mcp.md. The MCP SDK is the optional extra `memql[mcp]`: it is imported only when
the server is built, so the catalogue (`memql mcp --help`) reads without it."""

from __future__ import annotations

from typing import Any

__all__ = ["build_server"]


def __getattr__(name: str) -> Any:
    if name == "build_server":
        from memql.interfaces.mcp.server import build_server

        return build_server
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
