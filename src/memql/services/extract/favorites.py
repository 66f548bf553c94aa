"""A favourite said by naming it first: "Mr Robot is officially my new favorite show", "Thai is our go-to
takeout now" — the speaker's favourite of that kind (the same key as "my favorite show is …"), whatever
the grammar took the words before the verb to be."""

from __future__ import annotations

import re

from .common import Reading
from .values_en import add_fact

_MY_FAVORITE_EN = re.compile(
    r"\s+(?:is|'s|are|'re)\s+(?:now\s+|officially\s+|definitely\s+|easily\s+|still\s+)*(?:my|our)\s+"
    r"(?:new\s+|all-time\s+|current\s+)?(?:favou?rite|fave|go-to)\s+(?P<thing>[a-z]+(?:\s+(?!(?:now|ever|lol|haha)\b)[a-z]+)?)"
    r"(?:\s+(?:now|ever|of all time|these days|lol|haha))?[\s.!]*$",
    re.I,
)

_FAVORITE_WORD = re.compile(r"favou?rite|fave|go-to", re.I)


def favorite_named_first(r: Reading, pos: int, end: int, confidence: float) -> bool:
    if not _FAVORITE_WORD.search(r.text, pos, end):
        return False  # (most clauses name no favourite)
    m = _MY_FAVORITE_EN.search(r.text, pos, end)
    name = r.text[pos : m.start()].strip() if m is not None else ""
    if m is None or not name or len(name.split()) > 5:
        return False
    key = r.vocabulary.normalize(f"favorite {m['thing']}")
    add_fact(r, r.speaker, key, name, pos, end, confidence, False, "text", (pos, pos + len(name)))
    return True
