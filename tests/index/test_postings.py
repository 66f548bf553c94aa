"""The in-process BM25 index (memql.index.postings) against FTS5 itself: the same documents, put, replaced
and removed in any order across segments, merges and compactions, score every query as FTS5's bm25() does,
and a snapshot gives back the same index."""

from __future__ import annotations

import itertools
import mmap
import sqlite3
import unicodedata

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.index import joined, postings
from memql.index.lexical import CONTEXT_WEIGHT, fts_tokens, query_phrases
from memql.index.postings import BM25Postings
from memql.services.tokenize import index_text

WORDS = ["river", "rivers", "garden", "invoice", "piano", "the", "of", "running", "ran", "café", "naïve"]
WORDS += ["机器学习", "学习", "東京", "Москва", "καλημέρα", "mp3", "2024", "हिन्दी", "İstanbul", "ǅemal"]
TENANTS = ["A", "A", "B", "tenant\nwith a newline"]

# record numbers: mostly dense, a few far beyond (kept apart in Positions' dict)
numbers = st.one_of(st.integers(1, 40), st.sampled_from([1 << 22, (1 << 22) + 1, 1 << 40]))
doc = st.tuples(
    numbers,  # record number
    st.sampled_from(TENANTS),
    st.lists(st.sampled_from(WORDS), max_size=10),  # body
    st.lists(st.sampled_from(WORDS), max_size=3),  # context
)
# a batch of documents to put, or of record numbers to remove
steps = st.lists(
    st.one_of(
        # up to FRESH_DOCS (8) documents take the fresh postings' path, more a segment's
        st.tuples(st.just("put"), st.lists(doc, min_size=1, max_size=12)),
        st.tuples(st.just("remove"), st.lists(numbers, min_size=1, max_size=4)),
    ),
    min_size=1,
    max_size=12,
)


class FTS5Mirror:
    """The same documents in a real FTS5 table, ranked by SQLite's own bm25()."""

    def __init__(self) -> None:
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(
            "CREATE VIRTUAL TABLE f USING fts5(body, context, tokenize = 'unicode61 remove_diacritics 2')"
        )
        self.tenants: dict[int, str] = {}

    def put(self, num: int, tenant: str, body: str, context: str) -> None:
        self.remove(num)
        self.conn.execute("INSERT INTO f (rowid, body, context) VALUES (?, ?, ?)", (num, body, context))
        self.tenants[num] = tenant

    def remove(self, num: int) -> None:
        self.conn.execute("DELETE FROM f WHERE rowid = ?", (num,))
        self.tenants.pop(num, None)

    def scores(self, tokens: list[str], tenant: str) -> dict[int, float]:
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in tokens)
        rows = self.conn.execute(
            f"SELECT rowid, -bm25(f, 1.0, {CONTEXT_WEIGHT}) FROM f WHERE f MATCH ?", (match,)
        ).fetchall()
        return {num: score for num, score in rows if self.tenants[num] == tenant}


def apply(index: BM25Postings, mirror: FTS5Mirror, plan) -> None:
    for kind, batch in plan:
        if kind == "put":
            docs = [(n, t, index_text(" ".join(b)), index_text(" ".join(c))) for n, t, b, c in batch]
            index.put(docs)
            for num, tenant, body, context in docs:
                mirror.put(num, tenant, body, context)
        else:
            index.remove(batch)
            for num in batch:
                mirror.remove(num)


def assert_same_scores(index: BM25Postings, mirror: FTS5Mirror, tokens: list[str], tenant: str) -> None:
    nums, scores = index.scores(tokens, tenant)
    got = dict(zip(nums.tolist(), scores.tolist(), strict=True))
    want = mirror.scores(tokens, tenant)
    assert got.keys() == want.keys()
    assert got == pytest.approx(want, rel=1e-12, abs=0)


@settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    plan=steps,
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
    tenant=st.sampled_from(TENANTS),
    # how matches are summed: first-seen positions only (0), by a scan when many match (8), by a scan
    dense_at=st.sampled_from([0, postings.DENSE_AT, 1 << 40]),
)
def test_scores_equal_fts5_through_puts_replacements_removals_and_compaction(
    monkeypatch, plan, query, tenant, dense_at
):
    monkeypatch.setattr(postings, "COMPACT_MIN", 2)  # compact as soon as tombstones pass a quarter
    monkeypatch.setattr(postings, "DENSE_AT", dense_at)
    index, mirror = BM25Postings(), FTS5Mirror()
    apply(index, mirror, plan[:-1])
    # the query's tokens as FTS5 makes them, a repeated one kept (FTS5 counts each phrase)
    tokens = [token for phrase in query_phrases(" ".join(query)) for token in phrase] + fts_tokens(
        index_text(query[0])
    )
    # each search after the first reuses the accumulator and, until the statistics change, the lengths'
    # normalisation: a search that left either stale would show in the next answer
    assert_same_scores(index, mirror, [tokens[-1]], tenant)
    assert_same_scores(index, mirror, tokens, tenant)
    apply(index, mirror, plan[-1:])
    assert_same_scores(index, mirror, tokens, tenant)
    assert_same_scores(index, mirror, tokens[::-1], tenant)
    assert not index._acc.any()
    assert len(index) == mirror.conn.execute("SELECT count(*) FROM f").fetchone()[0]


@settings(
    max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    plan=steps,
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    tenant=st.sampled_from(TENANTS),
    joined_max=st.sampled_from([joined.MAX, 4]),  # 4: the kept runs are dropped as they come
    fresh_max=st.sampled_from([postings.FRESH_MAX, 12]),  # 12: seals (and merges) along the way
    run_max=st.sampled_from([joined.RUN_MAX, 3]),  # 3: a term's run outgrows what is kept
    segment_share=st.sampled_from([joined.SEGMENT_SHARE, 1e9]),  # 1e9: every new segment joins the tails
    tails_max=st.sampled_from([joined.TAILS_MAX, 2]),  # 2: the terms with a tail are dropped as they come
)
def test_a_term_kept_joined_for_the_next_searches_follows_every_change(
    monkeypatch, plan, query, tenant, joined_max, fresh_max, run_max, segment_share, tails_max
):
    """Each search keeps its terms' postings joined for the next ones; a search after any change (a put
    into the fresh postings or a segment, a replacement, a removal, a seal, a merge, a compaction) scores
    as FTS5 does, as if nothing had been kept."""
    monkeypatch.setattr(postings, "COMPACT_MIN", 2)
    monkeypatch.setattr(postings, "FRESH_MAX", fresh_max)
    monkeypatch.setattr(joined, "MAX", joined_max)
    monkeypatch.setattr(joined, "RUN_MAX", run_max)
    monkeypatch.setattr(joined, "SEGMENT_SHARE", segment_share)
    monkeypatch.setattr(joined, "TAILS_MAX", tails_max)
    index, mirror = BM25Postings(), FTS5Mirror()
    tokens = [token for phrase in query_phrases(" ".join(query)) for token in phrase]
    for step in plan:
        apply(index, mirror, [step])
        assert_same_scores(index, mirror, tokens, tenant)
        assert_same_scores(index, mirror, tokens, tenant)  # (from what the first one kept)
    kept = index.joined
    assert not kept.tails and kept.tailed == 0  # (every kept term was just searched: its postings joined)
    assert kept.size == sum(len(docs) for docs, _ in kept.runs.values())
    assert kept.size <= joined_max or len(kept.runs) == 1  # (one run larger than the bound)
    assert all(len(docs) <= run_max for docs, _ in kept.runs.values())


def test_a_kept_term_past_its_bound_is_dropped_and_the_next_search_joins_it_again(monkeypatch):
    monkeypatch.setattr(joined, "RUN_MAX", 3)
    index, mirror = BM25Postings(), FTS5Mirror()
    term = fts_tokens(index_text("river"))[0]
    apply(index, mirror, [("put", [(n, "A", ["river", "garden"], []) for n in (1, 2)])])
    assert_same_scores(index, mirror, [term], "A")
    kept = index.joined
    assert kept.size == 2 and len(kept.runs) == 1  # the run of "river", two postings
    apply(index, mirror, [("put", [(n, "A", ["river"], []) for n in (3,)])])  # fresh: a tail of one
    assert kept.tails and kept.size == 3
    apply(index, mirror, [("put", [(n, "A", ["river"], []) for n in (4,)])])  # four, past the bound
    assert not kept.runs and not kept.tails and kept.size == 0
    assert_same_scores(index, mirror, [term], "A")  # joined afresh from the runs, not kept
    assert not kept.runs and kept.size == 0


def test_the_tails_of_terms_not_searched_since_are_dropped_past_their_bound(monkeypatch):
    monkeypatch.setattr(joined, "TAILS_MAX", 3)
    index, mirror = BM25Postings(), FTS5Mirror()
    river, garden = (fts_tokens(index_text(w))[0] for w in ("river", "garden"))
    apply(index, mirror, [("put", [(n, "A", ["river", "garden"], []) for n in (1, 2)])])
    assert_same_scores(index, mirror, [river], "A")
    assert_same_scores(index, mirror, [garden], "A")
    kept = index.joined
    assert kept.size == 4 and kept.tailed == 0
    apply(index, mirror, [("put", [(3, "A", ["garden"], [])])])
    assert_same_scores(index, mirror, [river], "A")  # garden's tail waits: it was not searched
    assert kept.tailed == 1 and index.vocab[garden] in kept.tails
    apply(index, mirror, [("put", [(n, "A", ["garden"], []) for n in (4, 5, 6)])])  # four waiting: past 3
    assert set(kept.runs) == {index.vocab[river]} and not kept.tails and (kept.size, kept.tailed) == (2, 0)
    assert_same_scores(index, mirror, [garden, river], "A")  # garden joined afresh, river as kept


def test_a_segment_of_new_documents_joins_the_kept_runs_tails(monkeypatch):
    index, mirror = BM25Postings(), FTS5Mirror()
    river, garden = (fts_tokens(index_text(w))[0] for w in ("river", "garden"))
    apply(index, mirror, [("put", [(n, "A", ["river", "garden"] * n, []) for n in range(1, 41)])])
    assert_same_scores(index, mirror, [river, garden], "A")
    kept = index.joined
    assert kept.size == 80 and len(index.segments) == 1
    new = [(n, "A", ["river", "stone"], []) for n in range(41, 41 + postings.FRESH_DOCS + 1)]
    apply(index, mirror, [("put", new)])  # a segment of its own, a quarter the size kept
    assert len(index.segments) == 2 and len(kept.tails[index.vocab[river]][0]) == len(new)
    assert index.vocab[garden] not in kept.tails and kept.size == 80 + len(new)
    assert_same_scores(index, mirror, [river, garden], "A")
    assert not kept.tails and len(kept.runs[index.vocab[river]][0]) == 40 + len(new)
    apply(index, mirror, [("put", [(n, "A", ["river"], []) for n in range(100, 300)])])  # larger than kept
    assert not kept.runs and not kept.tails and kept.size == 0
    assert_same_scores(index, mirror, [river, garden], "A")


def counted(docs: list[tuple[int, str, str, str]]) -> tuple:
    """put_counted's arguments for documents given as put's (PostgreSQL's counted postings of them)."""
    cut = BM25Postings()
    cut._learn(t for _, _, b, c in docs for t in f"{b} {c}".split() if not t.isascii())
    tenants = list(dict.fromkeys(t for _, t, _, _ in docs))
    vocab: dict[str, int] = {}
    lengths, owners, terms, halves = [], [], [], []
    for i, (_, _, body, context) in enumerate(docs):
        in_body, in_context = cut._cut(body), cut._cut(context)
        lengths.append(len(in_body) + len(in_context))
        counts = dict.fromkeys(in_body + in_context, 0)
        for token in in_body:
            counts[token] += 2
        for token in in_context:
            counts[token] += 1
        for token, count in counts.items():
            owners.append(i)
            terms.append(vocab.setdefault(token, len(vocab)))
            halves.append(count)
    return (
        np.array([n for n, _, _, _ in docs], np.int64),
        tenants,
        np.array([tenants.index(t) for _, t, _, _ in docs], np.int64),
        np.array(lengths, np.float64),
        list(vocab),
        *(np.array(v, np.int64) for v in (owners, terms, halves)),
    )


@settings(max_examples=examples(100), deadline=None)
@given(plan=steps, query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))
def test_counted_postings_index_as_texts_do(plan, query):
    """put_counted (a few documents into the fresh postings, more into a segment; arrays or lists) scores as
    put does."""
    by_text, by_count = BM25Postings(), BM25Postings()
    for kind, batch in plan:
        if kind == "put":
            docs = list(
                {n: (n, t, index_text(" ".join(b)), index_text(" ".join(c))) for n, t, b, c in batch}.values()
            )
            by_text.put(docs)
            columns = counted(docs)
            if len(docs) % 2:  # as PostgreSQL's absorb gives them: lists, not arrays
                columns = tuple(c.tolist() if isinstance(c, np.ndarray) else c for c in columns)
            by_count.put_counted(*columns)
        else:
            by_text.remove(batch)
            by_count.remove(batch)
    tokens = [t for phrase in query_phrases(" ".join(query)) for t in phrase]
    for tenant in TENANTS:
        nums, scores = by_text.scores(tokens, tenant)
        again, again_scores = by_count.scores(tokens, tenant)
        want = dict(zip(nums.tolist(), scores.tolist(), strict=True))
        assert dict(zip(again.tolist(), again_scores.tolist(), strict=True)) == want
    assert (len(by_text), by_text.total) == (len(by_count), by_count.total)


@settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=steps, more=steps, query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_a_snapshot_gives_back_the_same_index(tmp_path_factory, plan, more, query):
    index, mirror = BM25Postings(), FTS5Mirror()
    apply(index, mirror, plan)
    path = tmp_path_factory.mktemp("snap") / "index.postings"
    index.save(path, {"seq": 7, "generation": 2})
    loaded, meta = BM25Postings.load(path)
    assert meta == {"seq": 7, "generation": 2}
    apply(loaded, mirror, more)  # and it keeps working: tombstones, segments and positions came back
    tokens = [t for phrase in query_phrases(" ".join(query)) for t in phrase]
    for tenant in TENANTS:
        assert_same_scores(loaded, mirror, tokens, tenant)


def test_a_loaded_snapshot_is_mapped_copy_on_write_and_a_foreign_file_is_refused(tmp_path):
    """Opening maps the arrays (no read of the whole file); changing the loaded index -- a removed
    document tombstones a position in a mapped array -- never writes to the file."""
    index, mirror = BM25Postings(), FTS5Mirror()
    docs = [(n, "A", f"river n{n} garden", "") for n in range(1, 300)]
    index.put(docs)
    for d in docs:
        mirror.put(*d)
    path = tmp_path / "index.postings"
    index.save(path, {"seq": 1})
    before = path.read_bytes()
    loaded, _ = BM25Postings.load(path)
    assert isinstance(loaded.alive.base.obj, mmap.mmap)  # type: ignore[union-attr]
    loaded.remove([5, 6])
    mirror.remove(5)
    mirror.remove(6)
    assert_same_scores(loaded, mirror, ["river", "garden", "n7"], "A")
    assert path.read_bytes() == before
    for bad in (b"", b"PK\x03\x04 an old .npz", before[:200]):
        path.write_bytes(bad)
        with pytest.raises(ValueError):
            BM25Postings.load(path)


def test_segments_merge_geometrically_and_tombstones_are_compacted_away():
    index, mirror = BM25Postings(), FTS5Mirror()
    for start in range(0, 2000, 100):
        batch = [(n, "A", f"river n{n} " + "garden " * (n % 3), "") for n in range(start + 1, start + 101)]
        index.put(batch)
        for d in batch:
            mirror.put(*d)
    sizes = [len(s) for s in index.segments]
    assert all(older > postings.MERGE_RATIO * newer for older, newer in itertools.pairwise(sizes))
    index.remove(range(1, 1600))
    for num in range(1, 1600):
        mirror.remove(num)
    assert index.size == len(index) == 401  # compacted: only live positions are left
    assert_same_scores(index, mirror, ["river", "garden"], "A")
    assert index.scores(["river"], "nobody")[0].size == 0
    assert index.scores(["absent"], "A")[0].size == 0


# SQLite's unicode61 tables predate Python's Unicode database: a character assigned since (e.g. U+11C2F,
# Unicode 9) separates tokens for FTS5 but is a letter to Python. The SQLite index therefore has FTS5 itself
# tokenise non-ASCII terms; the Python reproduction (which PostgreSQL uses) is exact for characters both
# databases know, which is what this test pins: characters assigned by Unicode 3.2, less the few whose
# properties changed since (U+01E0-01E1, the grapheme joiner, Cherokee - cased since Unicode 8 -, two
# Mongolian letters that became marks), found by comparing every such character with FTS5 once.
_CHANGED = ((0x1E0, 0x1E1), (0x34F, 0x34F), (0x13A0, 0x13F4), (0x1885, 0x1886))
_SHARED_UNICODE = st.characters(codec="utf-8", exclude_categories=("Cs",)).filter(
    lambda c: unicodedata.ucd_3_2_0.category(c) != "Cn" and not any(a <= ord(c) <= b for a, b in _CHANGED)
)


@settings(max_examples=examples(300), deadline=None)
@given(text=st.text(_SHARED_UNICODE, max_size=40))
def test_tokens_are_the_tokens_fts5_makes_of_any_text(text):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')")
    conn.execute("INSERT INTO f (body) VALUES (?)", (index_text(text),))
    want = [row[0] for row in conn.execute("SELECT term FROM v ORDER BY offset")]
    assert fts_tokens(index_text(text)) == want


def test_documents_put_a_few_at_a_time_are_sealed_merged_and_compacted_as_any(monkeypatch):
    """Puts of a few documents go to the fresh postings; past FRESH_MAX they are sealed into a segment, a
    compaction and a snapshot take them along, and every query scores as FTS5 throughout."""
    monkeypatch.setattr(postings, "FRESH_MAX", 50)
    index, mirror = BM25Postings(), FTS5Mirror()
    for n in range(1, 400):
        doc = (n, "A" if n % 5 else "B", f"river n{n % 7} " + "garden " * (n % 3), "piano" if n % 4 else "")
        index.put([doc])
        mirror.put(*doc)
        if n % 97 == 0:
            assert index.fresh_size <= 50 and index.segments  # sealed along the way
            assert_same_scores(index, mirror, ["river", "garden", "piano", "n3"], "A")
    index.put([(5, "A", "garden garden", "")])  # a replacement: the old posting is a tombstone
    mirror.put(5, "A", "garden garden", "")
    assert index.fresh and index.postings == sum(len(s) for s in index.segments) + index.fresh_size
    assert_same_scores(index, mirror, ["garden", "river"], "A")
    monkeypatch.setattr(postings, "COMPACT_MIN", 10)
    index.remove(range(1, 300))
    for num in range(1, 300):
        mirror.remove(num)
    assert index.size == len(index) == 100 and not index.fresh  # compacted, the fresh postings with it
    assert_same_scores(index, mirror, ["river", "garden", "piano"], "A")
    assert_same_scores(index, mirror, ["river", "piano"], "B")


def test_a_compaction_that_restores_the_statistics_does_not_reuse_the_old_normalisation(monkeypatch):
    # eight documents of 1..8 words, then the first four replaced by four of the same lengths: after the
    # compaction the size, total length and live count are what they were, but every position moved
    monkeypatch.setattr(postings, "COMPACT_MIN", 2)
    index, mirror = BM25Postings(), FTS5Mirror()
    apply(index, mirror, [("put", [(n, "A", ["river"] * n, []) for n in range(1, 9)])])
    assert_same_scores(index, mirror, ["river"], "A")
    before = (index.size, index.total, len(index))
    apply(index, mirror, [("remove", [1, 2, 3, 4])])
    apply(index, mirror, [("put", [(n + 8, "A", ["river"] * n, []) for n in range(1, 5)])])
    assert (index.size, index.total, len(index)) == before
    assert_same_scores(index, mirror, ["river", "river"], "A")
