"""Semantic facts of an episode: short statements, each citing the message(s) it came from.

Typed where possible: the typed facts the conversation's extractor formed from a message (subject,
attribute, value, the words they were read from) are that message's semantic facts. Offline (no model
call), the sentences of a message that state no typed fact add its salient ones — those carrying at least
`fact_min_terms` content keywords, the `facts_per_message` richest of them —, prefixed with the speaker
so that "I" keeps its referent. With an LLM, the model's facts come with its episodes (llm.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from memql.cognition.conversation.base import Message
from memql.cognition.conversation.formation import StoredFact, fact_statement
from memql.services.keywords import keywords
from memql.services.sentences import split_sentences

from .config import LadderConfig

MAX_FACT_CHARS = 400  # an LLM "fact" longer than this is not atomic: ignored


@dataclass(frozen=True)
class FactDraft:
    text: str
    source_ids: tuple[str, ...]
    message_ids: tuple[str, ...]
    time: datetime | None


def speaker_body(message: Message) -> tuple[str, str]:
    """(speaker, text without a leading "speaker:" the text may already carry)."""
    text = message.text.strip()
    role = message.role.strip()
    if role and text.lower().startswith(role.lower() + ":"):
        text = text[len(role) + 1 :].strip()
    return role, text


def spoken(message: Message) -> str:
    """The message as one line that says who spoke."""
    role, body = speaker_body(message)
    return f"{role}: {body}" if role else body


def salient_sentences(text: str, config: LadderConfig) -> list[str]:
    sentences = split_sentences(text)
    scored = [(len(keywords(s, k=32)), i, s) for i, s in enumerate(sentences)]
    kept = [item for item in scored if item[0] >= config.fact_min_terms]
    best = sorted(kept, key=lambda item: (-item[0], item[1]))[: config.facts_per_message]
    return [s for _, _, s in sorted(best, key=lambda item: item[1])]


def typed_drafts(message: Message, typed: Sequence[StoredFact]) -> list[FactDraft]:
    return [
        FactDraft(fact_statement(f), message.source_ids, (message.memory_id,), message.time) for f in typed
    ]


def typed_of(message: Message, typed: Mapping[str, Sequence[StoredFact]]) -> list[StoredFact]:
    return [f for s in message.source_ids for f in typed.get(s, ())]


def extract_offline(
    messages: list[Message], config: LadderConfig, typed: Mapping[str, Sequence[StoredFact]] | None = None
) -> list[FactDraft]:
    """Each message's typed facts (`typed`: by the message's turn id), then the salient sentences of the
    rest of it: a sentence that holds a typed fact's words is already stated, typed."""
    drafts = []
    for message in messages:
        role, body = speaker_body(message)
        facts = typed_of(message, typed or {})
        drafts.extend(typed_drafts(message, facts))
        quotes = [f.evidence.casefold() for f in facts if f.evidence]
        for sentence in salient_sentences(body, config):
            if any(q in sentence.casefold() for q in quotes):
                continue
            drafts.append(
                FactDraft(
                    f"{role}: {sentence}" if role else sentence,
                    message.source_ids,
                    (message.memory_id,),
                    message.time,
                )
            )
    return drafts
