"""The memory operation language: typed ops, validation, normalisation. Pure: no I/O, no clock reads."""

from memql.lang.diagnostics import RULES, Diagnostic
from memql.lang.hygiene import Limits
from memql.lang.ir import IR, Workflow
from memql.lang.ops import OP_MODELS, OPS, STAGE_OF, SYSTEM_OPS, Meta, OpBase
from memql.lang.schema import json_schema
from memql.lang.validate import ValidationResult, validate

__all__ = [
    "IR",
    "OPS",
    "OP_MODELS",
    "RULES",
    "STAGE_OF",
    "SYSTEM_OPS",
    "Diagnostic",
    "Limits",
    "Meta",
    "OpBase",
    "ValidationResult",
    "Workflow",
    "json_schema",
    "validate",
]
