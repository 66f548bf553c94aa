"""The attribute vocabulary: the many ways people name an attribute, mapped onto one key.

A typed fact is keyed by (subject, attribute), so "deadline for the passport", "passport due date" and
"护照截止日期" must all be `passport.deadline` — otherwise a correction would not supersede the value it
corrects. A key is lower-case dotted snake case. `Vocabulary.normalize(phrase)` finds it in four steps:

1. **Known attributes** (`ATTRIBUTES`): a key with its English and Chinese phrases — "lives in" and
   "住在" are `residence`, "company" and "公司" `employer`, "date of birth" and "生日" `birthday`.
2. **Structured families**: "favourite X" / "最喜欢的X" is `favorite.<x>`; a relation ("sister",
   "姐姐") is `relation.<relation>_of` (see `RELATIONS`).
3. **A thing and an aspect**: a phrase ending in an aspect (`ASPECTS`: deadline, expiry, appointment,
   number, address ...) is `<thing>.<aspect>`, the thing's filler words dropped ("passport renewal
   deadline" -> passport.deadline; "deadline for the passport" is first turned into "passport deadline").
   `THINGS` gives Chinese things their English key (护照 -> passport), so both languages share keys.
4. **Anything else is kept**, snake-cased: "blood pressure" -> `blood_pressure`, "血压" -> `血压`.

Extend it without editing this module: `DEFAULT_VOCABULARY.extended(attributes=[Attribute(...)],
aspects={...}, things={...})` returns a new vocabulary; pass it to an extractor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .vocabulary_words import (
    ASPECTS,
    ATTRIBUTES,
    CONTEXT,
    DATE_ASPECTS,
    FILLERS,
    HEALTH,
    RELATIONS,
    SPELLING,
    THINGS,
    Attribute,
    ValueKind,
)

__all__ = [
    "ASPECTS",
    "ATTRIBUTES",
    "DATE_ASPECTS",
    "DEFAULT_VOCABULARY",
    "FILLERS",
    "RELATIONS",
    "THINGS",
    "Attribute",
    "ValueKind",
    "Vocabulary",
    "snake",
]
_LEADING = re.compile(r"^(?:(?:my|our|his|her|their|your|the|a|an|its)\s+)+")
_OF_FOR = re.compile(
    r"^(?P<aspect>.+?)\s+(?:for|of|on)\s+(?:(?:my|our|his|her|their|your|the|a|an)\s+)*"
    r"(?P<thing>.+)$"
)
_FAVORITE_EN = re.compile(r"^(?:most\s+)?(?:favorite|fave|fav)\s+(?P<x>.+)$")
_FAVORITE_ZH = re.compile(r"^最(?:喜欢|爱)(?:的)?(?P<x>.+)$")
_FRESH = re.compile(r"^(?:new|current|present|latest|updated)\s+|^(?:最新的|新的|现在的|目前的|新)")
_USUAL = re.compile(
    r"^(?:usual|regular|go to|typical|normal|standard|default|everyday)\s+|^(?:平时的?|平常的?)"
)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_NON_WORD = re.compile(r"[^\w]+")


def snake(phrase: str) -> str:
    """A key segment: lower-case words joined by '_' ("Blood Pressure" -> blood_pressure); '' if none."""
    words = _NON_WORD.sub(" ", phrase.lower().replace("'s ", " ").replace("'", "")).split()
    return "_".join(SPELLING.get(w, w) for w in words)


@dataclass(frozen=True)
class Vocabulary:
    """Attribute phrases -> keys (see the module docstring). Immutable; `extended` makes a new one."""

    attributes: tuple[Attribute, ...] = ATTRIBUTES
    aspects: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(ASPECTS))
    things: Mapping[str, str] = field(default_factory=lambda: dict(THINGS))
    fillers: frozenset[str] = FILLERS
    relations: Mapping[str, tuple[str, str | None]] = field(default_factory=lambda: dict(RELATIONS))

    def __post_init__(self) -> None:
        by_phrase: dict[str, Attribute] = {}
        for attr in self.attributes:
            for phrase in (attr.key.replace("_", " "), *attr.phrases):
                by_phrase[_clean(phrase)] = attr
        aspect_of: dict[str, str] = {}
        for key, phrases in self.aspects.items():
            for phrase in phrases:
                aspect_of[_clean(phrase)] = key
        object.__setattr__(self, "_by_phrase", by_phrase)
        object.__setattr__(self, "_memo", {})
        object.__setattr__(self, "_by_key", {a.key: a for a in self.attributes})
        # longest first: "expiry date" before "date"
        object.__setattr__(self, "_aspects", sorted(aspect_of.items(), key=lambda kv: -len(kv[0])))

    def extended(
        self,
        *,
        attributes: Iterable[Attribute] = (),
        aspects: Mapping[str, Iterable[str]] | None = None,
        things: Mapping[str, str] | None = None,
        fillers: Iterable[str] = (),
        relations: Mapping[str, tuple[str, str | None]] | None = None,
    ) -> Vocabulary:
        """A new vocabulary with more entries; a phrase given again maps to its new key."""
        merged_aspects = {k: tuple(v) for k, v in self.aspects.items()}
        for key, phrases in (aspects or {}).items():
            merged_aspects[key] = merged_aspects.get(key, ()) + tuple(phrases)
        return Vocabulary(
            attributes=self.attributes + tuple(attributes),
            aspects=merged_aspects,
            things={**self.things, **(things or {})},
            fillers=self.fillers | frozenset(fillers),
            relations={**self.relations, **(relations or {})},
        )

    def memo(self, name: str, make):
        """What `make()` returns, computed once per vocabulary (the grammars' patterns built from it)."""
        memo = self._memo  # type: ignore[attr-defined]
        if name not in memo:
            memo[name] = make()
        return memo[name]

    # -- lookups --------------------------------------------------------------------------------------

    def keys_named(self, text: str) -> set[str]:
        """The keys whose words a text says ("bank with", 健身卡, "what's the rent?"), but for the ones
        said of anything ("name", "age", "size")."""
        pattern = self.memo("keys_named", lambda: _named_pattern(self))
        return {self.attributes[int(m.lastgroup[1:])].key for m in pattern.finditer(text)}  # type: ignore[index]

    def known(self, phrase: str) -> Attribute | None:
        """The attribute a phrase names exactly (after articles and spelling variants), or None."""
        return self._by_phrase.get(_clean(phrase))  # type: ignore[attr-defined]

    def attribute(self, key: str) -> Attribute | None:
        return self._by_key.get(key)  # type: ignore[attr-defined]

    def relation(self, word: str) -> tuple[str, str | None] | None:
        """(relation key, gender) of a relation word ("sister", "姐姐"), or None."""
        return self.relations.get(_clean(word))

    def category(self, key: str) -> str | None:
        """The a2p category of a key: its attribute's, or by family (favorite./preference. are
        preferences, relation. relationships, an aspect of a thing is context)."""
        attr = self.attribute(key)
        if attr is not None:
            return attr.category
        family = key.split(".", 1)[0]
        if family in ("favorite", "preference"):
            return "a2p:preferences"
        if family == "relation" or key in {relation for relation, _ in self.relations.values()}:
            return "a2p:relationships"
        if family == "allergy":
            return HEALTH
        if "." in key and key.rsplit(".", 1)[1] in self.aspects:
            return CONTEXT
        return None

    def kind(self, key: str) -> ValueKind:
        """The kind of value a key takes ("date" for a deadline, "place" for a residence ...)."""
        attr = self.attribute(key)
        if attr is not None:
            return attr.kind
        if key.rsplit(".", 1)[-1] in DATE_ASPECTS:
            return "date"
        return "text"

    # -- normalisation --------------------------------------------------------------------------------

    def normalize(self, phrase: str) -> str:
        """The key for an attribute phrase (see the module docstring); '' for a phrase with no words."""
        text = _clean(phrase)
        if not text:
            return ""
        attr = self._by_phrase.get(text)  # type: ignore[attr-defined]
        if attr is not None:
            return attr.key
        usual = _USUAL.match(text)  # "usual coffee order", "go-to order", 平时的: the attribute itself
        if usual and usual.end() < len(text):
            return self.normalize(text[usual.end() :])
        fresh = _FRESH.match(text)  # "new address", "新手机号": the attribute itself
        if fresh and fresh.end() < len(text):
            attr = self._by_phrase.get(text[fresh.end() :].strip())  # type: ignore[attr-defined]
            if attr is not None:
                return attr.key
        fav = _FAVORITE_EN.match(text) or _FAVORITE_ZH.match(text)
        if fav and (thing := self._segment(fav["x"])):
            return "favorite." + thing
        swapped = _OF_FOR.match(text)
        if swapped and self._aspect_suffix(swapped["aspect"]) is not None:
            return self.normalize(f"{swapped['thing']} {swapped['aspect']}")
        found = self._aspect_suffix(text)
        if found is not None:
            thing, aspect = found
            thing_key = self._thing(thing)
            if not thing_key:
                return aspect
            if self._by_phrase.get(thing) is not None and thing_key == aspect:  # type: ignore[attr-defined]
                return thing_key
            return f"{thing_key}.{aspect}"
        return self._segment(text)

    def _aspect_suffix(self, text: str) -> tuple[str, str] | None:
        """(the thing before it, aspect key) when `text` ends with an aspect phrase."""
        for phrase, key in self._aspects:  # type: ignore[attr-defined]
            if text == phrase:
                return "", key
            if text.endswith(phrase):
                head = text[: -len(phrase)]
                cjk = bool(_CJK.search(phrase[:1]))
                if cjk or head.endswith(" "):
                    return head.strip().removesuffix("的").strip(), key
        return None

    def _thing(self, thing: str) -> str:
        words = thing.split() if not _CJK.search(thing) else [thing]
        kept = [w for w in words if w not in self.fillers]
        text = " ".join(kept)
        if _CJK.search(text):
            for filler in sorted(self.fillers, key=len, reverse=True):
                if _CJK.search(filler) and text.endswith(filler) and len(text) > len(filler):
                    text = text[: -len(filler)]
        return self._segment(text)

    def _segment(self, text: str) -> str:
        text = text.strip().removesuffix("的")
        if text in self.things:
            return self.things[text]
        attr = self._by_phrase.get(text)  # type: ignore[attr-defined]
        if attr is not None and "." not in attr.key:
            return attr.key
        return snake(text)


def _clean(phrase: str) -> str:
    text = " ".join(phrase.replace("\u2019", "'").lower().split())
    text = _LEADING.sub("", text)
    if text.startswith("我的"):
        text = text[2:]
    elif text.startswith(("我", "他的", "她的")) and len(text) > 2:
        text = text[2:] if text[1] == "的" else text[1:]
    words = [SPELLING.get(w, w) for w in text.split(" ")]
    return " ".join(words).strip(" .,:;!?。，：；！？")


DEFAULT_VOCABULARY = Vocabulary()


# attributes whose words say what a text is about only loosely ("name", "age", "size" are said of anything)
_LOOSE_KEYS = frozenset({"name", "nickname", "age", "size", "title", "floor", "food", "drink"})
_HAN_START = re.compile(r"[\u4e00-\u9fff]")


def _named_pattern(vocabulary: Vocabulary) -> re.Pattern[str]:
    """One alternation of the vocabulary's attribute phrases, each a group named by its key's position."""
    parts = []
    for n, attr in enumerate(vocabulary.attributes):
        if attr.key in _LOOSE_KEYS:
            continue
        phrases = sorted(
            {
                p
                for p in (attr.key.replace("_", " "), *attr.phrases)
                if len(p) >= (2 if _HAN_START.match(p) else 3)
            },
            key=len,
            reverse=True,
        )
        latin = [re.escape(p) for p in phrases if not _HAN_START.match(p)]
        han = [re.escape(p) for p in phrases if _HAN_START.match(p)]
        alternatives = ([r"\b(?:" + "|".join(latin) + r")\b"] if latin else []) + han
        if alternatives:
            parts.append(f"(?P<a{n}>{'|'.join(alternatives)})")
    return re.compile("|".join(parts), re.IGNORECASE)
