"""A phone or a car one now has, known by its make, in English and Chinese: "got a pixel 9", "upgraded to
the iPhone 16", "my iphone 12 battery dies by 3pm" (the speaker's phone, said in passing); 买了小米14,
入了华为Mate 60, 提车啦！比亚迪汉, 我的iPhone 13. A new one replaces the one held (the key is the kind:
phone, car). Only makes people commonly own are known (makes.py); an unknown make is never guessed."""

from __future__ import annotations

import re
from functools import lru_cache

from .common import HEDGED, Reading
from .makes import CAR_MAKES, CAR_MAKES_ZH, CAR_MODELS, LOWER_CAR_MAKES, PHONE_MAKES
from .subjects_zh import after_adverbs, subject_at
from .values_en import add_fact as add_fact_en
from .values_zh import add_fact as add_fact_zh

_I = re.IGNORECASE
# a model after the make: "14", "Mate 60", "S24 Ultra", "Model 3", "pixel 9 pro"; a Chinese car's one-word
# model (比亚迪汉) only before the part ends; no word of time or place ("the prius til 4am")
_MODEL = (
    r"(?:\s?(?:(?!(?:til|till|until|at|by|for|from|in|on|since|to)\b)[A-Za-z]+\s?)?\d{1,3}[A-Za-z]{0,2}(?:\s?(?:Pro|Max|Plus|Ultra|Mini|pro|max|plus|ultra|mini))*|"
    r"(?![了的啦吧呢啊哈呀])[\u4e00-\u9fff](?=[，,。！!~\s]|$))?"
)
# a make as written, or a phone line in lower case with its number ("pixel 9", "iphone 12")
_MAKE = (
    rf"(?-i:{PHONE_MAKES}|{CAR_MAKES}|{CAR_MAKES_ZH})|{LOWER_CAR_MAKES}|(?:iphone|pixel|galaxy)(?=\s?[a-z]?\d)|"
    rf"\b{CAR_MODELS}(?![\w-])"
)
# (a make and its model: "mazda cx-5", 大众朗逸, 比亚迪海豹)
_THING = rf"(?P<v>(?:{_MAKE})(?:\s{CAR_MODELS}(?![\w-])|{CAR_MAKES_ZH})?{_MODEL})"
_GOT_EN = re.compile(
    # "caved and got an iphone 16", "so glad i went with the cx-5": a verb or a feeling first
    # ("went to the dealer to just look and drove out in an ioniq 5": a clause of one's own before "and")
    r"(?:(?:(?!\b(?:he|she|they|my|his|her|their)\b)[^,.!?;])*?\band\s+|"
    r"(?:so\s+)?(?:glad|happy|stoked)\s+(?=i\b|we\b))?"
    r"(?:(?:i|we)\s+)?(?:just\s+|finally\s+)?(?:got|bought|picked up|grabbed|switched to|upgraded to|"
    r"went with|ended up with|am getting|'m getting|(?:now\s+)?drive|am driving|'m driving|driving|"
    r"drove (?:out|off|home|away) (?:in|with))\s+(?:myself\s+)?(?:a|an|the|my)?\s*(?:new\s+|used\s+)?"
    + _THING
    + r"(?![\w-])",
    _I,
)
# "my iphone 12 battery dies …": a thing of the speaker's opening the clause (not "swapped my Honda for …")
# after a label or an opening clause too ("reminder to self: my CR-V lease is up"), never after a verb that
# parts with it ("swapped my Honda for …", "sold my civic")
_MINE_EN = re.compile(
    r"(?:[^,.!?;]*?(?<![\w'])(?<!swapped )(?<!traded )(?<!sold )(?<!selling )(?<!returned )(?<!totaled )"
    r"(?<!totalled )(?<!crashed ))?my\s+(?:new\s+)?" + _THING + r"(?![\w-])",
    _I,
)
_GOT_ZH = re.compile(
    r"(?:[^，,。]{0,8}?)(?<![加收投介导输录深陷引植进])"  # 加入了小米: joined, not bought
    r"(?:买了|入了|入手了?|换了|换成了?|提了|提的|拿到了?|用上了?|到手了?|提车(?:了|啦)?[，,！!]?|"
    r"(?<![要想])开(?:的是|着|上了)?)"  # 现在开理想L7
    r"(?:一?[台部辆个])?(?:新的?)?" + _THING,
    _I,
)
_MINE_ZH = re.compile(r"我(?:的|那台|那部|那辆|这台|这部|这辆|这)" + _THING, _I)
# 提车啦！比亚迪汉, 新车到了！蔚来ET5: the car, in the next sentence
_PICKED_UP = re.compile(r"(?:提车|喜提新车|新车到手|新车到)(?:了|啦|咯)?[！!，,。\s]*$")
_ALONE_ZH = re.compile(_THING + r"(?=[，,。！!]|$)", _I)
_ANY_THING = re.compile(_THING, _I)
# a message that says the speaker took a car or put money down on one (定了！Model Y，交了定金，说五月中提车;
# 试驾了理想L6 … 直接提的现车): the one car it names is theirs — not when the deposit went back or the
# pick-up has not happened (定金退了, 还没提车)
_TOOK_CAR_ZH = re.compile(r"(?<![没不])(?:提车|提的现车|提了车|交了定金|付了定金|下了定金?|开回家了)")
_NOT_TAKEN_ZH = re.compile(r"定金退了|退了定金|退订|取消了?订单|还没提|没提车")
_CAR = re.compile(rf"(?:{CAR_MAKES}|{CAR_MAKES_ZH}|{LOWER_CAR_MAKES}|{CAR_MODELS}(?![\w-]))")
_ANY_MAKE = re.compile(_MAKE, _I)
_COMMUTE_ZH = re.compile(r"(?:去)?(?:上班|上学|通勤)")
_NEAR = 40  # how far before a part 提车了 is looked for (the words and the marks after them)


@lru_cache(maxsize=64)
def _names_a_make(text: str) -> bool:
    return _ANY_MAKE.search(text) is not None


@lru_cache(maxsize=64)
def _took_one_car(text: str) -> bool:
    """Whether the message says the speaker took a car and names one car only (read once per message)."""
    if _TOOK_CAR_ZH.search(text) is None or _NOT_TAKEN_ZH.search(text) is not None:
        return False
    cars = {m["v"].strip().replace(" ", "") for m in _ANY_THING.finditer(text) if _CAR.match(m["v"].strip())}
    return len(cars) == 1


def owned(r: Reading, pos: int, end: int, confidence: float, chinese: bool) -> bool:
    """The phone or car a part says the speaker got (or has, said with my/我的), keyed by its kind; never
    when the part is about someone else (他换成理想了, 我表姐买了比亚迪)."""
    if chinese and (said_of := subject_at(r, after_adverbs(r, pos, end), end)) and said_of[0] != r.speaker:
        return False
    if not _names_a_make(r.text) or not _ANY_MAKE.search(r.text, pos, end):
        return False  # (most parts name no make; most messages none: one look, not one per part)
    got = (_GOT_ZH if chinese else _GOT_EN).match(r.text, pos, end)
    if got is None and chinese and _PICKED_UP.search(r.text, max(0, pos - _NEAR), pos):
        got = _ALONE_ZH.match(r.text, pos, end)
    if got is None and chinese:
        got = _the_car_taken(r, pos, end)
    mine = got is None and (m := (_MINE_ZH if chinese else _MINE_EN).match(r.text, pos, end)) is not None
    found = got if got is not None else m if mine else None
    if found is None or len(found["v"].strip()) < 2:
        return False
    if chinese and _COMMUTE_ZH.match(r.text, found.end("v"), end):
        return False  # 我每天开帕萨特上班: how one gets to work (the grammar's commute)
    value = found["v"].strip()
    key = "car" if _CAR.match(value) else "phone"
    add = add_fact_zh if chinese else add_fact_en
    v0 = found.start("v")
    said = HEDGED if mine else confidence
    add(r, r.speaker, key, value, pos, end, said, False, "product", (v0, v0 + len(value)))
    return True


def _the_car_taken(r: Reading, pos: int, end: int) -> re.Match[str] | None:
    """The car a part names in a message that says the speaker took one (`_TOOK_CAR_ZH`), when it is the
    only car the message names."""
    if not _took_one_car(r.text):
        return None
    found = _ANY_THING.search(r.text, pos, end)
    return found if found is not None and _CAR.match(found["v"].strip()) else None
