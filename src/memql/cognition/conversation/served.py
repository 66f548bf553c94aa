"""A conversation's context as a server gives it (MCP `memory_context`, REST `POST /v1/context`): one
function, so both shells refuse, default and answer alike and neither holds logic the Python API lacks.

A server is reached by others, so it acts only for the identity it was started with (an API key's, MCP's
`--actor`): unlike the embedded library, a session without an actor reads no one's conversation, and
otherwise `Conversation` decides (`conversation.participant` for anyone but the user, the agent or an
admin). Every refusal is a `ConversationError` whose diagnostics name the field and the rule.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from memql.cognition.conversation.records import error, participants
from memql.cognition.conversation.session import DEFAULT_BUDGET_TOKENS, Conversation, context_dict

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
    me = executor.identity
    if me.actor is None and not me.admin:
        raise error(
            "/user",
            "conversation.participant",
            "this server was started without an identity (an actor): it reads no one's conversation",
        )
    who, with_agent = participants(executor, user, agent)
    conv = Conversation(executor, user=who, agent=with_agent, id=conversation)
    return context_dict(conv.context(query, budget_tokens, strategy=strategy, as_of=as_of))


__all__ = ["served_context"]
