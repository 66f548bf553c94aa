"""The postings index's joined runs (memql.index.postings): a searched term's postings, joined into one run
across the segments and the fresh postings, kept for the next searches.

Scoring costs a dozen numpy calls a run, and a store written to since its last merge holds a term in two
to four runs (a document's postings of a term lie in one), so a search joins each query term's runs and
keeps the result. New postings of a kept term -- fresh ones, or the term's run in a segment of documents
put together -- wait as its tail, which the term's next search appends: beside a writer, whose documents
reach a reader before most of its searches, dropping the runs of every term a new document holds, or all
of them at each new segment, left the common terms to be joined again at nearly every search. A seal or
a merge moves no position, so the runs stay as they are; a compaction renumbers the positions and drops
them all. Tombstoned postings stay in a run (each search filters them). Bounded: a term's run and tail up
to RUN_MAX postings (past it, that term is dropped), everything kept up to MAX (past it, all is), and the
tails -- Python lists, ~70 bytes a posting where a run takes 12 -- up to TAILS_MAX: past it the terms
with a tail, those not searched since their last postings came, are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memql.index.segment import Segment

RUN_MAX, MAX = 1 << 16, 1 << 20  # postings kept: of a term (its run and tail), in all
TAILS_MAX = 1 << 16  # postings waiting in tails
SEGMENT_SHARE = 1.0  # a new segment of up to this many times the postings kept joins their tails

Run = tuple[np.ndarray, np.ndarray]  # positions (numpy's index type) and frequencies (float32)


class JoinedRuns:
    """Joined runs by term id, with the tails still to append; `size` counts the postings of both."""

    __slots__ = ("room", "runs", "size", "tailed", "tails")

    def __init__(self) -> None:
        self.runs: dict[int, Run] = {}
        self.tails: dict[int, tuple[list[int], list[float]]] = {}  # of kept terms only
        self.room: dict[int, Run] = {}  # the arrays a run grown by its tail is a view of, with room after it
        self.size = 0  # (a run's room, at most as long again, is not counted)
        self.tailed = 0  # postings in the tails

    def get(self, term: int) -> Run | None:
        """The term's kept run with its tail appended (the run a join would make now), or None. Appended in
        place, into room left after the run (twice what it needed when it last grew): copying a common
        term's whole run for the few postings a writer's document adds cost more than scoring it. The
        room past a run is written only: a run handed out earlier never changes."""
        run = self.runs.get(term)
        tail = self.tails.pop(term, None)
        if run is None or tail is None:
            return run
        n, more = len(run[0]), len(tail[0])
        self.tailed -= more
        room = self.room.get(term)
        if room is None or len(room[0]) < n + more:
            room = self.room[term] = (np.empty(2 * (n + more), np.intp), np.empty(2 * (n + more), np.float32))
            room[0][:n], room[1][:n] = run
        room[0][n : n + more], room[1][n : n + more] = tail
        run = self.runs[term] = (room[0][: n + more], room[1][: n + more])
        return run

    def keep(self, term: int, run: Run) -> None:
        """Keep the term's joined run (it has no tail), in place of the one kept before."""
        self._forget(term)
        if len(run[0]) > RUN_MAX:
            return
        if self.size + len(run[0]) > MAX:
            self.clear()
        self.runs[term] = run
        self.size += len(run[0])

    def add(self, term: int, docs: Sequence[int], freqs: Sequence[float]) -> None:
        """New postings of a kept term, for its next search to append."""
        tail = self.tails.get(term)
        if tail is None:
            tail = self.tails[term] = ([], [])
        tail[0].extend(docs)
        tail[1].extend(freqs)
        self.size += len(docs)
        self.tailed += len(docs)
        if len(self.runs[term][0]) + len(tail[0]) > RUN_MAX:
            self._forget(term)
        elif self.size > MAX:
            self.clear()
        elif self.tailed > TAILS_MAX:
            for waiting in list(self.tails):
                self._forget(waiting)

    def add_segment(self, segment: Segment) -> None:
        """A segment of documents put together: each kept term's run in it joins the term's tail -- unless
        the segment is larger than all that is kept, which the searches then join afresh for less."""
        if not self.runs or not len(segment.terms):
            return
        if len(segment) > SEGMENT_SHARE * self.size:
            self.clear()
            return
        kept = np.fromiter(self.runs, np.int64, len(self.runs))
        at = np.minimum(np.searchsorted(segment.terms, kept), len(segment.terms) - 1)
        held = segment.terms[at] == kept
        offsets = segment.offsets
        for term, i in zip(kept[held].tolist(), at[held].tolist(), strict=True):
            start, end = offsets[i], offsets[i + 1]
            if term in self.runs:  # (not dropped by an earlier term's addition)
                self.add(term, segment.docs[start:end].tolist(), segment.freqs[start:end].tolist())

    def clear(self) -> None:
        """Drop everything kept (positions moved, or past MAX). In place: callers hold `runs`."""
        self.runs.clear()
        self.tails.clear()
        self.room.clear()
        self.size = self.tailed = 0

    def _forget(self, term: int) -> None:
        run, tail = self.runs.pop(term, None), self.tails.pop(term, None)
        self.room.pop(term, None)
        waiting = 0 if tail is None else len(tail[0])
        self.size -= (0 if run is None else len(run[0])) + waiting
        self.tailed -= waiting
