"""The one Memory a server's tools act on, one call at a time."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from memql.errors import Refusal
from memql.interfaces.mcp.framing import answer, diagnostic, refusal
from memql.interfaces.mcp.sdk import CallToolResult
from memql.lang.diagnostics import Diagnostic
from memql.memory import Memory

log = logging.getLogger("memql.mcp")


class Session:
    """The Memory the server was opened on (its tenant, actor, role, consent, clearance and clock are
    the CLI's global options). The SDK runs tool calls on worker threads; memql's calls are made one at
    a time so one op's transaction never interleaves with another's on the same store handle."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self._lock = threading.Lock()

    def call(self, work: Callable[[Memory], Any]) -> Any:
        with self._lock:
            return work(self.memory)

    def run(self, work: Callable[[Memory], Any], what: str = "memql tool call failed") -> CallToolResult:
        """Run one API call that returns a result (an ExecutionResult, or another with `success`,
        `diagnostics` and `to_json()`: facts, remember) and frame it (refused: an error result)."""
        try:
            result = self.call(work)
        except Exception as exc:  # the engine reports its own failures as diagnostics; this is the last guard
            return failed(exc, what)
        return answer(result.to_json(), refused=not result.success, diagnostics=result.diagnostics)


def conversation_answer(
    session: Session, work: Callable[[Memory], dict[str, Any]], what: str
) -> CallToolResult:
    """A served conversation call's answer (memql.cognition.conversation.served), or its refusal's."""
    from memql.cognition.conversation.records import ConversationError

    try:
        result = session.call(work)
    except ConversationError as exc:
        return refusal(list(exc.diagnostics))
    except Exception as exc:
        return failed(exc, what)
    return answer({"success": True, **result}, refused=False)


def failed(exc: Exception, what: str) -> CallToolResult:
    """The error result of a call that raised: a refusal raised outside a program's result (a store that is
    busy or cannot be reached, said by a read such as history) as that refusal; anything else, logged, as
    `exec.internal`."""
    if isinstance(exc, Refusal):
        return refusal([Diagnostic(path=exc.path, rule=exc.rule, severity="error", message=exc.message)])
    log.error(what, exc_info=exc)
    return internal_error()


def internal_error() -> CallToolResult:
    return refusal([diagnostic("", "exec.internal", "an unexpected error; nothing was changed")])
