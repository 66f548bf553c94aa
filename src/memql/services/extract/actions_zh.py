"""The Chinese grammar's tasks (我得/需要/必须…, 提醒我…, 我要… with a time) and decisions
(我们决定…, 就这么定了), as actions_en.py is the English one's."""

from __future__ import annotations

from .common import Item, Reading, strip_span
from .patterns_zh import _DECISION, _TASK


def read_tasks(r: Reading, a: int, b: int) -> None:
    m = _TASK.search(r.text, a, b)
    if m is None:
        return
    group = "task" if m["task"] else "task2" if m["task2"] else "task3"
    if m["verb"] == "要" and not r.times_in(a, b):
        return  # 我要… is as often "I want" as "I must": a task only with a time
    t0, t1 = strip_span(r.text, m.start(group), b)
    if t1 > t0:
        inside = r.times_in(a, b)
        r.tasks.append(Item(r.text[t0:t1], r.speaker, inside[0][2].start if inside else None, a, t1))


def read_decision(r: Reading, a: int, b: int) -> bool:
    m = _DECISION.match(r.text, a, b)
    if m is None:
        return False
    t0, t1 = (m.start("what"), b) if m["what"] else (a, b)
    t0, t1 = strip_span(r.text, t0, t1)
    inside = r.times_in(a, b)
    r.decisions.append(Item(r.text[t0:t1], r.speaker, inside[0][2].start if inside else None, a, t1))
    return True
