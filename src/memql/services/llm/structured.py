"""One structured call: a system prompt, a user turn and the JSON schema the reply must follow; the
reply's JSON object, or None when the model or its reply fails — the caller then uses its offline rule,
so a write path never fails because of the model."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from memql.ports.models import LLM, ChatMessage, ChatRequest


def closed_object(**properties: dict[str, Any]) -> dict[str, Any]:
    """A strict-mode object schema: these properties, every one required, nothing else."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def array_of(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def ask_json(
    llm: LLM,
    system: str,
    user: str,
    schema: dict[str, Any],
    *,
    needed: Iterable[str] = (),
    purpose: str | None = None,
) -> dict[str, Any] | None:
    """The reply as a JSON object holding every key of `needed`, or None."""
    request = ChatRequest(
        [ChatMessage("system", system), ChatMessage("user", user)],
        json_schema=schema,
        temperature=0.0,
        metadata={"purpose": purpose} if purpose else {},
    )
    try:
        reply = json.loads(llm.chat(request))
    except Exception:  # any failure of the model or its reply: the caller's offline rule answers
        return None
    if not isinstance(reply, dict) or any(key not in reply for key in needed):
        return None
    return reply
