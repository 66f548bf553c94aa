"""The tiers' LLM calls, where the paper makes them: one per page that reaches MTM (meta-chain continuity
with the previous page, and the segment's updated summary and keywords, in one structured call) and one per
promotion into LPM (profile, knowledge, traits). Every call is counted by the LLM port (LLMUsage)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memql.ports.models import LLM
from memql.services.llm.structured import array_of, ask_json, closed_object

if TYPE_CHECKING:
    from memql.cognition.conversation.tiers.state import PageState

_STRINGS = array_of({"type": "string"})
PAGE_SCHEMA = closed_object(continuous={"type": "boolean"}, summary={"type": "string"}, keywords=_STRINGS)
# MemoryOS's profile has static fields and trait dimensions; these are memql's own (docs/tiers.md)
STATIC_FIELDS = ("name", "age", "gender", "occupation", "location", "family", "education", "languages")
TRAIT_DIMENSIONS = (
    # needs and personality
    "openness",
    "conscientiousness",
    "sociability",
    "emotional_state",
    # what the user wants of the assistant
    "preferred_detail",
    "preferred_tone",
    "autonomy_wanted",
    # interests
    "interests",
    "values",
)


def _nullable_fields(names: tuple[str, ...]) -> dict[str, Any]:
    return closed_object(**{n: {"type": ["string", "null"]} for n in names})


PERSONA_CORE = ("profile", "knowledge", "user_traits", "agent_traits")
PERSONA_SCHEMA = closed_object(
    profile={"type": "string"},
    static=_nullable_fields(STATIC_FIELDS),
    trait_dimensions=_nullable_fields(TRAIT_DIMENSIONS),
    knowledge=_STRINGS,
    user_traits=_STRINGS,
    agent_traits=_STRINGS,
)


MAX_FIELD_CHARS = 120  # a profile field longer than this is not a field: left out


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
    static: dict[str, str] = field(default_factory=dict)  # the STATIC_FIELDS the model could fill
    dimensions: dict[str, str] = field(default_factory=dict)  # the TRAIT_DIMENSIONS it could judge

    def fields(self) -> list[str]:
        """The profile's model-given fields, one line each: static fields, then trait dimensions."""
        return [
            f"user's {k.replace('_', ' ')}: {v}" for k, v in (*self.static.items(), *self.dimensions.items())
        ]


class TiersLLM:
    """Structured calls; a reply that is not the JSON asked for makes the caller use the offline rule."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.calls = 0

    def _ask(
        self, system: str, user: str, schema: dict[str, Any], needed: tuple[str, ...] | None = None
    ) -> dict[str, Any] | None:
        self.calls += 1
        return ask_json(self.llm, system, user, schema, needed=needed or schema["required"])

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
            "updated profile, at most 80 words), `static` (the user's "
            + ", ".join(STATIC_FIELDS)
            + " as stated, null when unsaid), `trait_dimensions` (a few words on each of "
            + ", ".join(TRAIT_DIMENSIONS)
            + ", null when the pages give no evidence), `knowledge` (new facts about the user, one short "
            "sentence each, at most 5), `user_traits` (interests, preferences, personality words), "
            "`agent_traits` (how the assistant behaves or what it knows).",
            f"CURRENT profile:\n{profile or '(none)'}\n\nPAGES:\n" + "\n---\n".join(pages),
            PERSONA_SCHEMA,
            needed=PERSONA_CORE,  # a reply without the fields still gives a profile and knowledge
        )
        if reply is None:
            return None

        def strings(key: str) -> list[str]:
            value = reply.get(key)
            return [str(v).strip() for v in value if str(v).strip()] if isinstance(value, list) else []

        def filled(key: str, names: tuple[str, ...]) -> dict[str, str]:
            value = reply.get(key)
            if not isinstance(value, dict):
                return {}
            out = {n: str(value[n]).strip() for n in names if isinstance(value.get(n), str | int | float)}
            return {n: v for n, v in out.items() if v and len(v) <= MAX_FIELD_CHARS}

        return Persona(
            str(reply.get("profile") or "").strip(),
            strings("knowledge"),
            strings("user_traits"),
            strings("agent_traits"),
            filled("static", STATIC_FIELDS),
            filled("trait_dimensions", TRAIT_DIMENSIONS),
        )
