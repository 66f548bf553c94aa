"""Which records a step is about: ids, an earlier step, tags (named, or words that are tags in the store),
a type, a time range, or a search phrase — and when none of these is said, a clarification.

Order of preference (the most explicit reading first): ids; "it/them" after an earlier step; tags the
user names ("tagged 'x'"); "all"; words that are tags in use in the store; a time range or a type alone;
"this/it" with nothing before it (the latest record); a search phrase. A deletion is never made from a
guess: "this" with no earlier step, or a bare search phrase, asks which records are meant instead.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from memql.cognition.planner.rules import lexicon_en, lexicon_zh
from memql.cognition.planner.rules.model import Clarify, Reading
from memql.cognition.planner.rules.text import clean_phrase, fold, quoted, squash, stem, words
from memql.lang.hygiene import Limits
from memql.lang.time import TimeSpan, find_natural
from memql.services.tokenize import STOP_WORDS

WRITE_LIMIT = Limits().write_limit
_UNITS_EN = {
    "minute": "minutes",
    "hour": "hours",
    "day": "days",
    "week": "weeks",
    "month": "months",
    "year": "years",
}
_UNITS_ZH = {
    "分钟": "minutes",
    "小时": "hours",
    "天": "days",
    "日": "days",
    "周": "weeks",
    "星期": "weeks",
    "礼拜": "weeks",
    "月": "months",
    "年": "years",
}
_ROLLING_EN = re.compile(
    r"\b(?:(?:in|over|within|during|from|for)\s+)?(?:the\s+)?(?:last|past|previous|recent)\s+"
    r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few|few|a\s+couple\s+of|"
    r"couple\s+of|several)\s+(?P<u>minute|hour|day|week|month|year)s?\b"
)
_NAMED_PERIOD_EN = re.compile(
    r"\b(?:(?:from|in|during|of|over)\s+)?(?:the\s+)?(?:last|past|previous)\s+(?P<u>week|month|year)(?:'s)?\b"
)
_ROLLING_ZH = re.compile(
    r"(?:最近|过去|近|前)(?P<n>[一二两三四五六七八九十\d]+)(?:个)?(?P<u>分钟|小时|天|日|周|星期|礼拜|月|年)"
)
_NAMED_PERIOD_ZH = re.compile(r"(?P<p>上周|上星期|上个?礼拜|上个月|上月|去年)")
_ZH_PERIOD_UNIT = {
    "上周": "weeks",
    "上星期": "weeks",
    "上礼拜": "weeks",
    "上个礼拜": "weeks",
    "上个月": "months",
    "上月": "months",
    "去年": "years",
}
# a time phrase after these words is a deadline or a horizon, not when the records are from
_NOT_RECORD_TIME_EN = re.compile(
    r"\b(?:by|until|till|before|due|deadline|in|within|after|every|each|for|expires?|expiring|starting)\s+"
    r"(?:the\s+)?(?:end\s+of\s+)?$"
)
_NOT_RECORD_TIME_ZH = re.compile(r"(?:在|于)?(?:截止|到|至|直到|之前|每|每个)$")
# the nouns a record is named by, before its number ("memory 11", "notes 4 and 6")
RECORD_NOUNS_EN = r"records?|memor(?:y|ies)|notes?|items?|entr(?:y|ies)"
_IDS_EN = re.compile(
    rf"(?:\b(?:{RECORD_NOUNS_EN}|ids?|numbers?|nos?\.?)\s*#?\s*|#)"
    r"(?P<list>\d+(?!\.\d)(?:\s*(?:,|and|&|or|to|through|-|–)\s*(?:#\s*)?\d+(?!\.\d))*)\b"
)
_IDS_ZH = re.compile(
    r"(?:(?:记录|记忆|笔记|条目|编号|id)\s*#?\s*|#)(?P<list>\d+(?:\s*(?:,|，|、|和|与|及|到|至|-)\s*\d+)*)"
    r"(?![\d.]*\s*(?:天|日|周|星期|个|月|年|小时|分钟|点|%|岁|次))(?:号|条)?"
    r"|第(?P<ordinal>[一二两三四五六七八九十百\d]+)(?:条|个|项|号)"
    r"|(?P<one>\d+)号(?:记录|记忆|笔记)?"
)
_EXPLICIT_TAGS_EN = re.compile(
    r"\b(?:tagged|labell?ed|marked)\s+(?:as\s+|with\s+)?(?:the\s+)?(?:tags?\s+)?"
    r"|\bwith\s+(?:the\s+)?(?:tags?|labels?)\s+|\b(?:tags?|labels?)\s*[:=]\s*"
)
_EXPLICIT_TAGS_ZH = re.compile(r"(?:标签为|标签是|带有?|打了|标记为|标着)")
_HASHTAG = re.compile(r"(?<!\w)#(?P<t>[^\W\d]\w{0,40})")


@dataclass
class TargetReading:
    target: dict[str, Any] | None
    confidence: float
    kind: str  # ids | from_step | tags | all | store_tags | filter | latest | search | everything
    assumptions: list[str] = field(default_factory=list)


# --- pieces ------------------------------------------------------------------------------------------


def blank_ids(folded: str, lang: str) -> str:
    """The text with its record numbers blanked out, offsets kept (11号 names a record, not the 11th)."""
    for m in (_IDS_ZH if lang == "zh" else _IDS_EN).finditer(folded):
        folded = folded[: m.start()] + " " * (m.end() - m.start()) + folded[m.end() :]
    return folded


def find_ids(folded: str, lang: str) -> list[str]:
    ids: list[str] = []
    for m in (_IDS_ZH if lang == "zh" else _IDS_EN).finditer(folded):
        text = m.group("list") or (m.groupdict().get("one") or "")
        numbers = re.findall(r"\d+", text)
        if m.groupdict().get("ordinal"):
            from memql.cognition.planner.rules.arguments import chinese_number

            value = chinese_number(m.group("ordinal"))
            numbers = [str(value)] if value else []
        ranged = re.search(r"\d+\s*(?:to|through|-|–|到|至)\s*\d+", text)
        if ranged and len(numbers) == 2 and 0 <= int(numbers[1]) - int(numbers[0]) <= 100:
            numbers = [str(n) for n in range(int(numbers[0]), int(numbers[1]) + 1)]
        ids += [n for n in numbers if n not in ids]
    return ids


# a verb's object that is numbers alone: "archive 3", "show me 9", "combine 2 and 5" (not "3 days", "9am")
_LEADING_IDS_EN = re.compile(
    r"\s*(?:me\s+|up\s+)?(?P<list>\d+(?:\s*(?:,|and|&)\s*\d+)*)(?![\d.:%]|\s*(?:am|pm|a\.m|p\.m|min\w*|"
    r"hours?|days?|weeks?|months?|years?|times?|percent|st|nd|rd|th)\b)(?:\s+up|\s+down)?\s*$"
)


def _leading_ids(folded: str, lang: str) -> list[str]:
    if lang == "zh":
        return []
    m = _LEADING_IDS_EN.match(folded)
    return re.findall(r"\d+", m["list"]) if m else []


def explicit_tags(phrase: str, lang: str) -> list[str]:
    """Tags the user names as tags: "tagged 'budget'", "with the tag urgent", "#launch", "标签为'预算'"."""
    folded = fold(phrase)
    found: list[str] = []
    pattern = _EXPLICIT_TAGS_ZH if lang == "zh" else _EXPLICIT_TAGS_EN
    spans = quoted(folded)
    for m in pattern.finditer(folded):
        rest = folded[m.end() :]
        quotes = [(s, e, t) for s, e, t in spans if s >= m.end()]
        if quotes and quotes[0][0] == m.end():  # one or more quoted tags right after the marker
            pos = m.end()
            for s, e, _ in quotes:
                if folded[pos:s].strip(" ,&，、") not in ("", "and", "or", "和", "或"):
                    break
                found.append(phrase[s + 1 : e - 1].strip())
                pos = e
        elif lang == "en":
            word = re.match(r"[\w-]+", rest)
            if word and word.group(0) not in STOP_WORDS:
                found.append(phrase[m.end() : m.end() + word.end()])
        else:
            word = re.match(r"[^\s，,。的、]+", rest)
            if word:
                found.append(phrase[m.end() : m.end() + word.end()])
    found += [m.group("t") for m in _HASHTAG.finditer(phrase)]
    return list(dict.fromkeys(t for t in found if t))


def store_tags_in(phrase: str, tags: tuple[str, ...], lang: str) -> list[str]:
    """The store's tags that the phrase mentions (and does not negate)."""
    return [tag for tag, negated in tag_mentions(phrase, tags, lang) if not negated]


_NEGATION_EN = re.compile(
    r"\b(?:non|not|no|without|except|excluding|other\s+than|but\s+not|besides)(?:[\s-]+(?:the|a|an|my|our|any))*"
    r"[\s-]*$"
)
_NEGATION_ZH = re.compile(r"(?:非|不是|除了|不含|不包括|以外的?)$")


def tag_mentions(phrase: str, tags: tuple[str, ...], lang: str) -> list[tuple[str, bool]]:
    """The store's tags that the phrase mentions, in the phrase's order, each with whether it is negated
    ("non-essential", "except the budget ones", "除了预算"). A tag matches where its words (stemmed; "_"
    and "-" as spaces) appear in a row in the phrase, or, for a CJK tag, where it appears in the phrase.
    A match inside a longer match is dropped ("capacity" inside "capacity planning")."""
    folded = fold(phrase)
    phrase_words = [(s, e, stem(w)) for s, e, w in words(folded)]
    stems = [w for _, _, w in phrase_words]
    squashed = squash(folded)
    # (start, end) as character offsets: of the squashed phrase for a CJK tag, of the phrase for a latin one
    matches: list[tuple[int, int, int, str, bool]] = []  # (start, end, rank, tag, negated)
    for rank, tag in enumerate(tags):
        ftag = fold(tag)
        if re.search(r"[\u3400-\u9fff]", ftag):
            key = squash(ftag)
            at = squashed.find(key) if len(key) >= 2 else -1
            if at >= 0:
                negated = bool(_NEGATION_ZH.search(squashed[:at]))
                matches.append((at, at + len(key), rank, tag, negated))
            continue
        tag_words = [stem(w) for _, _, w in words(ftag)]
        if not tag_words or all(w in STOP_WORDS for w in tag_words):
            continue
        for i in range(len(stems) - len(tag_words) + 1):
            if stems[i : i + len(tag_words)] == tag_words:
                first, last = phrase_words[i][0], phrase_words[i + len(tag_words) - 1][1]
                negated = bool(_NEGATION_EN.search(folded[:first]))
                matches.append((first, last, rank, tag, negated))
                break
    kept = [
        m
        for m in matches
        if not any(o[0] <= m[0] and m[1] <= o[1] and (o[1] - o[0]) > (m[1] - m[0]) for o in matches)
    ]
    by_span: dict[tuple[int, int], tuple[int, str, bool]] = {}
    for first, last, rank, tag, negated in kept:  # tags spelt alike ("test_data", "test data"): the more used
        if (first, last) not in by_span or rank < by_span[(first, last)][0]:
            by_span[(first, last)] = (rank, tag, negated)
    return [(tag, negated) for _, (_, tag, negated) in sorted(by_span.items(), key=lambda kv: kv[0])]


def compatible(tags: list[str], tag_sets: tuple[frozenset[str], ...], minimum: int = 1) -> list[str]:
    """The largest subset of `tags` that at least `minimum` records carry together (has_tags is "all of":
    tags no record has together select nothing; a Merge needs two records). Among equal sizes, the one the
    fewest records carry (the most specific), then the earliest mentioned. Without the store's
    combinations, `tags` as they are."""
    if len(tags) <= 1 or not tag_sets:
        return tags
    folded_sets = [frozenset(t.casefold() for t in s) for s in tag_sets]
    wanted = tags[:8]
    for size in range(len(wanted), 0, -1):
        best: tuple[int, tuple[int, ...]] | None = None
        for combo in itertools.combinations(range(len(wanted)), size):
            keys = {wanted[i].casefold() for i in combo}
            count = sum(1 for s in folded_sets if keys <= s)
            if count >= minimum and (best is None or (count, combo) < best):
                best = (count, combo)
        if best is not None:
            return [wanted[i] for i in best[1]]
    return tags


def content_words(phrase: str, lang: str) -> list[str]:
    """The words that say what the records are about (not stop words, generic nouns or deixis)."""
    folded = fold(phrase)
    if lang == "zh":
        rest = folded
        for noun in sorted(lexicon_zh.GENERIC_NOUNS, key=len, reverse=True):
            rest = rest.replace(noun, " ")
        rest = lexicon_zh.DEICTIC.sub(" ", rest)
        rest = re.sub(r"[的了和与及把将对给在从里中上下些个这那每所有全部关于]", " ", rest)
        return [w for w in re.split(r"[\s\W_]+", rest) if len(w) >= 1 and not w.isdigit()]
    return [
        w
        for _, _, w in words(folded)
        if w not in STOP_WORDS and w not in lexicon_en.GENERIC_NOUNS and not w.isdigit() and len(w) > 1
    ]


@dataclass
class TimeReading:
    time_range: dict[str, Any] | None
    spans: list[tuple[int, int]]  # character spans of the phrase that were time expressions


def record_time(phrase: str, now: datetime, lang: str) -> TimeReading:
    """When the records are from: "from last week", "in the past 3 days", "yesterday's", "上周"; a deadline
    or horizon ("by Friday", "in 30 days") is not a record time. "last/past N units" and "last week/
    month/year" are rolling windows ending now (the IR's relative form); a named day or date is that span."""
    folded = fold(phrase)
    rolling = _ROLLING_ZH if lang == "zh" else _ROLLING_EN
    m = rolling.search(folded)
    if m:
        return TimeReading(_relative(m.group("n"), m.group("u"), lang), [(m.start(), m.end())])
    named = (_NAMED_PERIOD_ZH if lang == "zh" else _NAMED_PERIOD_EN).search(folded)
    if named:
        unit = _ZH_PERIOD_UNIT[named.group("p")] if lang == "zh" else _UNITS_EN[named.group("u")]
        return TimeReading({"relative": "last", "amount": 1, "unit": unit}, [(named.start(), named.end())])
    before = _NOT_RECORD_TIME_ZH if lang == "zh" else _NOT_RECORD_TIME_EN
    spans: list[tuple[int, int]] = []
    chosen: TimeSpan | None = None
    until: TimeSpan | None = None  # "from June 14 to June 20", "between … and …", "6月14日到6月20日"
    since = False
    found = find_natural(phrase, now, lang)
    for i, (start, end, span) in enumerate(found):
        spans.append((start, end))
        head = folded[:start].rstrip()
        if chosen is not None and until is None and i > 0 and span.start >= chosen.start:
            link = _RANGE_LINK.fullmatch(folded[found[i - 1][1] : start])
            if link and found[i - 1][2] is chosen:
                until = span
                spans.append((found[i - 1][1], start))
                tail = re.match(r"\s*(?:之间|期间|inclusive)", folded[end:])
                if tail:
                    spans.append((end, end + tail.end()))
                continue
        if before.search(head + " ") or (span.start > now and span.granularity != "day"):
            continue
        if chosen is None:
            chosen = span
            since = bool(re.search(r"\bsince\s*$|自\s*$|从\s*$", head))
    if chosen is None:
        return TimeReading(None, spans)
    start, end = chosen.start, (until.end if until is not None else chosen.end)
    if chosen.granularity == "instant":  # "3 days ago": that day
        start = start.replace(hour=0, minute=0, second=0, microsecond=0)
        end = start.replace(hour=23, minute=59, second=59)
    if since:
        end = max(now, end)
    return TimeReading({"start": _iso(start), "end": _iso(end)}, spans)


_RANGE_LINK = re.compile(r"\s*(?:to|until|till|through|thru|and|-|–|—|~|到|至)\s*")


def _relative(n: str, unit: str, lang: str) -> dict[str, Any]:
    amount = _number(n, lang)
    canonical = _UNITS_ZH.get(unit.replace("个", "")) if lang == "zh" else _UNITS_EN[unit]
    return {"relative": "last", "amount": amount, "unit": canonical}


def _number(text: str, lang: str) -> int:
    text = re.sub(r"\s+", " ", text.strip())
    if text.isdigit():
        return int(text)
    if lang == "zh":
        from memql.cognition.planner.rules.arguments import chinese_number

        return chinese_number(text) or 1
    return lexicon_en.NUMBER_WORDS.get(text, {"few": 3, "couple of": 2}.get(text, 1))


def _iso(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def without_spans(phrase: str, spans: list[tuple[int, int]]) -> str:
    out, pos = [], 0
    for start, end in sorted(spans):
        out.append(phrase[pos:start])
        pos = max(pos, end)
    out.append(phrase[pos:])
    return "".join(out)


def search_phrase(phrase: str, lang: str, time_spans: list[tuple[int, int]]) -> str:
    """The phrase as a search query: without the time expressions, leading determiners and trailers."""
    text = without_spans(phrase, time_spans)
    lex = lexicon_zh if lang == "zh" else lexicon_en
    folded = fold(text)
    text = text[len(folded) - len(lex.DETERMINERS.sub("", folded, count=1)) :]
    text = re.sub(r"(?i)\b(?:from|of|in|during|on|at|'s)\s*$", "", clean_phrase(text))
    text = re.sub(r"(?i)^(?:for|about|on|regarding|concerning|related to|of)\s+", "", text)
    if lang == "zh":  # "肖邦夜曲的那条记录": the topic, without the record noun it is said of
        text = re.sub(
            r"(?<=\S)的?(?:那|这)?(?:一)?(?:条|份|个|篇|些)?(?:记录|笔记|记忆|内容|事情?)$", "", text
        )
    return clean_phrase(re.sub(r"[\"“”「」『』]|(?<!\w)'|'(?!\w)", "", text))


def record_type(phrase: str, types: tuple[str, ...], lang: str) -> str | None:
    """A record kind the phrase names, when the store has records of that kind ("my tasks", 任务)."""
    if not types:
        return None
    folded = fold(phrase)
    if lang == "zh":
        for word, kind in lexicon_zh.TYPE_WORDS.items():
            if word in folded and kind in types:
                return kind
        return None
    for _, _, w in words(folded):
        kind = lexicon_en.TYPE_WORDS.get(w)
        if kind and kind in types:
            return kind
    return None


# --- the target ------------------------------------------------------------------------------------


def read_target(
    phrase: str, *, op: str, step: int, reading: Reading, write: bool, deletes: bool = False
) -> TargetReading:
    """The target of one step from its object phrase (see the module docstring for the order)."""
    lang, context = reading.lang, reading.context
    lex = lexicon_zh if lang == "zh" else lexicon_en
    folded = fold(phrase)
    ids = find_ids(folded, lang) or _leading_ids(folded, lang)
    if ids:
        return TargetReading({"ids": ids}, 0.95, "ids")
    content = content_words(phrase, lang)
    # "it", "these", or a definite generic noun alone ("the document", "the notes"): the records the
    # conversation is about — the previous step's, else the latest record
    deictic = (
        bool(lex.DEICTIC.search(folded))
        or not clean_phrase(folded)
        or (not content and _generic(folded, lang))
    )
    if step > 0 and deictic and not content:
        return TargetReading({"from_step": step - 1}, 0.9, "from_step")
    named = explicit_tags(phrase, lang)
    time = record_time(phrase, reading.now, lang)
    kind = record_type(phrase, context.types, lang)
    narrowing = _filter(time.time_range, kind)
    if named:
        return TargetReading({"filter": {"has_tags": named, **narrowing}}, 0.9, "tags")
    everything = bool(lex.ALL_WORDS.search(folded.strip())) and not _content_beyond(content, lang)
    if everything and not narrowing:
        if deletes:
            raise Clarify(
                "target",
                "deleting everything is not something to guess: name the records (ids, tags, a time range)",
                step,
            )
        if not write:
            return TargetReading({"filter": {}}, 0.8, "everything")
        return TargetReading({"all": True}, 0.8, "all")
    topic = without_spans(phrase, time.spans)
    mentions = tag_mentions(topic, context.tags, lang)
    tags = compatible(
        [t for t, negated in mentions if not negated], context.tag_sets, minimum=2 if op == "Merge" else 1
    )
    excluded = [t for t, negated in mentions if negated]
    if tags or excluded:
        confidence = 0.8 if len(tags) <= 2 else 0.7
        chosen: dict[str, Any] = {"has_tags": tags} if tags else {}
        if excluded:
            chosen["not_tags"] = excluded
        return TargetReading({"filter": {**chosen, **narrowing}}, confidence, "store_tags")
    if narrowing and not _content_beyond(content_words(topic, lang), lang):
        return TargetReading({"filter": narrowing}, 0.75, "filter")
    if deictic and not content_words(topic, lang):
        if step > 0:
            return TargetReading({"from_step": step - 1}, 0.85, "from_step")
        if deletes:
            raise Clarify("target", "which records should be deleted? Name them by id, tag or time", step)
        if context.recent_ids:
            note = f"'{clean_phrase(phrase) or 'it'}' read as the latest record ({context.recent_ids[0]})"
            return TargetReading({"ids": [context.recent_ids[0]]}, 0.5, "latest", [note])
        raise Clarify("target", f"{op}: which records? The store has none to refer to", step)
    query = search_phrase(phrase, lang, time.spans)
    if not query or not content_words(query, lang):
        if not write:
            return TargetReading({"filter": narrowing}, 0.6, "filter")
        raise Clarify(
            "target", f"{op}: which records? Give ids, tags, a time range or what they are about", step
        )
    if deletes:
        raise Clarify(
            "target",
            f"no record is tagged or numbered as '{query}': name the records to delete by id, tag or time",
            step,
        )
    search: dict[str, Any] = {"intent": {"query": query}}
    target: dict[str, Any] = {"search": search}
    if narrowing:
        target["filter"] = narrowing
    if write:  # a write acts on the best match for a singular noun, on every match for a plural one
        search["limit"] = 1 if _singular(query, lang) else WRITE_LIMIT
        return TargetReading(target, 0.55, "search", [f"records found by searching for '{query}'"])
    return TargetReading(target, 0.75, "search")


def _generic(folded: str, lang: str) -> bool:
    if lang == "zh":
        return any(noun in folded for noun in lexicon_zh.GENERIC_NOUNS)
    return any(w in lexicon_en.GENERIC_NOUNS for _, _, w in words(folded))


def _filter(time_range: dict[str, Any] | None, kind: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if time_range:
        out["time_range"] = time_range
    if kind:
        out["type"] = kind
    return out


def _content_beyond(content: list[str], lang: str) -> bool:
    ignore = {"all", "every", "everything", "my", "our"} if lang == "en" else {"所有", "全部", "一切"}
    kinds = lexicon_en.TYPE_WORDS if lang == "en" else lexicon_zh.TYPE_WORDS
    return any(w not in ignore and w not in kinds for w in content)


def _singular(query: str, lang: str) -> bool:
    if lang == "zh":
        return not re.search(r"(?:所有|全部|这些|那些|各|几|多)", query)
    head_part = re.split(
        r"\b(?:about|of|on|from|for|in|with|regarding|concerning|related|that|which|where|who|to|discussed|"
        r"mentioned|made|provided|containing|including)\b",
        fold(query),
        maxsplit=1,
    )[0]
    last = [w for _, _, w in words(head_part)] or [w for _, _, w in words(fold(query))]
    head = last[-1] if last else ""
    return not (head.endswith("s") and not head.endswith("ss")) and not re.search(
        r"\b(?:all|every|each)\b", query
    )
