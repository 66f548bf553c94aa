"""The program types: one IR (a discriminated union over the registered verbs) or a workflow of IRs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Union

from pydantic import Field

from memql.lang.fields import StrictModel
from memql.lang.ops import OP_MODELS, VERB_MODELS, Meta

# one IR: a discriminated union over every registered verb (the twelve, then the system verbs)
IR = Annotated[
    Union[tuple(VERB_MODELS.values())],  # noqa: UP007 - a discriminated union needs the Union form
    Field(discriminator="op"),
]
# one IR of the twelve Text2Mem verbs: what a planner may produce
TEXT2MEM_IR = Annotated[Union[tuple(OP_MODELS.values())], Field(discriminator="op")]  # noqa: UP007

MAX_STEPS = 100


_NO_META = Meta()  # the meta of a step without one (frozen: one instance serves every step)


class Workflow(StrictModel):
    """Steps run in order inside one transaction; one failure rolls all of them back.

    A step may target the records affected by an earlier step with target.from_step (0-based).
    Workflow-level meta (actor, dry_run, confirmation, trace_id ...) applies to every step;
    a step's own meta overrides it field by field.
    """

    workflow: Annotated[list[IR], Field(min_length=1, max_length=MAX_STEPS)]
    name: Annotated[str, Field(max_length=512)] | None = None
    meta: Meta | None = None

    def canonical(self, forms: Sequence[dict[str, Any] | None] | None = None) -> dict[str, Any]:
        """The canonical form; `forms[i]`, where given, is step i's already (validation made it)."""
        out: dict[str, Any] = {}
        if self.name is not None:
            out["name"] = self.name
        if forms is None:
            out["workflow"] = [step.canonical() for step in self.workflow]
        else:
            out["workflow"] = [
                step.canonical() if form is None else form
                for step, form in zip(self.workflow, forms, strict=True)
            ]
        meta = self.meta.model_dump(mode="json", exclude_none=True) if self.meta else None
        if meta:
            out["meta"] = meta
        return out

    def effective_meta(self, index: int) -> Meta:
        """The meta a step runs with: workflow meta overlaid by the step's own."""
        step = self.workflow[index]
        if self.meta is None:  # nothing to overlay (asked twice per step of a workflow of any length)
            return step.meta if step.meta is not None else _NO_META
        merged = self.meta.model_dump(exclude_none=True)
        if step.meta is not None:
            merged.update(step.meta.model_dump(exclude_none=True))
        return Meta.model_validate(merged, strict=False)
