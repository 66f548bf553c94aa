"""Chinese grammar for natural time expressions (the definitions are documented in `natural`)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from . import holidays
from .durations import Duration
from .errors import TimeParseError
from .numbers import ZH_NUMBER_RE, parse_zh_number
from .spans import (
    Grammar,
    Rule,
    TimeSpan,
    add_months,
    amount_duration,
    amount_handlers,
    boundary_span,
    calendar_day,
    checked_date,
    day_span,
    hours_span,
    mid_month,
    month_days,
    month_span,
    nearest_day_of_month,
    nth_weekday_span,
    period_span,
    weekday_after,
    weekday_day_of_month,
    weekday_in_week,
    weekend_span,
    year_span,
)

_NUM = ZH_NUMBER_RE
_NOT_AFTER_NUMBER = r"(?<![月0-9零〇一二两三四五六七八九十百千])"
_UNITS = {
    "分钟": "minutes",
    "分鐘": "minutes",
    "分": "minutes",
    "小时": "hours",
    "小時": "hours",
    "钟头": "hours",
    "鐘頭": "hours",
    "天": "days",
    "日": "days",
    "周": "weeks",
    "週": "weeks",
    "星期": "weeks",
    "礼拜": "weeks",
    "禮拜": "weeks",
    "月": "months",
    "年": "years",
}
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
_AMOUNT = (
    rf"(?:(?P<n>{_NUM})\s*(?P<ge>[个個])?\s*(?P<half>半)?|(?P<h0>半)\s*(?P<ge2>[个個])?)"
    rf"\s*(?P<u>{_UNIT})"
)
_WEEK = r"(?:周|週|星期|礼拜|禮拜)"
_MD = r"(?:[0-9]{1,2}|[一二三四五六七八九十]{1,3})"
_YEAR = r"(?:[0-9]{4}|[零〇一二三四五六七八九]{4})"

_REL = {
    "这": 0,
    "这个": 0,
    "這": 0,
    "這個": 0,
    "本": 0,
    "当": 0,
    "下": 1,
    "下个": 1,
    "下個": 1,
    "下一": 1,
    "下一个": 1,
    "下一個": 1,
    "下下": 2,
    "下下个": 2,
    "下下個": 2,
    "上": -1,
    "上个": -1,
    "上個": -1,
    "上一": -1,
    "上一个": -1,
    "上一個": -1,
    "上上": -2,
    "上上个": -2,
    "上上個": -2,
}
_REL_RE = "|".join(sorted(_REL, key=len, reverse=True))
_DAY_WORDS = {
    "今天": 0,
    "今日": 0,
    "今儿": 0,
    "今儿个": 0,
    "明天": 1,
    "明日": 1,
    "明儿": 1,
    "明儿个": 1,
    "后天": 2,
    "後天": 2,
    "大后天": 3,
    "大後天": 3,
    "昨天": -1,
    "昨日": -1,
    "昨儿": -1,
    "昨儿个": -1,
    "前天": -2,
    "大前天": -3,
}
_CONTRACTIONS = {
    "今早": (0, "早上"),
    "今晨": (0, "早上"),
    "今晚": (0, "晚上"),
    "今夜": (0, "晚上"),
    "明早": (1, "早上"),
    "明晨": (1, "早上"),
    "明晚": (1, "晚上"),
    "明夜": (1, "晚上"),
    "昨早": (-1, "早上"),
    "昨晚": (-1, "晚上"),
    "昨夜": (-1, "晚上"),
}
_PARTS = {
    "凌晨": (0, 6),
    "早上": (6, 12),
    "早晨": (6, 12),
    "清晨": (6, 12),
    "上午": (6, 12),
    "中午": (11, 13),
    "下午": (12, 18),
    "傍晚": (17, 19),
    "晚上": (18, 24),
    "夜里": (18, 24),
    "夜间": (18, 24),
}
_PART = "|".join(sorted(_PARTS, key=len, reverse=True))
_WEEKDAY_CHARS = {
    "一": 0,
    "二": 1,
    "三": 2,
    "四": 3,
    "五": 4,
    "六": 5,
    "日": 6,
    "天": 6,
    "1": 0,
    "2": 1,
    "3": 2,
    "4": 3,
    "5": 4,
    "6": 5,
    "7": 6,
}
_YEARS = {"今": 0, "本": 0, "明": 1, "来": 1, "後": 2, "后": 2, "大后": 3, "去": -1, "前": -2, "大前": -3}
_YEAR_REL = "|".join(sorted(_YEARS, key=len, reverse=True))


def _alt(table: dict[str, object]) -> str:
    return "|".join(sorted(table, key=len, reverse=True))


def _amount(m: re.Match[str]) -> tuple[str, Duration]:
    unit = _UNITS[m["u"]]
    if m["h0"]:
        whole, half, counted = 0, True, True
    else:
        whole, half, counted = parse_zh_number(m["n"]), bool(m["half"]), bool(m["ge"])
    if unit == "months" and not counted:
        raise TimeParseError(f"ambiguous month count {m.group(0)!r}: write N个月")
    return unit, amount_duration(unit, whole, half)


def _number(text: str) -> int:
    return parse_zh_number(text)


# --- handlers ---------------------------------------------------------------------------------


def _day_word(m: re.Match[str], now: datetime) -> TimeSpan:
    return day_span(now.date() + timedelta(days=_DAY_WORDS[m.group(0)]), now.tzinfo)


def _contraction(m: re.Match[str], now: datetime) -> TimeSpan:
    offset, part = _CONTRACTIONS[m.group(0)]
    return hours_span(now.date() + timedelta(days=offset), *_PARTS[part], now.tzinfo)


def _part_today(m: re.Match[str], now: datetime) -> TimeSpan:
    return hours_span(now.date(), *_PARTS[m.group(0)], now.tzinfo)


def _weekday(m: re.Match[str], now: datetime) -> TimeSpan:
    weekday = _WEEKDAY_CHARS[m["d"]]
    if m["rel"] is None:
        return day_span(weekday_after(now.date(), weekday), now.tzinfo)
    return day_span(weekday_in_week(now.date(), weekday, _REL[m["rel"]]), now.tzinfo)


def _week(m: re.Match[str], now: datetime) -> TimeSpan:
    return period_span(now, "week", _REL[m["rel"]])


def _month(m: re.Match[str], now: datetime) -> TimeSpan:
    return period_span(now, "month", _REL[m["rel"]])


def _year(m: re.Match[str], now: datetime) -> TimeSpan:
    return period_span(now, "year", _YEARS[m["rel"]])


def _weekend(m: re.Match[str], now: datetime) -> TimeSpan:
    return weekend_span(now, _REL[m["rel"]] if m["rel"] else 0)


_future_instant, _past_instant, _past_window, _future_window = amount_handlers(_amount)


def _month_edge(m: re.Match[str], now: datetime) -> TimeSpan:
    offset = _REL[m["rel"]] if m["rel"] else 0
    if m["edge"] == "中":
        return mid_month(now, offset)
    return boundary_span(now, "month", offset, end=m["edge"] in "底末")


def _named_month_edge(m: re.Match[str], now: datetime) -> TimeSpan:
    """七月底: the last day of July this year, or next year once this year's July is over."""
    month, today = _number(m["m"]), now.date()
    if not 1 <= month <= 12:
        raise TimeParseError(f"no such month: {m.group(0)!r}")
    year = _number(m["y"]) if m["y"] else today.year + (month < today.month)
    day = 15 if m["edge"] == "中" else month_days(year, month) if m["edge"] in "底末" else 1
    return day_span(checked_date(year, month, day, m.group(0)), now.tzinfo)


def _year_edge(m: re.Match[str], now: datetime) -> TimeSpan:
    offset = _YEARS[m["rel"]] if m["rel"] else 0
    if m["y"]:
        offset = parse_zh_number(m["y"]) - now.date().year
    return boundary_span(now, "year", offset, end=m["edge"] in "底末终")


def _date(m: re.Match[str], now: datetime) -> TimeSpan:
    year = _number(m["y"]) if m["y"] else None
    return calendar_day(now, year, _number(m["m"]), _number(m["d"]), m.group(0))


def _month_of_year(m: re.Match[str], now: datetime) -> TimeSpan:
    """今年十月, 明年五月20号, 明年三月底: a month (its day, its edge) of a year named from now."""
    year, month = now.year + _YEARS[m["rel"]], _number(m["m"])
    if not 1 <= month <= 12:
        raise TimeParseError(f"no such month: {m.group(0)!r}")
    if m["d"]:
        return day_span(checked_date(year, month, _number(m["d"]), m.group(0)), now.tzinfo)
    if m["edge"]:
        day = 15 if m["edge"] == "中" else month_days(year, month) if m["edge"] in "底末" else 1
        return day_span(checked_date(year, month, day, m.group(0)), now.tzinfo)
    return month_span(year, month, now.tzinfo)


# 王国庆 is a name, 五一路 a street: a holiday is neither after a common surname nor before a place word
_NOT_A_SURNAME = (
    r"(?<![王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    r"姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤])"
)


def _holiday(m: re.Match[str], now: datetime) -> TimeSpan:
    """国庆节, 春节: the holiday's next day from today on (holidays.py)."""
    name = m["h"]
    if name in holidays.FIXED_ZH:
        return holidays.fixed(holidays.FIXED_ZH[name], now, m.group(0))
    return holidays.lunar(name, now)


def _year_month(m: re.Match[str], now: datetime) -> TimeSpan:
    year, month = _number(m["y"]), _number(m["m"])
    if not 1 <= month <= 12:
        raise TimeParseError(f"no such month: {m.group(0)!r}")
    month_days(year, month)  # range check
    return month_span(year, month, now.tzinfo)


def _whole_year(m: re.Match[str], now: datetime) -> TimeSpan:
    year = _number(m["y"])
    if not 1 <= year <= 9999:
        raise TimeParseError(f"no such year: {m.group(0)!r}")
    return year_span(year, now.tzinfo)


def _relative_month_day(m: re.Match[str], now: datetime) -> TimeSpan:
    year, month = add_months(now.date().year, now.date().month, _REL[m["rel"]])
    return day_span(checked_date(year, month, _number(m["d"]), m.group(0)), now.tzinfo)


def _day_of_month(m: re.Match[str], now: datetime) -> TimeSpan:
    return day_span(nearest_day_of_month(now.date(), _number(m["d"]), m.group(0)), now.tzinfo)


def _weekday_the_day(m: re.Match[str], now: datetime) -> TimeSpan:
    """13号周日, 周日13号: the first 13th from today on that is a Sunday."""
    wd = m["wd"]
    weekday = int(wd) - 1 if wd.isdigit() else "一二三四五六日天".index(wd) if wd != "天" else 6
    return day_span(weekday_day_of_month(now.date(), _number(m["d"]), weekday, m.group(0)), now.tzinfo)


def _nth_weekday(m: re.Match[str], now: datetime) -> TimeSpan:
    """八月最后一个周末, 下个月第一个周一: a weekday (or the weekend) counted within a month."""
    if m["rel"] is not None:
        year, month = add_months(now.year, now.month, _REL[m["rel"]])
    else:
        year, month = (_number(m["y"]) if m["y"] else None), _number(m["m"])
    weekday = None if m["we"] else "一二三四五六日天".index(m["d"]) if m["d"] != "天" else 6
    return nth_weekday_span(now, year, month, weekday, -1 if m["last"] else _number(m["n"]))


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


RULES: tuple[Rule, ...] = (
    Rule(_c(_alt(_DAY_WORDS)), _day_word),
    # 国庆节, 春节 (not 国庆后, 春节前: a time before or after the day is not the day)
    Rule(
        _c(
            rf"{_NOT_A_SURNAME}(?P<h>{_alt({**holidays.FIXED_ZH, **holidays.LUNAR_ZH})})"
            r"(?!节?(?:前|后|之前|之后|以前|以后|期间|假期))(?!路|街|大街|大道|广场|村|小区|店|中学|小学)"
        ),
        _holiday,
    ),
    Rule(_c(_alt(_CONTRACTIONS)), _contraction),
    Rule(_c(_PART), _part_today),
    Rule(
        _c(
            rf"(?:(?:(?P<y>{_YEAR})\s*年\s*)?(?P<m>{_MD})\s*月|(?P<rel>{_REL_RE})\s*月)\s*(?:的)?\s*"
            rf"(?:第(?P<n>[一二三四五1-5])个|(?P<last>最后一个))\s*(?:{_WEEK}(?P<d>[一二三四五六日天])|(?P<we>周末|週末))"
        ),
        _nth_weekday,
    ),
    Rule(_c(rf"(?:(?P<rel>{_REL_RE})\s*)?{_WEEK}(?P<d>[一二三四五六日天1-7])"), _weekday),
    Rule(_c(rf"(?:(?P<rel>{_REL_RE})\s*)?(?:周末|週末)"), _weekend),
    Rule(_c(rf"(?P<rel>{_REL_RE})\s*{_WEEK}"), _week),
    Rule(_c(rf"(?P<rel>{_REL_RE})\s*月"), _month),
    Rule(_c(rf"(?P<rel>{_YEAR_REL})年"), _year),
    Rule(_c(rf"{_NOT_AFTER_NUMBER}{_AMOUNT}\s*(?:之后|以后|过后|之後|以後|后|後)"), _future_instant),
    # 过两周去体检, 再过三天: that long from now (过了两天 is time passed, 过去的两周 a window)
    Rule(
        _c(rf"(?:再)?(?:过|過)\s*{_AMOUNT}(?!\s*(?:之后|以后|过后|之後|以後|后|後|前|以来|以來|内|里))"),
        _future_instant,
    ),
    # 还有三周就生了: that long from now, when it is what is left before a thing happens
    Rule(_c(rf"(?:还有|還有|还剩|還剩|只有|就剩)\s*{_AMOUNT}(?=\s*(?:就|便))"), _future_instant),
    Rule(_c(rf"{_NOT_AFTER_NUMBER}{_AMOUNT}\s*(?:之前|以前|前)"), _past_instant),
    Rule(
        _c(rf"(?:最近|过去的?|過去的?|近|前)\s*{_AMOUNT}\s*(?:以来|以來|之内|以内|内|里|裡)?"), _past_window
    ),
    Rule(
        _c(rf"(?:未来|未來|接下来|接下來|今后|今後|往后|往後)的?\s*{_AMOUNT}\s*(?:之内|以内|内|里|裡)?"),
        _future_window,
    ),
    Rule(_c(rf"{_NOT_AFTER_NUMBER}{_AMOUNT}\s*(?:之内|以内|内)"), _future_window),
    Rule(
        _c(rf"{_NOT_AFTER_NUMBER}(?:(?P<rel>{_REL_RE})\s*月?)?\s*月\s*(?P<edge>底|末|初|中)旬?"), _month_edge
    ),
    Rule(_c(rf"(?:(?P<y>{_YEAR})\s*年\s*)?(?P<m>{_MD})\s*月\s*(?P<edge>底|末|初|中)旬?"), _named_month_edge),
    Rule(_c(rf"(?:(?P<y>{_YEAR})|(?P<rel>{_YEAR_REL}))?\s*年?\s*年\s*(?P<edge>底|末|初|终)"), _year_edge),
    Rule(_c(rf"(?:(?P<y>{_YEAR})\s*年\s*)?(?P<m>{_MD})\s*月\s*(?P<d>{_MD})\s*(?:日|号|號)"), _date),
    # 3月15交, 中期考核是3月25: a month and a day in digits, without 号 (not a count: 3月15个人, 3月15块)
    Rule(
        _c(
            rf"(?:(?P<y>{_YEAR})\s*年\s*)?(?P<m>[0-9]{{1,2}})\s*月\s*(?P<d>[0-9]{{1,2}})"
            r"(?![0-9.:：%]|\s*(?:日|号|號|个|岁|人|天|年|块|元|斤|公斤|次|分|点|小时|周|万|千|米|名|位|号))"
        ),
        _date,
    ),
    # 3月27号周五, 27号（周五）: a date with its weekday is the date (the weekday only names it)
    Rule(
        _c(
            rf"(?:(?P<y>{_YEAR})\s*年\s*)?(?P<m>{_MD})\s*月\s*(?P<d>{_MD})\s*(?:日|号|號)\s*[（(]?\s*{_WEEK}"
            r"[一二三四五六日天1-7][）)]?"
        ),
        _date,
    ),
    Rule(_c(rf"(?P<y>{_YEAR})\s*年\s*(?P<m>{_MD})\s*月"), _year_month),
    Rule(
        _c(
            rf"(?P<rel>{_YEAR_REL})年\s*(?P<m>{_MD})\s*月(?:份)?(?:\s*(?P<d>{_MD})\s*(?:日|号|號)|\s*(?P<edge>底|末|初|中)旬?)?"
        ),
        _month_of_year,
    ),
    Rule(_c(rf"(?P<y>{_YEAR})\s*年"), _whole_year),
    Rule(_c(rf"(?P<rel>{_REL_RE})\s*月\s*(?P<d>{_MD})\s*(?:日|号|號)"), _relative_month_day),
    # 14号 in running text is a day of this month or the next, but not 3号楼, 5号线, 第3号, 112号 or 望京街5号
    Rule(
        _c(
            rf"(?<![第几0-9一二三四五六七八九十A-Za-z街路区巷弄栋幢楼室院村道里])(?P<d>{_MD})\s*(?:号|號)"
            r"(?!\s*(?:楼|樓|线|線|门|門|床|房|机|位|车|車|球|窗|口|馆|院|桌|柜|选手|队|座|屋|站|码|碼|包厢|厅|台|仓|"
            r"店|病房|宿舍|街|路|弄|巷|单元|号|線|地铁))"
        ),
        _day_of_month,
    ),
    Rule(
        _c(
            rf"(?<![第几0-9一二三四五六七八九十A-Za-z街路区巷弄栋幢楼室院村道里月])(?P<d>{_MD})\s*(?:号|號)\s*[（(]?\s*"
            rf"{_WEEK}(?P<wd>[一二三四五六日天1-7])[）)]?"
        ),
        _weekday_the_day,
    ),
    Rule(_c(rf"{_WEEK}(?P<wd>[一二三四五六日天1-7])\s*[，,]?\s*(?P<d>{_MD})\s*(?:号|號)"), _weekday_the_day),
)

# --- clock times ------------------------------------------------------------------------------

_CLOCK_NUM = r"(?:[0-9]{1,2}|[零〇一二两三四五六七八九十]{1,3})"
_TOD = (
    rf"(?:(?P<tp>{_PART})\s*)?(?:(?P<th>{_CLOCK_NUM})\s*(?:点|點|时|時)\s*"
    rf"(?:(?P<half>半)|(?P<q1>一刻)|(?P<q3>三刻)|(?P<tm>{_CLOCK_NUM})\s*分?|整)?"
    r"|(?P<hh>[0-9]{1,2})\s*:\s*(?P<mm>[0-9]{2}))"
)


def _tod_value(m: re.Match[str]) -> tuple[int, int, bool]:
    if m["hh"] is not None:
        hour, minute = int(m["hh"]), int(m["mm"])
    else:
        hour = _number(m["th"])
        minute = 30 if m["half"] else 15 if m["q1"] else 45 if m["q3"] else _number(m["tm"]) if m["tm"] else 0
    part = m["tp"]
    if (part in ("下午", "傍晚", "晚上", "夜里", "夜间") and hour < 12) or (part == "中午" and hour < 11):
        hour += 12
    elif part == "凌晨" and hour == 12:
        hour = 0
    if hour > 24 or minute > 59 or (hour == 24 and minute):
        raise TimeParseError(f"no such time: {m.group(0)!r}")
    return hour, minute, part is not None or hour == 0 or hour > 12


def _tod_strong(m: re.Match[str]) -> bool:
    """A bare "一点" / "三点" is too often "a bit" / "three points" to stand alone in running text."""
    ascii_hour = bool(m["th"]) and m["th"].isascii()
    return bool(m["tp"] or m["hh"] or ascii_hour or m["half"] or m["tm"] or m["q1"] or m["q3"])


GRAMMAR = Grammar(
    name="zh",
    rules=RULES,
    tod=re.compile(rf"(?<![0-9]){_TOD}(?![0-9])"),
    tod_suffix=re.compile(rf"\s*(?:的)?\s*{_TOD}(?![0-9])"),
    tod_prefix=None,
    tod_value=_tod_value,
    tod_strong=_tod_strong,
    part_suffix=re.compile(rf"\s*(?:的)?\s*(?P<part>{_PART})"),
    part_hours=_PARTS,
    lead=re.compile(r"(?:在|于|於|到|截至|截止到|截止|直到|等到|从|從|自)\s*"),
    trail=re.compile(r"\s*(?:之前|以前|前|为止|為止|左右|之后|以后)"),
)

__all__ = ["GRAMMAR", "RULES"]
