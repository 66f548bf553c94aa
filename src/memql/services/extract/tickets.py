"""A train or a flight one takes, a seat or a gate, by its number. Chinese: 高铁G1234, 坐的D3125 (the
train, 车次), 航班MU5101 (the flight); 改签到周五下午的G16, 换成G1373 replace the one held. English: "TAP
flight TP 202", "put me on TP 208" (a flight's number), "aisle seat 23C", "gate change to B31". Only the
speaker's: a clause that names someone else first (我老公坐的MU5101, "my sister's flight is …") states
nothing of the speaker's."""

from __future__ import annotations

import re

from .common import CJK, Draft, Reading, strip_span

_TRAIN = r"[GDCKTZ]\d{1,4}"
_FLIGHT = r"(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\d{3,4}"
_CODE = rf"(?<![A-Za-z0-9])(?:(?P<train>{_TRAIN})|(?P<flight>{_FLIGHT}))(?![A-Za-z0-9])"
# the words before a number that say one takes it: 高铁G1234, 坐的G16, 航班号MU5101, 订了D3125
_TAKEN = re.compile(
    r"(?:(?P<change>改签|改到|改成|换成|换到|改坐|换了)|高铁|动车|火车|车次|航班号?|飞机|坐|乘|搭|订了?|买了?|抢到了?|买到了?|订到了?|"
    r"国航|东航|南航|海航|川航|厦航|深航|山航|春秋|吉祥)"  # (an airline named before its flight: 东航MU5102)
    r"(?:的|是|号|到|成|了)?[^，。？,.?]{0,10}?" + _CODE
)
_OTHERS = re.compile(r"他|她|老公|老婆|爸|妈|儿子|女儿|同事|朋友|哥|姐|弟|妹")


_FLIGHT_EN = r"[A-Z]{2}\s?\d{2,4}"
_TAKEN_EN = re.compile(
    r"\b(?:(?P<change>(?:put|moved|switched|rebooked|changed)\s+(?:me\s+)?(?:on|to|onto)|now\s+on|"
    r"gate\s+change\s+to)|(?P<label>flight(?:\s+(?:number|no\.?|#))?|seat|gate|train)|"
    r"booked!*(?:\s+on)?|i'm\s+on|flying|taking)"  # "booked!! UA 882 to denver": a flight's number
    r"(?:\s+(?:is|was|to\s+[A-Z]\w+))?\s+"
    rf"(?P<code>(?-i:{_FLIGHT_EN}|\d{{1,2}}[A-K]|[A-H]\d{{1,3}}))(?![\w-])",
    re.IGNORECASE,
)
# another's, by a possessive ("my sister's flight", "his seat", "he's on UA 12"); "they put me on …" is
# the airline's doing, the speaker's flight
_OTHERS_EN = re.compile(r"\b(?:his|her|their|(?!(?:it|that|what|let|there|here)'s)\w+'s)\b", re.IGNORECASE)


def bind(r: Reading) -> None:
    """Draft the speaker's train or flight (seat, gate) each number said after a word of taking it states."""
    if not re.search(r"[A-Z0-9]\s?\d", r.text):
        return  # (most messages: no number of a train or a flight)
    if CJK.search(r.text) is None:
        _english(r)
        return
    for m in _TAKEN.finditer(r.text):
        clause_start = max(r.text.rfind(c, 0, m.start()) for c in "，。！？,.!? ") + 1
        if _OTHERS.search(r.text, clause_start, m.start("train") if m["train"] else m.start("flight")):
            continue  # 我老公坐的MU5101: his
        key, group = ("train", "train") if m["train"] else ("flight", "flight")
        held = any(d.subject == r.speaker and d.attribute == key for d in (*r.earlier, *r.facts))
        _replace(r, key, m[group], clause_start, m.end(), bool(m["change"]) and held, m.span(group))


def _english(r: Reading) -> None:
    for m in _TAKEN_EN.finditer(r.text):
        code, label = m["code"], (m["label"] or "").lower().split()[:1]
        flight = re.fullmatch(_FLIGHT_EN, code) is not None
        if label:
            key = label[0]  # flight, seat, gate, train
        elif "gate" in (m["change"] or "").lower():
            key = "gate"
        elif flight:
            key = "flight"  # "put me on TP 208": a flight's number
        else:
            continue
        if (key == "flight") != flight and key != "train":
            continue  # ("flight 23C" is no flight's number, "seat TP 20" no seat)
        after_stop = max(r.text.rfind(c, 0, m.start()) for c in ".!?;\n") + 1
        clause_start = strip_span(r.text, after_stop, m.end())[0]
        if _OTHERS_EN.search(r.text, clause_start, m.start()):
            continue  # "my sister's flight is UA 12": hers
        held = any(d.subject == r.speaker and d.attribute == key for d in (*r.earlier, *r.facts))
        _replace(r, key, code, clause_start, m.end(), bool(m["change"]) and held, m.span("code"))


def _replace(r: Reading, key: str, code: str, start: int, end: int, correction: bool, span) -> None:
    """The number as the speaker's `key`, in place of what the grammar or the replacement pass read of it
    (the same number under another key, another value under this key, and the old value the replacement
    pass drafted for it)."""
    mine = [d for d in r.facts if d.subject == r.speaker and (d.attribute == key or d.value == code)]
    keys = {d.attribute for d in mine}
    r.facts[:] = [d for d in r.facts if d not in mine and not (d.said_in is not None and d.attribute in keys)]
    r.add(Draft(r.speaker, key, code, start, end, r.now, 0.8, correction, "text", span))
