"""Strategies by name. Each is imported when first asked for, so a build without one of them still works
for the others; asking for one that is absent is a diagnostic (`conversation.strategy_unavailable`)."""

from __future__ import annotations

import importlib
from typing import Any

from memql.cognition.conversation.records import error

# name -> (module, class); every class is built as Class(executor, conversation_id, config=None, llm=None)
STRATEGIES: dict[str, tuple[str, str]] = {
    "flat": ("memql.cognition.conversation.flat", "Flat"),
    "tiers": ("memql.cognition.conversation.tiers", "Tiers"),
    "ladder": ("memql.cognition.conversation.ladder", "Ladder"),
    "hybrid": ("memql.cognition.conversation.hybrid", "Hybrid"),
}
NAMES = tuple(STRATEGIES)
# the strategies that build their own structure as messages arrive: they must observe a conversation
# from its first message to answer for it (flat and hybrid's merging build nothing)
BUILDS_ON_WRITE = frozenset({"tiers", "ladder"})
HIGHER_LEVELS = ("tiers", "ladder")  # what hybrid combines with flat by default, when present


def strategy_class(name: str) -> type:
    """The class of strategy `name`; an unknown or absent one raises ConversationError."""
    if not isinstance(name, str) or name not in STRATEGIES:
        raise error("/strategy", "field.enum", f"unknown strategy {name!r}; choose from {', '.join(NAMES)}")
    module_name, class_name = STRATEGIES[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:  # the module exists but something it imports does not: a real bug
            raise
        raise error(
            "/strategy",
            "conversation.strategy_unavailable",
            f"strategy {name!r} is not available in this installation ({module_name} is missing)",
        ) from None
    return getattr(module, class_name)


def is_available(name: str) -> bool:
    try:
        strategy_class(name)
    except ValueError:
        return False
    return True


def available(names: tuple[str, ...] = NAMES) -> tuple[str, ...]:
    return tuple(name for name in names if is_available(name))


def components(name: str, config: Any = None) -> tuple[str, ...]:
    """The strategies `name` is made of: hybrid's components, else itself."""
    if name != "hybrid":
        return (name,)
    chosen = getattr(config, "components", None)
    return tuple(chosen) if chosen else default_hybrid_components()


def default_hybrid_components() -> tuple[str, ...]:
    return ("flat", *available(HIGHER_LEVELS))
