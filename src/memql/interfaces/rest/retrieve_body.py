"""The body of /v1/retrieve: its own shorthand form, or a Retrieve program in any form /v1/execute takes.

A body is the shorthand (`{query?, ids?, filter?, k?, ...}`, the Python API's `Memory.retrieve`) when it
is an object naming none of the language's own keys; otherwise it is a program — one IR, a JSON list of
IRs, `{"workflow": [...]}` or `{"steps": [{"ir": ...}]}`, in the language's canonical spelling or the
Text2Mem reference spellings it normalises — and runs as /v1/execute runs it, as long as every step is a
Retrieve. Any other verb is refused before anything runs (`field.enum` at the step's `op`).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from memql.engine.result import ExecutionResult
from memql.interfaces.rest.errors import refusal, validation_diagnostics
from memql.interfaces.rest.models import RetrieveRequest
from memql.lang import STAGE_OF, Limits, OpBase
from memql.lang.diagnostics import Diagnostic, Diagnostics, join
from memql.lang.hygiene import MISSING, decode
from memql.memory import Memory

# keys that make an object a program rather than the shorthand (an IR's fields, and the workflow shapes)
PROGRAM_KEYS = frozenset({"op", "stage", "target", "args", "meta", "_comment", "workflow", "steps"})

RETRIEVE_BODY = {
    "requestBody": {
        "required": True,
        "description": "the shorthand `{query?, ids?, filter?, k?, include?, as_of?, order_by?, overrides?, "
        'facts?}`, or a program of Retrieve IRs in any form /v1/execute takes (one IR, `{"workflow": '
        '[...]}`, a JSON list of IRs, `{"steps": [{"ir": ...}]}`, the Text2Mem reference spellings)',
        "content": {
            "application/json": {
                "schema": {
                    "anyOf": [
                        {"$ref": "#/components/schemas/RetrieveRequest"},
                        {"$ref": "#/components/schemas/IR_RetrieveIR"},
                        {"$ref": "#/components/schemas/RetrieveWorkflow"},
                    ]
                }
            }
        },
    }
}


def retrieve_workflow_schema(workflow: dict[str, Any]) -> dict[str, Any]:
    """The language's Workflow schema (already rebased onto the components) with Retrieve steps only."""
    steps = {**workflow["properties"]["workflow"], "items": {"$ref": "#/components/schemas/IR_RetrieveIR"}}
    return {
        **workflow,
        "title": "RetrieveWorkflow",
        "description": "Retrieve steps run in order, in one transaction (a workflow that only reads).",
        "properties": {**workflow["properties"], "workflow": steps},
    }


def retrieve_result(memory: Memory, body: bytes) -> ExecutionResult:
    """Run the body as one Retrieve (shorthand) or a Retrieve program; raises Refusal for a bad shorthand."""
    hygiene = Diagnostics()
    doc = decode(body, hygiene, Limits())
    if isinstance(doc, dict) and not PROGRAM_KEYS & {str(k).strip() for k in doc}:
        if hygiene.has_errors:  # duplicate keys, non-finite numbers ...: the language's own diagnostics
            raise refusal([d for d in hygiene.items if d.severity == "error"])
        return _shorthand(memory, doc)
    checked = memory.validate(body)
    is_workflow, steps = _steps(doc)
    declared = _typed_ops(checked.program) if checked.valid else [_raw_op(raw) for _path, raw in steps]
    others = [
        Diagnostic(
            path=join(path, "op"),
            rule="field.enum",
            severity="error",
            message=f"/v1/retrieve runs Retrieve only; {op} is not a read: send it to /v1/execute",
        )
        for (path, _raw), op in zip(steps, declared, strict=False)
        if op is not None and op != "Retrieve"
    ]
    if others or not checked.valid:
        name = "Workflow" if is_workflow else (declared[0] if declared and declared[0] else "Retrieve")
        diagnostics = others or checked.errors
        return ExecutionResult(success=False, op=name, diagnostics=diagnostics, warnings=checked.warnings)
    return memory.execute(body)  # validated again there: the program runs exactly as /v1/execute runs it


def _shorthand(memory: Memory, doc: dict[str, Any]) -> ExecutionResult:
    try:
        request = RetrieveRequest.model_validate(doc)
    except ValidationError as exc:
        raise refusal(validation_diagnostics(exc.errors())) from None
    return memory.retrieve(
        request.query,
        ids=request.ids,
        filter=request.filter,
        k=request.k,
        include=request.include,
        as_of=request.as_of,
        order_by=request.order_by,
        overrides=request.overrides,
        facts=request.facts,
    )


def _steps(doc: Any) -> tuple[bool, list[tuple[str, Any]]]:
    """(is a workflow, [(JSON pointer of the step in the body, the step as sent)]), in the shapes the
    language reads (memql.lang.validate): a list, {"workflow": [...]}, {"steps": [{"ir": ...}]}, one IR."""
    if doc is MISSING:
        return False, []
    if isinstance(doc, list):
        return True, [(f"/{i}", step) for i, step in enumerate(doc)]
    if isinstance(doc, dict) and isinstance(doc.get("workflow"), list):
        return True, [(f"/workflow/{i}", step) for i, step in enumerate(doc["workflow"])]
    if isinstance(doc, dict) and isinstance(doc.get("steps"), list) and "op" not in doc:
        irs = [step.get("ir") if isinstance(step, dict) else None for step in doc["steps"]]
        return True, [(f"/steps/{i}/ir", ir) for i, ir in enumerate(irs)]
    return False, [("", doc)]


def _typed_ops(program: Any) -> list[str | None]:
    if isinstance(program, OpBase):
        return [program.op]
    return [step.op for step in program.workflow]


def _raw_op(raw: Any) -> str | None:
    """The verb a step that did not validate names, spelled as the language would read it (case and
    padding aside), or None when it names none the language knows (validation reports that)."""
    if not isinstance(raw, dict):
        return None
    op = next((value for key, value in raw.items() if str(key).strip() == "op"), None)
    if not isinstance(op, str):
        return None
    return {verb.lower(): verb for verb in STAGE_OF}.get(op.strip().lower())
