"""Cognitive layers, written in the language (DESIGN §2, §9): each module builds IRs and workflows
(memql.lang.build) and runs them through the engine's Executor, so what it does is validated,
transactional, audited and governed like a user's own command. No module here opens a store session or
speaks SQL, and none depends on the Python API (memql.memory): `Memory` composes them.

- `facts`: typed facts (SGAM): current state, state at a world or record time, history.
- `profile`: a2p profiles — export and import, proposals, consolidation and reclassification, promotion.
- `conversation`: conversation memory (flat, MemoryOS tiers, the xMemory ladder, hybrid).
- `planner`: natural-language instructions -> IR or workflow (rules and LLM planners).
"""
