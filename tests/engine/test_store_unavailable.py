"""A store that fails under a request -- a full disk, a PostgreSQL server that went away, a connection lost
in the middle of a transaction -- is refused with `store.full` or `store.unavailable`, naming the step it
met, rather than reported as memql's own defect (`exec.internal`); nothing was changed (or, for a connection
lost while committing, the message says the outcome is unknown), and the store answers again once the
cause is gone. SQLite's size limit (`PRAGMA max_page_count`) is a full disk to SQLite; PostgreSQL's
backends are ended as a restart, a failover or a network cut would end them."""

from __future__ import annotations

import logging
import random
import threading
import time
from datetime import UTC, datetime, timedelta

import psycopg

from memql import Memory
from memql.interfaces.rest.errors import status_for
from memql.ports.clock import FixedClock
from memql.store import postgres
from memql.store.postgres import ANALYZE_FIRST, PostgresStore, split_url
from pgtest import back_in_reach, end_sessions, fresh_location, out_of_reach, own_database, server_dsn


def _tags(m: Memory, record_id: str) -> list[str]:
    return m.retrieve(ids=[record_id], include=["tags"]).data["rows"][0]["tags"]


def test_a_full_disk_refuses_with_store_full_names_the_step_and_changes_nothing(tmp_path):
    with Memory(str(tmp_path / "store.db"), tenant="acme", actor="mira", embedder=None) as m:
        first = m.encode("the ferry leaves at nine").id
        conn = m.store.conn  # type: ignore[attr-defined]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # room for a small write, not a big one
        big = "the ferry timetable " * 5_000

        refused = m.encode(big)
        assert not refused.success
        assert [(d.rule, d.path) for d in refused.diagnostics] == [("store.full", "")]
        assert "nothing was changed" in refused.diagnostics[0].message
        assert status_for(refused.diagnostics) == 507

        flow = m.execute(
            {
                "workflow": [
                    {"op": "Label", "target": {"ids": [first]}, "args": {"tags": ["ferry"]}},
                    {"op": "Encode", "args": {"payload": {"text": big}}},
                ]
            }
        )
        assert not flow.success and flow.failed_step == 1  # the batched Encode's write met the full disk
        assert [(d.rule, d.path) for d in flow.diagnostics] == [("store.full", "/workflow/1")]
        assert _tags(m, first) == []  # the Label before it was rolled back with it
        assert len(m.retrieve(k=10).data["rows"]) == 1

        conn.execute("PRAGMA max_page_count = 1073741823")  # space again: the same writes go through
        assert m.encode(big).success
        assert m.execute({"op": "Label", "target": {"ids": [first]}, "args": {"tags": ["ferry"]}}).success
        assert _tags(m, first) == ["ferry"]


def _end_backends(location: str) -> None:
    """End every server process of the store's connections (its pool names them by its schema)."""
    assert end_sessions("application_name", split_url(location)[1]) >= 1


def test_a_postgres_connection_lost_mid_workflow_is_unavailable_and_changes_nothing():
    location = fresh_location()
    with Memory(location, tenant="acme", actor="mira", embedder=None) as m:
        first = m.encode("the ferry leaves at nine").id
        label = {"op": "Label", "target": {"ids": [first]}, "args": {"tags": ["ferry"]}}
        again = {"op": "Label", "target": {"ids": [first]}, "args": {"tags": ["boat"]}}

        def cut_after_first(i: int, result: object) -> None:
            if i == 0:
                _end_backends(location)

        flow = m.execute({"workflow": [label, again]}, on_step=cut_after_first)
        assert not flow.success and flow.failed_step == 1
        assert [(d.rule, d.path) for d in flow.diagnostics] == [("store.unavailable", "/workflow/1")]
        assert "nothing was changed" in flow.diagnostics[0].message
        assert status_for(flow.diagnostics) == 503
        assert _tags(m, first) == []  # the server rolled the transaction back; the pool reconnected

        # cut once every step has run: the commit's answer never comes, so the outcome is not known
        cut = m.execute({"workflow": [label]}, on_step=lambda i, r: _end_backends(location))
        assert not cut.success and cut.failed_step == 0
        assert [(d.rule, d.path) for d in cut.diagnostics] == [("store.unavailable", "/workflow/0")]
        assert "may or may not have been applied" in cut.diagnostics[0].message
        assert _tags(m, first) == []  # (here the COMMIT never reached the server)
        assert m.execute(label).success and _tags(m, first) == ["ferry"]


def test_a_postgres_server_out_of_reach_is_unavailable_not_busy(monkeypatch):
    monkeypatch.setattr(PostgresStore, "pool_wait_s", 0.5)  # the wait for a pooled connection (30 s)
    monkeypatch.setattr(postgres, "PREPARE_EVERY_S", 0.0)  # every Memory opened looks at the store
    with own_database() as (location, name):
        m = Memory(location, tenant="acme", actor="mira", embedder=None)
        try:
            first = m.encode("the ferry leaves at nine").id
            out_of_reach(name)
            # opening a Memory over the store (a server does per request) is no request: it does not fail
            assert Memory(m.store, tenant="acme", actor="ines", embedder=None).actor == "ines"
            for result in (m.encode("the ferry leaves at ten"), m.retrieve("ferry")):
                assert not result.success
                assert [d.rule for d in result.diagnostics] == ["store.unavailable"]
                assert "cannot be reached" in result.diagnostics[0].message  # not "every connection in use"
            back_in_reach(name)
            deadline = time.monotonic() + 30  # the pool retries its connections with a growing pause
            while not (found := m.retrieve("ferry")).success and time.monotonic() < deadline:
                time.sleep(0.2)
            assert found.success and found.affected_ids == [first]
            assert m.encode("the ferry leaves at ten").success
        finally:
            m.close()


def test_a_write_committed_before_the_statistics_refresh_fails_is_reported_as_done(caplog):
    """The planner's statistics are refreshed on a new connection once the store has grown (ANALYZE_FIRST
    records, then each doubling), after the write that grew it committed: that connection failing (the
    server refusing new ones, here; a restart in the moment between) reported the committed write as
    exec.internal."""
    with own_database() as (location, name):
        m = Memory(location, tenant="acme", actor="mira", embedder=None)
        try:
            texts = [f"note {i} about the ferry" for i in range(ANALYZE_FIRST)]
            grown = m.encode_many([{"op": "Encode", "args": {"payload": {"text": t}}} for t in texts[:-1]])
            assert grown.success
            with psycopg.connect(server_dsn(), autocommit=True) as admin:  # open connections go on working
                admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            with caplog.at_level(logging.WARNING, logger="memql.store.postgres.schema"):
                last = m.encode(texts[-1])  # the hundredth: its commit is followed by the refresh
            assert last.success, last.diagnostics
            assert "not refreshed" in caplog.text
            assert len(m.retrieve(query="ferry", k=200).affected_ids) == ANALYZE_FIRST
        finally:
            back_in_reach(name)
            m.close()


def test_every_write_path_on_a_full_disk_is_store_full_and_leaves_the_file_sound(tmp_path):
    """Encodes, bulk writes, workflows, Updates, Deletes, Merges, Splits, stored summaries, Locks, Expires,
    sweeps and remember, with the size limit just above the store's size (raised a little now and then):
    each is done or refused with store.full, never exec.internal or an exception; the file stays sound."""
    rnd = random.Random(20261129)
    clock = FixedClock(datetime(2026, 3, 2, 9, tzinfo=UTC))
    with Memory(str(tmp_path / "full.db"), tenant="acme", actor="mira", embedder=None, clock=clock) as m:
        m.encode_many([f"note {i} about the ferry" for i in range(50)])
        conn = m.store.conn  # type: ignore[attr-defined]

        def limit(extra: int) -> None:
            conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0] + extra}")

        def text(n: int) -> str:
            return " ".join(
                rnd.choice(["ferry", "river", "港口", "garden", "budget", "passport"]) for _ in range(n)
            )

        def ids() -> list[str]:
            return [str(rnd.randint(1, 80)) for _ in range(rnd.randint(1, 3))]

        writes = [
            lambda: m.encode(text(rnd.choice([3, 3000]))),
            lambda: m.encode_many([text(rnd.choice([3, 200])) for _ in range(rnd.randint(2, 200))]),
            lambda: m.execute(
                {
                    "workflow": [
                        {"op": "Encode", "args": {"payload": {"text": text(20)}}},
                        {"op": "Label", "target": {"ids": ids()}, "args": {"tags": ["x"]}},
                    ]
                }
            ),
            lambda: m.execute(
                {"op": "Update", "target": {"ids": ids()}, "args": {"set": {"text": text(2000)}}}
            ),
            lambda: m.execute({"op": "Delete", "target": {"ids": ids()}, "args": {"soft": True}}),
            lambda: m.execute(
                {"op": "Merge", "target": {"ids": ids() + ids()}, "args": {"strategy": "merge_into_primary"}}
            ),
            lambda: m.execute({"op": "Split", "target": {"ids": ids()}, "args": {"strategy": "sentences"}}),
            lambda: m.execute({"op": "Lock", "target": {"ids": ids()}, "args": {"mode": "read_only"}}),
            lambda: m.execute(
                {
                    "op": "Expire",
                    "target": {"ids": ids()},
                    "args": {"ttl": "PT1S", "on_expire": "soft_delete"},
                }
            ),
            m.sweep,
            lambda: m.remember("I live in Berlin and my passport expires in June"),
        ]
        limit(20)
        refused = 0
        for _ in range(150):
            clock.advance(timedelta(seconds=rnd.choice([0, 2, 3600])))
            result = rnd.choice(writes)()
            errors = [d.rule for d in result.diagnostics if d.severity == "error"]
            assert "exec.internal" not in errors, result.diagnostics
            refused += "store.full" in errors
            if rnd.random() < 0.05:
                limit(rnd.randint(0, 40))
        assert refused >= 20  # the limit was met, on many paths
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_writes_and_reads_while_backends_are_ended_fail_cleanly_and_keep_the_store_whole():
    """Threads writing (Encodes, workflows of three) and reading while the store's PostgreSQL sessions are
    ended again and again: every failure is store.unavailable (no exec.internal, no exception); every write
    reported done is stored and none reported failed (before its commit) is."""
    location = fresh_location()
    rnd = random.Random(7)
    done, failed, problems, refused = set(), set(), [], []
    guard = threading.Lock()
    with Memory(location, tenant="acme", actor="mira", embedder=None) as m:
        m.encode("the ferry leaves at nine")
        stop = time.monotonic() + 3

        def work(worker: int) -> None:
            i = 0
            while time.monotonic() < stop:
                i += 1
                texts = [f"worker {worker} note {i} part {j}" for j in range(1 if i % 3 else 3)]
                try:
                    if len(texts) == 1:
                        result = m.encode(texts[0])
                    else:
                        steps = [{"op": "Encode", "args": {"payload": {"text": t}}} for t in texts]
                        result = m.execute({"workflow": steps})
                    read = m.retrieve(query="ferry", k=5)
                except Exception as exc:  # (what the test is about)
                    with guard:
                        problems.append(repr(exc))
                    continue
                with guard:
                    for r in (result, read):
                        problems.extend(d.message for d in r.diagnostics if d.rule != "store.unavailable")
                    refused.extend(r for r in (result, read) if not r.success)
                    if result.success:
                        done.update(texts)
                    elif "may or may not" not in result.diagnostics[0].message:
                        failed.update(texts)

        workers = [threading.Thread(target=work, args=(w,)) for w in range(3)]
        for t in workers:
            t.start()
        ended = 0
        while time.monotonic() < stop:
            time.sleep(rnd.uniform(0.05, 0.25))
            ended += end_sessions("application_name", split_url(location)[1], wait=False)
        for t in workers:
            t.join()
        assert not problems, problems[:5]
        assert ended >= 5 and done and refused  # (sessions were ended while it worked, and it mattered)
    with Memory(location, tenant="acme", actor="mira", embedder=None) as again:
        stored = {row["text"] for row in again.store.execute_sql("SELECT text FROM records")}  # type: ignore[attr-defined]
    assert done <= stored and not (failed & stored)
