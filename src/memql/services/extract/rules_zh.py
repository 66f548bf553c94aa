"""The Chinese rule grammar: the same constructions as the English one, in Chinese word order.

A sentence (up to 。！？) is read whole: openers (对了, 跟你说), correction markers (不对, 更正, 说错了,
我是说), questions (a final ？/吗/呢, 什么/哪/几/多少/谁) and hypotheticals (如果, 要是, 打算, 可能) first;
then each comma-separated part: a subject (我/我们, 他/她, 我姐姐[安娜], a name), the time words and
adverbs after it (上个月, 现在, 已经), and a predicate — residence (住在, 搬到), work (在…工作, 入职,
跳槽到), a status (结婚了, 吃素), a preference (喜欢, 讨厌), a count (有两个孩子), an age, a birth, or an
attribute with a copula (我的护照截止日期是7月15日; 截止日期改成6月30号 is a correction) — or, after a
correction marker, a bare value (不对，是6月30号) bound to the earlier fact it corrects.
"""

from __future__ import annotations

import re

from memql.lang.time.numbers import parse_zh_number

from .actions_zh import read_decision, read_tasks
from .announced_zh import announced, announced_of_other, announced_value, changed_owner
from .answers import one_pet
from .common import HEDGED, Draft, Reading, corrected_holder, names_key, strip_span, time_value
from .corrections_zh import (
    AMOUNT_WORDS,
    agreed_change,
    bare_value,
    bound,
    number_fix,
    per_period_amount,
    subject_moved,
)
from .doses import dose_zh
from .owned import owned
from .patterns_zh import (
    _ACTOR,
    _AGAIN,
    _AGE,
    _AGE_BARE,
    _ALLERGY,
    _CAUSED,
    _CHANGE_COPULA,
    _CHANGE_OPENING,
    _CONDITIONAL,
    _COPULA,
    _CORRECTION,
    _COUNT,
    _DISCOURSE,
    _DONE_THEN,
    _EXPIRES,
    _GATHERING,
    _HEDGE,
    _HYPOTHETICAL,
    _NOMINALISED,
    _NOT,
    _PREFERENCE,
    _QUESTION,
    _REPORTED,
    _SENTIMENT,
    _SPEECH,
    _STATUSES,
    _TOLD,
    OWN_MOBILE,
    TOLD_TAIL,
    USE_CONTACT,
)
from .positions import position_zh
from .predicates_at_verb_zh import verb_predicates
from .predicates_zh import (
    event,
    timed_event_noun,
    topic_states,
    zh_amount,
)
from .subjects_zh import (
    after_adverbs,
    celebrated_at,
    moved_relative,
    name_people,
    new_holder,
    relation,
    skip,
    subject_at,
)
from .values_zh import ZH_MEASURE, key_of, names_no_key, said_like
from .values_zh import add_fact as _fact
from .values_zh import read_value as _value
from .venues_zh import day_and_venue, venue_said
from .vocabulary import snake


def clauses(text: str) -> list[tuple[int, int]]:
    """A Chinese sentence is read whole (its commas carry a correction marker to its value)."""
    start, end = strip_span(text, 0, len(text), " \t\n")
    return [(start, end)] if end > start else []


def read_clause(r: Reading, start: int, end: int) -> None:
    s = r.text
    start, body_end = strip_span(s, start, end)
    whole = s[start:end].strip()
    if not whole:
        return
    name_people(r, start, body_end)
    pos = skip(_DISCOURSE, s, start, body_end)
    correction = False
    while (m := _CORRECTION.match(s, pos, body_end)) is not None and m.end() > pos:
        correction = True
        pos = skip(_DISCOURSE, s, m.end(), body_end)
    if agreed_change(r, pos, body_end):  # 师傅问能不能改下午两点，我答应了
        return
    if _QUESTION.search(s[pos:body_end]) or whole.endswith(("?", "？")):
        return
    parts = _parts(s, pos, body_end)
    rejected = None
    for a, b in parts:
        if (m := _NOT.match(s, a, b)) is not None:
            rejected = m["old"].strip()
    topic: str | None = None  # the subject a part names, for the parts after it that name none
    # the attribute a part said changed (项目负责人换了), valued by the next part (or sentence)
    changed, r.announced_pending = r.announced_pending, None
    last = current = pos  # where the part before the one read begins, and where that one does
    if changed is not None and not _CARRIED_VALUE.match(s, pos, body_end):
        changed = None  # (又搬家了！老公公司把他派到无锡: the next sentence says more than the value)
    for a, b in parts:
        last, current = current, a
        if _only_correcting(s, a, b):
            correction = True  # 车险5月9号到期 不对 我看错了 是5月19号: the parts after it correct
            continue
        if (told := _TOLD.match(s, a, b) or _told_by_held(r, a, b)) is not None and told.end() < b:
            a = told.end()  # 医生说预产期提前到…, 刘姐说三月起…: what the one in charge of it says is so
        text = s[a:b]
        if _CONDITIONAL.search(text):
            return
        if _NOT.match(s, a, b):
            continue
        if (announcing := announced(r, a, b)) is not None:
            changed = r.announced_pending = announcing
            continue
        if changed is not None and re.match(r"(?:说|因为|由于|听说)", text):
            continue  # 我妈又换号了，说那个号老接骚扰电话，现在是…: why, between the change and its value
        if (of_other := announced_of_other(r, a, b)) is not None:
            changed, topic = of_other  # 他去年离职了，现在在小米: his employer
            continue
        if _SPEECH.search(text):
            return  # 我妈妈说，住在上海挺好: what follows is someone's words, not a fact
        confidence = 0.9
        if (m := _HEDGE.match(s, a, b)) is not None:
            confidence, a = HEDGED, m.end()
            a = skip(re.compile(r"[，,\s]*"), s, a, b)
        read_tasks(r, a, b)
        if read_decision(r, a, b) or _HYPOTHETICAL.search(text) or _REPORTED.search(text):
            continue
        before = len(r.facts)
        if (again := _AGAIN.match(s, after_adverbs(r, a, b), b)) is not None and r.time_at(*again.span("t")):
            bare_value(r, again.start("t"), again.end("t"), True, rejected)
            continue
        if dose_zh(r, a, b, confidence) or position_zh(r, a, b, confidence):
            continue  # 医生让我加到75微克 (doses.py); 教练把他调去打后卫了 (positions.py)
        if (caused := _CAUSED.match(s, after_adverbs(r, a, b), b)) is not None:
            # 兽医让它改成一天三顿: the change the one in charge asked for; 让我改吃…: my habit's
            a = caused.start("who") if caused["habit"] else caused.end()
        if topic in (None, r.speaker) and owned(r, a, b, confidence, True):  # 昨天入了华为Mate 60: the phone
            said = True
        elif _CHANGE_OPENING.match(s, after_adverbs(r, a, b), b):
            # 改到周五了: the fact before changes; no attribute is named (换成轻断食了: a status is one)
            correction = True
            said = _status(r, topic or r.speaker, a, after_adverbs(r, a, b), b, confidence, True)
            r.change_of = _held_named(r, s[last:a])  # …unless the part before it named one held
        else:
            said, topic = _statement(r, a, b, confidence, correction, topic)
        guessed = [d for d in r.facts[before:] if r.vocabulary.attribute(d.attribute) is None]
        if changed is not None and len(guessed) == len(r.facts) - before:
            # 项目负责人换了，现在是小冯: the value of what changed, in place of a key the words made up
            # (房东涨房租了，下个月开始5000 is the rent, not a thing that begins)
            at = after_adverbs(r, a, b)
            if announced_value(r, changed_owner(r, topic, changed), changed, a, at, b, confidence):
                r.drop(guessed)
                said = True
        changed = r.announced_pending = None
        if (
            said
            or venue_said(r, a, b, confidence)
            or (not correction and timed_event_noun(r, a, b, confidence))
            or bare_value(r, a, b, correction, rejected)
            or per_period_amount(r, a, b)
        ):
            correction = False  # a marker corrects the first value after it


def _parts(s: str, start: int, end: int) -> list[tuple[int, int]]:
    out, last = [], start
    for m in re.finditer(r"[，,；;]|(?<!\d)[：:]|[：:](?!\d)", s[start:end]):  # (16:8轻断食, 9:30: no part)
        head, tail = s[last : start + m.start()], s[start + m.end() : end]
        if m[0] in "：:" and (
            re.fullmatch(r"(?:我们|我)的[^，,；;：:]{1,8}", head)
            or (
                re.fullmatch(r"(?:我们|我)[^，,；;：:说讲问想]{1,8}", head)
                and re.match(r"\s*[0-9A-Za-z+]", tail)
            )
        ):
            continue  # 我的工位：A区23号, 我爸手机号：138…: an attribute and its value
        out.append((last, start + m.start()))
        last = start + m.end()
    out.append((last, end))
    split = []
    for a, b in out:  # 会议是周四不是周三: the value, then the one it is not (as if a comma stood between)
        m = _NOT_AFTER_VALUE.search(s, a, b)
        split += [(a, m.start()), (m.start(), b)] if m is not None and "是" in s[a : m.start()] else [(a, b)]
    return [strip_span(s, a, b) for a, b in split if s[a:b].strip(" ，,")]


_NOT_AFTER_VALUE = re.compile(r"(?<=[\u4e00-\u9fff0-9A-Za-z])(?:而)?不是(?=[^，,。！!]{1,12}[。！!]*$)")


# --- subjects (subjects_zh.py) ----------------------------------------------------------------------


# --- statements ----------------------------------------------------------------------------------------


def _time_is_my(r: Reading, a: int, b: int, confidence: float) -> bool:
    """今天是我的生日: the time is the attribute's value."""
    for t0, t1, span in r.times_from(a, a + 1):
        if t1 < b and (
            m := re.compile(r"(?:就)?是我(?:们)?的(?P<attr>.{1,10}?)[!！。]*$").match(r.text, t1, b)
        ):
            key = r.vocabulary.normalize(m["attr"])
            if key:
                _fact(r, r.speaker, key, time_value(span, r.now), a, b, confidence, False, "date", (t0, t1))
                return True
    return False


def _statement(
    r: Reading, a: int, b: int, confidence: float, correction: bool, topic: str | None
) -> tuple[bool, str | None]:
    """Whether the part states a fact, and the subject of the sentence after it (`topic`, the last one a
    part named: 国庆节我领证了，已经结婚啦 — the second part is the speaker's too)."""
    if (named := relation(r, a, b, confidence)) is not None:
        return True, named  # 我家猫叫咪咪，今年三岁了: the parts after it speak of 咪咪
    if new_holder(r, a, b, confidence):
        return True, topic
    if _time_is_my(r, a, b, confidence):
        return True, topic
    if (m := USE_CONTACT.match(r.text, a, b) or OWN_MOBILE.match(r.text, a, b)) is not None:
        key = "email" if "@" in m["value"] else "phone"
        _fact(r, r.speaker, key, m["value"], a, b, confidence, correction, "text", m.span("value"))
        return True, topic
    start = after_adverbs(r, a, b)
    got = subject_at(r, start, b) or celebrated_at(r, start, b)  # 现在我住在…, 上个月我们搬到…
    if got is None and r.text.startswith("它", start) and (pet := one_pet(r)) is not None:
        got = pet, start + 1, False  # 它现在4.2公斤: the speaker's one animal
    if got is None and re.match(r"[你他她它]|这|那", r.text[after_adverbs(r, a, b) :]):
        return False, None  # an unresolved 他/她, or 你: not the speaker's
    if got is None and topic is not None:  # a part continuing the subject of the one before
        verb_at = after_adverbs(r, a, b)
        said = verb_predicates(r, topic, a, verb_at, b, confidence, correction) or _states(
            r, topic, a, a, verb_at, b, confidence, correction
        )
        return said, topic
    if got is None:
        # a part without a subject (我换了工作，现在在字节上班) speaks of the speaker; only a verb of
        # residence, work, a habit or a thing named first (合同下周五签) is read so, else it may name an
        # attribute (截止日期改成…)
        verb_at = after_adverbs(r, a, b)
        if (agent := _AGENT_BA.match(r.text, verb_at, b)) is not None:
            # 房东把房租涨到3300了: someone else changed the speaker's attribute, named after 把
            return _attribute_change(r, r.speaker, a, agent.end(), b, confidence, correction), None
        turned = re.match(r"(?:已经|刚刚?|终于)?(?:满了?|过了)", r.text[verb_at:b]) and (
            _AGE.match(r.text, verb_at, b) or _AGE_BARE.match(r.text, verb_at, b)  # 刚满35岁, 昨天满30了
        )
        return (
            verb_predicates(r, r.speaker, a, verb_at, b, confidence, correction)
            or (
                bool(turned) and _states(r, r.speaker, a, verb_at, verb_at, b, confidence, correction)
            )  # 刚满35岁
            or _status(r, r.speaker, a, verb_at, b, confidence, correction)
            or topic_states(r, r.speaker, a, verb_at, b, confidence, correction)
            or event(r, r.speaker, a, a, b, confidence, correction)  # 后天下午三点来修空调
            or _attribute_change(r, r.speaker, a, a, b, confidence, correction)
        ), None
    subject, at, possessive = got
    verb_at = after_adverbs(r, at, b)
    if (moved := moved_relative(r, verb_at, b)) is not None:
        got = _value(r, moved[1], moved[2], "place")
        if got is not None:
            _fact(r, moved[0], "residence", got[0], a, b, confidence, correction, "place", (got[1], got[2]))
            return True, subject
    if possessive or r.text.startswith("把", verb_at):  # 我把手机号换成了…: the attribute after 把
        at = verb_at + (not possessive)
        said = _attribute_change(r, subject, a, at, b, confidence, correction) or (
            possessive  # 我的房租每月3800; 我姐的航班晚上6点40落地: the day or hour of a thing of theirs
            and (
                topic_states(r, subject, a, at, b, confidence, correction)
                or event(r, subject, a, at, b, confidence, correction)
            )
        )
        return said, subject
    leading_time = subject == r.speaker and bool(r.times_in(a, at))  # 下个月20号我要去…: the plan's day
    said = (
        verb_predicates(r, subject, a, verb_at, b, confidence, correction)
        or _states(r, subject, a, at, verb_at, b, confidence, correction)
        or subject_moved(r, subject, a, verb_at, b)  # 她改成下周日来了
        or (leading_time and event(r, subject, a, a, b, confidence, correction))
    )
    return said, subject


_AGENT_BA = re.compile(
    r"[\u4e00-\u9fff]{1,4}?把(?!我)(?=[\u4e00-\u9fff])"
)  # 房东把…, 公司把… (把我: a predicate)


def _bare_age(s: str, at: int, verb_at: int, b: int) -> re.Match[str] | None:
    """An age said without 岁 (今年五十九, 六十大寿): the whole rest of the part, never a count in passing."""
    for start in (verb_at, at):
        if (m := _AGE_BARE.match(s, start, b)) is not None and (m["n2"] or m.end() == b):
            return m
    return None


def _states(r, subject, a, at, verb_at, b, confidence, correction) -> bool:
    """Statuses, age, allergies, counts, preferences, or an attribute with a copula."""
    s = r.text
    if _status(r, subject, a, verb_at, b, confidence, correction):
        return True
    if (m := _AGE.match(s, verb_at, b) or _AGE.match(s, at, b) or _bare_age(s, at, verb_at, b)) is not None:
        n = "n2" if m.groupdict().get("n2") else "n"
        r.add(
            Draft(
                subject,
                "age",
                parse_zh_number(m[n]),
                a,
                b,
                r.now,
                confidence,
                correction,
                "number",
                (m.start(n), m.end(n)),
            )
        )
        return True
    if (m := _ALLERGY.match(s, verb_at, b)) is not None:
        _fact(
            r,
            subject,
            "allergy." + snake(m["v"]),
            m["not"] is None,
            a,
            b,
            confidence,
            correction,
            "text",
            (m.start("v"), m.end("v")),
        )
        return True
    if (m := _COUNT.match(s, verb_at, b)) is not None and m["n"] != "一":  # 有一个问题: no count
        _fact(
            r,
            subject,
            r.vocabulary.normalize(m["x"]) + ".count",
            parse_zh_number(m["n"]),
            a,
            b,
            confidence,
            correction,
            "number",
            (m.start("n"), m.end("n")),
        )
        return True
    names_attribute = "的" in s[verb_at:b] and _COPULA.match(s, at, b)  # 我最喜欢的颜色是… is a favourite
    if not names_attribute and (m := _PREFERENCE.match(s, verb_at, b)) is not None:
        return _preference(r, subject, m, a, b, confidence)
    return topic_states(r, subject, a, at, b, confidence, correction) or _attribute_change(
        r, subject, a, at, b, confidence, correction
    )


def _status(r, subject, a, verb_at, b, confidence, correction) -> bool:
    """结婚了, 单身, 吃素: the status in the speaker's words (the words a line is later matched by)."""
    if any(span.start > r.now for _, _, span in r.times_in(a, b)):
        return False  # 我们下个月8号结婚: a plan, not a status yet
    for pattern, key, value in _STATUSES:
        if (m := pattern.match(r.text, verb_at, b)) is not None:
            said = value or m["v"]
            _fact(r, subject, key, said, a, b, confidence, correction, "text", (m.start(), m.end()))
            return True
    return False


def _preference(r: Reading, subject: str, m: re.Match[str], a: int, b: int, confidence: float) -> bool:
    sentiment = _SENTIMENT[m["verb"]]
    if m["very"] and sentiment == "like":
        sentiment = "love"  # 特别喜欢
    if m["neg"]:
        sentiment = "dislike"
    start = m.start("v")
    if (e := re.compile(r"(?:吃|喝|看|玩|听|去)").match(r.text, start, b)) is not None and e.end() < b:
        start = e.end()
    got = _value(r, start, b, "text")
    if got is None or len(str(got[0])) > 10 or re.match(r"[你我他她它]|这|那|大家", str(got[0])):
        return False  # 我喜欢你, 我喜欢这个, 我很喜欢这家餐厅的菜: a person or a thing pointed at
    value, v0, v1 = got
    _fact(r, subject, "preference." + snake(str(value)), sentiment, a, b, confidence, False, "text", (v0, v1))
    return True


_NOT_ATTRIBUTES = frozenset(
    ("这", "那", "这个", "那个", "它", "就", "应该", "其实", "可能", "大概", "好像", "也", "还", "都", "现")
)
_ADVERB_COPULA = re.compile(r"(?P<attr>[^，,。；;]+?)(?:现在|目前|如今)(?P<cop>是)(?P<v>.+)")


def _attribute_change(
    r: Reading, subject: str, a: int, at: int, b: int, confidence: float, correction: bool
) -> bool:
    """<attribute><copula><value>: 我的护照截止日期是7月15日, 截止日期改成6月30号了, 护照2029年到期."""
    s = r.text
    if (m := _EXPIRES.match(s, at, b)) is not None:
        times = r.times_in(m.start("attr"), m.end("attr"))
        if times:
            t0, t1, span = times[-1]
            aspect = "deadline" if m["verb"] in ("截止", "截至") or m["verb"].endswith("交") else "expiry"
            # 导师说初稿…: what the one who set it said is the thing
            thing = re.sub(r"^[^，,]{0,6}?说", "", s[m.start("attr") : t0]).strip(" 的将就在于")
            key = r.vocabulary.normalize(f"{thing}{'截止日期' if aspect == 'deadline' else '有效期'}")
            if thing and key:
                _fact(
                    r, subject, key, time_value(span, r.now), a, b, confidence, correction, "date", (t0, t1)
                )
                return True
    # 护照截止日期现在是8月5日: 现在/目前 before the copula is an adverb, not 在 as the copula
    m = _ADVERB_COPULA.match(s, at, b) or _COPULA.match(s, at, b)
    if m is None:
        return False
    # 护照截止日期现在是8月5日: an adverb of time before the copula is no part of the attribute
    phrase = re.sub(r"(?:现在|目前|如今|眼下|已经|又|也)+$", "", m["attr"].strip())
    phrase = re.sub(r"(?:约好|定好|订好|约|定|订)了$", "", phrase)  # 公司体检约好了 5月12号: the check-up
    phrase = re.sub(r"(?:截止|截至)$", "截止日期", phrase)  # 报名截止到4月10号: the deadline
    # 这赛季的训练改到…: the period said first is when, not part of the attribute
    phrase = re.sub(r"^(?:这|今|本|下|新)(?:个)?(?:赛季|学期|季度|年|月|周|星期)的?", "", phrase)
    # 三月起全勤奖涨到300, 从下个月开始房租…: from when is no part of the attribute either
    phrase = re.sub(r"^从?(?:[一二三四五六七八九十]{1,2}|\d{1,2})月份?(?:起|开始|以后)", "", phrase)
    if (
        not phrase
        # 换号码了，新号是…: the thing changed, named before; 我改到周日了: a change verb, no attribute
        or re.fullmatch(r"新的|新号|又?(?:改|换|挪|推迟|提前|延期|延后|调)", phrase)
        or re.search(r"住|搬|工作|上班|不|我|你|说|觉得|感觉|^被", phrase)
        # 最后还是定了大理, 星河科技真是…: an adverb before 是 ends no attribute; 啊啊啊 names none
        or re.search(r"(?:还|但|可|于|真|倒|却|才|就)$|^[啊哈呀哦嗯唉哎呃嘿]+$", phrase)
        # 今天称了一下 72公斤: before a bare space, a verb's words are no attribute
        or (not m["cop"].strip() and re.search(r"了|一下|吧|呢|啊", phrase))
        or re.match(r"(?!最)(?:.*)喜欢", phrase)
        or names_no_key(r, phrase)
        or r.time_at(m.start("attr"), m.end("attr"))
        or phrase in _NOT_ATTRIBUTES
    ):
        return False
    cop = m["cop"]
    if re.match(r"[你他她它]", m["v"]):  # 实验小学是她表姐的学校: said of another
        return False
    # 会议室在A302: a room or a code is where a thing is, as a time is when
    code = re.fullmatch(
        r"[A-Za-z]{0,3}-?[0-9]{2,5}[A-Za-z]?(?:室|号|房间|会议室)?(?:了|啦)?", m["v"].strip(" 。")
    )
    at_time = r.time_at(m.start("v"), m.end("v")) is not None
    clock = re.match(r"[0-9一二两三四五六七八九十]{1,3}(?:点|:|：)", m["v"])  # 订在八点: when, not where
    venue = None  # 周六晚上的聚餐在海底捞, 聚餐改在外婆家了: where a gathering is, keyed <gathering>.location
    if cop.startswith(_VENUE_COPULA) and not at_time and not code and not clock:
        words = _without_times(r, m.start("attr"), m.end("attr"))
        gathering = _GATHERING.search(words)
        # 纪念日晚饭订在新荣记: the whole name when one noun (纪念日晚饭.location), else the gathering's word
        named = (
            words
            if gathering and re.fullmatch(r"[\u4e00-\u9fff]{2,8}", words) and "的" not in words
            else None
        )
        venue = key_of(r, (named or gathering[0]) + "地点") if gathering else None
        if gathering:  # 婚礼改到厦门办了 after 我女儿的婚礼定在10月10号: the daughter's wedding
            subject = corrected_holder(r, subject, key_of(r, gathering[0]))[0]
    if cop in ("在", "到", "至") and not at_time and not code and venue is None:
        return False
    if phrase.endswith("的") and phrase[:-1] in _NOMINALISED:  # 我开的是特斯拉: what one drives
        phrase = _NOMINALISED[phrase[:-1]]
    elif phrase.endswith("的") and len(phrase) <= 3:  # 我用的是…: no attribute named
        return False
    elif (verb := re.search(r"(?<=.)(?:订|选|住|买|约|定|用|租)的$", phrase)) is not None:
        phrase = phrase[: verb.start()]  # 酒店订的是希尔顿: the hotel
    key = venue or key_of(r, phrase)
    if not key:
        return False
    inside = r.times_in(m.start("v"), m.end("v"))
    got = _value(r, m.start("v"), m.end("v"), r.vocabulary.kind(key))
    recurring = got is not None and str(got[0]).startswith("每")  # 每周六上午十点: its words are the value
    if inside and day_and_venue(r, subject, key, m.start("v"), m.end("v"), a, b, confidence, correction):
        return True  # 纪念日晚饭订在周六的新荣记: its day and its place (venues_zh)
    if inside and (got is None or r.time_at(got[1], got[2]) is None) and not recurring:
        # 酒店是周五入住: the time with a verb after it is when; any other time inside is no value
        t0, t1, span = inside[0]
        if len(inside) > 1 or t0 != m.start("v") or not _DONE_THEN.fullmatch(r.text, t1, m.end("v")):
            return False
        got = time_value(span, r.now), t0, t1
    if got is None:
        return False
    value, v0, v1 = got
    if venue is not None and (held := re.search(r"(?:开|办|举行|举办|进行|吃|聚)$", str(value))) is not None:
        value, v1 = str(value)[: held.start()], v0 + held.start()  # 年会在三亚开: 三亚
        if not value:
            return False
    money = r.vocabulary.kind(key) == "number" or re.search(r"[万千百块元]", str(value))
    if money and isinstance(value, str) and AMOUNT_WORDS.fullmatch(value):
        value = zh_amount(value.rstrip("块元")) or value  # 月薪是一万二: 12000; 预算是二十万: 200000
    change = cop.startswith(_CHANGE_COPULA)
    key = key if venue else said_like(r, subject, key, phrase, change)  # a venue is never its day
    value = _in_held_unit(r, subject, key, value)
    if change and isinstance(value, int) and _ACTOR.fullmatch(phrase):
        # 房东涨到5000了: who raised it is no attribute; the amount updates the latest number
        if (earlier := number_fix(r, value)) is None:
            return False
        bound(r, earlier, value, a, b, (v0, v1))
        return True
    _fact(r, subject, key, value, a, b, confidence, correction or change, r.vocabulary.kind(key), (v0, v1))
    return True


# what the sentence after 我转科了！ opens with when it gives the value: 去了ICU, 现在在字节
_CARRIED_VALUE = re.compile(r"(?:现在|目前)?(?:去了|到了|调到|转到|换到|在|是|进了)")


def _held_named(r: Reading, words: str) -> str | None:
    """The latest of the speaker's held keys that `words` name (体检 of 公司体检), if any."""
    own = {id(d) for d in r.facts}  # (held before this message: not a key its own words just made)
    held = [
        d for d in r.earlier if d.subject == r.speaker and id(d) not in own and "relation." not in d.attribute
    ]
    named = (d.attribute for d in reversed(held) if words.strip() and names_key(words, d.attribute))
    return next(named, None)


def _only_correcting(s: str, a: int, b: int) -> bool:
    """A part of correction words alone (不对, 我看错了), after a part that said something."""
    at = a
    while (m := _CORRECTION.match(s, at, b)) is not None and m.end() > at:
        at = m.end()
    return a > 0 and at > a and not s[at:b].strip(" ，,。！!")


_TOLD_BY = re.compile(r"[^，,。]{1,6}?" + TOLD_TAIL)  # 刘姐说…: someone named, then what they told


def _told_by_held(r: Reading, a: int, b: int) -> re.Match[str] | None:
    """刘姐说… where 刘姐 is one the speaker holds as their manager, doctor, landlord …: one in charge. (The
    recent turns are read only for a part that opens with someone telling.)"""
    if _TOLD_BY.match(r.text, a, b) is None:
        return None
    for d in r.earlier:
        if d.subject == r.speaker and d.kind == "person" and r.text.startswith(str(d.value), a):
            return _TOLD_AFTER.match(r.text, a + len(str(d.value)), b)
    return None


_TOLD_AFTER = re.compile(TOLD_TAIL)


def _in_held_unit(r: Reading, subject: str, key: str, value: object) -> object:
    """A bare number for a measure held with its unit takes that unit (称了一下是135 of 142斤: 135斤)."""
    if isinstance(value, bool) or not re.fullmatch(r"\d+(?:\.\d+)?", str(value)):
        return value
    held = [d for d in r.earlier if d.subject == subject and d.attribute == key]
    unit = ZH_MEASURE.fullmatch(str(held[-1].value)) if held else None
    return f"{value}{unit['unit']}" if unit else value


_VENUE_COPULA = ("在", "改在", "挪在", "改去", "换去", "改到", "换到", "挪到", "订在", "定在", "约在")


def _without_times(r: Reading, start: int, end: int) -> str:
    """The words of a span after its last time (周六晚上的聚餐 -> 聚餐)."""
    for _t0, t1, _ in reversed(r.times_in(start, end)):
        start = max(start, t1)
        break
    return r.text[start:end].strip().lstrip("的")
