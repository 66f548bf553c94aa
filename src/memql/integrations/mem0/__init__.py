"""mem0's API on memql: `from memql.integrations.mem0 import Memory` — mem0 OSS's methods, arguments and
result shapes over a governed, audited memql store (docs/integrations.md, "mem0's API"). It only mimics
mem0's API: mem0 itself need not be installed. `api` holds the Memory, `aio` its awaitable twin
(AsyncMemory), `translate` the shapes."""

from memql.integrations.mem0.aio import AsyncMemory
from memql.integrations.mem0.api import Memory
from memql.integrations.mem0.translate import InvalidRequest, MemoryNotFound

__all__ = ["AsyncMemory", "InvalidRequest", "Memory", "MemoryNotFound"]
