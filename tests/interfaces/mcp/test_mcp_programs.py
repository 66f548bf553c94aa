"""`memql mcp`: planning, whole programs, typed facts, history, and the streamable HTTP transport."""

from __future__ import annotations

import os
import socket
import subprocess
import time

import anyio
from mcp_harness import NOW, Client, call, connect, rules


def test_plan_execute_facts_and_history(tmp_path):
    async def scenario():
        async with connect(str(tmp_path / "mcp.db"), "--actor", "mira") as client:
            error, shown = await call(client, "memory_plan", text="Remember that the standup moved to 9:30")
            assert not error and shown["program"]["op"] == "Encode" and "executed" not in shown
            error, ran = await call(
                client, "memory_plan", text="Remember that the standup moved to 9:30", execute=True
            )
            assert not error and ran["executed"] and ran["result"]["affected_ids"] == ["1"]
            # a destructive plan without confirm: a dry run, refused with plan.needs_confirmation
            error, unconfirmed = await call(client, "memory_plan", text="Lock memory 1", execute=True)
            assert error and not unconfirmed["executed"] and unconfirmed["needs_confirmation"]
            assert "plan.needs_confirmation" in [d["rule"] for d in unconfirmed["diagnostics"]]
            error, still = await call(client, "memory_retrieve", ids=["1"], include=["lock"])
            assert still["data"]["rows"] == [{"lock": None}]
            error, confirmed = await call(
                client, "memory_plan", text="Lock memory 1", execute=True, confirm=True
            )
            assert not error and confirmed["executed"] and confirmed["result"]["affected_ids"] == ["1"]
            error, unclear = await call(client, "memory_plan", text="Permanently delete all memories")
            assert error and [d["rule"] for d in unclear["diagnostics"]] == ["plan.clarify"]

            # a workflow: one transaction; a refused step rolls back the steps before it
            workflow = [
                {"op": "Encode", "args": {"payload": {"text": "Q2 budget draft"}, "tags": ["budget"]}},
                {"op": "Lock", "target": {"from_step": 0}, "args": {"mode": "read_only"}},
                {"op": "Delete", "target": {"from_step": 0}},
            ]
            error, failed = await call(client, "memory_execute", program=workflow)
            assert error and failed["op"] == "Workflow" and failed["failed_step"] == 2
            assert rules(failed) == [("/workflow/2/target", "governance.locked")]
            error, budget = await call(client, "memory_retrieve", filter={"has_tags": ["budget"]})
            assert not error and budget["data"]["count"] == 0
            error, dry = await call(client, "memory_execute", program=workflow[:2], dry_run=True)
            assert not error and dry["dry_run"] and dry["preview"]
            error, malformed = await call(client, "memory_execute", program={"op": "Forget"})
            assert error and rules(malformed)[0][1] == "op.unknown"

            # typed facts: a new value supersedes the current one
            for city, valid_from in (("Lisbon", "2025-01-01T00:00:00Z"), ("Porto", "2026-02-01T00:00:00Z")):
                fact = {"subject": "mira", "attribute": "city", "value": city, "valid_from": valid_from}
                error, stored = await call(client, "memory_encode", structured=fact)
                assert not error, stored
            error, current = await call(client, "memory_facts", subject="mira")
            assert not error and [(f["attribute"], f["value"]) for f in current["facts"]] == [
                ("city", "Porto")
            ]
            error, then = await call(client, "memory_facts", subject="mira", as_of="2025-06-01T00:00:00Z")
            assert [f["value"] for f in then["facts"]] == ["Lisbon"]
            error, history = await call(
                client, "memory_facts", subject="mira", attribute="city", history=True
            )
            assert not error and [f["value"] for f in history["facts"]] == ["Lisbon", "Porto"]
            assert history["facts"][0]["valid_to"] == "2026-02-01T00:00:00Z"
            error, refused = await call(client, "memory_facts", subject="mira", history=True)
            assert error and rules(refused) == [("/attribute", "field.required")]
            error, refused = await call(client, "memory_facts", subject="mira", as_of="not a time")
            assert error and refused["diagnostics"][0]["rule"] == "time.invalid"

            error, events = await call(client, "memory_history", record_id="1")
            assert not error and [e["op"] for e in events["events"]] == ["Encode", "Lock"]
            assert events["events"][0]["time"] == "2026-03-02T09:00:00Z"
            error, absent = await call(client, "memory_history", record_id="999")
            assert error and rules(absent) == [("/record_id", "target.not_found")]

    anyio.run(scenario)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http_on_loopback(tmp_path, memql_shim):
    port = _free_port()
    # the real entry point, forked from a process that imported it (conftest's memql_shim)
    command = [str(memql_shim / "memql"), "--db", str(tmp_path / "mcp.db")]
    command += ["--actor", "mira", "--now", NOW, "mcp", "--transport", "http", "--port", str(port)]
    env = {**os.environ, "MEMQL_EMBEDDER": "none"}
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120  # a bound for a loaded machine; it returns at once otherwise
        while True:  # bounded wait for the listener
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()
                assert time.monotonic() < deadline, "the HTTP server did not start"
                time.sleep(0.2)

        async def scenario():
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=30) as client:
                names = [tool.name for tool in (await client.list_tools()).tools]
                assert "memory_encode" in names and "memory_history" in names
                error, stored = await call(client, "memory_encode", text="Served over HTTP.")
                assert not error and stored["data"]["id"] == "1"
                error, refused = await call(client, "memory_delete", ids=["1"], hard=True)
                assert error and rules(refused) == [("/args/soft", "confirm.hard_delete")]

        anyio.run(scenario)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_conversation_context_cites_its_turns(tmp_path):
    from memql import Memory

    db = str(tmp_path / "mcp.db")
    with Memory(db, tenant="default", actor="mira", embedder=None) as m:
        conv = m.conversation(user="mira", agent="assistant", strategy="flat")
        conv.add_message("mira", "My sister Ana moved to Porto in March.", time=NOW, source_id="D1:1")
        conv.add_message("assistant", "Nice! Is she enjoying the city?", time=NOW, source_id="D1:2")
        conv.add_message("mira", "Yes, she loves the river walks.", time=NOW, source_id="D1:3")

    async def scenario():
        async with connect(db, "--actor", "mira") as client:
            error, context = await call(
                client, "memory_context", query="Where did Ana move?", user="mira", budget_tokens=200
            )
            assert not error, context
            assert "D1:1" in context["source_ids"] and "Porto" in context["text"]
            assert 0 < context["tokens"] <= 200
            assert all(piece["memory_ids"] and piece["source_ids"] for piece in context["pieces"])
            error, refused = await call(client, "memory_context", query="Where?", user="mira", strategy="x")
            assert error and rules(refused) == [("/strategy", "field.enum")]
            error, empty = await call(client, "memory_context", query="   ", user="mira")
            assert error and rules(empty) == [("/query", "field.empty")]

    anyio.run(scenario)


def test_conversation_context_leads_with_current_facts_and_takes_as_of(tmp_path):
    """The passport example over MCP: the corrected value leads now; as_of a day in between, the first;
    memory_retrieve with facts names the current fact and marks the superseded message."""
    from memql import Memory

    db = str(tmp_path / "mcp.db")
    with Memory(db, tenant="default", actor="mira", embedder=None) as m:
        conv = m.conversation(user="mira", agent="assistant", strategy="flat", extractor="rules")
        conv.add_message("user", "My passport deadline is July 15.", time="2026-02-10T09:00:00Z")
        conv.add_message("user", "Correction: it's June 30.", time="2026-02-20T09:00:00Z")
    query = "when is my passport due?"

    async def scenario():
        async with connect(db, "--actor", "mira") as client:
            error, now = await call(client, "memory_context", query=query, user="mira", budget_tokens=300)
            assert not error, now
            lead = now["pieces"][0]
            assert lead["level"] == "fact" and "June 30" in lead["text"] and lead["source_ids"] == ["M2"]
            assert "July 15" not in "\n".join(p["text"] for p in now["pieces"] if p["level"] == "fact")
            error, then = await call(
                client, "memory_context", query=query, user="mira", as_of="2026-02-15T00:00:00Z"
            )
            assert not error, then
            assert then["pieces"][0]["level"] == "fact" and "July 15" in then["pieces"][0]["text"]
            assert "June 30" not in then["text"]  # said after the instant asked for
            # a time expression, against the server's --now (March 2): February 16
            error, spoken = await call(
                client, "memory_context", query=query, user="mira", as_of="2 weeks ago"
            )
            assert not error and spoken["text"] == then["text"]
            error, bad = await call(client, "memory_context", query=query, user="mira", as_of="not a time")
            assert error and rules(bad) == [("/as_of", "time.invalid")]
            error, found = await call(client, "memory_retrieve", query=query, facts="current")
            assert not error, found
            assert [f["value"] for f in found["data"]["facts"]] == ["2026-06-30"]
            stale = [r for r in found["data"]["rows"] if r["superseded_by"]]
            assert stale and {i for r in stale for i in r["superseded_by"]} == {
                found["data"]["facts"][0]["id"]
            }

    anyio.run(scenario)
