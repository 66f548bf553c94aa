"""memql's MCP server runs on whichever SDK line is installed: the line it reads from the SDK's names is
the installed distribution's. The test extra installs 2.x; `.ci/run` runs this directory again with 1.x
(installed apart, ahead on PYTHONPATH), so every MCP test passes on both lines."""

from __future__ import annotations

from importlib.metadata import version

from memql.interfaces.mcp import sdk


def test_the_line_memql_serves_with_is_the_installed_one():
    assert int(version("mcp").split(".")[0]) == sdk.SDK_LINE
    assert sdk.server_options("9.9") == ({"version": "9.9"} if sdk.SDK_LINE == 2 else {})
