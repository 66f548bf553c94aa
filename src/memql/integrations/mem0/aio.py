"""mem0's `AsyncMemory` on memql: the same methods as `Memory`, awaitable.

Each call runs the synchronous `Memory` method on one thread of the instance's own (a single-thread
executor), so an event loop is never blocked by a store or a model, and the calls of one instance run one
at a time in the order they were made — as they would on one connection. Results, errors and governance
are the synchronous API's: nothing here decides anything.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from memql.integrations.mem0.api import Memory


class AsyncMemory:
    """`await memory.add(...)`, `await memory.search(...)` … over a `Memory` built with the same arguments."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._adopt(Memory(*args, **kwargs))

    def _adopt(self, memory: Memory) -> None:
        self.sync = memory  # the synchronous API underneath, for code that needs both
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memql-mem0")

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | None = None) -> AsyncMemory:
        """As `Memory.from_config` (mem0's `AsyncMemory.from_config` is not awaited either)."""
        instance = cls.__new__(cls)
        instance._adopt(Memory.from_config(config))
        return instance

    async def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        call = functools.partial(getattr(self.sync, method), *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    async def add(self, messages: Any, **kwargs: Any) -> dict[str, Any]:
        return await self._call("add", messages, **kwargs)

    async def search(self, query: str, **kwargs: Any) -> dict[str, Any]:
        return await self._call("search", query, **kwargs)

    async def get(self, memory_id: str, **scope_ids: Any) -> dict[str, Any] | None:
        return await self._call("get", memory_id, **scope_ids)

    async def get_all(self, **kwargs: Any) -> dict[str, Any]:
        return await self._call("get_all", **kwargs)

    async def update(self, memory_id: str, *args: Any, **kwargs: Any) -> dict[str, str]:
        return await self._call("update", memory_id, *args, **kwargs)

    async def delete(self, memory_id: str, **scope_ids: Any) -> dict[str, str]:
        return await self._call("delete", memory_id, **scope_ids)

    async def delete_all(
        self, user_id: Any = None, agent_id: Any = None, run_id: Any = None
    ) -> dict[str, str]:
        return await self._call("delete_all", user_id=user_id, agent_id=agent_id, run_id=run_id)

    async def history(self, memory_id: str, **scope_ids: Any) -> list[dict[str, Any]]:
        return await self._call("history", memory_id, **scope_ids)

    async def reset(self) -> None:
        await self._call("reset")

    async def close(self) -> None:
        """Close the store (if this instance opened it) on its own thread, then stop that thread."""
        await self._call("close")
        self._thread.shutdown(wait=True)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
