"""A segment of the in-process BM25 index (memql.index.postings): immutable postings sorted by term."""

from __future__ import annotations

import numpy as np

_NONE = np.zeros(0, np.int64)


class Segment:
    """Postings sorted by term: `terms` (distinct term ids, ascending) and `offsets` delimit each term's
    run of `docs` (positions) and `freqs` (body count + CONTEXT_WEIGHT x context count)."""

    __slots__ = ("docs", "freqs", "offsets", "terms")

    def __init__(self, terms: np.ndarray, offsets: np.ndarray, docs: np.ndarray, freqs: np.ndarray) -> None:
        self.terms, self.offsets, self.docs, self.freqs = terms, offsets, docs, freqs

    def __len__(self) -> int:
        return len(self.docs)

    @classmethod
    def of_runs(cls, terms: np.ndarray, docs: np.ndarray, freqs: np.ndarray) -> Segment:
        """From postings already grouped by term (ascending), one term id per posting."""
        starts = np.flatnonzero(np.concatenate(([True], terms[1:] != terms[:-1]))) if len(terms) else _NONE
        offsets = np.append(starts, len(terms)).astype(np.int64)
        return cls(terms[starts].astype(np.int32), offsets, docs.astype(np.int32), freqs.astype(np.float32))

    def expanded_terms(self) -> np.ndarray:
        return np.repeat(self.terms, np.diff(self.offsets))

    def postings(self, term: int) -> tuple[np.ndarray, np.ndarray] | None:
        i = int(np.searchsorted(self.terms, term))
        if i == len(self.terms) or self.terms[i] != term:
            return None
        start, end = self.offsets[i], self.offsets[i + 1]
        return self.docs[start:end], self.freqs[start:end]
