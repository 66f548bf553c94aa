"""How a conversation lives in the store (the storage conventions every strategy follows).

A conversation has an id (default ``<user>/<agent>``). Every record that belongs to it carries the tag
``conv:<id>`` and the facets ``conversation`` (the id), ``level`` ("message", "page", "segment", "theme"
...) and ``source_ids`` (the turn ids it came from). A message record is type ``turn``, its time is the
message's time, its text is ``<speaker>: <text>`` (questions name people, and "I" in a message means
its speaker), its ``payload.context`` the message before it (searchable at half weight: what a reply
answers), and its facets add ``role``, ``speaker``, ``position`` (0-based arrival order) and ``previous``
(the memory id of the message before it, so a reader can step back without a scan).

Records are written only with memql verbs (validated, audited) and read only with Retrieve.

A conversation is private to its participants: every record it writes (messages, and whatever its
strategies build: pages, segments, persona, episodes, facts, themes) is owned by its user and readable,
besides its owner and admins, only by its agent (read level `custom`, `read_whitelist` [agent]), so
every read path of the engine, on every backend, keeps it from anyone else. `ParticipantExecutor` is
the one place that adds those fields: the strategies write through it without knowing who is who.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memql.engine.bulk import DEFAULT_BATCH
from memql.engine.executor import bulk_limits
from memql.engine.preconditions import Precondition, none_written_after
from memql.errors import MemqlError
from memql.lang import build
from memql.lang.diagnostics import Diagnostic
from memql.lang.hygiene import Limits, lone_surrogate
from memql.lang.target import MOST_READ
from memql.lang.time import parse_instant

if TYPE_CHECKING:
    from memql.engine.executor import Executor
    from memql.ports.models import LLM

TAG_PREFIX = "conv:"
MESSAGE_LEVEL = "message"
MESSAGE_TYPE = "turn"
ROW_FIELDS = ["id", "text", "facets", "time", "score"]


class ConversationError(MemqlError, ValueError):
    """Bad input or a refused operation: `diagnostics` name the field and a stable rule id."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.diagnostics = list(diagnostics)


def error(path: str, rule: str, message: str) -> ConversationError:
    return ConversationError(message, [Diagnostic(path=path, rule=rule, severity="error", message=message)])


def require_text(path: str, value: Any, blank: str | None = None, longest: int = 512) -> None:
    """A string that is not blank (`blank`: what to say if it is), at most `longest` characters (a name's
    512 by default), and Unicode text (no lone surrogate); else the ConversationError naming `path`."""
    what = path.strip("/")
    if not isinstance(value, str):
        raise error(path, "field.type", f"{what} must be a string")
    if not value.strip():
        raise error(path, "field.empty", blank or f"{what} must not be blank")
    if len(value) > longest:
        raise error(path, "field.size", f"{what} is {len(value)} characters long; at most {longest}")
    if lone_surrogate(value):
        raise error(path, "json.encoding", f"{what} holds a lone surrogate, not valid Unicode")


def tag(conversation_id: str) -> str:
    return f"{TAG_PREFIX}{conversation_id}"


def conversation_filter(conversation_id: str, level: str | None = None) -> dict[str, Any]:
    """A Retrieve filter for the conversation's records (of one level when given)."""
    facets: dict[str, Any] = {"conversation": conversation_id}
    if level is not None:
        facets["level"] = level
    return {"has_tags": [tag(conversation_id)], "facets": facets}


def read_rows(
    executor: Executor, target: dict[str, Any], include: Sequence[str] = ROW_FIELDS, *, visit: bool = True
) -> list[dict]:
    """Rows of one Retrieve (`visit=False`: a dry run — a write path's own read is no visit, no heat);
    a refusal raises ConversationError with the engine's diagnostics."""
    meta = None if visit else {"dry_run": True}
    result = executor.execute(build.retrieve(target=target, include=include, meta=meta))
    if not result.success:
        raise ConversationError(
            "; ".join(d.message for d in result.diagnostics) or "Retrieve failed", result.diagnostics
        )
    return list(result.data.get("rows", []))


def message_row_text(row: dict) -> str:
    """A message record's text without its ``<speaker>: `` prefix."""
    text = str(row.get("text") or "")
    speaker = str((row.get("facets") or {}).get("speaker") or "")
    prefix = f"{speaker}: "
    return text[len(prefix) :] if speaker and text.startswith(prefix) else text


def with_resolved_days(text: str, facets: dict[str, Any]) -> str:
    """A message's text with the day each relative time in it resolved to, after its words ("the day after
    tomorrow (2026-05-14)"), from the times interpreted when it was stored: a reader later does not know
    when "tomorrow" was said. Words that already name the day (a date, a month) are left as they are."""
    found: list[tuple[int, str]] = []
    for t in facets.get("times") or ():
        quote = str((t.get("evidence") or {}).get("quote") or "")
        day = t.get("granularity") == "day"
        # "May 5", 5月5日 name their day; 下个月十号, "the 10th of next month" do not
        names_day = re.search(_MONTH_WORDS, quote, re.I) and re.search(r"\d|[日号]", quote)
        names_day = names_day and not _RELATIVE_DAY.search(quote)
        if not quote or names_day or (re.search(r"\d", quote) and day and not _RELATIVE_DAY.search(quote)):
            continue
        if not day and (t.get("granularity") not in ("hour", "minute") or not _RELATIVE_DAY.search(quote)):
            continue  # a clock time gets the day only when its words name the day relatively (明天晚上六点)
        if not day and re.search(r"\d\s*(?:号|日|[/.-]\s*\d)", quote):
            continue
        at = text.find(quote)
        if at >= 0 and _recurring_day(text, at, at + len(quote)):
            continue
        try:
            start, end = datetime.fromisoformat(t["start"]), datetime.fromisoformat(t["end"])
        except (KeyError, TypeError, ValueError):
            continue
        if at >= 0:
            found.append((at + len(quote), (start + (end - start) / 2 if day else start).date().isoformat()))
    for at, day in sorted(found, reverse=True):
        text = f"{text[:at]} ({day}){text[at:]}"
    return text


_MONTH_WORDS = r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|月"
_RELATIVE_DAY = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|next|this|last)\b|今天|今晚|明天|明晚|后天|昨天|昨晚|前天|大后天|"
    r"(?:下|上|本|这)(?:个)?(?:周|星期|礼拜|月)",
    re.I,
)
_WEEKDAY = (
    r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?"
    r"|(?:周|星期|礼拜)[一二三四五六日天])"
)
_DAY_RANGE = r"\s*(?:to|through|thru|till|until|and|or|[-–~～到至和或])\s*"
_RECURRING_BEFORE = re.compile(rf"(?:\b(?:every|each)\s+|每个?|{_WEEKDAY}{_DAY_RANGE})$", re.I)
_RECURRING_AFTER = re.compile(rf"{_DAY_RANGE}{_WEEKDAY}", re.I)


def _recurring_day(text: str, start: int, end: int) -> bool:
    """A weekday said as a schedule names no one day: "comes Monday to Wednesday", "every Friday", 每周一,
    周二到周四 (a day resolved there would mislead, and split the words a reader looks for)."""
    if not re.fullmatch(_WEEKDAY, text[start:end], re.I):
        return False
    return bool(_RECURRING_BEFORE.search(text, 0, start) or _RECURRING_AFTER.match(text, end))


def message_encode(
    conversation_id: str,
    *,
    role: str,
    speaker: str,
    text: str,
    time: datetime,
    source_ids: Sequence[str],
    position: int,
    previous: tuple[str, str] | None,
    skip_embedding: bool | None = None,
) -> dict[str, Any]:
    """The Encode IR of one message; `previous` is the message before it: (memory id, stored text)."""
    payload: dict[str, Any] = {"text": f"{speaker}: {text}" if speaker else text}
    facets: dict[str, Any] = {
        "conversation": conversation_id,
        "level": MESSAGE_LEVEL,
        "source_ids": list(source_ids),
        "role": role,
        "speaker": speaker,
        "position": position,
    }
    if previous is not None:
        facets["previous"] = previous[0]
        payload["context"] = previous[1]
    return build.encode(
        payload=payload,
        type=MESSAGE_TYPE,
        time=time.isoformat(),
        tags=[tag(conversation_id)],
        facets=facets,
        dedupe=False,  # "ok, thanks!" twice is two messages
        skip_embedding=skip_embedding,
    )


def participant_fields(agent: str) -> dict[str, Any]:
    """The read permissions of a conversation's records: the owner (its user), admins and its agent."""
    return {"read_perm_level": "custom", "read_whitelist": [agent]}


class ParticipantExecutor:
    """A session's Executor as a conversation writes through it: every Encode it runs (alone or in a
    workflow) gets the conversation's read permissions, and when the session is not the conversation's
    user (an admin, or its agent) the same transaction hands each new record to the user (an Update of
    `owner` by the record's creator), so the record is the user's from its first commit. Reads and
    everything else pass through unchanged, run as the session."""

    def __init__(self, executor: Executor, user: str, agent: str) -> None:
        self.inner, self.user, self.agent = executor, user, agent

    def __getattr__(self, name: str) -> Any:  # clock, llm, embedder, identity, embed_pending ...
        return getattr(self.inner, name)

    def execute(self, source: Any, **options: Any) -> Any:
        if not isinstance(source, dict):
            return self.inner.execute(source, **options)
        if source.get("op") == "Retrieve":
            return self._retrieve(source, **options)
        single = "workflow" not in source
        steps = [source] if single else list(source["workflow"])
        governed = [self._govern(step) for step in steps]
        handover = [
            build.update(build.from_step(i), owner=self.user, comment="conversation: the user's record")
            for i, step in enumerate(steps)
            if step.get("op") == "Encode" and self.inner.actor != self.user
        ]
        if single and not handover:
            return self.inner.execute(governed[0], **options)
        program = {**({} if single else source), "workflow": governed + handover}
        program.pop("op", None)
        if len(program["workflow"]) > Limits.max_steps:  # an import: its Encodes written in batches
            options["limits"] = bulk_limits(len(program["workflow"]))
            options.setdefault("batch_size", DEFAULT_BATCH)
        result = self.inner.execute(program, **options)
        if result.success and result.steps:
            if single:  # the caller sent one op: it gets that op's result back
                first = result.steps[0]
                first.stats = result.stats
                return first
            result.steps = result.steps[: len(steps)]
        return result

    def _retrieve(self, source: dict[str, Any], **options: Any) -> Any:
        """A read of the conversation's records, without those another user owns: the agent and admins
        read every user's conversations, and another user may have given one of his the same id."""
        include = list((source.get("args") or {}).get("include") or ())
        if not include:
            return self.inner.execute(source, **options)
        asked = {**source, "args": {**source["args"], "include": list(dict.fromkeys([*include, "owner"]))}}
        result = self.inner.execute(asked, **options)
        if result.success and "rows" in result.data:
            rows = [row for row in result.data["rows"] if row.get("owner") in (None, self.user)]
            if "owner" not in include:
                rows = [{k: v for k, v in row.items() if k != "owner"} for row in rows]
            result.data["rows"] = rows
            if "count" in result.data:
                result.data["count"] = len(rows)
        return result

    def _govern(self, step: dict[str, Any]) -> dict[str, Any]:
        if step.get("op") != "Encode":
            return step
        return {**step, "args": {**step.get("args", {}), **participant_fields(self.agent)}}


def refuses(lock: dict[str, Any] | None, op: str, now: datetime) -> bool:
    """Whether a record's `lock` (as Retrieve shows it) refuses `op` now: a live lock (no `until`, or
    one still ahead) refuses what its policy does not allow (an addition, under append_only, is the
    caller's to say: here every change is one that append_only refuses)."""
    if not lock:
        return False
    until = lock.get("until")
    if until is not None and parse_instant(str(until))[0] <= now:
        return False
    policy = lock.get("policy") or {}
    if op in (policy.get("deny") or ()):
        return True
    return op not in (policy.get("allow") or ())


def locked_ids(executor: Executor, ids: Sequence[str], op: str = "Update") -> set[str]:
    """Those of `ids` whose live lock refuses `op` (a dry-run read: no visit, no audit entry)."""
    if not ids:
        return set()
    result = executor.execute(
        build.retrieve(ids=list(dict.fromkeys(ids)), include=["id", "lock"], meta={"dry_run": True})
    )
    if not result.success:
        raise ConversationError(
            "; ".join(d.message for d in result.diagnostics) or "Retrieve failed", result.diagnostics
        )
    now = executor.clock.now()
    return {str(row["id"]) for row in result.data.get("rows", []) if refuses(row.get("lock"), op, now)}


def participants(executor: Executor, user: str | None, agent: str | None) -> tuple[str, str]:
    """A shell's defaults for who talks: the session's own name for its side (a user's, or an agent's),
    "user" and "assistant" otherwise. Whether the session may act in that conversation is
    `Conversation`'s to say."""
    me = executor.identity
    if user is None:
        user = me.actor if me.role == "user" and me.actor else "user"
    if agent is None:
        agent = me.actor if me.role == "agent" and me.actor else "assistant"
    return user, agent


def acting_executor(executor: Executor, user: str, agent: str) -> Executor:
    """The Executor a conversation acts through: the session's own, when it is a participant (the user,
    the agent) or an admin; for a session without an actor (the embedded library), one acting as the
    user. Anyone else is refused, naming the field."""
    me = executor.identity
    if me.admin:
        return executor
    if me.role == "agent":
        if me.actor != agent:
            raise error(
                "/agent",
                "conversation.participant",
                f"agent {me.actor} may not act in a conversation of agent {agent!r}: a conversation is "
                "private to its user, its agent and admins",
            )
        return executor
    if me.actor is None:
        return executor.acting_as(user)
    if me.actor != user:
        raise error(
            "/user",
            "conversation.participant",
            f"{me.actor} may not act in a conversation of user {user!r}: a conversation is private to "
            "its user, its agent and admins",
        )
    return executor


def first_source(row: dict[str, Any]) -> str | None:
    sources = (row.get("facets") or {}).get("source_ids") or []
    return str(sources[0]) if sources else None


def llm_calls(llm: LLM | None) -> int:
    """The calls `llm` made so far (0 without one)."""
    return llm.usage.calls if llm is not None else 0


def position_of(row: dict[str, Any]) -> int:
    """A message row's position in its conversation."""
    return int((row.get("facets") or {}).get("position") or 0)


def messages_after(messages: dict[str, Any], position: int) -> dict[str, Any]:
    """A target: the conversation's messages (`messages`: their filter) past `position`, as many as one
    read returns."""
    return {"filter": {**messages, "facets_where": {"position": {"$gt": position}}, "limit": MOST_READ}}


def unmoved(conversation_id: str, user: str, last: str | None) -> Precondition:
    """What a conversation's write checks in its own transaction: no message of the conversation (the
    user's) was written after `last`, the last one it read (None: none) — no other writer took the
    position it read as the next meanwhile (another process had the conversation open too); else
    `conversation.moved`."""
    return none_written_after(
        conversation_filter(conversation_id, MESSAGE_LEVEL),
        last,
        owner=user,
        rule="conversation.moved",
        message=f"conversation {conversation_id}: another writer added a message since it was opened here; "
        "open it again",
        path="/conversation",
    )
