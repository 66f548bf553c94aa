"""The MCP server (`memql mcp`): one tool per verb plus planning, programs, facts and history, over the
Python API. See docs/mcp.md."""

from memql.interfaces.mcp.server import build_server

__all__ = ["build_server"]
