"""BM25 exactly as SQLite's FTS5 ranks memql's lexical index: its tokens, its statistics, its formula.

Both backends rank lexical matches the way FTS5 does, so the pieces that define "the way FTS5 does" live
here, free of any SQL: the PostgreSQL backend computes BM25 in SQL from postings kept with these tokens
(memql.store.postgres.lexical), and the SQLite backend's in-process index (memql.index.postings) scores
the same postings in numpy, with FTS5 itself as the oracle and the fallback.

Documents are what the SQLite backend stores in its FTS5 table: ``index_text`` of the record's lexical text
(column `body`) and of its context (column `context`). FTS5 re-tokenises that text with
``unicode61 remove_diacritics 2``; ``fts_tokens`` does the same here (ASCII terms are single tokens;
other terms are lower-cased, Latin diacritics are dropped, characters outside letters, numbers and the
private-use area separate tokens -- e.g. Devanagari vowel signs).

FTS5's bm25 (k1 = 1.2, b = 0.75), reproduced operation for operation in float8:

    idf(t)  = ln((N - n(t) + 0.5) / (n(t) + 0.5)), or 1e-6 when that is <= 0
    f(t, d) = count in body + 0.5 * count in context          (column weights 1.0 and 0.5)
    score   = sum over query phrases  idf(t) * (f * (k1 + 1)) / (f + k1 * (1 - b + b * |d| / avgdl))

where N is the number of documents and avgdl the mean length in tokens over both columns, both over the
whole store (every tenant and status, as FTS5 counts its whole table), and n(t) the number of documents
containing t in either column.

A search is the query's terms OR-ed (``fts_match_expression``); FTS5 turns each quoted term into a phrase
of the tokens it makes of it. Every phrase adds its own part to the score, so a token given twice (two
query terms that fold to the same token) counts twice.
"""

from __future__ import annotations

import functools
import unicodedata

from memql.services.tokenize import query_terms

K1 = 1.2
B = 0.75
CONTEXT_WEIGHT = 0.5  # a match in payload.context counts half a match in the memory's own text
IDF_FLOOR = 1e-6


def _fold(ch: str) -> str:
    """unicode61 remove_diacritics 2 on one character: lower-cased, Latin letters without diacritics."""
    ch = ch.lower()
    cp = ord(ch)
    if 0xC0 <= cp <= 0x24F or 0x1E00 <= cp <= 0x1EFF:
        base = unicodedata.normalize("NFD", ch)[0]
        if base.isascii():
            return base
    return ch


def _token_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Co"


@functools.lru_cache(maxsize=1 << 16)
def term_tokens(term: str) -> tuple[str, ...]:
    """The tokens FTS5 makes of one non-ASCII index term (cached: a vocabulary repeats its terms)."""
    out: list[str] = []
    token: list[str] = []
    for ch in term:
        if 0x300 <= ord(ch) <= 0x36F:
            continue  # a combining diacritic: part of the token, then removed
        if _token_char(ch):
            token.append(_fold(ch))
        elif token:
            out.append("".join(token))
            token = []
    if token:
        out.append("".join(token))
    return tuple(out)


def fts_tokens(text: str) -> list[str]:
    """The tokens FTS5 (unicode61, remove_diacritics 2) makes of analyzer output (`index_text`)."""
    if text.isascii():  # analyzer output in ASCII is lower-case letters and digits: one token per term
        return text.split()
    out: list[str] = []
    for term in text.split():
        if term.isascii():
            out.append(term)
        else:
            out.extend(term_tokens(term))
    return out


def query_phrases(text: str) -> list[tuple[str, ...]]:
    """The phrases FTS5 searches for a query (see ``fts_match_expression``): one per query term, in order,
    each the tokens FTS5 makes of that term (usually one)."""
    return [term_tokens(t) if not t.isascii() else (t,) for t in query_terms(text)]
