"""The cognitive layers (DESIGN §2, §9): facts, profile, conversation tiers, the retrieval ladder and the
planner. They are written in the language: they run IRs through the engine, never a store session."""
