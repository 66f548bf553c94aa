"""The memql MCP server: the verb, planning, program, fact and history tools over one Memory.

Parameters are checked against each tool's input schema before anything runs; a call that does not fit
gets an error result with one diagnostic per offending parameter (its JSON pointer, a stable rule id and
a message, as the language reports its own fields), never the SDK's free-text validation error.
"""

from __future__ import annotations

import difflib
import inspect
import os
import threading
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from memql import __version__
from memql.interfaces.mcp.catalog import BRIEF, BRIEF_PARAMETERS, REFUSED, TOOLS, tool_names
from memql.interfaces.mcp.compact import compact_input_schema, drop_nulls, null_tree
from memql.interfaces.mcp.formation import formation_tools
from memql.interfaces.mcp.framing import diagnostic, refusal
from memql.interfaces.mcp.programs import program_tools
from memql.interfaces.mcp.sdk import BaseServer, Tool, ToolError, server_options
from memql.interfaces.mcp.session import Session
from memql.interfaces.mcp.verbs import verb_tools
from memql.lang.diagnostics import Diagnostics
from memql.lang.errors import report
from memql.memory import Memory

INSTRUCTIONS = (
    "memql is this user's long-term memory. Recall with memory_retrieve before answering what the user "
    "may have said before; store what is worth keeping with memory_encode, and what the user tells you "
    "with memory_remember (it keeps typed facts current); organise with memory_label "
    "and memory_promote; forget with memory_delete or memory_expire. Every write is "
    "validated, audited (memory_history) and may be refused: a refusal is an error result whose "
    "diagnostics name the field, a rule id and the reason; nothing was changed."
)


class MemqlServer(BaseServer):
    """MCPServer whose tools refuse unknown or ill-typed parameters with memql diagnostics."""

    def __init__(self, tools: list[Tool], accepted: dict[str, dict[str, Any]], **options: Any) -> None:
        """`accepted`: each tool's full input schema (what a call may say, whichever set is served)."""
        super().__init__(tools=tools, **options)
        self._parameters = {name: set(schema.get("properties", {})) for name, schema in accepted.items()}
        self._nulls = {name: null_tree(schema) for name, schema in accepted.items()}

    async def call_tool(self, name: str, arguments: dict[str, Any], *context: Any) -> Any:
        # 2.x passes a context, 1.x does not
        known = self._parameters.get(name)
        if known is not None:
            arguments = drop_nulls(arguments, self._nulls[name])  # a strict client's "not given"
            unknown = [key for key in arguments if key not in known]
            if unknown:
                return refusal([_unknown(key, known) for key in unknown], tool=name)
        try:
            return await super().call_tool(name, arguments, *context)
        except ToolError as exc:
            if not isinstance(exc.__cause__, ValidationError):
                raise
            found = Diagnostics()
            report(exc.__cause__, "", found)
            return refusal(found.items, tool=name)


def _unknown(key: str, known: set[str]):
    hint = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    message = f"unknown parameter {key!r}" + (f"; did you mean {hint[0]!r}?" if hint else "")
    return diagnostic(f"/{key}", "field.unknown", message)


def _root_inlined(tool: Tool) -> None:
    """An output schema whose root is a `$ref` (SDK 1.x before 1.2x writes one) with the root inlined,
    so every SDK line publishes the ExecutionResult's properties at the top."""
    schema = tool.fn_metadata.output_schema
    if schema and set(schema) == {"$defs", "$ref"} and schema["$ref"].startswith("#/$defs/"):
        root = schema["$ref"].removeprefix("#/$defs/")
        tool.fn_metadata.output_schema = {**schema["$defs"][root], "$defs": schema["$defs"]}


# What Tool.from_function makes of a tool function (a pydantic model of its parameters, its input and output
# schemas: ~5 ms a tool, 0.18 s for the full set) depends on the function's signature and docstring, not on
# the session it is bound to; a process that builds a server per Memory (a server per connection, a test
# per store) builds each tool once. Key: (name, set, code, signature, docstring) -> (tool, accepted schema).
_TEMPLATES: dict[tuple[Any, ...], tuple[Tool, dict[str, Any]]] = {}
_TEMPLATES_LOCK = threading.Lock()


def _unbound(**arguments: Any) -> Any:
    raise AssertionError("a template tool is never served")


def _tool(fn: Callable[..., Any], name: str, *, compact: bool) -> tuple[Tool, dict[str, Any]]:
    """The served tool for `fn` and the full input schema a call of it may use."""
    key = (name, compact, fn.__code__, str(inspect.signature(fn)), fn.__doc__)
    with _TEMPLATES_LOCK:
        template = _TEMPLATES.get(key)
    if template is None:
        # the compact set publishes no output schema (the result's shape is in the description)
        tool = Tool.from_function(fn, structured_output=not compact, annotations=TOOLS[name].annotations())
        tool.parameters["additionalProperties"] = False  # unknown parameters are refused, not ignored
        _root_inlined(tool)
        accepted = tool.parameters
        if compact:
            tool.parameters = compact_input_schema(tool.parameters, BRIEF_PARAMETERS)
            tool.description = BRIEF[name] + REFUSED
        # the template keeps no tool function: it would keep its session's Memory (and store) alive
        template = (tool.model_copy(update={"fn": _unbound}), accepted)
        with _TEMPLATES_LOCK:
            _TEMPLATES[key] = template
    tool, accepted = template
    return tool.model_copy(update={"fn": fn}, deep=True), accepted


def tool_set_from_env() -> str:
    """The tool set `$MEMQL_MCP_TOOLS` names (core when unset)."""
    return os.environ.get("MEMQL_MCP_TOOLS", "").strip().lower() or "core"


def build_server(memory: Memory, *, tools: str | None = None) -> MemqlServer:
    """An MCP server whose tools act on `memory` (its tenant, actor, role, consent, clearance, clock).

    `tools`: "core", the compact default set, or "full", every tool (default: `$MEMQL_MCP_TOOLS`, else
    core); an unknown name raises ValueError."""
    tool_set = tools or tool_set_from_env()
    wanted = tool_names(tool_set)
    session = Session(memory)
    tools = [*verb_tools(session), *program_tools(session), *formation_tools(session)]
    functions = {fn.__name__: fn for fn in tools}
    served, accepted = [], {}
    for name in wanted:
        tool, accepted[name] = _tool(functions[name], name, compact=tool_set == "core")
        served.append(tool)
    return MemqlServer(
        served,
        accepted,
        name="memql",
        **server_options(__version__),
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
