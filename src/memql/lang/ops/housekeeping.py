"""The system verbs (stage STO): housekeeping memql adds beside the twelve Text2Mem verbs. They run like
every verb (validated, one transaction, audited as their canonical IR) and are what `memql sweep`, `due`
and `restore` send; the official Text2Mem material never uses them, and the planner does not produce them.

- Sweep: apply each expired record's on_expire, and purge soft deletions past the recovery window.
- Remind: list the reminders that are due; with `advance`, schedule each one's next occurrence.
- Restore: bring back one soft-deleted record within the recovery window.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.fields import StrictModel
from memql.lang.ops.base import OpBase, verb


class SweepArgs(StrictModel):
    pass


@verb
class SweepIR(OpBase):
    op: Literal["Sweep"]
    stage: Literal["STO"] = "STO"
    args: SweepArgs = Field(default_factory=SweepArgs)

    needs_target: ClassVar[bool] = False  # tenant-wide: whatever is due
    system: ClassVar[bool] = True


class RemindArgs(StrictModel):
    advance: bool = Field(False, description="schedule each due reminder's next occurrence (a write)")


@verb
class RemindIR(OpBase):
    op: Literal["Remind"]
    stage: Literal["STO"] = "STO"
    args: RemindArgs = Field(default_factory=RemindArgs)

    needs_target: ClassVar[bool] = False  # every due reminder the session may read
    system: ClassVar[bool] = True

    @property
    def writes(self) -> bool:
        return self.args.advance  # listing what is due only reads


class RestoreArgs(StrictModel):
    pass


@verb
class RestoreIR(OpBase):
    op: Literal["Restore"]
    stage: Literal["STO"] = "STO"
    args: RestoreArgs = Field(default_factory=RestoreArgs)

    system: ClassVar[bool] = True

    @model_validator(mode="after")
    def _one_id(self) -> RestoreIR:
        target = self.target
        if target is not None and (target.ids is None or len(target.ids) != 1 or target.from_step):
            raise PydanticCustomError(
                "restore.target", "Restore names one record by its id (target.ids)", {"field": "target"}
            )
        return self
