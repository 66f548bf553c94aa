"""Casual spelling read as careful spelling: "im moving", "ive got", "dont" are "I'm", "I've", "don't" to
the grammars, whose patterns know contractions by their apostrophes; chat shorthand ("w", "bc", "tmrw")
is its words. The words are spelled out in a copy of
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
# chat shorthand, spelled out whole ("w kerry" is "with kerry", "bc" "because", "tmrw" "tomorrow")
_SHORTHAND = {
    "w": "with",
    "w/": "with",
    "bc": "because",
    "b/c": "because",
    "cuz": "because",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmrow": "tomorrow",
    "rn": "right now",
    "u": "you",
    "ur": "your",
    "pls": "please",
    "plz": "please",
    "thru": "through",
    "abt": "about",
    "tho": "though",
    "bday": "birthday",
    "appt": "appointment",
    "hubby": "husband",
    "bf": "boyfriend",
    "gf": "girlfriend",
}
_SPELLED.update(_SHORTHAND)
# "its" is "it's" before what only "it is" comes before: a number, an article, a date, an adverb
_ITS = (
    r"its(?=\s+(?:[$£€]?\d|a\b|an\b|the\b|not\b|now\b|just\b|only\b|still\b|actually\b|been\b|going\b|"
    r"gonna\b|so\b|too\b|really\b|fine\b|ok\b|okay\b|over\b|done\b|on\b|at\b|in\b|(?:jan|feb|mar|apr|may|jun|"
    r"jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b))"
)
_CASUAL = re.compile(
    r"(?<![\w'/])(?:"
    + "|".join(re.escape(w) for w in sorted(_SPELLED, key=len, reverse=True))
    + "|"
    + _ITS
    + r")(?![\w'/])",
    re.I,
)


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
        said = m[0].lower()
        if (m[0].isupper() and len(m[0]) > 2) or (said in _SHORTHAND and m[0] != said):
            continue  # "DONT", "THATS": shouting spelled as it is; "W", "U", "Ur": an initial, a name
        parts.append(written[last : m.start()])
        at.extend(range(last, m.start()))
        word = "it's" if said == "its" else _SPELLED[said]
        if m[0][0].isupper():
            word = word[0].upper() + word[1:]
        parts.append(word)
        if said in _SHORTHAND:  # a word for a word: its letters all fall at its start
            at.extend([m.start()] * len(word))
        else:
            j = m.start()
            for ch in word:  # an inserted apostrophe falls where the letter after it was written
                at.append(j)
                j += ch != "'"
        last = m.end()
    parts.append(written[last:])
    at.extend(range(last, len(written) + 1))
    return Spelled(written, "".join(parts), tuple(at))
