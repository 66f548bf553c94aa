"""Extractive summarisation: choose the most central (or most on-focus) sentences within a token budget.

Scoring, per sentence (document = sentence):

* centrality: the sentence's distinct content tokens, each weighted by its total frequency across all
  sentences x IDF, summed and divided by sqrt(number of tokens) -- a centroid score; scaled to [0, 1];
* focus: cosine overlap between the focus's query tokens and the sentence's tokens, x 3, so that a
  sentence about the focus beats any sentence that is merely central;
* position: +0.1 for the first sentence of each input text.

Sentences are taken best first, skipping near-duplicates (token-set Jaccard >= 0.7 with a chosen one),
until the next one would push the summary over the budget (a lower-ranked sentence that would still
fit is not taken: filler is worse than a shorter summary); they are output in their original order.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Literal

from memql.services.keywords import jaccard, term_overlap
from memql.services.sentences import join_sentences, split_sentences
from memql.services.tokenize import CJK_RANGES, STOP_WORDS, query_tokens, tokens

FOCUS_WEIGHT = 3.0
POSITION_BONUS = 0.1
DUPLICATE_JACCARD = 0.7
ELLIPSIS = "…"

_CJK_CLASS = "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in CJK_RANGES)
# one estimate unit: a CJK character | a word (internal apostrophes kept) | a run of other visible chars
_UNIT = re.compile(
    rf"[{_CJK_CLASS}]"
    rf"|(?:(?![{_CJK_CLASS}])[^\W_])+(?:['’](?:(?![{_CJK_CLASS}])[^\W_])+)*"
    rf"|(?:(?![{_CJK_CLASS}])[^\w\s]|_)+"
)
_CJK_UNIT = re.compile(f"[{_CJK_CLASS}]")


def _unit_cost(unit: str) -> int:
    ch = unit[0]
    if len(unit) == 1 and _CJK_UNIT.match(ch):
        return 1
    if ch.isalnum():
        return max(1, math.ceil(len(unit) / 4))
    return 1


def estimate_tokens(text: str) -> int:
    """Approximate LLM token count: 1 per CJK character, ceil(len/4) (at least 1) per latin word,
    1 per run of punctuation/symbols; whitespace is free. Deterministic."""
    return sum(_unit_cost(m.group()) for m in _UNIT.finditer(text))


def _truncate(text: str, max_tokens: int) -> str:
    """A prefix of ``text`` ending at a word boundary (by character for CJK) plus "…", within budget."""
    budget = max_tokens - 1  # the ellipsis costs at most one
    end = 0
    used = 0
    for m in _UNIT.finditer(text):
        cost = _unit_cost(m.group())
        if used + cost > budget:
            if end == 0 and m.group()[0].isalnum() and budget > 0:
                end = m.start() + 4 * budget  # a single over-long word: cut inside it
            break
        used += cost
        end = m.end()
    return text[:end].rstrip() + ELLIPSIS


def _content(sentence: str) -> list[str]:
    toks = tokens(sentence)
    return [t for t in toks if t not in STOP_WORDS] or toks


def _centrality(docs: list[list[str]]) -> list[float]:
    n = len(docs)
    df = Counter(t for d in docs for t in set(d))
    tf = Counter(t for d in docs for t in d)
    weight = {t: tf[t] * math.log(1 + n / df[t]) for t in tf}
    raw = [sum(weight[t] for t in set(d)) / math.sqrt(len(d)) if d else 0.0 for d in docs]
    top = max(raw, default=0.0)
    return [r / top if top > 0 else 0.0 for r in raw]


def summarize(
    texts: list[str], max_tokens: int, focus: str | None = None, lang: Literal["auto", "en", "zh"] = "auto"
) -> str:
    """An extractive summary of ``texts`` with ``estimate_tokens(summary) <= max_tokens``.

    Deterministic: equal scores are broken by original position. When even the best sentence is over
    budget, it is returned truncated with "…".
    """
    if max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    sentences: list[str] = []
    firsts: set[int] = set()
    for text in texts:
        split = split_sentences(text, lang)
        if split:
            firsts.add(len(sentences))
        sentences.extend(split)
    docs = [_content(s) for s in sentences]
    keep = [i for i, d in enumerate(docs) if d]  # punctuation-only "sentences" carry nothing
    if not keep:
        return ""
    central = _centrality([docs[i] for i in keep])
    focus_terms = query_tokens(focus) if focus else []
    scores: dict[int, float] = {}
    for i, c in zip(keep, central, strict=True):
        score = c + (POSITION_BONUS if i in firsts else 0.0)
        if focus_terms:
            words = dict.fromkeys(docs[i])
            overlap = term_overlap(focus_terms, list(words))
            cosine = min(1.0, overlap / math.sqrt(len(focus_terms) * len(words)))
            score += FOCUS_WEIGHT * cosine
        scores[i] = score
    ranked = sorted(keep, key=lambda i: (-scores[i], i))
    costs = {i: estimate_tokens(sentences[i]) for i in keep}
    best = ranked[0]
    if costs[best] > max_tokens:
        return _truncate(sentences[best], max_tokens)
    chosen: list[int] = []
    used = 0
    for i in ranked:
        words = set(docs[i])
        if any(jaccard(words, docs[j]) >= DUPLICATE_JACCARD for j in chosen):
            continue
        if used + costs[i] > max_tokens:
            break  # joining never merges words, so the sum of costs bounds the summary's cost
        chosen.append(i)
        used += costs[i]
    return join_sentences([sentences[i] for i in sorted(chosen)])
