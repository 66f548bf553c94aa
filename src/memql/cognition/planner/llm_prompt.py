"""What the LLM planner says to the model and how it reads the answer: the reply schema (the language's
own JSON Schema, wrapped so a workflow or a clarification is possible), the system prompt, the request and
repair messages, and a tolerant reader for the reply text.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memql.cognition.planner.base import PlanContext
from memql.lang import json_schema
from memql.services.tokenize import is_cjk

MAX_STEPS = 20  # a plan longer than this is not what a user asked for in one sentence
MAX_DEPTH = 64  # twice what the language accepts (Limits.max_depth): deeper is not a plan
MAX_CONTEXT_TAGS = 40
MAX_CONTEXT_IDS = 20
MAX_CONTEXT_TYPES = 20


@functools.lru_cache(maxsize=1)
def _reply_schema() -> dict[str, Any]:
    ir = json_schema("ir", system_verbs=False)  # the planner plans the twelve verbs, not housekeeping
    defs = dict(ir["$defs"])
    defs["IR"] = {k: ir[k] for k in ("oneOf", "discriminator") if k in ir}
    return {
        "title": "memql plan",
        "description": (
            "The operations that carry out the instruction, in order; or, when it cannot be carried out "
            "safely as written, an empty workflow and a clarification."
        ),
        "type": "object",
        "properties": {
            "workflow": {
                "type": "array",
                "items": {"$ref": "#/$defs/IR"},
                "maxItems": MAX_STEPS,
                "description": "the steps in order (one for one operation); empty only with a clarification",
            },
            "clarification": {
                "type": "object",
                "properties": {
                    "missing": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    "question": {"type": "string", "minLength": 1},
                },
                "required": ["missing", "question"],
                "additionalProperties": False,
            },
        },
        "required": ["workflow"],
        "additionalProperties": False,
        "$defs": defs,
    }


def reply_schema() -> dict[str, Any]:
    """The JSON Schema the model's reply is constrained by: ``{"workflow": [IR, ...], "clarification"?}``,
    where IR is the schema `memql schema --kind ir` prints for the twelve verbs (without the system verbs;
    its ``$defs`` carried over unchanged)."""
    return copy.deepcopy(_reply_schema())


SYSTEM_PROMPT = """\
You turn a user's instruction about their personal memory store into memql operations (Text2Mem IR).
Reply with JSON only: {"workflow": [IR, ...]} with one IR per step, in order. When the instruction is too \
vague to carry out safely, reply {"workflow": [], "clarification": {"missing": [...], "question": "..."}}.

An IR is {"op": VERB, "target": {...}, "args": {...}}. The twelve verbs:
- Encode: store a new memory. args.payload: exactly one of text, url, structured; optional type (note, \
task, event, reference, ...), tags, time, weight, subject, location, topic. No target.
- Retrieve: find memories. Optional args.include (fields to return).
- Summarize: summarise memories. args.focus, args.max_tokens.
- Update: change fields. args.set: text, time, weight, location, topic, tags, ... (never embedding).
- Label: args.tags and/or args.facets; args.mode add | replace | remove.
- Promote: raise importance: args.weight (0..1) or args.weight_delta (> 0); or args.remind {rrule, until?} \
(RFC 5545 RRULE without the "RRULE:" prefix).
- Demote: lower importance: args.weight, args.weight_delta (< 0), or args.archive: true.
- Merge: fold two or more memories into one. args.primary_id (one of the targeted ids), \
args.soft_delete_children.
- Delete: soft by default (recoverable); args.soft: false only when the user asks for permanent erasure. \
args.older_than (ISO-8601 duration) or args.time_range narrow the target.
- Split: cut one memory into parts. args.strategy by_sentences | by_chunks | custom with \
args.params.{by_sentences: {max_sentences}, by_chunks: {num_chunks or chunk_size}, custom: {topics, \
delimiters, instruction}}.
- Lock: args.mode read_only | append_only | unlock; args.reason; args.policy.
- Expire: args.ttl (ISO-8601 duration, e.g. P30D) or args.until (instant); args.on_expire soft_delete | \
hard_delete | demote | archive | anonymize | none (always give it).

Targets: exactly one of ids (the record ids the user names), filter (has_tags, not_tags, type, \
time_range {start, end} or {relative: last|next, amount, unit}, subject, location, topic, limit), search \
({intent: {query}, limit}: memories about a topic phrase), from_step (the records an earlier step of this \
workflow affected, 0-based), all (every memory; only when the user explicitly says all or every).

Rules:
- Use the record ids, tags and types the context lists when the instruction points at them ("the last \
note" = the first recent id). Never invent ids.
- A write through filter or search gives a limit.
- Times are ISO-8601 instants with an offset, resolved against "Now" in the context; durations are \
ISO-8601 (P3D, PT2H, P1M). Priorities: low 0.2, normal 0.5, high 0.8, urgent 1.0.
- Do not write meta: memql sets it (and asks the user before anything destructive runs).
- Text you write (payload text, focus, reasons, the question) is in the user's language.
- If a write or delete has no identifiable target, or the instruction is ambiguous, ask (clarification) \
instead of guessing. Never guess a target for a delete.
"""


def detect_lang(text: str) -> str:
    """ "zh" when the text has more CJK characters than latin words, else "en"."""
    cjk = sum(1 for ch in text if is_cjk(ch))
    latin_words = len(re.findall(r"[A-Za-z]+", text))
    return "zh" if cjk and cjk >= latin_words else "en"


def render_request(text: str, lang: str, context: PlanContext | None) -> str:
    """The user turn: the instruction and what the planner knows about the store."""
    lines = [f"Instruction: {text.strip()}", f"Language: {lang}"]
    if context is not None:
        if context.now is not None:
            lines.append(f"Now: {_instant(context.now)}")
        if context.tags:
            lines.append("Tags in use: " + ", ".join(context.tags[:MAX_CONTEXT_TAGS]))
        if context.recent_ids:
            lines.append("Recent ids (newest first): " + ", ".join(context.recent_ids[:MAX_CONTEXT_IDS]))
        if context.types:
            lines.append("Types in use: " + ", ".join(context.types[:MAX_CONTEXT_TYPES]))
    return "\n".join(lines)


def render_reply(reply: dict[str, Any]) -> str:
    """An example's reply as the model should write it: compact JSON."""
    return json.dumps(reply, ensure_ascii=False, separators=(",", ":"))


def repair_request(problems: list[str]) -> str:
    """The user turn that sends validation problems back to the model."""
    listed = "\n".join(f"- {p}" for p in problems)
    return (
        f"Your reply cannot be used as it is:\n{listed}\n"
        "Reply again with the whole corrected JSON object, nothing else."
    )


def _instant(now: datetime) -> str:
    return f"{now.isoformat(timespec='seconds')} ({now.strftime('%A')})"


@dataclass
class Reply:
    """The model's answer as read: steps, or a clarification, or the problems that stopped the reading."""

    steps: list[Any] | None = None
    clarification: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)


_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


def read_reply(text: str) -> Reply:
    """Reads ``{"workflow": [...], "clarification"?}``; also accepts a bare IR or a bare list of IRs (what
    models write when the server cannot constrain them), inside code fences or after a thinking block."""
    body = _THINKING.sub("", text).strip()
    fenced = _FENCE.search(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        doc = json.loads(body)
    except RecursionError:
        return Reply(problems=["the reply nests too deeply to be a plan"])
    except ValueError as exc:
        start, end = body.find("{"), body.rfind("}")
        try:
            doc = json.loads(body[start : end + 1]) if 0 <= start < end else None
        except (ValueError, RecursionError):
            doc = None
        if doc is None:
            why = f"{exc.msg} at character {exc.pos}" if isinstance(exc, json.JSONDecodeError) else str(exc)
            return Reply(problems=[f"the reply is not JSON ({why})"])
    if _deeper_than(doc, MAX_DEPTH):
        return Reply(problems=[f"the reply nests deeper than {MAX_DEPTH} levels"])
    if isinstance(doc, list):
        return _steps(doc)
    if not isinstance(doc, dict):
        return Reply(problems=['the reply must be a JSON object {"workflow": [...]}'])
    clarification = doc.get("clarification")
    if isinstance(clarification, str) and clarification.strip():
        clarification = {"question": clarification}
    if isinstance(clarification, dict):
        return Reply(clarification=clarification)
    if "op" in doc:
        return Reply(steps=[doc])
    unknown = sorted(set(doc) - {"workflow", "clarification"})
    if unknown:
        return Reply(
            problems=[f"unknown top-level field(s) {', '.join(unknown)}: use workflow (or clarification)"]
        )
    workflow = doc.get("workflow")
    if not isinstance(workflow, list):
        return Reply(problems=['"workflow" must be a list of IRs'])
    return _steps(workflow)


def _deeper_than(doc: Any, limit: int) -> bool:
    """Whether JSON nests deeper than `limit`, found without recursion (the reply is copied and validated
    later; a pathological one must not reach Python's recursion limit there)."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return False


def _steps(items: list[Any]) -> Reply:
    if not items:
        return Reply(
            problems=["the workflow is empty: give the steps, or a clarification saying what is missing"]
        )
    if len(items) > MAX_STEPS:
        return Reply(problems=[f"{len(items)} steps; a plan has at most {MAX_STEPS}"])
    return Reply(steps=items)


def clarification_text(clarification: dict[str, Any]) -> tuple[list[str], str]:
    """(what is missing, the question) from a model's clarification, whatever its exact shape."""
    missing = clarification.get("missing")
    if isinstance(missing, str):
        missing = [missing]
    items = [str(m).strip() for m in missing if str(m).strip()] if isinstance(missing, list) else []
    question = clarification.get("question")
    return items, question.strip() if isinstance(question, str) else ""
