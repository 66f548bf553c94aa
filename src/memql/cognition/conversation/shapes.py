"""What a conversation answers, as its Python types and as JSON (the CLI, REST and MCP print the JSON):
a response (`Conversation.respond`), a context (`Conversation.context`) and a stored message."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memql.cognition.conversation.base import Context, Message
from memql.lang.diagnostics import Diagnostic


@dataclass
class Response:
    """What `respond` returns: the answer (None when no LLM is configured or it failed), the context it
    was given, and why there is no answer when there is none."""

    query: str
    answer: str | None
    context: Context
    llm_calls: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "answer": self.answer,
            "note": self.note,
            "llm_calls": self.llm_calls,
            "diagnostics": [d.model_dump() for d in self.diagnostics],
            "context": context_dict(self.context),
        }


def context_dict(context: Context) -> dict[str, Any]:
    return {
        "query": context.query,
        "strategy": context.strategy,
        "budget_tokens": context.budget_tokens,
        "tokens": context.tokens,
        "llm_calls": context.llm_calls,
        "memory_ids": context.memory_ids,
        "source_ids": context.source_ids,
        "text": context.text,
        "pieces": [
            {
                "text": p.text,
                "memory_ids": list(p.memory_ids),
                "source_ids": list(p.source_ids),
                "level": p.level,
                "score": round(p.score, 6),
                "time": p.time.isoformat() if p.time else None,
                "tokens": p.tokens,
            }
            for p in context.pieces
        ],
    }


def message_dict(message: Message) -> dict[str, Any]:
    """A stored message: its record, its turn ids and the typed facts formed from it (`fact_ids`); a fact it
    states that the session may not change (another's, or locked) is not formed, `unformed` says why."""
    return {
        "memory_id": message.memory_id,
        "role": message.role,
        "text": message.text,
        "time": message.time.isoformat(),
        "source_ids": list(message.source_ids),
        "position": message.position,
        "fact_ids": list(message.fact_ids),
        "unformed": [d.model_dump() for d in message.unformed],
    }
