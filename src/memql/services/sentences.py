"""Sentence and paragraph splitting for English, Chinese and mixed text, by explicit rules.

Sentences are found as spans of the original text: the splitter only chooses cut points and strips
whitespace, so the sentences, concatenated, always contain exactly the input's non-whitespace text.

English rules: a sentence ends after ``. ! ? …`` (plus closing quotes/brackets) when whitespace and an
upper-case letter, digit, opening quote/bracket or CJK character follow; never after a known
abbreviation (Mr. Dr. e.g. U.S. p.m. ...), a single-letter initial (J. Smith) or a list number at the
start of a line (``1. First``). Decimals (3.14) never qualify because no whitespace follows the dot.

Chinese rules: a sentence ends after ``。！？；…`` (and full-width/half-width forms), after ASCII
``! ? ; .`` that follow a CJK character, and after any closing quotes/brackets that follow them.

Lines: a blank line always ends a sentence; so does a newline before a list item (``- ``, ``* ``,
``1. ``, ``1) ``) or a Markdown heading, and after a heading line. In Chinese text every newline ends a
sentence; in ``auto`` mode a newline does when the text on either side of it is CJK.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator
from typing import Literal

from memql.services.tokenize import is_cjk

Lang = Literal["auto", "en", "zh"]

_ABBREVIATION_LIST = "mr. mrs. ms. dr. prof. sr. jr. st. vs. etc. inc. ltd. co. fig. mt. no. approx. dept."
ABBREVIATIONS: frozenset[str] = frozenset(_ABBREVIATION_LIST.split())

_EN_TERMINALS = ".!?…"
_ZH_FULL_TERMINALS = "。｡！？；．"
_ZH_ASCII_TERMINALS = "!?;.…"
_CLOSERS = "”’\"')]）】」』》〉"
_OPENERS = "\"'“‘([（【「『《〈¿¡"
_CJK_PUNCT = "。｡！？；．，、：”’」』）》〉【】《〈“‘（…"

_LIST_ITEM = re.compile(r"(?:[-*+•]\s|\d{1,3}[.)]\s|[（(]\d{1,3}[)）]|[一二三四五六七八九十]{1,3}、)")
_HEADING = re.compile(r"#{1,6}(?:\s|$)")
_FENCE = re.compile(r"(?:```|~~~)")
_INITIALS = re.compile(r"(?:[A-Za-z]\.){2,}")
_INITIAL = re.compile(r"[A-Z]\.")


def _check_lang(lang: str) -> None:
    if lang not in ("auto", "en", "zh"):
        raise ValueError(f"lang must be 'auto', 'en' or 'zh', not {lang!r}")


def _extend_closers(text: str, end: int, quotes: list[int]) -> int:
    """Move ``end`` past the closing quotes/brackets that belong to the sentence ending there.

    ``quotes`` holds the offsets of the ASCII double quotes in ``text``.
    """
    n = len(text)
    while end < n and text[end] in _CLOSERS:
        ch = text[end]
        if ch == '"' and bisect.bisect_left(quotes, end) % 2 == 0:
            break  # an even number of quotes before: this one opens the next sentence
        if ch == "'" and end + 1 < n and not (text[end + 1].isspace() or text[end + 1] in _CLOSERS):
            break
        end += 1
    return end


def _line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def _starts_line(text: str, i: int) -> bool:
    j = i - 1
    while j >= 0 and text[j] != "\n" and text[j].isspace():
        j -= 1
    return j < 0 or text[j] == "\n"


def _is_abbreviation(text: str, dot: int, following: str) -> bool:
    start = dot
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    word = text[start : dot + 1].lstrip(_OPENERS)
    lower = word.lower()
    if lower == "no.":
        return following.isdigit()  # "No. 5", but "I said no. Then ..." ends a sentence
    if lower in ABBREVIATIONS or _INITIALS.fullmatch(word) or _INITIAL.fullmatch(word):
        return True
    # an ordered-list marker at the start of a line: "1. First step"
    number = word[:-1]
    return number.isdigit() and len(number) <= 3 and _starts_line(text, start)


def _en_cuts(text: str, quotes: list[int]) -> set[int]:
    cuts: set[int] = set()
    n = len(text)
    for m in re.finditer(r"[.!?…]+", text):
        end = _extend_closers(text, m.end(), quotes)
        if end >= n or not text[end].isspace():
            continue
        j = end
        while j < n and text[j].isspace():
            j += 1
        if j == n:
            continue
        nxt = text[j]
        if not (nxt.isupper() or nxt.isdigit() or nxt in _OPENERS or is_cjk(nxt)):
            continue
        if m.group() == "." and _is_abbreviation(text, m.start(), nxt):
            continue
        cuts.add(end)
    return cuts


def _zh_cuts(text: str, strict: bool, quotes: list[int]) -> set[int]:
    cuts: set[int] = set()
    n = len(text)
    for m in re.finditer(r"[。｡！？；．!?;.…]+", text):
        run = m.group()
        before = text[m.start() - 1] if m.start() > 0 else ""
        after = text[m.end()] if m.end() < n else ""
        if not any(c in _ZH_FULL_TERMINALS for c in run):
            if not (is_cjk(before) or (strict and before and not before.isspace())):
                continue
            if run == "." and after and not (after.isspace() or is_cjk(after) or after in _CLOSERS):
                continue  # "3.14", "v1.2" or a URL: not a full stop
            if run == "." and strict and not is_cjk(before):
                continue  # a latin word followed by "." inside Chinese text: leave it to the English rules
        cuts.add(_extend_closers(text, m.end(), quotes))
    return cuts


def _newline_cuts(text: str, lang: str) -> set[int]:
    cuts: set[int] = set()
    for m in re.finditer(r"\n", text):
        i = m.start()
        prev_line = text[_line_start(text, i) : i].strip()
        nl = text.find("\n", i + 1)
        next_line = text[i + 1 : nl if nl >= 0 else len(text)].strip()
        if (
            not next_line
            or not prev_line
            or lang == "zh"
            or _LIST_ITEM.match(next_line)
            or _HEADING.match(next_line)
            or _HEADING.match(prev_line)
            or (lang == "auto" and (_cjk_like(prev_line[-1]) or _cjk_like(next_line[0])))
        ):
            cuts.add(i)
    return cuts


def _cjk_like(ch: str) -> bool:
    return is_cjk(ch) or ch in _CJK_PUNCT


def sentence_spans(text: str, lang: Lang = "auto") -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences of ``text``, in order, whitespace-stripped and non-empty."""
    _check_lang(lang)
    cuts = _newline_cuts(text, lang)
    quotes = [m.start() for m in re.finditer('"', text)]
    if lang != "zh":
        cuts |= _en_cuts(text, quotes)
    if lang != "en":
        cuts |= _zh_cuts(text, lang == "zh", quotes)
    bounds = sorted(cuts | {0, len(text)})
    spans: list[tuple[int, int]] = []
    for a, b in itertools.pairwise(bounds):
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            spans.append((a, b))
    return spans


def split_sentences(text: str, lang: Lang = "auto") -> list[str]:
    """The sentences of ``text`` (English, Chinese or mixed), stripped, in order, none empty."""
    return [text[a:b] for a, b in sentence_spans(text, lang)]


def markdown_lines(text: str) -> Iterator[tuple[int, str, bool]]:
    """(offset, line, is_heading) for each line; ``#`` lines inside fenced code blocks are not headings."""
    in_fence = False
    for m in re.finditer(r"[^\n]*\n?", text):
        if not m.group():
            continue
        line = m.group()
        stripped = line.strip()
        if _FENCE.match(stripped):
            in_fence = not in_fence
            yield m.start(), line, False
            continue
        indented = not line[:4].strip()  # four spaces of indentation make a code block, not a heading
        yield m.start(), line, not in_fence and not indented and _HEADING.match(stripped) is not None


def split_paragraphs(text: str) -> list[str]:
    """Paragraphs: separated by blank lines; a Markdown heading also starts a new paragraph."""
    parts: list[str] = []
    start = 0
    in_fence = False
    for offset, line, heading in markdown_lines(text):
        if _FENCE.match(line.strip()):
            in_fence = not in_fence
        if heading or (not in_fence and not line.strip()):
            parts.append(text[start:offset].strip())
            start = offset
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _boundary_char(sentence: str, last: bool) -> str:
    return sentence.rstrip()[-1:] if last else sentence.lstrip()[:1]


def join_sentences(sentences: list[str]) -> str:
    """Join sentences with a space, or with nothing between two CJK sentences (Chinese uses no spaces)."""
    out: list[str] = []
    for s in sentences:
        if out:
            left, right = _boundary_char(out[-1], last=True), _boundary_char(s, last=False)
            if not (left and right and _cjk_like(left) and _cjk_like(right)):
                out.append(" ")
        out.append(s)
    return "".join(out)
