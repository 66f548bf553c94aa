"""MemoryOS tiers on every backend: pages and the STM FIFO, Fscore segments, heat, eviction of the coldest
segment, promotion into LPM, restart from the store, cited context within a budget."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest

from memql.bench.conversation import encode_message, ingest, synthetic_turns
from memql.cognition.conversation.base import Message
from memql.cognition.conversation.tiers import Tiers, TiersConfig
from memql.cognition.conversation.tiers.scoring import Vectorizer, fscore
from memql.lang.time import parse_instant

CONV = "mira/assistant"


def say(m, tiers: Tiers, clock, role: str, text: str, position: int, source: str | None = None) -> Message:
    clock.advance(timedelta(minutes=1))
    message = encode_message(m, CONV, role, text, clock.now(), (source or f"S{position}",), position)
    tiers.observe(message)
    return message


def exchange(m, tiers, clock, n: int, user: str, reply: str) -> None:
    say(m, tiers, clock, "user", user, 2 * n)
    say(m, tiers, clock, "assistant", reply, 2 * n + 1)


def rows(m, level: str, tier: str | None = None, **facets) -> list[dict]:
    flt = {"conversation": CONV, "level": level, **facets}
    if tier:
        flt["tier"] = tier
    result = m.execute(
        {
            "op": "Retrieve",
            "target": {"filter": {"has_tags": [f"conv:{CONV}"], "facets": flt, "limit": 10000}},
            "args": {"include": ["id", "text", "facets", "visits", "last_access_at", "created_at", "weight"]},
            "meta": {"dry_run": True},
        }
    )
    assert result.success, result.diagnostics
    return result.data["rows"]


def test_pages_pair_messages_and_stm_is_a_fifo(memory, clock):
    m = memory(embedder="none")
    tiers = Tiers(m.executor, CONV, TiersConfig(stm_capacity=3))
    say(m, tiers, clock, "user", "I adopted a beagle.", 0)
    say(m, tiers, clock, "user", "He is called Max.", 1)  # same speaker again: the page stays open
    say(m, tiers, clock, "assistant", "Lovely name!", 2)  # the reply closes it
    for n in range(2, 6):
        exchange(m, tiers, clock, n, f"Topic {n}: I bought {n} violins.", "Nice violins.")
    stm = sorted(rows(m, "page", "stm"), key=lambda r: r["facets"]["positions"][0])
    assert len(stm) == 3 and [p["id"] for p in stm] == [p.id for p in tiers.stm]
    first = [r for r in rows(m, "page") if r["facets"]["positions"] == [0, 2]]
    assert len(first) == 1 and first[0]["facets"]["source_ids"] == ["S0", "S1", "S2"]
    assert first[0]["facets"]["tier"] == "mtm"  # the oldest pages left STM first
    assert first[0]["text"].splitlines()[0] == "user: I adopted a beagle."
    moved = rows(m, "page", "mtm")
    assert len(moved) == 2 and all(r["facets"]["segment"] for r in moved)


def test_a_page_joins_the_best_segment_at_or_above_theta_else_founds_one(memory, clock):
    m = memory(embedder="none")
    cfg = TiersConfig(stm_capacity=1)
    tiers = Tiers(m.executor, CONV, cfg)
    exchange(
        m, tiers, clock, 0, "I love sourdough bread baking with rye flour.", "Rye flour sourdough bread!"
    )
    exchange(m, tiers, clock, 1, "My sourdough bread with rye flour rose well.", "Great sourdough bread.")
    exchange(
        m, tiers, clock, 2, "The telescope showed Saturn rings tonight.", "Saturn rings through a telescope!"
    )
    exchange(m, tiers, clock, 3, "Quarterly taxes are due in April.", "Pay the taxes.")
    segments = rows(m, "segment", "mtm")
    pages = rows(m, "page", "mtm")
    by_segment = {}
    for p in pages:
        by_segment.setdefault(p["facets"]["segment"], []).append(p["facets"]["positions"][0])
    # the two bread pages share a segment; the telescope page founded its own
    assert sorted(sorted(v) for v in by_segment.values()) == [[0, 2], [4]]
    assert len(segments) == 2
    # the rule itself: the join decision is Fscore >= θ against the segment as it was
    v = Vectorizer(None)
    v.names.update({"user", "assistant"})
    a = "I love sourdough bread baking with rye flour.\nRye flour sourdough bread!"
    b = "My sourdough bread with rye flour rose well.\nGreat sourdough bread."
    c = "The telescope showed Saturn rings tonight.\nSaturn rings through a telescope!"
    assert fscore(v.vector(a), v.keywords(a, 10), v.vector(b), v.keywords(b, 10)) >= cfg.fscore_threshold
    assert fscore(v.vector(a), v.keywords(a, 10), v.vector(c), v.keywords(c, 10)) < cfg.fscore_threshold
    notes = [h["note"] for h in m.history(pages[0]["id"]) if h["op"] == "Update"]
    assert any(n and n.startswith("tiers: page -> MTM segment") for n in notes)


def test_heat_is_the_papers_formula_over_the_stored_counters(memory, clock):
    m = memory(embedder="none")
    cfg = TiersConfig(stm_capacity=1, heat_threshold=100)
    tiers = Tiers(m.executor, CONV, cfg)
    exchange(m, tiers, clock, 0, "I repaint my kayak every spring.", "Kayak painting, nice.")
    exchange(m, tiers, clock, 1, "The kayak paint is bright red.", "Red kayak paint!")
    exchange(m, tiers, clock, 2, "Kayak trip tomorrow on the lake.", "Enjoy the kayak trip.")
    tiers.context("kayak paint", 500)  # a visit of the chosen segments
    tiers.context("kayak lake", 500)
    clock.advance(timedelta(days=30))
    stored = rows(m, "segment", "mtm")
    assert stored and sum(seg["facets"]["interactions"] for seg in stored) == 2  # two pages left STM
    fresh = Tiers(m.executor, CONV, cfg)  # heat from the records alone, after a restart
    for seg in stored:
        last = seg["last_access_at"]
        last = parse_instant(last)[0] if isinstance(last, str) else last
        dt = (clock.now() - last).total_seconds()
        expected = 1.0 * seg["visits"] + 1.0 * seg["facets"]["interactions"] + 1.0 * math.exp(-dt / 1e7)
        assert seg["visits"] == 2  # both contexts chose it (top-m = 5 >= the segments there are)
        key = seg["facets"]["key"]
        assert tiers.heat_of(tiers.segments[key]) == pytest.approx(expected)
        assert fresh.heat_of(fresh.segments[key]) == pytest.approx(expected)


def test_long_conversation_respects_capacity_evicts_the_coldest_and_promotes(memory, clock):
    m = memory(embedder="none")
    cfg = TiersConfig(stm_capacity=7, mtm_capacity=8, kb_capacity=10)
    tiers = Tiers(m.executor, CONV, cfg)
    evicted_checked = 0
    # 80 turns: ~30 evictions and ~17 promotions, each eviction checked
    for i, turn in enumerate(synthetic_turns(80, seed=3)):
        before = {k: tiers.heat_of(s, clock.now()) for k, s in tiers.segments.items()}
        evictions = tiers.stats["evictions"]
        clock.set(turn.time)
        tiers.observe(encode_message(m, CONV, "user", turn.user, turn.time, (turn.source_ids[0],), 2 * i))
        clock.set(turn.time + timedelta(seconds=1))
        tiers.observe(
            encode_message(
                m, CONV, "assistant", turn.assistant, clock.now(), (turn.source_ids[1],), 2 * i + 1
            )
        )
        assert len(tiers.segments) <= cfg.mtm_capacity and len(tiers.stm) <= cfg.stm_capacity
        if tiers.stats["evictions"] > evictions:
            gone = set(before) - set(tiers.segments)
            assert len(gone) == 1
            assert before[gone.pop()] == pytest.approx(min(before.values()), abs=0.02)  # the coldest went
            evicted_checked += 1
        if i % 10 == 9:
            tiers.context(f"what about {turn.topic}?", 800)
    assert evicted_checked > 0 and tiers.stats["promotions"] > 0
    assert len(rows(m, "segment", "mtm")) <= cfg.mtm_capacity
    assert len(rows(m, "knowledge", "lpm")) <= cfg.kb_capacity
    deleted = m.execute(
        {
            "op": "Retrieve",
            "target": {
                "filter": {"has_tags": [f"conv:{CONV}"], "facets": {"level": "segment"}, "status": "deleted"}
            },
            "args": {"include": ["id"]},
            "meta": {"dry_run": True},
        }
    ).data["rows"]
    assert len(deleted) == tiers.stats["evictions"]
    note = next(h for h in m.history(deleted[0]["id"]) if h["op"] == "Delete")["note"]
    assert note.startswith("tiers: evict coldest MTM segment")
    promoted = [s for s in rows(m, "segment", "mtm") if any(h["op"] == "Promote" for h in m.history(s["id"]))]
    assert promoted
    history = m.history(promoted[0]["id"])
    i = max(j for j, h in enumerate(history) if h["op"] == "Promote")
    assert "> τ 5.0" in history[i]["note"]
    reset = history[i + 1]  # the same workflow resets the interaction count
    assert reset["op"] == "Update" and reset["after"]["facets"]["interactions"] == 0
    assert reset["workflow_id"] == history[i]["workflow_id"]
    assert rows(m, "profile", "lpm") and rows(m, "trait", "lpm", of="user")


def test_state_survives_a_restart(memory, clock):
    m = memory(embedder="none")
    cfg = TiersConfig(stm_capacity=2, heat_threshold=2)
    tiers = Tiers(m.executor, CONV, cfg)
    for n in range(6):
        exchange(
            m, tiers, clock, n, f"I planted {n} tomato seedlings in the garden.", "Tomato garden, great."
        )
    say(m, tiers, clock, "user", "I also bought a new watering can.", 12)  # waiting for its reply
    again = Tiers(m.executor, CONV, cfg)
    assert [p.id for p in again.stm] == [p.id for p in tiers.stm]
    assert again.segments.keys() == tiers.segments.keys()
    assert {k: s.interactions for k, s in again.segments.items()} == {
        k: s.interactions for k, s in tiers.segments.items()
    }
    assert set(again.lpm) == set(tiers.lpm)
    assert [msg.position for msg in again.pending] == [12]
    say(m, again, clock, "assistant", "A watering can helps.", 13)
    newest = max(rows(m, "page"), key=lambda r: r["facets"]["positions"][0])
    assert newest["facets"]["positions"] == [12, 13]


def test_context_is_cited_and_within_budget(memory, clock):
    m = memory(embedder="none")
    tiers = Tiers(m.executor, CONV, TiersConfig(stm_capacity=3, heat_threshold=2))
    ingest(m, tiers, synthetic_turns(40, seed=5), clock)
    message_ids = {r["id"] for r in rows(m, "message")}
    sources = {s for r in rows(m, "message") for s in r["facets"]["source_ids"]}
    for budget in (60, 300, 2000):
        context = tiers.context("What happened with my hiking boots?", budget)
        assert context.tokens <= budget and context.strategy == "tiers"
        assert set(context.source_ids) <= sources
        for piece in context.pieces:
            assert piece.memory_ids and piece.level in {"page", "segment", "knowledge", "profile", "trait"}
            if piece.level == "page":
                assert set(piece.memory_ids) <= message_ids
                assert piece.text.startswith("[" + ", ".join(piece.source_ids))
    big = tiers.context("What happened with my hiking boots?", 2000)
    assert {p.level for p in big.pieces} >= {"page", "segment"}
    assert len([p for p in big.pieces if p.level == "page"]) <= 3 + 10  # all of STM + top-k pages


def test_config_is_checked_by_name():
    with pytest.raises(ValueError, match="stm_capcity"):
        TiersConfig.from_dict({"stm_capcity": 3})
    with pytest.raises(ValueError, match="mtm_capacity"):
        TiersConfig(mtm_capacity=0)
    assert (
        TiersConfig().fscore_threshold == 0.6
        and TiersConfig().mu_s == 1e7
        and TiersConfig().mtm_capacity == 200
    )


def test_a_locked_segment_is_left_as_it_is_and_the_page_founds_another(memory, clock):
    # issue 16 item 7: a move that would change a locked record is not made; the strategy carries on
    m = memory(embedder="none")
    cfg = TiersConfig(stm_capacity=1)
    tiers = Tiers(m.executor, CONV, cfg)
    exchange(
        m, tiers, clock, 0, "I love sourdough bread baking with rye flour.", "Rye flour sourdough bread!"
    )
    exchange(m, tiers, clock, 1, "My sourdough bread with rye flour rose well.", "Great sourdough bread.")
    [segment] = rows(m, "segment", "mtm")
    assert m.lock(segment["id"], reason="frozen for review").success
    # page 2 closes; page 1 would join the locked segment: it founds a segment of its own instead
    exchange(m, tiers, clock, 2, "Sourdough rye bread again today with more flour.", "Sourdough bread!")
    assert sorted(r["facets"]["positions"] for r in rows(m, "page", "stm")) == [[4, 5]]
    segments = rows(m, "segment", "mtm")
    assert len(segments) == 2
    [after] = [s for s in segments if s["id"] == segment["id"]]
    assert after["text"] == segment["text"] and after["facets"] == segment["facets"]
    assert [p.first for p in tiers.stm] == [4]
    again = Tiers(m.executor, CONV, cfg)
    assert [p.id for p in again.stm] == [p.id for p in tiers.stm]
    assert {k: s.pages for k, s in again.segments.items()} == {k: s.pages for k, s in tiers.segments.items()}
