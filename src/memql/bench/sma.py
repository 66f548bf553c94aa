"""SMA (schema matching accuracy): how close a planned program is to the gold `schema_list`.

Following the Text2Mem Bench, the planned program and the gold program are compared as text, two ways:

* SMA-Lev, the normalised Levenshtein similarity ``1 - lev(p, g) / max(|p|, |g|)`` (1.0 = identical);
* SMA-Cos, the cosine similarity of their sentence embeddings (all-MiniLM-L6-v2, the embedder memql
  ships), clipped to [0, 1].

The text of a program is its canonical JSON: each step as memql's validator emits it (defaults spelled
out, instants in UTC, the write cap written in, so a spelling variant of the same IR is not a difference),
the `meta` of each step and of the workflow left out (who asks and whether it was confirmed is not part
of the plan), serialised with sorted keys and no whitespace. A step that does not validate is compared
as written (its keys sorted). A sample the planner could not plan scores 0 on both.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Any

from memql.lang import validate


def program_text(program: Any, now: datetime | None = None) -> str:
    """The canonical JSON text of a program (an IR, a list of IRs, or {"workflow": [...]})."""
    steps = program.get("workflow") if isinstance(program, dict) and "workflow" in program else program
    if not isinstance(steps, list):
        steps = [steps]
    checked = validate(steps if len(steps) != 1 else steps[0], now=now)
    if checked.valid and checked.canonical is not None:
        steps = checked.canonical.get("workflow", [checked.canonical])
    bodies = [{k: v for k, v in s.items() if k != "meta"} if isinstance(s, dict) else s for s in steps]
    return json.dumps(bodies, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions of one character), computed bit-parallel
    (Myers 1999, in Hyyrö's formulation): one pass over `a` with the columns of `b` as the bits of an int."""
    if len(a) < len(b):
        a, b = b, a
    m = len(b)
    if m == 0:
        return len(a)
    peq: dict[str, int] = {}
    for i, ch in enumerate(b):
        peq[ch] = peq.get(ch, 0) | (1 << i)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    pv, mv, score = full, 0, m
    for ch in a:
        eq = peq.get(ch, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = (mv | ~(xh | pv)) & full
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = (mh | ~(xv | ph)) & full
        mv = ph & xv
    return score


def lev_similarity(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else 1.0 - levenshtein(a, b) / longest


def cosine(u: list[float], v: list[float]) -> float:
    dot = sum(x * y for x, y in zip(u, v, strict=True))
    norm = math.sqrt(sum(x * x for x in u)) * math.sqrt(sum(y * y for y in v))
    return 0.0 if norm == 0 else max(0.0, min(1.0, dot / norm))


def sma(
    predicted: Any, gold: Any, *, now: datetime | None = None, embedder: Any = None
) -> tuple[float, float | None]:
    """(SMA-Lev, SMA-Cos) of one sample; SMA-Cos is None without an embedder. No program scores 0."""
    return scores(predicted, gold, now=now, embedder=embedder)[:2]


def scores(
    predicted: Any, gold: Any, *, now: datetime | None = None, embedder: Any = None
) -> tuple[float, float | None, bool]:
    """(SMA-Lev, SMA-Cos, exact) of one sample, each program's canonical text made once; exact is the
    Text2Mem paper's SMA: the two texts are equal. No program scores 0 and is not exact."""
    if predicted is None:
        return 0.0, (0.0 if embedder is not None else None), False
    p, g = program_text(predicted, now), program_text(gold, now)
    lev = lev_similarity(p, g)
    if embedder is None:
        return lev, None, p == g
    vectors = embedder.embed([p, g])
    return lev, cosine(list(vectors[0]), list(vectors[1])), p == g
