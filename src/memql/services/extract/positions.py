"""The position one plays on a team (`playing_position`): said by the player's verb ("my son plays left wing
for the Hawks", 我儿子在校队踢左边锋) or by whoever puts them there ("Coach moved him to defense this season",
教练这学期把他调去打后卫了). The position words are a closed list: a bare "is a forward" is no position."""

from __future__ import annotations

import re

from .common import Reading
from .patterns_en import _ADVERBS
from .subjects_en import OBJECT_PRONOUNS, object_person, subject_alone
from .subjects_zh import after_adverbs, subject_at
from .values_en import add_fact as add_fact_en
from .values_zh import add_fact as add_fact_zh

_I = re.IGNORECASE

_POSITION_EN = (
    r"(?-i:(?P<v>goalie|goalkeeper|goaltender|(?:left|right|centre|center|inside|outside)[\s-](?:wing|back|forward|"
    r"field|mid(?:field)?|half|defen[cs]e|defender|fielder)|winger|striker|midfield(?:er)?|defen[cs]e(?:man)?|"
    r"defender|sweeper|full-?back|half-?back|point guard|shooting guard|small forward|power forward|pitcher|"
    r"catcher|shortstop|(?:first|second|third) base|outfield(?:er)?|quarterback|running back|wide receiver|"
    r"linebacker|tight end|cornerback|setter|libero|outside hitter|middle blocker|goal|forward|center|"
    r"centre))"
    r"(?![\w-])"  # lower case: "moved to Center City" is a home
)
# "plays left wing for the Hawks", "is playing goalie now", "switched to midfield"
_PLAYS_EN = re.compile(
    r"\s*"
    + _ADVERBS
    + r"(?:plays?|playing|is playing|'s playing|am playing|'m playing|are playing|'re playing|switched to|"
    r"moved to|moved over to|moved up to|is now playing|'s now playing)\s+(?:now\s+)?(?:as\s+)?"
    r"(?:an?\s+|the\s+)?" + _POSITION_EN,
    _I,
)
# "Coach moved him to defense", "they have her at goalie now", "put me in goal"
_PUT_EN = re.compile(
    r"\b(?:moved|put|switched|shifted|converted|has|have|had|is playing|'s playing|are playing|"
    r"'re playing)\s+"
    r"(?P<whom>him|her|me|us)\s+(?:over\s+|back\s+)?(?:to|at|in|on)\s+(?:play\s+|playing\s+)?(?:an?\s+|the\s+)?"
    + _POSITION_EN,
    _I,
)
_POSITION_ZH = (
    r"(?P<v>守门员|门将|(?:左|右)?(?:边锋|边后卫|边前卫)|中锋|前锋|后卫|中后卫|中场|后腰|前腰|控球后卫|控卫|得分后卫|"
    r"分卫|小前锋|大前锋|二传手?|主攻手?|副攻手?|接应|自由人|投手|捕手|游击手|[一二三]垒手|外野手|四分卫)"
)
_PLAYS_ZH = re.compile(
    r"(?:改|调去|调到|换去|换到|转去|去|来|在)?(?:踢|打|当|守|司职)(?:的是)?" + _POSITION_ZH
)


_ANY_POSITION_EN = re.compile(_POSITION_EN)


def position_en(r: Reading, a: int, b: int, confidence: float) -> bool:
    """A position played, said in the English clause s[a:b]."""
    s = r.text
    if _ANY_POSITION_EN.search(s, a, b) is None:
        return False  # (every clause is read: most end here)
    if (m := _PUT_EN.search(s, a, b)) is not None and m["whom"].lower() in OBJECT_PRONOUNS:
        who = object_person(r, m["whom"])
    elif (m := _PLAYS_EN.search(s, a, b)) is not None:
        who = subject_alone(r, a, m.start())
    else:
        return False
    if who is None:
        return False
    add_fact_en(r, who, "playing_position", m["v"].lower(), a, b, confidence, False, "text", m.span("v"))
    return True


def position_zh(r: Reading, a: int, b: int, confidence: float) -> bool:
    """A position played, said in the Chinese part s[a:b]: of the one a 把 names (把他调去打后卫), else of
    the part's subject, else the speaker's."""
    s = r.text
    if (m := _PLAYS_ZH.search(s, a, b)) is None:
        return False
    put = s.rfind("把", a, m.start())
    at = after_adverbs(r, put + 1 if put >= 0 else a, b)
    got = subject_at(r, at, b)
    who = got[0] if got is not None else r.speaker
    add_fact_zh(r, who, "playing_position", m["v"], a, b, confidence, False, "text", m.span("v"))
    return True
