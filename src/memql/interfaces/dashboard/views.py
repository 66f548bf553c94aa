"""What the dashboard's pages show, built from the Python API's results: form input turned into the
arguments of Memory calls (bad input becomes diagnostics, like the language's), rows, history and lineage
as the templates want them, and the rendering itself. No memory logic lives here: every value comes from a
Memory method."""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from memql.engine.result import ExecutionResult
from memql.lang.diagnostics import Diagnostic
from memql.lang.time import format_instant
from memql.memory import Memory

PAGE_SIZE = 20
# a search result scoring below this is noise (unrelated text scores ~0.02-0.06 with MiniLM): not shown
SEARCH_MIN_SCORE = 0.1
# fields holding an instant: shown as "2 Mar 2026, 09:00 UTC" (the ISO form stays in <time datetime>)
TIME_FIELDS = frozenset(
    {"time", "created_at", "updated_at", "expire_at", "valid_from", "valid_to", "last_access_at", "until"}
)
MAX_ROWS = 100_000  # the language's largest filter limit / search k: the last reachable row
STATUSES = ("active", "archived", "deleted", "expired", "pending", "rejected", "any")
ROW_FIELDS = ["id", "text", "type", "tags", "status", "weight", "time", "score"]
RECORD_FIELDS = [
    *("id", "text", "type", "tags", "facets", "time", "weight", "status", "owner", "agent", "structured"),
    *("created_at", "updated_at", "expire_at", "on_expire", "lock", "memory_type", "category"),
    *("sensitivity", "confidence", "source", "url", "visits", "last_access_at"),
    *("subject", "attribute", "value", "valid_from", "valid_to"),
]
# how a link reads from each of its ends: relation -> (seen from src, seen from dst)
RELATIONS = {
    "merged_into": ("merged into", "merged from"),
    "split_from": ("split from", "split into"),
    "supersedes": ("supersedes", "superseded by"),
    "summarizes": ("summarizes", "summarized by"),
    "derived_from": ("derived from", "source of"),
    "chain_next": ("next page", "previous page"),
}
# the notice after a successful action (a fixed vocabulary: nothing from the URL is echoed)
NOTICES = {
    "lock": "Locked.",
    "unlock": "Unlocked.",
    "expire": "Expiry set.",
    "delete": "Deleted (soft; restorable).",
    "restore": "Restored.",
    "approve": "Proposal approved.",
    "edit": "Proposal approved with edits.",
    "reject": "Proposal rejected.",
}
_QUIET = frozenset({"updated_at", "content_hash", "keywords", "tenant", "embedding_status"})


def problem(path: str, rule: str, message: str) -> Diagnostic:
    """A diagnostic about the dashboard's own input (a page number), with the language's rule ids."""
    return Diagnostic(path=path, rule=rule, severity="error", message=message)


def _int(value: str | None, name: str, default: int, problems: list[Diagnostic]) -> int:
    if value is None or value.strip() == "":
        return default
    text = value.strip()
    if not text.isdigit():
        problems.append(problem(f"/{name}", "field.type", f"{name} must be a whole number, not {value!r}"))
        return default
    return int(text)


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


@dataclass
class Browse:
    """The memories page's request: search text and filters, as Memory.retrieve arguments."""

    form: dict[str, str]
    query: str | None
    filter: dict[str, Any]
    page: int
    problems: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def parse(cls, params: dict[str, str]) -> Browse:
        form = {
            name: (params.get(name) or "").strip()
            for name in ("q", "tag", "type", "status", "from", "to", "page")
        }
        problems: list[Diagnostic] = []
        page = _int(form["page"], "page", 1, problems)
        if page < 1 or page * PAGE_SIZE + 1 > MAX_ROWS:
            problems.append(
                problem("/page", "field.range", f"page must be between 1 and {(MAX_ROWS - 1) // PAGE_SIZE}")
            )
            page = 1
        chosen: dict[str, Any] = {"status": form["status"] or "active"}
        if form["tag"]:
            chosen["has_tags"] = _split(form["tag"])
        if form["type"]:
            chosen["type"] = form["type"]
        if form["from"] or form["to"]:  # the language checks both bounds are there, and their order
            chosen["time_range"] = {
                key: value for key, value in (("start", form["from"]), ("end", form["to"])) if value
            }
        return cls(form, form["q"] or None, chosen, page, problems)

    def run(self, memory: Memory) -> tuple[ExecutionResult, list[dict[str, Any]], bool]:
        """One Retrieve for the rows up to this page's end (+1 to know whether a next page exists); the
        language has no offset, so page n re-reads the n-1 pages before it."""
        wanted = self.page * PAGE_SIZE + 1
        if self.query is not None:
            overrides = {"min_score": SEARCH_MIN_SCORE}
            result = memory.retrieve(
                self.query, filter=self.filter, k=wanted, include=ROW_FIELDS, overrides=overrides
            )
        else:
            result = memory.retrieve(filter={**self.filter, "limit": wanted}, include=ROW_FIELDS)
        rows = result.data.get("rows", []) if result.success else []
        start = (self.page - 1) * PAGE_SIZE
        return result, rows[start : start + PAGE_SIZE], len(rows) > start + PAGE_SIZE

    def link(self, page: int) -> str:
        kept = {k: v for k, v in self.form.items() if v and k != "page"}
        return "/?" + urlencode({**kept, "page": page})


def lineage(memory: Memory, record_id: str, history: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The record's links as read from it ("merged from 7"), and links its history recorded that are
    gone now (a hard-deleted other end takes its links with it)."""
    out, seen = [], set()
    for link in memory.lineage(record_id):
        seen.add((link["src"], link["dst"], link["relation"]))
        outward = link["src"] == record_id
        words = RELATIONS.get(link["relation"], (link["relation"], f"{link['relation']} (from)"))
        out.append(
            {
                "label": words[0] if outward else words[1],
                "other": link["dst"] if outward else link["src"],
                "relation": link["relation"],
                "when": when(link["created_at"]),
                "current": "yes",
            }
        )
    for event in history:
        after = event["after"] or {}
        if event["change"] != "link" or "dst" not in after:
            continue
        key = (record_id, after["dst"], after.get("relation", ""))
        if key not in seen:
            seen.add(key)
            out.append(
                {
                    "label": RELATIONS.get(key[2], (key[2],))[0],
                    "other": key[1],
                    "relation": key[2],
                    "when": when(event["time"]),
                    "current": "no",
                }
            )
    return out


def timeline(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """History events for the page: the changed fields (before -> after) without bookkeeping noise; an
    insert's snapshot stays whole."""
    items = []
    for event in history:
        before, after = event["before"] or {}, event["after"] or {}
        names = [
            n for n in dict.fromkeys([*before, *after]) if n not in _QUIET or event["change"] == "insert"
        ]
        items.append(
            {
                **event,
                "time": when(event["time"]),
                "iso": iso(event["time"]),
                "fields": [(n, shown(n, before.get(n)), shown(n, after.get(n))) for n in names],
            }
        )
    return items


def _instant(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str) and "T" in value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    return None


def when(value: Any) -> str:
    """An instant for people: "2 Mar 2026, 09:00 UTC" (seconds when it has them); anything else as is."""
    if value is None:
        return ""
    instant = _instant(value)
    if instant is None:
        return str(value)
    if instant.tzinfo is not None:
        instant = instant.astimezone(UTC)
    clock = "%H:%M:%S" if instant.second else "%H:%M"
    return f"{instant.day} {instant.strftime('%b %Y, ' + clock)}{' UTC' if instant.tzinfo else ''}"


def iso(value: Any) -> str:
    """The machine form of an instant, for <time datetime>: ISO-8601 UTC."""
    instant = _instant(value)
    return "" if instant is None else format_instant(instant) if instant.tzinfo else instant.isoformat()


def shown(name: str, value: Any) -> str:
    """A field's value as text: an instant field for people (when), any other as show does."""
    return when(value) if name in TIME_FIELDS and _instant(value) is not None else show(value)


def show(value: Any) -> str:
    """A field value as text: instants in ISO-8601 UTC, structures as JSON."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return format_instant(value)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=when)


_env = Environment(
    loader=PackageLoader("memql.interfaces.dashboard", "templates"),
    autoescape=select_autoescape(("html",)),
    undefined=StrictUndefined,  # a template naming a value the view did not give fails the tests
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters["when"] = when
_env.filters["iso"] = iso
_env.filters["show"] = show
_env.globals["shown"] = shown


class Refusals:
    """What an action refused, kept for the page its redirect returns to (redirect-after-post for
    refusals too, so the browser is back on the page it came from and a reload sends nothing): read once,
    by the same caller (tenant and actor) only; the oldest go first beyond `size`. Nothing from the URL
    but the random token is used."""

    def __init__(self, size: int = 256) -> None:
        self._kept: OrderedDict[str, tuple[tuple[str, str | None], list, list]] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def keep(self, memory: Memory, diagnostics: list, warnings: list) -> str:
        token = secrets.token_urlsafe(12)
        with self._lock:
            self._kept[token] = ((memory.tenant, memory.actor), list(diagnostics), list(warnings))
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return token

    def take(self, memory: Memory, token: str) -> tuple[list, list]:
        """(diagnostics, warnings) kept under `token` for this caller; nothing for anyone else."""
        with self._lock:
            kept = self._kept.get(token)
            if kept is None or kept[0] != (memory.tenant, memory.actor):
                return [], []
            del self._kept[token]
        return kept[1], kept[2]


_SECTIONS = {"memories.html": "memories", "record.html": "memories", "facts.html": "facts"}


def render(template: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("section", _SECTIONS.get(template, template.removesuffix(".html")))
    context.setdefault("memory", None)
    context.setdefault("diagnostics", [])
    context.setdefault("warnings", [])
    context.setdefault("notice", None)
    return HTMLResponse(_env.get_template(template).render(**context), status_code=status)
