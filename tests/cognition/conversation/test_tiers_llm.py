"""The tiers with an LLM (the real OpenAIChat client against the local OpenAI-compatible server): one call
per page reaching MTM and one per promotion, within the write path's budget of one call per message, and
what the model returns is what is stored. A reply that is not the JSON asked for falls back to the offline
rules (no half-applied move)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from memql.bench.conversation import encode_message, synthetic_turns
from memql.cognition.conversation.tiers import Tiers, TiersConfig
from memql.cognition.conversation.tiers.llm import STATIC_FIELDS, TRAIT_DIMENSIONS
from memql.services.llm import OpenAIChat

CONV = "mira/assistant"


@pytest.fixture
def llm(provider):
    client = OpenAIChat(provider.url, "test-chat", timeout=2.0, max_retries=1, backoff=0.01)
    yield client
    client.close()


def answer(body: dict) -> str:
    """The model's side: a structured reply for whichever of the two requests this is."""
    prompt = body["messages"][-1]["content"]
    if "continuous" in json.dumps(body.get("response_format", {})):
        new_page = prompt.split("NEW page:\n", 1)[1].split("\n\nSEGMENT", 1)[0]
        return json.dumps({"continuous": True, "summary": f"LLM: {new_page[:60]}", "keywords": ["hobby"]})
    return json.dumps(
        {
            "profile": "Mira is an active person with many hobbies.",
            "static": {**dict.fromkeys(STATIC_FIELDS), "name": "Mira", "occupation": "teacher"},
            "trait_dimensions": {**dict.fromkeys(TRAIT_DIMENSIONS), "interests": "sport, gardening"},
            "knowledge": ["Mira practises a hobby every week."],
            "user_traits": ["curious", "active"],
            "agent_traits": ["encouraging"],
        }
    )


def run(m, tiers, clock, turns: int) -> int:
    messages = 0
    for i, turn in enumerate(synthetic_turns(turns, seed=11)):
        for offset, (role, text) in enumerate((("user", turn.user), ("assistant", turn.assistant))):
            clock.set(turn.time + timedelta(seconds=offset))
            tiers.observe(
                encode_message(m, CONV, role, text, clock.now(), (turn.source_ids[offset],), 2 * i + offset)
            )
            messages += 1
    return messages


def test_llm_write_path_stays_within_one_call_per_message(memory, clock, provider, llm):
    provider.respond = answer
    m = memory(embedder="none")
    tiers = Tiers(m.executor, CONV, TiersConfig(stm_capacity=3, heat_threshold=2), llm=llm)
    messages = run(m, tiers, clock, 30)
    calls = llm.usage.calls
    assert calls == len(provider.requests) and calls > 0
    assert calls / messages <= 1.0
    # one call per page that reached MTM, one per promotion
    assert calls == tiers.stats["moved"] + tiers.stats["promotions"]
    segments = m.retrieve(filter={"has_tags": [f"conv:{CONV}"], "facets": {"level": "segment"}}).data["rows"]
    assert segments and all(s["text"].startswith("LLM: ") for s in segments)
    knowledge = m.retrieve(filter={"has_tags": [f"conv:{CONV}"], "facets": {"level": "knowledge"}}).data[
        "rows"
    ]
    assert any(k["text"] == "Mira practises a hobby every week." for k in knowledge)
    traits = m.retrieve(filter={"has_tags": [f"conv:{CONV}"], "facets": {"level": "trait", "of": "agent"}})
    assert "encouraging" in traits.data["rows"][0]["text"]
    # the profile: MemoryOS's static fields and trait dimensions the model filled (null ones left out),
    # one field per line, then the model's summary
    profile = m.retrieve(filter={"has_tags": [f"conv:{CONV}"], "facets": {"level": "profile"}}).data["rows"]
    assert profile[0]["text"].split("\n") == [
        "- user's name: Mira",
        "- user's occupation: teacher",
        "- user's interests: sport, gardening",
        "Mira is an active person with many hobbies.",
    ]


def test_a_reply_that_is_not_the_json_asked_for_falls_back_to_the_offline_rules(memory, clock, provider, llm):
    provider.respond = lambda body: "I cannot do that."
    m = memory(embedder="none")
    tiers = Tiers(m.executor, CONV, TiersConfig(stm_capacity=2), llm=llm)
    run(m, tiers, clock, 6)
    assert llm.usage.calls >= tiers.stats["moved"] > 0
    segments = m.retrieve(filter={"has_tags": [f"conv:{CONV}"], "facets": {"level": "segment"}}).data["rows"]
    assert segments and not any(s["text"].startswith("LLM") for s in segments)  # extractive summaries
