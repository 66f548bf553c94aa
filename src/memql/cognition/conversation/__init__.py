"""Conversation memory (DESIGN §9): messages stored as records, and strategies that remember them (flat
retrieval, MemoryOS tiers, the xMemory ladder) and assemble cited context under a token budget."""
