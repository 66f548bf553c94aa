"""A medicine's dose, keyed by the medicine ("I'm on 20mg of Lexapro": lexapro 20mg; 每天吃一片优甲乐，50微克:
优甲乐 50微克), and a dose changed by the one who takes it or by whoever prescribes it ("my psychiatrist
bumped me to 30mg", "the doctor is lowering my metformin to 500mg", 复查完医生让我加到75微克). A change that
names no medicine is of the one dose the taker holds. A dose is said in a unit of medicine (mg, mcg, ml,
units; 毫克, 微克, 毫升): grams and pills are left to the amounts of food and habits."""

from __future__ import annotations

import re

from .common import CJK, Reading, latest_held
from .subjects_en import OBJECT_PRONOUNS, object_person, subject_alone
from .subjects_zh import after_adverbs, subject_at
from .values_en import add_fact as add_fact_en
from .values_zh import add_fact as add_fact_zh
from .vocabulary import snake

_I = re.IGNORECASE

_UNITS_EN = r"mg|mcg|µg|μg|micrograms?|milligrams?|ml|units|iu"
_UNITS_ZH = r"毫克|微克|毫升|mg|mcg|ml|国际单位|单位"
_DOSE_EN = (
    r"(?P<dose>\d+(?:\.\d+)?\s?(?:" + _UNITS_EN + r")(?![a-z]))"
    r"(?:\s+(?:a|per|each|every)\s+(?:day|morning|night|evening|week))?"
)
_DOSE_ZH = r"(?P<dose>\d+(?:\.\d+)?\s?(?:" + _UNITS_ZH + r"))"
# a medicine's name: one word, said after a dose ("of Lexapro") or before "dose"; no pronoun or article
_MED_EN = r"(?P<med>(?!(?:it|that|this|the|a|an|my|his|her|them|each|every|per)\b)[A-Za-z][\w-]{2,})"
# "I'm on 20mg of Lexapro", "Dad takes 10mg of Lipitor", "she's taking 500 mg metformin"
# ("I'm on 50mg" of no medicine named: the dose held, else the taker's one `dose`)
_TAKES_EN = re.compile(
    r"\s*(?:(?:am|'m|is|'s|are|'re)\s+(?:now\s+|still\s+|currently\s+|only\s+)?(?:on|taking)|"
    r"(?:now\s+|still\s+|only\s+)?(?:take|takes|took))\s+" + _DOSE_EN + r"(?:\s+(?:of\s+)?" + _MED_EN + r")?",
    _I,
)
# "My wife Dot takes amlodipine 5 mg": the medicine named first
_TAKES_MED_FIRST_EN = re.compile(
    r"\s*(?:(?:am|'m|is|'s|are|'re)\s+(?:now\s+|still\s+|currently\s+)?(?:on|taking)|(?:now\s+|still\s+)?"
    r"(?:take|takes|took))\s+" + _MED_EN + r",?\s+" + _DOSE_EN,
    _I,
)
# "she's doubling my dose", "they halved his Lexapro": the held dose, times two or a half
_SCALED_EN = re.compile(
    r"(?P<verb>doubl|halv|tripl)(?:e|es|ed|ing)\s+(?P<whom>my|his|her|our)\s+(?:(?:daily\s+)?dose|"
    + _MED_EN
    + r"(?:\s+dose)?)\b",
    _I,
)
_SCALE = {"doubl": 2.0, "halv": 0.5, "tripl": 3.0}
_VERBS_EN = (
    r"(?:bumped|upped|increased|raised|lowered|dropped|reduced|cut|tapered|moved|changed|adjusted|put|"
    r"switched|doubled|halved)"
)
# "bumped me to 30mg", "upped my Lexapro to 30mg", "cut his dose back down to 5 mg"
_CHANGED_EN = re.compile(
    _VERBS_EN
    + r"\s+(?P<whom>me|him|her|us|it|(?:my|his|her|our|the)\s+(?:(?:daily\s+)?dose|"
    + _MED_EN
    + r"(?:\s+dose)?))(?:\s+(?:back|up|down))*\s+to\s+"
    + _DOSE_EN,
    _I,
)
# "My doctor has started me on lisinopril, 10 mg once a day", "put him on metformin 500mg"
_STARTED_ON_EN = re.compile(
    r"\b(?:started|put|switched)\s+(?P<whom>me|him|her|us)\s+on\s+" + _MED_EN + r",?\s+" + _DOSE_EN, _I
)
# "I'm down to 10mg now", "he's up to 40 mg"
_NOW_AT_EN = re.compile(
    r"\s*(?:am|'m|is|'s|are|'re)\s+(?:now\s+)?(?:back\s+)?(?:up|down)\s+to\s+"
    + _DOSE_EN
    + r"(?:\s+of\s+"
    + _MED_EN
    + ")?",
    _I,
)
# 每天吃一片优甲乐，50微克; 每天吃50微克的优甲乐; 二甲双胍一天吃两次，每次500毫克
_MED_ZH = r"(?P<med>[\u4e00-\u9fffA-Za-z]{2,6}?)"
_PILLS_ZH = r"(?:[一两二三四半\d]+(?:片|粒|颗|支))?"
_TAKEN_ZH = r"(?:每天|一天|每晚|每早|早上|晚上|现在|一直|目前)*(?:吃|服用?|用|打)"
_TAKES_ZH = (
    re.compile(
        _TAKEN_ZH + _PILLS_ZH + _MED_ZH
        + r"[，,\s]*(?:每次|一次|一天|每天)?" + _DOSE_ZH
    ),
    re.compile(_TAKEN_ZH + _DOSE_ZH + r"的" + _MED_ZH + r"(?=[，,。！!；;\s]|$)"),
    re.compile(
        _MED_ZH + r"(?:的剂量是|(?:每天|一天|每次|一次)?(?:吃|服用?|用|打)(?:[一两二三四\d]次)?[，,\s]*"
        r"(?:每次|一次)?)" + _DOSE_ZH
    ),
)  # fmt: skip
# 加到75微克, 减量到25微克, 优甲乐改成100微克: a dose changed
_CHANGED_ZH = re.compile(
    r"(?:" + _MED_ZH + r"(?:的剂量)?)?(?:剂量)?(?:加量|减量|增加|减少|加|减|降|升|调|改|换)(?:到|成|为)了?"
    r"(?:每次|一次|一天|每天)?" + _DOSE_ZH
)
# (not from inside a number: a search would try each of a long number's digits, each trying them all)
_DOSE_VALUE = re.compile(r"(?<!\d)\d+(?:\.\d+)?\s?(?:" + _UNITS_EN + "|" + _UNITS_ZH + ")", _I)


_DOSE_WORD = re.compile(r"\bdos(?:e|es|age)\b|剂量", _I)


def names_a_dose(text: str, value: object) -> bool:
    """The text speaks of a dose ("doubling my dose") and the value is one ("50mg" of sertraline)."""
    return _DOSE_WORD.search(text) is not None and _DOSE_VALUE.fullmatch(str(value)) is not None


def _held_dose(r: Reading, who: str, med: str | None) -> str | None:
    """The key of `who`'s dose a change means: a held medicine the words name, else the one dose they hold
    (the last said), else the medicine named (优甲乐加到75微克 with nothing held)."""
    held = latest_held(r, lambda d: d.subject == who and _DOSE_VALUE.fullmatch(str(d.value)) is not None)
    keys = [d.attribute for d in sorted(held.values(), key=r.earlier.index)]
    if med is not None and (named := [k for k in keys if k in med]):
        return named[-1]
    if keys:
        return keys[-1]
    return med if med is not None and not re.search(r"[我你他她它让叫说的了]", med) else None


def _add(r: Reading, who: str, key: str, m: re.Match[str], a: int, b: int, confidence: float) -> bool:
    add = add_fact_zh if CJK.search(r.text, a, b) else add_fact_en
    add(r, who, key, m["dose"], a, b, confidence, False, "text", m.span("dose"))
    return True


def dose_en(r: Reading, a: int, b: int, confidence: float) -> bool:
    """A dose stated or changed in the English clause s[a:b] (the subject read as any clause's is)."""
    s = r.text
    if not _DOSE_VALUE.search(s, a, b):
        return _scaled_dose_en(r, a, b)
    if (m := _CHANGED_EN.search(s, a, b)) is not None:
        whom = m["whom"].split()[0].lower()
        if whom in OBJECT_PRONOUNS:
            taker = object_person(r, whom)
        elif whom == "it":  # "Doctor upped it to 75mcg": the dose said last
            held = latest_held(r, lambda d: _DOSE_VALUE.fullmatch(str(d.value)) is not None)
            taker = max(held.values(), key=r.earlier.index).subject if held else None
        else:  # "Grandpa's doctor bumped the warfarin up to 7.5 mg": whoever holds that medicine's dose
            med = snake(m["med"].lower()) if m["med"] else ""
            holders = {
                d.subject for d in r.earlier if d.attribute == med and _DOSE_VALUE.fullmatch(str(d.value))
            }
            taker = holders.pop() if len(holders) == 1 else subject_alone(r, a, m.start())
        key = _held_dose(r, taker, m["med"] and snake(m["med"].lower())) if taker else None
        return key is not None and _add(r, taker, key, m, a, b, confidence)  # type: ignore[arg-type]
    if (m := _STARTED_ON_EN.search(s, a, b)) is not None and (taker := object_person(r, m["whom"].lower())):
        return _add(r, taker, snake(m["med"].lower()), m, a, b, confidence)
    for pattern in (_TAKES_EN, _TAKES_MED_FIRST_EN, _NOW_AT_EN):
        if (m := pattern.search(s, a, b)) is None or (who := subject_alone(r, a, m.start())) is None:
            continue
        key = snake(m["med"].lower()) if m.groupdict().get("med") else _held_dose(r, who, None)
        if key is None and pattern is _TAKES_EN:
            key = "dose"  # "I'm on 50mg": a dose stated, of no medicine named or held
        return key is not None and _add(r, who, key, m, a, b, confidence)
    return False


def _scaled_dose_en(r: Reading, a: int, b: int) -> bool:
    """A held dose doubled, halved or tripled ("she's doubling my dose since the 50 wasnt doing much"):
    the held amount times the factor, in its unit; nothing when the taker holds no dose."""
    if (m := _SCALED_EN.search(r.text, a, b)) is None:
        return False
    taker = r.speaker if m["whom"].lower() in ("my", "our") else object_person(r, m["whom"].lower())
    key = _held_dose(r, taker, m["med"] and snake(m["med"].lower())) if taker else None
    held = latest_held(r, lambda d: d.subject == taker and d.attribute == key)
    if key is None or not held or (amount := _AMOUNT.match(str(next(iter(held.values())).value))) is None:
        return False
    scaled = float(amount["n"]) * _SCALE[m["verb"].lower()]
    value = f"{scaled:g}{amount['sp']}{amount['unit']}"
    add_fact_en(r, taker, key, value, a, b, 0.8, True, "text", m.span())
    return True


_AMOUNT = re.compile(r"(?P<n>\d+(?:\.\d+)?)(?P<sp>\s?)(?P<unit>[^\d\s].*)")


def dose_zh(r: Reading, a: int, b: int, confidence: float) -> bool:
    """A dose stated or changed in the Chinese part s[a:b]: of the one told to change it (医生让我爸加到…),
    else of the part's subject, else the speaker's; the dose may follow the medicine after a comma
    (每天吃一片优甲乐，50微克)."""
    s = r.text
    tail = re.compile(r"[，,]\s*(?=(?:每次|一次)?\d)").match(s, b)
    end = min(len(s), b + 16) if tail is not None else b
    if not _DOSE_VALUE.search(s, a, end):
        return False
    told = re.compile(r"[\u4e00-\u9fff]{0,8}?(?:让|叫|要|给)(?=我|他|她|它)").match(s, a, b)
    at = after_adverbs(r, told.end() if told else a, b)
    facts, known = len(r.facts), len(r.known_facts)
    got = subject_at(r, at, b)
    who, at = (got[0], after_adverbs(r, got[1], b)) if got is not None else (r.speaker, at)
    for pattern in _TAKES_ZH:
        if (m := pattern.match(s, at, end)) is not None and not re.search(r"[我你他她的了吃]", m["med"]):
            return _add(r, who, m["med"], m, a, max(b, m.end()), confidence)
    if (m := _CHANGED_ZH.match(s, at, b)) is not None and (key := _held_dose(r, who, m["med"])) is not None:
        return _add(r, who, key, m, a, b, confidence)
    del r.facts[facts:], r.known_facts[known:]
    return False
