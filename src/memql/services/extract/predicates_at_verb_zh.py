"""The Chinese grammar's predicates at the verb of a part that names its subject: where one lives, works
and studies by the patterns of `patterns_zh._PREDICATES` (a city is a home, not an employer; back to an
employer held is no home; a town gone to is no employer), floors, places and rides; else the predicates of
`predicates_zh.verb_states`."""

from __future__ import annotations

import re

from .common import Reading
from .floors import floor_zh
from .patterns_zh import _ADDRESSED, _FROM, _PREDICATES
from .places import is_place_zh
from .predicates_zh import places_and_rides, verb_states
from .values_zh import add_fact as _fact
from .values_zh import read_value as _value

_A_TOWN = re.compile(r"(?:县城|城里|镇上|村里|乡下|老家|农村|市里)$")
_GRANTED_NEXT = re.compile(r"[，,]\s*(?:已经|也|刚)?(?:批了|批下来了|批准了|通过了|同意了|下来了)")
_WORKS_NEXT = re.compile(r"[，,]\s*(?:现在|目前)?(?:在[^，,。]{1,10}?(?:上班|工作)|进了|找了份|入职)")

_A_STAY = re.compile(
    r"(?:[一二两三四五六七八九十几半0-9]+|个把)(?:个)?(?:天|晚|周|星期|礼拜|月|年|宿)(?:左右)?"
)


def verb_predicates(
    r: Reading, subject: str, a: int, verb_at: int, b: int, confidence: float, correction: bool
):
    """Where one lives, works and studies (the grammar's patterns at the part's verb: 我从杭州搬到了苏州,
    在瑞幸当咖啡师, 去星巴克当值班主管), else the other predicates at the verb (predicates_zh)."""
    s = r.text
    if (origin := _FROM.match(s, verb_at, b)) is not None:
        verb_at = origin.end()  # 我从杭州搬到了苏州, 我从腾讯跳槽到阿里: what follows 从X is the change
    if floor_zh(r, subject, a, verb_at, b, confidence, correction):  # 搬到9楼 is no new city
        return True
    if places_and_rides(r, subject, a, verb_at, b, confidence, correction):
        return True
    for pattern, key, kind in _PREDICATES:
        m = pattern.match(s, verb_at, b)
        if m is None:
            continue
        if key == "birth":
            span = r.time_at(m.start("v"), m.end("v"))
            key, kind = ("birthday", "date") if span is not None else ("birthplace", "place")
        if key == "residence_if_place" and not is_place_zh(m["v"]):
            continue
        if key == "residence_if_working_there" and not (is_place_zh(m["v"]) and _WORKS_NEXT.match(s, b)):
            continue
        if key == "residence_if_granted" and not (is_place_zh(m["v"]) and _GRANTED_NEXT.match(s, b)):
            continue
        if key == "school_or_residence":
            key, kind = ("residence", "place") if is_place_zh(m["v"]) else ("school", "organization")
        if key == "residence" and (org := _held_organization(r, subject, m["v"])) is not None:
            (subject, key), kind = org, "organization"  # 老公又回中石化了: back to the employer held
        key = "employer" if key == "employer_change" else re.sub(r"_if_.*", "", key)
        if key == "employer" and is_place_zh(m["v"]):
            key, kind = (
                "residence",
                "place",
            )  # 去深圳工作了, 在深圳上班: a city is where one lives, no employer
        got_value = _value(r, m.start("v"), m.end("v"), kind)
        if got_value is None or (key == "job_title" and _ADDRESSED.fullmatch(str(got_value[0]))):
            continue  # 现在是李老师: a person called by surname and title, not the speaker's job
        value, v0, v1 = got_value
        if key == "residence" and _A_STAY.fullmatch(str(value)):
            continue  # 住两周: how long one stays, not where
        if not (key == "employer" and _A_TOWN.search(str(value))):  # 去县城当保安了: a town, no employer
            _fact(r, subject, key, value, a, b, confidence, correction, kind, (v0, v1))
        if m.groupdict().get("job") and (job := _value(r, m.start("job"), m.end("job"), "text")) is not None:
            _fact(r, subject, "job_title", job[0], a, b, confidence, correction, "text", (job[1], job[2]))
        return True
    return verb_states(r, subject, a, verb_at, b, confidence, correction)


def _held_organization(r: Reading, subject: str, words: str) -> tuple[str, str] | None:
    """(whose, key) under which these words were held as an employer or a school: the subject's, else, for
    the speaker who held none (在平安干了两个月，又回招行了), the one other person said to hold them."""
    held = [
        d
        for d in reversed(r.earlier)
        if d.attribute in ("employer", "school") and str(d.value) == words and d.speaker == r.speaker
    ]
    if own := [d for d in held if d.subject == subject]:
        return subject, own[0].attribute
    others = {(d.subject, d.attribute) for d in held}
    return others.pop() if subject == r.speaker and len(others) == 1 else None
