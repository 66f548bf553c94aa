"""One clause -> one planned step (two for "remind me to …"): the verb's arguments and its target."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from memql.cognition.planner.rules import arguments as a
from memql.cognition.planner.rules import lexicon_en, lexicon_zh
from memql.cognition.planner.rules.model import Clarify, Clause, Reading, Step
from memql.cognition.planner.rules.targets import (
    TargetReading,
    explicit_tags,
    read_target,
    record_time,
    store_tags_in,
    without_spans,
)
from memql.cognition.planner.rules.text import capitalise, clean_phrase, fold, quoted
from memql.lang.time import find_natural

_EN_DEADLINE = r"(?:until|till|through|by|before|on|at)"


def build(clause: Clause, reading: Reading, index: int) -> list[Step]:
    """The steps one clause stands for. `index` is the position of its first step in the program."""
    lex = lexicon_zh if reading.lang == "zh" else lexicon_en
    external = lex.EXTERNAL.match(clause.body)
    if external:  # "send it to the team": not something a memory does; left out, and said so
        reading.notes.append(
            f"left out '{clause.text.strip()}': {external.group(0)} is not a memory operation"
        )
        return []
    verb = clause.verb
    if verb is None:
        if lex.QUESTION.search(clause.body.strip()):  # a question about the memory is a search
            return [_retrieve(clause, reading, index, question=True)]
        raise Clarify(
            "operation",
            f"no memory operation found in '{clause.text.strip()}': say what to do (save, find, tag, "
            "update, delete, summarize …)",
            index,
        )
    return BUILDERS[verb](clause, reading, index)


def _object(clause: Clause, reading: Reading, stops: str | None = None) -> str:
    start, end = a.object_span(clause, reading.lang, stops)
    return a.strip_trailers(clause.text[start:end], reading.lang)


def _target(clause: Clause, reading: Reading, index: int, phrase: str, *, write: bool, deletes: bool = False):
    found = read_target(
        phrase, op=clause.verb or "", step=index, reading=reading, write=write, deletes=deletes
    )
    return found


def _step(op: str, args: dict[str, Any], found: TargetReading | None, destructive: bool = False) -> Step:
    step = Step(op=op, args={k: v for k, v in args.items() if v is not None})
    if found is not None:
        step.target, step.confidence, step.assumptions = (
            found.target,
            found.confidence,
            list(found.assumptions),
        )
        step.destructive = destructive or found.kind == "all"
    else:
        step.destructive = destructive
    return step


# --- Encode ------------------------------------------------------------------------------------------


def _encode(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    rest = clause.text[clause.cue_end :]
    folded_rest = fold(rest)
    quotes = quoted(folded_rest)
    if quotes and quotes[0][0] <= 40 and (quotes[0][1] - quotes[0][0]) >= 8:  # "save 'the launch is friday'"
        text = rest[quotes[0][0] + 1 : quotes[0][1] - 1]
    else:
        text = _note_text(rest, lang)
    named = explicit_tags(clause.text, lang)
    text = _without_tag_phrases(text, lang) if named else text
    if not text:
        raise Clarify("content", "what should be saved? Give the text of the note", index)
    args: dict[str, Any] = {"payload": {"text": capitalise(text)}}
    tags = list(named)
    tags += [t for t in store_tags_in(text, reading.context.tags, lang) if t not in tags]
    if lang == "en":
        tags += [t for t in a.key_phrases(text) if t.lower() not in {x.lower() for x in tags}]
    if tags:
        args["tags"] = tags[:6]
    when = a.event_time(text, reading.now, lang)
    if when:
        args["time"] = when
    kind = _note_kind(clause.lower)
    if kind:
        args["type"] = kind
    weight = a.priority_level(
        fold(clause.text[: clause.cue_end]) + " " + _priority_phrase(clause.lower), lang
    )
    if weight is not None:
        args["weight"] = weight
    confidence = 0.85 if len(text) >= 12 else 0.7
    return [Step("Encode", args, None, confidence)]


def _note_text(rest: str, lang: str) -> str:
    if lang == "zh":
        text = re.sub(r"^(?:一下|下来|一条|一个|一份|:|：|，|,)+", "", rest.strip())
        text = re.sub(r"^(?:新的)?(?:笔记|备忘|记录|记忆|内容|任务|待办|事项)[:：]\s*", "", text)
        return a.strip_trailers(text, lang)
    text = rest.strip()
    text = re.sub(
        r"(?i)^(?:down|up|this|the\s+following|an?\s+(?:new\s+)?(?:note|memo|memory|record|entry|reminder|task|"
        r"to-?do|event|idea|fact|reference)"
        r"(?:\s+(?:saying|that|about|on|of|:))?|that|:|-)\s*:?\s*",
        "",
        text,
    )
    text = re.sub(r"(?i)^(?:that|:)\s*", "", text)
    return a.strip_trailers(text, lang)


def _without_tag_phrases(text: str, lang: str) -> str:
    pattern = (
        r"[，,]?\s*(?:并)?(?:标签为|打上|带有?).*$"
        if lang == "zh"
        else r"(?i)[,;]?\s*(?:and\s+)?(?:tagged|labell?ed|with\s+(?:the\s+)?tags?)\b.*$|\s*#\w+"
    )
    return clean_phrase(re.sub(pattern, "", text))


def _note_kind(folded: str) -> str | None:
    m = re.search(
        r"\b(?:as\s+an?|add\s+an?|new|create\s+an?)\s+(task|todo|to-do|event|reference|fact|idea)\b", folded
    )
    if m:
        return lexicon_en.TYPE_WORDS.get(m.group(1), m.group(1))
    m = re.search(r"(?:添加|新建|记录)一(?:个|条)(任务|待办|事件)", folded)
    return {"任务": "task", "待办": "task", "事件": "event"}.get(m.group(1)) if m else None


def _priority_phrase(folded: str) -> str:
    m = re.search(r"\b(?:as|with|at)\s+(?:an?\s+)?\w+[\s-]+priority\b|(?:高|低|最高|紧急)优先级", folded)
    return m.group(0) if m else ""


# --- reads -------------------------------------------------------------------------------------------

_READ_LEAD_EN = re.compile(
    r"(?i)^(?:\s*(?:for|me|us|up|all|any|about|on|of|regarding|from|the\s+key\s+points\s+(?:of|from|in)|what|"
    r"everything|anything|something|stuff|things|the)\b\s*)+"
)
_COUNT_ORDER_EN = re.compile(
    r"(?i)\b(?:(?:the\s+)?(?:top|first|last|latest|newest|oldest|most\s+recent)\s+(?:\d+|two|three|four|five|six|"
    r"seven|eight|nine|ten|twenty)|(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+(?:most\s+recent|"
    r"latest|newest|oldest|last|most\s+important)|(?:most\s+recent|latest|newest|oldest|most\s+important))\b\s*"
)


def _read_phrase(clause: Clause, reading: Reading) -> str:
    phrase = _object(
        clause,
        reading,
        r"\s+(?:focus(?:ing)?\s+on|with\s+a\s+focus|in\s+(?:under\s+)?\d+\s+"
        r"(?:words|tokens)|sorted|ordered|as\s+of)\b",
    )
    if reading.lang == "en":
        phrase = _READ_LEAD_EN.sub("", _COUNT_ORDER_EN.sub("", phrase))
    else:
        phrase = re.sub(r"^(?:一下|出|出来|所有|关于|有关)+", "", phrase)
        phrase = re.sub(r"(?:的?(?:关键|主要|核心)?(?:要点|结论|内容|总结|摘要|记录))$", "", phrase) or phrase
    return clean_phrase(phrase)


def _retrieve(clause: Clause, reading: Reading, index: int, question: bool = False) -> Step:
    lower = clause.lower
    if question and clause.cue is None:
        body = re.sub(
            r"^(?:what|which|when|where|who|how)\s+(?:is|are|was|were|did|do|does|about)?\s*",
            "",
            clause.text[clause.body_offset :].strip(),
            flags=re.I,
        )
        phrase = clean_phrase(re.sub(r"[吗呢？?]+$", "", body))
    else:
        phrase = _read_phrase(clause, reading)
    found = _target(clause, reading, index, phrase, write=False)
    target = found.target or {"filter": {}}
    k = _top_k(lower)
    order = _order(lower)
    if "search" in target and (k or order):
        overrides = target["search"].setdefault("overrides", {})
        if k:
            overrides["k"] = k
        if order:
            overrides["order_by"] = order
    elif k:
        target.setdefault("filter", {})["limit"] = k
    args: dict[str, Any] = {}
    as_of = re.search(r"\bas\s+of\s+(.+)$", clause.text, re.I)
    if as_of:
        spans = find_natural(as_of.group(1), reading.now, reading.lang)
        if spans:
            args["as_of"] = spans[0][2].end.strftime("%Y-%m-%dT%H:%M:%SZ")
    step = _step("Retrieve", args, found)
    step.target = target
    return step


def _top_k(folded: str) -> int | None:
    m = (
        re.search(
            r"\b(?:top|first|latest|last|most\s+recent|newest)\s+(\d+|two|three|four|five|six|seven|eight|"
            r"nine|ten|twenty)\b",
            folded,
        )
        or re.search(
            r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+(?:most\s+recent|latest|newest|"
            r"oldest|last)\b",
            folded,
        )
        or re.search(r"(?:最近|前|最新)的?(\d+|[一二两三四五六七八九十]+)(?:条|个|份)", folded)
    )
    if not m:
        return None
    n = a.amount(m.group(1))
    return int(n) if n and 1 <= n <= 1000 else None


def _order(folded: str) -> str | None:
    if re.search(r"\b(?:latest|newest|most\s+recent|recent\s+first|newest\s+first)\b|最新|最近的", folded):
        return "time_desc"
    if re.search(r"\b(?:oldest|earliest)\b|最早", folded):
        return "time_asc"
    if re.search(r"\bmost\s+important\b|最重要", folded):
        return "weight_desc"
    return None


def _summarize(clause: Clause, reading: Reading, index: int) -> list[Step]:
    phrase = _read_phrase(clause, reading)
    found = _target(clause, reading, index, phrase, write=False)
    args: dict[str, Any] = {"focus": _focus(clause, reading.lang)}
    m = re.search(r"\b(?:in|within|under|at\s+most)\s+(?:under\s+)?(\d+)\s+(words|tokens)\b", clause.lower)
    if m:
        n = int(m.group(1))
        args["max_tokens"] = max(16, min(4096, n if m.group(2) == "tokens" else round(n * 1.4)))
    elif re.search(r"\b(?:brief(?:ly)?|short|quick|concise|one[- ]line)\b|简要|简短|一句话", clause.lower):
        args["max_tokens"] = 100
    elif re.search(r"\b(?:detailed|comprehensive|thorough|full)\b|详细|全面", clause.lower):
        args["max_tokens"] = 512
    return [_step("Summarize", args, found)]


def _focus(clause: Clause, lang: str) -> str | None:
    text = clause.text
    m = re.search(r"(?i)\bfocus(?:ing|ed)?\s+on\s+(.+)$|\bwith\s+a\s+focus\s+on\s+(.+)$", text)
    if m:
        return a.strip_trailers(m.group(1) or m.group(2), lang) or None
    m = re.search(
        r"(?i)\b((?:key|main|essential|important|major)\s+(?:points?|decisions?|takeaways?|outcomes?|"
        r"ideas?|findings?|themes?|issues?)|action\s+items?|lessons\s+learned|next\s+steps)\b",
        text,
    )
    if m:
        return m.group(1).lower()
    m = re.search(r"(关键(?:点|决策|结论)|要点|主要(?:观点|内容|结论)|行动项|经验教训|下一步)", text)
    return m.group(1) if m else None


# --- writes -------------------------------------------------------------------------------------------


def _update(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    if lang == "zh":
        m = re.search(
            r"(?:改为|改成|更新为|修改为|调整为|设为|设置为|更正为|换成|为|成)[:：]?",
            clause.lower[clause.cue_start :],
        )
        split = clause.cue_start + m.start() if m else None
        value_at = clause.cue_start + m.end() if m else clause.cue_end
        if split is not None and split < clause.cue_end:  # the cue itself ends in the marker ("更新为")
            split = None
        start, end = a.object_span(clause, lang)
        if split is not None and start >= clause.cue_end:
            end = split
        phrase = clause.text[start:end]
        value = a.strip_trailers(clause.text[value_at:], lang)
    else:
        stops = (
            r"\s+(?:to\s+(?:say|read|reflect|include|show|state|mention|note|indicate|note)\b|to\b|with\b|"
            r"so\s+(?:that\s+)?it\s+(?:says|reads)|as\b|from\s+.+?\s+to\b)"
        )
        start, end = a.object_span(clause, lang, stops)
        phrase = clause.text[start:end]
        value = clause.text[end:]
        value = re.sub(
            r"(?i)^\s*(?:to\s+(?:say|read|reflect|include|show|state|mention|note|indicate)(?:\s+that)?|"
            r"to|with|so\s+(?:that\s+)?it\s+(?:says|reads)|as|from\s+.+?\s+to)\s*:?\s*",
            "",
            value,
        )
        value = a.strip_trailers(value, lang)
    phrase = a.strip_trailers(phrase, lang)
    folded_phrase = fold(phrase)
    set_: dict[str, Any] = {}
    quotes = a.quoted_values(value)
    field = _field_named(folded_phrase, lang)
    if field == "weight":
        weight = a.priority_level(fold(value) + " priority", lang) or a.priority_level(fold(value), lang)
        if weight is None:
            raise Clarify("value", "which priority? (low, normal, high, urgent)", index)
        set_["weight"] = weight
    elif field == "tags":
        set_["tags"] = a.tag_list(value, lang)
    elif field in ("subject", "location", "topic", "type"):
        set_[field] = quotes[0] if quotes else clean_phrase(value)
    elif field == "time" and find_natural(value, reading.now, lang):
        set_["time"] = find_natural(value, reading.now, lang)[0][2].start.strftime("%Y-%m-%dT%H:%M:%SZ")
    elif value:
        set_["text"] = capitalise(value if not (quotes and len(quotes[0]) > 0.6 * len(value)) else quotes[0])
    phrase = re.sub(
        r"(?i)^(?:the\s+)?(?:text|content|wording|description|title|name|priority|importance|tags?|"
        r"type|subject|location|topic|time|date)\s+(?:of|for|in)\s+",
        "",
        phrase,
    )
    if not set_ or not any(set_.values()):
        raise Clarify("value", f"what should '{clean_phrase(phrase) or 'it'}' be changed to?", index)
    found = _target(clause, reading, index, phrase, write=True)
    return [_step("Update", {"set": set_}, found)]


def _field_named(folded: str, lang: str) -> str | None:
    if lang == "zh":
        table = (
            ("优先级", "weight"),
            ("重要性", "weight"),
            ("标签", "tags"),
            ("类型", "type"),
            ("主题", "topic"),
            ("地点", "location"),
            ("时间", "time"),
            ("日期", "time"),
        )
        for word, name in table:
            if folded.endswith(word) or folded.endswith(word + "的"):
                return name
        return None
    m = re.match(
        r"^(?:the\s+)?(priority|importance|tags?|labels?|type|kind|subject|location|place|topic|time|date|"
        r"deadline|due\s+date|schedule)\b",
        folded,
    )
    if not m:
        return None
    word = m.group(1)
    return {
        "priority": "weight",
        "importance": "weight",
        "tag": "tags",
        "tags": "tags",
        "label": "tags",
        "labels": "tags",
        "type": "type",
        "kind": "type",
        "subject": "subject",
        "location": "location",
        "place": "location",
        "topic": "topic",
    }.get(word, "time")


def _label(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    mode = clause.cue.mode if clause.cue else None
    cue_text = clause.text[clause.cue_start : clause.cue_end]
    if lang == "zh":
        m = re.search(r"(?:为|成|上)(?=\S)", clause.lower[clause.cue_end :])
        start, end = a.object_span(clause, lang)
        if m and start >= clause.cue_end:
            end = clause.cue_end + m.start()
        tags_at = clause.cue_end + (m.end() if m else 0)
        tag_text = clause.text[tags_at:] if start < clause.cue_end or m else clause.text[end:]
        phrase = clause.text[start:end]
        inline = re.search(r"(?:打上?|加上?|添加|贴上?)(?P<tag>.+?)的?标签$", cue_text)  # "加上预算标签"
        tags = (
            a.quoted_values(cue_text)
            or (a.tag_list(inline.group("tag"), lang) if inline and inline.group("tag").strip() else [])
            or a.tag_list(re.sub(r"(?:的)?标签$", "", tag_text), lang)
        )
        if mode == "remove" and not clean_phrase(phrase):  # "删除记录5上的'草稿'标签": the record is inside
            phrase = re.sub(
                r"^(?:删除|删掉|去掉|移除|取消)|['\"「」“”‘’][^'\"「」“”‘’]*['\"「」“”‘’]|上?的?标签$",
                "",
                cue_text,
            )
    else:
        in_cue = a.quoted_values(cue_text)
        if mode == "remove" or in_cue:  # "remove the 'x' tag from Y", "add an 'x' label to Y"
            m = re.search(r"\s+(?:from|to|on|onto)\s+", clause.lower[clause.cue_end :])
            start = clause.cue_end + (m.end() if m else 0)
            phrase = clause.text[start:]
            tags = in_cue or a.tag_list(
                clause.text[clause.cue_end : start - (m.end() - m.start()) if m else None], lang
            )
        else:
            # the tags follow the last "as" ("mark the email with subject 'X' as important"), else "with",
            # "under", "into", ":"
            last_as = [m.start() for m in re.finditer(r"\s+as\s+(?=\S)", clause.lower[clause.cue_end :])]
            stops = (
                r"\s+as\s+(?=\S)(?!.*\s+as\s+\S)"
                if last_as
                else r"\s+(?:with|under|into|to\s+be|:)\s*(?=\S)|:\s*"
            )
            start, end = a.object_span(clause, lang, stops)
            phrase = clause.text[start:end]
            rest = clause.text[end:]
            rest = re.sub(r"(?i)^\s*(?:as|with|under|into|to\s+be|:)\s*", "", rest)
            tags = a.tag_list(rest, lang) if rest.strip() else []
            if not tags:  # "tag it 'demo'": the tags are quoted right after the object
                after = clause.text[clause.cue_end :]
                tags = a.quoted_values(after)
                first = quoted(fold(after))
                if tags and first:
                    phrase = after[: first[0][0]]
    phrase = a.strip_trailers(phrase, lang)
    if not tags:
        raise Clarify("tags", "which tags? Say them, e.g. tag it as 'urgent'", index)
    found = _target(clause, reading, index, phrase, write=True)
    return [_step("Label", {"tags": tags, "mode": mode or "add"}, found)]


_WEIGHT_STOPS_EN = (
    r"\s+(?:as|to|by|because|since|due\s+to|for|so)\b(?=.{0,40}(?:priority|important|urgent|weight))"
)


def _weight_phrase(clause: Clause, reading: Reading) -> str:
    if reading.lang == "zh":
        start, end = a.object_span(clause, "zh")
        inner = re.search(
            r"^(?:提高|提升|调高|上调|增加|降低|调低|下调|减少)(.*?)的?(?:优先级|重要性|权重)$",
            clause.text[clause.cue_start : clause.cue_end],
        )
        if inner and inner.group(1).strip() and start >= clause.cue_end:
            return a.strip_trailers(inner.group(1), "zh")
        return a.strip_trailers(clause.text[start:end], "zh")
    cue = clause.lower[clause.cue_start : clause.cue_end]
    m = re.search(r"\b(?:priority|importance|weight|rank(?:ing)?)\b", cue)
    if m and clause.cue_start == clause.body_offset:  # "raise the priority of X"
        rest = clause.text[clause.cue_end :]
        rest = re.sub(r"(?i)^\s*(?:level\s+)?(?:of|for|on)\s+", "", rest)
        return a.strip_trailers(re.split(_WEIGHT_STOPS_EN, rest, maxsplit=1, flags=re.I)[0], "en")
    phrase = _object(clause, reading, r"\s+(?:as|to|because|since|due\s+to|so|and\s+(?:add|set|put|make))\b")
    return re.sub(r"(?i)^(?:the\s+)?(?:priority|importance)\s+(?:level\s+)?of\s+", "", phrase)


def _promote(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    if clause.cue is not None and clause.cue.remind:
        return _reminder(clause, reading, index)
    level = a.priority_level(clause.lower, lang)
    args: dict[str, Any] = {"reason": a.reason(clause, lang)}
    if level is not None:
        args["weight"] = level
    else:
        args["weight_delta"] = 0.3
    recurrence = a.rrule(clause.lower, lang)
    if recurrence:
        args["remind"] = {"rrule": recurrence}
    found = _target(clause, reading, index, _weight_phrase(clause, reading), write=True)
    return [_step("Promote", args, found)]


def _reminder(clause: Clause, reading: Reading, index: int) -> list[Step]:
    """ "remind me to call Bob every Monday" saves the note and schedules it; "remind me about the report
    every Friday" schedules an existing record."""
    lang = reading.lang
    recurrence = a.rrule(clause.lower, lang) or "FREQ=DAILY;COUNT=1"
    rest = clause.text[clause.cue_end :]
    cleaned = re.sub(
        r"(?i)\s*\b(?:every\s+(?:other\s+)?\w+|daily|weekly|monthly|yearly)\b|每(?:个)?(?:周|星期)?[一二三四五六日天]?",
        "",
        rest,
    ).strip()
    new_note = re.match(r"(?i)^\s*(?:to|that)\s+", cleaned) or (
        lang == "zh" and not re.match(r"^\s*(?:关于|一下)", cleaned)
    )
    if new_note:
        text = re.sub(r"(?i)^\s*(?:to|that)\s+", "", cleaned)
        text = a.strip_trailers(re.sub(r"^(?:要|去)", "", text), lang)
        if not text:
            raise Clarify("content", "remind you of what?", index)
        note = Step("Encode", {"payload": {"text": capitalise(text)}}, None, 0.8)
        remind = Step("Promote", {"remind": {"rrule": recurrence}}, {"from_step": index}, 0.8)
        return [note, remind]
    phrase = re.sub(r"(?i)^\s*(?:about|of|关于)\s*", "", cleaned)
    found = _target(clause, reading, index, phrase, write=True)
    return [_step("Promote", {"remind": {"rrule": recurrence}}, found)]


def _demote(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    args: dict[str, Any] = {"reason": a.reason(clause, lang)}
    if clause.cue is not None and clause.cue.archive:
        args["archive"] = True
    else:
        level = a.priority_level(clause.lower, lang)
        if level is not None and level < 0.5:
            args["weight"] = level
        else:
            args["weight_delta"] = -0.3
    found = _target(clause, reading, index, _weight_phrase(clause, reading), write=True)
    return [_step("Demote", args, found)]


def _priority(clause: Clause, reading: Reading, index: int) -> list[Step]:
    """ "set X to high priority": up for high/urgent, down for low, a plain Update for normal."""
    level = a.priority_level(clause.lower, reading.lang)
    if level is None:
        raise Clarify("value", "which priority? (low, normal, high, urgent)", index)
    phrase = _weight_phrase(clause, reading)
    phrase = re.sub(
        r"(?i)^(?:set|make|mark|flag|change|update|adjust)\s+(?:the\s+)?(?:priority|importance)?\s*(?:of)?\s*",
        "",
        phrase,
    )
    found = _target(clause, reading, index, phrase, write=True)
    if level > 0.5:
        return [_step("Promote", {"weight": level, "reason": a.reason(clause, reading.lang)}, found)]
    if level < 0.5:
        return [_step("Demote", {"weight": level, "reason": a.reason(clause, reading.lang)}, found)]
    return [_step("Update", {"set": {"weight": level}}, found)]


def _delete(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    lex = lexicon_zh if lang == "zh" else lexicon_en
    hard = bool(lex.HARD_DELETE.search(clause.lower))
    phrase = _object(clause, reading, r"\s+(?:because|since|as\s+(?:it|they|we)|due\s+to)\b")
    args: dict[str, Any] = {"soft": not hard, "reason": a.reason(clause, lang)}
    older = (
        re.search(
            r"\b(?:older\s+than|more\s+than|over)\s+(.+?)\s*(?:old)?\b(?=\s*$|[,.;]|\s+(?:and|from))",
            fold(phrase),
        )
        if lang == "en"
        else re.search(r"(?:超过|早于|大于)(.+?)(?:的|之前|以前)", fold(phrase))
    )
    if older:
        found_durations = a.durations(older.group(1), lang)
        if found_durations:
            args["older_than"] = found_durations[0][2]
            phrase = phrase[: older.start()] + phrase[older.end() :]
    if re.search(
        r"\b(?:everything|all\s+(?:my\s+)?memories)\b|^(?:所有|全部|一切)$", fold(phrase).strip()
    ) and not (record_time(phrase, reading.now, lang).time_range or args.get("older_than")):
        raise Clarify(
            "target", "deleting everything is not something to guess: name the records to delete", index
        )
    if args.get("older_than") and not a.strip_trailers(
        re.sub(r"(?i)\b(?:all|records?|memories|notes|everything)\b", "", phrase), lang
    ):
        found = TargetReading({"filter": {}}, 0.8, "filter")
    else:
        found = _target(clause, reading, index, phrase, write=True, deletes=True)
    return [_step("Delete", args, found, destructive=hard)]


def _merge(clause: Clause, reading: Reading, index: int) -> list[Step]:
    if re.search(r"\b(?:summary|summaries|overview|digest)\b|摘要|总结", clause.lower[clause.cue_end :]):
        return _summarize(clause, reading, index)  # "combine the findings into a summary" asks for a summary
    phrase = _object(clause, reading, r"\s+(?:into|in\s+to|together|as\s+one)\b")
    args: dict[str, Any] = {}
    primary = re.search(
        r"\binto\s+(?:record|memory|note|item|entry|id|#)\s*#?\s*(\d+)\b", clause.lower
    ) or re.search(r"(?:合并到|并入|合并进)(?:记录|记忆|#)?\s*(\d+)", clause.lower)
    if primary:
        args["primary_id"] = primary.group(1)
    if re.search(
        r"\bkeep(?:ing)?\s+(?:the\s+)?(?:originals?|both|all|sources?|children|them)\b|without\s+deleting|"
        r"保留原",
        clause.lower,
    ):
        args["soft_delete_children"] = False
    found = _target(clause, reading, index, phrase, write=True)
    ids = (found.target or {}).get("ids")
    if ids is not None:
        if primary and primary.group(1) not in ids:
            ids.insert(0, primary.group(1))
        if len(ids) < 2:
            raise Clarify("records", "merging needs at least two records: name the others", index)
    return [_step("Merge", args, found)]


def _split(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    if lang == "zh":
        start, end = a.object_span(clause, lang)
        if start >= clause.cue_end:
            m = re.search(r"(?:成|为|按|按照|根据)", clause.text[clause.cue_end :])
            end = clause.cue_end + m.start() if m else end
        else:  # "把记录8按句子拆分": the manner sits between the object and the verb
            m = re.search(r"(?:按照|按|根据|以)", clause.text[start:end])
            end = start + m.start() if m else end
        how = clause.text[end:]
    else:
        start, end = a.object_span(
            clause, lang, r"\s+(?:into|in\s+to|by|based\s+on|according\s+to|per|along|at)\b"
        )
        how = clause.text[end:]
    phrase = a.strip_trailers(clause.text[start:end], lang)
    args = _split_args(how, clause.text, lang)
    found = _target(clause, reading, index, phrase, write=True)
    return [_step("Split", args, found)]


def _split_args(how: str, whole: str, lang: str) -> dict[str, Any]:
    folded = fold(how)
    if re.search(r"\bsentences?\b|句子|每句|逐句|按句", folded):
        m = re.search(r"(\d+)\s+sentences?\s+(?:each|per)|每(\d+)句", folded)
        params = {"max_sentences": int(m.group(1) or m.group(2))} if m else {}
        return (
            {"strategy": "by_sentences", "params": {"by_sentences": params}}
            if params
            else {"strategy": "by_sentences"}
        )
    if re.search(r"\bparagraphs?\b|段落|每段|按段", folded):
        return {"strategy": "custom", "params": {"custom": {"delimiters": ["\n\n"]}}}
    if re.search(r"\blines?\b|每行|按行", folded):
        return {"strategy": "custom", "params": {"custom": {"delimiters": ["\n"]}}}
    m = re.search(
        r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:equal\s+)?(?:parts|chunks|pieces|"
        r"segments|sections|blocks)\b",
        folded,
    ) or re.search(r"([一二两三四五六七八九十\d]+)(?:个)?(?:部分|块|段|份|片段)", folded)
    names = _named_parts(how, lang)
    if names and len(names) >= 2:
        return {"strategy": "custom", "params": {"custom": {"topics": names}}}
    if m:
        n = a.amount(m.group(1))
        if n and n >= 2:
            return {"strategy": "by_chunks", "params": {"by_chunks": {"num_chunks": int(n)}}}
    return {"strategy": "custom", "params": {"custom": {"instruction": clean_phrase(whole)[:10_000]}}}


def _named_parts(how: str, lang: str) -> list[str]:
    """ "into background, results and next steps" / "拆分为技术评估和预算计划两部分": the parts by name."""
    if lang == "zh":
        m = re.search(
            r"(?:成|为)(.+?)(?:[一二两三四五六七八九十\d]+(?:个)?(?:部分|块|段|阶段|类))?(?:[，,。]|$)", how
        )
        if not m:
            return []
        parts = re.split(r"[、，,和与及]|以及", m.group(1))
        return [
            p
            for p in (clean_phrase(re.sub(r"^(?:一部分是|部分是)", "", x)) for x in parts)
            if p and len(p) <= 30
        ]
    m = re.match(
        r"(?i)\s*(?:into|by)\s+(?!\d|two|three|four|five|separate|different|several|multiple|smaller|"
        r"individual|sections|parts|chunks|pieces|topics|themes|sentences|paragraphs)(.+)$",
        how,
    )
    if not m:
        return []
    parts = re.split(r"\s*(?:,|\band\b|&)\s*", a.strip_trailers(m.group(1), lang))
    return [
        clean_phrase(re.sub(r"(?i)^(?:the|a|an|one\s+(?:for|on|about))\s+", "", p))
        for p in parts
        if p.strip()
    ]


def _lock(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    mode = (clause.cue.mode if clause.cue else None) or "read_only"
    stops = (
        r"\s+(?:to\s+(?:prevent|avoid|ensure|keep|maintain|make|protect|preserve|stop|secure|finali[sz]e|"
        r"guarantee)|so\b|from\s+(?:any\s+|further\s+|all\s+)?(?:edit|change|modif|update|unauthori)|until\b|"
        r"for\s+(?:\d+|the\s+next|a|an|one|two|three)\b|because|since|as\s+(?:it|they)|against\b|and\s+keep)"
    )
    phrase = _object(clause, reading, stops)
    phrase = re.sub(
        r"(?i)\s+(?:from\s+(?:any\s+)?(?:edits|changes|modifications)|to\s+keep\s+it\s+unchanged)$",
        "",
        phrase,
    )
    args: dict[str, Any] = {"mode": mode}
    if mode != "unlock":
        args["reason"] = a.reason(clause, lang)
        policy: dict[str, Any] = {}
        m = (
            re.search(r"\b(?:until|till|through)\s+(.+)$", clause.text, re.I)
            if lang == "en"
            else re.search(r"(?:直到|到|至)(.+?)(?:为止|之前|$)", clause.text)
        )
        spans = find_natural(m.group(1), reading.now, lang) if m else []
        if spans:
            policy["expires"] = spans[0][2].end.strftime("%Y-%m-%dT%H:%M:%SZ")
        else:
            d = re.search(r"\bfor\s+(?:the\s+next\s+)?(.+)$", clause.lower) if lang == "en" else None
            found_durations = a.durations(d.group(1) if d else clause.lower if lang == "zh" else "", lang)
            if found_durations:
                from memql.lang.time import add_duration, parse_duration

                expires = add_duration(reading.now, parse_duration(found_durations[0][2]))
                policy["expires"] = expires.strftime("%Y-%m-%dT%H:%M:%SZ")
        if policy:
            args["policy"] = policy
    found = _target(clause, reading, index, phrase, write=True)
    return [_step("Lock", args, found, destructive=True)]


def _expire(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    folded = clause.lower
    args: dict[str, Any] = {"on_expire": _on_expire(folded, lang)}
    horizon_at = len(folded)
    found_durations = a.durations(folded, lang)
    until = None
    if lang == "en":
        m = re.search(
            r"\b"
            + _EN_DEADLINE
            + r"\s+(?!(?:\d+|a|an|one|two|three)\s+(?:days?|weeks?|months?|years?))(.+)$",
            folded[clause.cue_start :],
        )
        if m:
            spans = find_natural(clause.text[clause.cue_start + m.start(1) :], reading.now, lang)
            if spans:
                until = spans[0][2]
                horizon_at = min(horizon_at, clause.cue_start + m.start())
    else:
        m = re.search(r"(?:保留到|保留至|到|至|直到|截止)(.+)", folded)
        if m:
            spans = find_natural(m.group(1), reading.now, lang)
            if spans:
                until = spans[0][2]
                horizon_at = min(horizon_at, m.start())
    if found_durations and until is None:
        args["ttl"] = found_durations[0][2]
        horizon_at = min(horizon_at, _horizon_start(folded, found_durations[0][0], lang))
    elif until is not None:
        args["until"] = until.end.strftime("%Y-%m-%dT%H:%M:%SZ")
    else:
        raise Clarify(
            "horizon", "expire when? Give a time (until next Friday) or a period (in 30 days)", index
        )
    start, end = a.object_span(clause, lang)
    if start >= clause.cue_end:
        end = min(end, max(start, horizon_at))
    phrase = a.strip_trailers(clause.text[start:end], lang)
    phrase = without_spans(phrase, [(s, e) for s, e, _ in a.durations(fold(phrase), lang)])
    phrase = re.sub(r"(?:之?后|以后)$", "", phrase.strip())
    phrase = re.sub(
        r"(?i)^(?:for|of|on)\s+(?:the\s+)?|\s+(?:to\s+(?:be\s+)?(?:expire|removed|deleted|archived)|"
        r"to|and|should|will)\s*$",
        "",
        phrase,
    ).strip()
    found = _target(clause, reading, index, phrase, write=True)
    return [_step("Expire", args, found, destructive=args["on_expire"] == "hard_delete")]


def _horizon_start(folded: str, at: int, lang: str) -> int:
    if lang == "zh":
        return at
    m = re.search(r"(?:\b(?:in|after|within|for)\s+(?:the\s+next\s+)?)$", folded[:at])
    return m.start() if m else at


def _on_expire(folded: str, lang: str) -> str:
    if lang == "zh":
        for words, action in (
            ("永久删除|彻底删除", "hard_delete"),
            ("归档|存档", "archive"),
            ("降级|降低", "demote"),
            ("匿名", "anonymize"),
            ("删除|清除|移除", "soft_delete"),
        ):
            if re.search(words, folded):
                return action
        return "soft_delete"
    if re.search(r"\b(?:permanently|for\s+good|hard[- ]delete|purge[sd]?)\b", folded):
        return "hard_delete"
    if re.search(r"\barchiv\w*", folded):
        return "archive"
    if re.search(r"\b(?:anonymi[sz]\w*|redact\w*)", folded):
        return "anonymize"
    if re.search(r"\b(?:demot\w*|lower\s+(?:the\s+)?priority|deprioriti[sz]\w*)", folded):
        return "demote"
    return "soft_delete"


BUILDERS: dict[str, Callable[[Clause, Reading, int], list[Step]]] = {
    "Encode": _encode,
    "Retrieve": lambda c, r, i: [_retrieve(c, r, i)],
    "Summarize": _summarize,
    "Update": _update,
    "Label": _label,
    "Promote": _promote,
    "Demote": _demote,
    "Priority": _priority,
    "Delete": _delete,
    "Merge": _merge,
    "Split": _split,
    "Lock": _lock,
    "Expire": _expire,
}
