"""How a tool answers: the API's result as structured JSON, and an error result when memql refused.

An agent reads one shape everywhere: `structuredContent` is the Python API's own JSON (an
ExecutionResult, a plan outcome, facts, a history), the text content is the same JSON (for clients that
only show text), and a refusal sets `isError` and leads the text with each diagnostic's field, rule and
message.
"""

from __future__ import annotations

import json
from typing import Any

from memql.interfaces.mcp.sdk import CallToolResult, TextContent
from memql.lang.diagnostics import RULES, Diagnostic
from memql.lang.encoding import json_default


def answer(
    data: dict[str, Any], *, refused: bool, diagnostics: list[Diagnostic] | None = None
) -> CallToolResult:
    """`data` as the tool's result; when `refused`, an error result whose first line names each
    diagnostic as `path: message [rule]`."""
    data = json.loads(json.dumps(data, ensure_ascii=False, default=json_default))
    text = json.dumps(data, ensure_ascii=False)
    if refused:
        reasons = "; ".join(str(d) for d in diagnostics or []) or "refused"
        text = f"refused: {reasons}\n{text}"
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structuredContent=data, isError=refused
    )


def refusal(diagnostics: list[Diagnostic], **data: Any) -> CallToolResult:
    """An error result carrying only diagnostics (the call never reached the engine, or found nothing)."""
    body = {"success": False, **data, "diagnostics": [d.model_dump() for d in diagnostics]}
    return answer(body, refused=True, diagnostics=diagnostics)


def diagnostic(path: str, rule: str, message: str) -> Diagnostic:
    """An error found by the server itself; its rule is one of the language's catalogued ids."""
    if rule not in RULES:
        raise KeyError(f"uncatalogued diagnostic rule {rule!r}")
    return Diagnostic(path=path, rule=rule, severity="error", message=message)
