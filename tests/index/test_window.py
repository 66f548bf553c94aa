"""The window of best matches (memql.index.window.best) against a full sort: the same indices in the same
order however many matches share a score, whether or not a sample first narrows them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.index import window


def by_full_sort(nums: np.ndarray, scores: np.ndarray, count: int) -> list[int]:
    return np.lexsort((-nums, -scores))[:count].tolist()


@settings(max_examples=examples(200), deadline=None)
@given(
    size=st.integers(1, 3000),
    levels=st.integers(1, 40),  # how many distinct scores: few make long runs of ties
    count=st.integers(1, 70),
    seed=st.integers(0, 2**32 - 1),
    sampled_from=st.sampled_from([0, window.SAMPLED_FROM]),
)
def test_best_is_the_head_of_a_full_sort(size, levels, count, seed, sampled_from):
    rng = np.random.default_rng(seed)
    nums = rng.permutation(size * 3)[:size].astype(np.int64)  # distinct record numbers, unordered
    scores = rng.integers(1, levels + 1, size).astype(np.float64) / 7.0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(window, "SAMPLED_FROM", sampled_from)
        assert window.best(nums, scores, count).tolist() == by_full_sort(nums, scores, count)


def test_a_common_words_search_narrows_by_a_sample_and_keeps_every_tie():
    rng = np.random.default_rng(7)
    size = 200_000
    nums = np.arange(size, dtype=np.int64) + 1
    scores = np.round(rng.gamma(2.0, 1.0, size), 2)  # BM25-like: a long tail, many equal values
    scores[rng.choice(size, 500, replace=False)] = scores.max()  # a run of ties at the top
    for count in (1, 11, 65, 501, 4000):
        assert window.best(nums, scores, count).tolist() == by_full_sort(nums, scores, count)
