"""Automatic promotion episodic -> semantic (confidence > 0.9, use count > 10, similar episodes repeat),
on every backend: lexical similarity without an embedder, embedding cosine with the packaged MiniLM."""

from __future__ import annotations

import pytest

from memql.cognition.profile.a2p import derived_id
from memql.cognition.profile.promotion import PromotionConfig
from memql.services.embedding import INSTALL_COMMAND, MiniLMEmbedder, available

PYTHON = "User asked about Python async"


def episodes(m, *specs: tuple[str, float | None, int]) -> list[str]:
    """Episodic memories (content, confidence, use count), imported so their use counts are given."""
    items = []
    for content, confidence, uses in specs:
        item = {"content": content, "metadata": {"useCount": uses}}
        if confidence is not None:
            item["confidence"] = confidence
        items.append(item)
    result = m.import_a2p({"memories": {"a2p:episodic": items}})
    assert result.success, result.diagnostics
    return [row["record"] for row in result.imported]


def types(db, m, ids) -> list[str]:
    return [db.record(m, i).memory_type for i in ids]


def test_an_episode_that_repeats_is_promoted(m, db):
    ids = episodes(
        m,
        (PYTHON, 0.95, 12),
        ("User asked again about Python async", 0.5, 0),
        ("The user asked how async works in Python", None, 3),
        ("User asked about Rust lifetimes", 0.97, 20),  # no repeats
        ("User prefers dark mode", 0.99, 50),
    )
    report = m.promote_episodes()
    assert report.success, report.diagnostics
    (promoted,) = report.promoted
    assert (promoted.id, promoted.confidence, promoted.uses) == (ids[0], 0.95, 12)
    assert [(s["id"], s["similarity"], s["method"]) for s in promoted.similar] == [
        (ids[1], 1.0, "lexical"),
        (ids[2], 0.8, "lexical"),
    ]
    assert report.skipped == [
        {"id": ids[4], "reason": "0 similar episodic memories; needs 2"},
        {"id": ids[3], "reason": "0 similar episodic memories; needs 2"},
    ]
    assert types(db, m, ids) == ["semantic", "episodic", "episodic", "episodic", "episodic"]
    event = m.history(ids[0])[-1]
    assert event["op"] == "Update" and event["after"]["memory_type"] == "semantic"
    assert event["note"].startswith(
        "reclassify: promote episodic -> semantic (confidence 0.95 > 0.9, 12 uses"
    )


def test_the_thresholds_are_strict_and_configurable(memory, db):
    m = memory()
    ids = episodes(
        m,
        (PYTHON, 0.9, 50),  # confidence not above 0.9
        ("User asked about Python async again", 0.95, 10),  # uses not above 10
        ("User asked about Python async today", 0.2, 0),
    )
    assert m.promote_episodes().promoted == []
    looser = m.promote_episodes(PromotionConfig(min_confidence=0.85, min_uses=9), dry_run=True)
    assert [p.id for p in looser.promoted] == [ids[1]]  # the higher confidence goes first
    stricter = m.promote_episodes(PromotionConfig(min_confidence=0.85, min_similar=3))
    assert stricter.promoted == [] and types(db, m, ids) == ["episodic"] * 3
    with pytest.raises(ValueError):
        PromotionConfig(cosine_threshold=1.5)


def test_a_dry_run_shows_the_plan_and_changes_nothing(m, db):
    ids = episodes(
        m, (PYTHON, 0.95, 12), ("User asked again about Python async", 0.5, 0), (PYTHON + "!", 0.1, 0)
    )
    operations = len(db.operations(m))
    plan = m.promote_episodes(dry_run=True)
    assert plan.success and plan.dry_run and [p.id for p in plan.promoted] == [ids[0]]
    assert [(c.record_id, c.after["memory_type"]) for c in plan.result.preview] == [(ids[0], "semantic")]
    assert types(db, m, ids) == ["episodic"] * 3
    assert len(db.operations(m)) == operations
    assert [p.id for p in m.promote_episodes().promoted] == [ids[0]]  # the plan is what a real run does


def test_reads_count_as_uses_but_a_promotion_run_is_not_one(m, db):
    first = m.encode(PYTHON, memory_type="episodic", confidence=0.95).id
    m.encode("User asked again about Python async", memory_type="episodic")
    m.encode("User asked about Python async today", memory_type="episodic")
    for _ in range(10):
        m.retrieve(ids=[first])
    assert m.promote_episodes().promoted == []  # 10 uses: not above 10
    assert db.record(m, first).visits == 10  # looking did not count
    m.retrieve("python async")  # the 11th use
    assert [p.id for p in m.promote_episodes().promoted] == [first]


def test_of_a_group_of_repeats_the_best_is_promoted_and_stays_the_only_one(m, db):
    ids = episodes(
        m,
        (PYTHON, 0.95, 12),
        ("User asked again about Python async", 0.96, 15),
        ("User asked about Python async today", 0.97, 11),
    )
    first = m.promote_episodes()
    assert [p.id for p in first.promoted] == [ids[2]]  # the highest confidence
    assert {s["id"] for s in first.skipped} == {ids[0], ids[1]}
    assert all(s["reason"] == f"repeats memory {ids[2]}, promoted in this run" for s in first.skipped)
    second = m.promote_episodes(PromotionConfig(min_similar=1))
    assert second.promoted == []
    assert {s["reason"] for s in second.skipped} == {f"already known as semantic memory {ids[2]}"}
    assert types(db, m, ids) == ["episodic", "episodic", "semantic"]


def test_consolidating_promotion_folds_the_repeats_into_the_promoted_memory(m, db):
    ids = episodes(
        m,
        (PYTHON, 0.95, 12),
        ("User asked again about Python async", 0.5, 0),
        ("The user asked how async works in Python", None, 3),
    )
    m.lock(ids[2], reason="evidence under review")
    report = m.promote_episodes(PromotionConfig(consolidate=True, min_similar=2))
    assert report.success, report.diagnostics
    (promoted,) = report.promoted
    assert promoted.consolidated == [ids[1]]  # the locked repeat is left alone
    assert db.record(m, ids[1]).status == "deleted" and db.record(m, ids[2]).status == "active"
    assert db.record(m, ids[0]).payload_meta["consolidated_from"] == [derived_id("t", ids[1])]
    assert [e["op"] for e in m.history(ids[0])][-2:] == ["Merge", "Update"]


def test_a_locked_candidate_is_left_alone(m, db):
    ids = episodes(m, (PYTHON, 0.95, 12), (PYTHON + " again", 0.5, 0), (PYTHON + " today", 0.5, 0))
    m.lock(ids[0], reason="frozen")
    report = m.promote_episodes()
    assert report.promoted == [] and report.skipped == [{"id": ids[0], "reason": "locked"}]


@pytest.fixture
def minilm() -> MiniLMEmbedder:
    if not available():
        pytest.skip(f"all-MiniLM-L6-v2 weights not installed ({INSTALL_COMMAND})")
    return MiniLMEmbedder.shared()


def test_with_embeddings_repeats_are_found_by_meaning(memory, db, minilm):
    specs = [
        ("User called mom on Sunday", 0.95, 12),
        ("User phoned his mother on the weekend", 0.4, 0),  # few shared words, the same event
        ("The user rang their mum on Sunday evening", 0.4, 0),
        ("User asked about tax forms", 0.4, 0),
    ]
    lexical = memory()
    episodes(lexical, *specs)
    assert lexical.promote_episodes().promoted == []  # the words barely overlap

    dense = memory(embedder=minilm)
    ids = episodes(dense, *specs)
    (promoted,) = dense.promote_episodes().promoted
    assert promoted.id == ids[0]
    assert {s["id"] for s in promoted.similar} == {ids[1], ids[2]}
    assert all(s["method"] == "embedding" and s["similarity"] >= 0.75 for s in promoted.similar)
