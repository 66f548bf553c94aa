"""mem0's arguments to memql's and memql's rows to mem0's shapes (memql.integrations.mem0.api): scopes and
their principals, messages, metadata, mem0's filter operators as `where` conditions on facets, results and
history rows, and memql's diagnostics as exceptions. Translation only: what a call does is memql's."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from memql.cognition.remember import fact_text
from memql.engine.result import ExecutionResult
from memql.errors import MemqlError, Refusal
from memql.lang.diagnostics import Diagnostic
from memql.memory import Memory as MemqlMemory

SCOPE_KEYS = ("user_id", "agent_id", "run_id")
PROMOTED = ("user_id", "agent_id", "run_id", "actor_id", "role")  # facets shown beside the memory, as mem0's
OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "icontains")
LOGICAL = {"AND": "$and", "OR": "$or", "NOT": "$not"}
MAX_ID = 200  # characters of a scope id (a principal is "agent:" + it, within memql's names)
MAX_RESULTS = 10_000
# the rule families of an invalid program (the rest are the engine's refusals)
INVALID = ("json.", "field.", "filter.", "encode.", "target.", "op.", "workflow.", "time.", "duration.")


class InvalidRequest(MemqlError, ValueError):
    """A call memql cannot take as given: `rule` (a stable id) and `field`, the argument it is about."""

    def __init__(self, rule: str, field: str, message: str) -> None:
        super().__init__(f"{field}: {message} ({rule})")
        self.rule, self.field, self.message = rule, field, message


class MemoryNotFound(Refusal, ValueError):
    """No memory of that id that the caller may read (mem0 raises a ValueError here too)."""


# --- scopes ----------------------------------------------------------------------------------------------


def _scope_id(value: Any, name: str) -> str | None:
    if value is None:
        return None
    text = str(value).strip()  # mem0 takes integer ids too
    if not text or any(c.isspace() for c in text):
        raise InvalidRequest("scope.invalid", name, "an id is a non-empty string without whitespace")
    if len(text) > MAX_ID:
        raise InvalidRequest("scope.invalid", name, f"an id has at most {MAX_ID} characters")
    if name == "user_id" and text.startswith(("agent:", "run:")):
        raise InvalidRequest(
            "scope.invalid",
            name,
            "a user id does not start with agent: or run: (the principals of agents and runs)",
        )
    return text


def scope_of(
    *,
    user_id: Any = None,
    agent_id: Any = None,
    run_id: Any = None,
    required: bool = False,
    what: str = "add",
) -> dict[str, str]:
    """The scope's ids that were given, checked as mem0 checks them."""
    ids = {"user_id": user_id, "agent_id": agent_id, "run_id": run_id}
    scope = {name: checked for name, value in ids.items() if (checked := _scope_id(value, name)) is not None}
    if required and not scope:
        raise InvalidRequest(
            "scope.required", "user_id", f"{what} needs at least one of 'user_id', 'agent_id' or 'run_id'"
        )
    return scope


def only_scope(arguments: Mapping[str, Any], method: str) -> dict[str, Any]:
    for name in arguments:
        if name not in SCOPE_KEYS:
            raise InvalidRequest("argument.unknown", name, f"{method} takes user_id, agent_id or run_id")
    return dict(arguments)


def principals(scope: Mapping[str, str]) -> list[str]:
    """Who a scope's memories belong to, the owner first: the user, the agent, the run."""
    out = []
    if "user_id" in scope:
        out.append(scope["user_id"])
    if "agent_id" in scope:
        out.append(f"agent:{scope['agent_id']}")
    if "run_id" in scope:
        out.append(f"run:{scope['run_id']}")
    return out


def principal(scope: Mapping[str, str]) -> str:
    return principals(scope)[0]


def permissions(scope: Mapping[str, str]) -> dict[str, Any]:
    """The record's readers and writers: its owner (implied) and the scope's other principals only."""
    others = principals(scope)[1:]
    if not others:
        return {"read_perm_level": "private", "write_perm_level": "owner_only"}
    return {
        "read_perm_level": "custom",
        "read_whitelist": others,
        "write_perm_level": "custom",
        "write_whitelist": others,
    }


def split_filters(
    user_id: Any, agent_id: Any, run_id: Any, filters: Mapping[str, Any] | None, what: str
) -> tuple[dict[str, str], dict[str, Any]]:
    """The scope (top-level ids, as mem0 1.x takes them, or inside `filters`, as 2.x does) and the rest of
    the filters."""
    if filters is not None and not isinstance(filters, Mapping):
        raise InvalidRequest("filters.type", "filters", "filters is an object")
    rest = dict(filters or {})
    given = {"user_id": user_id, "agent_id": agent_id, "run_id": run_id}
    for name in SCOPE_KEYS:
        if name in rest:
            inner = rest.pop(name)
            if given[name] is not None and str(given[name]).strip() != str(inner).strip():
                raise InvalidRequest("scope.conflict", f"filters.{name}", f"differs from the {name} argument")
            given[name] = inner
    return scope_of(**given, required=True, what=what), rest


# --- what is stored ------------------------------------------------------------------------------------


def messages_of(messages: Any) -> list[tuple[str, str, str | None]]:
    """(role, content, name) of each message but system ones."""
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    elif isinstance(messages, Mapping):
        messages = [messages]
    elif not isinstance(messages, Sequence):
        raise InvalidRequest(
            "messages.type", "messages", "a string, a {role, content} dict or a list of them"
        )
    out = []
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise InvalidRequest("messages.type", f"messages[{i}]", "a message is a {role, content} dict")
        role, content, name = message.get("role"), message.get("content"), message.get("name")
        if not isinstance(role, str) or not role:
            raise InvalidRequest(
                "messages.role", f"messages[{i}].role", "a message has a role (user, assistant)"
            )
        if role == "system":
            continue
        if not isinstance(content, str) or not content.strip():
            raise InvalidRequest(
                "messages.content", f"messages[{i}].content", "the content is non-blank text"
            )
        if name is not None and not isinstance(name, str):
            raise InvalidRequest("messages.name", f"messages[{i}].name", "a name is a string")
        out.append((role, content, name))
    return out


def metadata_of(metadata: Any) -> dict[str, Any]:
    if metadata is None:
        return {}
    if not isinstance(metadata, Mapping) or not all(isinstance(k, str) and k for k in metadata):
        raise InvalidRequest("metadata.type", "metadata", "metadata is an object with non-empty string keys")
    return dict(metadata)


def facets_of(
    scope: Mapping[str, str],
    metadata: Mapping[str, Any],
    *,
    role: str | None = None,
    actor_id: str | None = None,
) -> dict[str, Any]:
    """A record's facets: its scope ids, role, actor and mem0 metadata (under `metadata`)."""
    facets: dict[str, Any] = dict(scope)
    if role is not None:
        facets["role"] = role
    if actor_id is not None:
        facets["actor_id"] = actor_id
    if metadata:
        facets["metadata"] = dict(metadata)
    return facets


def expiry(value: Any) -> dict[str, Any]:
    """mem0's expiration_date (a day): the memory lives through that day (UTC) and expires after it."""
    if value is None:
        return {}
    day: date | None = None
    if isinstance(value, datetime):
        day = value.astimezone(UTC).date() if value.tzinfo else value.date()
    elif isinstance(value, date):
        day = value
    elif isinstance(value, str):
        try:
            day = date.fromisoformat(value.strip()[:10])
        except ValueError:
            day = None
    if day is None:
        raise InvalidRequest("expiration_date.invalid", "expiration_date", "a day, as YYYY-MM-DD")
    return {"expire_at": datetime.combine(day + timedelta(days=1), time(0), UTC).isoformat()}


def count(limit: Any, top_k: Any, default: int) -> int:
    if limit is not None and top_k is not None and limit != top_k:
        raise InvalidRequest("limit.conflict", "top_k", "give limit or top_k")
    value = limit if limit is not None else top_k
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RESULTS:
        raise InvalidRequest("limit.range", "limit", f"the limit is a whole number from 1 to {MAX_RESULTS}")
    return value


# --- filters -------------------------------------------------------------------------------------------


def where_of(scope: Mapping[str, str], filters: Mapping[str, Any] | None) -> dict[str, Any]:
    """The scope's ids and mem0's filters as one `where` on the records' facets."""
    return {**dict(scope), **_translate(filters or {}, "filters")}


def _translate(filters: Mapping[str, Any], at: str) -> dict[str, Any]:
    if not isinstance(filters, Mapping):
        raise InvalidRequest("filters.type", at, "a filter is an object of fields and conditions")
    out: dict[str, Any] = {}
    for key, condition in filters.items():
        if key in LOGICAL:
            if not isinstance(condition, list) or not condition:
                raise InvalidRequest(
                    "filters.logical", f"{at}.{key}", f"{key} takes a non-empty list of filters"
                )
            inner = [_translate(c, f"{at}.{key}[{i}]") for i, c in enumerate(condition)]
            if key == "NOT":  # none of them holds
                out["$not"] = {"$or": inner}
            else:
                out.setdefault(LOGICAL[key], []).extend(inner)
            continue
        if not isinstance(key, str) or not key or key.startswith("$"):
            raise InvalidRequest("filters.field", f"{at}.{key}", "a field name (or AND, OR, NOT)")
        path = key if key in PROMOTED else f"metadata.{key}"
        out[path] = _condition(condition, f"{at}.{key}")
    return out


def _condition(condition: Any, at: str) -> Any:
    if condition == "*":  # any value: the field is there
        return {"$ne": None}
    if not isinstance(condition, Mapping):
        return condition
    if not condition:
        raise InvalidRequest(
            "filters.operator", at, f"an empty condition (use one of {', '.join(OPERATORS)})"
        )
    out = {}
    for op, operand in condition.items():
        if op not in OPERATORS:
            raise InvalidRequest(
                "filters.operator", at, f"unknown operator {op!r} (use one of {', '.join(OPERATORS)})"
            )
        out[f"${op}"] = operand
    return out


# --- what is returned ----------------------------------------------------------------------------------


def _iso(value: Any) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else value


def memory_text(text: Any, structured: Any) -> str:
    """What a record says: its text, or a typed fact as a sentence."""
    if text:
        return str(text)
    if isinstance(structured, Mapping) and "attribute" in structured and "subject" in structured:
        return fact_text(structured["subject"], structured["attribute"], structured.get("value"))
    return ""


def item(row: Mapping[str, Any]) -> dict[str, Any]:
    """A record as mem0's memory item."""
    facets = row.get("facets") or {}
    text = memory_text(row.get("text"), row.get("structured"))
    out: dict[str, Any] = {
        "id": str(row["id"]),
        "memory": text,
        "hash": hashlib.md5(text.encode()).hexdigest(),
        "metadata": facets.get("metadata") or None,
        "created_at": _iso(row.get("created_at")),
        "updated_at": _iso(row.get("updated_at")),
    }
    for key in PROMOTED:
        if key in facets:
            out[key] = facets[key]
    return out


def history_rows(session: MemqlMemory, memory_id: str) -> list[dict[str, Any]]:
    """mem0's history of a memory from memql's audit log: ADD, UPDATE (its text, its metadata, or — for a
    typed fact — the value that superseded it), DELETE; a typed fact's history starts with the values its
    key held before it. Only what the session may read."""
    events = session.history(memory_id)
    if not events:
        return []
    first = events[0]["after"]
    role = (first.get("facets") or {}).get("role")
    chain: list[Any] = []
    if first.get("subject") and first.get("attribute"):
        chain = session.facts.history(first["subject"], first["attribute"]).facts
    ids = [f.id for f in chain]
    here = ids.index(memory_id) if memory_id in ids else None
    rows: list[dict[str, Any]] = []
    previous = None
    for fact in chain[: here or 0]:  # the values before this one
        said = fact_text(fact.subject, fact.attribute, fact.value)
        inserted = session.history(fact.id)[:1]
        rows.append(
            _history_row(inserted[0] if inserted else None, fact.id, previous, said, role, fact.recorded_at)
        )
        previous = said
    current = memory_text(first.get("text"), first.get("structured"))
    rows.append(_history_row(events[0], memory_id, previous, current, role))
    for event in events[1:]:
        before, after = event["before"], event["after"]
        if "text" in after:
            rows.append(_history_row(event, memory_id, current, after["text"], role, kind="UPDATE"))
            current = after["text"]
        elif after.get("status") == "deleted":
            rows.append(_history_row(event, memory_id, current, None, role, kind="DELETE"))
        elif (
            after.get("valid_to")
            and not before.get("valid_to")
            and here is not None
            and here + 1 < len(chain)
        ):
            later = chain[here + 1]
            said = fact_text(later.subject, later.attribute, later.value)
            rows.append(_history_row(event, memory_id, current, said, role, kind="UPDATE"))
        elif "facets" in after:
            rows.append(_history_row(event, memory_id, current, current, role, kind="UPDATE"))
    return rows


def _history_row(
    entry: Mapping[str, Any] | None,
    memory_id: str,
    old: str | None,
    new: str | None,
    role: str | None,
    at: datetime | None = None,
    *,
    kind: str | None = None,
) -> dict[str, Any]:
    """One row of mem0's history from an audit entry (or, without one, a fact's recording time)."""
    name = kind or ("ADD" if old is None else "UPDATE")
    when = _iso(entry["time"] if entry is not None else at)
    return {
        "id": str(entry["seq"]) if entry is not None else None,
        "memory_id": memory_id,
        "old_memory": old,
        "new_memory": new,
        "event": name,
        "created_at": when,
        "updated_at": when if name != "ADD" else None,
        "is_deleted": name == "DELETE",
        "actor_id": entry["actor"] if entry is not None else None,
        "role": role,
    }


# --- memql's answers as exceptions ---------------------------------------------------------------------


def refusal(diagnostics: Sequence[Diagnostic], memory_id: Any = None) -> MemqlError:
    first = diagnostics[0] if diagnostics else Diagnostic(path="", rule="op.failed", message="refused")
    if first.rule == "target.not_found":
        return MemoryNotFound(first.rule, f"Memory with id {memory_id} not found", first.path)
    if first.rule.startswith(INVALID):
        return InvalidRequest(first.rule, first.path or "/", first.message)
    return Refusal(first.rule, first.message, first.path)


def memory_id_of(value: Any) -> str:
    """A memory id as memql names records (mem0's are strings; an integer is taken too)."""
    if isinstance(value, bool) or not isinstance(value, str | int) or not str(value).strip():
        raise InvalidRequest("memory_id.invalid", "memory_id", "a memory id is a non-empty string")
    return str(value).strip()


def ok(result: ExecutionResult, memory_id: Any = None) -> ExecutionResult:
    """The result of a call that succeeded; else memql's first diagnostic as an exception. A write by id
    (`memory_id` given) that found nothing (memql's warning `target.not_found`) is MemoryNotFound."""
    if not result.success:
        raise refusal(result.diagnostics, memory_id)
    missing = [w for w in result.warnings if w.rule == "target.not_found"]
    if memory_id is not None and missing:
        raise refusal(missing, memory_id)
    return result
