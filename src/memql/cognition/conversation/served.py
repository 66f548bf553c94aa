"""A conversation as a server serves it: its context (MCP `memory_context`, REST `POST /v1/context`) and
new messages (MCP `memory_add_messages`, REST `POST /v1/messages`). One function each, so both shells
refuse, default and answer alike and neither holds logic the Python API lacks.

A server is reached by others, so it acts only for the identity it was started with (an API key's, MCP's
`--actor`): unlike the embedded library, a session without an actor reads and writes no one's
conversation, and otherwise `Conversation` decides (`conversation.participant` for anyone but the user,
the agent or an admin; `consent.write` for an agent without read_write consent adding messages). Every
refusal is a `ConversationError` whose diagnostics name the field and the rule.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from datetime import datetime
from time import sleep
from typing import TYPE_CHECKING, Any

from memql.cognition.conversation.records import ConversationError, error, participants
from memql.cognition.conversation.session import DEFAULT_BUDGET_TOKENS, Conversation
from memql.cognition.conversation.shapes import context_dict, message_dict

if TYPE_CHECKING:
    from memql.engine.executor import Executor


def served_context(
    executor: Executor,
    query: str,
    *,
    user: str | None = None,
    agent: str | None = None,
    conversation: str | None = None,
    budget_tokens: int = DEFAULT_BUDGET_TOKENS,
    strategy: str | None = None,
    as_of: datetime | str | None = None,
) -> dict[str, Any]:
    """`Conversation.context` for a server's caller, as JSON (`context_dict`): the conversation's typed
    facts that match `query` lead it — their values true at `as_of` (default now), each cited to its
    message; an earlier value only on a line labelled ``until <date>:`` — then what the strategy assembles
    in the budget left. `user`/`agent` default to the caller's own name for its side (`participants`)."""
    conv = _opened(executor, *_caller(executor, user, agent), conversation)
    return context_dict(conv.context(query, budget_tokens, strategy=strategy, as_of=as_of))


def served_messages(
    executor: Executor,
    messages: Sequence[Mapping[str, Any]],
    *,
    user: str | None = None,
    agent: str | None = None,
    conversation: str | None = None,
    time: datetime | str | None = None,
) -> dict[str, Any]:
    """`Conversation.add_messages` for a server's caller, as JSON: the messages ({role, text} and, when
    given, their own time and source_id), stored together or not at all, each seen by the conversation's
    strategies and its typed facts formed (`fact_ids`; `unformed` says why a fact it states was not)."""
    who, with_agent = _caller(executor, user, agent)
    # a conversation is opened where its last message is read; two calls at once would both take the
    # next position: calls of this process for one conversation open and store it one at a time. Another
    # process's write meanwhile makes the conversation take itself up again after it (Conversation), and
    # when yet another's came in between too (conversation.moved), it is tried again
    with _WRITERS[hash((id(executor.store), executor.tenant, conversation or f"{who}/{with_agent}")) % 64]:
        conv = _opened(executor, who, with_agent, conversation)
        for attempt in range(MOVED_RETRIES + 1):
            try:
                stored = conv.add_messages(messages, time=time)
                break
            except ConversationError as exc:
                if attempt == MOVED_RETRIES or [d.rule for d in exc.diagnostics] != ["conversation.moved"]:
                    raise
                # the writers that collided each wait a while of their own before trying again
                sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 6)))
    return {"conversation": conv.id, "messages": [message_dict(m) for m in stored]}


_WRITERS = [threading.Lock() for _ in range(64)]  # by conversation (striped: bounded, never evicted)
MOVED_RETRIES = 20  # other processes writing the same conversation at once: each try loses to one write


def _caller(executor: Executor, user: str | None, agent: str | None) -> tuple[str, str]:
    """The user and the agent of the conversation the caller names (its defaults: `participants`); a
    server without an identity acts in none."""
    me = executor.identity
    if me.actor is None and not me.admin:
        raise error(
            "/user",
            "conversation.participant",
            "this server was started without an identity (an actor): it acts in no one's conversation",
        )
    return participants(executor, user, agent)


def _opened(executor: Executor, who: str, with_agent: str, conversation: str | None) -> Conversation:
    """The conversation, opened as the caller (`Conversation` refuses anyone but its participants)."""
    # the session's extractor forms its facts, as remember's do (the LLM one on a server that has a model)
    return Conversation(executor, user=who, agent=with_agent, id=conversation, extractor=executor.extractor)


__all__ = ["served_context", "served_messages"]
