"""A bulk write's audit JSON (codec.dumps_audit, both backends) is the JSON value `dumps` writes: the same
instants in the same UTC text, whatever offset they were given in, and NUL escaped as PostgreSQL needs."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.lang.time import format_instant
from memql.store.postgres import codec as postgres_codec
from memql.store.sqlite import codec as sqlite_codec

IMAGE = {
    "text": 'a "quoted" note\n with\ttabs, 中文 and \U0001f600',
    "tags": ["t1", "t2"],
    "facets": {"topic": "home", "score": 0.25, "nested": {"n": [1, 2.5, None, True]}},
    "weight": 0.5,
    "time": datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=-7, minutes=-30))),
    "created_at": datetime(2026, 6, 1, tzinfo=UTC),
    "updated_at": datetime(2026, 6, 1, 0, 0, 0, 7, tzinfo=UTC),
    "empty": {},
}


def test_sqlite_audit_json_is_the_json_dumps_writes():
    fast, slow = sqlite_codec.dumps_audit(IMAGE), sqlite_codec.dumps(IMAGE)
    assert fast == slow
    assert json.loads(fast)["time"] == "2026-01-02T10:34:05Z"  # the instant in UTC, as dumps writes it
    assert sqlite_codec.dumps_audit({}) == "{}" and sqlite_codec.dumps_audit([]) == "[]"
    assert sqlite_codec.dumps_audit(["1", "2"]) == '["1","2"]'


def test_postgres_audit_json_escapes_nul_as_dumps_does():
    image = {**IMAGE, "text": "before\x00after"}
    assert postgres_codec.dumps_audit(image) == postgres_codec.dumps(image)
    assert "\\u0000" not in postgres_codec.dumps_audit(image)
    assert postgres_codec.dumps_audit(IMAGE) == postgres_codec.dumps(IMAGE)


def _reference(codec, value):
    """dumps_audit as it was written before instants_for_to_json: every top-level instant as its text."""
    if type(value) is dict:
        value = {k: format_instant(v) if type(v) is datetime else v for k, v in value.items()}
    return codec.dumps_audit(value)


zones = st.sampled_from(
    [UTC, timezone(timedelta(0)), timezone(timedelta(hours=8)), timezone(timedelta(hours=-3, minutes=-30))]
)
instants = st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=zones)
leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(), instants)
images = st.dictionaries(st.text(max_size=8), st.one_of(leaves, st.lists(leaves, max_size=3)), max_size=8)


@settings(max_examples=examples(600), deadline=None, database=None)
@given(images)
def test_audit_json_of_images_with_any_instants_is_unchanged(image):
    """Whatever offsets an image's instants hold, the JSON is what converting each to its text gave."""
    for codec in (sqlite_codec, postgres_codec):
        assert codec.dumps_audit(image) == _reference(codec, image)


def test_a_naive_instant_is_refused_as_before():
    for codec in (sqlite_codec, postgres_codec):
        with pytest.raises(ValueError):
            codec.dumps_audit({"time": datetime(2026, 1, 1)})
