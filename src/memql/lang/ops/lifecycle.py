"""Delete, Lock and Expire (stage STO): a record's lifecycle and protection."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from memql.lang.fields import DurationText, IdList, Instant, StrictModel, TimeRange
from memql.lang.ops.base import REGISTRY, OpBase, OpName, stage_of, verb
from memql.lang.ops.weight import Reason


class DeleteArgs(StrictModel):
    older_than: DurationText | None = Field(None, description="only records older than this")
    time_range: TimeRange | None = Field(None, description="only records whose time is in this window")
    soft: bool = Field(True, description="soft: recoverable within the recovery window; hard: gone")
    reason: Reason | None = None

    @model_validator(mode="after")
    def _one_time_condition(self) -> DeleteArgs:
        if self.older_than is not None and self.time_range is not None:
            raise PydanticCustomError("delete.time_conflict", "give older_than or time_range, not both")
        return self


@verb
class DeleteIR(OpBase):
    op: Literal["Delete"]
    stage: Literal["STO"] = "STO"
    args: DeleteArgs = Field(default_factory=DeleteArgs)


class LockPolicy(StrictModel):
    allow: list[OpName] | None = Field(None, description="ops still permitted on the locked records")
    deny: list[OpName] | None = Field(
        None, description="writes refused on the locked records (a lock never refuses a read)"
    )
    reviewers: IdList | None = Field(
        None, description="actors (besides the locker and admins) who may change it"
    )
    expires: Instant | None = Field(None, description="the lock lifts itself at this instant")

    @model_validator(mode="after")
    def _disjoint(self) -> LockPolicy:
        both = sorted(set(self.allow or ()) & set(self.deny or ()))
        if both:
            raise PydanticCustomError(
                "lock.policy_conflict", "{ops} both allowed and denied", {"ops": ", ".join(both)}
            )
        # a lock governs writes; reads are governed by read permissions. A deny list that names a read
        # would otherwise be accepted and mean nothing: it is refused, with where reads are governed
        reads = [op for op in self.deny or () if op in REGISTRY and stage_of(REGISTRY[op]) == "RET"]
        if reads:
            raise PydanticCustomError(
                "lock.read_deny",
                "a lock refuses writes, never reads: {ops} cannot be denied by it; to restrict who may read "
                "these records, Update their read_perm_level, read_whitelist or read_blacklist",
                {"ops": ", ".join(reads), "field": "deny"},
            )
        return self


class LockArgs(StrictModel):
    mode: Literal["read_only", "append_only", "unlock"] = Field(
        "read_only", description="read_only | append_only, or unlock to lift an existing lock"
    )
    reason: Reason | None = None
    policy: LockPolicy | None = None


@verb
class LockIR(OpBase):
    op: Literal["Lock"]
    stage: Literal["STO"] = "STO"
    args: LockArgs = Field(default_factory=LockArgs)


OnExpire = Literal["soft_delete", "hard_delete", "demote", "archive", "anonymize", "none"]


class ExpireArgs(StrictModel):
    ttl: DurationText | None = Field(None, description="expire this long from now")
    until: Instant | None = Field(None, description="expire at this instant (alias: expire_at)")
    on_expire: OnExpire = Field(description="what the sweeper does once the record has expired")

    @model_validator(mode="before")
    @classmethod
    def _explicit_action(cls, data: Any) -> Any:
        if isinstance(data, dict) and "on_expire" not in data:
            raise PydanticCustomError(
                "expire.on_expire",
                "Expire needs an explicit on_expire: "
                "soft_delete, hard_delete, demote, archive, anonymize or none",
            )
        return data

    @model_validator(mode="after")
    def _finite_horizon(self) -> ExpireArgs:
        if (self.ttl is None) == (self.until is None):
            raise PydanticCustomError("expire.horizon", "Expire needs exactly one of ttl or until")
        if self.ttl is not None and self.ttl == "PT0S":
            raise PydanticCustomError("expire.horizon", "a ttl must be longer than zero")
        return self


@verb
class ExpireIR(OpBase):
    op: Literal["Expire"]
    stage: Literal["STO"] = "STO"
    args: ExpireArgs
