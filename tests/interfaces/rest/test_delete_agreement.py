"""A Delete of an id that is not there has one outcome on every surface, the engine's: success, nothing
affected, the warning target.not_found — REST 200, CLI exit 0, an MCP result that is not an error — and
the same for another tenant's id (which must look exactly like an unknown one). Both backends."""

from __future__ import annotations

import json

import anyio
from click.testing import CliRunner
from mcp import Client

from memql import Memory
from memql.interfaces.cli import main
from memql.interfaces.mcp import build_server


def outcome(body: dict) -> tuple[bool, list[str], list[str]]:
    return body["success"], body["affected_ids"], [w["rule"] for w in body["warnings"]]


def test_deleting_a_missing_id_agrees_everywhere(server, tenant):
    engine = Memory(server.location, tenant=tenant, actor="mira", embedder="none")
    mine = Memory(server.location, tenant=f"{tenant}-b", actor="bo", embedder="none")
    try:
        theirs = mine.encode("bo's record").id  # in another tenant: to `tenant`, not there
        expected = (True, [], ["target.not_found"])
        for missing in ("424242", theirs):
            assert outcome(engine.delete(missing).to_json()) == expected  # the truth

            rest = server.client(server.key(tenant)).post(
                "/v1/execute", json={"op": "Delete", "target": {"ids": [missing]}}
            )
            assert rest.status_code == 200 and outcome(rest.json()) == expected, rest.text

            shell = CliRunner().invoke(
                main,
                ["--db", server.location, "--tenant", tenant, "execute", "--json"],
                input=json.dumps({"op": "Delete", "target": {"ids": [missing]}}),
            )
            assert shell.exit_code == 0 and outcome(json.loads(shell.stdout)) == expected, shell.output

            async def over_mcp(record_id: str = missing):
                async with Client(build_server(engine)) as client:
                    result = await client.call_tool("memory_delete", {"ids": [record_id]})
                    return bool(result.is_error), result.structured_content

            is_error, body = anyio.run(over_mcp)
            assert not is_error and outcome(body) == expected
        assert mine.get(theirs)["text"] == "bo's record"  # nothing happened to it
    finally:
        engine.close()
        mine.close()
