"""Cognitive layers written in the language: each builds IRs and runs them through the engine."""
