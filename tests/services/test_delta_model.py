"""The extraction boundary's models (memql.lang.delta): what they accept and refuse, the JSON Schema an LLM
fills (closed, every property required and described), and evidence checked against the message."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from extract_helpers import NOW, extract
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from memql.lang.delta import (
    Evidence,
    FactCandidate,
    MemoryDelta,
    TimeMention,
    Turn,
    Utterance,
    anchor_evidence,
    check_evidence,
)
from memql.lang.facts import parse_fact

TEXT = "My passport deadline is July 15."


def fact(**changes) -> dict:
    base = {
        "subject": "Mira",
        "attribute": "passport.deadline",
        "value": "2026-07-15",
        "valid_from": None,
        "confidence": 0.9,
        "evidence": {"start": 0, "end": len(TEXT) - 1, "quote": TEXT[:-1]},
        "correction": False,
        "category": None,
    }
    return {**base, **changes}


# --- the message ---------------------------------------------------------------------------------------


def test_a_message_needs_an_aware_time_and_keeps_its_zone():
    with pytest.raises(ValidationError, match="UTC offset"):
        Utterance(speaker="Mira", text="hi", time=datetime(2026, 3, 2, 9, 0))
    with pytest.raises(ValidationError, match="UTC offset"):
        Turn(speaker="Mira", text="hi", time=datetime(2026, 3, 2, 9, 0))
    said = Utterance(speaker="Mira", text="hi", time=NOW, recent=(Turn(speaker="assistant", text="hello"),))
    assert said.time.tzinfo is UTC and said.recent[0].time is None
    with pytest.raises(ValidationError):
        Utterance(speaker="  ", text="hi", time=NOW)  # a speaker has a name
    listed = Utterance(speaker="Mira", text="hi", time=NOW, recent=[{"speaker": "Ana", "text": "hey"}])
    assert listed.recent == (Turn(speaker="Ana", text="hey"),)
    shanghai = Utterance.model_validate_json(
        '{"speaker": "小林", "text": "hi", "time": "2026-03-02T09:00:00+08:00"}'
    )
    assert shanghai.time.utcoffset().total_seconds() == 8 * 3600  # the zone is kept: it is the calendar


# --- the delta -----------------------------------------------------------------------------------------


def test_a_fact_validates_and_round_trips_through_json():
    delta = MemoryDelta.model_validate({"facts": [fact(valid_from="2026-03-02T09:00:00+01:00")]})
    (only,) = delta.facts
    assert only.valid_from == datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    again = MemoryDelta.model_validate_json(delta.model_dump_json())
    assert again == delta
    assert json.loads(delta.model_dump_json())["facts"][0]["valid_from"] == "2026-03-02T08:00:00Z"


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"attribute": "Passport Deadline"}, "lower-case dotted"),
        ({"attribute": "passport..deadline"}, "lower-case dotted"),
        ({"attribute": ".deadline"}, "lower-case dotted"),
        ({"value": "   "}, "must not be blank"),
        ({"value": None}, "value"),
        ({"value": {"open": "dict"}}, "value"),
        ({"confidence": 1.5}, "less than or equal to 1"),
        ({"category": "a2p:nonsense"}, "not a standard a2p category"),
        ({"evidence": {"start": 0, "end": 5, "quote": "My"}}, "equal the quote's length"),
        ({"evidence": {"start": -1, "end": 1, "quote": "My"}}, "greater than or equal to 0"),
        ({"mood": "happy"}, "Extra inputs are not permitted"),
    ],
)
def test_a_bad_fact_is_refused(changes, words):
    with pytest.raises(ValidationError, match=words):
        MemoryDelta.model_validate({"facts": [fact(**changes)]})


@pytest.mark.parametrize(
    "attribute", ["residence", "passport.deadline", "favorite.color", "血型", "allergy.花生"]
)
def test_attribute_keys_in_any_script(attribute):
    assert FactCandidate.model_validate(fact(attribute=attribute)).attribute == attribute


def test_values_are_json_scalars_of_their_type():
    for value in ("2026-07-15", 34, 2.5, True):
        (only,) = MemoryDelta.model_validate({"facts": [fact(value=value)]}).facts
        assert only.value == value and type(only.value) is type(value)


def test_time_spans_are_ordered_and_instants_are_utc():
    evidence = {"start": 0, "end": 4, "quote": "July"}
    with pytest.raises(ValidationError, match="ends before it starts"):
        TimeMention.model_validate(
            {
                "start": "2026-07-16T00:00:00Z",
                "end": "2026-07-15T00:00:00Z",
                "granularity": "day",
                "evidence": evidence,
            }
        )
    with pytest.raises(ValidationError, match="granularity"):
        TimeMention.model_validate(
            {
                "start": "2026-07-15T00:00:00Z",
                "end": "2026-07-16T00:00:00Z",
                "granularity": "fortnight",
                "evidence": evidence,
            }
        )


def test_salience_and_sensitivity_have_their_ranges():
    with pytest.raises(ValidationError):
        MemoryDelta(salience=1.2)
    with pytest.raises(ValidationError):
        MemoryDelta(sensitivity="secret")
    with pytest.raises(ValidationError):
        MemoryDelta(memory_type="working")
    assert MemoryDelta().is_empty() and MemoryDelta().memory_type == "episodic"


# --- the JSON Schema an LLM fills ----------------------------------------------------------------------


def _objects(schema: dict):
    yield schema
    yield from schema.get("$defs", {}).values()


def test_the_schema_is_strict_mode_friendly():
    schema = MemoryDelta.model_json_schema()
    Draft202012Validator.check_schema(schema)
    for obj in _objects(schema):
        if obj.get("type") != "object":
            continue
        assert obj["additionalProperties"] is False, obj["title"]
        assert set(obj["required"]) == set(obj["properties"]), obj["title"]
        for name, prop in obj["properties"].items():
            assert prop.get("description"), f"{obj['title']}.{name} is described"
            assert "default" not in prop
    text = json.dumps(schema)
    assert "diagnostics" not in text  # the extractor's own report is not the model's to fill
    assert '"additionalProperties": true' not in text


def test_the_rule_extractors_delta_fills_the_same_schema():
    validator = Draft202012Validator(MemoryDelta.model_json_schema())
    for text in (
        "My sister Ana now lives in Porto and I need to call her next Friday.",
        "我上个月搬到苏州了，下周五要交报告。",
        "We decided to go with the blue logo.",
    ):
        delta = extract(text)
        dumped = json.loads(delta.model_dump_json(exclude={"diagnostics"}))
        assert sorted(e.message for e in validator.iter_errors(dumped)) == []
        assert MemoryDelta.model_validate_json(json.dumps(dumped)) == delta


# --- evidence against the message ----------------------------------------------------------------------


def test_check_evidence_names_what_does_not_quote_the_text():
    good = MemoryDelta.model_validate({"facts": [fact()]})
    assert check_evidence(good, TEXT) == []
    assert check_evidence(good, "Something else entirely, and longer than the quote.") == [
        "/facts/0/evidence: 'My passport deadline is July 15' is not the text at [0, 31)"
    ]


def test_anchor_evidence_moves_miscounted_offsets_onto_the_quote():
    text = "Hi! " + TEXT
    miscounted = MemoryDelta.model_validate(
        {"facts": [fact(evidence={"start": 2, "end": 9, "quote": "July 15"})]}
    )
    anchored, problems = anchor_evidence(miscounted, text)
    assert problems == []
    (only,) = anchored.facts
    assert (only.evidence.start, only.evidence.end) == (text.index("July 15"), text.index("July 15") + 7)
    assert check_evidence(anchored, text) == []


def test_anchor_evidence_refuses_invented_words():
    invented = MemoryDelta.model_validate(
        {"facts": [fact(evidence={"start": 0, "end": 7, "quote": "June 30"})]}
    )
    same, problems = anchor_evidence(invented, TEXT)
    assert same is invented
    assert problems == ["/facts/0/evidence: 'June 30' does not occur in the message"]


def test_a_fact_candidate_is_the_typed_fact_payload_an_encode_takes():
    (candidate,) = extract("We moved to Lisbon last month.").facts
    payload = candidate.structured(source="msg-7")
    assert payload == {
        "subject": "Mira",
        "attribute": "residence",
        "value": "Lisbon",
        "valid_from": "2026-02-01T00:00:00Z",
        "source": "msg-7",
    }
    parsed = parse_fact(payload)
    assert (parsed.subject, parsed.attribute, parsed.value, parsed.source) == (
        "Mira",
        "residence",
        "Lisbon",
        "msg-7",
    )


def test_evidence_model_alone():
    assert Evidence(start=3, end=5, quote="ab").quote == "ab"
    with pytest.raises(ValidationError):
        Evidence(start=3, end=5, quote="")
