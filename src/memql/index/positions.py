"""Record number -> position in the lexical index's per-document arrays (memql.index.postings)."""

from __future__ import annotations

import numpy as np

DENSE_NUMS = 1 << 22  # record numbers below max(this, 4 x positions) are looked up in an array


class Positions:
    """Record number -> position: an array for the usual dense numbering, a dict for outliers. Numbers
    come in arrays (a batch of documents) or one at a time (a few documents' put: numpy's calls on a
    handful of values cost more than the work)."""

    def __init__(self) -> None:
        self.dense = np.full(0, -1, np.int64)
        self.far: dict[int, int] = {}

    def _limit(self, positions: int) -> int:
        return max(DENSE_NUMS, 4 * positions)

    def _room(self, top: int, limit: int) -> None:
        """The array grown to hold numbers below `top` (at most `limit`)."""
        if top > len(self.dense):
            grown = np.full(min(limit, max(top, 2 * len(self.dense))), -1, np.int64)
            grown[: len(self.dense)] = self.dense
            self.dense = grown

    def get(self, nums: np.ndarray) -> np.ndarray:
        """The positions of these record numbers (-1: none)."""
        out = np.full(len(nums), -1, np.int64)
        near = nums < len(self.dense)
        out[near] = self.dense[nums[near]]
        if self.far:
            for i in np.flatnonzero(~near):
                out[i] = self.far.get(int(nums[i]), -1)
        return out

    def set(self, nums: np.ndarray, positions: np.ndarray, total: int) -> None:
        limit = self._limit(total)
        near = nums < limit
        if np.any(near):
            self._room(int(nums[near].max()) + 1, limit)
            self.dense[nums[near]] = positions[near]
        for num, pos in zip(nums[~near].tolist(), positions[~near].tolist(), strict=True):
            self.far[num] = pos

    def clear(self, nums: np.ndarray) -> None:
        near = nums < len(self.dense)
        self.dense[nums[near]] = -1
        for num in nums[~near].tolist():
            self.far.pop(num, None)

    def get_one(self, num: int) -> int:
        return int(self.dense[num]) if num < len(self.dense) else self.far.get(num, -1)

    def set_one(self, num: int, position: int, total: int) -> None:
        limit = self._limit(total)
        if num >= limit:
            self.far[num] = position
            return
        self._room(num + 1, limit)
        self.dense[num] = position

    def clear_one(self, num: int) -> None:
        if num < len(self.dense):
            self.dense[num] = -1
        else:
            self.far.pop(num, None)
