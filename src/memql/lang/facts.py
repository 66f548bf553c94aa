"""Typed facts (SGAM) in the language: an Encode whose `payload.structured` names a `subject` and an
`attribute` is a fact

    {"subject": "passport", "attribute": "deadline", "value": "2026-06-30",
     "valid_from": "2026-06-10T00:00:00Z", "source": "e2"}

`value` is any JSON value but null; `valid_from` (when the value became true in the world) and `source`
(provenance: an episode id, a URL, ...) are optional. No other key is allowed, so a misspelt
`valid_form` is an error rather than a silent part of the value. The canonical form trims the subject
and attribute, writes `valid_from` as a UTC instant and orders the keys as above.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic_core import PydanticCustomError

from memql.lang.time import TimeParseError, format_instant, parse_instant

FACT_KEYS = ("subject", "attribute", "value", "valid_from", "source")
MAX_NAME = 512  # subject and attribute, as every other name in the language
MAX_SOURCE = 2048


@dataclass(frozen=True)
class FactPayload:
    subject: str
    attribute: str
    value: Any
    valid_from: datetime | None = None
    source: str | None = None

    def canonical(self) -> dict[str, Any]:
        out: dict[str, Any] = {"subject": self.subject, "attribute": self.attribute, "value": self.value}
        if self.valid_from is not None:
            out["valid_from"] = format_instant(self.valid_from)
        if self.source is not None:
            out["source"] = self.source
        return out


def is_fact(structured: Any) -> bool:
    """Whether a structured payload is a typed fact (it names both a subject and an attribute)."""
    return isinstance(structured, dict) and "subject" in structured and "attribute" in structured


def _error(rule: str, key: str, message: str) -> PydanticCustomError:
    # `field` extends the error's location: the diagnostic points at /…/payload/structured/<key>
    return PydanticCustomError(rule, "{message}", {"field": f"structured/{key}", "message": message})


def _name(structured: dict[str, Any], key: str, limit: int) -> str:
    value = structured[key]
    if not isinstance(value, str):
        raise _error("field.type", key, f"a fact's {key} is a string")
    value = value.strip()
    if not value:
        raise _error("field.empty", key, f"a fact's {key} must not be blank")
    if len(value) > limit:
        raise _error("field.size", key, f"a fact's {key} has at most {limit} characters")
    if any(ord(c) < 32 for c in value):
        raise _error("field.invalid", key, "control characters are not allowed here")
    return value


def parse_fact(structured: dict[str, Any]) -> FactPayload:
    """The fact a structured payload states; raises PydanticCustomError (a memql rule) when malformed."""
    for key in structured:
        if key not in FACT_KEYS:
            hint = difflib.get_close_matches(key, FACT_KEYS, n=1, cutoff=0.6)
            raise _error(
                "field.unknown",
                key,
                f"unknown fact field {key!r}"
                + (f"; did you mean {hint[0]!r}?" if hint else "")
                + " (a fact has subject, attribute, value, valid_from, source)",
            )
    subject = _name(structured, "subject", MAX_NAME)
    attribute = _name(structured, "attribute", MAX_NAME)
    if structured.get("value") is None:
        raise _error("field.required", "value", "a fact needs a value (any JSON value but null)")
    valid_from = None
    if structured.get("valid_from") is not None:
        raw = structured["valid_from"]
        if not isinstance(raw, str):
            raise _error("field.type", "valid_from", "valid_from is an ISO-8601 date-time string")
        try:
            valid_from, _assumed_utc = parse_instant(raw)
        except TimeParseError as exc:
            raise _error("time.invalid", "valid_from", str(exc)) from None
    source = None
    if structured.get("source") is not None:
        source = _name(structured, "source", MAX_SOURCE)
    return FactPayload(subject, attribute, structured["value"], valid_from, source)
