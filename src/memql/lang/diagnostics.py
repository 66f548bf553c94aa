"""Diagnostics: what validation says about an input, addressed by JSON pointer and a stable rule id.

Rule ids are part of memql's public contract: tools and tests match on them, so an id is never
reused for a different meaning. Every id that the language layer can emit is listed in RULES.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

Severity = Literal["error", "warning"]

# rule id -> one-line meaning (used by docs and by tests that every emitted rule is catalogued)
RULES: dict[str, str] = {
    # input hygiene
    "json.malformed": "the input is not well-formed JSON",
    "json.encoding": "the input is not Unicode text: bytes that are not UTF-8, or a lone surrogate",
    "json.duplicate_key": "an object has the same key twice; which value is meant is ambiguous",
    "json.non_finite": "NaN and Infinity are not JSON numbers",
    "json.type": "a value has a type JSON cannot carry",
    "json.too_large": "the input exceeds the size limit",
    "json.too_deep": "the input nests deeper than the limit",
    "json.too_long": "a string or list exceeds its length limit",
    "json.bad_key": "an object key is not a plain, trimmed string",
    # structure
    "ir.not_object": "an IR must be a JSON object",
    "field.required": "a required field is missing",
    "field.unknown": "a field is not part of the language",
    "field.type": "a field has the wrong type",
    "field.enum": "a field's value is not one of the allowed values",
    "field.range": "a number is outside its allowed range",
    "field.empty": "a string or list that must have content is empty",
    "field.invalid": "a field's value is malformed",
    "field.size": "a list or string is too long or too short",
    "op.missing": "the IR has no op",
    "op.unknown": "the op is not one of the twelve verbs",
    "stage.mismatch": "the stage contradicts the op",
    "time.invalid": "an instant is not a valid ISO-8601 date-time",
    "time.assumed_utc": "an instant without an offset was read as UTC",
    "time.natural_resolved": "a natural-language time was resolved against the reference time",
    "time.needs_now": "a relative time cannot be resolved without a reference time",
    "time.empty_range": "a time range ends before it starts",
    "duration.invalid": "a duration is not an ISO-8601 duration",
    "rrule.invalid": "a reminder rule is not a valid RFC 5545 RRULE",
    "url.invalid": "a URL is not an absolute http(s) URL",
    # targets
    "target.required": "this op needs a target",
    "target.forbidden": "this op takes no target",
    "target.missing_selector": "a target needs one of ids, filter, search, all, from_step",
    "target.conflict": "a target combines selectors that cannot be combined",
    "search.score": "overrides.score 'cosine' needs a dense-only, unshaped search (alpha 1, no shaping)",
    "filter.empty_range": "a filter's lower bound is above its upper bound",
    "write.default_limit": "a write through filter/search has no limit; the default cap applies",
    "confirm.all_write": "a write on all records needs meta.confirmation or meta.dry_run",
    "confirm.all_read": "a read of all records needs meta.confirmation",
    "confirm.hard_delete": "a hard delete needs meta.confirmation",
    # verb invariants
    "encode.payload": "Encode needs exactly one of payload.text, payload.url, payload.structured",
    "encode.derived_from": "derived_from needs exactly one of from_step (an earlier workflow step) or ids",
    "encode.interpret": "Encode interpret reads payload.text: a url or structured payload has none",
    "encode.key": "Encode key and namespace come together, without proposal, on a non-fact payload",
    "encode.index": "Encode index (false or paths) applies to a structured payload",
    "filter.where": "a where condition names a dotted path and a value or comparison operators",
    "retrieve.namespaces": "a namespace listing reads the records of a filter, now",
    "key.taken": "another live record holds this namespace and key, and the session may not change it",
    "label.empty": "Label needs tags or facets, or infer: true",
    "label.infer_mode": "Label infer adds tags: it goes with mode add or replace, not remove",
    "update.empty": "Update needs a non-empty set",
    "update.embedding": "embeddings cannot be set directly; they are derived from the text",
    "weight.exclusive": "give exactly one of weight, weight_delta (and for Demote, archive)",
    "weight.missing": "Promote needs weight, weight_delta or remind; Demote weight, weight_delta or archive",
    "weight.direction": "the weight change points the other way than the verb",
    "expire.horizon": "Expire needs exactly one finite horizon: ttl or until",
    "expire.on_expire": "Expire needs an explicit on_expire action",
    "expire.in_past": "the expiry time is already past",
    "lock.policy_conflict": "an op is both allowed and denied by the lock policy",
    "lock.read_deny": "a lock refuses writes, never reads: its deny list cannot name Retrieve or Summarize",
    "merge.too_few": "Merge needs at least two records",
    "merge.primary_not_in_target": "the primary record is not among the merged ids",
    "split.params": "Split parameters do not fit the strategy",
    "delete.time_conflict": "give older_than or time_range, not both",
    "fact.dedupe": "dedupe does not apply to a typed fact: an identical value is never stored twice",
    "category.namespace": "a category is neither a standard a2p: category nor a well-formed ext: one",
    "category.unknown": "an a2p: category is not in the standard a2p namespace",
    # workflows
    "workflow.empty": "a workflow needs at least one step",
    "workflow.too_long": "a workflow has more steps than the limit",
    "workflow.ref_forward": "a step refers to itself or a later step",
    "workflow.ref_missing": "a step refers to a step that does not exist",
    "workflow.ref_outside": "from_step is only meaningful inside a workflow",
    # planning (cognition: natural language -> programs)
    "plan.clarify": "the instruction cannot be planned safely as written; the message says what is missing",
    "plan.no_llm": "the LLM planner has no model: MEMQL_LLM_BASE_URL and MEMQL_LLM_MODEL are not set",
    "plan.llm_error": "the LLM could not be reached, or its server answered with an error",
    "plan.invalid_reply": "the model's reply is not a valid plan (after the allowed repair rounds)",
    # extraction (memql.services.extract)
    "extract.no_llm": "the LLM extractor has no LLM configured: the message was not read",
    "extract.llm_error": "the LLM could not be reached, or its server answered with an error",
    "extract.invalid_reply": "the model's reply is not a valid MemoryDelta (after its retry): nothing kept",
    # execution and governance (engine)
    "target.not_found": "a targeted id does not exist in this tenant",
    "target.hidden": "a targeted record is deleted, archived or expired and was left out",
    "target.empty": "the target matched no records",
    "governance.locked": "a lock on the record refuses this op",
    "governance.lock_owner": "only the locker, a listed reviewer or an admin may change or lift this lock",
    "governance.target_state": "the op cannot act on a deleted or expired record",
    "restore.window": "the record can no longer be restored",
    "restore.target": "Restore names one record by its id",
    "consent.read": "the agent's consent (propose-only) does not cover reading memory",
    "consent.write": "the agent's consent does not cover this write (it needs read_write)",
    "permission.write": "the caller may read the record but its write permissions refuse the op",
    "permission.owner": (
        "only the record's owner or an admin may change its owner or permission fields, or lower its "
        "sensitivity or its category's"
    ),
    "permission.lock": (
        "only the record's owner or an admin may lock it (on an ownerless record or an unaccepted "
        "proposal, also the tenant's users)"
    ),
    "permission.merge": "records with different readers cannot be merged into one",
    "permission.fact": (
        "a typed fact's Encode would touch a fact of its key that the caller may not read or write"
    ),
    "proposal.approver": "only a user or an admin may approve or reject a proposal",
    "proposal.transition": "status may only move a pending proposal to active (approve) or rejected",
    "category.unregistered": "an ext: category is not registered in the engine configuration",
    "category.sensitivity": "the category's sensitivity is stricter than the one given; it applies",
    "split.nothing": "the record's text yields a single part",
    "split.already": "the record was split before; its parts are the records to split",
    "exec.internal": "an unexpected error; nothing was changed",
    "store.busy": "another connection held the store's write lock past the wait: nothing changed; try again",
    "store.unavailable": (
        "the store could not be reached or written (its server, connection or file failed): nothing changed, "
        "unless the message says the failure came while committing"
    ),
    "store.full": "the disk (or the store's size limit) is full: nothing changed; free space and try again",
    "bulk.encode_only": "a bulk write (encode_many, memql import) holds Encodes only",
    "adapter.write_failed": "the other memory system failed a write; the writes already made were undone",
    "adapter.read_failed": "the other memory system failed a read; nothing was written",
    # profiles (cognition: a2p import and export, automatic promotion)
    "a2p.memory_type": "a key under memories is not a2p:episodic, a2p:semantic or a2p:procedural",
    "a2p.duplicate_id": "two memories of the profile have the same id",
    "a2p.id_exists": "a memory with this id is already in the tenant",
    "a2p.content": "a memory's content does not fit the payload kind memql.payload names",
    "a2p.sensitivity_public": "a2p sensitivity public was read as standard, memql's least protected level",
    "a2p.ignored": "a part of the profile that memql does not import was left out",
    "a2p.export_limit": "the tenant has more memories than one export carries",
    "promote.scan_limit": "promotion looked at its maximum of episodic memories; run it again for the rest",
    "fact.repeat": "the fact already holds this value at that time; nothing was stored",
    "fact.extended": "an equal, later value of the fact now starts earlier; nothing new was stored",
    # conversation memory (cognition: strategies, context, respond)
    "conversation.strategy_unavailable": "the strategy is not part of this installation of memql",
    "conversation.strategy_inactive": "the strategy did not observe this conversation's messages",
    "conversation.llm_error": "the LLM could not answer; the assembled context is returned without one",
    "conversation.moved": "another writer added to the conversation since it was opened: open it again",
    # planning (natural language -> IR)
    "plan.assumption": "the planner read in what the instruction left implicit ('this' = the latest record)",
    "plan.skipped": "a step of the instruction is not a memory operation (send, share …) and was left out",
    "plan.needs_confirmation": "a destructive plan (any delete, all, lock change) ran as a dry run only",
    # compatibility rewrites (warnings; errors in strict mode)
    "compat.alias": "a legacy or variant spelling was rewritten to the canonical form",
    "compat.ignored": "a field with no effect in memql was dropped",
    "compat.moved_to_facets": "an unknown scalar field was kept as a free facet",
    "compat.clamped": "a value below its minimum was raised to the minimum",
}


class Diagnostic(BaseModel):
    """One finding: where (JSON pointer into the input), which rule, how bad, and what to do."""

    model_config = ConfigDict(frozen=True)

    path: str
    rule: str
    severity: Severity
    message: str

    def __str__(self) -> str:
        where = self.path or "/"
        return f"{self.severity}: {where}: {self.message} [{self.rule}]"


def pointer(parts: Iterable[str | int]) -> str:
    """RFC 6901 JSON pointer from path parts ('' is the whole document)."""
    out = []
    for p in parts:
        out.append("/" + str(p).replace("~", "~0").replace("/", "~1"))
    return "".join(out)


def join(base: str, *parts: str | int) -> str:
    if len(parts) == 1:  # the common case, on every step validated: one plain key
        part = parts[0]
        if type(part) is str and "~" not in part and "/" not in part:
            return f"{base}/{part}"
    return base + pointer(parts)


class Diagnostics:
    """An append-only collector used by the validation passes."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, path: str, rule: str, message: str) -> None:
        self._add(path, rule, "error", message)

    def warning(self, path: str, rule: str, message: str) -> None:
        self._add(path, rule, "warning", message)

    def _add(self, path: str, rule: str, severity: Severity, message: str) -> None:
        if rule not in RULES:  # a programming error: every rule must be catalogued
            raise KeyError(f"uncatalogued diagnostic rule {rule!r}")
        self.items.append(Diagnostic(path=path, rule=rule, severity=severity, message=message))

    def extend(self, items: Sequence[Diagnostic]) -> None:
        self.items.extend(items)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def errors_since(self, mark: int) -> bool:
        return any(d.severity == "error" for d in self.items[mark:])
