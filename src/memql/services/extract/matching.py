"""Which typed facts a question is about: a fact key (subject, attribute) matches a query when a word for
its attribute is in it (the key's own segments, the vocabulary's phrases for the attribute, its aspect,
its thing, its relation); its subject and its values add to the score.

One matcher serves every read that puts facts first: a conversation's context (cognition's formation)
and Retrieve's `facts` (the engine), so both pick the same facts for the same words.

>>> query = QueryWords.of("when is my passport due?")
>>> match_score("mira", "passport.deadline", ["2026-06-30"], query, asker="mira") > 0
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from memql.services.extract.kin_zh import RELATIONS_ZH
from memql.services.extract.patterns_zh import _GATHERING as GATHERING_ZH
from memql.services.extract.places import is_place_zh
from memql.services.extract.vocabulary import DEFAULT_VOCABULARY, Vocabulary
from memql.services.extract.vocabulary_words import may_name_one

_WORD = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3400-\u9fff]")
# words a query uses for its asker, and words that say nothing about which fact is meant
SELF_WORDS = frozenset({"i", "me", "my", "mine", "myself", "我", "我的"})
STOP_WORDS = frozenset(
    (
        *("a", "an", "the", "of", "for", "in", "on", "at", "to", "by", "is", "are", "was", "were", "be"),
        *("been", "do", "does", "did", "what", "when", "where", "who", "which", "how", "my", "me", "i"),
        *("your", "you", "his", "her", "their", "our", "its", "it", "and", "or", "with", "from", "about"),
        *("now", "current", "currently"),
    )
)


_WHAT_DOES_DO = re.compile(
    r"\bwhat\s+(?:does|do|did)\s+.+\s+do(?:\s+now|\s+these days|\s+for work)?\s*\??\s*$"
)


@dataclass(frozen=True)
class QueryWords:
    """A query as matching reads it: its stemmed words and its case-folded text (for Chinese phrases)."""

    words: frozenset[str]
    text: str

    @classmethod
    def of(cls, query: str) -> QueryWords:
        folded = query.casefold()
        words = frozenset(stem(w) for w in _WORD.findall(folded))
        if _WHAT_DOES_DO.search(folded):
            words |= {"job"}  # "what does Abby's husband do?" asks for a job
        return cls(words, folded)

    def has_phrase(self, phrase: str) -> bool:
        """A Chinese phrase is a substring of the query; an English one's content words are all in it."""
        phrase = phrase.casefold().strip()
        if not phrase:
            return False
        if _CJK.search(phrase):  # a key drops 的 (去成都的高铁 -> 去成都高铁): so may the query
            return phrase in self.text or ("的" in self.text and phrase in self.text.replace("的", ""))
        content = [stem(w) for w in _WORD.findall(phrase) if w not in STOP_WORDS]
        return bool(content) and all(w in self.words for w in content)

    def names_self(self) -> bool:
        """The query speaks of its asker ("my", "I", 我)."""
        return bool(self.words & SELF_WORDS) or "我" in self.text


def stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def attribute_phrases(attribute: str, vocabulary: Vocabulary = DEFAULT_VOCABULARY) -> set[str]:
    """The words that name an attribute: its key's segments, the vocabulary's phrases for it, for its
    aspect (deadline: due, due date, 截止日期 ...), for its thing (护照 for passport) and its relation."""
    phrases = {p for seg in attribute.split(".") for p in (seg.replace("_", " "), seg, *_place_and_rest(seg))}
    known = vocabulary.attribute(attribute)
    if known is not None:
        phrases.update(known.phrases)
    head, _, last = attribute.rpartition(".")
    phrases.update(vocabulary.aspects.get(last, ()))
    if head:
        phrases.update(word for word, key in vocabulary.things.items() if key == head)
    if attribute.startswith("relation.") and attribute.endswith("_of"):
        relation = attribute[len("relation.") : -len("_of")]
        phrases.update(word for word, (key, _) in vocabulary.relations.items() if key == relation)
    return phrases


_KIN_BY_LENGTH = sorted(RELATIONS_ZH, key=len, reverse=True)


@lru_cache(maxsize=4096)  # a pure reading of a key segment, asked again for every query
def _place_and_rest(segment: str) -> tuple[str, ...]:
    """A Chinese key of a known place and what one does there (成都出差 of 去成都出差), of a gathering and
    what it is for (纪念日晚饭), or of a relative and a thing of theirs (爷爷90大寿): either part names it, as
    "denver" and "fly" each name denver.fly."""
    if not _CJK.match(segment):
        return ()
    for cut in range(len(segment) - 1, 1, -1):
        if is_place_zh(segment[:cut]):
            return (segment[:cut], segment[cut:]) if len(segment) - cut >= 2 else (segment[:cut],)
    if (m := GATHERING_ZH.search(segment)) is not None and m.start() >= 2:
        return segment[: m.start()], m[0]
    kin = next((w for w in _KIN_BY_LENGTH if segment.startswith(w) and len(segment) - len(w) >= 2), None)
    return (kin, segment[len(kin) :]) if kin else ()  # 爷爷90大寿: whose, and what


def match_score(
    subject: str,
    attribute: str,
    values: Iterable[Any],
    query: QueryWords,
    *,
    asker: str | None = None,
    vocabulary: Vocabulary = DEFAULT_VOCABULARY,
) -> float:
    """How well a fact key matches the query (0: not at all). At least one word of its attribute must be
    in it; its subject (by name, or "my" when the subject is the `asker`) adds 1, one of its values 0.5.
    A relative of the asker's ("Ravi's brother") is not what a question about the asker means unless it
    names the relative ("my brother"); nor is a named person's ("Oz's sister") in a question about Oz."""
    hits = sum(1 for p in attribute_phrases(attribute, vocabulary) if query.has_phrase(p))
    if not hits or someone_else(subject, query, asker=asker, vocabulary=vocabulary):
        return 0.0
    score = float(hits)
    mine = asker is not None and subject.casefold() == asker.casefold() and query.names_self()
    if query.has_phrase(subject) or mine:
        score += 1.0
    if any(query.has_phrase(str(v)) for v in values):
        score += 0.5
    return score


def someone_else(
    subject: str, query: QueryWords, *, asker: str | None = None, vocabulary: Vocabulary = DEFAULT_VOCABULARY
) -> bool:
    """Is `subject` a relative of one the query asks about that the query does not name ("Ravi's brother"
    in "where do I live?" asked by Ravi, "Oz's sister" in a question about Oz's diet)?"""
    if query.has_phrase(subject):
        return False
    for joint in ("'s ", "的"):
        owner, found, relative = subject.partition(joint)
        if not found or not relative or _names_relative(query, relative, vocabulary):
            continue
        mine = asker is not None and owner.casefold() == asker.casefold() and query.names_self()
        if mine or query.has_phrase(owner):
            return True
    return False


def _names_relative(query: QueryWords, relative: str, vocabulary: Vocabulary) -> bool:
    """The query names the relative by any word for the same relation ("grandpa" for "grandfather")."""
    if query.has_phrase(relative):
        return True
    known = vocabulary.relation(relative)
    return known is not None and any(
        query.has_phrase(word)
        for word, (key, _) in vocabulary.relations.items()
        if key == known[0] and may_name_one(word, relative)  # 弟弟 names no 哥哥
    )


__all__ = ["QueryWords", "attribute_phrases", "match_score", "someone_else", "stem"]
