"""Reading Update, Label, Promote, Demote and priority levels: what changes on the records."""

from __future__ import annotations

import re
from typing import Any

from memql.cognition.planner.rules import arguments as a
from memql.cognition.planner.rules import lexicon_en, lexicon_zh
from memql.cognition.planner.rules.common import make_step, object_phrase, target_of
from memql.cognition.planner.rules.model import Clarify, Clause, Reading, Step
from memql.cognition.planner.rules.targets import RECORD_NOUNS_EN, find_ids
from memql.cognition.planner.rules.text import capitalise, clean_phrase, fold, mask_quotes, quoted
from memql.lang.time import find_natural

# --- writes -------------------------------------------------------------------------------------------


def update_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
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
        raw_value = clause.text[value_at:]
        value = a.strip_trailers(raw_value, lang)
    else:
        stops = (
            r"\s+(?:to\s+(?:say|read|reflect|include|show|state|mention|note|indicate|note)\b|to\b|with\b|"
            r"so\s+(?:that\s+)?it\s+(?:says|reads)|as\b|into\b|from\s+.+?\s+to\b)"
        )
        start, end = a.object_span(clause, lang, stops)
        phrase = clause.text[start:end]
        # the object before the verb ("the dentist moved to Friday"): the value is what follows the verb
        value = clause.text[clause.cue_end if end <= clause.cue_start else end :]
        value = re.sub(
            r"(?i)^\s*(?:to\s+(?:say|read|reflect|include|show|state|mention|note|indicate)(?:\s+that)?|"
            r"to|with|so\s+(?:that\s+)?it\s+(?:says|reads)|as|into|from\s+.+?\s+to)\s*:?\s*",
            "",
            value,
        )
        raw_value = value
        value = a.strip_trailers(value, lang)
    phrase = a.strip_trailers(phrase, lang)
    whole = a.quoted_values(raw_value)
    if len(whole) == 1 and re.search(r"[\"'”’」』]\W*$", raw_value.strip()):
        value = whole[0]  # '…, it should read: "<the new text>"': the quoted text, verbatim
    field = None
    if lang == "zh":  # the field may sit in the cue ("的时间设为") or right before the marker ("权重改为")
        field = _field_named(
            fold(
                phrase + re.sub(r"(?:设为|设置为|设成)$", "", clause.text[clause.cue_start : clause.cue_end])
            ),
            lang,
        )
    elif not value.strip() or re.match(r"(?i)\s*(?:weight|priority|importance|location|place)\s+\S", value):
        # "update record 2: weight 0.15", "update the notes tagged 'x': location Lyon"
        named = re.match(
            r"(?is)^(?P<phrase>.+?)\s*[:,;]\s*(?P<field>weight|priority|importance|location|place|subject|topic|"
            r"type|kind|time|date|tags?)\s*(?:to\s+|is\s+|=\s*|:\s*)?(?P<value>\S.*)$",
            phrase + (":" + value if value.strip() else ""),
        )
        if named:
            phrase, value = named.group("phrase"), a.strip_trailers(named.group("value"), lang)
            field = _field_named(fold(named.group("field")), lang)
    folded_phrase = fold(phrase)
    set_: dict[str, Any] = {}
    quotes = a.quoted_values(value) or whole
    field = (
        field
        or _field_named(folded_phrase, lang)
        or _kind_value(value, lang)
        or _time_value(value, reading, lang)
    )
    if field == "weight" and a.explicit_weight("to " + fold(value), "en") is not None:
        set_["weight"] = a.explicit_weight("to " + fold(value), "en")
    elif field == "type" and _kind_value(value, lang):
        set_["type"] = _kind_of(value, lang)
    elif field == "weight":
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
    found = target_of(clause, reading, index, phrase, write=True)
    return [make_step("Update", {"set": set_}, found)]


def _kind_of(value: str, lang: str) -> str | None:
    """A record kind a new value names: "an idea", "a reference note", "想法类型", "参考资料"."""
    folded = fold(value).strip()
    if lang == "zh":
        folded = re.sub(r"(?:类型|类|的)$", "", folded)
        return lexicon_zh.TYPE_WORDS.get(folded)
    m = re.fullmatch(r"(?:an?\s+|the\s+)?([\w-]+)(?:\s+(?:note|item|record|entry|memory|type|kind))?", folded)
    kind = lexicon_en.TYPE_WORDS.get(m.group(1)) if m else None
    return kind if kind != "note" or (m and m.group(1).startswith("note")) else None


def _kind_value(value: str, lang: str) -> str | None:
    return "type" if value and _kind_of(value, lang) else None


def _time_value(value: str, reading: Reading, lang: str) -> str | None:
    """ "time" when the new value is nothing but a time ("moved to June 22 at 07:30 UTC", "改到了8月2日")."""
    if not value or a.quoted_values(value):
        return None
    folded = fold(value)
    spans = find_natural(folded, reading.now, lang)
    if not spans:
        return None
    rest = folded
    for start, end, _ in sorted(spans, reverse=True):
        rest = rest[:start] + rest[end:]
    rest = re.sub(r"(?i)\b(?:utc|gmt|on|at|to|the)\b|[（()）,，.。\s]", "", rest)
    return "time" if not rest else None


def _field_named(folded: str, lang: str) -> str | None:
    if lang == "zh":
        table = (
            ("优先级", "weight"),
            ("权重", "weight"),
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


# the records named by number or pronoun, then the tags unquoted: "tag memory 3 okr and meeting", "tag them
# weekend"
_REF_THEN_TAGS = re.compile(
    rf"(?i)(?P<ref>(?:(?:{RECORD_NOUNS_EN})\s*#?\s*)?#?\d+"
    r"(?:\s*(?:,|and|&)\s*#?\d+)*|it|them|this|that|these|those|this one|that one)\s+(?P<tags>[^'\"]+)$"
)


def label_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    mode = clause.cue.mode if clause.cue else None
    cue_text = clause.text[clause.cue_start : clause.cue_end]
    if lang == "zh" and mode == "remove":
        phrase, tags = _zh_removed_tags(clause)
    elif lang == "zh":
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
            phrase = re.sub(r"(?i)^\s*(?:of|on|from)\s+", "", phrase)  # "… from the tags of note 7"
            between_end = start - (m.end() - m.start()) if m else None
            named = None if m or in_cue else _REF_THEN_TAGS.match(phrase.strip())
            if named is not None:  # "untag 7 meeting": the record, then the tags
                phrase = named["ref"]
            tags = (
                in_cue
                or _en_tags_in_cue(cue_text)
                or (a.tag_list(named["tags"], lang) if named is not None else [])
                or a.tag_list(clause.text[clause.cue_end : between_end], lang)
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
            if not tags and (named := _REF_THEN_TAGS.match(phrase.strip())) is not None:
                phrase, tags = named["ref"], a.tag_list(named["tags"], lang)  # "tag memory 3 okr and meeting"
            if not tags:  # "tag it 'demo'": the tags are quoted right after the object
                after = clause.text[clause.cue_end :]
                tags = a.quoted_values(after)
                first = quoted(fold(after))
                if tags and first:
                    phrase = after[: first[0][0]]
    phrase = a.strip_trailers(phrase, lang)
    if not tags:
        raise Clarify("tags", "which tags? Say them, e.g. tag it as 'urgent'", index)
    found = target_of(clause, reading, index, phrase, write=True)
    return [make_step("Label", {"tags": tags, "mode": mode or "add"}, found)]


def _en_tags_in_cue(cue_text: str) -> list[str]:
    """The tags named inside a removal cue: "remove the draft and wip tags", "strip urgent from the tags"."""
    inner = re.sub(
        r"(?i)^\s*(?:remove|delete|drop|strip|take(?:\s+off)?|erase|clear|pull|untag\w*|unlabel\w*)\s*"
        r"(?:the\s+)?|\s*(?:(?:from|off(?:\s+of)?)\s+(?:(?:the|its|their)\s+)?)?(?:tags?|labels?)\s*$|"
        r"\s+off\s*$",
        "",
        cue_text,
    )
    return [t.lstrip("#") for t in a.tag_list(inner, "en") if t.lstrip("#")] if inner.strip() else []


def _zh_removed_tags(clause: Clause) -> tuple[str, list[str]]:
    """The record and the tags of a Chinese tag removal: "把记忆7的标签草稿去掉", "把草稿标签从记忆7去掉",
    "删除记录5上的'草稿'标签", "去掉记忆7的标签'草稿'"."""
    text = clause.text
    if text[clause.cue_start : clause.cue_start + 1] == "把":  # 把 <record + tags> <verb>
        verb = re.search(lexicon_zh.TAG_REMOVERS + r"$", text[clause.cue_start : clause.cue_end])
        inner = text[clause.cue_start + 1 : clause.cue_start + (verb.start() if verb else clause.cue_end)]
        inner = re.sub(r"(?:都|全部|全|给)$", "", inner)
    else:  # <verb> <record + tags>: the tags may follow the tag word ("去掉记忆7的标签'草稿'")
        verb = re.match(lexicon_zh.TAG_REMOVERS, text[clause.cue_start :])
        inner = a.strip_trailers(text[clause.cue_start + (verb.end() if verb else 0) :], "zh")
    masked = mask_quotes(fold(inner))
    record, tag_part = "", inner
    source = re.search(r"从", masked)
    if source:  # "草稿标签从记忆7(上)": tags before 从, the record after
        tag_part, record = inner[: source.start()], inner[source.end() :]
    else:
        words = list(re.finditer(r"(?:标签|标记)", masked))
        if words:
            w = words[-1]
            before, after = inner[: w.start()], inner[w.end() :]
            after_clean = re.sub(r"^\s*(?:为|是|[:：])?\s*", "", after)
            if after_clean.strip():  # "记忆7的标签草稿"
                record, tag_part = before, after_clean
            else:  # "记忆7的草稿标签", "记录5上的'草稿'标签"
                of = masked.rfind("的", 0, w.start())
                record, tag_part = (before[:of], before[of + 1 :]) if of >= 0 else ("", before)
    record = re.sub(r"(?:的?(?:标签|标记))?(?:上|中|里)?的?$", "", record.strip())
    tags = a.quoted_values(tag_part) or a.tag_list(re.sub(r"(?:标签|标记)", "", tag_part), "zh")
    return record, tags


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
    phrase = object_phrase(
        clause, reading, r"\s+(?:as|to|because|since|due\s+to|so|and\s+(?:add|set|put|make))\b"
    )
    return re.sub(r"(?i)^(?:the\s+)?(?:priority|importance)\s+(?:level\s+)?of\s+", "", phrase)


def promote_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    if clause.cue is not None and clause.cue.remind:
        return _reminder(clause, reading, index)
    level = a.explicit_weight(clause.lower, lang)
    level = a.priority_level(clause.lower, lang) if level is None else level
    args: dict[str, Any] = {"reason": a.reason(clause, lang)}
    if level is not None:
        args["weight"] = level
    else:
        args["weight_delta"] = 0.3
    recurrence = a.rrule(clause.lower, lang)
    if recurrence:
        args["remind"] = {"rrule": recurrence}
    found = target_of(clause, reading, index, _weight_phrase(clause, reading), write=True)
    return [make_step("Promote", args, found)]


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
    named = find_ids(fold(clause.text), lang)  # "每周五提醒我第2项", "给第1项设一个提醒": an existing record
    new_note = not named and (
        re.match(r"(?i)^\s*(?:to|that)\s+", cleaned)
        or (lang == "zh" and not re.match(r"^\s*(?:关于|一下)", cleaned))
    )
    if named:
        found = target_of(clause, reading, index, clause.text, write=True)
        return [make_step("Promote", {"remind": {"rrule": recurrence}}, found)]
    if new_note:
        text = re.sub(r"(?i)^\s*(?:to|that)\s+", "", cleaned)
        text = a.strip_trailers(re.sub(r"^(?:要|去)", "", text), lang)
        if not text:
            raise Clarify("content", "remind you of what?", index)
        note = Step("Encode", {"payload": {"text": capitalise(text)}}, None, 0.8)
        remind = Step("Promote", {"remind": {"rrule": recurrence}}, {"from_step": index}, 0.8)
        return [note, remind]
    phrase = re.sub(r"(?i)^\s*(?:about|of|关于)\s*", "", cleaned)
    found = target_of(clause, reading, index, phrase, write=True)
    return [make_step("Promote", {"remind": {"rrule": recurrence}}, found)]


def demote_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    args: dict[str, Any] = {"reason": a.reason(clause, lang)}
    if clause.cue is not None and clause.cue.archive:
        args["archive"] = True
    else:
        level = a.explicit_weight(clause.lower, lang)
        level = a.priority_level(clause.lower, lang) if level is None else level
        if level is not None and level < 0.5:
            args["weight"] = level
        else:
            args["weight_delta"] = -0.3
    found = target_of(clause, reading, index, _weight_phrase(clause, reading), write=True)
    return [make_step("Demote", args, found)]


def priority_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
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
    found = target_of(clause, reading, index, phrase, write=True)
    if level > 0.5:
        return [make_step("Promote", {"weight": level, "reason": a.reason(clause, reading.lang)}, found)]
    if level < 0.5:
        return [make_step("Demote", {"weight": level, "reason": a.reason(clause, reading.lang)}, found)]
    return [make_step("Update", {"set": {"weight": level}}, found)]
