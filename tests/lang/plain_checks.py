"""How the plain-Encode validator's results are compared with validate()'s (tests/lang/test_plain.py,
test_plain_programs.py): equal as values and as objects."""

from __future__ import annotations

import json
import math
from typing import Any

from pydantic import BaseModel

from memql.lang.validate import ValidationResult


def same(a: Any, b: Any) -> bool:
    """Equal as values and as objects: model type, every field in order, fields set, extras; a float's
    sign and type (0.0 and -0.0, 1 and 1.0 are told apart); dict key order."""
    if isinstance(a, BaseModel):
        return (
            type(a) is type(b)
            and list(a.__dict__) == list(b.__dict__)
            and all(same(a.__dict__[k], b.__dict__[k]) for k in a.__dict__)
            and a.__pydantic_fields_set__ == b.__pydantic_fields_set__
            and same(a.__pydantic_extra__, b.__pydantic_extra__)
            and a.__pydantic_private__ == b.__pydantic_private__
        )
    if isinstance(a, dict):
        return type(b) is dict and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return type(b) is list and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return type(b) is float and (a == b or (math.isnan(a) and math.isnan(b))) and repr(a) == repr(b)
    return type(a) is type(b) and a == b


def assert_same_result(fast: ValidationResult, full: ValidationResult) -> None:
    """The same verdict and diagnostics, canonical form (key order too) and model instances."""
    assert fast.valid == full.valid
    assert fast.kind == full.kind
    assert [d.model_dump() for d in fast.diagnostics] == [d.model_dump() for d in full.diagnostics]
    assert same(fast.canonical, full.canonical)
    assert json.dumps(fast.canonical) == json.dumps(full.canonical)
    assert same(fast.program, full.program)
