"""Splitting text into parts: by size, into n parts, at delimiters, by topic, at Markdown headings.

Every part is a stripped slice of the original text (or, for topics, its sentences re-joined), so
formatting inside a part survives and no content is invented or lost.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata

from memql.services.keywords import term_overlap
from memql.services.sentences import join_sentences, markdown_lines, sentence_spans, split_sentences
from memql.services.tokenize import query_tokens

_SOFT_BREAKS = "，、,;；:：)）"


def _strip_span(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _cut_long(text: str, a: int, b: int, max_chars: int) -> list[tuple[int, int]]:
    """Cut the span [a, b) into spans of at most max_chars: at whitespace, else after soft punctuation,
    else anywhere (never in front of a combining mark)."""
    spans: list[tuple[int, int]] = []
    while b - a > max_chars:
        limit = a + max_chars
        cut = -1
        for i in range(limit, a, -1):  # a cut at i keeps text[a:i]
            if text[i].isspace() or text[i - 1] in _SOFT_BREAKS:
                cut = i
                break
        if cut <= a:
            cut = limit
            while cut > a + 1 and unicodedata.combining(text[cut]):
                cut -= 1
        head = _strip_span(text, a, cut)
        if head[0] < head[1]:
            spans.append(head)
        a, b = _strip_span(text, cut, b)
    if a < b:
        spans.append((a, b))
    return spans


def chunk_by_size(text: str, max_chars: int) -> list[str]:
    """Greedily pack whole sentences into chunks of at most ``max_chars`` characters.

    A sentence longer than ``max_chars`` is cut at the last whitespace before the limit (or after the
    last comma-like mark; CJK text without either is cut by character).
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    pieces: list[tuple[int, int]] = []
    for a, b in sentence_spans(text):
        pieces.extend(_cut_long(text, a, b, max_chars))
    chunks: list[str] = []
    start = end = -1
    for a, b in pieces:
        if start >= 0 and b - start <= max_chars:
            end = b
            continue
        if start >= 0:
            chunks.append(text[start:end])
        start, end = a, b
    if start >= 0:
        chunks.append(text[start:end])
    return chunks


def _choose_cuts(positions: list[int], weights: list[int], parts: int) -> list[int]:
    """Greedily pick ``parts - 1`` of the candidate positions, each closest to its equal-share target.

    ``weights[i]`` is the amount of content before ``positions[i]``; the total is ``weights[-1]``.
    """
    total = weights[-1]
    chosen: list[int] = []
    lo = 0
    count = len(positions)
    for k in range(1, parts):
        hi = count - (parts - 1 - k)  # leave a candidate for each remaining cut
        target = total * k / parts
        i = bisect.bisect_left(weights, target, lo, hi)
        best = min(
            (j for j in (i - 1, i) if lo <= j < hi), key=lambda j: (abs(weights[j] - target), j), default=lo
        )
        chosen.append(positions[best])
        lo = best + 1
    return chosen


def _content_before(text: str) -> list[int]:
    """prefix[i] = number of non-whitespace characters in text[:i]."""
    prefix = [0]
    for ch in text:
        prefix.append(prefix[-1] + (not ch.isspace()))
    return prefix


def chunk_by_count(text: str, n: int) -> list[str]:
    """Split into ``n`` parts of roughly equal length: at sentence boundaries when there are at least n
    sentences, else at whitespace (or comma-like marks), else anywhere. Returns min(n, possible) parts."""
    if n < 1:
        raise ValueError("n must be at least 1")
    prefix = _content_before(text)
    if prefix[-1] == 0:
        return []
    sentence_starts = [a for a, _ in sentence_spans(text)][1:]
    word_starts = [
        m.start()
        for m in re.finditer(r"(?<=\s)\S|(?<=[，、,;；:：])\S", text)
        if prefix[m.start()] > 0 and not text[m.start()].isspace()
    ]
    char_starts = [i for i in range(1, len(text)) if not text[i].isspace() and prefix[i] > 0]
    for candidates in (sentence_starts, word_starts, char_starts):
        if len(candidates) >= n - 1:
            break
    parts = min(n, len(candidates) + 1)
    if parts == 1:
        return [text.strip()]
    weights = [prefix[p] for p in candidates] + [prefix[-1]]
    cuts = [0, *_choose_cuts(candidates, weights, parts), len(text)]
    return [text[a:b].strip() for a, b in itertools.pairwise(cuts)]


def split_by_delimiters(text: str, delimiters: list[str]) -> list[str]:
    """Cut at every occurrence of any delimiter (the longest wins where several match).

    A delimiter with letters or digits in it (a label such as ``"Q:"`` or ``"Step"``) stays at the
    start of the part it introduces; a delimiter of only whitespace or punctuation (``"\\n\\n"``,
    ``"---"``, ``"。"``) is a pure separator and is dropped. Parts are stripped; empty ones dropped.
    """
    usable = sorted({d for d in delimiters if d}, key=lambda d: (-len(d), d))
    if not usable:
        stripped = text.strip()
        return [stripped] if stripped else []
    pattern = re.compile("|".join(re.escape(d) for d in usable))
    parts: list[str] = []
    start = 0
    for m in pattern.finditer(text):
        parts.append(text[start : m.start()])
        is_label = any(unicodedata.category(c)[0] in "LN" for c in m.group())
        start = m.start() if is_label else m.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def split_by_topics(text: str, topics: list[str]) -> list[tuple[str, str]]:
    """Assign each sentence to the topic whose query tokens it overlaps most; one (topic, text) per topic
    that received a sentence, in topic order, its sentences in text order.

    Ties go to the previous sentence's topic when it is among the best, else to the first tied topic;
    overlap counts exact token matches 1 and shared latin word stems (prefix of 4+ letters) 0.5.
    """
    order = list(dict.fromkeys(t for t in topics if t.strip()))
    if not order:
        raise ValueError("at least one non-blank topic is needed")
    topic_tokens = [query_tokens(t) for t in order]
    assigned: dict[int, list[str]] = {}
    previous = 0
    for sentence in split_sentences(text):
        words = query_tokens(sentence)
        scores = [term_overlap(tt, words) for tt in topic_tokens]
        best = max(scores)
        tied = [i for i, s in enumerate(scores) if s == best]
        previous = previous if previous in tied else tied[0]
        assigned.setdefault(previous, []).append(sentence)
    return [(order[i], join_sentences(assigned[i])) for i in sorted(assigned)]


def split_markdown_sections(text: str) -> list[str]:
    """Cut before each Markdown heading line (not inside code fences); text before the first heading is
    its own part when not blank."""
    parts: list[str] = []
    start = 0
    for offset, _line, heading in markdown_lines(text):
        if heading:
            parts.append(text[start:offset].strip())
            start = offset
    parts.append(text[start:].strip())
    return [p for p in parts if p]
