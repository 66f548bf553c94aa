"""The xMemory ladder (DESIGN §9) on every backend: episode boundaries, facts, theme attach/split/merge,
budgets, citations, restart and audit, and the LLM path against a local chat server."""

from __future__ import annotations

import json
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ladder_fixture import DAY2, EPISODES, TAG, TURNS, store_messages

from budgets import examples
from memql.cognition.conversation.base import Message
from memql.cognition.conversation.ladder import Ladder, LadderConfig
from memql.cognition.conversation.ladder.themes import ThemeOrganizer
from memql.cognition.conversation.ladder.units import FactUnit, LadderState, ThemeUnit, iso
from memql.services.llm import OpenAIChat

CONVERSATION = "mira/assistant"
QUERY_WORDS = ["hiking", "trail", "bread", "sourdough", "interview", "robot", "Lumen", "what", "when", "who"]


def build(m, config: LadderConfig | None = None, llm=None) -> Ladder:
    ladder = Ladder(m.executor, CONVERSATION, config, llm)
    for message in store_messages(m):
        ladder.observe(message)
    ladder.flush()
    return ladder


def episode_spans(ladder: Ladder) -> list[tuple[int, int]]:
    spans = []
    for episode in ladder.state.episodes.values():
        positions = sorted(int(s[1:]) for s in episode.source_ids)
        spans.append((positions[0], positions[-1] + 1))
    return sorted(spans)


# --- episodes and facts ---------------------------------------------------------------------------------


def test_episodes_break_at_a_topic_shift_and_a_new_session(m):
    ladder = build(m)
    assert episode_spans(ladder) == EPISODES


def test_a_topic_shift_is_not_believed_before_min_episode_messages(m):
    spans = episode_spans(build(m, LadderConfig(min_episode_messages=6)))
    # the bread topic starts at position 5, before the first episode has six messages: it is not cut
    # there, but as soon as the shift is believed (or at the next session)
    assert spans[0][0] == 0 and spans[0][1] >= 6
    assert spans[-1] == (10, 14)


def test_facts_are_salient_sentences_that_cite_their_message(m):
    ladder = build(m)
    assert ladder.state.facts
    texts = {TURNS[i][1]: i for i in range(len(TURNS))}
    for fact in ladder.state.facts.values():
        speaker, _, sentence = fact.text.partition(": ")
        (source,) = fact.source_ids
        position = int(source[1:])
        assert TURNS[position][0] == speaker and sentence in TURNS[position][1]
        assert texts  # every fact is a sentence of the very message it cites


# --- themes -------------------------------------------------------------------------------------------


def organizer_with(vectors: dict[str, list[float]], themes: dict[str, list[str]], config=None):
    state = LadderState()
    for fact_id, values in vectors.items():
        v = np.asarray(values, dtype=np.float32)
        state.facts[fact_id] = FactUnit(fact_id, fact_id, (fact_id,), (), None, v / np.linalg.norm(v))
    for theme_id, members in themes.items():
        c = np.mean([state.facts[f].vector for f in members], axis=0)
        state.themes[theme_id] = ThemeUnit(theme_id, list(members), c / np.linalg.norm(c))
        for f in members:
            state.fact_theme[f] = theme_id
    return state, ThemeOrganizer(state, config or LadderConfig())


def at_cosine(c: float) -> list[float]:
    """A unit vector whose cosine with (1, 0, 0) is c."""
    return [c, float(np.sqrt(1 - c * c)), 0.0]


@pytest.mark.parametrize(("cos", "attached"), [(0.63, True), (0.62, True), (0.61, False), (0.3, False)])
def test_a_fact_attaches_to_the_nearest_theme_at_or_above_0_62(cos, attached):
    state, organizer = organizer_with({"a": [1, 0, 0], "new": at_cosine(cos)}, {"10": ["a"]})
    organizer.place(["new"])
    assert (state.fact_theme["new"] == "10") is attached
    assert len(state.themes) == (1 if attached else 2)


def test_a_theme_over_twelve_members_is_split_into_coherent_parts():
    rng = np.random.default_rng(7)
    left = [[1.0, 0.05 * rng.standard_normal(), 0.05 * rng.standard_normal()] for _ in range(7)]
    right = [[0.75, 0.66 + 0.05 * rng.standard_normal(), 0.05 * rng.standard_normal()] for _ in range(6)]
    vectors = {f"f{i}": v for i, v in enumerate(left + right)}
    members = list(vectors)[:12]
    state, organizer = organizer_with(vectors, {"10": members}, LadderConfig(theme_merge=0.99))
    plan = organizer.place(["f12"])  # the 13th member
    assert plan.archived == ["10"] and "10" not in state.themes
    parts = [state.themes[t] for t in plan.touched]
    assert len(parts) == 2 and all(len(p.members) <= 12 and p.split_from == "10" for p in parts)
    assert sorted(f for p in parts for f in p.members) == sorted(vectors)
    assert {frozenset(p.members) for p in parts} == {
        frozenset(list(vectors)[:7]),
        frozenset(list(vectors)[7:]),
    }


def test_an_incoherent_theme_is_split_even_when_small():
    vectors = {"a": [1, 0, 0], "b": [1, 0.05, 0], "c": [0, 1, 0], "d": [0, 1, 0.05]}
    config = LadderConfig(theme_attach=0.4, theme_coherence=0.8)  # two orthogonal pairs: coherence 0.71
    state, organizer = organizer_with(vectors, {"10": ["a", "b", "c"]}, config)
    plan = organizer.place(["d"])
    assert plan.archived == ["10"]
    assert sorted(sorted(state.themes[t].members) for t in plan.touched) == [["a", "b"], ["c", "d"]]


@pytest.mark.parametrize(("cos", "merged"), [(0.85, True), (0.7805, True), (0.7795, False), (0.7, False)])
def test_near_duplicate_themes_merge_at_0_78(cos, merged):
    vectors = {"a": [1, 0, 0], "b": at_cosine(cos), "new": [1, 0, 0]}
    config = LadderConfig(theme_attach=1.01)  # "new" joins no theme: it starts its own, on top of "a"
    state, organizer = organizer_with(vectors, {"10": ["a"], "11": ["b"]}, config)
    plan = organizer.place(["new"])  # the new theme folds into 10 (no verb: it was never written) ...
    assert state.fact_theme["new"] == "10"
    assert plan.merges == ([("10", "11")] if merged else [])  # ... then 10 meets 11: Merge, 10 survives
    assert len(state.themes) == (1 if merged else 2)


def test_theme_changes_are_memql_verbs_in_the_audit_log(m):
    config = LadderConfig(theme_attach=0.0, theme_max_members=3, theme_coherence=0.0, theme_merge=0.99)
    ladder = build(m, config)
    themes = m.retrieve(
        filter={"has_tags": [TAG], "facets": {"level": "theme"}, "status": "any", "limit": 500}
    )
    rows = themes.data["rows"]
    archived = [r for r in rows if r["status"] == "archived"]
    assert archived, "with at most 3 members some theme must have been split"
    children = [r for r in rows if r["facets"].get("split_from") in {a["id"] for a in archived}]
    assert children
    history = m.history(archived[0]["id"])
    assert history[0]["op"] == "Encode" and history[-1]["op"] == "Demote"
    assert history[-1]["note"] == "ladder: theme split"
    assert all(len(t.members) <= 3 for t in ladder.state.themes.values())


def test_merged_themes_go_through_merge(m):
    build(m, LadderConfig(theme_merge=1.01))  # no merge while the hierarchy is built
    eager = LadderConfig(theme_attach=0.0, theme_merge=0.0, theme_coherence=0.0)
    ladder = Ladder(m.executor, CONVERSATION, eager)  # restarted with a merge threshold every pair meets
    themes_before = len(ladder.state.themes)
    text = "Mira: The Lumen Robotics interview went well and they offered me the engineer role."
    at = DAY2 + timedelta(days=2)
    facets = {"conversation": CONVERSATION, "level": "message", "source_ids": ["T14"], "role": "Mira"}
    stored = m.encode(text, type="turn", tags=[TAG], facets={**facets, "position": 14}, time=iso(at))
    ladder.observe(Message(str(stored.id), "Mira", text, at, ("T14",), 14))
    ladder.flush()
    deleted = m.retrieve(
        filter={"has_tags": [TAG], "facets": {"level": "theme"}, "status": "deleted", "limit": 500}
    )
    assert deleted.data["rows"], "an existing theme touched by the new fact must merge with its nearest"
    child = deleted.data["rows"][0]["id"]
    assert m.history(child)[-1]["op"] == "Merge"
    assert len(ladder.state.themes) < themes_before
    primary = next(t for t in ladder.state.themes.values() if len(t.members) > 1)
    (row,) = m.retrieve(ids=[primary.id], include=["facets"]).data["rows"]
    assert sorted(row["facets"]["members"]) == sorted(primary.members)


# --- retrieval ------------------------------------------------------------------------------------------


def test_context_cites_real_records_and_their_turns(m):
    ladder = build(m)
    context = ladder.context("How long did the hike to the mountain summit take?", 200)
    assert context.pieces and "T2" in context.source_ids
    for piece in context.pieces:
        (memory_id,) = piece.memory_ids
        (row,) = m.retrieve(ids=[memory_id], include=["id", "tags", "facets", "text"]).data["rows"]
        assert TAG in row["tags"] and row["facets"]["level"] == piece.level
        assert set(piece.source_ids) <= set(row["facets"]["source_ids"])
        for source in piece.source_ids:
            assert source in piece.text  # the citation is in what the reader sees


def test_relevant_turns_come_first_at_a_small_budget(m):
    ladder = build(m)
    context = ladder.context("Which company is the job interview with?", 60)
    assert context.tokens <= 60
    assert set(context.source_ids) & {"T10", "T11", "T12", "T13"}
    assert not set(context.source_ids) & {"T5", "T6", "T7", "T8", "T9"}


@pytest.fixture
def built(m):
    return build(m)


@settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(
        st.sampled_from(QUERY_WORDS),
        max_size=5,
    ),
    budget=st.integers(min_value=0, max_value=400),
)
def test_a_context_never_exceeds_its_budget(built, words, budget):
    context = built.context(" ".join(words), budget)
    assert context.tokens <= budget
    assert context.tokens == sum(p.tokens for p in context.pieces)
    assert len(context.source_ids) == len(set(context.source_ids))


# --- restart --------------------------------------------------------------------------------------------


def test_a_restarted_ladder_reloads_its_hierarchy_and_open_episode(m):
    first = Ladder(m.executor, CONVERSATION)
    messages = store_messages(m, 0, 8)
    for message in messages:
        first.observe(message)
    assert first.state.open  # the bread episode is still open
    second = Ladder(m.executor, CONVERSATION)  # a new process on the same store
    assert set(second.state.episodes) == set(first.state.episodes)
    assert set(second.state.facts) == set(first.state.facts)
    assert {t: sorted(u.members) for t, u in second.state.themes.items()} == {
        t: sorted(u.members) for t, u in first.state.themes.items()
    }
    assert [m_.memory_id for m_ in second.state.open] == [m_.memory_id for m_ in first.state.open]
    for message in messages[5:]:  # a replayed message is not held twice
        second.observe(message)
    for message in store_messages(m, 8):
        second.observe(message)
    second.flush()
    assert episode_spans(second) == EPISODES


def test_a_restart_reads_its_facts_and_themes_when_first_needed_and_places_each_fact_once(m):
    """A restarted ladder reads its episodes and open messages; its facts and themes (every fact's vector)
    only when a write or a context needs them — a server reopens the conversation on every call. Read
    before the episode it closes is written, so no fact is placed twice."""
    first = Ladder(m.executor, CONVERSATION)
    for message in store_messages(m, 0, 11):  # the next day's first message closes the day's episodes
        first.observe(message)
    second = Ladder(m.executor, CONVERSATION)
    assert len(second.state.episodes) == 2 and [x.position for x in second.state.open] == [10]
    assert second.state._facts == {} and second.state._load is not None  # not read yet
    for message in store_messages(m, 11):
        second.observe(message)
    second.flush()
    assert episode_spans(second) == EPISODES
    members = [f for theme in second.state.themes.values() for f in theme.members]
    assert sorted(members, key=int) == sorted(second.state.facts, key=int)  # each fact in one theme, once
    third = Ladder(m.executor, CONVERSATION)  # what the store holds is what the ladder held
    assert {t: sorted(u.members) for t, u in third.state.themes.items()} == {
        t: sorted(u.members) for t, u in second.state.themes.items()
    }


def test_a_restart_is_no_visit_to_what_it_reloads(m):
    """Reloading read every record of the conversation as a Retrieve that counted: each restart (each
    call of a server, which opens the conversation anew) bumped the visits of every episode, fact, theme
    and message."""
    build(m)

    def visits() -> dict[str, int]:
        found = m.retrieve(filter={"has_tags": [TAG], "limit": 1000}, include=["id", "visits"], dry_run=True)
        return {row["id"]: row["visits"] for row in found.data["rows"]}

    before = visits()
    assert len(before) > len(TURNS)  # the messages, and the ladder's episodes, facts and themes
    second = Ladder(m.executor, CONVERSATION)
    assert second.state.episodes and second.state.facts and second.state.themes
    assert visits() == before


def test_facts_left_without_a_theme_are_placed_on_restart(m):
    ladder = build(m)
    fact_ids = sorted(ladder.state.facts, key=int)
    # an interrupted write: facts stored, the themes' workflow never ran
    for theme_id in list(ladder.state.themes):
        assert m.demote(theme_id, archive=True).success
    again = Ladder(m.executor, CONVERSATION)
    assert sorted(again.state.fact_theme, key=int) == fact_ids
    assert all(t in again.state.themes for t in again.state.fact_theme.values())


# --- the LLM path -----------------------------------------------------------------------------------------


def _model(body):
    """The model's side: episodes (two per excerpt of four or more messages, titled, a fact per message)
    or theme titles and summaries, by the schema asked for."""
    lines = body["messages"][-1]["content"].splitlines()
    if "episodes" in json.dumps(body["response_format"]):
        firsts = [0, len(lines) // 2] if len(lines) >= 4 else [0]
        return json.dumps(
            {
                "episodes": [
                    {
                        "first": first,
                        "title": f"Topic {first}",
                        "facts": [{"text": f"Fact of line {i}.", "message": i} for i in range(len(lines))],
                    }
                    for first in firsts
                ]
            }
        )
    themes = sum(1 for line in lines if line.startswith("Theme "))
    return json.dumps(
        {"themes": [{"theme": i, "title": f"T{i}", "summary": f"Summary {i}."} for i in range(themes)]}
    )


def test_with_an_llm_episodes_titles_facts_and_theme_summaries_are_the_models(m, provider):
    provider.respond = _model
    llm = OpenAIChat(provider.url, "test-ladder", timeout=2.0, max_retries=0)
    try:
        ladder = build(m, llm=llm)
    finally:
        llm.close()
    episodes = list(ladder.state.episodes.values())
    assert episodes and all(e.text.startswith("Topic ") for e in episodes)
    # each episode holds the model's facts of its own messages, none of another episode's
    for e in episodes:
        held = {f.text for f in ladder.state.facts.values() if set(f.message_ids) <= set(e.message_ids)}
        assert held and all(t.startswith("Fact of line ") for t in held)
    themes = list(ladder.state.themes.values())
    assert themes and all(t.text.startswith("T") and "Summary" in t.text for t in themes)
    assert ladder.llm_calls / len(TURNS) <= 1  # the write path's budget: one call per message at most
    assert all(body["response_format"] for body in provider.bodies())


def test_an_unusable_llm_reply_falls_back_to_offline_facts(m, provider):
    provider.replies = ["not json", json.dumps({"facts": [{"text": "x", "message": 99}]}), "{}"]
    llm = OpenAIChat(provider.url, "test-ladder", timeout=2.0, max_retries=0)
    try:
        with_llm = build(m, llm=llm)
    finally:
        llm.close()
    offline = sorted(f.text for f in with_llm.state.facts.values())
    assert offline and all(": " in text for text in offline)  # speaker-prefixed extractive facts
