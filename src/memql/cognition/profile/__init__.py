"""Profiles (a2p), written in the language: each module takes the engine's Executor and runs IRs through it.

- `a2p`, `a2p_import`: the a2p profile document (export and all-or-nothing import).
- `proposals`: an agent proposes, a user approves, edits, rejects (Update of status).
- `consolidation`: consolidation (a Merge recording `consolidatedFrom`) and reclassification (an Update).
- `promotion`: automatic episodic -> semantic promotion.
"""
