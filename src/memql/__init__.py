"""memql: a memory operating system for LLM agents."""

__version__ = "0.1.0"
