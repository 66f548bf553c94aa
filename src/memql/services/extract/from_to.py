"""An amount said to move from one value to another, in English and Chinese: "my rent went from $1,850 to
$1,975", "they bumped my rent from 1850 to 1975", "I went from 170 lbs to 158", 房租从3200涨到3500了,
他从170掉到158了.

The grammars read such a clause as one value under a piece of it ("房租从3200" = 3500, "employer" = 158
lbs) or not at all. This pass reads the new value under the key the words before or after the verb
name (my rent, 房租), else the key of a held value the old one repeats (it is that value that moved), else
— another person's amount beside the speaker's (我男朋友…他从170掉到158) — the key of the latest amount
of the recent turns in the same unit and near in size, else what the unit says (pounds and 斤: a weight).
The new value supersedes the held one; the old value said is no fact of its own (a message states one
value per key, the one it leaves true).
"""

from __future__ import annotations

import re

from memql.services.tokenize import STOP_WORDS

from .common import CJK, STATED, Draft, Reading, sentence_around
from .raises import starts
from .subjects_zh import relation_words, subject_at
from .sums import amount

_I = re.IGNORECASE
_EN_UNIT = r"(?:\s*(?:k\b|%|lbs?\b|pounds\b|kgs?\b|kilos?\b|mg\b|ml\b|cm\b|percent\b))?"
_EN_AMOUNT = rf"[$€£]?\d[\d,]*(?:\.\d+)?{_EN_UNIT}"
_EN_VERB = (
    r"went|go(?:es|ing)?|gone|jump(?:ed|s|ing)?|r(?:o|i)se[ns]?|rising|fell|falls?|falling|dropp(?:ed|ing)|drops?|"
    r"increas(?:ed|es|ing)|decreas(?:ed|es|ing)|climb(?:ed|s|ing)?|bump(?:ed|ing)?(?:\s+up)?|rais(?:ed|es|ing)|"
    r"cut|lower(?:ed|ing)?|reduc(?:ed|es|ing)|chang(?:ed|es|ing)|slash(?:ed)?|hik(?:ed|ing)|upp(?:ed)?|"
    r"mov(?:ed|es|ing)|switch(?:ed|ing)?|adjust(?:ed|ing)?|shot\s+up|crept\s+up|came\s+down"
)
_EN = re.compile(
    rf"\b(?P<verb>{_EN_VERB})\s+(?:(?:it|(?P<own>my|our|his|her|their|the)\s+(?P<object>[a-z-]+(?:\s+[a-z-]+)?))\s+)?"
    rf"(?:all\s+the\s+way\s+)?from\s+(?P<old>{_EN_AMOUNT})\s+(?:all\s+the\s+way\s+)?(?:to|->|→)\s+"
    rf"(?:about\s+|like\s+|around\s+)?(?P<new>{_EN_AMOUNT})",
    _I,
)
# the thing named before the verb: "my rent (has) went", "Ana's rent is going", "the fee just jumped"
_AUX = (
    r"has|have|had|is|are|was|will|just|finally|also|already|basically|officially|want\s+to|wants\s+to|"
    r"going\s+to"
)
_EN_NAMED = re.compile(
    rf"(?:(?:(?P<own>my|our|his|her|their|the|(?P<name>[A-Z][a-z]+)'s)\s+|^\s*)"
    rf"(?P<key>(?:(?!(?:{_AUX})\b)[a-z-]+\s+){{0,2}}(?!(?:{_AUX})\b)[a-z-]+))\s+(?:(?:{_AUX})\s+)*$",
    _I,
)
_EN_WHO = re.compile(r"\b(?P<who>i|we|he|she)\s+(?:(?:have|has|just|finally|also|already)\s+)*$", _I)
_ZH_AMOUNT = r"\d+(?:\.\d+)?(?:块\d?|万|千|元|斤|公斤|千克|kg|毫克|mg|分)?"
_ZH = re.compile(
    rf"从(?P<old>{_ZH_AMOUNT})(?P<verb>涨|降|掉|升|减|瘦|胖|跌|变|改|调|提|长|加|增)(?:了|回)?到了?(?P<new>{_ZH_AMOUNT})"
)
# words before 从 that name who, or nothing: what is left names the thing (房租, 学费)
_ZH_NOT_KEY = re.compile(
    r"^(?:我的?|我们的?|他的?|她的?|它的?|那边|这边|反而|也|又|都|就|已经|还|一下子|直接|一节|每节|每月|"
    r"一个月|每个月|现在|目前|终于|居然|竟然|刚刚?|今年|去年|这次|上次|一共|总共|了)+"
)
_WEIGHT_UNIT = re.compile(r"lbs?|pounds|kgs?|kilos?|斤|公斤|千克", _I)


def bind(r: Reading) -> None:
    """Draft the new value of each amount the message says moved (see the module docstring)."""
    if "from" not in r.text.lower() and "从" not in r.text:
        return  # (most messages)
    for m in (_ZH if CJK.search(r.text) else _EN).finditer(r.text):
        _bind_one(r, m)


def _bind_one(r: Reading, m: re.Match[str]) -> None:
    misread = r.valued_in(m.start(), m.end())
    subject, key = _named(r, m, misread)
    if subject is None:
        return
    timed = [r.text[t0:t1] for t0, t1, _ in r.times if t0 < m.end() and t1 > m.start("old")]
    if timed and (key is None or not all(re.fullmatch(r"\d{4}", t.strip()) for t in timed)):
        return  # "went from 3 to 4pm", 从9点改到10点: times, read by the time grammar (not "my rent went
        # from 1850 to 1975": years by their shape alone)
    old, new = amount(m["old"]), amount(m["new"])
    if old is None or new is None or old == new:
        return
    held = _held(r, subject, old)
    if key is None:
        key = held.attribute if held is not None else _parallel(r, m, old)
    if key is None:
        return
    r.drop(misread)  # the grammar's reading of the clause: one value under a piece of it
    a, b = sentence_around(r.text, m.start(), m.end())
    # (the old value is no fact of its own: a message states one value per key, the one it leaves true)
    kind = r.vocabulary.kind(key)
    r.add(Draft(subject, key, m["new"], a, b, starts(r), STATED, True, kind, m.span("new")))


def _named(r: Reading, m: re.Match[str], misread: list[Draft]) -> tuple[str | None, str | None]:
    """(whose amount, the key the words name, or None): the owner and noun before the verb or after it."""
    before = r.text[sentence_around(r.text, m.start(), m.end())[0] : m.start()]
    if CJK.search(r.text):
        words = re.split(r"[，,。！!？?；;\s]", before)[-1]
        if (got := subject_at(r, m.start() - len(words), m.start())) is not None:
            subject, words = got[0], r.text[got[1] : m.start()]  # 我男朋友…，他从170掉到158了
        elif re.match(r"[他她]", words):
            # 我男朋友陪我一起减，他从170掉到158了: the one relative the sentence named before, else unknown
            kin = list(re.finditer(rf"我(?:的|家)?(?P<rel>{relation_words(r)})", before))
            gender = (r.vocabulary.relation(kin[0]["rel"]) or ("", None))[1] if len(kin) == 1 else None
            fits = len(kin) == 1 and gender in (None, "m" if words[0] == "他" else "f")
            got = subject_at(r, kin[0].start(), m.start()) if fits else None
            if got is None or got[0] == r.speaker:
                return None, None
            subject = got[0]
        else:  # 小敏…她那边反而降了: whom the grammar read the clause of
            subject = misread[0].subject if misread else r.speaker
        thing = _ZH_NOT_KEY.sub("", re.sub(r"(?:也|又|都|就|已经|还)$", "", words))
        named = len(thing) >= 2 and r.vocabulary.relation(thing) is None  # (我男朋友 names who, no thing)
        key = (r.vocabulary.normalize(thing) or None) if named else None
        if key is not None and r.vocabulary.attribute(key) is None:
            # 房东又要涨租 这个一室户从5800涨到6300: the one known key the sentence named before, not the flat
            said = r.vocabulary.keys_named(before[: len(before) - len(words)])
            key = said.pop() if len(said) == 1 else key
        return subject, key
    if m["object"]:  # "bumped my rent from …"
        return _owner(r, m["own"], None), r.vocabulary.normalize(m["object"]) or None
    if (named := _EN_NAMED.search(before)) is not None and (
        named["own"] or named["name"] or not set(named["key"].lower().split()) & STOP_WORDS
    ):  # ("rent is going from …"; not "so i went from …")
        return _owner(r, named["own"], named["name"]), r.vocabulary.normalize(named["key"]) or None
    if (who := _EN_WHO.search(before)) is not None:
        said = who["who"].lower()
        return (r.pronoun("m" if said == "he" else "f") if said in ("he", "she") else r.speaker), None
    return None, None


def _owner(r: Reading, own: str | None, name: str | None) -> str | None:
    if name:
        return name
    said = (own or "").lower()
    if said in ("his", "her"):
        return r.pronoun("m" if said == "his" else "f")
    return r.speaker


def _held(r: Reading, subject: str, old: float) -> Draft | None:
    """The subject's latest held value that the old one repeats (it is that value that moved)."""
    own = {id(d) for d in r.facts}
    for d in reversed(r.earlier):
        if id(d) not in own and d.subject == subject and not d.attribute.startswith("relation."):
            said = amount(str(d.value)) if not isinstance(d.value, bool) else None
            if said is not None and said == old:
                return d
    return None


def _parallel(r: Reading, m: re.Match[str], old: float) -> str | None:
    """The key of the latest amount of the recent turns near the old one in size (within a factor of
    two, its unit the same or unsaid): another's amount said beside one's own; else a weight by its unit."""
    unit = _WEIGHT_UNIT.search(m["old"]) or _WEIGHT_UNIT.search(m["new"])
    own = {id(d) for d in r.facts}
    for d in reversed(r.earlier):
        if id(d) in own or isinstance(d.value, bool) or d.kind in ("date", "schedule", "person"):
            continue
        said = amount(str(d.value))
        if said and 0.5 < old / said < 2 and re.match(r"\s*[$€£]?\d", str(d.value)):
            held_unit = _WEIGHT_UNIT.search(str(d.value))
            if unit is None or held_unit is None or held_unit[0] == unit[0]:
                return d.attribute
    return "weight" if unit is not None else None
