"""The cognitive layers (DESIGN §9), written in the language: they read and write memory only through
the engine's API (IRs run by a Memory), never through a store session."""
