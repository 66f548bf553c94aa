"""Reading the audit log back, shared by every backend: record images of any record schema upgraded to
the current one, a tenant's records replayed up to an instant, and a past record governed as it is now
(what a point-in-time read queries)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import MISSING, fields
from typing import Any

from memql.lang.time import parse_instant
from memql.ports.record import INSTANT_FIELDS, RECORD_FIELDS, REDACTED, SCHEMA_VERSION, Event, Record


def _upgrade_1_to_2(snapshot: dict[str, Any]) -> dict[str, Any]:
    return snapshot  # the fact fields are new and empty on a record written before them


# version -> the function that lifts a snapshot of that version to the next one
RECORD_UPGRADES: dict[int, Any] = {1: _upgrade_1_to_2}


def upgrade_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A record image from the audit log (written at any record schema) in the current shape. A snapshot
    without a version predates versioning and is version 1."""
    version = snapshot.get("schema_version", 1)
    while version < SCHEMA_VERSION:
        snapshot = RECORD_UPGRADES[version](dict(snapshot))
        version += 1
    if version > SCHEMA_VERSION:
        raise ValueError(f"a record of schema {version} is newer than this memql ({SCHEMA_VERSION})")
    return {**snapshot, "schema_version": version}


# fields whose default is a value, not null: a redacted image (a hard-deleted or anonymized record's,
# memql.engine.redaction) holds null or the marker there, and replays to the default
_VALUED_DEFAULTS = {
    f.name: f.default for f in fields(Record) if f.default is not MISSING and f.default is not None
}


def _blanked(name: str, value: Any) -> bool:
    return name in _VALUED_DEFAULTS and value in (None, REDACTED)


def from_snapshot(snapshot: dict[str, Any]) -> Record:
    """A Record from the JSON form the audit log keeps (instants as ISO strings), in the current shape
    whatever record schema wrote it. A field its redaction blanked gets its default."""
    values = {
        k: v for k, v in upgrade_snapshot(snapshot).items() if k in RECORD_FIELDS and not _blanked(k, v)
    }
    for name in INSTANT_FIELDS & values.keys():
        if isinstance(values[name], str):
            values[name] = parse_instant(values[name])[0]
    return Record(**values)


def replay(events: Iterable[Event]) -> dict[str, Record]:
    """The records as a tenant's audit log (its events in order) leaves them, by id: what a point-in-time
    read queries on every backend."""
    states: dict[str, dict[str, Any]] = {}
    for event in events:
        if event.kind == "insert":
            states[event.record_id] = dict(event.after)
        elif event.kind == "update" and event.record_id in states:
            states[event.record_id].update(event.after)
        elif event.kind == "delete":
            states.pop(event.record_id, None)
    return {record_id: from_snapshot({**image, "id": record_id}) for record_id, image in states.items()}


READ_GOVERNANCE = ("owner", "agent", "sensitivity", "read_perm_level", "read_whitelist", "read_blacklist")


def governed_as_now(past: Record, now: Record | None, last: dict[str, Any] | None = None) -> Record:
    """A record as it was, with who may read it as it is now: a point-in-time read must not show what a
    record said before its permissions were tightened. A record that is gone is governed by `last`, the
    image its delete event keeps (its last governance; its content was redacted when it went)."""
    if now is None:
        if last is None:
            return past
        now = from_snapshot({**last, "id": past.id})
    return past.copy(**{name: getattr(now, name) for name in READ_GOVERNANCE})
