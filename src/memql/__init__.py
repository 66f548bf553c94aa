"""memql: a memory operating system for LLM agents.

The package root imports nothing eagerly: `import memql.lang` loads the language alone, not the engine,
the cognitive layers or a store backend. `memql.Memory` loads the Python API on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# name -> the module that defines it, imported when the name is first read (PEP 562)
LAZY = {"Memory": "memql.memory", "MemqlError": "memql.errors", "Refusal": "memql.errors"}

if TYPE_CHECKING:
    from memql.errors import MemqlError, Refusal
    from memql.memory import Memory


def __getattr__(name: str) -> Any:
    if name in LAZY:
        value = getattr(import_module(LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'memql' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *LAZY])


__all__ = ["Memory", "MemqlError", "Refusal", "__version__"]
