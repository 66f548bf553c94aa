"""A train or a flight one takes, by its number, in Chinese: 高铁G1234, 坐的D3125 (the train, 车次), 航班
MU5101 (the flight); 改签到周五下午的G16, 换成G1373 replace the one held. Only the speaker's: a clause
that names someone else first (我老公坐的MU5101) states nothing of the speaker's."""

from __future__ import annotations

import re

from .common import CJK, Draft, Reading

_TRAIN = r"[GDCKTZ]\d{1,4}"
_FLIGHT = r"(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\d{3,4}"
_CODE = rf"(?<![A-Za-z0-9])(?:(?P<train>{_TRAIN})|(?P<flight>{_FLIGHT}))(?![A-Za-z0-9])"
# the words before a number that say one takes it: 高铁G1234, 坐的G16, 航班号MU5101, 订了D3125
_TAKEN = re.compile(
    r"(?:(?P<change>改签|改到|改成|换成|换到|改坐|换了)|高铁|动车|火车|车次|航班号?|飞机|坐|乘|搭|订了?|买了?|抢到了?|买到了?|订到了?)"
    r"(?:的|是|号|到|成|了)?[^，。？,.?]{0,10}?" + _CODE
)
_OTHERS = re.compile(r"他|她|老公|老婆|爸|妈|儿子|女儿|同事|朋友|哥|姐|弟|妹")


def bind(r: Reading) -> None:
    """Draft the speaker's train or flight each number said after a word of taking it states."""
    if CJK.search(r.text) is None or not re.search(r"[A-Z0-9]\d", r.text):
        return  # (most messages: no number of a train or a flight)
    for m in _TAKEN.finditer(r.text):
        clause_start = max(r.text.rfind(c, 0, m.start()) for c in "，。！？,.!? ") + 1
        if _OTHERS.search(r.text, clause_start, m.start("train") if m["train"] else m.start("flight")):
            continue  # 我老公坐的MU5101: his
        key, group = ("train", "train") if m["train"] else ("flight", "flight")
        held = any(d.subject == r.speaker and d.attribute == key for d in (*r.earlier, *r.facts))
        # (the grammar's reading of the same number, or of another under the key, gives way)
        mine = [d for d in r.facts if d.subject == r.speaker and (d.attribute == key or d.value == m[group])]
        keys = {d.attribute for d in mine}  # (and the replacement pass's old value of the same key)
        r.facts[:] = [
            d for d in r.facts if d not in mine and not (d.said_in is not None and d.attribute in keys)
        ]
        r.add(Draft(r.speaker, key, m[group], clause_start, m.end(), r.now, 0.8, bool(m["change"]) and held,
                    "text", m.span(group)))  # fmt: skip
