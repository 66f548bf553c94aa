"""Rows <-> Records: instants as INTEGER microseconds (UTC), JSON-valued fields as JSON text."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

from memql.lang.encoding import json_default
from memql.ports.record import INSTANT_FIELDS, JSON_FIELDS, RECORD_FIELDS, Record

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


# one encoder for every write: json.dumps with options builds a new one per call
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=json_default).encode


def dumps(value: Any) -> str:
    if not value and type(value) in (list, dict):  # most JSON columns and audit images are empty
        return "[]" if type(value) is list else "{}"
    return _dumps(value)


def encode_field(name: str, value: Any) -> Any:
    if name in INSTANT_FIELDS:
        return to_us(value)
    if name in JSON_FIELDS:
        return None if value is None else dumps(value)
    return value


# each column with how it is stored: 1 an instant, 2 JSON, 0 as it is (encode runs per record written)
_KINDS = tuple((name, 1 if name in INSTANT_FIELDS else 2 if name in JSON_FIELDS else 0) for name in COLUMNS)


def encode(record: Record) -> dict[str, Any]:
    values = record.__dict__
    out: dict[str, Any] = {}
    for name, kind in _KINDS:
        value = values[name]
        if kind and value is not None:
            value = to_us(value) if kind == 1 else dumps(value)
        out[name] = value
    return out


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
