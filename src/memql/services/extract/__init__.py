"""Formation: what people say -> a `MemoryDelta` (memql.lang.delta), through one port, `Extractor`.

- `RuleExtractor`: offline, English and Chinese grammars (memql.services.extract.rules);
- `LLMExtractor`: one OpenAI-compatible call per message, JSON-schema structured output, the reply
  validated against `MemoryDelta` (memql.services.extract.llm);
- `Vocabulary`: attribute phrases -> one key each ("passport due date" -> passport.deadline);
- `matching`: which fact keys a question names (what reads that put facts first share).

The extractors load on first use: a read that only matches facts (the engine's Retrieve `facts`) needs
the vocabulary, not the grammars, whose patterns take a third of a second to compile; an engine's default
extractor (`DeferredRules`) loads the grammars at the first message it reads.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from memql.services.extract.vocabulary import DEFAULT_VOCABULARY, Attribute, Vocabulary

if TYPE_CHECKING:
    from memql.lang.delta import MemoryDelta, Utterance
    from memql.ports.models import LLM
    from memql.services.extract.base import Extractor
    from memql.services.extract.llm import LLMExtractor
    from memql.services.extract.rules import RuleExtractor

EXTRACTORS = ("rules", "llm")

__all__ = [
    "DEFAULT_VOCABULARY",
    "EXTRACTORS",
    "Attribute",
    "DeferredRules",
    "Extractor",
    "LLMExtractor",
    "RuleExtractor",
    "Vocabulary",
    "make_extractor",
]


def __getattr__(name: str) -> Any:
    """The port and the extractors, imported when first named."""
    if name == "Extractor":
        from memql.services.extract.base import Extractor

        return Extractor
    if name == "RuleExtractor":
        from memql.services.extract.rules import RuleExtractor

        return RuleExtractor
    if name == "LLMExtractor":
        from memql.services.extract.llm import LLMExtractor

        return LLMExtractor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_extractor(
    name: str = "rules", *, llm: LLM | None = None, vocabulary: Vocabulary | None = None
) -> Extractor:
    """The extractor called `name` ("rules" or "llm"; the LLM one uses `llm`, else the environment's)."""
    if name == "rules":
        from memql.services.extract.rules import RuleExtractor

        return RuleExtractor(vocabulary)
    if name == "llm":
        from memql.services.extract.llm import LLMExtractor

        return LLMExtractor(llm, vocabulary=vocabulary)
    raise ValueError(f"unknown extractor {name!r}: choose one of {', '.join(EXTRACTORS)}")


class DeferredRules:
    """The offline rules (`RuleExtractor`, the default vocabulary), loaded at the first message they read:
    an engine interprets only when asked (Encode `interpret`, Label `infer`), and importing the grammars
    took 0.76 s of the 1.3 s a process spent before its first search could run."""

    name = "rules"

    def __init__(self) -> None:
        self._rules: Extractor | None = None
        self._loading = threading.Lock()

    def extract(self, message: Utterance) -> MemoryDelta:
        rules = self._rules
        if rules is None:
            with self._loading:
                if self._rules is None:
                    from memql.services.extract.rules import RuleExtractor

                    self._rules = RuleExtractor()
                rules = self._rules
        return rules.extract(message)
