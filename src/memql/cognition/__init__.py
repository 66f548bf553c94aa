"""Cognitive layers, written in the language (DESIGN §2, §9): each module builds IRs and workflows and runs
them through the engine (`Memory` / `Executor`), so what it does is validated, transactional, audited
and governed like a user's own command. No module here opens a store session or speaks SQL.

- `facts`: typed facts (SGAM): current state, state at a world or record time, history.
- `proposals`: an agent proposes, a user approves, edits, rejects (Update of status).
- `a2p`, `a2p_import`: the a2p profile document (export and all-or-nothing import).
- `consolidation`: consolidation (a Merge recording `consolidatedFrom`) and reclassification (an Update).
- `promotion`: automatic episodic -> semantic promotion.
- `planner`: natural-language instructions -> IR or workflow (rules and LLM planners).
"""
