"""/v1/context: a conversation's cited context for a query — the shell over the same Python API as MCP's
`memory_context` (cognition/conversation/served.py), with the same refusals as structured diagnostics."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter

from memql.cognition.conversation.records import ConversationError
from memql.cognition.conversation.served import served_context
from memql.interfaces.rest.auth import CallerMemory
from memql.interfaces.rest.encoding import JSONResponse
from memql.interfaces.rest.errors import diagnostic, documented_refusals, refusal
from memql.interfaces.rest.models import ContextRequest, ContextResponse

router = APIRouter(prefix="/v1", tags=["conversation"])

REFUSALS = documented_refusals(
    {
        403: "not a participant of the conversation",
        422: "invalid input (an empty query, a malformed as_of, a strategy)",
    }
)


@router.post(
    "/context",
    response_model=ContextResponse,
    responses=REFUSALS,
    summary="A conversation's cited context for a query: current typed facts first, then the strategy's",
)
def context(request: ContextRequest, memory: CallerMemory) -> JSONResponse:
    """The conversation's typed facts that match the query lead, at their value true now (or at `as_of`),
    each cited to its turn; an earlier value only on a line labelled "until <date>:"; then what the
    strategy assembles in the budget left. The caller acts as its API key's identity: it reads a
    conversation only as its user, its agent or an admin (403 conversation.participant otherwise)."""
    return conversation_answer(
        lambda: served_context(
            memory.executor,
            request.query,
            user=request.user,
            agent=request.agent,
            conversation=request.conversation,
            budget_tokens=request.budget_tokens,
            strategy=request.strategy,
            as_of=request.as_of,
        )
    )


def conversation_answer(served: Callable[[], dict[str, Any]]) -> JSONResponse:
    """A served conversation call's answer (cognition/conversation/served.py), or its refusal's."""
    try:
        result = served()
    except ConversationError as exc:
        raise refusal(exc.diagnostics or [diagnostic("field.invalid", str(exc))]) from None
    return JSONResponse({"success": True, **result})
