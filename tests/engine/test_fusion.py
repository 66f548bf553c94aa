"""Hybrid fusion (docs/engine.md "Search ranking"): lexical and dense evidence combined on absolute scales,
on both backends.

The defect class pinned here: with min-max scaling of the cosines over the candidates, a record that
contains the query's words but has the lowest cosine got no dense credit at all and tied a record that
matches none of the words, which weight shaping then put first (memql bench set,
memql-zh-indirect-single-update-time-by-search-02). The embedder below places each text at an exact cosine
to the query, so the cases are precise.
"""

from __future__ import annotations

import numpy as np
import pytest

QUERY = "dentist appointment"
DIMENSION = 8


class PlacedVectors:
    """An embedding where the query is the first axis and each known text its own unit vector at a chosen
    cosine to it (the rest of the vector on an axis of the text's own, so texts are orthogonal beyond the
    query direction)."""

    model = "test-placed-vectors"
    dimension = DIMENSION

    def __init__(self, cosines: dict[str, float]) -> None:
        self.cosines = cosines
        self.axes = {text: i for i, text in enumerate(cosines, start=1)}

    def embed(self, texts):
        return [self.vector(t).tolist() for t in texts]

    def vector(self, text: str) -> np.ndarray:
        v = np.zeros(DIMENSION)
        if text == QUERY:
            v[0] = 1.0
        else:
            c = self.cosines[text]
            v[0], v[self.axes[text]] = c, np.sqrt(1.0 - c * c)
        return v


MATCH = "dentist appointment moved to Friday"  # the query's words, the lowest cosine
CLOSE = "the clinic called about next week"  # no query word, the best cosine
OTHER = "call the clinic back before noon"  # no query word
COSINES = {MATCH: 0.30, CLOSE: 0.34, OTHER: 0.32, "a photo of a tooth, very close in meaning": 0.9}


@pytest.fixture
def hybrid(memory):
    m = memory(embedder=PlacedVectors(COSINES))
    assert m.encode(MATCH, weight=0.5).success
    assert m.encode(CLOSE, weight=0.8).success  # weight shaping favours the non-match
    assert m.encode(OTHER, weight=0.5).success
    return m


def _rows(m, **overrides):
    result = m.retrieve(QUERY, include=["id", "text", "score", "explain"], overrides=overrides or None)
    assert result.success, result.diagnostics
    return result.data["rows"]


def test_a_record_with_the_query_words_outranks_one_with_none_at_close_cosines(hybrid):
    rows = _rows(hybrid, heat=0)
    assert [r["text"] for r in rows] == [MATCH, CLOSE, OTHER]
    match, close, _ = (r["explain"] for r in rows)
    assert match["dense"] == pytest.approx(0.30, abs=1e-6)  # the lowest cosine still counts as evidence
    assert match["fused"] > close["fused"] + 0.3  # a clear win, not a tie left to shaping


def test_the_explanation_accounts_for_the_fused_score(hybrid):
    for row in _rows(hybrid):
        e = row["explain"]
        assert e["alpha"] == 0.5
        assert e["dense"] == pytest.approx(e["cosine"], abs=1e-6)  # the cosine itself, not rescaled
        assert e["fused"] == pytest.approx(0.5 * e["lexical"] + 0.5 * e["dense"], abs=1e-6)
        if "bm25" in e:
            assert e["lexical"] == 1.0  # the only lexical match: the best BM25
        else:
            assert e["lexical"] == 0.0


def test_a_records_dense_evidence_does_not_depend_on_the_other_candidates(hybrid):
    before = {r["text"]: r["explain"]["dense"] for r in _rows(hybrid)}
    assert hybrid.encode("a photo of a tooth, very close in meaning").success  # a far better cosine
    after = {r["text"]: r["explain"]["dense"] for r in _rows(hybrid)}
    assert {t: after[t] for t in before} == before


def test_alpha_keeps_its_meaning(hybrid):
    assert [r["text"] for r in _rows(hybrid, alpha=0.0)] == [MATCH]  # lexical only
    dense_only = _rows(hybrid, alpha=1.0, heat=0)
    assert [r["text"] for r in dense_only] == [CLOSE, OTHER, MATCH]  # by cosine
    assert all(r["explain"]["fused"] == pytest.approx(r["explain"]["cosine"], abs=1e-6) for r in dense_only)
