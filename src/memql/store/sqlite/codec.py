"""Rows <-> Records: instants as INTEGER microseconds (UTC), JSON-valued fields as JSON text."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from memql.lang.encoding import json_default
from memql.ports.record import INSTANT_FIELDS, JSON_FIELDS, RECORD_FIELDS, Record
from memql.ports.store import Candidate

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
COLUMNS: tuple[str, ...] = tuple(f for f in RECORD_FIELDS if f != "id")


def to_us(value: datetime | None) -> int | None:
    if value is None:
        return None
    delta = value.astimezone(UTC) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_us(value: int | None) -> datetime | None:
    if value is None:
        return None
    return _EPOCH + timedelta(microseconds=value)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=json_default)


def encode_field(name: str, value: Any) -> Any:
    if name in INSTANT_FIELDS:
        return to_us(value)
    if name in JSON_FIELDS:
        return None if value is None else dumps(value)
    return value


def encode(record: Record) -> dict[str, Any]:
    return {name: encode_field(name, getattr(record, name)) for name in COLUMNS}


_EMPTY_JSON = {"[]": list, "{}": dict}  # most JSON columns hold one of these: no parse needed


def decode(row: sqlite3.Row) -> Record:
    # one dict of the row first: a sqlite3.Row looks each name up by scanning its columns
    data = dict(zip(row.keys(), row, strict=True))
    values: dict[str, Any] = {"id": str(data["num"])}
    for name in COLUMNS:
        raw = data[name]
        if raw is None:
            values[name] = None
        elif name in INSTANT_FIELDS:
            values[name] = from_us(raw)
        elif name in JSON_FIELDS:
            empty = _EMPTY_JSON.get(raw) if isinstance(raw, str) else None
            values[name] = empty() if empty else json.loads(raw)
        else:
            values[name] = raw
    return Record(**values)


def candidate(row: Sequence[Any], score: float) -> Candidate:
    """A row of query.CANDIDATE_COLUMNS (num, weight, at, visits, last_access_at) as a search candidate."""
    return Candidate(str(row[0]), score, row[1], from_us(row[2]), row[3], from_us(row[4]))
