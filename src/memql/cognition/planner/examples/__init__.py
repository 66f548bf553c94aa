"""The LLM planner's few-shot library: English and Chinese instructions with the reply memql expects — a
canonical workflow, or a clarification — shipped as JSON Lines beside this module (en.jsonl, zh.jsonl).

Each line is ``{"id", "lang", "nl", "context"?, "reply"}``: ``context`` is what the planner would know
about the store (``now``, ``tags``, ``recent_ids``, ``types``); ``reply`` is ``{"workflow": [IR, ...]}`` or
``{"workflow": [], "clarification": {"missing": [...], "question": "..."}}``. IRs are in canonical form
without ``meta`` (the planner never writes meta; see memql.cognition.planner.programs). A test checks
that every example validates and is canonical.

For each instruction the planner shows the most relevant examples: BM25 over the analyzer's index terms
(memql.services.tokenize: stemmed English words, Chinese character bigrams; numbers left out), examples in the
instruction's language first, topped up with other verbs so the model sees the range of the language,
and always one clarification so it knows how to ask instead of guessing.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from typing import Any

from memql.cognition.planner.base import PlanContext
from memql.services.tokenize import index_terms

K1, B = 1.2, 0.75  # BM25's usual constants
OTHER_LANGUAGE_FACTOR = (
    0.5  # an example in the other language counts half: it teaches the form, not the words
)
LIBRARY_FILES = ("en.jsonl", "zh.jsonl")


@dataclass(frozen=True)
class Example:
    id: str
    lang: str
    nl: str
    reply: dict[str, Any]
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """What the example teaches: a verb, "workflow" or "clarification"."""
        steps = self.reply.get("workflow") or []
        if self.reply.get("clarification"):
            return "clarification"
        return "workflow" if len(steps) > 1 else str(steps[0].get("op"))

    def plan_context(self) -> PlanContext:
        ctx = self.context
        now = datetime.fromisoformat(ctx["now"]) if ctx.get("now") else None
        return PlanContext(
            now=now,
            tags=tuple(ctx.get("tags", ())),
            recent_ids=tuple(ctx.get("recent_ids", ())),
            types=tuple(ctx.get("types", ())),
        )


def parse_example(line: str) -> Example:
    data = json.loads(line)
    return Example(
        id=data["id"],
        lang=data["lang"],
        nl=data["nl"],
        reply=data["reply"],
        context=data.get("context") or {},
    )


class ExampleLibrary:
    """A set of examples and a BM25 index over their instructions."""

    def __init__(self, examples: Sequence[Example]) -> None:
        if not examples:
            raise ValueError("an example library needs at least one example")
        self.examples = list(examples)
        self._terms = [_terms(e.nl) for e in self.examples]
        self._lengths = [sum(t.values()) for t in self._terms]
        self._avg_length = sum(self._lengths) / len(self._lengths) or 1.0
        df: Counter[str] = Counter()
        for terms in self._terms:
            df.update(terms.keys())
        n = len(self.examples)
        self._idf = {t: math.log(1.0 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}

    @classmethod
    def default(cls) -> ExampleLibrary:
        """The library shipped with memql."""
        return _default_library()

    def scores(self, text: str) -> list[float]:
        """BM25 of `text` against every example's instruction."""
        query = _terms(text)
        out = []
        for terms, length in zip(self._terms, self._lengths, strict=True):
            norm = K1 * (1.0 - B + B * length / self._avg_length)
            score = 0.0
            for term in query:
                tf = terms.get(term, 0)
                if tf:
                    score += self._idf[term] * tf * (K1 + 1.0) / (tf + norm)
            out.append(score)
        return out

    def select(self, text: str, lang: str, k: int = 8) -> list[Example]:
        """The `k` examples to show for `text`, most relevant first (see the module docstring)."""
        if k <= 0:
            return []
        scores = self.scores(text)
        adjusted = [
            s * (1.0 if e.lang == lang else OTHER_LANGUAGE_FACTOR)
            for s, e in zip(scores, self.examples, strict=True)
        ]
        order = sorted(
            range(len(self.examples)), key=lambda i: (-adjusted[i], self.examples[i].lang != lang, i)
        )
        chosen = [i for i in order if adjusted[i] > 0][:k]
        if len(chosen) < k:  # top up with kinds not yet shown, in the instruction's language first
            kinds = {self.examples[i].kind for i in chosen}
            for i in sorted(range(len(self.examples)), key=lambda i: (self.examples[i].lang != lang, i)):
                if len(chosen) >= k:
                    break
                if i not in chosen and self.examples[i].kind not in kinds:
                    chosen.append(i)
                    kinds.add(self.examples[i].kind)
        if not any(self.examples[i].kind == "clarification" for i in chosen):
            asks = [i for i in order if self.examples[i].kind == "clarification"]
            if asks:
                chosen = [*chosen[: k - 1], asks[0]] if len(chosen) >= k else [*chosen, asks[0]]
        return [self.examples[i] for i in chosen]


def _terms(text: str) -> Counter[str]:
    """Index terms without numbers: ids and amounts say nothing about which example fits."""
    return Counter(t for t in index_terms(text) if not t.isdigit())


@functools.lru_cache(maxsize=1)
def _default_library() -> ExampleLibrary:
    folder = resources.files(__name__)
    examples = []
    for name in LIBRARY_FILES:
        for line in folder.joinpath(name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                examples.append(parse_example(line))
    return ExampleLibrary(examples)


__all__ = ["Example", "ExampleLibrary", "parse_example"]
