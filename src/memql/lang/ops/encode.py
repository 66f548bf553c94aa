"""Encode (stage ENC): add one record from text, a URL or a structured object."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, ConfigDict, Field, JsonValue, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.fields import (
    Category,
    Confidence,
    Facets,
    FrequencyText,
    IdList,
    Instant,
    MemoryType,
    Name,
    ReadPerm,
    Sensitivity,
    StrictModel,
    Tags,
    Weight,
    WritePerm,
)
from memql.lang.ops.base import OpBase

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
    structured: dict[str, JsonValue] | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Payload:
        given = [k for k in ("text", "url", "structured") if getattr(self, k) is not None]
        if len(given) != 1:
            raise PydanticCustomError(
                "encode.payload",
                "payload needs exactly one of text, url, structured (got {got})",
                {"got": ", ".join(given) or "none"},
            )
        if self.text is not None and not self.text.strip():
            raise PydanticCustomError("field.empty", "payload.text is blank")
        return self


class EncodeArgs(StrictModel):
    payload: Payload
    type: Name | None = Field(None, description="free-form kind: note, task, event, reference, ...")
    tags: Tags | None = None
    facets: Facets | None = None
    time: Instant | None = Field(None, description="when the remembered thing happened")
    subject: Name | None = None
    location: Name | None = None
    topic: Name | None = None
    skip_embedding: bool | None = Field(None, description="store now, embed later")
    source: Annotated[str, Field(max_length=2048)] | None = None
    auto_frequency: FrequencyText | None = None
    expire_at: Instant | None = None
    next_auto_update_at: Instant | None = None
    read_perm_level: ReadPerm | None = None
    write_perm_level: WritePerm | None = None
    read_whitelist: IdList | None = None
    read_blacklist: IdList | None = None
    write_whitelist: IdList | None = None
    write_blacklist: IdList | None = None
    # memql extensions
    weight: Weight | None = Field(None, description="initial priority in [0, 1] (memql extension)")
    memory_type: MemoryType | None = None
    category: Category | None = None
    sensitivity: Sensitivity | None = None
    confidence: Confidence | None = None
    dedupe: bool | None = Field(None, description="false: store even if identical content exists")

    @model_validator(mode="before")
    @classmethod
    def _payload_present(cls, data: Any) -> Any:
        if isinstance(data, dict) and "payload" not in data:
            raise PydanticCustomError(
                "encode.payload", "Encode needs args.payload with one of text, url, structured"
            )
        return data


class EncodeIR(OpBase):
    """Add one record. Identical content in the same tenant returns the existing id unless dedupe is false."""

    op: Literal["Encode"]
    stage: Literal["ENC"] = "ENC"
    args: EncodeArgs

    needs_target: ClassVar[bool] = False
