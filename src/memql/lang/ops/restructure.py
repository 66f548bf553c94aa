"""Merge and Split (stage STO): fold records into one, or cut one into parts, keeping lineage."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.fields import Id, IdList, StrictModel, trimmed_nonempty
from memql.lang.ops.base import OpBase, verb


class MergeArgs(StrictModel):
    strategy: Literal["merge_into_primary"] = "merge_into_primary"
    primary_id: Id | None = Field(
        None, description="the surviving record; default: highest weight, then oldest"
    )
    soft_delete_children: bool = Field(
        True, description="false keeps the children active, linked merged_into"
    )
    skip_reembedding: bool = False
    consolidated_from: IdList | None = Field(
        None,
        description="record these ids on the primary as the memories it consolidates (payload metadata "
        "consolidated_from, appended to any it has): the children's ids as the caller names them, "
        "e.g. their a2p ids (memql extension)",
    )


@verb
class MergeIR(OpBase):
    op: Literal["Merge"]
    stage: Literal["STO"] = "STO"
    args: MergeArgs = Field(default_factory=MergeArgs)

    @model_validator(mode="after")
    def _enough_records(self) -> MergeIR:
        ids = self.target.ids if self.target is not None else None
        if ids is not None:
            if len(ids) < 2:
                raise PydanticCustomError(
                    "merge.too_few", "Merge needs at least two records", {"field": "target/ids"}
                )
            if self.args.primary_id is not None and self.args.primary_id not in ids:
                raise PydanticCustomError(
                    "merge.primary_not_in_target",
                    "primary_id {pid} is not among target.ids",
                    {"pid": self.args.primary_id, "field": "args/primary_id"},
                )
        return self


class BySentences(StrictModel):
    lang: Literal["zh", "en", "auto"] = "auto"
    max_sentences: Annotated[int, Field(ge=1, le=10_000)] | None = Field(
        None, description="sentences per part"
    )


class ByChunks(StrictModel):
    chunk_size: Annotated[int, Field(ge=50, le=1_000_000)] | None = Field(
        None, description="most characters per part"
    )
    num_chunks: Annotated[int, Field(ge=1, le=10_000)] | None = Field(
        None, description="exactly this many parts"
    )


Phrase = Annotated[str, Field(min_length=1, max_length=1_000)]  # a delimiter may be whitespace ("\n\n")
Topic = Annotated[str, Field(max_length=1_000), AfterValidator(trimmed_nonempty)]


class CustomSplit(StrictModel):
    instruction: Annotated[str, Field(min_length=1, max_length=10_000)] | None = Field(
        None, description="how to split, for the LLM"
    )
    max_splits: Annotated[int, Field(ge=1, le=1_000)] = 10
    delimiters: Annotated[list[Phrase], Field(min_length=1, max_length=100)] | None = Field(
        None, description="cut at these strings, deterministically (memql extension)"
    )
    topics: Annotated[list[Topic], Field(min_length=1, max_length=100)] | None = Field(
        None, description="one part per named topic or section (memql extension)"
    )

    @model_validator(mode="after")
    def _how(self) -> CustomSplit:
        if self.instruction is None and self.delimiters is None and self.topics is None:
            raise PydanticCustomError(
                "split.params", "a custom split needs an instruction, delimiters or topics"
            )
        return self


class SplitParams(StrictModel):
    by_sentences: BySentences | None = None
    by_chunks: ByChunks | None = None
    custom: CustomSplit | None = None


SplitStrategy = Literal["by_sentences", "by_chunks", "custom"]


class SplitArgs(StrictModel):
    strategy: SplitStrategy = "by_sentences"
    params: SplitParams | None = None
    inherit_all: bool = Field(True, description="children inherit tags, facets, weight and permissions")

    @model_validator(mode="after")
    def _params_fit(self) -> SplitArgs:
        given = [k for k, v in (self.params or SplitParams()) if v is not None]
        stray = [k for k in given if k != self.strategy]
        if stray:
            raise PydanticCustomError(
                "split.params",
                "params.{stray} does not apply to strategy {strategy}",
                {"stray": stray[0], "strategy": self.strategy, "field": "params"},
            )
        if self.strategy == "custom" and "custom" not in given:
            raise PydanticCustomError(
                "split.params", "strategy custom needs params.custom", {"field": "params"}
            )
        return self


@verb
class SplitIR(OpBase):
    op: Literal["Split"]
    stage: Literal["STO"] = "STO"
    args: SplitArgs = Field(default_factory=SplitArgs)
