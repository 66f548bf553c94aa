"""Promote and Demote (stage STO): raise or lower priority, schedule reminders, archive."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.fields import Instant, RRuleText, StrictModel, Weight, WeightDelta
from memql.lang.ops.base import OpBase, verb

Reason = Annotated[str, Field(max_length=2_000)]


class Remind(StrictModel):
    rrule: RRuleText
    until: Instant | None = None


class PromoteArgs(StrictModel):
    weight: Weight | None = Field(None, description="set the weight (0..1)")
    weight_delta: WeightDelta | None = Field(None, description="add to the weight; the result is clamped")
    remind: Remind | None = Field(None, description="schedule a reminder from an RRULE")
    reason: Reason | None = None

    @model_validator(mode="after")
    def _amount(self) -> PromoteArgs:
        if self.weight is not None and self.weight_delta is not None:
            raise PromoteArgs._exclusive()
        if self.weight is None and self.weight_delta is None and self.remind is None:
            raise PydanticCustomError("weight.missing", "Promote needs weight, weight_delta or remind")
        return self

    @staticmethod
    def _exclusive() -> PydanticCustomError:
        return PydanticCustomError("weight.exclusive", "give either weight or weight_delta, not both")


@verb
class PromoteIR(OpBase):
    op: Literal["Promote"]
    stage: Literal["STO"] = "STO"
    args: PromoteArgs


class DemoteArgs(StrictModel):
    archive: Literal[True] | None = Field(None, description="archive: kept, but out of default retrieval")
    weight: Weight | None = None
    weight_delta: WeightDelta | None = None
    reason: Reason | None = None

    @model_validator(mode="after")
    def _amount(self) -> DemoteArgs:
        given = [k for k in ("archive", "weight", "weight_delta") if getattr(self, k) is not None]
        if len(given) > 1:
            raise PydanticCustomError(
                "weight.exclusive",
                "give exactly one of archive, weight, weight_delta (got {got})",
                {"got": ", ".join(given)},
            )
        if not given:
            raise PydanticCustomError("weight.missing", "Demote needs archive: true, weight or weight_delta")
        return self


@verb
class DemoteIR(OpBase):
    op: Literal["Demote"]
    stage: Literal["STO"] = "STO"
    args: DemoteArgs
