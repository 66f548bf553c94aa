"""A reply to a question about someone: "豆豆最近怎么样？" … "胖了，现在有15公斤了" is 豆豆's weight, not the
speaker's. A fact the grammar gave the speaker only for want of a subject goes to the one the question
just before it named, when that one held the key and the speaker never did."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .common import Reading, Said

_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|me|my|mine|we|we're|our)\b|我", re.IGNORECASE)
_QUESTION = re.compile(r"[?？]\s*$")


def bind(r: Reading, said: Sequence[Said]) -> None:
    """Give the drafts of `r` that the question of the turn before (by someone else) was about to the one
    it named, or that a message saying 它 says of the one pet that held the key (兽医让它减肥，现在14公斤)."""
    asked = bool(said) and said[-1].speaker != r.speaker and _QUESTION.search(said[-1].text) is not None
    if not asked and "它" not in r.text:
        return
    own = {id(d) for d in r.facts}
    for d in r.facts:
        if d.subject != r.speaker or d.said_in is not None or _FIRST_PERSON.search(r.text, d.start, d.end):
            continue
        held = {e.subject for e in r.earlier if e.attribute == d.attribute and id(e) not in own}
        if len(held) != 1 or r.speaker in held:
            continue
        (holder,) = held
        if (asked and _named(holder, said[-1].text)) or ("它" in r.text and _a_pet(r, holder)):
            d.subject = holder


def _a_pet(r: Reading, subject: str) -> bool:
    """Is `subject` an animal of the speaker's (我家狗雷克斯: relation.dog_of)?"""
    return any(
        e.subject == subject and e.attribute in _PET_RELATIONS and e.value == r.speaker for e in r.earlier
    )


_PET_RELATIONS = frozenset(
    f"relation.{pet}_of" for pet in ("dog", "cat", "pet", "puppy", "kitten", "rabbit", "bird")
)


def _named(subject: str, text: str) -> bool:
    """Does `text` name `subject` ("Biscuit", 豆豆)?"""
    if re.fullmatch(r"[A-Za-z][\w .'-]*", subject):
        return re.search(rf"\b{re.escape(subject)}\b", text) is not None
    return subject in text
