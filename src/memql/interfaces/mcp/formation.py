"""Tools that hand memql what people say, to form memories from: `memory_remember` (typed facts from a
message: `Memory.remember`) and `memory_add_messages` (a conversation's new messages, its facts formed
from them: `Conversation.add_messages`) — the same Python API as REST's /v1/remember and /v1/messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from memql.interfaces.mcp.params import ReadPerm, Sensitivity, Tags, Time, WritePerm
from memql.interfaces.mcp.sdk import CallToolResult
from memql.interfaces.mcp.session import Session, conversation_answer
from memql.lang.delta import MAX_TEXT

Name = Annotated[str, Field(min_length=1, max_length=512)]


class MessageParam(BaseModel):
    """One message of a conversation, as `Conversation.add_messages` takes it."""

    model_config = ConfigDict(extra="forbid")

    role: Annotated[Name, Field(description='"user", "assistant", or a speaker\'s name')]
    text: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    time: Annotated[Time | None, Field(description="when it was said (default: the call's time)")] = None
    source_id: Annotated[Name | None, Field(description="its turn id (default M<n>)")] = None


def formation_tools(session: Session) -> list[Callable[..., CallToolResult]]:
    """The formation tools, bound to `session`'s Memory."""

    def memory_remember(
        said: Annotated[
            str, Field(min_length=1, max_length=MAX_TEXT, description="the message, as its speaker said it")
        ],
        speaker: Annotated[
            Name | None, Field(description="who said it (default: the server's actor)")
        ] = None,
        time: Annotated[Time | None, Field(description="when it was said (default now)")] = None,
        tags: Annotated[Tags | None, Field(description="tags of every memory written")] = None,
        sensitivity: Sensitivity | None = None,
        read_perm_level: ReadPerm | None = None,
        write_perm_level: WritePerm | None = None,
    ) -> CallToolResult:
        """Remember what someone said: memql reads the typed facts in the message (where someone lives,
        works, a deadline, a preference ...) and stores each as a fact — a newer value supersedes the one
        its subject and attribute held, which stays as history — and keeps a message with no fact as it
        was said. Use it on what the user tells you that may matter later; `memory_retrieve` (facts) and
        `memory_facts` read the current values. Returns {success, memories: [{id, event, text, fact,
        superseded, proposal}]}: event ADD (new), UPDATE (it closed the old value: superseded lists
        {id, text}) or NONE (already known). An agent without read_write consent stores proposals a user
        approves (proposal: true). Refused (isError): a malformed time (time.invalid), a fact the caller
        may not change (governance.locked, permission.*), nothing written.
        """

        def remembered(m):  # (a parameter left out is None: the Encodes leave it out too)
            return m.remember(
                said,
                speaker=speaker,
                time=time,
                tags=tags,
                sensitivity=sensitivity,
                read_perm_level=read_perm_level,
                write_perm_level=write_perm_level,
            )

        return session.run(remembered, "memql remember failed")

    def memory_add_messages(
        messages: Annotated[
            list[MessageParam], Field(min_length=1, max_length=1000, description="the messages, oldest first")
        ],
        user: Annotated[
            Name | None, Field(description="who the agent talks to (default: the server's actor, a user)")
        ] = None,
        agent: Annotated[
            Name | None, Field(description="the agent's name (default: the server's actor, an agent)")
        ] = None,
        conversation: Annotated[
            Name | None, Field(description="conversation id (default user/agent)")
        ] = None,
        time: Annotated[Time | None, Field(description="when they were said (default now)")] = None,
    ) -> CallToolResult:
        """Add messages to a conversation memql keeps (the turns between a user and an agent): stored
        together or not at all, and the typed facts they state formed — what `memory_context` then puts
        first, at the value true now. Use it after each exchange, so later contexts know what was said.
        Returns {success, conversation, messages: [{memory_id, role, text, time, source_ids, position,
        fact_ids, unformed}]}: `fact_ids` are the facts formed from a message; `unformed` says why a fact
        it states was not (another's, or locked). Refused (isError): a conversation the server's identity
        is not part of (conversation.participant: it acts only for its --actor; an admin for anyone), an
        agent without read_write consent (consent.write), a conversation under a lock (governance.locked),
        a malformed time (time.invalid, naming /messages/i/time), nothing stored.
        """
        from memql.cognition.conversation.served import served_messages

        given = [message.model_dump(exclude_none=True) for message in messages]

        def store(m):
            return served_messages(
                m.executor, given, user=user, agent=agent, conversation=conversation, time=time
            )

        return conversation_answer(session, store, "memql add_messages failed")

    return [memory_remember, memory_add_messages]
