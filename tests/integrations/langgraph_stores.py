"""How the ported LangGraph store tests open a store: a MemqlStore over a new memql store on the run's
backend (set by conftest's autouse fixture), in place of InMemoryStore / SqliteStore."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memql import Memory
from memql.integrations.langgraph import MemqlStore, as_embedder

NEW_LOCATION: Callable[..., str] | None = None
_OPENED: list[Memory] = []


def open_store(
    *,
    index: dict[str, Any] | None = None,
    ttl: dict[str, Any] | None = None,
    actor: str = "alice",
    tenant: str = "t",
    share: MemqlStore | None = None,
    **memory: Any,
) -> MemqlStore:
    """A MemqlStore on a new store of the run's backend (or on `share`'s store, as another session). With
    an index that names `embed`, the Memory embeds with it (LangGraph's fake CharacterEmbeddings)."""
    assert NEW_LOCATION is not None, "the integrations conftest sets the backend"
    embedder: Any = "none"
    if index is not None and index.get("embed") is not None:
        embedder = as_embedder(index["embed"], index["dims"])
    elif share is not None:
        embedder = share.memory.executor.embedder
    location = share.memory.store if share is not None else NEW_LOCATION(in_memory=True)
    m = Memory(location, tenant=tenant, actor=actor, embedder=embedder, **memory)
    _OPENED.append(m)
    return MemqlStore(m, index=index, ttl=ttl)  # type: ignore[arg-type]


def close_all() -> None:
    while _OPENED:
        _OPENED.pop().close()
