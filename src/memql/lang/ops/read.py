"""Retrieve and Summarize (stage RET): ranked rows, or a summary stored as a derived record."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.fields import Instant, StrictModel, dedupe
from memql.lang.keyed import NamespaceListing
from memql.lang.ops.base import OpBase, verb

IncludeField = Literal[
    # official
    "id",
    "text",
    "type",
    "tags",
    "facets",
    "time",
    "subject",
    "location",
    "topic",
    "source",
    "weight",
    "read_perm_level",
    "write_perm_level",
    "read_whitelist",
    "read_blacklist",
    "write_whitelist",
    "write_blacklist",
    # memql record fields
    "owner",
    "agent",
    "status",
    "structured",
    "keywords",
    "created_at",
    "updated_at",
    "expire_at",
    "on_expire",
    "lock",
    "memory_type",
    "category",
    "sensitivity",
    "confidence",
    "attribute",
    "value",
    "valid_from",
    "valid_to",
    # memql: provenance, payload metadata and heat (profile export, promotion)
    "url",
    "payload_meta",
    "visits",
    "last_access_at",
    "evidence",
    "schema_version",
    # memql: key-addressed records
    "namespace",
    "key",
    "ttl",
    "score",
    "explain",
]


# what a Retrieve returns when `include` is not given (the engine reads this one list)
DEFAULT_INCLUDE = ("id", "text", "type", "tags", "facets", "time", "weight", "status", "score")


class RetrieveArgs(StrictModel):
    include: Annotated[list[IncludeField], Field(min_length=1), AfterValidator(dedupe)] | None = Field(
        None, description=f"the fields to return (default: {', '.join(DEFAULT_INCLUDE)})"
    )
    as_of: Instant | None = Field(
        None, description="read the store as it was at this instant (memql extension)"
    )
    facts: Literal["current", "history"] | None = Field(
        None,
        description="memql extension: also return the typed facts the search query names (or, without a "
        "query, that the hits state), true at as_of or now ('current'), with their earlier values too "
        "('history'); each row says whether its typed facts still hold (superseded_by, superseded_at)",
    )
    # memql extensions, language 1.x, added with issue 18
    offset: Annotated[int, Field(ge=0, le=10_000_000)] | None = Field(
        None, description="skip this many of the ordered results before the limit"
    )
    refresh_ttl: bool | None = Field(
        None,
        description="renew each returned record's time to live (expire_at = now + its ttl); "
        "not a content change",
    )
    namespaces: NamespaceListing | None = Field(
        None, description="list the distinct namespaces of the target's records instead of rows"
    )


@verb
class RetrieveIR(OpBase):
    op: Literal["Retrieve"]
    stage: Literal["RET"] = "RET"
    args: RetrieveArgs = Field(default_factory=RetrieveArgs)

    @model_validator(mode="after")
    def _listing_by_filter(self) -> RetrieveIR:
        if self.args.namespaces is not None and (
            self.target is None or self.target.selector != "filter" or self.args.as_of is not None
        ):
            raise PydanticCustomError(
                "retrieve.namespaces",
                "a namespace listing reads the records of a filter, now (no ids, search, all, from_step "
                "or as_of)",
            )
        return self


class SummarizeArgs(StrictModel):
    focus: Annotated[str, Field(max_length=2_000)] | None = Field(None, description="what the summary is for")
    max_tokens: Annotated[int, Field(ge=1, le=32_768)] = 256


@verb
class SummarizeIR(OpBase):
    op: Literal["Summarize"]
    stage: Literal["RET"] = "RET"
    args: SummarizeArgs = Field(default_factory=SummarizeArgs)
