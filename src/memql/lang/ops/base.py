"""What every IR shares: the verb names, their stages, `meta`, and the canonical JSON form."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.fields import Instant, Name, StrictModel
from memql.lang.target import Target

OpName = Literal[
    "Encode",
    "Update",
    "Label",
    "Promote",
    "Demote",
    "Merge",
    "Delete",
    "Split",
    "Lock",
    "Expire",
    "Retrieve",
    "Summarize",
]
OPS: tuple[str, ...] = OpName.__args__  # type: ignore[attr-defined]
Stage = Literal["ENC", "STO", "RET"]
STAGE_OF: dict[str, str] = {
    op: "ENC" if op == "Encode" else "RET" if op in ("Retrieve", "Summarize") else "STO" for op in OPS
}
WRITE_OPS = frozenset(op for op, stage in STAGE_OF.items() if stage == "STO")

ShortText = Annotated[str, Field(max_length=2_000)]


class Meta(StrictModel):
    """Who asks, in which language, and how carefully (dry run, explicit confirmation)."""

    actor: Name | None = Field(None, description="who issues the op (audited; governance is by session)")
    lang: Annotated[str, Field(max_length=16)] | None = Field(
        None, description="language preference, e.g. en, zh"
    )
    trace_id: Annotated[str, Field(max_length=256)] | None = None
    timestamp: Instant | None = None
    dry_run: bool | None = Field(None, description="show every effect, commit nothing")
    confirmation: bool | None = Field(None, description="explicitly allow wide or destructive ops")


_KEY_ORDER = ("stage", "op", "target", "args", "meta", "_comment")


class OpBase(StrictModel):
    """Fields common to all twelve ops. Subclasses fix `op`, `stage`, `target` and `args`."""

    op: str
    stage: str
    target: Target | None = None
    args: Any = None
    meta: Meta | None = None
    comment: ShortText | None = Field(None, alias="_comment", description="human note; ignored by execution")

    needs_target: ClassVar[bool] = True

    @model_validator(mode="after")
    def _target_presence(self) -> OpBase:
        if self.needs_target and self.target is None:
            raise PydanticCustomError(
                "target.required", "{op} needs a target", {"op": self.op, "field": "target"}
            )
        if not self.needs_target and self.target is not None:
            raise PydanticCustomError(
                "target.forbidden", "{op} takes no target", {"op": self.op, "field": "target"}
            )
        return self

    @property
    def confirmed(self) -> bool:
        return bool(self.meta and self.meta.confirmation)

    @property
    def dry_run(self) -> bool:
        return bool(self.meta and self.meta.dry_run)

    def canonical(self) -> dict[str, Any]:
        """The canonical JSON form: UTC instants, canonical spellings, no nulls, stable key order."""
        raw = self.model_dump(mode="json", by_alias=True, exclude_none=True)
        if not raw.get("meta"):
            raw.pop("meta", None)
        return {key: raw[key] for key in _KEY_ORDER if key in raw}
