"""An in-process BM25 index: postings in numpy arrays, scored exactly as FTS5 scores (memql.index.lexical).

Documents are keyed by record number and belong to a tenant. Each one gets a position: its row in the
per-document arrays (record number, length in tokens, tenant, alive). Its postings (term, position,
weighted frequency) live in immutable segments sorted by term. A batch of new or changed documents
becomes a new segment; a changed or removed document's old position is tombstoned (alive = False) and
its postings are dropped when their segment is merged. Segments merge when the newest grows to a quarter
of the one before, so sizes stay geometric (a few segments; each posting is merged O(log n) times); when
tombstones make up a quarter of the positions, everything is rewritten into one segment of live documents.
A batch of a few documents -- what a process catching up with another's writes absorbs at every read --
goes to the fresh postings instead (term -> positions and frequencies in Python lists), put in plain
Python: building and merging a segment cost ~85 us a document in numpy calls, each on a handful of
postings, and even without a segment numpy's calls cost twice the work (~60 us a put of two). They are
sealed into a segment past FRESH_MAX postings, and before a compaction or a snapshot; a query reads them
beside the segments.

The statistics are FTS5's, over every document of every tenant: N (live documents), the total of their
lengths (avgdl = total / N) and n(t), counted at query time from the term's live postings, which scoring
reads anyway.

A query gathers each query token's postings as one run (joined across the segments and the fresh
postings, kept for the next queries, new postings appended: memql.index.joined), computes their BM25
parts with numpy and adds them to the documents' scores one token after the other, in the query's phrase
order, as FTS5 sums its phrases: the same operations in the same order, so the scores equal FTS5's.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from memql.index import arrays_file
from memql.index.joined import JoinedRuns
from memql.index.lexical import CONTEXT_WEIGHT, IDF_FLOOR, K1, B, term_tokens
from memql.index.positions import Positions
from memql.index.segment import Segment

MERGE_RATIO = 4  # the newest segment merges into the one before once it is at least a quarter of its size
COMPACT_MIN = 1024  # tombstones that may wait for a merge; past this and a quarter of the positions: compact
FRESH_DOCS = 8  # a put of at most this many documents goes to the fresh postings, not a segment of its own
FRESH_MAX = 4096  # fresh postings sealed into a segment past this many
DENSE_AT = 8  # a search whose postings number an eighth of the positions or more sums them by one scan
_NONE = np.zeros(0, np.int64)
_NO_NORMS: tuple[tuple[int, int, int], np.ndarray] = ((-1, -1, -1), np.zeros(0))
Run = tuple[np.ndarray, np.ndarray]  # positions and, for each, a frequency or a BM25 part
_NO_RUN: Run = (np.zeros(0, np.intp), np.zeros(0, np.float32))
Numbers = Sequence[int] | Sequence[float] | np.ndarray  # put_counted's columns: lists or arrays

# non-ASCII index terms -> the tokens FTS5 makes of each (ASCII terms are their own single token)
Tokenizer = Callable[[Sequence[str]], Sequence[tuple[str, ...]]]


def python_tokenizer(terms: Sequence[str]) -> list[tuple[str, ...]]:
    """FTS5's tokenisation reproduced in Python (memql.index.lexical.term_tokens): exact except for
    characters whose Unicode properties changed after the tables FTS5 was built with."""
    return [term_tokens(t) for t in terms]


class BM25Postings:
    """The lexical index of one store (every tenant): documents by record number, BM25 as FTS5 computes it.

    `tokenizer` cuts non-ASCII index terms into FTS5's tokens; a backend that has FTS5 at hand passes FTS5
    itself, which makes the tokens exact by construction."""

    def __init__(self, tokenizer: Tokenizer = python_tokenizer) -> None:
        self.tokenizer = tokenizer
        self.term_cache: dict[str, tuple[str, ...]] = {}  # non-ASCII term -> its tokens
        self.vocab: dict[str, int] = {}
        self.tenant_codes: dict[str, int] = {}
        self.size = 0  # positions used, live or tombstoned
        self.nums = np.zeros(0, np.int64)
        self.lengths = np.zeros(0, np.float64)  # tokens in both columns, as float: the formula's |d|
        self.tenants = np.zeros(0, np.int32)
        self.alive = np.zeros(0, bool)
        self.live = 0  # N
        self.total = 0  # the live documents' lengths summed
        self.segments: list[Segment] = []
        self.fresh: dict[int, tuple[list[int], list[float]]] = {}  # term -> its fresh positions, frequencies
        self.fresh_size = 0
        self.joined = JoinedRuns()  # searched terms' postings, joined (`_joined`)
        self.positions = Positions()
        self._acc = np.zeros(0)  # scoring's accumulator, zero between searches (`_summed`)
        self._norms_of = _NO_NORMS  # (size, total, live) -> each position's length normalisation
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return self.live

    @property
    def postings(self) -> int:
        return sum(len(s) for s in self.segments) + self.fresh_size

    # --- writing ----------------------------------------------------------------------------------

    def remove(self, nums: Iterable[int]) -> None:
        """Tombstone these records' documents (numbers without one are ignored)."""
        wanted = np.fromiter(nums, np.int64)
        if not len(wanted):
            return
        with self.lock:
            self._remove(wanted)
            self._compact_if_sparse()

    def _remove(self, nums: np.ndarray) -> None:
        if not len(nums):
            return
        found = self.positions.get(np.unique(nums))
        found = found[found >= 0]
        found = found[self.alive[found]]
        if not len(found):
            return
        self.alive[found] = False
        self.live -= len(found)
        self.total -= int(self.lengths[found].sum())
        self.positions.clear(self.nums[found])

    def put(self, docs: Sequence[tuple[int, str, str, str]]) -> None:
        """Index (or re-index) documents: (record number, tenant, body, context), where body and context are
        the analyzer's output as stored in FTS5 (`index_text`). A number given twice keeps its last text."""
        last = {num: i for i, (num, *_rest) in enumerate(docs)}
        if len(last) < len(docs):
            docs = [docs[i] for i in sorted(last.values())]
        if not docs:
            return
        with self.lock:
            if len(docs) <= FRESH_DOCS:
                self._put_few(docs)
                return
            nums = np.fromiter((d[0] for d in docs), np.int64, len(docs))
            self._remove(nums)
            first = self._grow(len(docs))
            at = np.arange(first, first + len(docs), dtype=np.int64)
            body, body_at, body_len = self._occurrences([d[2] or "" for d in docs], at)
            context, context_at, context_len = self._occurrences([d[3] or "" for d in docs], at)
            codes = self.tenant_codes
            self.nums[at] = nums
            self.lengths[at] = body_len + context_len
            self.tenants[at] = [codes.setdefault(d[1], len(codes)) for d in docs]
            self.alive[at] = True
            self.positions.set(nums, at, self.size)
            self.live += len(docs)
            self.total += int(body_len.sum() + context_len.sum())
            segment = self._segment(body + context, np.concatenate([body_at, context_at]), len(body))
            if len(segment):
                self.segments.append(segment)
                self.joined.add_segment(segment)
                self._merge()
            self._compact_if_sparse()

    def _put_few(self, docs: Sequence[tuple[int, str, str, str]]) -> None:
        """`put` of at most FRESH_DOCS documents (distinct numbers), one value at a time in plain Python
        rather than numpy's calls on a handful of values each (which cost ~60 us a put of two: what a
        process catching up with another's Encodes pays at a read), into the fresh postings."""
        texts = [d[2] or "" for d in docs] + [d[3] or "" for d in docs]
        self._learn(t for text in texts if not text.isascii() for t in text.split() if not t.isascii())
        body, context = [self._cut(t) for t in texts[: len(docs)]], [self._cut(t) for t in texts[len(docs) :]]
        lengths = [len(b) + len(c) for b, c in zip(body, context, strict=True)]
        first = self._placed([d[0] for d in docs], [d[1] for d in docs], lengths)
        # `_segment`'s sums in halves (body 2, context 1) per (term, position)
        tokens = [t for part in (body, context) for terms in part for t in terms]
        where = [first + i for part in (body, context) for i, terms in enumerate(part) for _ in terms]
        in_body = sum(map(len, body))
        vocab = self._numbered(tokens)
        halves: dict[tuple[int, int], int] = {}
        for i, key in enumerate(zip(map(vocab.__getitem__, tokens), where, strict=True)):
            halves[key] = halves.get(key, 0) + (2 if i < in_body else 1)
        self._add_fresh(halves)

    def _placed(self, nums: list[int], tenants: list[str], lengths: list[int]) -> int:
        """A few documents' old positions tombstoned and new ones given (`put`'s array updates, one value
        at a time); the first new position."""
        for num in set(nums):
            old = self.positions.get_one(num)
            if old >= 0 and self.alive[old]:
                self.alive[old] = False
                self.live -= 1
                self.total -= int(self.lengths[old])
                self.positions.clear_one(num)
        first = self._grow(len(nums))
        codes = self.tenant_codes
        for at, num, tenant, length in zip(
            range(first, first + len(nums)), nums, tenants, lengths, strict=True
        ):
            self.nums[at], self.lengths[at] = num, length
            self.tenants[at], self.alive[at] = codes.setdefault(tenant, len(codes)), True
            self.positions.set_one(num, at, self.size)
            self.total += int(length)
        self.live += len(nums)
        return first

    def _add_fresh(self, halves: dict[tuple[int, int], int]) -> None:
        """Postings, (term id, position) -> the token's count in halves, into the fresh postings."""
        fresh, joined = self.fresh, self.joined
        kept = joined.runs
        for (term, at), count in halves.items():
            entry = fresh.get(term)
            if entry is None:
                entry = fresh[term] = ([], [])
            weight = count * CONTEXT_WEIGHT
            entry[0].append(at)
            entry[1].append(weight)
            if term in kept:  # joined at its next search: cheaper than joining every run again
                joined.add(term, (at,), (weight,))
        self.fresh_size += len(halves)
        if self.fresh_size > FRESH_MAX:
            self._seal()
            self._merge()
        self._compact_if_sparse()

    def _seal(self) -> None:
        """The fresh postings as a segment of their own (not merged yet)."""
        if not self.fresh:
            return
        terms = sorted(self.fresh)
        counts = [len(self.fresh[t][0]) for t in terms]
        docs = np.fromiter(chain.from_iterable(self.fresh[t][0] for t in terms), np.int64, self.fresh_size)
        freqs = np.fromiter(chain.from_iterable(self.fresh[t][1] for t in terms), np.float64, self.fresh_size)
        self.segments.append(Segment.of_runs(np.repeat(np.asarray(terms, np.int64), counts), docs, freqs))
        self.fresh, self.fresh_size = {}, 0  # (the joined runs stay: the same postings, now in a segment)

    def put_counted(
        self,
        nums: Numbers,
        tenant_names: Sequence[str],
        tenant_of: Numbers,
        lengths: Numbers,
        vocab: Sequence[str],
        owners: Numbers,
        terms: Numbers,
        halves: Numbers,
    ) -> None:
        """Index (or re-index) documents given as counted postings rather than text, as a backend that keeps
        postings itself (PostgreSQL) holds them: document i is record nums[i] of tenant
        tenant_names[tenant_of[i]], lengths[i] tokens long; posting j says that document owners[j] holds
        the token vocab[terms[j]] in halves[j] halves (2 x its count in the body + its count in the
        context). Each record once, each (document, token) once. Numbers come as arrays (a build) or lists
        (a few documents absorbed at a search: they stay Python values)."""
        if not len(nums):
            return
        with self.lock:
            if len(nums) <= FRESH_DOCS:  # (what a process catching up with another's Encode absorbs)
                names = [tenant_names[i] for i in _listed(tenant_of)]
                first = self._placed(_listed(nums), names, _listed(lengths))
                ids = self._numbered(vocab)
                self._add_fresh(
                    {
                        (ids[vocab[term]], first + owner): count
                        for owner, term, count in zip(
                            _listed(owners), _listed(terms), _listed(halves), strict=True
                        )
                    }
                )
                return
            nums, tenant_of = np.asarray(nums, np.int64), np.asarray(tenant_of, np.int64)
            owners, terms = np.asarray(owners, np.int64), np.asarray(terms, np.int64)
            self._remove(nums)
            first = self._grow(len(nums))
            at = np.arange(first, first + len(nums), dtype=np.int64)
            codes = self.tenant_codes
            tenant_codes = np.array([codes.setdefault(t, len(codes)) for t in tenant_names], np.int32)
            self.nums[at] = nums
            self.lengths[at] = lengths
            self.tenants[at] = tenant_codes[tenant_of] if len(tenant_codes) else 0
            self.alive[at] = True
            self.positions.set(nums, at, self.size)
            self.live += len(nums)
            self.total += int(np.asarray(lengths, np.int64).sum())
            if len(owners):
                ids = self._term_ids(list(vocab))
                keys = (ids[terms] << 32) | at[owners]
                order = np.argsort(keys, kind="stable")
                keys = keys[order]
                weights = np.asarray(halves, np.int64)[order] * CONTEXT_WEIGHT
                self.segments.append(Segment.of_runs(keys >> 32, keys & 0xFFFFFFFF, weights))
                self.joined.add_segment(self.segments[-1])
                self._merge()
            self._compact_if_sparse()

    def phrases(self, terms: Sequence[str]) -> list[tuple[str, ...]]:
        """The tokens FTS5 makes of each query term (its phrase)."""
        with self.lock:
            self._learn([t for t in terms if not t.isascii()])
            return [(t,) if t.isascii() else self.term_cache[t] for t in terms]

    def _learn(self, terms: Iterable[str]) -> None:
        new = sorted(set(terms).difference(self.term_cache))
        if new:
            self.term_cache.update(zip(new, self.tokenizer(new), strict=True))

    def _occurrences(self, texts: list[str], at: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Every token of the texts (analyzer output) in order, the position of each one's document, and
        each text's token count. ASCII terms are single tokens; other terms go through the tokenizer."""
        counts = np.zeros(len(texts), np.int64)
        tokens: list[str] = []
        where = [_NONE]
        plain = [i for i, t in enumerate(texts) if t and t.isascii()]
        if plain:  # the bulk: one split for all of them, counts from the single spaces between terms
            chosen = [texts[i] for i in plain]
            tokens = " ".join(chosen).split()
            found = np.fromiter((t.count(" ") + 1 for t in chosen), np.int64, len(chosen))
            if int(found.sum()) != len(tokens):  # spaced otherwise: count them one by one
                found = np.fromiter((len(t.split()) for t in chosen), np.int64, len(chosen))
            counts[plain] = found
            where.append(np.repeat(at[plain], found))
        mixed = [i for i, t in enumerate(texts) if not t.isascii()]
        if mixed:
            self._learn(term for i in mixed for term in texts[i].split() if not term.isascii())
            lists = [self._cut(texts[i]) for i in mixed]
            found = np.fromiter(map(len, lists), np.int64, len(lists))
            counts[mixed] = found
            tokens += chain.from_iterable(lists)
            where.append(np.repeat(at[mixed], found))
        return tokens, np.concatenate(where), counts

    def _cut(self, text: str) -> list[str]:
        """A text's tokens, its non-ASCII terms learned (`_learn`): an ASCII term is its own token."""
        if text.isascii():
            return text.split()
        cache = self.term_cache
        return [tok for term in text.split() for tok in ((term,) if term.isascii() else cache[term])]

    def _grow(self, count: int) -> int:
        """Room for `count` more positions; returns the first."""
        first, need = self.size, self.size + count
        if need > len(self.nums):
            capacity = max(need, 2 * len(self.nums), 1024)
            for name in ("nums", "lengths", "tenants", "alive"):
                old = getattr(self, name)
                grown = np.zeros(capacity, old.dtype)
                grown[: self.size] = old[: self.size]
                setattr(self, name, grown)
        self.size = need
        return first

    def _numbered(self, tokens: Iterable[str]) -> dict[str, int]:
        """The vocabulary, with an id for each new token."""
        vocab = self.vocab
        for token in sorted(set(tokens).difference(vocab)):  # sorted: ids do not depend on hash order
            vocab[token] = len(vocab)
        return vocab

    def _term_ids(self, tokens: list[str]) -> np.ndarray:
        vocab = self._numbered(tokens)
        return np.fromiter(map(vocab.__getitem__, tokens), np.int64, len(tokens))

    def _segment(self, tokens: list[str], where: np.ndarray, in_body: int) -> Segment:
        """The postings of freshly placed documents from their token occurrences (the first `in_body` in
        the body, the rest in the context), summed per (term, position). Weights are counted in halves
        (body 2, context 1) so that the sums stay exact."""
        if not tokens:
            return Segment.of_runs(_NONE, _NONE, np.zeros(0))
        halves = np.ones(len(tokens), np.int64)
        halves[:in_body] = 2
        keys = (self._term_ids(tokens) << 32) | where
        order = np.argsort(keys, kind="stable")
        keys, halves = keys[order], halves[order]
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        sums = np.add.reduceat(halves, starts)
        keys = keys[starts]
        return Segment.of_runs(keys >> 32, keys & 0xFFFFFFFF, sums * CONTEXT_WEIGHT)

    def _merge(self) -> None:
        segments = self.segments
        while len(segments) >= 2 and len(segments[-2]) <= MERGE_RATIO * len(segments[-1]):
            newer = segments.pop()
            segments[-1] = self._merged([segments[-1], newer])  # (positions stay: the joined runs too)

    def _compact_if_sparse(self) -> None:
        dead = self.size - self.live
        if dead > max(COMPACT_MIN, self.size // 4):
            self._compact()

    def _merged(self, parts: list[Segment], moved: np.ndarray | None = None) -> Segment:
        """One segment of these (oldest first), without tombstoned postings; `moved` renumbers positions."""
        terms = np.concatenate([p.expanded_terms() for p in parts])
        docs = np.concatenate([p.docs for p in parts])
        freqs = np.concatenate([p.freqs for p in parts])
        keep = self.alive[docs]
        terms, docs, freqs = terms[keep], docs[keep], freqs[keep]
        order = np.argsort(terms, kind="stable")  # sorted runs, one per part: a linear merge
        docs = docs[order] if moved is None else moved[docs[order]]
        return Segment.of_runs(terms[order], docs, freqs[order])

    def _compact(self) -> None:
        """Rewrite every position: live documents only, in their order, in one segment."""
        self._seal()  # (the fresh postings' positions move too)
        keep = np.flatnonzero(self.alive[: self.size])
        moved = np.full(self.size, -1, np.int64)
        moved[keep] = np.arange(len(keep))
        self.segments = [self._merged(self.segments, moved)] if self.segments else []
        self.joined.clear()
        for name in ("nums", "lengths", "tenants", "alive"):
            setattr(self, name, getattr(self, name)[keep].copy())
        self.size = len(keep)
        self.positions = Positions()
        self.positions.set(self.nums, np.arange(self.size, dtype=np.int64), self.size)
        self._norms_of = _NO_NORMS  # positions moved: the statistics may come back, the lengths' order not

    # --- scoring ----------------------------------------------------------------------------------

    def scores(self, tokens: Sequence[str], tenant: str) -> tuple[np.ndarray, np.ndarray]:
        """Every live document of `tenant` containing one of `tokens` (the query's one-token phrases, in
        order; a token given twice counts twice): its record number and BM25 score, unordered."""
        with self.lock:
            code = self.tenant_codes.get(tenant)
            if code is None or not self.live:
                return _NONE, np.zeros(0)
            n, avgdl = self.live, self.total / self.live
            listed = [self._live_postings(token) for token in tokens]
            matched = sum(len(docs) for docs, _ in listed)
            norms = self._norms(avgdl, matched)
            parts: list[Run] = []  # (positions, BM25 parts), in token order
            for docs, freqs in listed:
                hits = len(docs)  # n(t)
                if not hits:
                    continue  # no document holds it: FTS5 adds nothing for it
                idf = math.log((n - hits + 0.5) / (hits + 0.5))  # libm's log, as FTS5's
                if idf <= 0.0:
                    idf = IDF_FLOOR
                # idf * (f * (K1 + 1) / (f + K1 * ((1 - B) + B * |d| / avgdl))), in place: the same
                # operations on the same values (sums and products commute exactly)
                f = freqs.astype(np.float64)
                denominator = norms[docs] if norms is not None else self._norm(self.lengths[docs], avgdl)
                denominator += f
                part = f * (K1 + 1.0)
                part /= denominator
                part *= idf
                parts.append((docs, part))
            if not parts:
                return _NONE, np.zeros(0)
            dense = matched * DENSE_AT >= self.size
            found, summed = parts[0] if len(parts) == 1 else self._summed(parts, dense)
            if len(self.tenant_codes) > 1:
                mine = self.tenants[found] == code
                found, summed = found[mine], summed[mine]
            return self.nums[found], summed

    def _live_postings(self, token: str) -> Run:
        """The token's live postings as one run (empty without any): positions (numpy's index type) and
        frequencies."""
        term = self.vocab.get(token)
        if term is None:
            return _NO_RUN
        joined = self.joined.get(term)
        if joined is None:
            joined = self._joined(term)
        docs, freqs = joined
        if self.live < self.size:  # tombstones
            keep = self.alive[docs]
            docs, freqs = docs[keep], freqs[keep]
        return docs, freqs

    def _joined(self, term: int) -> Run:
        """The term's postings in every segment and the fresh ones, joined (tombstones included; each fancy
        index with 32-bit positions would convert them first) and kept (memql.index.joined)."""
        runs = [run for run in (s.postings(term) for s in self.segments) if run is not None]
        fresh = self.fresh.get(term)
        if fresh is not None:
            runs.append((np.array(fresh[0], np.intp), np.array(fresh[1], np.float32)))
        if not runs:
            joined = _NO_RUN
        elif len(runs) == 1:  # (copies: a run kept past a merge holds no segment's arrays)
            joined = (runs[0][0].astype(np.intp), runs[0][1].copy())
        else:
            docs = np.concatenate([d for d, _ in runs], dtype=np.intp)
            joined = (docs, np.concatenate([f for _, f in runs]))
        self.joined.keep(term, joined)
        return joined

    @staticmethod
    def _norm(lengths: np.ndarray, avgdl: float) -> np.ndarray:
        return K1 * ((1 - B) + B * lengths / avgdl)

    def _norms(self, avgdl: float, matched: int) -> np.ndarray | None:
        """Every position's K1 * ((1 - B) + B * |d| / avgdl), kept while the statistics stay the same, for a
        search whose postings number half the positions or more (a common word's): computing it for each
        posting costs more. A write changes the statistics; the next such search computes it again."""
        key = (self.size, self.total, self.live)
        if self._norms_of[0] != key:
            if 2 * matched < self.size:
                return None
            self._norms_of = (key, self._norm(self.lengths[: self.size], avgdl))
        return self._norms_of[1]

    def _summed(self, parts: list[Run], dense: bool) -> tuple[np.ndarray, np.ndarray]:
        """The positions any token matched and their summed parts, added in the tokens' order as FTS5 adds
        its phrases, in one accumulator kept zero between searches (under the lock). Found by one scan of
        it when the postings are many (`dense`), else collected as each token's first-seen positions
        (every part is positive: zero is unseen), which costs less than scanning a million documents."""
        if len(self._acc) < self.size:
            self._acc = np.zeros(max(self.size, 2 * len(self._acc)))
        acc = self._acc
        seen: list[np.ndarray] = []
        try:
            for docs, part in parts:  # a token's postings name each document once
                if not dense:
                    seen.append(docs[acc[docs] == 0.0])
                np.add.at(acc, docs, part)  # 0.0 + part the first time: FTS5 starts its sum at 0.0
            found = np.flatnonzero(acc[: self.size] != 0.0) if dense else np.concatenate(seen)
            return found, acc[found]
        finally:
            if dense:
                acc[: self.size] = 0.0
            for docs in seen:
                acc[docs] = 0.0

    # --- snapshots --------------------------------------------------------------------------------

    def save(self, path: Path, meta: dict[str, int]) -> None:
        """Write the index and `meta` (integers) to `path` atomically (memql.index.arrays_file): `load`
        maps its arrays instead of reading them, so opening a snapshot costs little more than its
        vocabulary, whatever its size."""
        with self.lock:
            self._seal()
            self._merge()
            arrays: dict[str, np.ndarray] = {
                "nums": self.nums[: self.size],
                "lengths": self.lengths[: self.size],
                "tenants": self.tenants[: self.size],
                "alive": self.alive[: self.size],
            }
            for i, s in enumerate(self.segments):
                arrays |= {f"s{i}_terms": s.terms, f"s{i}_offsets": s.offsets}
                arrays |= {f"s{i}_docs": s.docs, f"s{i}_freqs": s.freqs}
            header = {"vocab": list(self.vocab), "tenants": list(self.tenant_codes), "meta": meta}
            arrays_file.write(path, _MAGIC, header, arrays)

    @classmethod
    def load(cls, path: Path, tokenizer: Tokenizer = python_tokenizer) -> tuple[BM25Postings, dict[str, int]]:
        """An index written by `save`, and its meta. Its arrays are mapped copy-on-write: the pages a
        search reads come from the file, and a change (a removed document) stays in this process."""
        header, array = arrays_file.read(path, _MAGIC, "postings snapshot")
        index = cls(tokenizer)
        index.nums, index.lengths = array("nums"), array("lengths")
        index.tenants, index.alive = array("tenants"), array("alive")
        index.size = len(index.nums)
        index.vocab = {t: i for i, t in enumerate(header["vocab"])}
        index.tenant_codes = {t: i for i, t in enumerate(header["tenants"])}
        count = sum(1 for name in header["arrays"] if name.endswith("_terms"))
        index.segments = [
            Segment(*(array(f"s{i}_{part}") for part in ("terms", "offsets", "docs", "freqs")))
            for i in range(count)
        ]
        live = np.flatnonzero(index.alive)
        index.live = len(live)
        index.total = int(index.lengths[live].sum())
        index.positions.set(index.nums[live], live.astype(np.int64), index.size)
        return index, header["meta"]


_MAGIC = b"memql-postings-1"


def _listed(values: Numbers) -> list[Any]:
    return values.tolist() if isinstance(values, np.ndarray) else list(values)
