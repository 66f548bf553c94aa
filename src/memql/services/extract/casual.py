"""Casual spelling read as careful spelling: "im moving", "ive got", "dont" are "I'm", "I've", "don't" to
the grammars, whose patterns know contractions by their apostrophes. The words are spelled out in a copy of
the text, and each of its offsets maps back to the text as written, so evidence still quotes the message
exactly ("im moving to Denver", never a quote the user did not write)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# contractions written without their apostrophe that are no other word ("cant", "wont" are rare as words;
# "its", "ill", "id", "were", "lets", "well", "hell" are common words and are left as written)
_SPELLED = {
    "im": "I'm",
    "ive": "I've",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "isnt": "isn't",
    "wasnt": "wasn't",
    "arent": "aren't",
    "werent": "weren't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "hadnt": "hadn't",
    "wouldnt": "wouldn't",
    "couldnt": "couldn't",
    "shouldnt": "shouldn't",
    "cant": "can't",
    "wont": "won't",
    "youre": "you're",
    "theyre": "they're",
    "youve": "you've",
    "theyve": "they've",
    "weve": "we've",
    "thats": "that's",
    "whats": "what's",
    "shes": "she's",
    "hes": "he's",
    "theres": "there's",
}
_CASUAL = re.compile(r"(?<![\w'])(?:" + "|".join(_SPELLED) + r")(?![\w'])", re.I)


@dataclass(frozen=True)
class Spelled:
    """A text as the grammars read it (`text`) and as it was written (`written`); `at[i]` is where the
    read text's offset i falls in the written one (None: the same text)."""

    written: str
    text: str
    at: tuple[int, ...] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The written text's span of the read text's [start, end)."""
        if self.at is None:
            return start, end
        return self.at[start], self.at[end]


@lru_cache(maxsize=1024)
def spell_out(written: str) -> Spelled:
    """`written` with its apostrophe-less contractions spelled out (the first letter's case kept; "I"
    always capital)."""
    if _CASUAL.search(written) is None:
        return Spelled(written, written)
    parts: list[str] = []
    at: list[int] = []
    last = 0
    for m in _CASUAL.finditer(written):
        if m[0].isupper() and len(m[0]) > 2:
            continue  # "DONT", "THATS": shouting spelled as it is
        parts.append(written[last : m.start()])
        at.extend(range(last, m.start()))
        word = _SPELLED[m[0].lower()]
        if m[0][0].isupper():
            word = word[0].upper() + word[1:]
        parts.append(word)
        j = m.start()
        for ch in word:  # an inserted apostrophe falls where the letter after it was written
            at.append(j)
            j += ch != "'"
        last = m.end()
    parts.append(written[last:])
    at.extend(range(last, len(written) + 1))
    return Spelled(written, "".join(parts), tuple(at))
