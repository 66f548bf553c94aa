"""Cutting an instruction into steps ("first … then …", "先…再…") and reading each step's verb."""

from __future__ import annotations

import re

from memql.cognition.planner.rules import lexicon_en, lexicon_zh
from memql.cognition.planner.rules.model import Clarify, Clause, Cue
from memql.cognition.planner.rules.text import fold, mask_quotes


def lexicon(lang: str):
    return lexicon_zh if lang == "zh" else lexicon_en


def split_steps(text: str, lang: str) -> list[Clause]:
    """The instruction's steps, in order, each with its verb read (a piece without a verb of its own
    continues the step before it: a second sentence of a note to save is not a new operation)."""
    lex = lexicon(lang)
    folded = fold(text)
    masked = mask_quotes(folded)
    opener = lex.STEP_OPENERS.match(masked.lstrip())
    start = (len(masked) - len(masked.lstrip())) + (opener.end() if opener else 0)
    cuts = [start]
    ends = []
    for m in lex.STEP_MARKERS.finditer(masked, start):
        if m.start() <= cuts[-1]:
            continue
        ends.append(m.start())
        cuts.append(m.end())
    ends.append(len(text))
    if lang == "zh" and opener is not None:  # 先…再…: 再 begins the second step
        more_cuts, more_ends = [], []
        for s, e in zip(cuts, ends, strict=True):
            m = lex.THEN_AFTER_FIRST.search(masked, s, e)
            if m and m.start() > s and _starts_with_cue(masked[m.end() : e], lang):
                more_cuts += [s, m.end()]
                more_ends += [m.start(), e]
            else:
                more_cuts.append(s)
                more_ends.append(e)
        cuts, ends = more_cuts, more_ends
    pieces = [(s, e) for s, e in zip(cuts, ends, strict=True) if text[s:e].strip()]
    pieces = [p for s, e in pieces for p in _split_on_and(masked, s, e, lang)]
    merged: list[list[int]] = []
    for s, e in pieces:
        clause = read_verb(text[s:e], 0, lang)
        own_verb = (
            clause.cue is not None
            or lex.EXTERNAL.match(clause.body)
            or lex.QUESTION.search(clause.lower.strip())
        )
        previous = read_verb(text[merged[-1][0] : merged[-1][1]], 0, lang) if merged else None
        on_expiry = (
            previous is not None and previous.verb == "Expire" and re.match(_ON_EXPIRY, clause.lower.strip())
        )  # "expire it in a month; delete it then": what the expiry does, not a second step
        if (not own_verb or on_expiry) and merged:
            merged[-1][1] = e  # a continuation: the previous step runs on
        else:
            merged.append([s, e])
    return [read_verb(text[s:e].strip(), i, lang) for i, (s, e) in enumerate(merged)]


_ON_EXPIRY = (
    r"(?:then\s+)?(?:archive|delete|remove|erase|purge|anonymi[sz]e|demote)\s+(?:it|them)"
    r"(?:\s+(?:then|at\s+that\s+point|afterwards|when\s+(?:it|they)\s+expires?))?\s*[.!]?$|"
    r"(?:到时|到期后?|届时)(?:就|再)?(?:归档|删除|删掉)"
)


def _split_on_and(masked: str, start: int, end: int, lang: str) -> list[tuple[int, int]]:
    """Split "X and Y" / "X，并Y" where Y opens with a verb of its own, unless X saves a note whose content
    runs on ("remember that … and …")."""
    head = read_verb(masked[start:end], 0, lang)
    if head.cue is None:
        return [(start, end)]
    # a note's text runs on ("remember that X and Y"): only an imperative about the note itself
    # ("… and tag it 'demo'") starts a new step
    note = head.verb == "Encode" and _content_follows(head)
    pattern = (
        lexicon_en.AND_SPLIT if lang == "en" else re.compile(r"[，,、]\s*(?:并且?|再|同时)?|并且?(?=\S)")
    )
    for m in pattern.finditer(masked, start + head.cue_end, end):
        rest = masked[m.end() : end]
        if not rest.strip():
            continue
        external = lexicon(lang).EXTERNAL.match(rest.strip())
        # "，给它们打上周末标签", "，把它们删掉": the records named back before the verb
        pointed = _POINTED_ZH.match(rest) if lang == "zh" else None
        if not (_starts_with_cue(rest[pointed.end() :] if pointed else rest, lang) or external):
            continue
        if note and not (external or _refers_back(rest, lang)):
            continue
        if head.verb == "Expire" and re.match(r"\s*(?:archive|delete|remove|erase|purge|归档|删除)", rest):
            continue  # "expire it in a month and archive it": what expiry does, not a second step
        if head.verb in ("Summarize", "Retrieve") and re.match(r"\s*(?:重点|侧重|主要关于)", rest):
            continue  # "总结…，重点关注X": what to focus on, not a Promote
        return [(start, m.start()), *_split_on_and(masked, m.end(), end, lang)]
    return [(start, end)]


_POINTED_ZH = re.compile(
    r"\s*(?:再|然后)?(?:给|把|将)(?:它们?|这些|那些|这几条|那几条|这条|那条|他们|她们)(?:都|全)?"
)


def _refers_back(text: str, lang: str) -> bool:
    return bool(lexicon(lang).DEICTIC.search(text[:60]))


def _content_follows(clause: Clause) -> bool:
    """The note's text runs on after the verb ("remember that …", "save a note: …")."""
    return bool(
        re.match(
            r"\s*(?:(?:down\s+)?(?:an?\s+(?:new\s+)?(?:note|memo|memory|record|entry|reminder|task|to-?do|event|idea)"
            r"\s*)?(?:that\b|:|saying\b|\"|')|[:：]|(?:一条|一个)?(?:笔记|备忘|记录)?[:：])",
            clause.after_cue,
        )
    )


def _starts_with_cue(text: str, lang: str) -> bool:
    clause = read_verb(text, 0, lang)
    return clause.cue is not None and clause.cue_start == clause.body_offset


def read_verb(text: str, index: int, lang: str) -> Clause:
    """The clause with its verb: the cue at the head of the imperative when there is one, else the
    earliest cue anywhere (longest first on a tie). Two verbs joined by "or" are ambiguous."""
    lex = lexicon(lang)
    folded = fold(text)
    masked = mask_quotes(folded)
    polite = lex.POLITE.match(masked)
    body_offset = polite.end() if polite else 0
    body_offset += len(masked[body_offset:]) - len(masked[body_offset:].lstrip())
    clause = Clause(text=text, lower=folded, index=index, body=folded[body_offset:], body_offset=body_offset)
    best: tuple[re.Match[str], Cue] | None = None
    for cue in lex.CUES:
        for m in cue.regex.finditer(masked, body_offset):
            if cue.where == "start" and m.start() != body_offset:
                continue
            key = (m.start(), -(m.end() - m.start()))
            if best is None or key < (best[0].start(), -(best[0].end() - best[0].start())):
                best = (m, cue)
            break
    if best is not None:
        m, clause.cue = best
        clause.cue_start, clause.cue_end = m.start(), m.end()
        obj = m.groupdict().get("obj") or ""
        if obj.strip() and lex.DETERMINERS.sub("", obj.strip()).strip():
            clause.cue_object = m.span("obj")
        _refuse_alternatives(clause, masked, lang)
    return clause


def _refuse_alternatives(clause: Clause, masked: str, lang: str) -> None:
    """ "delete or archive the notes": two operations offered as alternatives; the user must choose."""
    joiner = re.compile(r"\s+or\s+|\s*/\s*" if lang == "en" else r"\s*(?:或者|或是|还是|或)\s*")
    m = joiner.match(masked, clause.cue_end)
    if not m:
        return
    other = read_verb(masked[m.end() :], clause.index, lang)
    if other.cue is not None and other.cue_start == 0 and other.verb != clause.verb:
        raise Clarify(
            "operation",
            f"'{clause.text.strip()}' offers two operations ({clause.verb} or {other.verb}): say which one",
            clause.index,
        )
