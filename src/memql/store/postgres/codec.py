"""Rows <-> Records for PostgreSQL: instants as timestamptz, JSON-valued fields as `json` (kept exactly as
written, key order included), embeddings as the same little-endian float32 bytes the SQLite backend keeps.

PostgreSQL text cannot hold NUL characters, which memql text may contain. Every text value is therefore
stored through a reversible escape (NUL -> ESC "0", ESC -> ESC ESC, with ESC a private-use character),
and so is every string inside a JSON value (so that JSON operators never meet a \\u0000 escape). Values
without NUL or ESC -- all real text -- are stored unchanged.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any

from psycopg.types.json import Json
from pydantic_core import to_json

from memql.lang.encoding import compact_json, instants_for_to_json, json_default
from memql.ports.record import INSTANT_FIELDS, JSON_FIELDS, RECORD_FIELDS, Event, Link, Operation, Record
from memql.ports.store import Candidate, epoch_us

ESC = "\U0010fffd"
COLUMNS: tuple[str, ...] = tuple(f for f in RECORD_FIELDS if f != "id")
SELECT_COLUMNS = ", ".join(("num", *COLUMNS, "vec"))  # a records row as stored
TEXT_FIELDS = frozenset(
    name
    for name in COLUMNS
    if name not in INSTANT_FIELDS | JSON_FIELDS
    and name
    not in {"confidence", "weight", "visits", "interactions", "embedding", "embedding_dim", "path_embeddings"}
    and name != "schema_version"
)


def escape(text: str) -> str:
    if "\x00" not in text and ESC not in text:
        return text
    return text.replace(ESC, ESC + ESC).replace("\x00", ESC + "0")


def unescape(text: str) -> str:
    if ESC not in text:
        return text
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == ESC and i + 1 < len(text):
            out.append("\x00" if text[i + 1] == "0" else text[i + 1])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _walk(value: Any, fix) -> Any:
    if isinstance(value, str):
        return fix(value)
    if isinstance(value, dict):
        return {fix(k): _walk(v, fix) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, fix) for v in value]
    return value


def dumps(value: Any) -> str:
    """JSON text, as the SQLite backend writes it, with strings escaped when they hold NUL or ESC."""
    text = _dumps(value)
    if "\\u0000" in text or ESC in text:
        text = _dumps(_walk(json.loads(text), escape))
    return text


_dumps = compact_json()  # json.dumps(ensure_ascii=False, compact, json_default), made once


def dumps_audit(value: Any) -> str:
    """`dumps` of an audit entry's JSON (an IR, an event's image) in a bulk write, by pydantic-core's
    serializer at a fifth of the cost: the same JSON value, instants (an image's fields) in the same
    UTC text; a float may be spelled differently (1e-7 for 1e-07), which no query compares as text."""
    if type(value) is dict:
        value = instants_for_to_json(value)
    text = to_json(value, fallback=json_default).decode()
    return dumps(value) if "\\u0000" in text or ESC in text else text  # escaped as dumps does


def loads(text: str | bytes) -> Any:
    if isinstance(text, bytes):
        text = text.decode()
    value = json.loads(text)
    return _walk(value, unescape) if ESC in text else value


def to_utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def encode_field(name: str, value: Any) -> Any:
    return _encoded(_kind(name), value)


def encode(record: Record) -> list[Any]:
    """encode_field(column, value) of each of COLUMNS, in that order: each column's kind looked up once per
    process and the values taken by one C-level call (62 calls of encode_field were a twentieth of an
    Encode's client time)."""
    values = _COLUMN_VALUES(record.__dict__)
    return [_encoded(kind, value) for kind, value in zip(_KINDS, values, strict=True)]


def _kind(name: str) -> str | None:
    """How a field's value is sent: an instant in UTC, JSON, escaped text, or as it is (None)."""
    if name in INSTANT_FIELDS:
        return "instant"
    if name in JSON_FIELDS:
        return "json"
    return "text" if name in TEXT_FIELDS else None


def _encoded(kind: str | None, value: Any) -> Any:
    if value is None or kind is None:
        return value
    if kind == "instant":
        return value.astimezone(UTC)
    if kind == "json":
        return Json(value, dumps=dumps)
    return escape(value) if isinstance(value, str) else value


_KINDS = tuple(_kind(n) for n in COLUMNS)
_COLUMN_VALUES = itemgetter(*COLUMNS)


def decode(row: dict[str, Any]) -> Record:
    values: dict[str, Any] = {"id": str(row["num"])}
    for name in COLUMNS:
        raw = row[name]
        if raw is None:
            values[name] = None
        elif name in INSTANT_FIELDS:
            values[name] = raw.astimezone(UTC)
        elif name in JSON_FIELDS:
            values[name] = raw  # parsed by the connection's JSON loader (`loads`)
        elif name in ("embedding", "path_embeddings"):
            values[name] = bytes(raw)
        elif name in TEXT_FIELDS:
            values[name] = unescape(raw)
        else:
            values[name] = raw
    return Record(**values)


def candidate(row: dict[str, Any]) -> Candidate:
    """A scored record row as a search candidate: only what ranking reads is converted."""
    at = epoch_us(row["time"] if row["time"] is not None else row["created_at"])
    last = epoch_us(row["last_access_at"])
    return Candidate(str(row["num"]), float(row["score"]), row["weight"], at, row["visits"], last)


# --- audit log and lineage rows ----------------------------------------------------------------------


def escape_optional(value: str | None) -> str | None:
    return None if value is None else escape(value)


def unescape_optional(value: str | None) -> str | None:
    return None if value is None else unescape(value)


def link_from_row(row: dict[str, Any]) -> Link:
    return Link(
        unescape(row["src"]), unescape(row["dst"]), unescape(row["relation"]), to_utc(row["created_at"])
    )


def event_from_row(tenant: str, row: dict[str, Any]) -> Event:
    op = Operation(
        time=to_utc(row["time"]),  # type: ignore[arg-type]
        tenant=tenant,
        actor=unescape_optional(row["actor"]),
        op=unescape(row["op"]),
        ir=row["ir"],
        affected_ids=row["affected_ids"],
        trace_id=unescape_optional(row["trace_id"]),
        workflow_id=unescape_optional(row["workflow_id"]),
        step=row["step"],
        seq=row["op_seq"],
    )
    return Event(
        record_id=unescape(row["record_id"]) if row.get("record_id") is not None else "",
        kind=unescape(row["kind"]) if row.get("kind") is not None else "insert",  # type: ignore[arg-type]
        before=row["before"],
        after=row["after"],
        seq=row.get("seq"),
        operation=op,
    )
