"""`memql mcp`: serve the memory to MCP clients (agents), over stdio or streamable HTTP on loopback."""

from __future__ import annotations

import click

from memql.interfaces.cli.common import announce_when_listening, main, open_memory, port_free_or_exit


@main.command("mcp")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio: the client starts memql as a subprocess; http: streamable HTTP on 127.0.0.1:PORT/mcp.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="HTTP port.")
@click.pass_context
def mcp_command(ctx: click.Context, transport: str, port: int) -> None:
    """Run the MCP server: one tool per verb plus memory_plan, memory_execute, memory_facts and
    memory_history, acting as the global options say (--db, --tenant, --actor, --role, --consent,
    --clearance, --now). See docs/mcp.md."""
    from memql.interfaces.mcp import build_server

    with open_memory(ctx) as memory:
        server = build_server(memory)
        if transport == "stdio":
            server.run("stdio")
        else:  # loopback only: the server has no authentication of its own
            port_free_or_exit("127.0.0.1", port)  # else the announcement would hear whoever holds it
            announce_when_listening(
                "127.0.0.1", port, f"memql: MCP server listening on http://127.0.0.1:{port}/mcp"
            )
            server.run("streamable-http", host="127.0.0.1", port=port)
