"""The writable fields of a record, shared by Encode args (initial values) and Update set (new values)."""

from __future__ import annotations

from pydantic import Field

from memql.lang.categories import Category
from memql.lang.fields import (
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


class RecordFields(StrictModel):
    """Fields an op may write. In Update, facets merge key by key and tags replace the record's tags."""

    type: Name | None = Field(None, description="free-form kind: note, task, event, reference, ...")
    tags: Tags | None = None
    facets: Facets | None = None
    time: Instant | None = Field(None, description="when the remembered thing happened")
    subject: Name | None = None
    location: Name | None = None
    topic: Name | None = None
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
    weight: Weight | None = Field(None, description="priority in [0, 1] (memql extension on Encode)")
    memory_type: MemoryType | None = None
    category: Category | None = None
    sensitivity: Sensitivity | None = None
    confidence: Confidence | None = None
