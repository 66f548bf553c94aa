"""Where a Chinese gathering is held, said in a part of its own (rules_zh reads 聚餐在海底捞 in one):
after the part that dated it (我女儿的婚礼定在10月10号，在三亚办), or as the new place of the one
gathering whose place is held (场地换了，改在植物园办了; 我们改去绿茶了). The place is the gathering's
`.location`, never its day."""

from __future__ import annotations

import re

from .common import Reading, held_location
from .patterns_zh import _GATHERING
from .values_zh import add_match, key_of

# 我女儿的婚礼定在10月10号，在三亚办: where the gathering just dated is held, said in the next part
_HELD_AT = re.compile(  # (在外婆家餐厅: a place of eating needs no verb)
    r"(?:是|就)?在(?P<v>[\u4e00-\u9fffA-Za-z0-9]{2,12}?(?:(?<=餐厅|饭店|酒店|酒楼|饭馆|会所)|"
    r"(?=办|举行|举办|开|摆酒|请客)))(?:办|举行|举办|开|摆酒|请客)?(?:了|啦)?[。！!]*$"
)


# 场地换了，改在植物园办了; 改到海底捞吃了: a held gathering's new place, no gathering named
_MOVED_TO_PLACE = re.compile(
    r"(?:我们|我)?(?:场地|地点|地方|位置)?(?:也|又)?(?:改|换|挪)(?:在|到|去)了?(?P<v>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)"
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
