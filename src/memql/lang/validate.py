"""validate(): decode → normalise → typed parse → invariants, returning diagnostics and the canonical form.

Accepted program shapes:
- one IR: {"stage"?, "op", "target"?, "args"?, "meta"?, "_comment"?}
- a workflow: a JSON list of IRs (the bench's schema_list), {"workflow": [...], "name"?, "meta"?},
  or the official example format {"name"?, "steps": [{"name"?, "ir": {...}}, ...]}.
Validation never raises for any input; a bug that would escape is reported as an error diagnostic.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from memql.lang import errors
from memql.lang.diagnostics import Diagnostic, Diagnostics, join
from memql.lang.hygiene import MISSING, Limits, decode
from memql.lang.invariants import check_ir
from memql.lang.ir import Workflow
from memql.lang.normalize import normalize_ir
from memql.lang.ops import OPS, STAGE_OF, VERB_MODELS, Meta, OpBase


class ValidationResult(BaseModel):
    """What validate() returns. `canonical` and `program` are set only when `valid`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    valid: bool
    kind: Literal["ir", "workflow"] | None = None
    diagnostics: list[Diagnostic]
    canonical: dict[str, Any] | None = None
    program: Any = None  # OpBase | Workflow

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "kind": self.kind,
            "diagnostics": [d.model_dump() for d in self.diagnostics],
            "canonical": self.canonical,
        }


def validate(
    source: Any, *, now: datetime | None = None, strict: bool = False, limits: Limits | None = None
) -> ValidationResult:
    """Validate an IR or workflow given as JSON text, bytes, or already-decoded JSON values.

    `now` (timezone-aware) resolves natural-language times and enables checks against the present;
    without it those are skipped. `strict` turns every warning into an error.
    """
    return validate_with(source, now=now, strict=strict, limits=limits, prebuilt=None)


def validate_with(
    source: Any,
    *,
    now: datetime | None,
    strict: bool,
    limits: Limits | None,
    prebuilt: Sequence[tuple[OpBase, dict[str, Any]] | None] | None,
) -> ValidationResult:
    """`validate`, with workflow step i's model and canonical form taken from `prebuilt[i]` where it is
    not None rather than parsed: the plain-Encode validator's (memql.lang.plain), which builds for such a
    step the very model and form this path would, without a diagnostic. Everything else — hygiene over
    the whole document, every other step, the workflow's checks — is this path's."""
    if now is not None and now.tzinfo is None:
        raise ValueError("now must be timezone-aware")  # a caller's bug, not bad input
    limits = limits or Limits()
    diags = Diagnostics()
    try:
        kind, program = _validate(source, diags, now, limits, prebuilt)
    except Exception as exc:  # pragma: no cover - a defect must surface as a diagnostic, never a traceback
        diags.error(
            "", "field.invalid", f"internal validation error ({type(exc).__name__}: {exc}); please report"
        )
        kind, program = None, None
    items = diags.items
    if strict:
        items = [d.model_copy(update={"severity": "error"}) if d.severity == "warning" else d for d in items]
    valid = program is not None and not any(d.severity == "error" for d in items)
    return ValidationResult(
        valid=valid,
        kind=kind if valid else None,
        diagnostics=items,
        canonical=_canonical(program, prebuilt) if valid else None,
        program=program if valid else None,
    )


def _canonical(program: Any, prebuilt: Sequence[tuple[OpBase, dict[str, Any]] | None] | None):
    if prebuilt is None or not isinstance(program, Workflow):
        return program.canonical()
    return program.canonical([None if given is None else given[1] for given in prebuilt])


def _validate(
    source: Any,
    diags: Diagnostics,
    now: datetime | None,
    limits: Limits,
    prebuilt: Sequence[tuple[OpBase, dict[str, Any]] | None] | None = None,
):
    doc = decode(source, diags, limits)
    if doc is MISSING:
        return None, None
    shape = _shape(doc, diags, limits)
    if shape is None:
        return None, None
    kind, steps, wf_fields = shape
    parsed: list[OpBase | None] = []
    for i, (path, raw) in enumerate(steps):
        ready = prebuilt[i] if prebuilt is not None and kind == "workflow" else None
        parsed.append(ready[0] if ready is not None else _parse_ir(raw, path, diags, now, limits))
    if kind == "ir":
        ir = parsed[0]
        if ir is None:
            return kind, None
        check_ir(ir, ir.meta or Meta(), steps[0][0], diags, now, None, None)
        return kind, ir
    workflow = _workflow(parsed, wf_fields, diags)
    if workflow is None:
        return kind, None
    for i, (path, _raw) in enumerate(steps):
        check_ir(workflow.workflow[i], workflow.effective_meta(i), path, diags, now, i, len(steps))
    return kind, workflow


def _shape(doc: Any, diags: Diagnostics, limits: Limits):
    """Find the IRs in the document: ("ir"|"workflow", [(path, raw ir)], workflow-level fields)."""
    if isinstance(doc, list):
        return _steps_of(doc, "", diags, limits, {})
    if not isinstance(doc, dict):
        diags.error("", "ir.not_object", f"expected an IR object or a workflow, got {_json_type(doc)}")
        return None
    if "workflow" in doc:
        fields = {k: v for k, v in doc.items() if k != "workflow"}
        if not isinstance(doc["workflow"], list):
            diags.error("/workflow", "field.type", "workflow must be a list of IRs")
            return None
        return _steps_of(doc["workflow"], "/workflow", diags, limits, fields)
    if "steps" in doc and "op" not in doc:
        fields = {k: v for k, v in doc.items() if k not in ("steps", "description")}
        steps = doc["steps"]
        if not isinstance(steps, list):
            diags.error("/steps", "field.type", "steps must be a list of {name, ir} objects")
            return None
        irs = []
        for i, step in enumerate(steps):
            if not isinstance(step, dict) or "ir" not in step:
                diags.error(join("/steps", i), "field.required", "each step needs an ir")
                return None
            irs.append((join("/steps", i, "ir"), step["ir"]))
        return _checked_steps(irs, "/steps", diags, limits, fields)
    return "ir", [("", doc)], {}


def _steps_of(items: list, base: str, diags: Diagnostics, limits: Limits, fields: dict):
    return _checked_steps([(join(base, i), ir) for i, ir in enumerate(items)], base, diags, limits, fields)


def _checked_steps(irs: list, base: str, diags: Diagnostics, limits: Limits, fields: dict):
    if not irs:
        diags.error(base, "workflow.empty", "a workflow needs at least one step")
        return None
    if len(irs) > limits.max_steps:
        diags.error(base, "workflow.too_long", f"{len(irs)} steps; the limit is {limits.max_steps}")
        return None
    return "workflow", irs, fields


def _parse_ir(raw: Any, path: str, diags: Diagnostics, now: datetime | None, limits: Limits) -> OpBase | None:
    if not isinstance(raw, dict):
        diags.error(path, "ir.not_object", f"an IR must be an object, got {_json_type(raw)}")
        return None
    mark = len(diags.items)
    normalize_ir(raw, path, diags, now, limits.write_limit)
    raw.setdefault("args", {})  # absent args: let each verb's own rule say what is missing
    op = raw.get("op")
    if op is None:
        diags.error(join(path, "op"), "op.missing", "an IR needs an op: one of " + ", ".join(OPS))
        return None
    if not isinstance(op, str) or op not in VERB_MODELS:
        hint = difflib.get_close_matches(str(op), list(VERB_MODELS), n=1, cutoff=0.6)
        diags.error(
            join(path, "op"),
            "op.unknown",
            f"{op!r} is not a verb"
            + (f"; did you mean {hint[0]!r}?" if hint else "")
            + " (verbs: "
            + ", ".join(OPS)
            + ")",
        )
        return None
    stage = raw.get("stage")
    if stage != STAGE_OF[op]:
        diags.error(
            join(path, "stage"), "stage.mismatch", f"{op} runs in stage {STAGE_OF[op]}, not {stage!r}"
        )
        raw["stage"] = STAGE_OF[op]  # keep parsing so every other problem is reported too
    try:
        model = VERB_MODELS[op].model_validate(raw)
    except ValidationError as exc:
        already = {d.path for d in diags.items[mark:] if d.severity == "error"}
        errors.report(exc, path, diags, skip=already, op=op)
        return None
    return None if diags.errors_since(mark) else model


def _workflow(parsed: list[OpBase | None], fields: dict, diags: Diagnostics) -> Workflow | None:
    """Assemble the workflow from its parsed steps and its own fields (name, meta)."""
    mark = len(diags.items)
    for key in fields:
        if key not in ("name", "meta"):
            diags.error(
                join("", key), "field.unknown", f"unknown workflow field {key!r} (name, meta, workflow)"
            )
    meta = None
    if "meta" in fields:
        try:
            meta = Meta.model_validate(fields["meta"])
        except ValidationError as exc:
            errors.report(exc, "/meta", diags)
    name = fields.get("name")
    if name is not None and not isinstance(name, str):
        diags.error("/name", "field.type", "name must be a string")
    if diags.errors_since(mark) or any(ir is None for ir in parsed):
        return None
    # the steps are already validated models; construct avoids validating them twice
    return Workflow.model_construct(workflow=list(parsed), name=name, meta=meta)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)
