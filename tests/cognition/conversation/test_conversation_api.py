"""The conversation API on every backend: messages stored as audited Encodes by the storage conventions,
cited context under a token budget (flat and hybrid), reopening, and bad input as diagnostics."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.cognition.conversation import registry
from memql.cognition.conversation.flat import Flat, FlatConfig
from memql.cognition.conversation.hybrid import Hybrid, HybridConfig
from memql.cognition.conversation.records import ConversationError
from memql.services.summarize import estimate_tokens

DAY1 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
DAY2 = datetime(2023, 5, 25, 9, 0, tzinfo=UTC)

DIALOGUE = [
    ("Caroline", "I went to a LGBTQ support group yesterday and it was so powerful.", DAY1, "D1:1"),
    ("Melanie", "That's great! What did you take away from it?", DAY1 + timedelta(seconds=1), "D1:2"),
    (
        "Caroline",
        "The stories of the transgender people there gave me courage.",
        DAY1 + timedelta(seconds=2),
        "D1:3",
    ),
    ("Melanie", "What did you name the new puppy?", DAY2, "D2:1"),
    ("Caroline", "We called him Biscuit, after his colour.", DAY2 + timedelta(seconds=1), "D2:2"),
    ("Melanie", "I ran a charity 5k race in the park last Saturday.", DAY2 + timedelta(seconds=2), "D2:3"),
]


def fill(conv, dialogue=DIALOGUE):
    return [conv.add_message(who, text, time=at, source_id=sid) for who, text, at, sid in dialogue]


def rows(m, tag):
    """The conversation's message records (the strategies that observe it store their own units too)."""
    result = m.retrieve(
        filter={"has_tags": [tag], "limit": 500}, include=["id", "text", "facets", "time", "type"]
    )
    messages = [r for r in result.data["rows"] if r["facets"]["level"] == "message"]
    return sorted(messages, key=lambda r: r["facets"]["position"])


def test_messages_are_encodes_that_follow_the_storage_conventions(memory):
    m = memory(actor="Caroline")
    conv = m.conversation(user="Caroline", agent="Melanie", id="locomo-1", strategy="flat")
    messages = fill(conv)
    stored = rows(m, "conv:locomo-1")
    assert [r["id"] for r in stored] == [msg.memory_id for msg in messages]
    first, second = stored[0], stored[1]
    assert first["type"] == "turn" and first["time"] == DAY1
    assert first["text"] == "Caroline: I went to a LGBTQ support group yesterday and it was so powerful."
    assert first["facets"] == {
        "conversation": "locomo-1",
        "level": "message",
        "source_ids": ["D1:1"],
        "role": "Caroline",
        "speaker": "Caroline",
        "position": 0,
        # what the default offline extraction read, each item with the words it came from
        "times": [
            {
                "start": "2023-05-07T00:00:00Z",
                "end": "2023-05-08T00:00:00Z",
                "granularity": "day",
                "evidence": {"start": 42, "end": 51, "quote": "yesterday"},
            }
        ],
    }
    assert first["text"][42:51] == "yesterday"
    assert second["facets"]["previous"] == first["id"] and second["facets"]["position"] == 1
    assert [msg.source_ids for msg in messages][:2] == [("D1:1",), ("D1:2",)]
    history = m.history(first["id"])
    assert [h["op"] for h in history] == ["Encode"]  # written by the language, audited


def test_turns_name_user_and_agent_and_default_source_ids(memory, clock):
    m = memory(actor="mira")
    conv = m.conversation(user="mira", agent="assistant")
    assert conv.id == "mira/assistant"
    user, reply = conv.add_turn("I adopted a cat named Miso", "Congratulations! How old is Miso?")
    assert (user.role, reply.role) == ("user", "assistant")
    assert (user.source_ids, reply.source_ids) == (("M1",), ("M2",))
    assert user.time == clock.now()
    pair = conv.add_turn("She is two", "Lovely age.", source_ids=["T2"])
    assert [msg.source_ids for msg in pair] == [("T2",), ("T2",)]
    stored = rows(m, "conv:mira/assistant")
    assert stored[0]["text"] == "mira: I adopted a cat named Miso"
    assert stored[1]["text"].startswith("assistant: ")
    context = conv.context("What is the cat called?", budget_tokens=200)
    assert "Miso" in context.text and "M1" in context.source_ids


def test_context_cites_real_records_of_this_conversation_and_tenant_only(memory):
    m = memory(tenant="t1", actor="Caroline")
    conv = m.conversation(user="Caroline", agent="Melanie", id="c1", strategy="flat")
    fill(conv)
    other = m.conversation(user="Caroline", agent="Melanie", id="c2", strategy="flat")
    other.add_message("Caroline", "Biscuit the puppy chewed my shoes again.", time=DAY2, source_id="X1:1")
    elsewhere = memory(tenant="t2", share=m, actor="Caroline").conversation(
        user="Caroline", agent="Melanie", id="c1"
    )
    elsewhere.add_message("Caroline", "Biscuit is a puppy in another tenant.", time=DAY2, source_id="Y1:1")

    context = conv.context("What is the puppy called?", budget_tokens=400)
    assert context.pieces and context.tokens <= 400
    assert "D2:2" in context.source_ids
    assert not {"X1:1", "Y1:1"} & set(context.source_ids)
    found = m.retrieve(ids=context.memory_ids, include=["id", "tags", "facets"]).data["rows"]
    assert {r["id"] for r in found} == set(context.memory_ids)
    for row in found:
        assert "conv:c1" in row["tags"] and row["facets"]["conversation"] == "c1"
    for piece in context.pieces:  # every piece cites its memory ids and its turns, inline
        assert piece.memory_ids and piece.source_ids
        assert all(s in piece.text for s in piece.source_ids)


def test_flat_reads_in_time_order_with_one_day_line_per_day_and_brings_the_question_a_reply_answers(memory):
    m = memory(actor="Caroline")
    conv = m.conversation(user="Caroline", agent="Melanie", id="c", strategy="flat")
    fill(conv)
    context = conv.context("Biscuit", budget_tokens=1000)
    assert context.source_ids[:2] == ["D2:1", "D2:2"] or set(context.source_ids) >= {"D2:1", "D2:2"}
    lines = context.text.splitlines()
    assert lines.count("25 May 2023:") == 1
    times = [p.time for p in context.pieces]
    assert times == sorted(times)
    reply = next(p for p in context.pieces if "D2:2" in p.source_ids)
    assert reply.text.endswith("[D2:2] Caroline: We called him Biscuit, after his colour.")

    alone = Flat(m.executor, "c", FlatConfig(neighbours=0)).context("Biscuit", 1000)
    assert "D2:2" in alone.source_ids and "D2:1" not in alone.source_ids[: alone.source_ids.index("D2:2")]


def test_a_tight_budget_keeps_the_best_piece_and_nothing_over_it(memory):
    m = memory(actor="Caroline")
    conv = m.conversation(user="Caroline", agent="Melanie", id="c", strategy="flat")
    fill(conv)
    full = conv.context("charity 5k race", budget_tokens=2000)
    assert full.tokens <= 2000 and len(full.pieces) >= 2
    said = "I ran a charity 5k race in the park last Saturday (2023-05-20)."  # the day it resolved to, shown
    race = estimate_tokens(f"25 May 2023:\n[D2:3] Melanie: {said}")
    tight = conv.context("charity 5k race", budget_tokens=race)
    assert tight.tokens == race and tight.source_ids == ["D2:3"]
    # one token short: the hit does not fit, and the message before it does not come without it
    assert "D2:2" not in conv.context("charity 5k race", budget_tokens=race - 1).source_ids
    assert conv.context("charity 5k race", budget_tokens=3).pieces == []  # nothing fits: nothing made up


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    texts=st.lists(
        st.text(
            st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=120
        ).filter(lambda t: t.strip()),
        min_size=1,
        max_size=6,
    ),
    budget=st.integers(min_value=1, max_value=400),
    query=st.sampled_from(["what happened", "Biscuit puppy", "race", "年 猫", "?!"]),
)
def test_the_budget_is_never_exceeded(memory, texts, budget, query):
    # one store per backend for all examples (a fresh PostgreSQL schema per example would be slow); each
    # example is its own conversation in it
    if "m" not in _PROPERTY:
        _PROPERTY["m"] = memory(actor="u")
    m = _PROPERTY["m"]
    _PROPERTY["n"] = _PROPERTY.get("n", 0) + 1
    conv_id = f"prop-{_PROPERTY['n']}"
    conv = m.conversation(user="u", agent="a", id=conv_id, strategy="flat")
    for i, text in enumerate(texts):
        conv.add_message("user" if i % 2 == 0 else "assistant", text, time=DAY1 + timedelta(hours=i))
    parts = Flat(m.executor, conv_id), Flat(m.executor, conv_id, FlatConfig(neighbours=0, alpha=0.0))
    for context in (
        conv.context(query, budget_tokens=budget),
        Hybrid(m.executor, conv_id, components=list(parts)).context(query, budget),
    ):
        assert context.tokens <= budget
        assert context.tokens == sum(p.tokens for p in context.pieces) == estimate_tokens(context.text)
        assert len(context.source_ids) == len([s for p in context.pieces for s in p.source_ids])  # no repeats


_PROPERTY: dict = {}


@pytest.fixture(autouse=True)
def _fresh_property_store():
    _PROPERTY.clear()  # the memory fixture closes its stores after each test
    yield


def test_hybrid_merges_components_under_one_budget_without_repeating_a_turn(memory):
    m = memory(actor="Caroline")
    conv = m.conversation(user="Caroline", agent="Melanie", id="c", strategy="flat")
    fill(conv)
    flat = Flat(m.executor, "c")
    lexical = Flat(m.executor, "c", FlatConfig(neighbours=0, alpha=0.0))
    hybrid = Hybrid(m.executor, "c", components=[flat, lexical])
    context = hybrid.context("Where did Melanie run a race?", 300)
    assert context.strategy == "hybrid" and context.tokens <= 300
    assert "D2:3" in context.source_ids
    assert len(context.source_ids) == len(set(context.source_ids))
    # one component: exactly that component's context
    alone = Hybrid(m.executor, "c", components=[flat]).context("Where did Melanie run a race?", 120)
    assert alone.text == flat.context("Where did Melanie run a race?", 120).text
    # weights reorder: a zero-weight component only fills what the other leaves
    weighted = Hybrid(m.executor, "c", HybridConfig(weights={"flat": 1.0}), components=[flat])
    assert weighted.context("race", 60).source_ids == flat.context("race", 60).source_ids


def test_hybrid_through_the_conversation_uses_the_flat_it_feeds(memory):
    m = memory(actor="Caroline")
    conv = m.conversation(
        user="Caroline",
        agent="Melanie",
        id="c",
        strategy="hybrid",
        config={"hybrid": HybridConfig(components=("flat",))},
    )
    assert conv.default_strategy == "hybrid" and conv.observing == ("flat",)
    fill(conv)
    context = conv.context("puppy name")
    assert context.strategy == "hybrid" and "D2:2" in context.source_ids
    assert conv.strategy("hybrid").components == [conv.strategy("flat")]


def test_reopening_continues_positions_and_links(memory):
    m = memory(actor="u")
    first = m.conversation(user="u", agent="a", strategy="flat")
    first.add_turn("hello there", "hi, how can I help?")
    again = m.conversation(user="u", agent="a", strategy="flat")
    message = again.add_message("user", "tell me about my cat")
    stored = rows(m, "conv:u/a")
    assert [r["facets"]["position"] for r in stored] == [0, 1, 2]
    assert stored[2]["facets"]["previous"] == stored[1]["id"]
    assert message.source_ids == ("M3",)


def test_reopening_after_messages_given_earlier_times_continues_past_the_last_position(memory):
    """A reopened conversation read its last position among the 20 newest messages by time: past 20
    messages, one given an earlier time (a backfill) fell outside them, and the next message repeated its
    position and turn id (M26 three times over)."""
    m = memory(actor="u")
    m.conversation(user="u", agent="a", strategy="flat").add_messages(
        [{"role": "user", "text": f"note {i}"} for i in range(25)]
    )
    positions = []
    for day in (3, 2, 1):
        conv = m.conversation(user="u", agent="a", strategy="flat")  # reopened, as a server does per call
        (message,) = conv.add_messages([{"role": "user", "text": f"on day {day}", "time": f"2020-01-0{day}"}])
        positions.append((message.position, message.source_ids))
    assert positions == [(25, ("M26",)), (26, ("M27",)), (27, ("M28",))]
    reopened = m.conversation(user="u", agent="a", strategy="flat").add_message("user", "and now")
    assert reopened.position == 28
    stored = rows(m, "conv:u/a")
    assert sorted(r["facets"]["position"] for r in stored) == list(range(29))
    latest = next(r for r in stored if r["facets"]["position"] == 28)
    assert latest["facets"]["previous"] == next(r["id"] for r in stored if r["facets"]["position"] == 27)


def test_two_objects_of_one_conversation_each_continue_after_the_others_messages(memory):
    """A write checks in its own transaction that no message was added since the object read its last
    one; when one was (another object, another process), it opens the conversation again and continues
    after it — it used to take the same position (and turn id) as the other's."""
    m = memory(actor="u")
    one, two = (m.conversation(user="u", agent="a", strategy="flat") for _ in range(2))
    assert one.add_message("user", "first").position == 0
    assert two.add_message("user", "second").position == 1
    assert [x.position for x in one.add_turn("third", "fourth")] == [2, 3]
    assert two.add_message("user", "fifth").source_ids == ("M5",)
    stored = sorted(rows(m, "conv:u/a"), key=lambda r: r["facets"]["position"])
    assert [r["facets"]["position"] for r in stored] == [0, 1, 2, 3, 4]
    assert (
        stored[1]["facets"]["previous"] == stored[0]["id"]
        and stored[4]["facets"]["previous"] == stored[3]["id"]
    )


def test_opening_and_adding_is_no_visit_to_the_messages_before(memory):
    """Opening read the last 20 messages (and a server opens the conversation on every call) as a
    Retrieve that counted: each call bumped their visits, the statistic search ranks by."""
    from memql.cognition.conversation.served import served_messages

    m = memory(actor="u")
    m.conversation(user="u", agent="a").add_messages(
        [{"role": "user", "text": f"note {i}"} for i in range(5)]
    )

    def visits() -> dict[str, int]:
        found = m.retrieve(
            filter={"has_tags": ["conv:u/a"], "limit": 100}, include=["id", "visits"], dry_run=True
        )
        return {row["id"]: row["visits"] for row in found.data["rows"]}

    before = visits()
    m.conversation(user="u", agent="a")
    for i in range(3):
        served_messages(m.executor, [{"role": "user", "text": f"more {i}"}])
    after = visits()
    assert {i: after[i] for i in before} == before


def test_add_messages_stores_them_together_in_order_with_their_own_times(memory, clock):
    m = memory(actor="u")
    conv = m.conversation(user="u", agent="a", strategy="flat")
    conv.add_message("user", "hello there")
    stored = conv.add_messages(
        [
            {"role": "user", "text": "I adopted a cat named Miso.", "time": "2026-02-01T10:00:00Z"},
            {"role": "assistant", "text": "How old is Miso?", "source_id": "A7"},
            {"role": "Ana", "text": "She is two."},
        ],
        time="2026-02-01T10:05:00Z",
    )
    assert [(s.role, s.position, s.source_ids) for s in stored] == [
        ("user", 1, ("M2",)),
        ("assistant", 2, ("A7",)),
        ("Ana", 3, ("M4",)),
    ]
    assert [s.time.isoformat() for s in stored] == [
        "2026-02-01T10:00:00+00:00",
        "2026-02-01T10:05:00+00:00",
        "2026-02-01T10:05:00+00:00",
    ]
    records = rows(m, "conv:u/a")
    assert [r["facets"]["position"] for r in records] == [0, 1, 2, 3]
    # the first links to the message stored before; the others are found by position (flat.py)
    assert records[1]["facets"]["previous"] == records[0]["id"] and "previous" not in records[2]["facets"]
    assert records[3]["facets"]["speaker"] == "Ana"
    # one workflow: its steps share one audit workflow id
    workflows = {m.history(s.memory_id)[0]["workflow_id"] for s in stored}
    assert len(workflows) == 1 and None not in workflows
    assert "M2" in conv.context("what is the cat called?", budget_tokens=200).source_ids


def test_default_strategies_observe_what_is_available(memory):
    conv = memory(actor="u").conversation(user="u", agent="a")
    assert conv.default_strategy == "flat"
    assert conv.observing == registry.available(("flat", "tiers", "ladder"))


@pytest.mark.parametrize(
    ("call", "path", "rule"),
    [
        (lambda c: c.add_message("", "text"), "/role", "field.empty"),
        (lambda c: c.add_message("user", "   "), "/text", "field.empty"),
        (lambda c: c.add_message("user", "hi", time="next blursday"), "/time", "time.invalid"),
        (lambda c: c.add_message("user", "hi", time=42), "/time", "field.type"),
        (lambda c: c.add_turn("a", "b", source_ids=["1", "2", "3"]), "/source_ids", "field.size"),
        (lambda c: c.context("  "), "/query", "field.empty"),
        (lambda c: c.context("cat", budget_tokens=0), "/budget_tokens", "field.range"),
        (lambda c: c.context("cat", strategy="graph"), "/strategy", "field.enum"),
        # each of these raised pydantic's ValidationError (from the extractor's input) or a TypeError
        (lambda c: c.add_message("user", "I live in Paris \ud83d"), "/text", "json.encoding"),
        (lambda c: c.add_message("us\udcffer", "hi"), "/role", "json.encoding"),
        (lambda c: c.add_message("x" * 513, "hi"), "/role", "field.size"),
        (lambda c: c.add_message("user", "word " * 30_000), "/text", "field.size"),
        (lambda c: c.add_message("user", "hi", source_id="s" * 600), "/source_id", "field.size"),
        (lambda c: c.add_turn("a", "b \ud83d"), "/assistant_text", "json.encoding"),
        (lambda c: c.add_turn("a", "b", source_ids=5), "/source_ids", "field.size"),
        (lambda c: c.context("cat", strategy=["flat"]), "/strategy", "field.enum"),
        # add_messages names the message and its field; a bad one anywhere stores none of them
        (lambda c: c.add_messages("hi"), "/messages", "field.type"),
        (lambda c: c.add_messages([]), "/messages", "field.empty"),
        (lambda c: c.add_messages([{"role": "user", "text": "hi"}, "hi"]), "/messages/1", "field.type"),
        (lambda c: c.add_messages([{"role": "user"}]), "/messages/0/text", "field.required"),
        (lambda c: c.add_messages([{"text": "hi"}]), "/messages/0/role", "field.required"),
        (
            lambda c: c.add_messages([{"role": "user", "text": "hi", "seen": 1}]),
            "/messages/0/seen",
            "field.unknown",
        ),
        (
            lambda c: c.add_messages([{"role": "user", "text": "ok"}, {"role": "", "text": "hi"}]),
            "/messages/1/role",
            "field.empty",
        ),
        (
            lambda c: c.add_messages([{"role": "user", "text": "ok"}, {"role": "a", "text": 5}]),
            "/messages/1/text",
            "field.type",
        ),
        (
            lambda c: c.add_messages([{"role": "user", "text": "ok", "time": "next blursday"}]),
            "/messages/0/time",
            "time.invalid",
        ),
        (
            lambda c: c.add_messages([{"role": "user", "text": "ok", "source_id": " "}]),
            "/messages/0/source_id",
            "field.empty",
        ),
        (lambda c: c.add_messages([{"role": "user", "text": "ok"}], time=42), "/time", "field.type"),
    ],
)
def test_bad_input_is_a_diagnostic_and_stores_nothing(memory, call, path, rule):
    m = memory(actor="u")
    conv = m.conversation(user="u", agent="a", strategy="flat")
    with pytest.raises(ConversationError) as caught:
        call(conv)
    assert [(d.path, d.rule) for d in caught.value.diagnostics] == [(path, rule)]
    assert rows(m, "conv:u/a") == []


def test_bad_conversation_options_are_diagnostics(memory):
    m = memory(actor="u")
    for kwargs, path, rule in [
        ({"user": "", "agent": "a"}, "/user", "field.empty"),
        ({"user": "u", "agent": "a", "id": " "}, "/id", "field.empty"),
        ({"user": "u", "agent": "a", "strategy": "graph"}, "/strategy", "field.enum"),
        ({"user": "u", "agent": "a", "strategy": []}, "/strategy", "field.empty"),
        ({"user": "u", "agent": "a", "config": {"graph": None}}, "/config/graph", "field.enum"),
        ({"user": "u", "agent": "a", "strategy": 5}, "/strategy", "field.type"),  # (these raised TypeError)
        ({"user": "u", "agent": "a", "strategy": [1]}, "/strategy", "field.type"),
        ({"user": "u", "agent": "a", "config": 5}, "/config", "field.type"),
    ]:
        with pytest.raises(ConversationError) as caught:
            m.conversation(**kwargs)
        assert [(d.path, d.rule) for d in caught.value.diagnostics] == [(path, rule)]


def test_a_strategy_that_did_not_observe_or_is_absent_is_refused(memory, monkeypatch):
    conv = memory(actor="u").conversation(user="u", agent="a", strategy="flat")
    conv.add_message("user", "hello")
    with pytest.raises(ConversationError) as caught:
        conv.context("hello", strategy="ladder")
    expected = (
        "conversation.strategy_inactive"
        if registry.is_available("ladder")
        else ("conversation.strategy_unavailable")
    )
    assert [d.rule for d in caught.value.diagnostics] == [expected]
    monkeypatch.setitem(registry.STRATEGIES, "tiers", ("memql.cognition.conversation.no_such_module", "X"))
    with pytest.raises(ConversationError) as caught:
        conv.context("hello", strategy="tiers")
    assert [d.rule for d in caught.value.diagnostics] == ["conversation.strategy_unavailable"]
    assert "not available" in str(caught.value)
