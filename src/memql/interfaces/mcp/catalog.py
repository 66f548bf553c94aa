"""What each tool is, for a client deciding whether to call it: its MCP annotations (the truth about
what it may change), a one-line summary (`memql mcp --help`) and whether it is in the default, compact
tool set (`--tools core`) or only in the full one (`--tools full`).

The annotations follow memql's own rule for what needs a confirmation (docs/mcp.md): anything that may
overwrite, hide or remove existing data, or change a lock, is destructive; only adding new records is
not. Idempotent: the same call twice leaves the store as one call did (a relative `delta`, a `ttl`
counted from now, a new record per call are not).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TOOL_SETS = ("core", "full")


@dataclass(frozen=True)
class ToolInfo:
    summary: str
    read_only: bool
    destructive: bool
    idempotent: bool
    core: bool

    def annotations(self) -> Any:
        # the SDK is an optional extra; `memql mcp --help` reads this module without it
        from memql.interfaces.mcp.sdk import ToolAnnotations

        return ToolAnnotations(
            readOnlyHint=self.read_only,
            # the MCP spec reads these two only for a tool that writes; stated anyway
            destructiveHint=self.destructive,
            idempotentHint=self.idempotent,
            openWorldHint=False,  # the tools act on this memql store only
        )


def _reads(summary: str, *, core: bool = True) -> ToolInfo:
    return ToolInfo(summary, read_only=True, destructive=False, idempotent=True, core=core)


def _writes(summary: str, *, destructive: bool, idempotent: bool, core: bool = True) -> ToolInfo:
    return ToolInfo(summary, read_only=False, destructive=destructive, idempotent=idempotent, core=core)


TOOLS: dict[str, ToolInfo] = {
    # adds a record (or returns the identical one); dedupe=false stores another copy each call
    "memory_encode": _writes(
        "store a new memory (text, URL or typed fact)", destructive=False, idempotent=False
    ),
    # a read counts as an access (visits, last_access_at: ranking statistics); no memory content changes
    "memory_retrieve": _reads("search memories by query and filter, or read them by id"),
    # stores a new summary record each call; its sources are untouched
    "memory_summarize": _writes(
        "summarize memories into a new summary record", destructive=False, idempotent=False, core=False
    ),
    "memory_update": _writes("change fields of memories in place", destructive=True, idempotent=True),
    # mode replace/remove takes tags and facets away
    "memory_label": _writes("add, replace or remove tags and facets", destructive=True, idempotent=True),
    # delta accumulates; archived records come back
    "memory_promote": _writes(
        "raise memories' priority or schedule a reminder", destructive=True, idempotent=False
    ),
    "memory_demote": _writes(
        "lower memories' priority or archive them", destructive=True, idempotent=False, core=False
    ),
    # keep_children: the same records can be merged again
    "memory_merge": _writes(
        "fold several memories into one (the others soft-deleted)",
        destructive=True,
        idempotent=False,
        core=False,
    ),
    "memory_delete": _writes(
        "forget memories (soft, or hard with confirm)", destructive=True, idempotent=True
    ),
    # the original is archived: splitting it again is refused
    "memory_split": _writes(
        "cut a memory into parts (the original archived)", destructive=True, idempotent=True, core=False
    ),
    "memory_lock": _writes("protect memories from change", destructive=True, idempotent=True),
    "memory_unlock": _writes("lift a lock", destructive=True, idempotent=True, core=False),
    # ttl counts from now: each call moves the expiry
    "memory_expire": _writes("give memories an expiry", destructive=True, idempotent=False),
    # with execute it may run any verb
    "memory_plan": _writes(
        "plan (and optionally run) a natural-language instruction", destructive=True, idempotent=False
    ),
    "memory_execute": _writes(
        "run a memql program (IR or workflow)", destructive=True, idempotent=False, core=False
    ),
    "memory_facts": _reads("a subject's typed facts now, then, or their history", core=False),
    "memory_history": _reads("memories' audit history: every change, who, before and after"),
    # adds fact records or the message; a newer value closes its key's current one (kept as history);
    # the same message again finds what it wrote (event NONE)
    "memory_remember": _writes(
        "form typed facts from what someone said (a newer value supersedes)",
        destructive=True,
        idempotent=True,
    ),
    # adds message records and the facts they state; a newer value closes its key's current one
    "memory_add_messages": _writes(
        "add messages to a conversation; its typed facts are formed",
        destructive=True,
        idempotent=False,
        core=False,
    ),
    "memory_context": _reads("cited context from a conversation's memory for a query", core=False),
}


def tools_help() -> str:
    """Every tool with its one-line summary, the compact set's marked (for `memql mcp --help`)."""
    width = max(map(len, TOOLS))
    lines = [f"{name:<{width}}  {'*' if info.core else ' '} {info.summary}" for name, info in TOOLS.items()]
    return "\n".join(lines)


def tool_names(tool_set: str) -> list[str]:
    """The tools in `tool_set` ("core": the compact default; "full": every tool), in catalogue order."""
    if tool_set not in TOOL_SETS:
        raise ValueError(f"unknown tool set {tool_set!r}: expected one of {', '.join(TOOL_SETS)}")
    return [name for name, info in TOOLS.items() if tool_set == "full" or info.core]


REFUSED = " Refused: isError, diagnostics name field, rule, reason; nothing changed."
# the compact set's tool descriptions: what to use the tool for, what it returns (the full set has more)
BRIEF: dict[str, str] = {
    "memory_encode": "Remember something: store one memory (text, url, or a typed fact in structured) "
    "with tags, facets, weight. Returns the ExecutionResult; data.id is the record's id.",
    "memory_retrieve": "Recall memories before answering what the user may have said: hybrid search by "
    "query, narrowed by filter, or read by ids. Returns data.rows (ranked) and data.count.",
    "memory_update": "Change fields of memories in place (give at least one field); old values stay in "
    "the history. Approve/reject a proposal with status.",
    "memory_label": "Add, replace or remove tags and facets on memories (mode), or infer tags from text.",
    "memory_promote": "Make memories more important (weight or delta) and/or schedule a reminder "
    "(remind: an RRULE).",
    "memory_delete": "Forget memories: soft (restorable for 30 days) by default; hard needs confirm "
    "(ask the user first).",
    "memory_lock": "Protect memories from change (read_only or append_only), with a reason.",
    "memory_expire": "Give memories an expiry (ttl or until) and what happens then (on_expire).",
    "memory_plan": "Turn a natural-language memory instruction (English, Chinese) into a program; execute "
    "runs it; a destructive one needs confirm (ask the user first).",
    "memory_history": "Memories' audit history: every change, when, who, which op, fields before/after.",
    "memory_remember": "Remember what the user said: the typed facts in the message (a newer value "
    "supersedes the old one), or the message when it states none. Returns memories [{id, event "
    "ADD/UPDATE/NONE, text, fact, superseded, proposal}].",
}
# the compact set's parameter descriptions, where a parameter's own would cost more than it tells
BRIEF_PARAMETERS: dict[str, str] = {
    "ids": 'record ids, e.g. ["3"]',
    "text": "the text",
    "time": "ISO-8601 or an expression ('tomorrow 9am')",
    "until": "ISO-8601 or an expression ('in 3 days')",
    "weight": "priority 0..1",
    "filter": "conditions (AND)",
    "include": "fields to return (default: 9 common fields)",
    "as_of": "read as at this instant",
    "ttl": "ISO-8601 duration, e.g. P7D",
    "category": "a2p category, e.g. a2p:preferences",
    "facts": "also the typed facts the query names (history: earlier values too)",
    "interpret": "read the text into facets, time, type, category",
}
