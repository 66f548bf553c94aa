"""What every IR shares: the verb registry (each verb model registers itself with @verb), `meta`, and the
canonical JSON form."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, GetCoreSchemaHandler, GetJsonSchemaHandler, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from memql.lang.fields import Instant, Name, StrictModel
from memql.lang.target import Target

Stage = Literal["ENC", "STO", "RET"]

# The Text2Mem paper's twelve verbs in its order: the order the tables below list them in (the schema's
# oneOf, messages). A verb memql adds needs no entry here: it is listed after them, in definition order.
TEXT2MEM_ORDER = (
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
)

# every verb model, by op name: filled by @verb as the family modules (memql.lang.ops.*) define them
REGISTRY: dict[str, type[OpBase]] = {}


def verb(model: type[OpBase]) -> type[OpBase]:
    """Register a verb model. Its `op` and `stage` fields (each a one-value Literal) name the verb and its
    stage; `system` marks a housekeeping verb memql adds beside the twelve. Every table of verbs (OPS,
    STAGE_OF, OP_MODELS, the IR union, the engine's runners, the consent rules) derives from this one."""
    op = op_of(model)
    stage_of(model)  # checked: a verb runs in one stage
    if op in REGISTRY:
        raise ValueError(f"verb {op} is defined twice ({REGISTRY[op].__name__}, {model.__name__})")
    REGISTRY[op] = model
    return model


def op_of(model: type[OpBase]) -> str:
    """The verb a model stands for: the one value of its `op` Literal."""
    return _only_value(model, "op")


def stage_of(model: type[OpBase]) -> str:
    """The stage a verb runs in: the one value of its `stage` Literal."""
    return _only_value(model, "stage")


def _only_value(model: type[OpBase], name: str) -> str:
    values = getattr(model.model_fields[name].annotation, "__args__", ())
    if len(values) != 1 or not isinstance(values[0], str):
        raise TypeError(f"{model.__name__}.{name} must be a Literal of one name")
    return values[0]


def registered(*, system: bool) -> list[type[OpBase]]:
    """The registered models of the twelve-verb language (system=False) or the system verbs, the twelve in
    TEXT2MEM_ORDER, then every other verb in definition order."""
    models = [m for m in REGISTRY.values() if m.system == system]
    order = {op: i for i, op in enumerate(TEXT2MEM_ORDER)}
    return sorted(models, key=lambda m: order.get(op_of(m), len(order)))


class _OpNameType:
    """A verb name of the language (not a system verb), checked against the registry when a value is
    validated and listed from it when the schema is generated: both happen after every verb is defined,
    so a model can name "any verb" before the last verb exists. Validates and reports like a Literal."""

    @staticmethod
    def _names() -> list[str]:
        return [op_of(m) for m in registered(system=False)]

    @classmethod
    def _check(cls, value: Any) -> str:
        names = cls._names()
        if isinstance(value, str) and value in names:
            return value
        expected = ", ".join(repr(n) for n in names[:-1]) + f" or {names[-1]!r}"
        raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected})

    @classmethod
    def __get_pydantic_core_schema__(cls, _source: Any, _handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_plain_validator_function(cls._check)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, _schema: CoreSchema, _handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"enum": cls._names(), "type": "string"}


OpName = Annotated[str, _OpNameType]

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
    """Fields common to every verb. Subclasses fix `op`, `stage`, `target` and `args`."""

    op: str
    stage: str
    target: Target | None = None
    args: Any = None
    meta: Meta | None = None
    comment: ShortText | None = Field(None, alias="_comment", description="human note; ignored by execution")

    needs_target: ClassVar[bool] = True
    system: ClassVar[bool] = False  # a housekeeping verb memql adds (SYSTEM_OPS), not one of the twelve

    @property
    def writes(self) -> bool:
        """Whether running it may change memory: an ENC or STO verb (a system verb may say per call)."""
        return self.stage != "RET"

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
