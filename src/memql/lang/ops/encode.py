"""Encode (stage ENC): add one record from text, a URL or a structured object."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    JsonValue,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from memql.lang.facts import is_fact, parse_fact
from memql.lang.fields import DurationText, StrictModel
from memql.lang.keyed import IndexArg, Key, Namespace
from memql.lang.ops.base import OpBase, verb
from memql.lang.ops.record import RecordFields

MAX_TEXT = 1_000_000


def _absolute_url(value: str) -> str:
    parts = urlsplit(value.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise PydanticCustomError("url.invalid", "expected an absolute http(s) URL")
    return value.strip()


Url = Annotated[str, Field(max_length=8192), AfterValidator(_absolute_url)]


class Payload(StrictModel):
    """The content: exactly one of text, url, structured. Other keys are kept as payload metadata."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue] = Field(init=False)

    text: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)] | None = None
    url: Url | None = None
    structured: dict[str, JsonValue] | None = Field(
        None,
        description="a JSON object; with a subject and an attribute it is a typed fact {subject, attribute, "
        "value, valid_from?, source?} (memql extension)",
    )
    document: dict[str, JsonValue] | None = Field(
        None,
        description="a JSON object kept as it is, never read as a typed fact: a document store's item "
        "(memql extension, language 1.x, added with issue 18)",
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> Payload:
        given = [k for k in ("text", "url", "structured", "document") if getattr(self, k) is not None]
        if len(given) != 1:
            raise PydanticCustomError(
                "encode.payload",
                "payload needs exactly one of text, url, structured, document (got {got})",
                {"got": ", ".join(given) or "none"},
            )
        if self.text is not None and not self.text.strip():
            raise PydanticCustomError("field.empty", "payload.text is blank")
        if is_fact(self.structured):
            canonical = parse_fact(self.structured).canonical()  # type: ignore[arg-type]
            if list(canonical.items()) != list(self.structured.items()):  # type: ignore[union-attr]
                return self.model_copy(update={"structured": canonical})
        return self

    @property
    def fact(self):
        """The typed fact this payload states, or None (see memql.lang.facts)."""
        return parse_fact(self.structured) if is_fact(self.structured) else None  # type: ignore[arg-type]


class DerivedFrom(StrictModel):
    """The records a new record was derived from (links `derived_from`, new -> each): exactly one of
    `from_step` (what an earlier step of the same workflow affected) or `ids` (existing records)."""

    from_step: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    ids: (
        Annotated[
            list[Annotated[str, Field(min_length=1, max_length=64)]], Field(min_length=1, max_length=100)
        ]
        | None
    ) = None

    @model_validator(mode="after")
    def _exactly_one(self) -> DerivedFrom:
        if (self.from_step is None) == (self.ids is None):
            raise PydanticCustomError(
                "encode.derived_from", "derived_from needs exactly one of from_step, ids"
            )
        return self


class EncodeContent(StrictModel):
    payload: Payload


# RecordFields before EncodeContent: pydantic collects later bases first, so payload leads the canonical form
class EncodeArgs(RecordFields, EncodeContent):
    skip_embedding: bool | None = Field(None, description="store now, embed later")
    source: Annotated[str, Field(max_length=2048)] | None = None
    dedupe: bool | None = Field(None, description="false: store even if identical content exists")
    derived_from: DerivedFrom | None = Field(
        None,
        description="link the new record to the records it was derived from (relation derived_from; "
        "memql extension, language 1.x): {from_step: N} or {ids: [...]}",
    )
    proposal: bool | None = Field(
        None,
        description="store as a pending proposal that a user approves, edits or rejects "
        "(memql extension; an agent below read_write consent always proposes)",
    )
    interpret: bool | None = Field(
        None,
        description="read payload.text with the configured extractor and fill what the caller left out: "
        "facets entities, times, tasks, decisions; time; memory_type; category; sensitivity — each with "
        "the evidence span it came from (memql extension, language 1.x, added with issue 17)",
    )

    # key-addressed records (memql extension, language 1.x, added with issue 18)
    namespace: Namespace | None = Field(None, description="the record's namespace (labels); with key")
    key: Key | None = Field(
        None,
        description="with namespace: names one live record of the tenant; an Encode of an existing key "
        "updates that record (audited, with history) instead of adding one",
    )
    ttl: DurationText | None = Field(
        None, description="expire this long from now; a Retrieve with refresh_ttl renews it"
    )
    index: IndexArg | None = Field(
        None,
        description="structured payloads: false (not indexed, not embedded) or the paths whose text the "
        "indexes cover ($ = all of it; a.b, a[0], a[*])",
    )

    @model_validator(mode="after")
    def _keyed(self) -> EncodeArgs:
        if (self.namespace is None) != (self.key is None):
            raise PydanticCustomError("encode.key", "namespace and key are given together")
        if self.key is not None and (self.proposal or self.payload.fact is not None):
            raise PydanticCustomError(
                "encode.key",
                "a keyed record is not a proposal nor a typed fact (give its value as payload.document)",
            )
        if self.index is not None and self.payload.structured is None and self.payload.document is None:
            raise PydanticCustomError(
                "encode.index", "index selects paths of a structured or document payload"
            )
        if self.ttl is not None and self.expire_at is not None:
            raise PydanticCustomError("expire.horizon", "give ttl or expire_at, not both")
        return self

    @field_validator("interpret")
    @classmethod
    def _interprets_text(cls, value: bool | None, info: ValidationInfo) -> bool | None:
        payload = info.data.get("payload")
        if value and payload is not None and payload.text is None:  # url, structured or document
            raise PydanticCustomError(
                "encode.interpret", "interpret reads payload.text: a url or structured payload has none"
            )
        return value

    @model_validator(mode="before")
    @classmethod
    def _payload_present(cls, data: Any) -> Any:
        if isinstance(data, dict) and "payload" not in data:
            raise PydanticCustomError(
                "encode.payload", "Encode needs args.payload with one of text, url, structured"
            )
        return data


@verb
class EncodeIR(OpBase):
    """Add one record. The same memory again (content and every field a reader filters on) returns the
    existing id unless dedupe is false."""

    op: Literal["Encode"]
    stage: Literal["ENC"] = "ENC"
    args: EncodeArgs

    needs_target: ClassVar[bool] = False
