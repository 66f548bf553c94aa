"""The a2p profile document (a2p protocol 0.1.0, memory schema v0.1) and its export.

A tenant's (or one owner's) memories become one profile: `memories` keyed `a2p:episodic`,
`a2p:semantic` and `a2p:procedural`, each memory with the a2p fields (id, content, category,
confidence, status, sensitivity, scope, tags, source, metadata, consolidatedFrom) and a `memql` object
for what a2p has no field for (event time, kind, facets, pending expiry, non-text payloads).
docs/profile.md is the field-by-field reference. The document is canonical JSON (`dumps`): sorted keys,
memories in creation order, instants in UTC as memql writes them — so export -> import into a fresh
store -> export gives the same text.

The export reads through Retrieve, so the engine's governance (tenant, clearance, and whatever
permissions the engine applies) decides what a profile may contain. The read is a dry run: an export
is not a use of the memories (their visits and heat stay as they were) and adds nothing to the log.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from memql.lang import build
from memql.lang.diagnostics import Diagnostic
from memql.lang.hygiene import lone_surrogate
from memql.lang.time import format_instant, parse_instant

if TYPE_CHECKING:
    from memql.engine.executor import Executor

A2P_VERSION = "0.1.0"  # the a2p protocol version whose profile and memory schemas this module follows
MEMORY_TYPES = ("episodic", "semantic", "procedural")
TYPE_KEYS = {t: f"a2p:{t}" for t in MEMORY_TYPES}
DEFAULT_TYPE = "episodic"  # a2p: a memory proposed without a type is episodic; so is an untyped record
# memql status -> a2p status. Deleted records are not part of a profile.
STATUS_TO_A2P = {
    "active": "approved",
    "archived": "archived",
    "expired": "expired",
    "pending": "pending",
    "rejected": "rejected",
}
PAYLOAD_KEY = "a2p"  # payload metadata that keeps what the a2p format carries and memql does not interpret
CONSOLIDATED_KEY = "consolidated_from"  # payload metadata a consolidating Merge writes (a2p ids)
EXPORT_LIMIT = 100_000  # memories one export reads (the most one Retrieve returns)
NATIVE_SOURCE_TYPE = "agent_direct"  # a memory written through the language, not through a proposal
EXPORT_FIELDS = [
    "id",
    "text",
    "url",
    "structured",
    "payload_meta",
    "type",
    "tags",
    "facets",
    "time",
    "status",
    "memory_type",
    "category",
    "sensitivity",
    "confidence",
    "owner",
    "source",
    "created_at",
    "expire_at",
    "on_expire",
    "visits",
    "last_access_at",
]


# --- identity and usage of one memory (shared with consolidation and promotion) --------------------


def derived_id(tenant: str, record_id: str) -> str:
    """The a2p id of a record that did not come with one: stable for the record, distinct per tenant,
    and of the a2p form `mem_` + alphanumerics."""
    digest = hashlib.sha256(f"memql\x00{tenant}\x00{record_id}".encode()).hexdigest()
    return "mem_" + digest[:24]


def kept(row: dict[str, Any]) -> dict[str, Any]:
    """What an import kept of the a2p memory (its id, source, scope, metadata, unknown fields)."""
    value = (row.get("payload_meta") or {}).get(PAYLOAD_KEY)
    return value if isinstance(value, dict) else {}


def a2p_id(row: dict[str, Any], tenant: str) -> str:
    """The a2p id of a Retrieve row (with `id` and `payload_meta`): the imported one, else derived."""
    given = kept(row).get("id")
    return given if isinstance(given, str) and given else derived_id(tenant, row["id"])


def use_count(row: dict[str, Any]) -> int:
    """Uses over the memory's life: those an imported profile reported plus the reads here (`visits`)."""
    before = (kept(row).get("metadata") or {}).get("useCount")
    return (before if isinstance(before, int) and not isinstance(before, bool) else 0) + int(
        row.get("visits") or 0
    )


# --- export ---------------------------------------------------------------------------------------


@dataclass
class ExportResult:
    """`profile` is the a2p document when `success`; `diagnostics` say why not otherwise."""

    success: bool
    profile: dict[str, Any] | None = None
    count: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    def text(self) -> str:
        """The profile as canonical JSON text."""
        return dumps(self.profile)

    def to_json(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "count": self.count,
            "profile": self.profile,
            "diagnostics": [d.model_dump() for d in self.diagnostics],
            "warnings": [d.model_dump() for d in self.warnings],
        }


def dumps(profile: Any) -> str:
    """Canonical JSON: sorted keys, UTF-8 text (no escapes), two-space indent, a final newline."""
    return json.dumps(profile, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def profile_did(tenant: str, user: str | None) -> str:
    """did:a2p:user:local:<user> for one user's profile, did:a2p:entity:local:<tenant> for a tenant's."""
    kind, name = ("user", user) if user is not None else ("entity", tenant)
    return f"did:a2p:{kind}:local:" + quote(name, safe="").replace("~", "%7E")


def export_profile(executor: Executor, *, user: str | None = None, did: str | None = None) -> ExportResult:
    """The tenant's memories (only those `user` owns, when given) as an a2p profile document."""
    for name, value in (("user", user), ("did", did)):
        if value is not None and (not isinstance(value, str) or lone_surrogate(value)):
            rule, what = (
                ("field.type", "a string") if not isinstance(value, str) else ("json.encoding", "text")
            )
            message = f"{name} must be {what}, not {value!r}"[:200]
            return ExportResult(
                False, diagnostics=[Diagnostic(path=f"/{name}", rule=rule, severity="error", message=message)]
            )
    read = executor.execute(
        build.retrieve(
            filter={"status": "any", "limit": EXPORT_LIMIT}, include=EXPORT_FIELDS, meta={"dry_run": True}
        )
    )
    if not read.success:
        return ExportResult(False, diagnostics=read.diagnostics, warnings=read.warnings)
    rows = read.data["rows"]
    if len(rows) >= EXPORT_LIMIT:
        return ExportResult(
            False,
            diagnostics=[
                Diagnostic(
                    path="",
                    rule="a2p.export_limit",
                    severity="error",
                    message=f"the tenant has {EXPORT_LIMIT} or more records; one export carries fewer "
                    "(export each user's profile with --user)",
                )
            ],
        )
    now = executor.clock.now()
    rows = [r for r in rows if r["status"] != "deleted" and (user is None or r["owner"] == user)]
    rows.sort(key=_creation_order)
    memories: dict[str, list[dict[str, Any]]] = {key: [] for key in TYPE_KEYS.values()}
    for row in rows:
        memories[TYPE_KEYS[row["memory_type"] or DEFAULT_TYPE]].append(
            memory_document(row, executor.tenant, now)
        )
    did = did or profile_did(executor.tenant, user)
    profile = {
        "id": did,
        "version": A2P_VERSION,
        "profileType": "human" if user is not None else "entity",
        "identity": {"did": did},
        "memories": memories,
    }
    return ExportResult(True, profile=profile, count=len(rows), warnings=read.warnings)


def memory_document(row: dict[str, Any], tenant: str, now: datetime) -> dict[str, Any]:
    """One Retrieve row (EXPORT_FIELDS) as an a2p memory."""
    saved = kept(row)
    content, payload = _content(row)
    doc: dict[str, Any] = {
        **(saved.get("extra") or {}),  # fields neither a2p nor memql knows, kept by an import
        "id": a2p_id(row, tenant),
        "content": content,
        "status": _status(row, now),
        "sensitivity": row["sensitivity"],
        "source": saved.get("source") or _native_source(row),
        "metadata": _metadata(row, saved),
    }
    optional = {
        "category": row["category"],
        "confidence": None if row["confidence"] is None else float(row["confidence"]),
        "scope": saved.get("scope") or None,
        "tags": row["tags"] or None,
        "consolidatedFrom": (row["payload_meta"] or {}).get(CONSOLIDATED_KEY) or None,
    }
    doc.update({k: v for k, v in optional.items() if v is not None})
    extension: dict[str, Any] = {"time": _instant(row["time"])}
    if row["type"] is not None:
        extension["type"] = row["type"]
    if row["facets"]:
        extension["facets"] = row["facets"]
    if payload != "text":
        extension["payload"] = payload
    if doc["status"] == "approved" and row["expire_at"] is not None:  # a pending expiry (not yet due)
        extension["expireAt"] = _instant(row["expire_at"])
        extension["onExpire"] = row["on_expire"]
    doc["memql"] = extension
    return doc


def _content(row: dict[str, Any]) -> tuple[str, str]:
    """(content, payload kind): a2p content is text; a URL or a structured value is written as text."""
    if row["text"] is not None:
        return row["text"], "text"
    if row["url"] is not None:
        return row["url"], "url"
    structured = row["structured"] or {}
    return json.dumps(structured, sort_keys=True, ensure_ascii=False, separators=(",", ":")), "structured"


def _status(row: dict[str, Any], now: datetime) -> str:
    status = row["status"]
    if status == "active" and row["expire_at"] is not None and row["expire_at"] <= now:
        status = "expired"  # lapsed, not yet swept: every read already treats it as expired
    return STATUS_TO_A2P[status]


def _native_source(row: dict[str, Any]) -> dict[str, Any]:
    source: dict[str, Any] = {"type": NATIVE_SOURCE_TYPE, "timestamp": _instant(row["created_at"])}
    if row["owner"] is not None:
        source["agentName"] = row["owner"]
    if row["source"] is not None:
        source["context"] = row["source"]  # memql provenance (a URL, an episode id, ...)
    return source


def _metadata(row: dict[str, Any], saved: dict[str, Any]) -> dict[str, Any]:
    metadata = dict(saved.get("metadata") or {})
    metadata["useCount"] = use_count(row)
    last = [t for t in (_parsed(metadata.get("lastUsed")), row["last_access_at"]) if t is not None]
    if last:
        metadata["lastUsed"] = format_instant(max(last))
    return metadata


def _instant(value: Any) -> str | None:
    return None if value is None else format_instant(value) if isinstance(value, datetime) else str(value)


def _parsed(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_instant(value)[0]
    except ValueError:
        return None


def _creation_order(row: dict[str, Any]) -> tuple[Any, ...]:
    rid = row["id"]
    return (row["created_at"], 0, int(rid), "") if rid.isdigit() else (row["created_at"], 1, 0, rid)
