"""Chinese corrections and changes that name no attribute, bound to the earlier fact they update by the
kind of their value: a clock time (说错了，是四点; 改成三点吧) moves the time of the latest moment, a day of
the month alone (是22号，不是20号) the day of the latest date, an amount (涨到一万五了) the latest
number — and 他/她 read as the one unnamed relative spoken of before (我女儿… 她转学了)."""

from __future__ import annotations

import re
from datetime import datetime

from memql.lang.time.numbers import parse_zh_number

from .common import MOMENT, Draft, Reading, time_value
from .patterns_zh import _BARE, ZH_MOVED_TO
from .predicates_zh import zh_amount
from .renewals import renewed_for_zh
from .values_zh import add_fact, read_value

_DIGITS = r"(?:[0-9]{1,2}|[一二两三四五六七八九十]{1,3})"
_CLOCK = re.compile(
    r"(?P<half>上午|早上|早晨|凌晨|中午|下午|傍晚|晚上)?(?P<h>" + _DIGITS + r")(?:点|:|：)"
    r"(?:(?P<m>[0-9]{2}|[一二三四五六七八九十]{1,3}|半|一刻|三刻)分?)?(?:钟)?"
)
_DAY = re.compile(r"(?P<d>[0-9]{1,2}|[一二三四五六七八九十]{1,3})(?:号|日)")
_PM = ("下午", "傍晚", "晚上")


def _number(words: str) -> int | None:
    if words.isdigit():
        return int(words)
    try:
        return parse_zh_number(words)
    except ValueError:
        return None


def _mine(r: Reading) -> list[Draft]:
    return [
        d for d in reversed(r.earlier) if d.speaker == r.speaker and not d.attribute.startswith("relation.")
    ]


def clock_fix(r: Reading, words: str) -> tuple[Draft, str] | None:
    """(the latest moment, the moment with its clock time set to `words`) for a bare clock time."""
    m = _CLOCK.fullmatch(words)
    if m is None:
        return None
    hour = _number(m["h"])
    minute = {"半": 30, "一刻": 15, "三刻": 45, None: 0}.get(m["m"])
    if minute is None:
        minute = _number(m["m"])
    if hour is None or minute is None or hour > 23 or minute > 59:
        return None
    for d in _mine(r):
        if isinstance(d.value, str) and _CLOCK.fullmatch(d.value):
            return d, words  # 晚餐订在八点 then 是七点半: a time kept as said is corrected as said
        if d.kind != "date" or (old := MOMENT.fullmatch(str(d.value))) is None:
            continue
        if (m["half"] in _PM and hour < 12) or (m["half"] is None and int(old["h"]) >= 12 and hour < 12):
            hour += 12  # 下午三点 then 是四点: still the afternoon
        if hour > 23:
            return None
        return d, f"{old['date']}T{hour:02d}:{minute:02d}:00Z"
    return None


def day_fix(r: Reading, words: str) -> tuple[Draft, str] | None:
    """(the latest date, that date on the day of the month `words` names) for a bare 22号."""
    m = _DAY.fullmatch(words)
    day = _number(m["d"]) if m else None
    if day is None:
        return None
    for d in _mine(r):
        if d.kind != "date" or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(d.value)):
            continue
        try:
            moved = datetime.strptime(str(d.value), "%Y-%m-%d").replace(day=day)
        except ValueError:
            return None
        return d, moved.date().isoformat()
    return None


def number_fix(r: Reading, value: int) -> Draft | None:
    """The latest amount of the speaker (not a count or an age) an amount alone updates."""
    for d in _mine(r):
        if d.kind == "number" and isinstance(d.value, int) and not d.attribute.endswith((".count", "age")):
            return d
    return None


def bound(r: Reading, earlier: Draft, value: object, a: int, b: int, vspan: tuple[int, int]) -> None:
    r.correct(earlier, value, a, b, vspan)


def unnamed_relative(r: Reading, gender: str | None) -> str | None:
    """他/她 when nobody is named: the relative the latest facts speak of without a name (阿梅的女儿), when
    there is exactly one of a fitting gender."""
    if r.persons:
        return None
    prefix = f"{r.speaker}的"
    found: list[str] = []
    for d in reversed(r.earlier):
        if d.subject.startswith(prefix) and d.subject not in found:
            found.append(d.subject)
    fitting = []
    for subject in found:
        known = r.vocabulary.relation(subject.removeprefix(prefix))
        if known is not None and (gender is None or known[1] in (None, gender)):
            fitting.append(subject)
    return fitting[0] if len(fitting) == 1 else None


def bare_value(r: Reading, a: int, b: int, correction: bool, rejected: str | None) -> bool:
    """不对，是6月30号 / 是苏州，不是杭州: a value bound to the earlier fact it corrects."""
    if _switched_titled(r, a, b) or _count_now(r, a, b) or _weigh_in(r, a, b) or renewed_for_zh(r, a, b):
        return True
    if _amount_now(r, a, b):
        return True
    if not correction and rejected is None:
        return False
    m = _BARE.match(r.text, a, b)
    if m is None:
        return False
    got = read_value(r, m.start("v"), m.end("v"), "text")
    if got is None or (len(str(got[0])) > 12 and r.time_at(got[1], got[2]) is None):
        return False
    value, v0, v1 = got
    if rejected is not None and (_DAY.fullmatch(rejected) or _CLOCK.fullmatch(rejected)):
        rejected, correction = None, True  # 是22号，不是20号: the day of the latest date
    # a clock time or a day of the month alone moves the latest moment or date; an amount the latest number
    words = r.text[v0:v1]  # as said: 十点半 may read as a time today, but corrects the time of a day said
    if (fixed := clock_fix(r, words) or day_fix(r, words)) is not None:
        bound(r, fixed[0], fixed[1], a, b, (v0, v1))
        return True
    amount = (
        value
        if isinstance(value, int)
        else zh_amount(str(value))
        if AMOUNT_WORDS.fullmatch(str(value))
        else None
    )
    if amount is not None and (earlier := number_fix(r, amount)) is not None:
        bound(r, earlier, amount, a, b, (v0, v1))
        return True
    marked = m.start("v") > a or rejected is not None  # 是…, 改成…, …不是…: a value is given
    if not marked and (r.time_at(v0, v1) is None and _NOT_A_VALUE.search(str(value))):
        return False  # 不好意思，刚才信号不好: an apology, not a value
    kind = "date" if r.time_at(v0, v1) is not None else "number" if isinstance(value, int) else "text"
    if kind == "text" and _NOT_A_VALUE.search(str(value)):
        return False
    if rejected is not None:
        old = r.time_at(*_find(r.text, rejected, a))
        rejected = time_value(old, r.now) if old is not None else rejected
    hint, r.change_of = r.change_of, None
    earlier = (r.bind(kind, hint, rejected, value) if hint else None) or r.bind(kind, None, rejected, value)
    if earlier is None and kind == "number":  # 是8868: digits may correct a code (a card number)
        earlier = r.bind("text", None, rejected, value)
    if earlier is None:
        return False
    if not correction and str(earlier.value) != rejected:
        return False
    if earlier.subject != r.speaker and _FOR_ME.search(r.text, max(0, a - 2), m.start("v")):
        # 医生…给我换成缬沙坦了, the husband's medicine held: the speaker's own, not his, is what changed
        own = add_fact(
            r, r.speaker, earlier.attribute, value, a, b, earlier.confidence, False, kind, (v0, v1)
        )
        own.correction = True  # (a change all the same; not given to the one holder by corrected_holder)
        return True
    r.correct(earlier, value, a, b, (v0, v1))
    return True


_FOR_ME = re.compile(r"给我|帮我")


# 换了家宽带，一年八百: an amount said alone by its period is the latest amount held (the part names no other)
_BY_PERIOD = re.compile(
    r"(?:现在|新的|目前)?(?:一|每)(?:年|个月|月|季度|周|星期|天)(?:只要|要|才|是|就|只|也就)*"
    r"(?P<v>[0-9]+|[一二两三四五六七八九十百千万]+)(?:块钱?|元)?(?:了|啦)?[。！!]*$"
)


def per_period_amount(r: Reading, a: int, b: int) -> bool:
    m = _BY_PERIOD.match(r.text, a, b)
    amount = zh_amount(m["v"]) if m is not None else None
    if amount is None or (earlier := number_fix(r, amount)) is None:
        return False
    bound(r, earlier, amount, a, b, m.span("v"))
    return True


# words no value of a fact has: a clause about something else (刚才信号不好, 我没说清楚)
# (提醒, 通知, 叫我: 改成下午一点半提醒 asks the assistant for something; 刚看了行程单 says what one did)
_NOT_A_VALUE = re.compile(r"不|没|很|太|刚|一下|我|你|吗|那是|这是|吧$|提醒|通知|叫我|告诉|看了|查了|问了")
AMOUNT_WORDS = re.compile(r"[0-9一二两三四五六七八九十百千万]+(?:块|元)?")


def _find(s: str, words: str, near: int) -> tuple[int, int]:
    i = s.find(words)
    return (i, i + len(words)) if i >= 0 else (near, near)


_MOVED_TO = re.compile(r"(?:又)?(?:改到|改成|改为|改在|" + ZH_MOVED_TO + r")了?")
_SWAPPED = re.compile(
    r"(?:又)?换成了?(?:一辆|一台|一部|辆|台|部)?(?P<v>[^，,。！!？?\s了]{1,8})(?:了|啦)?[。！!]*"
)
_DONE_THEN = re.compile(r"[\u4e00-\u9fff]{0,4}?(?:了|吧|啦)?[。！!]*")  # …打了: what is done, then
_THEN = re.compile(r"(?:再)?(?:来|去|到|回来|过来|见|办|做)?(?:了|吧|啦)?[。！!]*")


def subject_moved(r: Reading, subject: str, a: int, at: int, b: int) -> bool:
    """她改成下周日来了: the latest date of that person moves to the time after the change verb."""
    if (swap := _SWAPPED.fullmatch(r.text, at, b)) is not None:
        # 他换成理想了: the thing one has (a car, a phone) of the latest product fact of that person
        for d in reversed(r.earlier):
            if d.subject == subject and d.kind == "product":
                bound(r, d, swap["v"], a, b, swap.span("v"))
                return True
        return False
    m = _MOVED_TO.match(r.text, at, b)
    if m is None:
        return False
    inside = [t for t in r.times_in(m.end(), b) if t[0] == m.end()]
    if not inside:
        return False
    t0, t1, span = inside[0]
    for d in reversed(r.earlier):
        if d.subject != subject or d.kind not in ("date", "schedule") or d.attribute.startswith("relation."):
            continue
        if d.kind == "schedule" and _DONE_THEN.fullmatch(r.text, t1, b):
            # 他现在改成周六下午打了: a time that recurs takes the new one, as said (每 implied)
            words = r.text[t0:t1]
            bound(r, d, words if words.startswith("每") else "每" + words, a, b, (t0, t1))
            return True
        if d.kind == "date" and _THEN.fullmatch(r.text, t1, b):
            bound(r, d, time_value(span, r.now), a, b, (t0, t1))
            return True
        return False
    return False


# a change someone asked for and the speaker agreed to: the change holds
_AGREED = re.compile(
    r"(?:能不能|可不可以|可以|能否|要不)(?:改|换|挪|推)(?:到|成|在)?(?P<change>[^，,。？?！!]{1,12}?)(?:吗|呢|吧)?[，,？?]\s*"
    r"我(?:就|也)?(?:答应了|同意了|说行|说好|说可以|说没问题)"
)


def agreed_change(r: Reading, pos: int, end: int) -> bool:
    """师傅发消息说能不能改下午两点，我答应了: the change asked for, read as a change of the value named."""
    if (m := _AGREED.search(r.text, pos, end)) is None:
        return False
    bare_value(r, m.start("change"), m.end("change"), True, None)
    return True


# 欧老师搬走了，现在跟贝老师学; 换了个医生，现在找刘医生看; 我们现在看陈医生: the one of that title one goes
# to now
_TITLED_NOW = re.compile(
    r"(?:我们|我|孩子)?(?:现在|目前|以后|改|换|都)*(?:跟|找|去|换成|换到|改找|改跟|改看|看(?=\S{1,2}(?:医生|大夫)))(?P<v>[\u4e00-\u9fff]{1,2}(?P<t>老师|医生|大夫|教练|律师))"
    r"(?:学|看|练|上课|治)?(?:了|啦)?[。！!]*$"
)


def _switched_titled(r: Reading, a: int, b: int) -> bool:
    """The held person of the same title (钢琴老师 = 欧老师) replaced by the one gone to now, when exactly one
    is held."""
    m = _TITLED_NOW.match(r.text, a, b)
    if m is None:
        return False
    return r.correct_the_one(
        lambda d: d.speaker == r.speaker and str(d.value).endswith(m["t"]) and d.value != m["v"],
        m["v"],
        a,
        b,
        m.span("v"),
    )


# 今早152: a weigh-in, of the weight the speaker holds
_WEIGH_IN = re.compile(
    r"(?:今早|今天早上|今天|早上|刚才|刚刚)(?:称了?一?下|上秤)?[，,]?"
    r"(?P<v>[0-9]{2,3}(?:\.[0-9])?)(?P<unit>斤|公斤|kg)?(?:了|啦)?[。！!]*$"
)


def _weigh_in(r: Reading, a: int, b: int) -> bool:
    m = _WEIGH_IN.match(r.text, a, b)
    if m is None:
        return False
    number = m["v"] + m["unit"] if m["unit"] else (float(m["v"]) if "." in m["v"] else int(m["v"]))
    return r.correct_the_one(
        lambda d: d.speaker == r.speaker and d.subject == r.speaker and d.attribute == "weight",
        number,
        a,
        b,
        m.span("v"),
    )


# 调薪了，现在22k: an amount in a unit of money alone, after "now", is the speaker's latest amount's
_AMOUNT_NOW = re.compile(
    r"(?:现在|目前|如今|变成了?|涨到了?|加到了?|降到了?)(?:是|有)?(?P<v>[0-9]+(?:\.[0-9]+)?)(?P<unit>[kKwW]|万|千|块钱?|元)?"
    r"(?:了|啦)?[。！!]*$"
)


def _amount_now(r: Reading, a: int, b: int) -> bool:
    """…or a bare number as long as the amount held (房租4500 … 现在4350)."""
    m = _AMOUNT_NOW.match(r.text, a, b)
    if m is None or (earlier := number_fix(r, 0)) is None:
        return False
    if not m["unit"] and len(m["v"]) != len(str(earlier.value)):
        return False
    n = float(m["v"]) * {"k": 1000, "w": 10000, "万": 10000, "千": 1000}.get((m["unit"] or "").lower(), 1)
    bound(r, earlier, int(n) if n == int(n) else n, a, b, m.span("v"))
    return True


# 退了两个人，现在7个: how many a group held of the speaker's has now
_COUNT_NOW = re.compile(
    r"(?:现在|目前|只剩下?|还剩下?|剩下?|变成了?|成了)(?P<v>[0-9]{1,4}|[一二两三四五六七八九十百]{1,4})"
    r"(?:个人?|人|位|名)?"
    r"(?:了|啦)?[。！!]*$"
)
_LEADING_COUNT = re.compile(r"^(?:[0-9]{1,4}|[一二两三四五六七八九十百]{1,4})")


def _count_now(r: Reading, a: int, b: int) -> bool:
    """The one headcount the speaker holds (读书会.headcount = 9个成员) given a new number, in its words."""
    m = _COUNT_NOW.match(r.text, a, b)
    if m is None:
        return False
    return r.correct_the_one(
        lambda d: d.speaker == r.speaker and d.attribute.endswith("headcount"),
        lambda earlier: _LEADING_COUNT.sub(m["v"], str(earlier.value), count=1),
        a,
        b,
        m.span("v"),
    )
