"""The facets an Encode stores (engine/verbs/encode.py `facets_of`): what the Facets model dumps as JSON,
read straight from its fields when it holds only the typed ones (the common case, run per record)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memql.engine.verbs.encode import facets_of
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


@settings(max_examples=300, deadline=None)
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
