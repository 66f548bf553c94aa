"""Rows <-> Records: instants as INTEGER microseconds (UTC), JSON-valued fields as JSON text."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import json.scanner
import operator
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic_core import to_json

from memql.lang.encoding import compact_json, instants_for_to_json, json_default
from memql.ports.record import INSTANT_FIELDS, JSON_FIELDS, RECORD_FIELDS, Record
from memql.ports.store import Candidate, epoch_us

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
COLUMNS: tuple[str, ...] = RECORD_FIELDS[1:]  # every field but the first, `id` (the row's `num`)


to_us = epoch_us  # instants are stored as the port's microseconds since the epoch


def from_us(value: int | None) -> datetime | None:
    if value is None:
        return None
    return _EPOCH + timedelta(0, 0, value)  # positional: half the cost of microseconds=value


# one encoder for every write: json.dumps with options builds a new one per call
_dumps = compact_json()


def dumps(value: Any) -> str:
    if not value and type(value) in (list, dict):  # most JSON columns and audit images are empty
        return "[]" if type(value) is list else "{}"
    return _dumps(value)


def dumps_audit(value: Any) -> str:
    """`dumps` of an audit entry's JSON (an IR, an event's image) in a bulk write, by pydantic-core's
    serializer at a fifth of the cost: the same JSON value, instants (an image's fields) in the same
    UTC text; a float may be spelled differently (1e-7 for 1e-07), which no query compares as text."""
    if not value and type(value) in (list, dict):
        return "[]" if type(value) is list else "{}"
    if type(value) is dict:
        value = instants_for_to_json(value)
    return to_json(value, fallback=json_default).decode()


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


_COLUMN_VALUES = operator.itemgetter(*COLUMNS)  # a record's __dict__ -> its column values, in order
_INSTANT_AT = tuple(i for i, name in enumerate(COLUMNS) if name in INSTANT_FIELDS)
_JSON_AT = tuple(i for i, name in enumerate(COLUMNS) if name in JSON_FIELDS)
_NONES = (None,) * len(COLUMNS)


def encode_present(record: Record) -> tuple[tuple[bool, ...], list[Any]]:
    """A record's columns as a bulk insert binds them: which columns are NULL (in COLUMNS' order) and
    the values of the others, in order (see store/sqlite/bulk.py). Runs per record of a bulk write:
    the values are taken and sorted out by C-level calls, only the instants and JSON are converted."""
    values = list(_COLUMN_VALUES(record.__dict__))
    for i in _INSTANT_AT:
        if values[i] is not None:
            values[i] = to_us(values[i])
    for i in _JSON_AT:
        if values[i] is not None:
            values[i] = dumps(values[i])
    nulls = tuple(map(operator.is_, values, _NONES))
    return nulls, list(itertools.compress(values, map(operator.not_, nulls)))


_EMPTY_JSON = {"[]": list, "{}": dict}  # most JSON columns hold one of these: no parse needed
# json.loads' own scanner, called directly: what json.loads does with text that has no whitespace around
# the value (memql writes none), without its two regex matches per call
_scan_json = json.scanner.make_scanner(json.JSONDecoder())


def _from_json(raw: Any) -> Any:
    if type(raw) is str:
        empty = _EMPTY_JSON.get(raw)
        if empty is not None:
            return empty()
        try:
            value, end = _scan_json(raw, 0)
        except StopIteration:
            return json.loads(raw)  # (leading whitespace, or not JSON: json.loads' answer or error)
        if end == len(raw):
            return value
    return json.loads(raw)  # (trailing text, or bytes: json.loads' answer or error)


_CONVERT = {
    name: from_us if name in INSTANT_FIELDS else _from_json
    for name in COLUMNS
    if name in INSTANT_FIELDS | JSON_FIELDS
}


# what _plan gives for rows of some columns: (the record number's column, a getter of the record fields
# the row holds, which of those are converted and by what, and for a row of only some fields (a narrow
# read) their names, the other fields' defaults and the makers of their defaults built per record)
Plan = tuple[
    int,
    Any,
    tuple[tuple[int, Any], ...],
    tuple[tuple[str, ...], dict[str, Any], tuple[tuple[str, Any], ...]] | None,
]


@functools.lru_cache(maxsize=64)
def _plan(keys: tuple[str, ...]) -> Plan:
    """For rows of these columns: where the record number is, a getter of the record fields it holds (in
    the Record's field order, after `id`), which of those are converted, by what, and for a row holding
    only some fields, what the others are (None: every field; once per query shape: a sqlite3.Row looks
    each name up by scanning its columns)."""
    at = {key: i for i, key in enumerate(keys)}
    held = tuple(name for name in COLUMNS if name in at)
    converted = tuple((j, _CONVERT[name]) for j, name in enumerate(held) if name in _CONVERT)
    where = [at[name] for name in held]
    # (itemgetter of one index returns the value, not a 1-tuple, and of none is an error)
    fields_of = operator.itemgetter(*where) if len(where) > 1 else lambda raw: tuple(raw[i] for i in where)
    return at["num"], fields_of, converted, None if held == COLUMNS else _narrow(held)


def _narrow(held: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, Any], tuple[tuple[str, Any], ...]]:
    """A narrow read's fields, a Record's fields in order with the defaults of those it does not hold
    (the held ones and `id` are placeholders), and the default factories of those it does not hold."""
    template: dict[str, Any] = {}
    made: list[tuple[str, Any]] = []
    for f in dataclasses.fields(Record):
        template[f.name] = None if f.name in held or f.default is dataclasses.MISSING else f.default
        if f.name not in held and f.default_factory is not dataclasses.MISSING:
            made.append((f.name, f.default_factory))
    return held, template, tuple(made)


def decode(row: sqlite3.Row) -> Record:
    return _decode(row, _plan(tuple(row.keys())))


def decode_all(rows: Iterable[sqlite3.Row]) -> list[Record]:
    """`decode` of the rows of one query: its plan is looked up once (by 64 column names), not per row."""
    plan = None
    out = []
    for row in rows:
        if plan is None:
            plan = _plan(tuple(row.keys()))
        out.append(_decode(row, plan))
    return out


# Record has no __post_init__: its __init__ would only set the attributes one by one, in field order (the
# fields not given to their defaults), which filling __dict__ in that order does at a fraction of the cost
# (a search decodes every record it returns; tests/store/test_sqlite_codec.py pins the two as equal)
_new_record = Record.__new__


def _decode(row: sqlite3.Row, plan: Plan) -> Record:
    num, fields_of, converted, partial = plan
    raw = tuple(row)
    values = list(fields_of(raw))
    for j, convert in converted:
        if values[j] is not None:
            values[j] = convert(values[j])
    record = _new_record(Record)
    if partial is not None:  # some fields read (a narrow read): the others take the Record's defaults
        held, template, made = partial
        filled = record.__dict__
        filled.update(template)
        filled["id"] = str(raw[num])
        filled.update(zip(held, values, strict=True))
        for name, make in made:
            filled[name] = make()
        return record
    record.__dict__.update(zip(RECORD_FIELDS, (str(raw[num]), *values), strict=True))
    return record


def narrow_columns(fields: frozenset[str]) -> str:
    """The SELECT list of a read of `fields` (Record field names) and the record number."""
    return ", ".join(["r.num", *(f"r.{name}" for name in COLUMNS if name in fields)])


def candidate(row: Sequence[Any], score: float) -> Candidate:
    """A row of query.CANDIDATE_COLUMNS (num, weight, at, visits, last_access_at) as a search candidate."""
    return _new_tuple(Candidate, (str(row[0]), score, row[1], row[2], row[3], row[4]))


def candidates(scored: Iterable[tuple[Any, float, Sequence[Any]]]) -> list[Candidate]:
    """`candidate` of each (record number, score, row) of a search, in order."""
    # instants: stored as microseconds. tuple.__new__ builds the NamedTuple in C (its own __new__ and
    # `_make` are Python functions: a search builds a hundred candidates)
    return [
        _new_tuple(Candidate, (str(row[0]), score, row[1], row[2], row[3], row[4]))
        for _, score, row in scored
    ]


_new_tuple = tuple.__new__
