"""Formation: what people say -> a `MemoryDelta` (memql.lang.delta), through one port, `Extractor`.

- `RuleExtractor`: offline, English and Chinese grammars (memql.services.extract.rules);
- `LLMExtractor`: one OpenAI-compatible call per message, JSON-schema structured output, the reply
  validated against `MemoryDelta` (memql.services.extract.llm);
- `Vocabulary`: attribute phrases -> one key each ("passport due date" -> passport.deadline).
"""

from memql.services.extract.base import Extractor
from memql.services.extract.llm import LLMExtractor
from memql.services.extract.rules import RuleExtractor
from memql.services.extract.vocabulary import DEFAULT_VOCABULARY, Attribute, Vocabulary

__all__ = ["DEFAULT_VOCABULARY", "Attribute", "Extractor", "LLMExtractor", "RuleExtractor", "Vocabulary"]
