"""Keyword extraction by TF-IDF over the lexical analyzer's tokens, plus small set-overlap measures.

English keywords are words; Chinese keywords are character bigrams (the analyzer's units), with two
dictionary-free refinements: a bigram that only ever occurs *inside* a longer repeated word (the
middle "器学" of "机器学习") is dropped, and a bigram containing a function character (的, 是, 了 ...),
usually one that straddles a word boundary, counts a quarter.
"""

from __future__ import annotations

import functools
import math
import operator
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from memql.services.tokenize import CHINESE_STOP_CHARS, STOP_WORDS, is_cjk, tokens

# frequent Chinese words with no topical content (pronouns, conjunctions, auxiliaries)
_CHINESE_STOP_LIST = """
    我们 你们 他们 她们 它们 咱们 自己 这个 那个 一个 一些 这些 那些 这样 那样 这里 那里 什么 怎么 为什么
    没有 因为 所以 但是 可是 而且 或者 以及 然后 虽然 如果 就是 不是 还是 已经 可以 非常 一下 一直 一起
    的话 时候 其中 之后 之前 以后 以前 通过 进行 对于 关于 这种 那种 每个 所有 觉得 知道 还有 只是 这么
"""
CHINESE_STOP_BIGRAMS: frozenset[str] = frozenset(_CHINESE_STOP_LIST.split())

_MIN_STEM = 4  # shared latin prefix that counts as a partial match in term_overlap


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    """|A ∩ B| / |A ∪ B| of the two collections taken as sets; 0.0 when both are empty."""
    sa, sb = set(a), set(b)
    union = len(sa | sb)
    return len(sa & sb) / union if union else 0.0


def _stem_match(x: str, y: str) -> bool:
    short, long_ = (x, y) if len(x) <= len(y) else (y, x)
    return len(short) >= _MIN_STEM and long_.startswith(short) and short.isalpha() and not is_cjk(short[0])


def term_overlap(terms: Sequence[str], words: Sequence[str]) -> float:
    """How many of ``terms`` occur in ``words``: 1 for an exact match, 0.5 for a latin word sharing a
    4+ letter prefix with one ("travel" ~ "travelling"). A poor man's stemming for matching only."""
    present = set(words)
    score = 0.0
    for t in dict.fromkeys(terms):
        if t in present:
            score += 1.0
        elif any(_stem_match(t, w) for w in present):
            score += 0.5
    return score


def _is_candidate(token: str) -> bool:
    if token in STOP_WORDS or token in CHINESE_STOP_BIGRAMS or token.isnumeric():
        return False
    return len(token) > 1 or is_cjk(token)


_BOOSTS = [0.0] + [1.0 + math.log(n) for n in range(1, 17)]  # by effective length, capped at 16


def _length_boost(token: str) -> float:
    # CJK characters carry roughly three latin letters' worth of meaning each
    effective = 3 * len(token) if is_cjk(token[0]) else len(token)
    return _BOOSTS[min(effective, 16)]


class _Traits(NamedTuple):
    candidate: bool  # may be a keyword at all
    cjk_bigram: bool  # two CJK characters: may be the interior of a longer word
    boost: float  # the weight without corpus statistics (in a text that is not all ASCII)
    function: bool  # a CJK token holding a function character: counts a quarter
    weight: float  # the boost of a candidate, 0.0 for any other token (an ASCII text's whole score)


@functools.lru_cache(maxsize=1 << 16)
def _traits(token: str) -> _Traits:
    """What keywords needs to know of a token, once per distinct token (a record's tokens are mostly
    words seen before: this runs per record written)."""
    cjk = is_cjk(token[0])
    candidate, boost = _is_candidate(token), _length_boost(token)
    return _Traits(
        candidate,
        len(token) == 2 and cjk and is_cjk(token[1]),
        boost,
        cjk and any(c in CHINESE_STOP_CHARS for c in token),
        boost if candidate else 0.0,
    )


_SCORE = operator.itemgetter(1)


def _interior_bigrams(toks: list[str], counts: Counter[str]) -> set[str]:
    """CJK bigrams whose every occurrence sits between two neighbouring bigrams at least as frequent:
    the inner pieces of a longer repeated word, which are not words themselves."""
    inside: dict[str, bool] = {}
    last = len(toks) - 1
    for i, t in enumerate(toks):
        if not _traits(t).cjk_bigram:
            continue
        prev = toks[i - 1] if i > 0 else ""
        nxt = toks[i + 1] if i < last else ""
        chained = len(prev) == 2 and prev[1] == t[0] and len(nxt) == 2 and nxt[0] == t[1]
        ok = chained and counts[prev] >= counts[t] and counts[nxt] >= counts[t] and counts[t] > 1
        inside[t] = inside.get(t, True) and ok
    return {t for t, flag in inside.items() if flag}


def keywords(
    text: str, k: int = 8, corpus_df: Mapping[str, int] | None = None, corpus_size: int = 0
) -> list[str]:
    """Up to ``k`` keywords of ``text``, best first; ties keep the order of first appearance.

    With corpus statistics (``corpus_df[token]`` = number of documents containing the token, out of
    ``corpus_size``) the score is TF x smoothed IDF; without, TF x a boost for longer words.
    """
    if k <= 0:
        return []
    toks = tokens(text)
    counts = Counter(toks)  # a Counter keeps its tokens in order of first appearance
    latin = text.isascii()  # no CJK token: no interior bigram, no function character (runs per record)
    use_idf = corpus_df is not None and corpus_size > 0
    if latin and not use_idf:
        # an ASCII token is never CJK nor a CJK stop bigram, and its boost is by its length alone; a
        # stable sort, best first, keeps ties in the order of first appearance
        scored = [(t, c * w) for t, c in counts.items() if (w := _traits(t).weight)]
        scored.sort(key=_SCORE, reverse=True)
        return [t for t, _ in scored[:k]]
    interior = set() if latin else _interior_bigrams(toks, counts)
    scores: dict[str, float] = {}
    for t in counts:
        traits = _traits(t)
        if t in interior or not traits.candidate:
            continue
        if use_idf:
            assert corpus_df is not None
            weight = math.log((1 + corpus_size) / (1 + corpus_df.get(t, 0))) + 1.0
        else:
            weight = _BOOSTS[min(len(t), 16)] if latin else traits.boost
        if not latin and traits.function:
            weight *= 0.25
        scores[t] = counts[t] * weight
    # a stable sort by score alone: ties keep the order of first appearance
    return sorted(scores, key=lambda t: -scores[t])[:k]
