"""The LLM extractor against a real OpenAI-compatible HTTP server on 127.0.0.1 (tests/chat_server.py):
one call per message with MemoryDelta's schema as the response format, a reply validated and its evidence
anchored, an invalid reply retried once and then dropped whole with a diagnostic."""

from __future__ import annotations

import json

import pytest
from extract_helpers import NOW, extract, message

from memql.lang.delta import MemoryDelta, check_evidence
from memql.services.extract import LLMExtractor, RuleExtractor, make_extractor
from memql.services.llm import OpenAIChat

TEXT = "Correction: my passport is due June 30, not July 15."
RECENT = ("My passport deadline is July 15.",)


def reply(**changes) -> str:
    """A model's delta for TEXT: right words, offsets miscounted, a key of its own, no valid_from."""
    delta = {
        "facts": [
            {
                "subject": "Mira",
                "attribute": "passport.due_date",
                "value": "2026-06-30",
                "valid_from": None,
                "confidence": 0.85,
                "evidence": {"start": 0, "end": 30, "quote": "my passport is due June 30"[:30]},
                "correction": True,
                "category": None,
            }
        ],
        "entities": [],
        "times": [
            {
                "start": "2026-06-30T00:00:00Z",
                "end": "2026-07-01T00:00:00Z",
                "granularity": "day",
                "evidence": {"start": 0, "end": 7, "quote": "June 30"},
            }
        ],
        "tasks": [],
        "decisions": [],
        "memory_type": "semantic",
        "category": "a2p:context",
        "sensitivity": "standard",
        "salience": 0.7,
    }
    delta["facts"][0]["evidence"]["end"] = len(delta["facts"][0]["evidence"]["quote"])
    delta.update(changes)
    return json.dumps(delta)


@pytest.fixture
def extractor(provider):
    llm = OpenAIChat(provider.url, "test-chat", timeout=2.0, backoff=0.01, max_retries=0)
    yield LLMExtractor(llm)
    llm.close()


def test_one_call_with_the_schema_and_a_validated_anchored_delta(provider, extractor):
    provider.replies = [reply()]
    delta = extractor.extract(message(TEXT, RECENT))
    (req,) = provider.requests
    body = req["body"]
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["name"] == "memql_memory_delta"
    assert body["response_format"]["json_schema"]["schema"] == MemoryDelta.model_json_schema()
    said = json.loads(body["messages"][-1]["content"])
    assert said["text"] == TEXT and said["speaker"] == "Mira" and said["weekday"] == "Monday"
    assert said["time"] == NOW.isoformat() and said["recent_turns"][0]["text"] == RECENT[0]
    assert extractor.llm.usage.calls == 1
    (fact,) = delta.facts
    assert (fact.subject, fact.attribute, fact.value, fact.correction) == (
        "Mira",
        "passport.deadline",  # the model's passport.due_date, in the vocabulary's terms
        "2026-06-30",
        True,
    )
    assert fact.valid_from == NOW  # null: the message's time
    assert fact.category == "a2p:context"
    assert check_evidence(delta, TEXT) == []  # offsets moved onto the quoted words
    assert delta.times[0].evidence.start == TEXT.index("June 30")
    assert delta.diagnostics == ()


def test_an_invalid_reply_is_retried_once_with_its_problems(provider, extractor):
    provider.replies = ["Sure! Here is the JSON you asked for.", reply()]
    delta = extractor.extract(message(TEXT, RECENT))
    assert len(provider.requests) == 2
    repair = provider.requests[1]["body"]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "Sure! Here is the JSON you asked for."}
    assert "not JSON" in repair[-1]["content"]
    assert [f.value for f in delta.facts] == ["2026-06-30"] and delta.diagnostics == ()


@pytest.mark.parametrize(
    "bad",
    [
        "[]",
        reply(memory_type="working"),
        reply(salience=3),
        reply(extra_field=1),
        reply(diagnostics=[]),
        # a fact quoting words the message does not hold: invented, so the whole reply goes
        reply(
            facts=[
                json.loads(reply())["facts"][0],
                {**json.loads(reply())["facts"][0], "evidence": {"start": 0, "end": 7, "quote": "Aug 1st"}},
            ]
        ),
    ],
)
def test_a_reply_invalid_twice_is_dropped_whole_with_a_diagnostic(provider, extractor, bad):
    provider.replies = [bad, bad]
    delta = extractor.extract(message(TEXT, RECENT))
    assert len(provider.requests) == 2  # one retry, no more
    assert delta.is_empty() and delta.facts == []  # never a part of a reply
    (diagnostic,) = delta.diagnostics
    assert diagnostic.rule == "extract.invalid_reply" and diagnostic.severity == "error"
    assert "after 2 attempt(s)" in diagnostic.message


def test_a_category_without_its_namespace_is_read_as_the_a2p_one(provider, extractor):
    fact = {**json.loads(reply())["facts"][0], "category": "context"}
    provider.replies = [reply(facts=[fact], category="preferences")]
    delta = extractor.extract(message(TEXT, RECENT))
    assert (delta.category, delta.facts[0].category) == ("a2p:preferences", "a2p:context")
    assert len(provider.requests) == 1


def test_no_retry_when_asked_for_none(provider):
    llm = OpenAIChat(provider.url, "test-chat", timeout=2.0, max_retries=0)
    provider.replies = ["{}", reply()]
    delta = LLMExtractor(llm, retries=0).extract(message("hello", ()))
    assert len(provider.requests) == 1
    assert delta.is_empty() and delta.diagnostics == ()  # {} is a valid empty delta
    llm.close()


def test_a_server_error_is_an_empty_delta_with_a_diagnostic(provider, extractor):
    provider.script = ["500"]
    delta = extractor.extract(message(TEXT, RECENT))
    assert delta.is_empty()
    assert [d.rule for d in delta.diagnostics] == ["extract.llm_error"]


def test_make_extractor_by_name(provider):
    assert isinstance(make_extractor("rules"), RuleExtractor)
    llm = OpenAIChat(provider.url, "test-chat")
    made = make_extractor("llm", llm=llm)
    assert isinstance(made, LLMExtractor) and made.llm is llm
    with pytest.raises(ValueError, match="rules, llm"):
        make_extractor("regex")
    llm.close()


def test_no_llm_configured(provider):
    delta = LLMExtractor().extract(message(TEXT))  # the provider fixture clears MEMQL_LLM_*
    assert delta.is_empty() and [d.rule for d in delta.diagnostics] == ["extract.no_llm"]
    assert provider.requests == []


def test_the_llm_path_fills_the_same_delta_as_the_rules(provider, extractor):
    text = "my sister Ana now lives in Porto and I need to call her next Friday."
    by_rules = extract(text)
    provider.replies = [by_rules.model_dump_json(exclude={"diagnostics"})]
    assert extractor.extract(message(text)) == by_rules


def test_a_server_without_json_schema_gets_the_schema_in_the_prompt(provider, extractor):
    provider.reject_formats = {"json_schema"}
    provider.replies = [reply()]
    delta = extractor.extract(message(TEXT, RECENT))
    assert [f.attribute for f in delta.facts] == ["passport.deadline"]
    last = provider.requests[-1]["body"]
    assert last["response_format"] == {"type": "json_object"}
    assert "JSON Schema" in last["messages"][0]["content"]
    assert extractor.llm.usage.calls == 1  # a rejected request is not a call


@pytest.mark.parametrize(
    "model_key, key",
    [
        ("passport.due_date", "passport.deadline"),
        ("residence", "residence"),
        ("home_city", "residence"),
        ("favorite.color", "favorite.color"),
        ("relation.sister_of", "relation.sister_of"),
        ("blood_pressure", "blood_pressure"),
        ("Passport Deadline", "passport.deadline"),  # words, not a key: set right before validation
        ("lives in", "residence"),
    ],
)
def test_model_keys_pass_through_the_vocabulary(provider, extractor, model_key, key):
    fact = {**json.loads(reply())["facts"][0], "attribute": model_key}
    provider.replies = [reply(facts=[fact])]
    (got,) = extractor.extract(message(TEXT, RECENT)).facts
    assert got.attribute == key


def test_a_fact_said_in_a_recent_turn_quotes_that_turn(provider, extractor):
    """The value a correction replaces, stated by a recent turn (said_in its index): its evidence is
    anchored in that turn's words; an index that names no turn makes the reply invalid."""
    earlier = {
        **json.loads(reply())["facts"][0],
        "value": "2026-07-15",
        "correction": False,
        "said_in": 0,
        "evidence": {"start": 0, "end": 28, "quote": "passport deadline is July 15"},  # offsets miscounted
    }
    provider.replies = [reply(facts=[earlier, json.loads(reply())["facts"][0]])]
    said = message(TEXT, RECENT)
    delta = extractor.extract(said)
    rendered = json.loads(provider.requests[0]["body"]["messages"][-1]["content"])
    assert rendered["recent_turns"][0]["index"] == 0
    assert [(f.value, f.said_in) for f in delta.facts] == [("2026-07-15", 0), ("2026-06-30", None)]
    assert delta.facts[0].evidence.start == RECENT[0].index("passport deadline")
    assert check_evidence(delta, TEXT, said.recent) == []
    provider.replies = [reply(facts=[{**earlier, "said_in": 5}])] * 2
    dropped = extractor.extract(message(TEXT, RECENT))
    assert dropped.facts == [] and dropped.diagnostics[0].rule == "extract.invalid_reply"
