"""The row decoder's shortcuts give what the plain path gives: a Record equal to Record(...) of the same
values, and JSON columns parsed exactly as json.loads parses them, its errors included."""

import json
import sqlite3
from dataclasses import fields
from datetime import UTC, datetime

import pytest

from memql.ports.record import Record
from memql.store.sqlite import codec


def test_record_has_no_post_init_for_the_decoder_to_skip():
    assert not hasattr(Record, "__post_init__")


def _row(record: Record) -> sqlite3.Row:
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    columns = ["num", *codec.COLUMNS]
    conn.execute(f"CREATE TABLE records ({', '.join(columns)})")
    encoded = codec.encode(record)
    conn.execute(
        f"INSERT INTO records VALUES ({', '.join('?' * len(columns))})",
        [int(record.id), *(encoded[name] for name in codec.COLUMNS)],  # type: ignore[arg-type]
    )
    return conn.execute("SELECT * FROM records").fetchone()


def test_a_decoded_row_equals_the_record_built_by_its_init():
    record = Record(
        id="7",
        tenant="t",
        owner="ann",
        text="piano lesson",
        tags=["music", "ünïcode"],
        facets={"topic": "hobby", "n": 1.5, "big": 2**70},
        keywords=["piano"],
        structured={"a": [1, None, True]},
        read_whitelist=["bob"],
        time=datetime(2026, 3, 1, 12, 30, 0, 123456, tzinfo=UTC),
        created_at=datetime(2026, 3, 2, tzinfo=UTC),
        expire_at=datetime(2027, 1, 1, tzinfo=UTC),
        weight=0.75,
    )
    decoded = codec.decode(_row(record))
    assert decoded == record
    assert type(decoded) is Record
    assert list(decoded.__dict__) == [f.name for f in fields(Record)]  # field order, as __init__ sets them
    assert decoded.tags is not codec.decode(_row(record)).tags  # each decode builds its own values


@pytest.mark.parametrize(
    "text",
    ['["a","b"]', '{"x":{"y":[1,2.5,-0.0,1e400]}}', "NaN", '"\\ud800"', '{"a":1,"a":2}', " [1]", "[1] "],
)
def test_json_columns_parse_as_json_loads_does(text):
    parsed = codec._from_json(text)
    assert json.dumps(parsed) == json.dumps(json.loads(text))


@pytest.mark.parametrize("text", ["[1] x", "", "[1,", "{'a': 1}"])
def test_json_columns_that_are_not_json_raise_as_json_loads_does(text):
    with pytest.raises(json.JSONDecodeError) as ours:
        codec._from_json(text)
    with pytest.raises(json.JSONDecodeError) as theirs:
        json.loads(text)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize(
    "held",
    [
        ("text",),
        ("text", "tags", "kind", "time", "created_at", "weight", "visits", "last_access_at"),
        ("facets", "subject", "lock_until", "read_whitelist"),
    ],
)
def test_a_narrow_read_equals_the_record_built_by_its_init_with_those_fields(held):
    """A read of some columns (a Retrieve's rows) decodes to Record(id, **those fields): the others at
    their defaults, in field order, each record with its own lists and dicts."""
    record = Record(
        id="9",
        text="piano lesson",
        tags=["music"],
        kind="note",
        facets={"subject": "ann", "n": 1},
        subject="ann",
        time=datetime(2026, 3, 1, 12, 30, tzinfo=UTC),
        created_at=datetime(2026, 3, 2, tzinfo=UTC),
        lock_until=datetime(2027, 1, 1, tzinfo=UTC),
        read_whitelist=["bob"],
        weight=0.75,
        visits=3,
        last_access_at=datetime(2026, 3, 3, tzinfo=UTC),
    )
    row = _row(record)
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    names = ["num", *(n for n in codec.COLUMNS if n in held)]
    conn.execute(f"CREATE TABLE r ({', '.join(names)})")
    conn.execute(f"INSERT INTO r VALUES ({', '.join('?' * len(names))})", [row[n] for n in names])
    first, second = codec.decode_all(conn.execute("SELECT * FROM r UNION ALL SELECT * FROM r"))
    expected = Record(id="9", **{name: getattr(record, name) for name in held})
    assert first == expected and second == expected
    assert type(first) is Record
    assert list(first.__dict__) == [f.name for f in fields(Record)]
    for name in ("tags", "facets", "keywords", "payload_meta"):  # held or defaulted, never shared
        assert getattr(first, name) is not getattr(second, name)
