"""Formation: what people say -> a `MemoryDelta` (memql.lang.delta), through one port, `Extractor`.

- `RuleExtractor`: offline, English and Chinese grammars (memql.services.extract.rules);
- `LLMExtractor`: one OpenAI-compatible call per message, JSON-schema structured output, the reply
  validated against `MemoryDelta` (memql.services.extract.llm);
- `Vocabulary`: attribute phrases -> one key each ("passport due date" -> passport.deadline).
"""

from memql.ports.models import LLM
from memql.services.extract.base import Extractor
from memql.services.extract.llm import LLMExtractor
from memql.services.extract.rules import RuleExtractor
from memql.services.extract.vocabulary import DEFAULT_VOCABULARY, Attribute, Vocabulary

EXTRACTORS = ("rules", "llm")

__all__ = [
    "DEFAULT_VOCABULARY",
    "EXTRACTORS",
    "Attribute",
    "Extractor",
    "LLMExtractor",
    "RuleExtractor",
    "Vocabulary",
    "make_extractor",
]


def make_extractor(
    name: str = "rules", *, llm: LLM | None = None, vocabulary: Vocabulary | None = None
) -> Extractor:
    """The extractor called `name` ("rules" or "llm"; the LLM one uses `llm`, else the environment's)."""
    if name == "rules":
        return RuleExtractor(vocabulary)
    if name == "llm":
        return LLMExtractor(llm, vocabulary=vocabulary)
    raise ValueError(f"unknown extractor {name!r}: choose one of {', '.join(EXTRACTORS)}")
