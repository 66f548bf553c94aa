"""Formation with the LLM extractor in a conversation, against a real OpenAI-compatible server on
127.0.0.1 (tests/chat_server.py): at most one call per message on the write path when the replies are
valid, the SGAM passport example formed from the model's deltas, and a reply invalid twice writes no fact
(the message is still stored), on both backends."""

from __future__ import annotations

import json

import pytest

from memql.services.extract import LLMExtractor
from memql.services.llm import OpenAIChat

FIRST = "My passport deadline is July 15."
CORRECTION = "Correction: it's June 30."


def delta(quote: str, text: str, value: str, correction: bool = False) -> str:
    start = text.index(quote)
    fact = {
        "subject": "mira",
        "attribute": "passport.deadline",
        "value": value,
        "valid_from": None,
        "confidence": 0.9,
        "evidence": {"start": start, "end": start + len(quote), "quote": quote},
        "correction": correction,
        "category": None,
    }
    return json.dumps(
        {
            "facts": [fact],
            "entities": [],
            "times": [],
            "tasks": [],
            "decisions": [],
            "memory_type": "semantic",
            "category": None,
            "sensitivity": "standard",
            "salience": 0.6,
        }
    )


@pytest.fixture
def conversation(provider, memory):
    llm = OpenAIChat(provider.url, "test-chat", timeout=2.0, backoff=0.01, max_retries=0)
    m = memory(actor="mira", embedder="none")
    yield m, m.conversation(user="mira", agent="assistant", strategy="flat", extractor=LLMExtractor(llm))
    llm.close()


def test_one_call_per_message_and_the_correction_leads(provider, conversation):
    m, conv = conversation
    provider.replies = [
        delta("July 15", FIRST, "2026-07-15"),
        json.dumps({"facts": [], "memory_type": "episodic", "salience": 0.1}),
        delta("June 30", CORRECTION, "2026-06-30", correction=True),
    ]
    first = conv.add_message("user", FIRST, time="2026-03-02T09:00:00Z")
    conv.add_message("assistant", "Noted.", time="2026-03-02T09:00:05Z")
    fix = conv.add_message("user", CORRECTION, time="2026-03-20T09:00:00Z")
    assert len(provider.requests) == 3  # one call per message, none on the read path below
    assert first.fact_ids and fix.fact_ids
    history = m.facts.history("mira", "passport.deadline").facts
    assert [f.value for f in history] == ["2026-07-15", "2026-06-30"] and history[-1].valid_to is None
    context = conv.context("When is my passport due?", budget_tokens=300)
    assert "June 30" in context.pieces[0].text and context.pieces[0].source_ids == ("M3",)
    assert len(provider.requests) == 3
    past = conv.context("When was my passport due?", budget_tokens=300, as_of="2026-03-10T00:00:00Z")
    assert "July 15" in past.pieces[0].text


def test_a_reply_invalid_twice_writes_no_fact(provider, conversation, db):
    m, conv = conversation
    bad = json.dumps({"facts": [{"subject": "mira", "attribute": "passport.deadline"}]})  # no value
    provider.replies = [bad, bad]
    said = conv.add_message("user", FIRST, time="2026-03-02T09:00:00Z")
    assert len(provider.requests) == 2  # the one retry an invalid reply gets
    assert said.fact_ids == ()
    assert m.facts.history("mira", "passport.deadline").facts == []
    assert [r.kind for r in db.records(m).values()] == ["turn"]  # the message alone


def test_a_server_forms_a_conversations_facts_with_its_own_extractor(provider, memory):
    """What REST's /v1/messages and MCP's memory_add_messages run: the session's extractor (here the LLM
    one a server with a model has) forms the facts, as remember's are formed — not the offline rules."""
    from memql.cognition.conversation.served import served_messages

    llm = OpenAIChat(provider.url, "test-chat", timeout=2.0, backoff=0.01, max_retries=0)
    m = memory(actor="mira", embedder="none", extractor=LLMExtractor(llm))
    provider.replies = [delta("July 15", FIRST, "2026-07-15")]
    stored = served_messages(m.executor, [{"role": "user", "text": FIRST, "time": "2026-03-02T09:00:00Z"}])
    assert len(provider.requests) == 1 and stored["messages"][0]["fact_ids"]
    assert [f.value for f in m.facts.history("mira", "passport.deadline").facts] == ["2026-07-15"]
    llm.close()
