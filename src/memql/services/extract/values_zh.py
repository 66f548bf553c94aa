"""The values of the Chinese rule grammar: a value's words cut from the clause (the time, the trailing
particles and the clause after it left out), when it became true, and the fact drafted from it."""

from __future__ import annotations

import re

from .common import RECURRING, Draft, Reading, corrected_holder, strip_span, this_year_only, time_value
from .patterns_zh import _ACTOR, _CUT, _TAIL

_LEAD = re.compile(r"(?:[了到去在]|的[ \u3000])+[ \u3000]*")


def read_value(r: Reading, start: int, end: int, kind: str):
    s = r.text
    start, end = strip_span(s, start, end)
    span = r.time_at(start, end)
    if span is not None:
        return time_value(span, r.now), start, end
    if s.startswith("每", start):  # 每周六上午十点, 每月15号: a time that recurs is its words
        said_end = start + len(s[start:end].rstrip("了啦呢吧。！!"))
        period = re.match(r"每(?:个)?(?:月|年)", s[start:said_end])
        if r.time_at(start + (period.end() if period else 1), said_end) is not None:
            return s[start:said_end], start, said_end
    if kind == "date":
        return None
    if (m := _CUT.search(s, start + 2, end)) is not None:  # 协和医院: 和 inside a two-character name
        end = m.start()
    for t0, t1, _ in reversed(r.times_in(start, end)):  # 搬到苏州了（上个月）: the time is not the value
        if t0 > start and not s[t1:end].strip(" 了啦"):
            end = t0
    if (m := _TAIL.search(s, start, end)) is not None and m.start() > start:
        end = m.start()
    start, end = strip_span(s, start, end)
    if (lead := _LEAD.match(s, start, end)) is not None:  # 搬到了苏州; 我现在住的 望京 (a space for 是)
        start = lead.end()
    if (level := re.search(r"(?<=[0-9A-Za-z])(?:的)?(?:水平|级别)$", s[start:end])) is not None:
        end = start + level.start()  # 日语是N2水平: the level is N2
    words = s[start:end]
    if not words or len(words) > 20 or words.startswith("谁"):  # (教练换成谁了: a question, no value)
        return None
    if re.fullmatch(r"-?\d+", words):
        return int(words), start, end
    return words, start, end


# a later time starts a fact only when the clause says something begins then (下周一起入职, 下个月搬到…);
# 帮我订周五四个人的桌 holds from now, for a dinner on Friday
_BEGINS = re.compile(r"开始|起|入职|上任|生效|搬|调|转|换|加入|接手|要|会|将|打算|准备|从")


def valid_from(r: Reading, start: int, end: int, v0: int, v1: int):
    for t0, t1, span in r.times_in(start, end):
        if (t1 <= v0 or t0 >= v1) and not this_year_only(span, r.now):
            if span.start > r.now and not _BEGINS.search(r.text, start, end):
                continue
            return span.start
    return r.now


def add_fact(r, subject, key, value, start, end, confidence, correction, kind, vspan) -> Draft:
    if correction:
        subject, key = corrected_holder(r, subject, key)
    if correction and "." not in key:
        for d in reversed(r.earlier):
            if d.subject == subject and d.attribute.endswith("." + key):
                key = d.attribute
                break
    elif correction and not any(d.attribute == key for d in r.earlier):
        # 工资卡尾号是3321, then 不对，尾号是3312: the same aspect of the thing it ends like
        thing, _, aspect = key.rpartition(".")
        for d in reversed(r.earlier):
            if d.subject == subject and d.attribute.endswith(f"{thing}.{aspect}"):
                key = d.attribute
                break
    if key == "car" and isinstance(value, str) and (one := re.match(r"一?[台辆部](?=\S)", value)):
        value, vspan = value[one.end() :], (vspan[0] + one.end(), vspan[1])  # 开的是一台卡罗拉: the car
    if kind == "text" and r.time_at(*vspan) is not None:
        kind = "date"
    elif kind == "text" and isinstance(value, str) and RECURRING.match(value):
        kind = "schedule"  # 每周六上午十点: a correction to 下午三点 is of its time
    if kind == "date":  # 我下周二体检 then 体检提前到下周一了: one thing's day, however it was keyed
        thing = key.removesuffix(".date")
        for d in reversed(r.earlier):
            if d.subject == subject and d.kind == "date" and d.attribute in (thing, thing + ".date"):
                key = d.attribute
                break
    return r.add(
        Draft(
            subject,
            key,
            value,
            start,
            end,
            valid_from(r, start, end, *vspan),
            confidence,
            correction,
            kind,
            vspan,
        )
    )


# Words before a value that name no attribute of anyone (the grammar read "<attribute><value>" into them):
# a feeling or an interjection said first (开心 3楼…, 悲剧 C07…, 咬咬牙降到…), an adverb or a hedge (估计是…,
# 就下周三…, 还得再降点…, 已改成…), a verb's object and its term (签两年 4350), someone named (猫叫年糕,
# 妈 z和h…) or another (我弟他们是…, 给咱换成…).
# a measure as the Chinese grammar holds it: "135斤", "62公斤", "170cm"
ZH_MEASURE = re.compile(r"(?P<num>\d+(?:\.\d+)?)(?P<unit>斤|公斤|千克|kg|厘米|cm)")
_NOT_A_KEY = re.compile(
    r"^(?:开心|高兴|悲剧|无语|郁闷|崩溃|绝了|完了|救命|天哪|天啊|咬咬牙|气死|累死|烦死|好吧|算了|行吧|对了|话说|顺便|"
    r"另外|不过|然后|所以|而且|但是|可是|最后|最终|估计|也许|或许|据说|听说|看来|反正|毕竟|当然|果然|居然|竟然|结果|哈+|嘿+|呜+)$|"
    r"^(?:就|还(?![款贷钱])|也|都|才|又|再|已(?!婚))|"
    r"咱|[他她它]|叫|[一二两三四五六七八九十\d]+(?:年(?!级)|个月|天|周|节|次)|(?<=.)老$"
)


def names_no_key(r: Reading, phrase: str) -> bool:
    """Whether the words before a value name no attribute (see _NOT_A_KEY), or name a relative (妈; 房东涨到…
    names who raised an amount, which the grammar reads on its own)."""
    return bool(_NOT_A_KEY.search(phrase)) or (
        r.vocabulary.relation(phrase) is not None and _ACTOR.fullmatch(phrase) is None
    )


_FROM_OLD = re.compile(r"(?<=[\u4e00-\u9fffA-Za-z])从[^从，,]{1,12}$")


def key_of(r: Reading, phrase: str) -> str:
    """The key of an attribute phrase; 的 between its nouns is no part of it (项目的负责人 is 项目负责人)."""
    phrase = _FROM_OLD.sub("", phrase) or phrase  # 会议从周三改到周五: the meeting's, not 会议从周三
    key = r.vocabulary.normalize(phrase)
    if "的" in key and not phrase.startswith("最"):
        key = r.vocabulary.normalize(phrase.replace("的", "")) or key
    return key


def said_like(r: Reading, subject: str, key: str, phrase: str, change: bool) -> str:
    """装修预算是二十万, then 预算提高到二十五万了: a change names the one attribute said before that ends
    like its words, when none is said under its own key."""
    if not change or not phrase or any(d.attribute == key for d in r.earlier):
        return key
    # (or begins: 雅思改约到… after 雅思考试)
    like = {
        d.attribute
        for d in r.earlier
        if d.subject == subject
        and (
            d.attribute.endswith(phrase)
            or d.attribute.startswith(phrase)
            or ("." in key and d.attribute.endswith(key))  # 报名截止延长到… of 足球报名.deadline
        )
    }
    return like.pop() if len(like) == 1 else key


def add_match(r: Reading, subject, key, m, a, b, confidence, correction, kind, group="v") -> bool:
    """The fact whose value is a match's group (read as a value of `kind`); whether there was one."""
    v0, v1 = strip_span(r.text, m.start(group), m.end(group))
    got = read_value(r, v0, v1, kind)
    if got is None or not key:
        return False
    value, v0, v1 = got
    add_fact(r, subject, key, value, a, b, confidence, correction, kind, (v0, v1))
    return True
