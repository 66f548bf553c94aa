"""English messages parted into clauses: sentences (an emoji between words ends one too), then clauses
joined by "and/but/so" where a new one opens."""

from __future__ import annotations

import re

from .common import last_said, strip_span

_I = re.IGNORECASE

_NAME_ALONE = re.compile(r"\s*(?-i:[A-Z][a-z]+)\s*")


EMOJI = "[\U0001f300-\U0001faff\u2600-\u27bf]"
# "Dr. Fox": a period after these ends no sentence
_ABBREVIATIONS = frozenset(["dr", "mr", "mrs", "ms", "st", "jr", "sr", "e.g", "i.e", "vs"])


def clauses(text: str) -> list[tuple[int, int]]:
    """Sentences, then clauses joined by "and/but/so" before a new subject or a thing said to be something
    ("… 2 extra weeks so final deadline is may 1 now"), as [start, end) offsets."""
    cuts = [0]
    # an emoji between words ends a sentence: "karen left the company 😬 new manager is Omar"
    for m in re.finditer(r"(?<=[.!?])\s+|\n+|;\s*|\s+[-–—]{1,2}\s+|\s*" + EMOJI + r"+\s*", text):
        said = last_said(text, m.start())  # the word before, found backwards (not in a copy of all before)
        first = said
        while first > 0 and not text[first - 1].isspace():
            first -= 1
        word = text[first : said + 1].lower().rstrip(".")
        if m.group(0).strip() == "" and word in _ABBREVIATIONS:
            continue
        cuts += [m.start(), m.end()]
    cuts.append(len(text))
    out = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=False):
        inner = re.finditer(
            r",?\s+(?:and|but|so|plus)\s+(?=(?:i|i'm|i've|we|we're|he|she|they|my|our|his|her)\b|"
            r"(?:the\s+)?(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?\s+(?:is|are)\s+(?:now\s+)?(?:\d|(?-i:[a-z])))",
            text[a:b],
            _I,
        )
        last = a
        for m in inner:
            if _NAME_ALONE.fullmatch(text, last, a + m.start()):
                continue  # "Gia and her husband relocated to …": one subject of two people, no clause
            out.append((last, a + m.start()))
            last = a + m.end()
        out.append((last, b))
    return [strip_span(text, a, b, " \t\n") for a, b in out if text[a:b].strip()]
