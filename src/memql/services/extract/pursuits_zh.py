"""What one plays and what one trains for, in Chinese: the team one plays for (在上海队打球,
被交易到广东队了), the instrument by its verb (在学校乐队吹小号, 改拉大提琴了; a closed list, since 吹 and 拉
say much else) and the race one prepares for (在准备十月的半马), changed by running another (改跑10公里了,
还是跑半马) only once a race is held."""

from __future__ import annotations

import re

from .common import Reading
from .patterns_zh import ZH_RACE
from .values_zh import add_match

_CLAUSE = r"[^，,。；;！!？?]"
_INSTRUMENT = re.compile(
    r"(?:在" + _CLAUSE + r"{1,10}?)?(?:现在|也|又|还)*(?:改|换|改成|换成|开始|转)?(?:学|练)?(?:弹|拉|吹|打)"
    r"(?P<v>钢琴|电子琴|吉他|电吉他|贝斯|古筝|琵琶|尤克里里|竖琴|扬琴|小提琴|中提琴|大提琴|二胡|手风琴|小号|长号|"
    r"圆号|大号|萨克斯|长笛|笛子|单簧管|黑管|双簧管|口琴|葫芦丝|唢呐|架子鼓)"
)
# 我妹在上海队打球; 她被交易到广东队了: the team one plays for
_TEAM = re.compile(
    r"(?:在(?P<v>[\u4e00-\u9fffA-Za-z0-9]{1,8}?队)(?:打球|踢球|打篮球|踢足球|打排球|效力|打|踢)|"
    r"(?:被)?(?:交易|转会|租借|卖|签)(?:到|去|给|进)了?(?P<v2>[\u4e00-\u9fffA-Za-z0-9]{1,8}?队))"
)
_RACE = re.compile(r"(?:在|正在)?(?:准备|备战|报名了?|报了)(?:" + _CLAUSE + r"{0,6}?的)?" + ZH_RACE)
_RACE_CHANGE = re.compile(r"(?:改|换|还是|是|又|改成|换成|回)+跑" + ZH_RACE)


def pursuit_zh(r: Reading, subject: str, a: int, verb_at: int, b: int, confidence: float, correction: bool):
    """The instrument or the race at the verb of a part (`verb_at`), as the subject's."""
    s = r.text
    race = _RACE.match(s, verb_at, b)
    if race is None and (change := _RACE_CHANGE.match(s, verb_at, b)) is not None:
        race = change if any(d.subject == subject and d.attribute == "race" for d in r.earlier) else None
    if race is not None:
        return add_match(r, subject, "race", race, a, b, confidence, correction, "text")
    if (m := _TEAM.match(s, verb_at, b)) is not None:
        group = "v" if m["v"] else "v2"
        return add_match(r, subject, "球队", m, a, b, confidence, correction, "text", group)
    if (m := _INSTRUMENT.match(s, verb_at, b)) is not None:
        return add_match(r, subject, "instrument", m, a, b, confidence, correction, "text")
    return False
