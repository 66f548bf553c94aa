"""The extraction port: a message in, a validated MemoryDelta out (DESIGN §9, Formation)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from memql.lang.delta import MemoryDelta, Utterance


@runtime_checkable
class Extractor(Protocol):
    """Turns one message into what memory may learn from it. An implementation never raises for what a
    message says or for what a model answers: a failure is an empty delta carrying a diagnostic."""

    name: str

    def extract(self, message: Utterance) -> MemoryDelta: ...


def is_extractor(value: object) -> bool:
    """isinstance(value, Extractor) -- what a runtime protocol checks, its members -- without its cost
    (~20 µs in Python 3.11; an engine checks its extractor as each Memory opens, a server's per request)."""
    return hasattr(value, "name") and callable(getattr(value, "extract", None))
