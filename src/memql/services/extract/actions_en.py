"""The English grammar's tasks ("I need to…", "remind me to…", "TODO:") and decisions ("we decided to…",
"let's go with…"), each with its owner and the due time the clause names."""

from __future__ import annotations

from .common import Item, Reading, strip_span
from .patterns_en import _DECISION, _PLAN, _TASK


def _due(r: Reading, start: int, end: int):
    inside = r.times_in(start, end)
    return inside[0][2].start if inside else None


def read_tasks(r: Reading, pos: int, end: int) -> None:
    s = r.text
    m = _TASK.search(s, pos, end)
    if m is None:
        m = _PLAN.search(s, pos, end)
        if m is None or not r.times_in(m.start("task"), end):
            return
    t0, t1 = strip_span(s, m.start("task"), end)
    if t1 > t0:
        r.tasks.append(Item(s[t0:t1], r.speaker, _due(r, t0, t1), m.start(), t1))


def read_decisions(r: Reading, pos: int, end: int) -> bool:
    s = r.text
    m = _DECISION.search(s, pos, end)
    if m is None:
        return False
    t0, t1 = strip_span(s, m.start("what"), end)
    if t1 <= t0:
        return False
    r.decisions.append(Item(s[t0:t1], r.speaker, _due(r, t0, t1), m.start(), t1))
    return True
