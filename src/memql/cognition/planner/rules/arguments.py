"""Reading the parts of a clause the verbs share: the object phrase, durations, priority words, reasons,
recurrence (for reminders), and the tags a note is filed under."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from memql.cognition.planner.rules import lexicon_en, lexicon_zh
from memql.cognition.planner.rules.model import Clause
from memql.cognition.planner.rules.text import clean_phrase, fold, quoted, words
from memql.lang.time import TimeParseError, find_natural, priority_weight
from memql.lang.time.numbers import parse_zh_number
from memql.services.tokenize import STOP_WORDS

_EN_UNIT = r"(?P<u>minute|min|hour|hr|day|week|wk|month|mo|year|yr)s?"
_EN_AMOUNT = (
    r"(?P<n>\d+(?:\.\d+)?|a\s+couple\s+of|a\s+few|half\s+a|a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|several)"
)
_EN_NUMBERS = {
    **lexicon_en.NUMBER_WORDS,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "ninety": 90,
}
_ISO_UNIT = {
    "minute": "M",
    "min": "M",
    "hour": "H",
    "hr": "H",
    "day": "D",
    "week": "W",
    "wk": "W",
    "month": "M",
    "mo": "M",
    "year": "Y",
    "yr": "Y",
}
_ZH_UNIT = {
    "分钟": "minute",
    "小时": "hour",
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "个礼拜": "week",
    "个月": "month",
    "月": "month",
    "年": "year",
}
_LIGHT_VERBS_EN = re.compile(r"^(?:make|set|keep|mark|have|get|turn|let|leave|consider|treat)\s+")
_AUX_EN = re.compile(
    r"\s+(?:should|must|needs?\s+to|has\s+to|have\s+to|can|will|is|are|was|were|be|being|been|get|gets|got)"
    r"(?:\s+(?:be|being|been|get|now|all|also|definitely))*\s*$"
)
_ADVERBS_EN = re.compile(r"(?:\s*(?:\w+ly|just|also|now|then|again|all|both|go\s+ahead\s+and)\b)+\s*")
_ADVERBS_ZH = re.compile(r"(?:永久|永远|彻底|全部|都|立即|马上|直接|先|再|也|一并|统统|请|帮我)")
_WEEKDAYS = {
    "monday": "MO",
    "tuesday": "TU",
    "wednesday": "WE",
    "thursday": "TH",
    "friday": "FR",
    "saturday": "SA",
    "sunday": "SU",
    "周一": "MO",
    "周二": "TU",
    "周三": "WE",
    "周四": "TH",
    "周五": "FR",
    "周六": "SA",
    "周日": "SU",
    "周天": "SU",
    "星期一": "MO",
    "星期二": "TU",
    "星期三": "WE",
    "星期四": "TH",
    "星期五": "FR",
    "星期六": "SA",
    "星期日": "SU",
    "星期天": "SU",
}


def chinese_number(text: str) -> int | None:
    """Arabic digits or a Chinese numeral ("三" -> 3, "十五" -> 15, "一百零五" -> 105), else None: the
    language layer's reading, so the planner and time normalisation agree on every number."""
    try:
        return parse_zh_number(text)
    except TimeParseError:
        return None


def amount(text: str) -> float | None:
    text = re.sub(r"\s+", " ", text.strip().lower())
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    if text == "half a":
        return 0.5
    value = _EN_NUMBERS.get(text)
    return float(value) if value is not None else chinese_number(text)


def iso_duration(n: float, unit: str) -> str | None:
    """An ISO-8601 duration for `n` units (half a month is 15 days; half a year 6 months)."""
    code = _ISO_UNIT[unit]
    if n != int(n):
        if unit in ("month", "mo"):
            return f"P{round(n * 30)}D"
        if unit in ("year", "yr"):
            return f"P{round(n * 12)}M"
        if code in ("D", "W"):
            return f"PT{round(n * (24 if code == 'D' else 168))}H"
        return None
    n = int(n)
    if n <= 0:
        return None
    if unit in ("minute", "min", "hour", "hr"):
        return f"PT{n}{code}"
    return f"P{n}{code}"


def durations(folded: str, lang: str) -> list[tuple[int, int, str]]:
    """(start, end, ISO duration) of each "N units" in the text ("90 days", "six months", "三天", "半年")."""
    found = []
    if lang == "zh":
        pattern = (
            r"(?P<n>[一二两三四五六七八九十百\d]+|半)(?:个)?(?P<u>分钟|小时|天|日|周|星期|个?礼拜|月|年)"
        )
        for m in re.finditer(pattern, folded):
            unit = _ZH_UNIT.get(m.group("u").replace("个", ""), "day")
            n = 0.5 if m.group("n") == "半" else chinese_number(m.group("n"))
            iso = iso_duration(n, unit) if n else None
            if iso:
                found.append((m.start(), m.end(), iso))
        return found
    for m in re.finditer(r"\b" + _EN_AMOUNT + r"[\s-]+" + _EN_UNIT + r"\b", folded):
        n = amount(m.group("n"))
        iso = iso_duration(n, m.group("u")) if n else None
        if iso:
            found.append((m.start(), m.end(), iso))
    return found


def priority_level(folded: str, lang: str) -> float | None:
    """The weight of a priority the text names ("top priority", "as urgent", "最高优先级"), else None."""
    if lang == "zh":
        m = re.search(r"(最高|紧急|高|最低|低|普通|中|正常)(?:的)?优先级|(非常重要|紧急|加急)", folded)
        if m:
            return priority_weight(m.group(1) or m.group(2))
        return None
    m = re.search(
        r"\b(top|highest|high|higher|urgent|critical|low|lower|lowest|normal|medium|moderate)"
        r"(?:[\s-]+(?:priority|importance))\b",
        folded,
    )
    if m:
        word = {"higher": "high", "lower": "low"}.get(m.group(1), m.group(1))
        return priority_weight(word)
    m = re.search(r"\b(?:as|to)\s+(urgent|critical|important|low|high|top)\b", folded)
    return priority_weight(m.group(1)) if m else None


def reason(clause: Clause, lang: str) -> str | None:
    lex = lexicon_zh if lang == "zh" else lexicon_en
    m = lex.REASON.search(clause.lower, clause.cue_end)
    if not m:
        return None
    text = clean_phrase(clause.text[m.start() : m.end()])
    return text[:2000] or None


def explicit_weight(folded: str, lang: str) -> float | None:
    """A weight given as a number: "raise … to 0.9", "to weight 0.25", "权重改为0.15", "提高到0.9"."""
    number = r"(?P<w>0?\.\d+|1(?:\.0+)?|0)(?![\d.%])"
    if lang == "zh":
        m = re.search(r"(?:到|至|为|成|是)\s*(?:权重\s*)?" + number, folded)
    else:
        m = re.search(
            r"\b(?:to|at|of|is|=|weight|priority|importance)\s*(?:a\s+)?(?:(?:weight|priority|importance|score)"
            r"\s*(?:of\s+)?)?" + number,
            folded,
        )
    return float(m.group("w")) if m else None


def rrule(folded: str, lang: str) -> str | None:
    """A recurrence as an RRULE: "every day|week|month|year", "every Monday", "weekly", "每天", "每周五",
    with the day of the week or month and the hour it names ("on Fridays at 18:00", "每月15号", "每天7点")."""
    base = _rrule_base(folded, lang)
    if base is None:
        return None
    if base.startswith("FREQ=WEEKLY") and "BYDAY" not in base:
        days = re.search(r"\bon\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b", folded)
        if days:
            base += f";BYDAY={_WEEKDAYS[days.group(1)]}"
    if base.startswith("FREQ=MONTHLY"):
        if lang == "zh":
            day = re.search(r"每(?:个)?月(?:的)?(\d{1,2}|[一二三四五六七八九十]+)(?:号|日)", folded)
            value = chinese_number(day.group(1)) if day else None
        else:
            day = re.search(r"\bday\s+(\d{1,2})\b|\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b", folded)
            value = int(day.group(1) or day.group(2)) if day else None
        if value and 1 <= value <= 31:
            base += f";BYMONTHDAY={value}"
    if "INTERVAL" not in base and "COUNT" not in base and not base.startswith("FREQ=YEARLY"):
        clock = _clock_time(folded, lang)
        if clock is not None:
            base += f";BYHOUR={clock[0]};BYMINUTE={clock[1]}"
    return base


def _clock_time(folded: str, lang: str) -> tuple[int, int] | None:
    """The hour and minute a reminder names: "at 18:00", "at 7 am", "7点", "18点半", "07:30"."""
    if lang == "zh":
        m = re.search(
            r"(\d{1,2})[:：](\d{2})|(\d{1,2}|[一二三四五六七八九十]+)(?:点|时)(半|(\d{1,2})分)?", folded
        )
        if not m:
            return None
        if m.group(1):
            hour, minute = int(m.group(1)), int(m.group(2))
        else:
            hour = chinese_number(m.group(3)) or 0
            minute = 30 if m.group(4) == "半" else int(m.group(5) or 0)
        if re.search(r"(?:下午|晚上)\s*$", folded[: m.start()]) and hour < 12:
            hour += 12
    else:
        m = re.search(r"\bat\s+(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|o'?clock)?(?!\s*(?:%|\d))", folded)
        if not m or not (m.group(2) or m.group(3)):
            return None
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        if m.group(3) and m.group(3).startswith("p") and hour < 12:
            hour += 12
    return (hour, minute) if hour < 24 and minute < 60 else None


def _rrule_base(folded: str, lang: str) -> str | None:
    if lang == "zh":
        for word, code in _WEEKDAYS.items():
            if "每" + word in folded or "每个" + word in folded:
                return f"FREQ=WEEKLY;BYDAY={code}"
        for word, freq in (
            ("每天", "DAILY"),
            ("每日", "DAILY"),
            ("每周", "WEEKLY"),
            ("每星期", "WEEKLY"),
            ("每个月", "MONTHLY"),
            ("每月", "MONTHLY"),
            ("每年", "YEARLY"),
        ):
            if word in folded:
                return f"FREQ={freq}"
        return None
    m = re.search(r"\bevery\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", folded)
    if m:
        return f"FREQ=WEEKLY;BYDAY={_WEEKDAYS[m.group(1)]}"
    m = re.search(
        r"\bevery\s+(?:(?P<n>\d+|two|three|four|other)\s+)?(?P<u>day|week|month|year|weekday)s?\b", folded
    )
    if m:
        if m.group("u") == "weekday":
            return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        freq = {"day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"}[m.group("u")]
        n = m.group("n")
        interval = 2 if n == "other" else int(amount(n) or 1) if n else 1
        return f"FREQ={freq}" + (f";INTERVAL={interval}" if interval > 1 else "")
    m = re.search(r"\b(daily|weekly|monthly|yearly|annually)\b", folded)
    if m:
        return "FREQ=" + {"annually": "YEARLY"}.get(m.group(1), m.group(1).upper())
    return None


def object_span(clause: Clause, lang: str, stops: str | None = None) -> tuple[int, int]:
    """Where the object of the verb sits in the clause: after the verb when the verb opens the imperative
    ("delete the draft"), before it when it comes later ("make the agenda read-only", "把会议记录删除",
    "the notes should be archived"). `stops` ends an object that runs after the verb."""
    masked = clause.lower
    if clause.cue_object is not None:
        return clause.cue_object
    if lang == "zh":
        ba = re.search(r"(?:把|将|给|对|为)", masked[clause.body_offset : clause.cue_start])
        if ba:
            return clause.body_offset + ba.end(), clause.cue_start
        head = masked[clause.body_offset : clause.cue_start]
        light = re.match(r"\s*(?:让|使|叫|令)", head)
        start = clause.body_offset + (light.end() if light else 0)
        if _ADVERBS_ZH.sub("", masked[start : clause.cue_start]).strip():
            return start, clause.cue_start
    elif clause.cue_start > clause.body_offset and not _ADVERBS_EN.fullmatch(
        masked[clause.body_offset : clause.cue_start]
    ):
        head = masked[clause.body_offset : clause.cue_start]
        light = _LIGHT_VERBS_EN.match(head)
        start = clause.body_offset + (light.end() if light else 0)
        aux = _AUX_EN.search(masked[start : clause.cue_start])
        end = start + aux.start() if aux else clause.cue_start
        if masked[start:end].strip():
            return start, end
    start, end = clause.cue_end, len(masked)
    if lang == "zh":
        lead = re.match(r"\s*(?:成|为|到|至|进|入)", masked[start:])
        if lead:  # "合并成一个文档": what follows is the result, not the object
            return start, start
    if stops:
        m = re.compile(stops).search(_masked(masked), start)
        if m:
            end = m.start()
    return start, end


def _masked(folded: str) -> str:
    chars = list(folded)
    for s, e, _ in quoted(folded):
        for i in range(s + 1, e - 1):
            chars[i] = "_"
    return "".join(chars)


def strip_trailers(text: str, lang: str) -> str:
    lex = lexicon_zh if lang == "zh" else lexicon_en
    folded = fold(text)
    m = lex.TRAILERS.search(folded)
    while m and m.start() > 0:
        text, folded = text[: m.start()], folded[: m.start()]
        m = lex.TRAILERS.search(folded)
    return clean_phrase(text)


def quoted_values(text: str) -> list[str]:
    folded = fold(text)
    return [text[s + 1 : e - 1].strip() for s, e, _ in quoted(folded) if text[s + 1 : e - 1].strip()]


def tag_list(text: str, lang: str) -> list[str]:
    """Tags written as a list: quoted values if any, else the words split at commas and "and"/"和"."""
    values = quoted_values(text)
    if values:
        return values
    text = strip_trailers(text, lang)
    if lang == "zh":
        parts = re.split(r"[，,、和与及/]|以及", text)
        return [
            p
            for p in (
                clean_phrase(re.sub(r"^(?:为|成|上|一个|个)|(?:标签|的标签|类)$", "", p)) for p in parts
            )
            if p
        ]
    parts = re.split(r"\s*(?:,|\band\b|&|/|\bor\b)\s*", text)
    tags = []
    for part in parts:
        part = re.sub(
            r"(?i)^(?:an?|the|as|with|under|into)\s+|\s+(?:tags?|labels?|category)$", "", part.strip()
        )
        part = re.split(r"(?i)\s+(?:for|to|so|because|since|in|on|from|as|which|that)\b", part)[0]
        part = clean_phrase(part)
        if part and len(part.split()) <= 4 and part.lower() not in STOP_WORDS:
            tags.append(part)
    return tags


def event_time(text: str, now: datetime, lang: str) -> str | None:
    """The time a note is about ("today's meeting", "the call on Friday"), as an instant."""
    for start, _, span in find_natural(text, now, lang):
        head = fold(text[:start]).rstrip()
        if re.search(r"\b(?:by|until|till|before|due|deadline|in|within|every|to)$|截止$|每$|到$", head):
            continue
        return span.start.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return None


_CHUNK_SKIP_WORDS = """
    key main new recent latest today yesterday tomorrow important essential final current previous various
    discussed discussion discussions details point points notes note record records summary conclusions
    regarding concerning including related including outlined made mentioned provided shared received
    focusing focus especially particularly please steps list lists items item everything due
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july
    august september october november december tonight morning afternoon evening week month year
    weeks months years days day hours hour"""
_CHUNK_SKIP = frozenset(_CHUNK_SKIP_WORDS.split())


def key_phrases(text: str, limit: int = 4) -> list[str]:
    """Short noun phrases of an English note, for its tags: runs of content words ("server crash",
    "customer service call log"), multi-word runs first, in the order they appear."""
    folded = fold(text)
    runs: list[list[str]] = [[]]
    for m in re.finditer(r"[a-z0-9][a-z0-9'-]*|[^\sa-z0-9]", folded):
        w = m.group(0)
        if (
            not re.match(r"[a-z0-9]", w)
            or w in STOP_WORDS
            or w in _CHUNK_SKIP
            or w.endswith("'s")
            or (w.endswith("ing") and len(w) > 5)
            or (w.endswith("ed") and len(w) >= 5)
            or w.isdigit()
        ):
            runs.append([])
            continue
        runs[-1].append(text[m.start() : m.end()])
    phrases = [" ".join(run[-4:]) for run in runs if run]
    phrases = list(dict.fromkeys(p for p in phrases if len(p) > 2))
    multi = [p for p in phrases if " " in p]
    single = [p for p in phrases if " " not in p and p.lower() not in lexicon_en.GENERIC_NOUNS]
    return (multi + single)[:limit]


def word_count(text: str) -> int:
    return len(words(fold(text)))
