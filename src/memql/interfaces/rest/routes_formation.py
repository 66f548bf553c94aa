"""/v1/remember and /v1/messages: what people say, handed to memql to form memories from — the shells over
the Python API's `Memory.remember` and `Conversation.add_messages` (as MCP's `memory_remember` and
`memory_add_messages`), with their refusals as structured diagnostics and the status they call for."""

from __future__ import annotations

from fastapi import APIRouter

from memql.cognition.conversation.served import served_messages
from memql.cognition.remember import remember
from memql.interfaces.rest.auth import CallerMemory
from memql.interfaces.rest.encoding import JSONResponse
from memql.interfaces.rest.errors import documented_refusals, status_for
from memql.interfaces.rest.models import MessagesRequest, MessagesResponse, RememberRequest, RememberResponse
from memql.interfaces.rest.routes_context import conversation_answer

router = APIRouter(prefix="/v1", tags=["formation"])

REFUSALS = documented_refusals(
    {
        403: "refused by consent, permissions or the conversation's privacy",
        409: "a lock refuses it (the value it would close, the conversation's latest message)",
        422: "invalid input (a blank text, a malformed time, a field)",
    }
)


@router.post(
    "/remember",
    response_model=RememberResponse,
    responses=documented_refusals(
        {
            403: (RememberResponse, "refused by permissions (another user's fact)"),
            409: (RememberResponse, "a lock on the value it would close"),
            422: "invalid input: a field (an error body) or a time (a RememberResponse)",
        }
    ),
    summary="Form typed facts from what people said: a newer value supersedes its key's old one",
)
def remember_said(request: RememberRequest, memory: CallerMemory) -> JSONResponse:
    """Each typed fact the server's extractor reads in the speaker's messages is stored as a fact record:
    a newer value closes the one its key held (event UPDATE, naming the facts it superseded), the same
    value again is NONE; a message with no fact is kept as it was said (`keep_unformed`). One workflow,
    all or nothing, as the caller: an agent with propose consent makes proposals, with read none."""
    said = request.said if isinstance(request.said, str) else [(t.speaker, t.text) for t in request.said]
    result = remember(  # (a field left out is None: the Encodes leave it out too)
        memory.executor,
        said,
        speaker=request.speaker,
        time=request.time,
        facets=request.facets,
        keep_unformed=request.keep_unformed,
        tags=request.tags,
        sensitivity=request.sensitivity,
        read_perm_level=request.read_perm_level,
        write_perm_level=request.write_perm_level,
    )
    status = 200 if result.success else status_for(result.diagnostics)
    return JSONResponse(result.to_json(), status_code=status)


@router.post(
    "/messages",
    response_model=MessagesResponse,
    responses=REFUSALS,
    summary="Add messages to a conversation, stored together; its typed facts are formed from them",
)
def add_messages(request: MessagesRequest, memory: CallerMemory) -> JSONResponse:
    """The messages are stored in one workflow or not at all, seen by the conversation's strategies, and
    the typed facts they state formed (`fact_ids`) — what `/v1/context` then puts first. The caller acts
    as its API key's identity: in a conversation only as its user, its agent (with read_write consent)
    or an admin (403 conversation.participant, consent.write otherwise)."""
    return conversation_answer(
        lambda: served_messages(
            memory.executor,
            [m.model_dump(exclude_none=True) for m in request.messages],
            user=request.user,
            agent=request.agent,
            conversation=request.conversation,
            time=request.time,
        )
    )
