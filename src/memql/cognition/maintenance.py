"""Maintenance that runs itself: expiry applied, due reminders fired, episodes promoted, on a schedule.

Each run is made of the verbs a caller could send, so it is validated, governed and audited like any
other program and shows in `memql history`:

- **Sweep** applies every expired record's on_expire and purges soft deletions past the recovery window;
- **Remind** (`advance: true`) takes the reminders due now and schedules each one's next occurrence, so
  a reminder fires once per occurrence however often the runner wakes;
- **promotion** of episodes (`promote_episodes`, a Retrieve and one Update workflow) runs every
  `promote_every` seconds when that is set (it reads every episode: not a thing to do each minute).

The reminders due go to `on_due` (a callable) and, when `webhook` is set, as one JSON POST
(`{"tenant", "due": [...]}`) to that URL — the user's own endpoint; memql calls no other. A delivery that
fails is reported in the run's `errors` and not retried: the reminder has been advanced, and retrying a
webhook is the receiver's concern (at-most-once). A run never raises: what went wrong is in its report.

`Maintenance.start()` runs it in a daemon thread every `every` seconds until `stop()` (or the end of a
`with` block); `run_once()` runs it now, in the caller's thread.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memql.lang import build

# the webhook's answer is not awaited longer than this (a slow receiver must not stall the runner)
WEBHOOK_TIMEOUT_S = 5.0


def check_settings(every: float, promote_every: float | None, webhook: str | None) -> None:
    """ValueError naming the setting that is wrong."""
    if every <= 0 or (promote_every is not None and promote_every <= 0):
        raise ValueError("every and promote_every are positive numbers of seconds")
    if webhook is not None and not webhook.startswith(("http://", "https://")):
        raise ValueError(f"webhook must be an http(s) URL, not {webhook!r}")


@dataclass
class MaintenanceRun:
    """What one run did: the records the sweep expired or purged, the reminders fired, the episodes
    promoted (None when promotion did not run this time), and what failed."""

    swept: list[str] = field(default_factory=list)
    due: list[dict[str, Any]] = field(default_factory=list)
    promoted: list[str] | None = None
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"swept": self.swept, "due": self.due, "promoted": self.promoted, "errors": self.errors}


class _Periodic:
    """run_once() every `every` seconds in a daemon thread, from start() until stop() (or a `with` block)."""

    every: float

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> Any:
        raise NotImplementedError

    def wait(self, seconds: float) -> bool:
        """Sleep up to `seconds`, woken early by stop(); True when stopped."""
        return self._stop.wait(seconds)

    def start(self):
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="memql-maintenance", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float | None = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            self._stop.wait(self.every)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Maintenance(_Periodic):
    """The runner (see the module docstring). `memory` is a `memql.Memory`; `monotonic` is the clock the
    promotion interval is measured on (tests pass their own)."""

    def __init__(
        self,
        memory: Any,
        *,
        every: float = 60.0,
        promote_every: float | None = None,
        on_due: Callable[[list[dict[str, Any]]], None] | None = None,
        webhook: str | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        check_settings(every, promote_every, webhook)
        self.memory, self.every, self.promote_every = memory, every, promote_every
        self.on_due, self.webhook, self._monotonic = on_due, webhook, monotonic
        self._last_promotion: float | None = None
        self.runs = 0
        self.last: MaintenanceRun | None = None

    def run_once(self) -> MaintenanceRun:
        run = MaintenanceRun()
        swept = self.memory.execute(build.sweep(comment="maintenance"))
        if swept.success:
            run.swept = [str(i) for i in swept.affected_ids]
        else:
            run.errors.append(f"sweep: {_why(swept)}")
        due = self.memory.execute(build.remind(advance=True, comment="maintenance"))
        if due.success:
            run.due = list((due.data or {}).get("due") or [])
        else:
            run.errors.append(f"remind: {_why(due)}")
        if run.due:
            self._deliver(run)
        if self._promotion_due():
            try:
                report = self.memory.promote_episodes()
                run.promoted = [p.id for p in report.promoted]
                if not report.success:
                    run.errors.append("promotion: " + "; ".join(d.message for d in report.diagnostics))
            except Exception as exc:  # a failed promotion is reported; the next run tries again
                run.errors.append(f"promotion: {type(exc).__name__}: {exc}")
        self.runs += 1
        self.last = run
        return run

    def _promotion_due(self) -> bool:
        if self.promote_every is None:
            return False
        now = self._monotonic()
        if self._last_promotion is not None and now - self._last_promotion < self.promote_every:
            return False
        self._last_promotion = now
        return True

    def _deliver(self, run: MaintenanceRun) -> None:
        if self.on_due is not None:
            try:
                self.on_due(run.due)
            except Exception as exc:
                run.errors.append(f"on_due: {type(exc).__name__}: {exc}")
        if self.webhook is not None:
            import urllib.request  # only a runner with a webhook pays for it, not every `import memql`

            body = json.dumps({"tenant": self.memory.tenant, "due": run.due}, default=str).encode()
            request = urllib.request.Request(
                self.webhook, data=body, headers={"Content-Type": "application/json"}, method="POST"
            )
            try:
                with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT_S) as answer:
                    if answer.status >= 300:
                        run.errors.append(f"webhook: HTTP {answer.status}")
            except Exception as exc:  # unreachable, refused, an error status: reported, not retried
                run.errors.append(f"webhook: {type(exc).__name__}: {exc}")


def _why(result: Any) -> str:
    return "; ".join(f"{d.path or '/'}: {d.message} [{d.rule}]" for d in result.diagnostics) or "refused"


class TenantsMaintenance(_Periodic):
    """One runner over several tenants of a store (what `memql serve --maintain-every` runs): every
    `every` seconds, a run for each tenant `tenants()` names, on the Memory `open_memory(tenant)` gives
    (a housekeeping session of that tenant). `last` holds each tenant's last run."""

    def __init__(
        self,
        tenants: Callable[[], list[str]],
        open_memory: Callable[[str], Any],
        *,
        every: float = 60.0,
        promote_every: float | None = None,
        webhook: str | None = None,
    ) -> None:
        self._tenants, self._open = tenants, open_memory
        self._settings = {"every": every, "promote_every": promote_every, "webhook": webhook}
        super().__init__()
        check_settings(every, promote_every, webhook)  # now, not in the thread
        self.every = every
        self._runners: dict[str, Maintenance] = {}
        self.last: dict[str, MaintenanceRun] = {}

    def run_once(self) -> dict[str, MaintenanceRun]:
        try:
            tenants = self._tenants()
        except Exception as exc:  # the store is unreachable for now: the next round tries again
            self.last["*"] = MaintenanceRun(errors=[f"tenants: {type(exc).__name__}: {exc}"])
            return dict(self.last)
        for tenant in tenants:
            try:  # a tenant that cannot be opened does not end maintenance for the others
                runner = self._runners.get(tenant)
                if runner is None:
                    runner = self._runners[tenant] = Maintenance(self._open(tenant), **self._settings)
                self.last[tenant] = runner.run_once()
            except Exception as exc:
                self.last[tenant] = MaintenanceRun(errors=[f"{type(exc).__name__}: {exc}"])
        return dict(self.last)

    def stop(self, timeout: float | None = 10.0) -> None:
        super().stop(timeout)
        for runner in self._runners.values():
            runner.memory.close()
