"""`memql mcp`: serve the memory to MCP clients (agents), over stdio or streamable HTTP on loopback."""

from __future__ import annotations

import click

from memql.interfaces.cli.common import (
    announce_when_listening,
    close_on_stop_signals,
    main,
    open_memory,
    port_free_or_exit,
)
from memql.interfaces.mcp.catalog import TOOL_SETS, tools_help


@main.command("mcp")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio: the client starts memql as a subprocess; http: streamable HTTP on 127.0.0.1:PORT/mcp.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="HTTP port.")
@click.option(
    "--tools",
    "tool_set",
    type=click.Choice(TOOL_SETS),
    default="core",
    show_default=True,
    envvar="MEMQL_MCP_TOOLS",
    show_envvar=True,
    help="core: the compact set (marked *), strict schemas, under 16,000 characters; full: every tool.",
)
@click.pass_context
def mcp_command(ctx: click.Context, transport: str, port: int, tool_set: str) -> None:
    try:
        from memql.interfaces.mcp.sdk import run_http
        from memql.interfaces.mcp.server import build_server
    except ImportError as exc:  # the MCP SDK is the optional extra memql[mcp]
        raise click.ClickException(
            f"the MCP server needs the MCP SDK ({exc}); install it with: pip install 'memql[mcp]'"
        ) from None

    with open_memory(ctx) as memory:
        close_on_stop_signals(memory.close)  # (a client whose closed input did not stop it sends SIGTERM)
        server = build_server(memory, tools=tool_set)
        if transport == "stdio":
            server.run("stdio")
        else:  # loopback only: the server has no authentication of its own
            port_free_or_exit("127.0.0.1", port)  # else the announcement would hear whoever holds it
            announce_when_listening(
                "127.0.0.1", port, f"memql: MCP server listening on http://127.0.0.1:{port}/mcp"
            )
            run_http(server, "127.0.0.1", port)


mcp_command.help = (
    "Run the MCP server, acting as the global options say (--db, --tenant, --actor, --role, --consent, "
    "--clearance, --now). See docs/mcp.md.\n\nTools (* in the default core set; all with --tools full):\n\n"
    "\b\n" + tools_help()
)
