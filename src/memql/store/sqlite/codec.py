"""Rows <-> Records: instants as INTEGER microseconds (UTC), JSON-valued fields as JSON text."""

from __future__ import annotations

import functools
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
_PLAIN, _INSTANT, _JSON = 0, 1, 2
_KIND = {
    name: _INSTANT if name in INSTANT_FIELDS else _JSON if name in JSON_FIELDS else _PLAIN for name in COLUMNS
}


@functools.lru_cache(maxsize=64)
def _plan(keys: tuple[str, ...]) -> tuple[int, tuple[tuple[int, str, int], ...]]:
    """Where each record field sits in a row of these columns, and how it is converted (once per query
    shape: a sqlite3.Row looks each name up by scanning its columns)."""
    at = {key: i for i, key in enumerate(keys)}
    return at["num"], tuple((at[name], name, _KIND[name]) for name in COLUMNS)


def decode(row: sqlite3.Row) -> Record:
    num, plan = _plan(tuple(row.keys()))
    values: dict[str, Any] = {"id": str(row[num])}
    for i, name, kind in plan:
        raw = row[i]
        if raw is None or kind == _PLAIN:
            values[name] = raw
        elif kind == _INSTANT:
            values[name] = _EPOCH + timedelta(microseconds=raw)
        else:
            empty = _EMPTY_JSON.get(raw) if isinstance(raw, str) else None
            values[name] = empty() if empty else json.loads(raw)
    return Record(**values)


def candidate(row: Sequence[Any], score: float) -> Candidate:
    """A row of query.CANDIDATE_COLUMNS (num, weight, at, visits, last_access_at) as a search candidate."""
    return Candidate(str(row[0]), score, row[1], from_us(row[2]), row[3], from_us(row[4]))
