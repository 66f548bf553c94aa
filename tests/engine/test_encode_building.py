"""What an Encode builds per record, by shortcuts for the common case (engine/verbs/encode.py), pinned to
what they stand for: the facets (the Facets model's JSON, read from its fields) and the content hash
(SHA-256 of the canonical JSON of text, URL and structured payload, spelled out for text alone)."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.engine.verbs.encode import content_hash, facets_of
from memql.lang.ops import VERB_MODELS

_NAME = st.text(min_size=1, max_size=8).filter(lambda s: s.strip() and not any(ord(c) < 32 for c in s))
_INSTANT = st.sampled_from(
    ["2025-01-01T00:00:00Z", "2025-06-30T23:59:59.250+02:00", "1999-12-31T10:00:00-05:30"]
)
_FACETS = st.fixed_dictionaries(
    {},
    optional={
        "subject": _NAME,
        "time": _INSTANT,
        "location": _NAME,
        "topic": _NAME,
        "mood": st.one_of(st.none(), st.integers(), _NAME, st.lists(st.integers(), max_size=2)),
    },
)


@settings(max_examples=examples(300), deadline=None)
@given(_FACETS, st.one_of(st.none(), _NAME))
def test_the_stored_facets_are_the_models_json(facets, topic):
    args: dict = {"payload": {"text": "x"}, "facets": facets}
    if topic is not None:
        args["topic"] = topic  # the shorthand beside facets: it wins
    ir = VERB_MODELS["Encode"].model_validate({"op": "Encode", "stage": "ENC", "args": args})
    expected = ir.args.facets.model_dump(mode="json", exclude_none=True)
    if topic is not None:
        expected["topic"] = ir.args.topic  # as validated (trimmed)
    got = facets_of(ir.args)
    assert got == expected and list(got) == list(expected)
    if facets.get("time"):
        assert got["time"].endswith("Z")  # an instant is stored as canonical UTC text


def _canonical_hash(text, url, structured) -> str:
    """The content hash's definition: sorted keys, compact, UTF-8, whitespace runs folded to a space."""
    body = {"text": " ".join(text.split()) if text else None, "url": url, "structured": structured}
    return hashlib.sha256(
        json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    ).hexdigest()


_TEXT = st.one_of(
    st.none(), st.just(""), st.text(max_size=40), st.sampled_from([" a\t b\n", '"q" \\ é 机器'])
)


@settings(max_examples=examples(500), deadline=None)
@given(
    _TEXT,
    st.one_of(st.none(), st.just("https://example.com/a?b=1")),
    st.one_of(st.none(), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)),
)
def test_the_content_hash_is_the_hash_of_the_canonical_json(text, url, structured):
    assert content_hash(text, url, structured) == _canonical_hash(text, url, structured)


def test_the_content_hash_of_a_known_text_is_stable():
    """A stored record's hash must not change between versions: duplicates are found by it."""
    expected = hashlib.sha256(b'{"structured":null,"text":"pay the rent","url":null}').hexdigest()
    assert content_hash("  pay the\n rent ", None, None) == expected
