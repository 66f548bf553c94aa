"""MemoryOS tiers (Kang et al. 2025) for conversation memory: STM dialogue pages -> MTM segments -> LPM
persona, every move a memql verb. See docs/tiers.md."""

from memql.cognition.conversation.tiers.config import TiersConfig
from memql.cognition.conversation.tiers.core import Tiers
from memql.cognition.conversation.tiers.records import TiersError

__all__ = ["Tiers", "TiersConfig", "TiersError"]
