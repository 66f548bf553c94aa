"""The cognitive layers use formation (issue 17, item 5): the ladder's semantic facts and the tiers' LPM
knowledge and profile are the typed facts the conversation's extractor formed, typed where possible, on
both backends; a message that states no typed fact keeps the salient-sentence / first-person reading."""

from __future__ import annotations

from memql.cognition.conversation.ladder import LadderConfig
from memql.cognition.conversation.tiers import TiersConfig
from memql.cognition.conversation.tiers.lpm import FIELD_MARK

TAG = "conv:mira/assistant"
SESSIONS = [
    (
        "2026-03-02T09:",
        [
            ("user", "I live in Berlin with my partner and our two cats."),
            ("assistant", "Berlin sounds lovely."),
            ("user", "My brother Tom works at Siemens in Munich these days."),
            ("assistant", "Good to know about Tom."),
        ],
    ),
    (
        "2026-03-20T09:",
        [
            ("user", "Big news: we moved to Lisbon last week, the cats hated the flight."),
            ("assistant", "Congratulations on the move to Lisbon!"),
            ("user", "Portuguese grammar every morning with a tutor is hard work."),
            ("assistant", "Boa sorte with the lessons."),
        ],
    ),
    ("2026-04-30T09:", [("user", "Quick question about cat food brands."), ("assistant", "Sure.")]),
]


def _talk(m, strategy: str, config, extractor="rules"):
    conv = m.conversation(
        user="mira", agent="assistant", strategy=strategy, config={strategy: config}, extractor=extractor
    )
    for day, turns in SESSIONS:
        for minute, (role, text) in enumerate(turns):
            conv.add_message(role, text, time=f"{day}{minute:02d}:00Z")
    return conv


def _rows(m, level: str) -> list[dict]:
    result = m.retrieve(
        filter={"has_tags": [TAG], "facets": {"level": level}, "limit": 1000},
        include=["id", "text", "facets"],
    )
    assert result.success, result.diagnostics
    return result.data["rows"]


def test_ladder_facts_are_the_typed_facts_then_the_salient_sentences_of_the_rest(memory):
    m = memory(actor="mira", embedder="none")
    _talk(m, "ladder", LadderConfig())
    facts = {r["text"]: r["facets"] for r in _rows(m, "fact")}
    typed = {r["facets"]["source_ids"][0]: r for r in _rows(m, "typed_fact")}
    berlin = next(t for t in facts if t.startswith("mira's residence: Berlin"))
    lisbon = next(t for t in facts if t.startswith("mira's residence: Lisbon"))
    assert "from 2026-03-02" in berlin and "from 2026-03-09" in lisbon  # "last week", said on Friday 03-20
    assert facts[lisbon]["source_ids"] == ["M5"] and "M5" in typed  # cited to the message that said it
    assert any(t.startswith("Tom's employer: Siemens") for t in facts)
    # the sentence that states a typed fact is not stated twice; one that states none is kept as said
    assert not any(t.startswith("user: Big news: we moved to Lisbon") for t in facts)
    assert any(t.startswith("user: Portuguese grammar every morning") for t in facts)


def test_without_an_extractor_the_ladder_keeps_salient_sentences(memory):
    m = memory(actor="mira", embedder="none")
    _talk(m, "ladder", LadderConfig(), extractor=None)
    texts = [r["text"] for r in _rows(m, "fact")]
    assert any(t.startswith("user: Big news: we moved to Lisbon") for t in texts)
    assert not any("'s residence:" in t for t in texts)


def test_tiers_knowledge_and_profile_come_from_the_typed_facts(memory):
    m = memory(actor="mira", embedder="none")
    conv = _talk(m, "tiers", TiersConfig(stm_capacity=1, heat_threshold=0.5))
    knowledge = [r["text"] for r in _rows(m, "knowledge")]
    assert any(t.startswith("mira's residence: Berlin") for t in knowledge)
    assert any(t.startswith("mira's residence: Lisbon") for t in knowledge)
    (profile,) = _rows(m, "profile")
    fields = [line for line in profile["text"].split("\n") if line.startswith(FIELD_MARK)]
    # the user's current values first (Lisbon, not Berlin), then the people around them
    assert fields[0] == f"{FIELD_MARK}mira's residence: Lisbon"
    assert f"{FIELD_MARK}Tom's employer: Siemens" in fields
    assert not any("Berlin" in line for line in fields)
    assert "M5" in profile["facets"]["source_ids"]
    # the context reads the profile's current field; the knowledge of Berlin is labelled history
    text = conv.context("where does mira live?", budget_tokens=400).text
    assert "mira's residence: Lisbon" in text
    assert all(line.startswith("until ") for line in text.splitlines() if "Berlin" in line)
