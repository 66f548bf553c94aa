"""Reading Encode, Retrieve and Summarize: what to save, what to find, what to sum up."""

from __future__ import annotations

import re
from typing import Any

from memql.cognition.planner.rules import arguments as a
from memql.cognition.planner.rules import lexicon_en, lexicon_zh
from memql.cognition.planner.rules.common import make_step, object_phrase, target_of
from memql.cognition.planner.rules.model import Clarify, Clause, Reading, Step
from memql.cognition.planner.rules.targets import explicit_tags, store_tags_in
from memql.cognition.planner.rules.text import capitalise, clean_phrase, fold, quoted
from memql.lang.time import find_natural

# --- Encode ------------------------------------------------------------------------------------------


def encode_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
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
    head = _preamble(rest, reading, lang)  # "Save an event for May 12 at 14:00: <the note>"
    if head is not None:
        text = _note_text(rest[len(head) + 1 :], lang)
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
    when = a.event_time(text, reading.now, lang) or (a.event_time(head, reading.now, lang) if head else None)
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
        r"\b(?:as\s+an?|add\s+an?|new|create\s+an?|(?:save|store|log|record|remember|keep)\s+an?)\s+"
        r"(task|todo|to-do|event|reference|fact|idea)\b",
        folded,
    )
    if m:
        return lexicon_en.TYPE_WORDS.get(m.group(1), m.group(1))
    m = re.search(
        r"(?:添加|新建|记录|保存|存|记)一(?:个|条)(?:[^：:，,。]{0,30}?的)?(任务|待办|事件|日程|想法)", folded
    )
    return lexicon_zh.TYPE_WORDS.get(m.group(1)) if m else None


_PREAMBLE_WORDS_EN = frozenset(
    {
        "a",
        "an",
        "the",
        "new",
        "note",
        "memo",
        "record",
        "entry",
        "event",
        "task",
        "todo",
        "to-do",
        "idea",
        "fact",
        "reference",
        "for",
        "on",
        "at",
        "about",
        "with",
        "tag",
        "tags",
        "tagged",
        "label",
        "labelled",
        "utc",
        "gmt",
    }
)
_PREAMBLE_ZH = re.compile(
    r"一(?:个|条|笔|份)|新的?|的|日程|事件|任务|待办|想法|记录|笔记|备忘|标签|为|是|[（(]?utc[)）]?|[，,\s]"
)


def _preamble(rest: str, reading: Reading, lang: str) -> str | None:
    """The words before a colon when they only say what kind of note it is, when it is and how it is tagged
    ("an event for May 12, 2026 at 14:00 UTC", "a note, tagged '2025'", "一个5月12日14:00的日程"): the note is
    what follows the colon."""
    m = re.search(r"[:：]", rest)
    if not m or m.start() > 80 or not rest[m.end() :].strip():
        return None
    head = rest[: m.start()]
    folded = fold(head)
    for start, end, _ in sorted(find_natural(folded, reading.now, lang), reverse=True):
        folded = folded[:start] + " " + folded[end:]
    folded = re.sub(r"[\"“”「」『』'‘’][^\"“”「」『』'‘’]*[\"“”「」『』'‘’]", " ", folded)
    if lang == "zh":
        return head if not _PREAMBLE_ZH.sub("", folded).strip() else None
    left = [w for w in re.findall(r"[\w'-]+", folded) if w not in _PREAMBLE_WORDS_EN and not w.isdigit()]
    return head if not left else None


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


_FOCUS_EN = (
    r"(?:focus(?:ing|ed)?\s+on|with\s+a\s+focus\s+on|mostly\s+(?:about|on)|mainly\s+(?:about|on)|especially)"
)
_FOCUS_ZH = r"(?:重点(?:关注|是|在于?|放在)|侧重(?:于)?|主要(?:关于|是关于|讲))"


def _read_phrase(clause: Clause, reading: Reading) -> str:
    stops = r"[\s,;]+(?:" + _FOCUS_EN + r"|in\s+(?:under\s+)?\d+\s+(?:words|tokens)|sorted|ordered|as\s+of)\b"
    after = clause.lower[clause.cue_end :]
    cue_of = re.search(r"\s(?:of|on)$", clause.lower[clause.cue_start : clause.cue_end])
    if (
        reading.lang == "en"
        and clause.cue_start > clause.body_offset
        and (cue_of or re.match(r"\s+(?:of|on)\s+", after))
    ):
        # a noun cue with its object after it: "I need a quick recap of recipes"
        rest = clause.text[clause.cue_end :]
        rest = re.sub(r"(?i)^\s+(?:of|on)\s+", "", rest)
        phrase = re.split(stops, rest, maxsplit=1, flags=re.I)[0]
    else:
        phrase = object_phrase(clause, reading, stops)
    if reading.lang == "zh" and phrase.startswith("用") and clause.text[clause.cue_end :].strip():
        phrase = clause.text[clause.cue_end :]  # "用不超过30个token总结X": 用… is how, X is what
    if reading.lang == "en":
        phrase = _READ_LEAD_EN.sub("", _COUNT_ORDER_EN.sub("", phrase))
    else:
        phrase = re.sub(r"[，,]?\s*" + _FOCUS_ZH + r".*$", "", phrase)
        phrase = re.sub(r"^(?:一下|出|出来|所有|关于|有关|一份|一个|一下)+", "", phrase)
        phrase = re.sub(r"的?(?:简要|简短|详细|快速|全面)的?$", "", phrase)
        phrase = re.sub(r"(?:的?(?:关键|主要|核心)?(?:要点|结论|内容|总结|摘要|记录))$", "", phrase) or phrase
    return clean_phrase(phrase)


def retrieve_step(clause: Clause, reading: Reading, index: int, question: bool = False) -> Step:
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
    found = target_of(clause, reading, index, phrase, write=False)
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
    step = make_step("Retrieve", args, found)
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


def summarize_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
    phrase = _read_phrase(clause, reading)
    found = target_of(clause, reading, index, phrase, write=False)
    args: dict[str, Any] = {"focus": _focus(clause, reading.lang)}
    m = re.search(
        r"\b(?:in|within|under|at\s+most)\s+(?:under\s+)?(\d+)\s+(words|tokens)\b"
        r"|(?:不超过|最多|限|在)\s*(\d+)\s*个?\s*(token|词)",
        clause.lower,
    )
    if m:
        n = int(m.group(1) or m.group(3))
        unit = m.group(2) or m.group(4)
        args["max_tokens"] = max(16, min(4096, n if unit in ("tokens", "token") else round(n * 1.4)))
    elif re.search(r"\b(?:brief(?:ly)?|short|quick|concise|one[- ]line)\b|简要|简短|一句话", clause.lower):
        args["max_tokens"] = 100
    elif re.search(r"\b(?:detailed|comprehensive|thorough|full)\b|详细|全面", clause.lower):
        args["max_tokens"] = 512
    return [make_step("Summarize", args, found)]


def _focus(clause: Clause, lang: str) -> str | None:
    text = clause.text
    m = re.search(r"(?i)\b" + _FOCUS_EN + r"\s+(.+)$", text) or re.search(_FOCUS_ZH + r"[:：]?\s*(.+)$", text)
    if m:
        focus = re.sub(r"(?i)^(?:the|a|an)\s+", "", a.strip_trailers(m.group(1), lang))
        return focus or None
    m = re.search(
        r"(?i)\b((?:key|main|essential|important|major)\s+(?:points?|decisions?|takeaways?|outcomes?|"
        r"ideas?|findings?|themes?|issues?)|action\s+items?|lessons\s+learned|next\s+steps)\b",
        text,
    )
    if m:
        return m.group(1).lower()
    m = re.search(r"(关键(?:点|决策|结论)|要点|主要(?:观点|内容|结论)|行动项|经验教训|下一步)", text)
    return m.group(1) if m else None
