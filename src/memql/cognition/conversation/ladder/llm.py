"""The ladder with an LLM (xMemory): the model cuts the held messages into episodes, titles each and
states its facts in one call per segment decision, and summarises the themes a placement touched in one
call. A reply that is not what was asked for makes the caller use the offline rule (cosine boundaries,
extractive facts and summaries), so the write path never fails because of the model; every call is
counted by the LLM port (`LLM.usage`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memql.cognition.conversation.base import Message
from memql.ports.models import LLM
from memql.services.llm.structured import array_of, ask_json, closed_object

from .facts import MAX_FACT_CHARS, FactDraft, spoken

MAX_TITLE_CHARS = 120
MAX_SUMMARY_CHARS = 600

_INTEGER, _STRING = {"type": "integer"}, {"type": "string"}
_FACT = closed_object(text=_STRING, message=_INTEGER)
EPISODES_SCHEMA = closed_object(
    episodes=array_of(closed_object(first=_INTEGER, title=_STRING, facts=array_of(_FACT)))
)
THEMES_SCHEMA = closed_object(themes=array_of(closed_object(theme=_INTEGER, title=_STRING, summary=_STRING)))
_EPISODES = (
    "Cut this numbered conversation excerpt into episodes: runs of consecutive messages on one topic or "
    "event. For each episode give `first` (the number of its first message; the first episode starts at "
    "0), a short `title` naming what it is about, and its `facts`: atomic facts worth remembering "
    "(events, plans, preferences, relationships, dates, names), each one short self-contained sentence "
    "that names the person it is about (never 'I' or 'you') with the number of the message it comes from. "
    'Reply with JSON: {"episodes": [{"first": 0, "title": ..., "facts": [{"text": ..., "message": 0}]}]}.'
)
_THEMES = (
    "Each numbered theme below groups facts from one conversation. For each theme give a short `title` "
    "and a `summary` of at most 60 words that keeps names and dates. Reply with JSON: "
    '{"themes": [{"theme": <number>, "title": ..., "summary": ...}]}.'
)


@dataclass(frozen=True)
class EpisodePlan:
    first: int  # index of its first message among the held ones
    title: str
    facts: list[FactDraft]


def plan_episodes(llm: LLM, messages: list[Message]) -> list[EpisodePlan] | None:
    """The model's episodes of `messages` (in order, the first starting at 0), or None when its reply is
    unusable: boundaries out of order, a blank or overlong title, or no episode at all."""
    reply = ask_json(
        llm,
        _EPISODES,
        "\n".join(f"{i}. {spoken(m)}" for i, m in enumerate(messages)),
        EPISODES_SCHEMA,
        purpose="ladder.episodes",
    )
    items = reply.get("episodes") if isinstance(reply, dict) else None
    if not isinstance(items, list) or not items:
        return None
    plans: list[EpisodePlan] = []
    for item in items:
        first, title = (item.get("first"), item.get("title")) if isinstance(item, dict) else (None, None)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(messages):
            return None
        if (plans and first <= plans[-1].first) or (not plans and first != 0):
            return None
        if not isinstance(title, str) or not title.strip() or len(title) > MAX_TITLE_CHARS:
            return None
        plans.append(EpisodePlan(first, title.strip(), _facts(item.get("facts"), messages)))
    return plans


def _facts(items: Any, messages: list[Message]) -> list[FactDraft]:
    drafts = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        text, index = item.get("text"), item.get("message")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_FACT_CHARS:
            continue
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(messages):
            continue
        source = messages[index]
        drafts.append(FactDraft(text.strip(), source.source_ids, (source.memory_id,), source.time))
    return drafts


def summarise_themes(llm: LLM, themes: list[list[str]]) -> list[tuple[str, str]] | None:
    """(title, summary) of each theme given by its facts' texts, or None when the reply does not give
    every theme a usable one."""
    lines = []
    for i, facts in enumerate(themes):
        lines.append(f"Theme {i}:")
        lines.extend(f"- {f}" for f in facts)
    reply = ask_json(llm, _THEMES, "\n".join(lines), THEMES_SCHEMA, purpose="ladder.themes")
    items = reply.get("themes") if isinstance(reply, dict) else None
    found: dict[int, tuple[str, str]] = {}
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        index, title, summary = item.get("theme"), item.get("title"), item.get("summary")
        if not isinstance(index, int) or not 0 <= index < len(themes):
            continue
        if not isinstance(title, str) or not isinstance(summary, str) or not summary.strip():
            continue
        if len(title) > MAX_TITLE_CHARS or len(summary) > MAX_SUMMARY_CHARS:
            continue
        found[index] = (title.strip(), summary.strip())
    return [found[i] for i in range(len(themes))] if len(found) == len(themes) else None
