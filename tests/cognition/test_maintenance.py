"""The maintenance runner (memql.cognition.maintenance), on every backend: expiry applied, due reminders
fired once per occurrence to a callback and a real webhook on 127.0.0.1, promotion on its own interval,
every run through the verbs (visible in history), failures reported, never raised; one tenant's run
touches no other tenant's records."""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest

from memql.cognition.maintenance import Maintenance


class _Hook(BaseHTTPRequestHandler):
    received: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:  # quiet
        pass


@pytest.fixture
def webhook():
    _Hook.received = []
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", _Hook.received
    server.shutdown()
    server.server_close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_run_sweeps_fires_due_reminders_once_and_is_in_history(memory, clock, webhook):
    url, received = webhook
    m = memory()
    other = memory(tenant="other", share=m)
    expiring = m.encode("parking permit", ttl="PT1H").id
    theirs = other.encode("their permit", ttl="PT1H").id
    reminded = m.encode("water the plants").id
    assert m.promote(reminded, remind="FREQ=DAILY").success
    heard: list[list[dict]] = []
    runner = m.maintenance(on_due=heard.append, webhook=url)
    clock.advance(timedelta(days=1, hours=1))
    run = runner.run_once()
    assert run.errors == []
    assert run.swept == [expiring]  # the other tenant's expired record is not this tenant's to sweep
    assert [d["id"] for d in run.due] == [reminded] and [d["id"] for d in heard[0]] == [reminded]
    assert received == [{"tenant": "t", "due": json.loads(json.dumps(run.due, default=str))}]
    assert "Sweep" in [h["op"] for h in m.history(expiring)]
    assert "Sweep" not in [h["op"] for h in other.history(theirs)]  # expired, hidden, not yet swept
    assert other.maintenance().run_once().swept == [theirs]
    assert runner.run_once().due == []  # advanced: the next occurrence is tomorrow
    clock.advance(timedelta(days=1))
    assert [d["id"] for d in runner.run_once().due] == [reminded]


def test_a_locked_record_keeps_its_expiry(memory, clock):
    m = memory()
    held = m.encode("legal hold", ttl="PT1H").id
    assert m.lock(held).success
    clock.advance(timedelta(hours=2))
    run = m.maintenance().run_once()
    assert run.swept == [] and "Sweep" not in [h["op"] for h in m.history(held)]


def test_promotion_runs_on_its_own_interval(memory):
    m = memory()
    ticks = iter([0.0, 10.0, 100.0])
    runner = Maintenance(m, promote_every=60.0, monotonic=lambda: next(ticks))
    assert runner.run_once().promoted == []  # ran: nothing to promote in an empty store
    assert runner.run_once().promoted is None  # 10 s later: not yet
    assert runner.run_once().promoted == []  # 100 s: again


def test_a_failing_webhook_is_reported_not_raised(memory, clock):
    m = memory()
    record = m.encode("call the bank").id
    assert m.promote(record, remind="FREQ=DAILY").success
    clock.advance(timedelta(days=1))

    def broken(_due):
        raise RuntimeError("receiver down")

    run = m.maintenance(on_due=broken, webhook=f"http://127.0.0.1:{_closed_port()}/hook").run_once()
    assert [d["id"] for d in run.due] == [record]
    assert len(run.errors) == 2 and run.errors[0].startswith("on_due: RuntimeError")
    assert run.errors[1].startswith("webhook:")


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="webhook"):
        Maintenance(object(), webhook="ftp://example")
    with pytest.raises(ValueError, match="positive"):
        Maintenance(object(), every=0)


def test_the_thread_runs_until_stopped(memory):
    m = memory()
    with m.maintenance(every=0.01) as runner:
        deadline = time.monotonic() + 60  # a bound for a loaded machine
        while runner.runs < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert runner.runs >= 2
    stopped_at = runner.runs
    time.sleep(0.05)
    assert runner.runs == stopped_at


def test_tenants_maintenance_runs_each_tenant_and_survives_one_that_fails(memory, clock):
    from memql import Memory
    from memql.cognition.maintenance import TenantsMaintenance

    m = memory()
    other = memory(tenant="other", share=m)
    mine, theirs = m.encode("a", ttl="PT1H").id, other.encode("b", ttl="PT1H").id
    clock.advance(timedelta(hours=2))

    def open_memory(tenant: str) -> Memory:
        if tenant == "broken":
            raise RuntimeError("cannot open")
        return Memory(m.store, tenant=tenant, actor="memql-maintenance", admin=True, clock=clock)

    runner = TenantsMaintenance(lambda: ["broken", "other", "t"], open_memory)
    runs = runner.run_once()
    assert runs["t"].swept == [mine] and runs["other"].swept == [theirs]
    assert runs["broken"].errors == ["RuntimeError: cannot open"]
    runner.stop()
