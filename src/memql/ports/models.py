"""Model ports: embeddings and LLM chat. Implementations arrive with retrieval and conversation memory;
with none configured, memql uses its deterministic offline text services (memql.services)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class Embedder(Protocol):
    """Turns texts into unit-length vectors of a fixed dimension."""

    model: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass
class LLMUsage:
    """Counted by every LLM implementation and surfaced in ExecutionResult.stats."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated_calls: int = 0  # calls whose token counts were estimated (the server reported no usage)


@dataclass
class ChatMessage:
    role: str  # system | user | assistant
    content: str


@dataclass
class ChatRequest:
    messages: list[ChatMessage]
    json_schema: dict[str, Any] | None = None  # constrain the reply to this schema when given
    max_tokens: int | None = None
    temperature: float = 0.0
    metadata: dict[str, Any] = field(default_factory=dict)


class LLM(Protocol):
    """An OpenAI-compatible chat model. Returns the reply text (JSON text when a schema is given)."""

    usage: LLMUsage

    def chat(self, request: ChatRequest) -> str: ...
