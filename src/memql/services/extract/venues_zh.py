"""Where a Chinese gathering is held, said in a part of its own (rules_zh reads 聚餐在海底捞 in one):
after the part that dated it (我女儿的婚礼定在10月10号，在三亚办), or as the new place of the one
gathering whose place is held (场地换了，改在植物园办了; 我们改去绿茶了). The place is the gathering's
`.location`, never its day."""

from __future__ import annotations

import re

from .common import Reading, held_location, time_value
from .patterns_zh import _GATHERING
from .values_zh import add_fact, add_match, key_of

# 我女儿的婚礼定在10月10号，在三亚办: where the gathering just dated is held, said in the next part
_HELD_AT = re.compile(  # (在外婆家餐厅: a place of eating needs no verb)
    r"(?:是|就)?在(?P<v>[\u4e00-\u9fffA-Za-z0-9]{2,12}?(?:(?<=餐厅|饭店|酒店|酒楼|饭馆|会所)|"
    r"(?=办|举行|举办|开|摆酒|请客)))(?:办|举行|举办|开|摆酒|请客)?(?:了|啦)?[。！!]*$"
)


# 场地换了，改在植物园办了; 改到海底捞吃了; 新荣记没订上，改订了甬府: a held gathering's new place, no
# gathering named
_MOVED_TO_PLACE = re.compile(
    r"(?:我们|我)?(?:场地|地点|地方|位置)?(?:也|又|就|只好|只能)?(?:改|换|挪)(?:在|到|去|订|约)了?(?:在)?(?P<v>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)"
    r"(?:办|举行|举办|开|吃|聚)?(?:了|啦)?[。！!]*$"
)


def venue_said(r: Reading, a: int, b: int, confidence: float) -> bool:
    """A gathering's place said in a part of its own: after the day (定在10月10号，在三亚办), or as the new
    place of the one gathering whose place is held (the one the message names, else the speaker's)."""
    if _venue_after(r, a, b, confidence):
        return True
    m = _MOVED_TO_PLACE.match(r.text, a, b)
    if m is None or r.time_at(*m.span("v")) is not None or r.times_in(a, b):
        return False
    if (old := held_location(r, r.text)) is None:
        return False
    return add_match(r, old.subject, old.attribute, m, a, b, confidence, True, "place")


def _venue_after(r: Reading, a: int, b: int, confidence: float) -> bool:
    """The place of the gathering the message's last fact dated (its `.location`), said alone after it."""
    m = _HELD_AT.match(r.text, a, b)
    last = r.facts[-1] if r.facts else None
    gathering = _GATHERING.search(last.attribute) if last is not None and m is not None else None
    if gathering is None or r.time_at(*m.span("v")) is not None:  # type: ignore[union-attr]
        return False
    key = key_of(r, last.attribute + "地点")  # type: ignore[union-attr]
    return add_match(r, last.subject, key, m, a, b, confidence, False, "place")  # type: ignore[union-attr]


# 订在周六的新荣记: a day, 的, then a place
_DAY_THEN_PLACE = re.compile(r"的(?P<v>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)(?:吃|聚|办|见)?(?:了|啦)?[。！!]*$")


def day_and_venue(
    r: Reading, subject: str, key: str, v0: int, v1: int, a: int, b: int, confidence, correction
):
    """纪念日晚饭订在周六的新荣记: a gathering's value said as its day and its place, each a fact of its own
    (the day under the gathering's key, the place under its `.location`)."""
    inside, day_key = r.times_in(v0, v1), key.removesuffix(".location")
    if len(inside) != 1 or inside[0][0] != v0 or not _GATHERING.search(day_key):
        return False
    t0, t1, span = inside[0]
    if (m := _DAY_THEN_PLACE.match(r.text, t1, v1)) is None:
        return False
    add_fact(r, subject, day_key, time_value(span, r.now), a, b, confidence, correction, "date", (t0, t1))
    place_key = key if key != day_key else key_of(r, day_key + "地点")
    return add_match(r, subject, place_key, m, a, b, confidence, correction, "place")
