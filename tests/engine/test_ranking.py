"""Search ranking (DESIGN §7): fused scores shaped by weight, recency and heat, MMR diversity, and the
explanation of every score.

Lexical tests run without an embedder (tests/conftest.py); the hybrid MMR test uses the packaged MiniLM
and skips when its weights are absent.
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from memql.engine.context import EngineConfig
from memql.lang import json_schema
from memql.services.embedding import INSTALL_COMMAND, MiniLMEmbedder, available
from memql.services.tokenize import tokens

SHAPED = {"fused", "weight", "recency", "age_days", "heat", "visits", "score"}


def _rows(result):
    assert result.success, result.diagnostics
    return result.data["rows"]


def _ids(result):
    return [row["id"] for row in _rows(result)]


def _search(m, query, **overrides):
    return m.retrieve(query, include=["id", "text", "score", "explain"], overrides=overrides or None)


def _search_ir(query, overrides):
    return {"op": "Retrieve", "target": {"search": {"intent": {"query": query}, "overrides": overrides}}}


# --- recency ---------------------------------------------------------------------------------------


def test_recency_puts_the_newer_of_two_equal_matches_first(m, t0):
    # the newer memory is encoded first, so without recency the id tie-break (newest id) favours the older
    m.encode("lunch with Ana at the harbour", time=(t0 - timedelta(days=2)).isoformat())
    m.encode("lunch with Bob at the harbour", time=(t0 - timedelta(days=200)).isoformat())
    assert _ids(_search(m, "lunch harbour", recency=0)) == ["2", "1"]
    rows = _rows(_search(m, "lunch harbour"))
    assert [r["id"] for r in rows] == ["1", "2"]
    new, old = (r["explain"] for r in rows)
    assert new["fused"] == old["fused"]  # equal matches: recency alone decides
    assert new["age_days"] == 2.0 and old["age_days"] == 200.0
    assert 1.0 < old["recency"] < new["recency"] <= 1.1


def test_recency_uses_the_creation_time_without_an_event_time(m, clock):
    m.encode("invoice from the printer shop")
    clock.advance(timedelta(days=60))
    m.encode("invoice from the paint shop")
    rows = _rows(_search(m, "invoice shop"))
    assert [(r["id"], r["explain"]["age_days"]) for r in rows] == [("2", 0.0), ("1", 60.0)]
    half_life = EngineConfig().recency_half_life / timedelta(days=1)
    expected = 1 + EngineConfig().recency_shaping * 0.5 ** (60 / half_life)
    assert rows[1]["explain"]["recency"] == pytest.approx(expected, abs=1e-6)


def test_a_much_stronger_match_beats_a_newer_weak_one(m, t0):
    m.encode(
        "sourdough starter feeding schedule for the sourdough starter",
        time=(t0 - timedelta(days=3 * 365)).isoformat(),
    )
    m.encode(
        "grocery list: milk, eggs, flour, apples, sourdough, butter, rice, beans, tea",
        time=t0.isoformat(),
    )
    rows = _rows(_search(m, "sourdough starter feeding"))
    assert [r["id"] for r in rows] == ["1", "2"]
    strong, weak = (r["explain"] for r in rows)
    assert weak["recency"] > strong["recency"]  # the newer one is lifted, but not past a clear winner


def test_the_default_recency_and_heat_are_mild():
    config = EngineConfig()
    # at equal weights, a match 20% stronger never loses to a newer, hotter one
    assert (1 + config.recency_shaping) * (1 + config.heat_shaping) < 1.2


# --- heat ------------------------------------------------------------------------------------------


def test_heat_lifts_a_visited_memory_over_an_equal_match(m, clock):
    m.encode("parking spot B12 at the office")
    m.encode("parking spot C7 at the station")
    assert _ids(_search(m, "parking spot", heat=0)) == ["2", "1"]  # tie: the newer id
    for _ in range(4):
        m.retrieve(ids="1")  # reads are visits
    rows = _rows(_search(m, "parking spot"))
    assert [r["id"] for r in rows] == ["1", "2"]
    hot, cold = (r["explain"] for r in rows)
    assert hot["visits"] == 5 and cold["visits"] == 1  # the heat=0 search above visited both once
    assert hot["heat"] > cold["heat"] > 1.0


def test_heat_saturates_and_cools_down(m, clock):
    config = EngineConfig()
    m.encode("wifi password for the guest network")
    for _ in range(50):
        m.retrieve(ids="1")
    (row,) = _rows(_search(m, "wifi password"))
    heat = row["explain"]["heat"]
    assert 1 + 0.85 * config.heat_shaping < heat < 1 + config.heat_shaping  # 50 visits: near, below, the cap
    clock.advance(config.heat_half_life)
    (row,) = _rows(_search(m, "wifi password"))
    assert row["explain"]["heat"] - 1 == pytest.approx((heat - 1) / 2, rel=0.02)  # one half-life later


def test_shaping_strengths_come_from_the_engine_config(memory):
    m = memory(config=EngineConfig(recency_shaping=0.0, heat_shaping=0.0, weight_shaping=0.0))
    m.encode("quarterly report draft", weight=1.0)
    m.retrieve(ids="1")
    (row,) = _rows(_search(m, "quarterly report"))
    assert (row["explain"]["recency"], row["explain"]["heat"]) == (1.0, 1.0)
    assert row["score"] == row["explain"]["fused"] == 1.0


def test_order_by_sorts_the_best_matches_it_does_not_choose_them(m, t0):
    m.encode("kayak rental kayak paddles kayak", time=(t0 - timedelta(days=90)).isoformat())
    m.encode("kayak trip with the club", time=(t0 - timedelta(days=60)).isoformat())
    m.encode("a long note about the garden, the fence, the shed and, once, a kayak", time=t0.isoformat())
    assert _ids(_search(m, "kayak", k=2)) == ["1", "2"]
    assert _ids(m.retrieve("kayak", k=2, order_by="time_desc")) == ["2", "1"]  # not the newest match, 3


# --- explanations ----------------------------------------------------------------------------------


def test_every_search_result_explains_its_score(m, t0):
    m.encode("train to Bergen on Friday", weight=0.8, time=(t0 - timedelta(days=10)).isoformat())
    m.encode("train tickets refunded", weight=0.3)
    m.retrieve(ids="2")
    config = EngineConfig()
    for row in _rows(_search(m, "train")):
        e = row["explain"]
        assert SHAPED | {"alpha", "bm25", "lexical_rank"} <= set(e)
        assert e["alpha"] == 0.0  # no embedder: lexical only
        weight = 1 + config.weight_shaping * (e["weight"] - 0.5)
        assert e["score"] == pytest.approx(e["fused"] * weight * e["recency"] * e["heat"], abs=1e-5)
        assert row["score"] == pytest.approx(e["score"], abs=1e-6)
        assert "mmr_rank" not in e


def test_a_point_in_time_search_ages_memories_from_as_of(m, clock, t0):
    m.encode("dentist appointment moved", time=(t0 - timedelta(days=5)).isoformat())
    clock.advance(timedelta(days=30))
    (row,) = _rows(
        m.retrieve("dentist", include=["id", "explain"], as_of=(t0 + timedelta(days=1)).isoformat())
    )
    assert row["explain"]["age_days"] == 6.0


# --- overrides: validation and schema --------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "rule", "field"),
    [
        ({"mmr": 1.5}, "field.range", "mmr"),
        ({"mmr": -0.1}, "field.range", "mmr"),
        ({"mmr": True}, "field.type", "mmr"),
        ({"recency": -1}, "field.range", "recency"),
        ({"recency": "high"}, "field.type", "recency"),
        ({"heat": 2}, "field.range", "heat"),
    ],
)
def test_wrong_override_values_are_diagnosed(m, rules, overrides, rule, field):
    result = m.execute(_search_ir("coffee", overrides))
    assert not result.success and rules(result) == [rule]
    assert result.diagnostics[0].path == f"/target/search/overrides/{field}"


def test_a_misspelt_override_gets_a_suggestion(m, rules):
    result = m.execute(_search_ir("coffee", {"recencey": 0.2}))
    assert rules(result) == ["field.unknown"]
    assert "did you mean 'recency'?" in result.diagnostics[0].message


def test_the_schema_documents_the_overrides():
    props = json_schema("ir")["$defs"]["SearchOverrides"]["properties"]
    for name in ("recency", "heat", "mmr"):
        variant = next(v for v in props[name]["anyOf"] if v.get("type") == "number")
        assert (variant["minimum"], variant["maximum"]) == (0.0, 1.0)
        assert props[name]["description"]
    assert "maximal marginal relevance" in props["mmr"]["description"]
    assert "0 turns it off" in props["recency"]["description"]


# --- MMR -------------------------------------------------------------------------------------------


@pytest.fixture
def grinders(m):
    m.encode("coffee grinder burr settings: medium fine for the moka pot", time="2026-01-10T08:00:00Z")
    m.encode("coffee grinder burr settings: medium fine for the moka pot.", time="2026-02-10T08:00:00Z")
    m.encode("coffee grinder cleaning with rice tablets every month", time="2026-01-20T08:00:00Z")
    m.encode("tea kettle descaling", time="2026-02-20T08:00:00Z")
    return m


def test_mmr_keeps_near_duplicates_apart(grinders):
    assert _ids(_search(grinders, "coffee grinder burr settings"))[:2] == ["2", "1"]
    rows = _rows(_search(grinders, "coffee grinder burr settings", mmr=0.3))
    assert [r["id"] for r in rows] == ["2", "3", "1"]
    first, second, third = (r["explain"] for r in rows)
    assert [e["mmr_rank"] for e in (first, second, third)] == [1, 2, 3]
    assert first["redundancy"] == 0.0
    assert 0.0 < second["redundancy"] < 0.5 and third["redundancy"] == 1.0  # same words as the first
    assert first["mmr"] > second["mmr"] > third["mmr"]


def test_mmr_at_lambda_one_is_the_plain_ranking(grinders):
    plain = _rows(_search(grinders, "coffee grinder", heat=0))  # heat=0: this search's visits change nothing
    same = _rows(_search(grinders, "coffee grinder", heat=0, mmr=1.0))
    assert [(r["id"], r["score"]) for r in same] == [(r["id"], r["score"]) for r in plain]
    assert [r["explain"]["mmr_rank"] for r in same] == list(range(1, len(same) + 1))


def test_mmr_respects_k_and_order_by(grinders):
    assert _ids(_search(grinders, "coffee grinder burr", mmr=0.2, k=2)) == ["2", "3"]
    ir = _search_ir("coffee grinder burr", {"mmr": 0.2, "k": 2, "order_by": "time_asc"})
    assert _ids(grinders.execute(ir)) == ["3", "2"]  # the diverse pair, oldest first
    ir = _search_ir("coffee grinder burr", {"mmr": 0.2, "k": 2, "order_by": "time_desc"})
    assert _ids(grinders.execute(ir)) == ["2", "3"]


@pytest.fixture
def minilm() -> MiniLMEmbedder:
    if not available():
        pytest.skip(f"all-MiniLM-L6-v2 weights not installed ({INSTALL_COMMAND})")
    return MiniLMEmbedder.shared()


def test_mmr_measures_redundancy_by_embedding_cosine(memory, minilm):
    m = memory(embedder=minilm)
    texts = [
        "We adopted a golden retriever puppy named Max",
        "We adopted a golden retriever puppy, his name is Max",
        "Golden retriever puppies need a lot of exercise and daily brushing",
        "The quarterly tax filing is due in April",
    ]
    for text in texts:
        assert m.encode(text).success
    query = "golden retriever puppy"
    assert _ids(_search(m, query, heat=0))[:3] == ["1", "2", "3"]  # the paraphrase is second
    rows = _rows(_search(m, query, heat=0, mmr=0.5))
    assert [r["id"] for r in rows][:3] == ["1", "3", "2"]  # and gives way to a different point
    paraphrase = rows[2]["explain"]
    vectors = minilm.embed_array(texts[:2])
    cosine = float(vectors[0] @ vectors[1] / np.prod(np.linalg.norm(vectors, axis=1)))
    assert paraphrase["redundancy"] == pytest.approx(cosine, abs=1e-4)  # cosine, not token overlap
    assert {"cosine", "dense_rank", "mmr_rank"} <= set(paraphrase) and paraphrase["alpha"] == 0.5


def test_mmr_falls_back_to_token_overlap_for_records_not_embedded_yet(memory, minilm):
    m = memory(embedder=minilm)
    m.encode("the boiler service is booked for Tuesday morning")
    m.encode("the boiler service is booked for Tuesday", skip_embedding=True)  # embedding pending
    m.encode("boiler pressure dropped again, call the plumber")
    rows = _rows(_search(m, "boiler service booked", heat=0, mmr=0.5))
    assert [r["id"] for r in rows] == ["1", "3", "2"]
    words = [frozenset(tokens(t)) for t in (rows[0]["text"], rows[2]["text"])]
    overlap = len(words[0] & words[1]) / len(words[0] | words[1])
    assert rows[2]["explain"]["redundancy"] == pytest.approx(overlap, abs=1e-6)
    assert "cosine" not in rows[2]["explain"]  # lexical candidate only: no vector yet
