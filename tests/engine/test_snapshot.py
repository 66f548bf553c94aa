"""An insert event's image (engine/context.py `snapshot`): every field with a value, nothing else.

`snapshot` runs per record written (engine/bulk.py) and takes the fields by C-level calls; this pins it to
the rule it implements, field by field, over records with every kind of value a field may hold."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.engine.context import snapshot
from memql.ports.record import Record

_NEVER = {"id", "embedding", "path_embeddings"}  # the id is the row's; raw vectors are never audited

# what a field may hold: nothing, empty and non-empty containers, falsy and truthy scalars, instants
_VALUES = st.one_of(
    st.none(),
    st.just([]),
    st.just({}),
    st.lists(st.text(max_size=3), min_size=1, max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), min_size=1, max_size=2),
    st.sampled_from(["", "x", 0, 1, 0.0, 0.5, False, True]),
    st.datetimes(timezones=st.just(UTC)),
)


def _rule(record: Record) -> dict[str, Any]:
    """The rule, spelled out: a field is kept when it holds a value — not None, not an empty list or
    object (a typed fact's `value` is kept even then: an empty list is a value a fact can state)."""
    out = {}
    for f in fields(Record):
        value = getattr(record, f.name)
        if f.name in _NEVER or value is None:
            continue
        if f.name != "value" and isinstance(value, list | dict) and not value:
            continue
        out[f.name] = value
    return out


@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_the_image_holds_every_field_with_a_value_in_field_order(data):
    values = {f.name: data.draw(_VALUES, label=f.name) for f in fields(Record) if f.name not in _NEVER}
    record = Record(id="7", embedding=b"\x00" * 8, path_embeddings=b"\x01" * 8, **values)
    image = snapshot(record)
    expected = _rule(record)
    assert image == expected
    assert list(image) == list(expected)  # the audit JSON keeps the fields' order


def test_a_plain_records_image():
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    record = Record(id="1", tenant="t", text="hello", tags=[], facets={}, weight=0.0, created_at=now)
    image = snapshot(record)
    assert image["text"] == "hello" and image["weight"] == 0.0 and image["created_at"] == now
    assert "tags" not in image and "facets" not in image and "id" not in image and "embedding" not in image
