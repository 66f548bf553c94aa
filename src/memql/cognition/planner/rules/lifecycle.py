"""Reading Delete, Merge, Split, Lock and Expire: the lifecycle of records."""

from __future__ import annotations

import re
from typing import Any

from memql.cognition.planner.rules import arguments as a
from memql.cognition.planner.rules import lexicon_en, lexicon_zh
from memql.cognition.planner.rules.common import make_step, object_phrase, target_of
from memql.cognition.planner.rules.model import Clarify, Clause, Reading, Step
from memql.cognition.planner.rules.reads import summarize_step
from memql.cognition.planner.rules.targets import (
    TargetReading,
    blank_ids,
    find_ids,
    record_time,
    without_spans,
)
from memql.cognition.planner.rules.text import clean_phrase, fold
from memql.lang.time import find_natural

_EN_DEADLINE = r"(?:until|till|through|by|before|on|at)"


def delete_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    lex = lexicon_zh if lang == "zh" else lexicon_en
    hard = bool(lex.HARD_DELETE.search(clause.lower))
    phrase = object_phrase(clause, reading, r"\s+(?:because|since|as\s+(?:it|they|we)|due\s+to)\b")
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
        found = target_of(clause, reading, index, phrase, write=True, deletes=True)
    # any Delete read from natural language waits for confirmation, soft or hard: a misread instruction
    # must not remove a record unasked
    return [make_step("Delete", args, found, destructive=True)]


def merge_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
    # "combine the findings into a summary" asks for a summary
    if re.search(r"\b(?:summary|summaries|overview|digest)\b|摘要|总结", clause.lower[clause.cue_end :]):
        return summarize_step(clause, reading, index)
    phrase = object_phrase(clause, reading, r"\s+(?:into|in\s+to|together|as\s+one)\b")
    args: dict[str, Any] = {}
    primary = _primary_id(clause.lower, reading.lang)
    if primary:
        args["primary_id"] = primary
    if re.search(
        r"\bkeep(?:ing)?\s+(?:the\s+)?(?:originals?|both|all|sources?|children|them)\b|without\s+deleting|"
        r"保留原",
        clause.lower,
    ):
        args["soft_delete_children"] = False
    found = target_of(clause, reading, index, phrase, write=True)
    ids = (found.target or {}).get("ids")
    if ids is not None:
        if primary and primary not in ids:
            ids.insert(0, primary)
        if len(ids) < 2:
            raise Clarify("records", "merging needs at least two records: name the others", index)
    return [make_step("Merge", args, found)]


def _primary_id(folded: str, lang: str) -> str | None:
    """The record the others merge into: "into record 4", "in item 4", "keep item 2 as the one that stays",
    "并入第4项", "集中到4号记录", "保留第2项作为主记录"."""
    if lang == "zh":
        marker = re.search(r"(?:合并到|并入|合并进|集中到|归并到|保留(?=.{0,12}?(?:作为|为)主))", folded)
    else:
        marker = re.search(
            r"\b(?:into|in|keep)\s+(?=(?:the\s+)?(?:record|memory|note|item|entry|id|#)\s*#?\s*\d)", folded
        )
    found = find_ids(folded[marker.end() :], lang) if marker else []
    return found[0] if found else None


def split_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
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
    found = target_of(clause, reading, index, phrase, write=True)
    return [make_step("Split", args, found)]


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


def lock_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
    lang = reading.lang
    mode = (clause.cue.mode if clause.cue else None) or "read_only"
    stops = (
        r"\s+(?:to\s+(?:prevent|avoid|ensure|keep|maintain|make|protect|preserve|stop|secure|finali[sz]e|"
        r"guarantee)|so\b|from\s+(?:any\s+|further\s+|all\s+)?(?:edit|change|modif|update|unauthori)|until\b|"
        r"for\s+(?:\d+|the\s+next|a|an|one|two|three)\b|because|since|as\s+(?:it|they)|against\b|and\s+keep)"
    )
    phrase = object_phrase(clause, reading, stops)
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
    found = target_of(clause, reading, index, phrase, write=True)
    return [make_step("Lock", args, found, destructive=True)]


def _bare_time(clause: Clause, reading: Reading) -> tuple[Any, int]:
    """The first time expression of the clause outside its record numbers (11号 is a record, not the 11th),
    and where it starts; (None, end) when there is none."""
    text = blank_ids(clause.lower, reading.lang)
    for start, _, span in find_natural(text, reading.now, reading.lang):
        if span.end <= reading.now or re.search(r"(?i)\b(?:from|since|of)\s+(?:the\s+)?$|从$", text[:start]):
            continue  # "notes from last week": when the records are from, not when they expire
        return span, start
    return None, len(text)


def expire_step(clause: Clause, reading: Reading, index: int) -> list[Step]:
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
    if until is None and not found_durations:  # "expire tomorrow", "11号明天过期": a time said bare
        until, at = _bare_time(clause, reading)
        horizon_at = min(horizon_at, at)
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
    found = target_of(clause, reading, index, phrase, write=True)
    return [make_step("Expire", args, found, destructive=args["on_expire"] == "hard_delete")]


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
