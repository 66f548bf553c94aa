"""Target: which records an op acts on — ids, a filter, a search, all, or the result of an earlier step.

The official schema lets a filter accompany a search (the search is narrowed by the filter); memql
extends that to `from_step`. Every other combination is a conflict.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, JsonValue, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.categories import Category
from memql.lang.fields import (
    IdList,
    Instant,
    MemoryType,
    Name,
    Sensitivity,
    StrictModel,
    Tags,
    TimeRange,
    Weight,
)
from memql.lang.keyed import Key, Namespace, NamespacePrefix, Where

MOST_READ = 100_000  # the largest filter limit: what one Retrieve by filter returns at most
Limit = Annotated[int, Field(ge=1, le=MOST_READ)]
StatusFilter = Literal["active", "archived", "deleted", "expired", "pending", "rejected", "any"]
OrderBy = Literal["relevance", "time_desc", "time_asc", "weight_desc"]


class FactFilter(StrictModel):
    """Conditions on typed facts (memql extension): only facts match, and every given condition holds."""

    subject: Name | None = Field(None, description="the fact's subject")
    attribute: Name | None = Field(None, description="the fact's attribute")
    valid_at: Instant | None = Field(
        None, description="world time: the fact was true then (valid_from <= valid_at < valid_to)"
    )


class Filter(StrictModel):
    """Conditions a record must meet. All given conditions must hold (AND)."""

    time_range: TimeRange | None = None
    has_tags: Tags | None = Field(None, description="the record carries every one of these tags")
    not_tags: Tags | None = Field(None, description="the record carries none of these tags")
    type: Name | None = None
    subject: Name | None = None
    location: Name | None = None
    topic: Name | None = None
    weight_gte: Weight | None = None
    weight_lte: Weight | None = None
    expire_before: Instant | None = None
    expire_after: Instant | None = None
    limit: Limit | None = None
    # memql extensions
    status: StatusFilter | None = Field(
        None, description="record status to match; default active (memql extension)"
    )
    facets: dict[str, JsonValue] | None = Field(
        None, description="free facets that must equal these values (memql extension)"
    )
    memory_type: MemoryType | None = None
    category: Category | None = None
    sensitivity: Sensitivity | None = None
    fact: FactFilter | None = Field(
        None, description="typed facts only, by subject, attribute and world time (memql extension)"
    )
    # key-addressed records (memql extension, language 1.x, added with issue 18)
    namespace: Namespace | None = Field(None, description="records of exactly this namespace")
    namespace_prefix: NamespacePrefix | None = Field(
        None, description="records of this namespace or one under it ([]: any record with a namespace)"
    )
    key: Key | None = Field(None, description="the record with this key")
    where: Where | None = Field(
        None,
        description="conditions on payload.structured values: dotted path -> value (equal) or "
        "{$eq|$ne|$gt|$gte|$lt|$lte|$in|$nin|$contains|$icontains: value}; $and, $or (lists) and $not "
        "combine where objects",
    )
    current: bool | None = Field(
        None,
        description="true: a typed fact matches only while it holds (valid now, at the op's clock); other "
        "records are unaffected (memql extension)",
    )
    facets_where: Where | None = Field(
        None, description="conditions on the record's facets, in the grammar of `where` (memql extension)"
    )

    @model_validator(mode="after")
    def _bounds(self) -> Filter:
        if self.weight_gte is not None and self.weight_lte is not None and self.weight_gte > self.weight_lte:
            raise PydanticCustomError(
                "filter.empty_range", "weight_gte is above weight_lte: nothing can match"
            )
        if (
            self.expire_after is not None
            and self.expire_before is not None
            and self.expire_after > self.expire_before
        ):
            raise PydanticCustomError(
                "filter.empty_range", "expire_after is after expire_before: nothing can match"
            )
        return self


class SearchIntent(StrictModel):
    query: Annotated[str, Field(min_length=1, max_length=10_000)] | None = None
    vector: (
        Annotated[list[Annotated[float, Field(allow_inf_nan=False)]], Field(min_length=1, max_length=8192)]
        | None
    ) = None
    context: Annotated[str, Field(max_length=10_000)] | None = Field(
        None, description="optional context that steers the search"
    )

    @model_validator(mode="after")
    def _one_intent(self) -> SearchIntent:
        if (self.query is None) == (self.vector is None):
            raise PydanticCustomError(
                "field.required", "a search intent needs exactly one of query or vector"
            )
        if self.query is not None and not self.query.strip():
            raise PydanticCustomError("field.empty", "the search query is blank")
        return self


class SearchOverrides(StrictModel):
    k: Annotated[int, Field(ge=1, le=10_000)] | None = Field(
        None, description="candidates to rank (default 10)"
    )
    alpha: Weight | None = Field(
        None, description="dense vs lexical balance: 1 = dense only, 0 = lexical only"
    )
    order_by: OrderBy | None = Field(
        None, description="the order of the chosen results: relevance (default), or the k best sorted by this"
    )
    # memql extensions: result shaping (docs/engine.md, "Search ranking")
    recency: Weight | None = Field(
        None,
        description="recency shaping strength: a memory from just now scores up to (1 + recency) times "
        "higher, the gain halving with each half-life of age; 0 turns it off "
        "(engine default 0.03; memql extension)",
    )
    heat: Weight | None = Field(
        None,
        description="heat shaping strength: a memory visited often and lately scores up to (1 + heat) "
        "times higher; 0 turns it off (engine default 0.02; memql extension)",
    )
    min_score: Annotated[float, Field(ge=0, le=1000)] | None = Field(
        None, description="leave out results scoring below this (memql extension)"
    )
    mmr: Weight | None = Field(
        None,
        description="diversify by maximal marginal relevance with this lambda: 1 = plain relevance order, "
        "lower values trade relevance for results unlike those above them; absent = off (memql extension)",
    )
    score: Literal["evidence", "cosine"] | None = Field(
        None,
        description="what a result's score is: evidence (default: fused, shaped, on [0, 1]; only records "
        "with positive similarity match the dense side) or cosine (a dense-only search, alpha 1 or a "
        "vector intent: the raw cosine in [-1, 1], unshaped, every embedded record a match; memql "
        "extension)",
    )


class Search(StrictModel):
    intent: SearchIntent
    overrides: SearchOverrides | None = None
    limit: Limit | None = Field(None, description="most records to act on (writes get a default cap)")

    @model_validator(mode="after")
    def _cosine_is_dense_only(self) -> Search:
        o = self.overrides
        if o is None or o.score != "cosine":
            return self
        if self.intent.vector is None and o.alpha != 1:
            raise PydanticCustomError(
                "search.score",
                "overrides.score 'cosine' is the dense side's raw cosine: it needs overrides.alpha 1 "
                "(dense only) or a vector intent",
            )
        shaping = [name for name in ("recency", "heat") if getattr(o, name)]
        if shaping:
            raise PydanticCustomError(
                "search.score",
                "overrides.score 'cosine' is the unshaped cosine: overrides.{name} must be 0 or absent",
                {"name": shaping[0]},
            )
        return self


class Target(StrictModel):
    """Exactly one selector: ids | filter | search | all | from_step; a filter may narrow search/from_step."""

    ids: IdList | None = None
    filter: Filter | None = None
    search: Search | None = None
    all: Literal[True] | None = Field(None, description="every record in scope (needs confirmation)")
    from_step: Annotated[int, Field(ge=0, le=1_000_000)] | None = Field(
        None,
        description="the records affected by an earlier workflow step (0-based index; memql extension)",
    )  # the workflow's length is the real bound: 100 steps by hand, more in one memql builds (an a2p import)

    @model_validator(mode="after")
    def _selectors(self) -> Target:
        primary = [name for name in ("ids", "search", "all", "from_step") if getattr(self, name) is not None]
        if not primary and self.filter is None:
            raise PydanticCustomError(
                "target.missing_selector", "a target needs one of ids, filter, search, all, from_step"
            )
        if len(primary) > 1:
            raise PydanticCustomError(
                "target.conflict",
                "{names} cannot be combined; choose one selector",
                {"names": " and ".join(primary)},
            )
        if self.filter is not None and primary and primary[0] in ("ids", "all"):
            raise PydanticCustomError(
                "target.conflict",
                "{name} cannot be combined with a filter (a filter may only narrow search or from_step)",
                {"name": primary[0]},
            )
        if self.ids is not None and not self.ids:
            raise PydanticCustomError("field.empty", "ids must name at least one record")
        return self

    @property
    def selector(self) -> str:
        for name in ("ids", "search", "all", "from_step"):
            if getattr(self, name) is not None:
                return name
        return "filter"
