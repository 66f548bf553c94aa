"""Whom a line of a conversation speaks of, for superseded.py: the relatives its clauses are about
(my sister, 我姐; an elder and a younger sibling are two people), whether two lines' facts are about
different known people, and whether a line speaks of a fact's subject."""

from __future__ import annotations

import re
from functools import lru_cache

from memql.services.extract.common import SPEAKERS_KIN, kin_named
from memql.services.extract.vocabulary_words import RELATIONS, birth_order

_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")


def _others(whose: set[str], theirs: set[str], related: dict[str, set[str]], speakers: set[str]) -> bool:
    """Are the facts of two lines about different people, each of them someone known (a speaker, a
    relative, a person with a relation to a speaker) — not a name the rules may have misread ("Yoga
    moved to Wednesdays")?"""
    known = all(_known(x, related, speakers) for x in whose | theirs)
    if not (whose and theirs and known):
        return False
    return not any(_may_be_one(a, b, related) for a in whose for b in theirs)


def _known(subject: str, related: dict[str, set[str]], speakers: set[str]) -> bool:
    """A speaker, a relative ("Tia's brother") or someone with a relation to a speaker ("Gwen")."""
    return subject in speakers or subject in related or _relation_of(subject) is not None


_RELATIVE_OF = re.compile(r".+?(?:'s |的)(?P<rel>[\w -]+)")


def _may_be_one(a: str, b: str, related: dict[str, set[str]]) -> bool:
    """Can two subjects of facts be one person: the same name or a word of it ("Uncle Frank", "Frank"),
    the same relation, or a relative and a name not known by another relation."""
    rel_a, rel_b = (_relation_of(x) for x in (a, b))
    if rel_a and rel_b:
        return rel_a == rel_b
    if rel_a or rel_b:
        name, rel = (b, rel_a) if rel_a else (a, rel_b)
        return not related.get(name) or rel in related[name]
    return a == b or bool(set(a.casefold().split()) & set(b.casefold().split()))


def _relation_of(subject: str) -> str | None:
    """The relation key of "Tia's brother", 小蒂的哥哥; None for a name."""
    m = _RELATIVE_OF.fullmatch(subject)
    if m is None or m["rel"].casefold() not in RELATIONS:
        return None
    return _relative_key(m["rel"])


def _relative_key(word: str) -> str:
    """The relative a relation word names (see `_kin_zh`)."""
    return _kin_zh(word) if _HAN_RUN.fullmatch(word) else RELATIONS[word.casefold()][0]


def _about(subject: str, speaker: str, text: str) -> bool:
    """Does `text`, said by `speaker`, speak of `subject` (the speaker, a relative of theirs, a name)?"""
    if subject == speaker:
        return _people(text) <= {"self"}
    if (key := _relation_of(subject)) is not None:
        return any(_relative_key(w) == key for w in _relation_words_in(text))
    return re.search(rf"(?<!\w){re.escape(subject)}(?!\w)", text, re.IGNORECASE) is not None


def _relation_words_in(text: str) -> set[str]:
    found = {m[0].casefold() for m in _RELATION_ANY_EN.finditer(text)}
    return found | {w for w in _RELATION_ZH if w in text}


_RELATION_ZH = frozenset(w for w in RELATIONS if _HAN_RUN.match(w))
_RELATION_WORDS = "|".join(sorted((r for r in RELATIONS if not _HAN_RUN.match(r)), key=len, reverse=True))
# a relative a clause is about: at the start of a clause ("My sister went vegan", "so my dad …"), not a
# relative named on the way ("都怪我妈老喂它", "I told my sister")
_PEOPLE_EN = re.compile(
    r"(?:^|[,.;:!?]\s*)(?:(?:and|so|oh|but|also|btw|plus|well)\s+)?(?:my|our)\s+(?:\w+\s+)?"
    r"(" + _RELATION_WORDS + r")\b",
    re.IGNORECASE,
)
_NAMED = re.compile(
    r"\b(?:" + _RELATION_WORDS + r")\s+(?P<name>(?-i:[A-Z][a-z]+(?:-[a-z]+)?))", re.IGNORECASE
)
_SELF_EN = re.compile(r"\b(?:i|i'm|i’m|i've|i'd|i'll|me|my|mine)\b", re.IGNORECASE)
_PETS = frozenset({"dog", "cat"})  # a line about the dog is still the speaker's own
_KIN_ZH = re.compile(
    r"(?:^|(?<=[，,。！？!?；;：:]))我(?:家|的)?("
    + "|".join(
        sorted(
            (w for w, (key, _) in RELATIONS.items() if _HAN_RUN.match(w) and key not in _PETS),
            key=len,
            reverse=True,
        )
    )
    + ")"
)


def _kin_zh(word: str) -> str:
    """A Chinese relation word's relative: 哥 and 哥哥 are one, 哥 and 弟 two (an elder and a younger
    brother, both "brother" to the vocabulary)."""
    key, order = RELATIONS[word][0], birth_order(word)
    return f"{key}/{order}" if order and key in ("brother", "sister") else key


@lru_cache(maxsize=4096)
def _people(text: str) -> frozenset[str]:
    """Whom a line's clauses are about by relation: the relation words (``sister``, 姐), or ``self``
    when the speaker speaks of themself and of no relative."""
    kin = {RELATIONS[m[1].casefold()][0] for m in _PEOPLE_EN.finditer(text)}  # mom and mother: one
    kin |= {_kin_zh(m[1]) for m in _KIN_ZH.finditer(text)}  # 我爸 and 我爸爸 are one father
    if kin:
        return frozenset(kin)
    # "Piano moved to Wednesdays for my daughter": no word of the speaker's own but the relative's "my"
    mentioned = {RELATIONS[word][0] for word in kin_named([text])}
    if mentioned and not _SELF_EN.search(SPEAKERS_KIN.sub(" ", text)):
        return frozenset(mentioned)
    if _SELF_EN.search(text) or "我" in text:
        return frozenset({"self"})
    return frozenset()


_RELATION_ANY_EN = re.compile(r"\b(?:" + _RELATION_WORDS + r")\b", re.IGNORECASE)


def _same_people(later: frozenset[str], earlier: frozenset[str], echo: bool) -> bool:
    """Not two different people: relations in common, or one side says nobody (a name, "the dog")."""
    if echo or not later or not earlier:
        return True
    return bool(later & earlier)
