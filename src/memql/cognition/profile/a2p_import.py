"""Importing an a2p profile: check the whole document, then write every memory in ONE workflow.

The document is checked first — malformed JSON, wrong types, an unknown memory type key, a memory
without content, a status memql cannot import, duplicate or already present ids — and every problem
comes back as a diagnostic naming its JSON path and a rule. Only a clean document is imported, as one
workflow (an Encode per memory, plus a Demote for an archived one and an Expire for an expired one or one
with a pending expiry), so the import is one transaction: it lands whole or not at all. docs/profile.md
describes the mapping.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import ConfigDict, Field, JsonValue, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from memql.cognition.profile.a2p import (
    CONSOLIDATED_KEY,
    EXPORT_LIMIT,
    MEMORY_TYPES,
    PAYLOAD_KEY,
    TYPE_KEYS,
    a2p_id,
)
from memql.engine.bulk import DEFAULT_BATCH
from memql.engine.result import ExecutionResult
from memql.lang import Limits, build, errors
from memql.lang.categories import Category
from memql.lang.diagnostics import Diagnostic, Diagnostics, join
from memql.lang.fields import (
    Confidence,
    Facets,
    Id,
    IdList,
    Instant,
    Name,
    StrictModel,
    Tags,
)
from memql.lang.hygiene import MISSING, decode
from memql.lang.ops.encode import MAX_TEXT
from memql.lang.ops.lifecycle import OnExpire
from memql.lang.time import format_instant
from memql.ports.progress import Progress, silent

if TYPE_CHECKING:
    from memql.engine.executor import Executor

MAX_MEMORIES = 50_000  # memories per imported profile (one workflow: at most two steps each)
# a profile file may be larger than one hand-written program
DOCUMENT_LIMITS = Limits(max_bytes=64 * 1024 * 1024, max_items=MAX_MEMORIES, max_nodes=5_000_000)
IMPORT_SOURCE_TYPE = "user_import"  # the source memql gives a memory that came without one
# top-level profile sections that hold no memories: accepted and left alone (identity is re-derived)
QUIET_SECTIONS = frozenset({"id", "version", "profileType", "identity", "created", "updated"})


# --- the document, as memql reads it --------------------------------------------------------------


class A2PSource(StrictModel):
    """Where a memory came from. a2p names the fields; memql keeps the object as given (instants in UTC)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue] = Field(init=False)

    type: Name | None = None
    timestamp: Instant | None = None
    agentDid: Annotated[str, Field(max_length=2048)] | None = None
    agentName: Annotated[str, Field(max_length=2048)] | None = None
    sessionId: Annotated[str, Field(max_length=2048)] | None = None
    context: Annotated[str, Field(max_length=MAX_TEXT)] | None = None
    importSource: Annotated[str, Field(max_length=2048)] | None = None


class A2PMetadata(StrictModel):
    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue] = Field(init=False)

    approvedAt: Instant | None = None
    rejectedAt: Instant | None = None
    archivedAt: Instant | None = None
    lastUsed: Instant | None = None
    lastConfirmed: Instant | None = None
    useCount: Annotated[int, Field(ge=0)] | None = None
    initialConfidence: Confidence | None = None
    mergedFrom: list[Annotated[str, Field(max_length=256)]] | None = None
    supersedes: Annotated[str, Field(max_length=256)] | None = None
    supersededBy: Annotated[str, Field(max_length=256)] | None = None
    editHistory: list[dict[str, JsonValue]] | None = None


class MemqlExtension(StrictModel):
    """What a2p has no field for (memql's own, optional): event time, kind, facets, payload kind, expiry."""

    time: Instant | None = None
    type: Name | None = None
    facets: Facets | None = None
    payload: Literal["text", "url", "structured"] = "text"
    expireAt: Instant | None = None
    onExpire: OnExpire | None = None


class A2PMemory(StrictModel):
    """One memory of `a2p:episodic|semantic|procedural`. Only `content` is required; fields a2p or
    memql does not know are kept as they are and exported again."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue] = Field(init=False)

    id: Id | None = None
    content: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    category: Category | None = None
    confidence: Confidence | None = None
    status: Literal["approved", "archived", "expired", "pending", "rejected"] = "approved"
    sensitivity: Literal["public", "standard", "sensitive", "restricted"] = "standard"
    scope: list[Name] | None = None
    tags: Tags | None = None
    source: A2PSource | None = None
    metadata: A2PMetadata | None = None
    consolidatedFrom: IdList | None = None
    memql: MemqlExtension | None = None

    @model_validator(mode="after")
    def _content_not_blank(self) -> A2PMemory:
        if not self.content.strip():
            raise PydanticCustomError("field.empty", "content is blank", {"field": "content"})
        return self


FIELDS = tuple(A2PMemory.model_fields)


@dataclass
class _Entry:
    path: str
    memory_type: str
    memory: A2PMemory


# --- the result -----------------------------------------------------------------------------------


@dataclass
class ImportResult:
    """`imported` pairs each memory's a2p id (None: it came without one) with its new record id."""

    success: bool
    imported: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    dry_run: bool = False
    result: ExecutionResult | None = None  # the import workflow's own result, when it ran

    def to_json(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "dry_run": self.dry_run,
            "imported": self.imported,
            "diagnostics": [d.model_dump() for d in self.diagnostics],
            "warnings": [d.model_dump() for d in self.warnings],
        }


# --- import ---------------------------------------------------------------------------------------


def import_profile(
    executor: Executor, source: Any, *, dry_run: bool = False, progress: Progress = silent
) -> ImportResult:
    """Import an a2p profile (JSON text, bytes, or decoded JSON) into the session's tenant, owned by the
    session's actor. All or nothing: any problem imports no memory. `progress` hears each workflow step
    run (nothing is committed before the last)."""
    diags = Diagnostics()
    entries = read_profile(source, diags)
    if entries is not None and not diags.has_errors:
        _check_ids(executor, entries, diags)
    if entries is None or diags.has_errors:
        return _refused(diags)
    if not entries:
        diags.warning("/memories", "a2p.ignored", "the profile has no memories: nothing to import")
        return ImportResult(True, warnings=_warnings(diags), dry_run=dry_run)
    now = format_instant(executor.clock.now())
    steps, origins = build_workflow(entries, now)
    task = f"importing {len(entries)} memories ({len(steps)} steps, one transaction)"
    progress(task, 0, len(steps))
    result = executor.execute(
        build.workflow(steps, name="a2p import"),
        dry_run=dry_run,
        limits=Limits(max_steps=len(steps), max_items=max(Limits().max_items, len(steps)), max_nodes=10**8),
        on_step=lambda index, _result: progress(task, index + 1, len(steps)),
        batch_size=DEFAULT_BATCH,  # its Encodes are written in batches (engine/bulk.py): the same outcome
    )
    warnings = _warnings(diags) + [
        _moved(w, origins) for w in result.warnings if w.rule not in ("expire.in_past", "target.empty")
    ]
    if not result.success:
        return ImportResult(
            False,
            diagnostics=[_moved(d, origins) for d in result.diagnostics],
            warnings=warnings,
            dry_run=dry_run,
            result=result,
        )
    imported = [
        {"id": entry.memory.id, "record": step.data["id"], "memory_type": entry.memory_type}
        for entry, step in zip(entries, (s for s in result.steps or [] if s.op == "Encode"), strict=True)
    ]
    return ImportResult(True, imported, warnings=warnings, dry_run=dry_run, result=result)


def read_profile(source: Any, diags: Diagnostics) -> list[_Entry] | None:
    """Decode and check the document; its memories (episodic, then semantic, then procedural, each list
    in its order), or None when it cannot be read at all. Problems go to `diags`."""
    doc = decode(source, diags, DOCUMENT_LIMITS)
    if doc is MISSING:
        return None
    if not isinstance(doc, dict):
        diags.error("", "field.type", "an a2p profile is a JSON object with a memories object")
        return None
    for key, value in doc.items():
        if key == "memories" or key in QUIET_SECTIONS:
            continue
        if value not in (None, [], {}):
            diags.warning(join("", key), "a2p.ignored", f"{key} is not imported: memql imports memories")
    memories = doc.get("memories")
    if memories is None:
        diags.error("/memories", "field.required", "memories is required (the profile's memories)")
        return None
    if not isinstance(memories, dict):
        diags.error("/memories", "field.type", "memories must be an object keyed a2p:episodic, ...")
        return None
    known = {key: t for t, key in TYPE_KEYS.items()}
    entries: list[_Entry] = []
    order = list(TYPE_KEYS.values())  # a fixed order: episodic, semantic, procedural, then the rest
    for key in sorted(memories, key=lambda k: (order.index(k) if k in order else len(order), k)):
        items = memories[key]
        base = join("/memories", key)
        if key not in known:
            diags.error(
                base,
                "a2p.memory_type",
                f"{key!r} is not a memory type: memql imports {', '.join(TYPE_KEYS.values())} "
                "(structured category sections such as a2p:professional are not imported)",
            )
            continue
        if not isinstance(items, list):
            diags.error(base, "field.type", f"{key} must be a list of memories")
            continue
        for i, item in enumerate(items):
            entry = _memory(item, join(base, i), known[key], diags)
            if entry is not None:
                entries.append(entry)
    if len(entries) > MAX_MEMORIES:
        diags.error("/memories", "json.too_long", f"{len(entries)} memories; one import takes {MAX_MEMORIES}")
    return entries


def _memory(item: Any, path: str, memory_type: str, diags: Diagnostics) -> _Entry | None:
    if not isinstance(item, dict):
        diags.error(path, "field.type", "a memory is an object with at least a content")
        return None
    typos = set()
    for key in item:  # an unknown field is kept as it is, but a near-miss of a known one is a typo
        hint = difflib.get_close_matches(key, FIELDS, n=1, cutoff=0.8) if key not in FIELDS else []
        if hint and hint[0] not in item:
            typos.add(join(path, hint[0]))
            diags.error(join(path, key), "field.unknown", f"unknown field {key!r}; did you mean {hint[0]!r}?")
    try:
        memory = A2PMemory.model_validate(item)
    except ValidationError as exc:
        errors.report(exc, path, diags, skip=typos)  # no second error for the field the typo misses
        return None
    if typos:
        return None
    if memory.sensitivity == "public":
        diags.warning(
            join(path, "sensitivity"),
            "a2p.sensitivity_public",
            "sensitivity public is read as standard (memql's least protected level)",
        )
    extension = memory.memql or MemqlExtension()
    if extension.payload == "structured" and not isinstance(_json_object(memory.content), dict):
        diags.error(join(path, "content"), "a2p.content", "memql.payload structured needs a JSON object")
    return _Entry(path, memory_type, memory)


def _json_object(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _check_ids(executor: Executor, entries: list[_Entry], diags: Diagnostics) -> None:
    """An id names one memory: it may not repeat in the document, nor name one the tenant has (a
    deleted record's id is free again)."""
    first: dict[str, str] = {}
    for entry in entries:
        given = entry.memory.id
        if given is None:
            continue
        if given in first:
            diags.error(
                join(entry.path, "id"), "a2p.duplicate_id", f"id {given} is also the id of {first[given]}"
            )
        else:
            first[given] = entry.path
    if not first:
        return
    read = executor.execute(
        build.retrieve(
            filter={"status": "any", "limit": EXPORT_LIMIT},
            include=["id", "payload_meta", "status"],
            meta={"dry_run": True},
        )
    )
    if not read.success:
        diags.extend(read.diagnostics)
        return
    present = {
        a2p_id(row, executor.tenant): row["id"] for row in read.data["rows"] if row["status"] != "deleted"
    }
    for given, path in first.items():
        if given in present:
            diags.error(
                join(path, "id"),
                "a2p.id_exists",
                f"memory {given} is already in this tenant (record {present[given]})",
            )


# --- the workflow ---------------------------------------------------------------------------------


def build_workflow(entries: list[_Entry], now: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The import as workflow steps, and for each step the JSON path of the memory it writes."""
    steps: list[dict[str, Any]] = []
    origins: list[str] = []
    for entry in entries:
        m = entry.memory
        extension = m.memql or MemqlExtension()
        encode = len(steps)
        steps.append(build.encode(**_encode_args(entry, now)))
        origins.append(entry.path)
        written = build.from_step(encode)
        follow: dict[str, Any] | None = None
        if m.status == "archived":
            follow = build.demote(written, archive=True)
        elif m.status == "rejected":  # a proposal, then its decision: both audited, as they happened here
            follow = build.update(written, status="rejected")
        elif m.status == "expired":  # expired as of the import, and staying so (the sweeper marks it)
            follow = build.expire(written, until=now, on_expire="none")
        elif extension.expireAt is not None:
            follow = build.expire(
                written,
                until=format_instant(extension.expireAt),
                on_expire=extension.onExpire or "soft_delete",
            )
        if follow is not None:
            steps.append(follow)
            origins.append(entry.path)
    return steps, origins


def _encode_args(entry: _Entry, now: str) -> dict[str, Any]:
    m = entry.memory
    extension = m.memql or MemqlExtension()
    content: Any = json.loads(m.content) if extension.payload == "structured" else m.content
    saved: dict[str, Any] = {
        "source": m.source.model_dump(mode="json", exclude_none=True)
        if m.source is not None
        else {"type": IMPORT_SOURCE_TYPE, "timestamp": now},
    }
    if m.id is not None:
        saved["id"] = m.id
    if m.scope:
        saved["scope"] = list(m.scope)
    if m.metadata is not None:
        saved["metadata"] = m.metadata.model_dump(mode="json", exclude_none=True)
    if m.__pydantic_extra__:
        saved["extra"] = dict(m.__pydantic_extra__)
    payload: dict[str, Any] = {extension.payload: content, PAYLOAD_KEY: saved}
    if m.consolidatedFrom:
        payload[CONSOLIDATED_KEY] = list(m.consolidatedFrom)
    args: dict[str, Any] = {
        "payload": payload,
        "memory_type": entry.memory_type,
        "sensitivity": "standard" if m.sensitivity == "public" else m.sensitivity,
        "dedupe": False,  # two memories of a profile may say the same thing; each keeps its id
    }
    optional = {
        "category": m.category,
        "confidence": m.confidence,
        "tags": list(m.tags) if m.tags else None,
        "type": extension.type,
        "time": format_instant(extension.time) if extension.time is not None else None,
        "facets": extension.facets.model_dump(mode="json", exclude_none=True) if extension.facets else None,
    }
    args.update({k: v for k, v in optional.items() if v is not None})
    if m.status in ("pending", "rejected"):
        args["proposal"] = True  # a proposal again: out of default reads until a user decides it
    return args


# --- diagnostics ----------------------------------------------------------------------------------

_STEP = re.compile(r"^/workflow/(\d+)")


def _moved(d: Diagnostic, origins: list[str]) -> Diagnostic:
    """A diagnostic of the import workflow, re-addressed to the memory its step writes."""
    match = _STEP.match(d.path)
    if match is None or int(match.group(1)) >= len(origins):
        return d
    inner = d.path[match.end() :]
    return d.model_copy(
        update={
            "path": origins[int(match.group(1))],
            "message": d.message + (f" (in the import's step {match.group(1)}: {inner})" if inner else ""),
        }
    )


def _warnings(diags: Diagnostics) -> list[Diagnostic]:
    return [d for d in diags.items if d.severity == "warning"]


def _refused(diags: Diagnostics) -> ImportResult:
    return ImportResult(
        False, diagnostics=[d for d in diags.items if d.severity == "error"], warnings=_warnings(diags)
    )


__all__ = ["MEMORY_TYPES", "A2PMemory", "ImportResult", "build_workflow", "import_profile", "read_profile"]
