"""Update and Label (stage STO): change a record's fields, or its tags and facets."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.fields import DurationText, Facets, Id, StrictModel, Tags, Weight
from memql.lang.ops.base import OpBase, verb
from memql.lang.ops.encode import MAX_TEXT
from memql.lang.ops.record import RecordFields


class UpdateContent(StrictModel):
    text: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)] | None = None
    ttl: DurationText | None = None
    # memql extensions: governance
    status: Literal["active", "rejected"] | None = Field(
        None,
        description="decide a pending proposal: active approves it, rejected rejects it (memql extension)",
    )
    owner: Id | None = Field(None, description="hand the record to another owner (memql extension)")


def _absent(schema: dict[str, Any]) -> None:
    """A field that is left out when unchanged but may not be null: its schema has no default (null)."""
    schema.pop("default", None)


class UpdateSet(RecordFields, UpdateContent):
    """The fields to change (at least one). Facets merge key by key; tags replace the record's tags."""

    # a record always has a weight and a list of tags ([] for none): null here is refused, not cleared
    # (it reached the store, which refused it: exec.internal); absent, they are not changed
    weight: Weight = Field(  # type: ignore[assignment]
        None, description="priority in [0, 1]", json_schema_extra=_absent
    )
    tags: Tags = Field(  # type: ignore[assignment]
        None, description="the record's new tags ([] for none)", json_schema_extra=_absent
    )

    @model_validator(mode="before")
    @classmethod
    def _no_embedding(cls, data: Any) -> Any:
        if isinstance(data, dict) and "embedding" in data:
            raise PydanticCustomError(
                "update.embedding",
                "embeddings cannot be set directly; update the text and memql re-embeds it",
            )
        return data

    @model_validator(mode="after")
    def _non_empty(self) -> UpdateSet:
        if not self.model_dump(exclude_none=True):
            raise PydanticCustomError("update.empty", "Update needs at least one field in set")
        return self


class UpdateArgs(StrictModel):
    set: UpdateSet

    @model_validator(mode="before")
    @classmethod
    def _set_present(cls, data: Any) -> Any:
        if isinstance(data, dict) and "set" not in data:
            raise PydanticCustomError("update.empty", "Update needs args.set with at least one field")
        return data


@verb
class UpdateIR(OpBase):
    """Change fields in place; the id stays, old values stay in the audit log."""

    op: Literal["Update"]
    stage: Literal["STO"] = "STO"
    args: UpdateArgs


class LabelArgs(StrictModel):
    tags: Tags | None = None
    facets: Facets | None = None
    mode: Literal["add", "replace", "remove"] = Field(
        "add", description="add: union; replace: overwrite; remove: take these tags/facet keys away"
    )
    infer: bool | None = Field(
        None,
        description="also add tags inferred from each target record's text by the configured extractor: "
        "its named entities, its a2p category and its facts' attribute keys, lower-case (memql extension, "
        "language 1.x, added with issue 17)",
    )

    @field_validator("infer")
    @classmethod
    def _infer_adds(cls, value: bool | None, info: ValidationInfo) -> bool | None:
        if value and info.data.get("mode") == "remove":
            raise PydanticCustomError(
                "label.infer_mode", "infer adds tags: it goes with mode add or replace, not remove"
            )
        return value

    @model_validator(mode="after")
    def _something(self) -> LabelArgs:
        if not self.tags and (self.facets is None or self.facets.is_empty()) and not self.infer:
            raise PydanticCustomError("label.empty", "Label needs at least one tag or facet, or infer: true")
        return self


@verb
class LabelIR(OpBase):
    op: Literal["Label"]
    stage: Literal["STO"] = "STO"
    args: LabelArgs
