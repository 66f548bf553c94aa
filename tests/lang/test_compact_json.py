"""compact_json (lang/encoding.py) writes exactly what json.JSONEncoder writes with the same options: the
record columns, content hashes and identities written with it must not change by a byte."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from memql.lang.encoding import compact_json, json_default


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randint(0, 9 if depth < 3 else 5)
    if kind == 0:
        return rng.choice([None, True, False, float("inf"), float("nan"), b"embedding"])
    if kind == 1:
        return rng.random() * 10 ** rng.randint(-12, 20)  # floats, exponents included
    if kind == 2:
        return rng.randint(-(10**20), 10**20)
    if kind == 3:  # any text: controls, quotes, backslashes, CJK, astral
        return "".join(
            chr(rng.choice([rng.randint(0, 0x7F), rng.randint(0x80, 0xD7FF), 0x1F600])) for _ in range(6)
        )
    if kind == 4:
        return datetime(
            2026, 1, 2, 3, 4, 5, rng.choice([0, 7]), tzinfo=timezone(timedelta(hours=rng.randint(-9, 9)))
        )
    if kind == 5:
        return "plain"
    if kind in (6, 7):
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {
        f"k{rng.randint(0, 30)}{chr(rng.randint(0x20, 0x3000))}": _value(rng, depth + 1) for _ in range(4)
    }


@pytest.mark.parametrize(("sort_keys", "allow_nan"), [(False, True), (True, True), (False, False)])
def test_compact_json_writes_what_the_json_module_writes(sort_keys, allow_nan):
    expected = json.JSONEncoder(
        ensure_ascii=False,
        separators=(",", ":"),
        default=json_default,
        sort_keys=sort_keys,
        allow_nan=allow_nan,
    ).encode
    dumps = compact_json(sort_keys=sort_keys, allow_nan=allow_nan)
    rng = random.Random(20)
    values = [_value(rng) for _ in range(3000)] + [
        "",
        "a\u2028b",
        {"z": 1, "a": [datetime(2026, 1, 1, tzinfo=UTC)]},
    ]
    for value in values:
        try:
            wanted = expected(value)
        except ValueError:  # allow_nan=False: a non-finite number is refused, by both
            with pytest.raises(ValueError):
                dumps(value)
            continue
        assert dumps(value) == wanted, value


def test_compact_json_refuses_what_is_not_json_as_the_json_module_does():
    dumps = compact_json()
    with pytest.raises(TypeError):
        dumps({"x": object()})
    with pytest.raises(TypeError):
        dumps({(1, 2): "tuple key"})
