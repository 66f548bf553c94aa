"""memql: a memory operating system for LLM agents."""

__version__ = "0.1.0"

from memql.memory import Memory

__all__ = ["Memory", "__version__"]
