"""Encode `interpret` and Label `infer` with an LLM configured, against a real OpenAI-compatible HTTP server
on 127.0.0.1 (tests/chat_server.py): the LLM extractor is the one used, with MemoryDelta's schema, one
call per record at most; an invalid reply is not retried and writes nothing extra — the Encode still
stores the text, with a warning; a refused Label makes no call."""

from __future__ import annotations

import json

import pytest

from memql.lang.delta import MemoryDelta
from memql.services.llm import OpenAIChat

TEXT = "Lena moved to Porto; the lease review is on 2026-04-02."


def ev(quote: str, text: str = TEXT) -> dict:
    start = text.index(quote)
    return {"start": start, "end": start + len(quote), "quote": quote}


def reply(**changes) -> str:
    delta = {
        "facts": [
            {
                "subject": "Lena",
                "attribute": "residence",
                "value": "Porto",
                "valid_from": None,
                "confidence": 0.9,
                "evidence": ev("Lena moved to Porto"),
                "correction": False,
                "category": "a2p:context",
            }
        ],
        "entities": [
            {"text": "Lena", "kind": "person", "evidence": ev("Lena")},
            {"text": "Porto", "kind": "place", "evidence": {"start": 0, "end": 5, "quote": "Porto"}},
        ],
        "times": [
            {
                "start": "2026-04-02T00:00:00Z",
                "end": "2026-04-03T00:00:00Z",
                "granularity": "day",
                "evidence": ev("2026-04-02"),
            }
        ],
        "tasks": [
            {
                "text": "lease review",
                "owner": None,
                "due": "2026-04-02T00:00:00Z",
                "evidence": ev("the lease review is on 2026-04-02"),
            }
        ],
        "decisions": [],
        "memory_type": "semantic",
        "category": "a2p:context",
        "sensitivity": "standard",
        "salience": 0.6,
    }
    delta.update(changes)
    return json.dumps(delta)


@pytest.fixture
def llm(provider):
    client = OpenAIChat(provider.url, "test-chat", timeout=2.0, max_retries=0, backoff=0.01)
    yield client
    client.close()


def test_interpret_uses_the_configured_llm_once(memory, db, provider, llm):
    m = memory(llm=llm)
    provider.replies = [reply()]
    result = m.encode(TEXT, interpret=True)
    assert result.success and result.stats.llm_calls == 1
    (request,) = provider.requests
    schema = request["body"]["response_format"]["json_schema"]["schema"]
    assert schema == MemoryDelta.model_json_schema()
    assert json.loads(request["body"]["messages"][-1]["content"])["text"] == TEXT
    r = db.record(m, result.data["id"])
    # the model's miscounted Porto offsets are moved onto its words
    assert r.facets["entities"][1] == {"text": "Porto", "kind": "place", "evidence": ev("Porto")}
    assert r.facets["tasks"][0]["evidence"] == ev("the lease review is on 2026-04-02")
    assert r.time.isoformat() == "2026-04-02T00:00:00+00:00"
    assert (r.memory_type, r.category) == ("semantic", "a2p:context")
    assert r.facets["interpreted"]["by"] == "llm"
    assert r.attribute is None  # no typed fact from interpret
    plain = m.encode("no interpretation asked", interpret=False)
    assert plain.stats.llm_calls == 0 and len(provider.requests) == 1


@pytest.mark.parametrize(
    "bad",
    [
        "not json at all",
        reply(memory_type="gossip"),
        reply(
            entities=[
                {"text": "Lisbon", "kind": "place", "evidence": {"start": 0, "end": 6, "quote": "Lisbon"}}
            ]
        ),
    ],
    ids=["not-json", "invalid-field", "quote-not-in-text"],
)
def test_an_invalid_reply_stores_the_text_and_nothing_it_said(memory, db, provider, llm, warned, bad):
    m = memory(llm=llm)
    provider.replies = [bad, reply()]  # the second, valid, reply is never asked for
    result = m.encode(TEXT, interpret=True)
    assert result.success and result.stats.llm_calls == 1 and len(provider.requests) == 1
    assert warned(result) == ["extract.invalid_reply"]
    assert result.warnings[0].path == "/args/interpret"
    r = db.record(m, result.data["id"])
    assert r.text == TEXT and r.facets == {} and r.time is None and r.memory_type is None
    assert db.ids(m) == [result.data["id"]]


def test_label_infer_makes_one_call_per_record_and_none_for_a_refused_one(memory, db, provider, llm, rules):
    m = memory(llm=llm)
    m.encode(TEXT)
    m.encode("Nothing much.")
    m.encode(TEXT + " Locked.")
    m.lock("3", mode="read_only")
    provider.replies = [reply(), reply(facts=[], entities=[], times=[], tasks=[], category=None)]
    result = m.label(["1", "2"], infer=True)
    assert result.success and result.stats.llm_calls == 2 and len(provider.requests) == 2
    assert db.record(m, "1").tags == ["lena", "porto", "residence", "context"]
    assert db.record(m, "2").tags == []
    refused = m.label("3", infer=True)
    assert rules(refused) == ["governance.locked"] and refused.stats.llm_calls == 0
    assert len(provider.requests) == 2


def test_the_rules_can_be_chosen_over_a_configured_llm(memory, db, provider, llm):
    m = memory(llm=llm, extractor="rules")
    result = m.encode("Lena works at Google.", interpret=True)
    assert result.success and result.stats.llm_calls == 0 and provider.requests == []
    assert db.record(m, result.data["id"]).facets["interpreted"]["by"] == "rules"
