"""The tiers' LLM calls, where the paper makes them: one per page that reaches MTM (meta-chain continuity
with the previous page, and the segment's updated summary and keywords, in one structured call) and one per
promotion into LPM (profile, knowledge, traits). Every call is counted by the LLM port (LLMUsage)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memql.ports.models import LLM, ChatMessage, ChatRequest

if TYPE_CHECKING:
    from memql.cognition.conversation.tiers.state import PageState

PAGE_SCHEMA = {
    "type": "object",
    "properties": {
        "continuous": {"type": "boolean"},
        "summary": {"type": "string"},
        "keywords": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["continuous", "summary", "keywords"],
    "additionalProperties": False,
}
PERSONA_SCHEMA = {
    "type": "object",
    "properties": {
        "profile": {"type": "string"},
        "knowledge": {"type": "array", "items": {"type": "string"}},
        "user_traits": {"type": "array", "items": {"type": "string"}},
        "agent_traits": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["profile", "knowledge", "user_traits", "agent_traits"],
    "additionalProperties": False,
}


@dataclass
class PageVerdict:
    continuous: bool
    summary: str
    keywords: list[str]


@dataclass
class Persona:
    profile: str
    knowledge: list[str]
    user_traits: list[str]
    agent_traits: list[str]


class TiersLLM:
    """Structured calls; a reply that is not the JSON asked for makes the caller use the offline rule."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.calls = 0

    def _ask(self, system: str, user: str, schema: dict[str, Any]) -> dict[str, Any] | None:
        self.calls += 1
        request = ChatRequest([ChatMessage("system", system), ChatMessage("user", user)], json_schema=schema)
        try:
            reply = json.loads(self.llm.chat(request))
        except (ValueError, RuntimeError):
            return None
        if not isinstance(reply, dict) or any(k not in reply for k in schema["required"]):
            return None
        return reply

    def page_to_segment(
        self, previous: PageState | None, page: PageState, summary: str | None
    ) -> PageVerdict | None:
        reply = self._ask(
            "You maintain a conversation memory. Answer in JSON: `continuous` says whether the NEW page "
            "continues the topic of the PREVIOUS page; `summary` is the SEGMENT summary updated with the new "
            "page (at most 80 words, facts, names and dates kept); `keywords` are 3-8 topic keywords.",
            f"PREVIOUS page:\n{previous.text if previous else '(none)'}\n\nNEW page:\n{page.text}\n\n"
            f"SEGMENT summary:\n{summary or '(a new segment)'}",
            PAGE_SCHEMA,
        )
        if reply is None or not isinstance(reply.get("summary"), str) or not reply["summary"].strip():
            return None
        words = [str(k).strip().lower() for k in reply.get("keywords") or [] if str(k).strip()]
        return PageVerdict(bool(reply.get("continuous")), reply["summary"].strip(), words)

    def persona(self, pages: list[str], profile: str) -> Persona | None:
        reply = self._ask(
            "From the conversation pages, update the user's persona. Answer in JSON: `profile` (the whole "
            "updated profile, at most 80 words), `knowledge` (new facts about the user, one short sentence "
            "each, at most 5), `user_traits` (interests, preferences, personality words), `agent_traits` "
            "(how the assistant behaves or what it knows).",
            f"CURRENT profile:\n{profile or '(none)'}\n\nPAGES:\n" + "\n---\n".join(pages),
            PERSONA_SCHEMA,
        )
        if reply is None:
            return None

        def strings(key: str) -> list[str]:
            value = reply.get(key)
            return [str(v).strip() for v in value if str(v).strip()] if isinstance(value, list) else []

        return Persona(
            str(reply.get("profile") or "").strip(),
            strings("knowledge"),
            strings("user_traits"),
            strings("agent_traits"),
        )
