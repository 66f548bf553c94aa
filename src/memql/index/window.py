"""The best matches of a scored index that pass a query's conditions: shared by the backends whose
in-process BM25 index (memql.index.postings) ranks a search while the database checks its conditions.

The index scores every match in numpy; the database checks tenant, status, expiry, clearance, consent and
every other condition on a window of the best ones, which widens while a wider one could change the
answer. Past the widest window the backend's exact query answers instead, so a matching record is never
lost to a top-k cut.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

SAMPLED_FROM = 20_000  # from this many matches `best` first narrows them by a sample's bound

# record numbers -> those that pass the conditions, each with (weight, what the backend keeps of it)
Passing = Callable[[list[int]], dict[int, tuple[float, Any]]]


def filtered_top(
    limit: int, nums: np.ndarray, scores: np.ndarray, passing: Passing, first_window: int, max_window: int
) -> list[tuple[int, float, Any]] | None:
    """The `limit` best matches that pass, as (record number, score, what `passing` kept), ordered as the
    exact query orders them (score, then weight, then the newest record), or None when the window would
    grow past `max_window`.

    The window starts a little above `limit` (most searches have no filter that rejects many matches)
    and never ends inside a run of equal scores: it takes the whole run, so every match left outside
    scores below every match inside, and `limit` passing matches answer at once (a tie outside could
    otherwise outrank one inside by weight). It widens (x8, the last step to `max_window` itself) while
    fewer pass."""
    hits: list[tuple[float, float, int, Any]] = []  # (score, weight, num, kept)
    window, checked = max(limit + limit // 4, first_window), 0
    while True:
        order = best(nums, scores, window + 1)  # one more: the best match left outside the window
        if len(order) > window and scores[order[window]] == scores[order[window - 1]]:
            window = int(np.count_nonzero(scores >= scores[order[window - 1]]))  # the whole run
            order = best(nums, scores, window + 1)
        if window > max_window:
            return None
        fresh = order[checked:window]
        passed = passing(nums[fresh].tolist())
        hits += [
            (s, passed[n][0], n, passed[n][1])
            for n, s in zip(nums[fresh].tolist(), scores[fresh].tolist(), strict=True)
            if n in passed
        ]
        checked = len(fresh) + checked
        hits.sort(key=lambda h: (-h[0], -h[1], -h[2]))
        if len(order) <= window or len(hits) >= limit:
            return [(n, s, kept) for s, _, n, kept in hits[:limit]]
        if window >= max_window:
            return None
        window = min(window * 8, max_window)


def best(nums: np.ndarray, scores: np.ndarray, count: int) -> np.ndarray:
    """Indices of the `count` best matches, best first: higher score, then higher record number (FTS5's
    window order), so a wider window always extends a narrower one."""
    if count >= len(scores):
        return np.lexsort((-nums, -scores))
    if len(scores) >= SAMPLED_FROM and len(scores) >= 64 * count:
        # the count-th best of a sample is at most the count-th best of all: every match above it
        # holds the answer, and there are few of them (a common word's search scores most documents)
        sample = scores[:: max(1, len(scores) // int(2 * (len(scores) * count) ** 0.5))]
        if len(sample) > count:
            floor = np.partition(sample, len(sample) - count)[len(sample) - count]
            within = np.flatnonzero(scores >= floor)
            if len(within) < len(scores):
                return within[best(nums[within], scores[within], count)]
    part = np.argpartition(-scores, count - 1)[:count]
    floor = scores[part].min()
    above = np.flatnonzero(scores > floor)
    tied = np.flatnonzero(scores == floor)
    tied = tied[np.argsort(-nums[tied], kind="stable")[: count - len(above)]]
    chosen = np.concatenate([above, tied])
    return chosen[np.lexsort((-nums[chosen], -scores[chosen]))]
