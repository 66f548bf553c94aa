"""Locking a conversation does not break it (issue 16, item 7; docs/conversation.md, Locks): a turn is
stored whole or not at all; a conversation under a read_only lock (a legal hold: a Lock of its records)
refuses a turn before anything is stored, so a retry after the lock is lifted stores exactly one copy;
and a strategy leaves a locked page where it is and carries on with the others."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memql.cognition.conversation.records import ConversationError
from memql.cognition.conversation.tiers import TiersConfig

TAG = "conv:mira/assistant"


def _messages(m) -> list[dict]:
    result = m.retrieve(
        filter={"has_tags": [TAG], "facets": {"level": "message"}, "limit": 1000}, include=["id", "text"]
    )
    assert result.success, result.diagnostics
    return result.data["rows"]


def _pages(m) -> dict[str, str]:
    result = m.retrieve(
        filter={"has_tags": [TAG], "facets": {"level": "page"}, "limit": 1000}, include=["id", "facets"]
    )
    assert result.success, result.diagnostics
    return {row["id"]: row["facets"]["tier"] for row in result.data["rows"]}


def _lock_all(m, mode: str, reason: str):
    target = {"filter": {"has_tags": [TAG], "limit": 1000}}
    return m.execute({"op": "Lock", "target": target, "args": {"mode": mode, "reason": reason}})


def _hold(m) -> list[str]:
    """A legal hold: every record of the conversation locked read_only."""
    locked = _lock_all(m, "read_only", "legal hold")
    assert locked.success, locked.diagnostics
    return locked.affected_ids


@pytest.mark.parametrize("strategy", ["flat", "tiers", "ladder"])
def test_a_held_conversation_refuses_a_turn_before_storing_it_and_a_retry_stores_one(memory, clock, strategy):
    m = memory(actor="mira", embedder="none")
    config = {"tiers": TiersConfig(stm_capacity=2)}
    conv = m.conversation(user="mira", agent="assistant", strategy=strategy, config=config)
    for n in range(4):
        clock.advance(timedelta(minutes=1))
        conv.add_turn(f"Topic {n}: I bought {n} violins.", "Nice violins.")
    before = _messages(m)
    held = _hold(m)
    with pytest.raises(ConversationError) as caught:
        conv.add_turn("The violin teacher is called Ines.", "Noted!")
    [diagnostic] = caught.value.diagnostics
    assert (diagnostic.path, diagnostic.rule) == ("/conversation", "governance.locked")
    assert "legal hold" in diagnostic.message and "mira" in diagnostic.message
    assert _messages(m) == before  # nothing stored
    with pytest.raises(ConversationError):  # a single message too, and from a reopened conversation
        m.conversation(user="mira", agent="assistant", strategy=strategy).add_message("user", "hello?")
    assert _messages(m) == before
    assert m.unlock(held).success
    conv.add_turn("The violin teacher is called Ines.", "Noted!")
    texts = [row["text"] for row in _messages(m)]
    assert texts.count("mira: The violin teacher is called Ines.") == 1
    assert texts.count("assistant: Noted!") == 1 and len(texts) == len(before) + 2
    assert "Ines" in conv.context("Who teaches the violin?").text


def test_an_append_only_hold_lets_new_turns_in(memory):
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", strategy="flat")
    conv.add_turn("I bought a violin.", "Nice!")
    assert _lock_all(m, "append_only", "audit").success
    conv.add_turn("I bought a bow.", "Great!")
    assert len(_messages(m)) == 4


def test_a_locked_page_stays_where_it_is_while_the_others_are_paged(memory, clock):
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(
        user="mira",
        agent="assistant",
        strategy=["flat", "tiers"],
        config={"tiers": TiersConfig(stm_capacity=2)},
    )
    for n in range(2):
        clock.advance(timedelta(minutes=1))
        conv.add_turn(f"Topic {n}: I bought {n} violins for the orchestra.", "Nice violins.")
    [first, second] = sorted(_pages(m), key=int)
    assert _pages(m) == {first: "stm", second: "stm"}
    assert m.lock(first, mode="read_only", reason="evidence").success
    for n in range(2, 6):
        clock.advance(timedelta(minutes=1))
        conv.add_turn(f"Topic {n}: my garden has {n} tomato plants.", "Good harvest ahead.")
    pages = _pages(m)
    assert pages[first] == "stm"  # held: not moved
    assert pages[second] == "mtm" and list(pages.values()).count("mtm") == 4  # the rest are paged
    assert list(pages.values()).count("stm") == 2  # the capacity: the held page and the newest
    tiers = conv.strategy("tiers")
    assert first in [p.id for p in tiers.stm]
    assert "M1" in conv.context("violins orchestra", strategy="tiers").source_ids


def test_locked_ladder_themes_stay_as_they_are_while_new_facts_find_other_themes(memory, clock):
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", strategy="ladder")
    ladder = conv.strategy("ladder")
    for n in range(3):
        clock.advance(timedelta(minutes=1))
        conv.add_turn(f"I bought {n + 2} violins for my orchestra.", "Lovely violins.")
    ladder.flush()

    def themes() -> dict[str, tuple]:
        result = m.retrieve(
            filter={"has_tags": [TAG], "facets": {"level": "theme"}, "limit": 1000},
            include=["id", "text", "facets"],
        )
        return {row["id"]: (row["text"], row["facets"]) for row in result.data["rows"]}

    held = themes()
    assert held and m.lock(list(held), mode="read_only", reason="evidence").success
    for n in range(3):
        clock.advance(timedelta(hours=3))  # a silence: each turn is an episode of its own
        conv.add_turn(f"I bought {n + 2} more violins for my orchestra.", "More violins!")
    ladder.flush()
    after = themes()
    assert {i: after[i] for i in held} == held  # untouched
    assert len(after) > len(held)  # the new facts found themes of their own
    assert "M7" in conv.context("more violins for the orchestra").source_ids


def test_a_turn_with_a_bad_reply_stores_neither_message(memory):
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", strategy="flat")
    with pytest.raises(ConversationError) as caught:
        conv.add_turn("Is this stored?", "   ")
    assert [(d.path, d.rule) for d in caught.value.diagnostics] == [("/assistant_text", "field.empty")]
    assert _messages(m) == []
    first, second = conv.add_turn("Is this stored?", "Yes, once.")
    assert (first.position, second.position) == (0, 1) and len(_messages(m)) == 2


def test_a_turns_reply_still_brings_its_question(memory):
    # the reply is stored with its question in one workflow, before the question's id is known: flat
    # finds the question by position
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", strategy="flat")
    conv.add_turn("Which colour should the kitchen be?", "Sage green would suit it.")
    conv.add_turn("And the hallway?", "Warm white.")
    context = conv.context("sage green", budget_tokens=200)
    assert context.source_ids[:2] == ["M1", "M2"]
