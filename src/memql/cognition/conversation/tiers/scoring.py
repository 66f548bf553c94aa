"""The tiers' arithmetic: text vectors, Fscore (cos + Jaccard of keywords) and segment heat.

Vectors come from the Memory's embedder when it has one (unit vectors, so cos is a dot product). With no
embedder, cos is taken between bag-of-words vectors of the lexical analyzer's tokens: an offline stand-in
that keeps Fscore's two terms meaningful (the Jaccard term alone rarely reaches θ).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from memql.ports.models import Embedder
from memql.services import jaccard, keywords, tokens
from memql.services.tokenize import STOP_WORDS

Vector = tuple[float, ...] | dict[str, float]


class Vectorizer:
    """Turns texts into vectors comparable by `cos`: dense (embedder) or sparse lexical (none)."""

    def __init__(self, embedder: Embedder | None) -> None:
        self.embedder = embedder
        # the participants' names: every page of a conversation involves them, so they say nothing about
        # its topic (left in, "Caroline" would make every page and every question about Caroline alike)
        self.names: set[str] = set()

    def vectors(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        if self.embedder is not None:
            return [tuple(v) for v in self.embedder.embed(list(texts))]
        return [_lexical(t, self.names) for t in texts]

    def vector(self, text: str) -> Vector:
        return self.vectors([text])[0]

    def keywords(self, text: str, limit: int) -> list[str]:
        return [k for k in keywords(text, limit + len(self.names)) if k not in self.names][:limit]

    def learn_names(self, role: str) -> None:
        self.names.update(t for t in tokens(role) if t not in STOP_WORDS)


def _lexical(text: str, ignore: set[str]) -> dict[str, float]:
    counts = Counter(t for t in tokens(text) if t not in STOP_WORDS and t not in ignore and not t.isnumeric())
    norm = math.sqrt(sum(c * c for c in counts.values()))
    return {t: c / norm for t, c in counts.items()} if norm else {}


def cos(a: Vector, b: Vector) -> float:
    if isinstance(a, dict) and isinstance(b, dict):
        small, large = (a, b) if len(a) <= len(b) else (b, a)
        return sum(w * large.get(t, 0.0) for t, w in small.items())
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return sum(x * y for x, y in zip(a, b, strict=True))
    return 0.0  # vectors of different kinds (an embedder was added or removed): no evidence either way


def fscore(a_vec: Vector, a_keywords: Sequence[str], b_vec: Vector, b_keywords: Sequence[str]) -> float:
    """MemoryOS's Fscore = cos(e_a, e_b) + Jaccard(K_a, K_b)."""
    return cos(a_vec, b_vec) + jaccard(a_keywords, b_keywords)


def text_keywords(text: str, limit: int = 10) -> list[str]:
    return keywords(text, limit)


def heat(
    visits: int,
    interactions: int,
    last_access: datetime | None,
    now: datetime,
    *,
    alpha: float,
    beta: float,
    gamma: float,
    mu_s: float,
) -> float:
    """heat = α·N_visit + β·L_interaction + γ·exp(−Δt/μ), Δt in seconds since the last access (0 when the
    segment was never accessed: it was just created)."""
    dt = max(0.0, (now - last_access).total_seconds()) if last_access is not None else 0.0
    return alpha * visits + beta * interactions + gamma * math.exp(-dt / mu_s)
