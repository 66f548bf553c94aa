"""How memql writes values that are not JSON (audit log, snapshots, results, reports)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import compress, repeat
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from operator import is_
from typing import Any

from memql.lang.time.instants import format_instant


def json_default(value: Any) -> Any:
    """How memql writes non-JSON values: instants as canonical UTC strings; raw embeddings never."""
    if isinstance(value, datetime):
        return format_instant(value)
    if isinstance(value, bytes):
        return None  # embeddings are never copied into JSON (audit log, snapshots, results)
    raise TypeError(f"{type(value).__name__} is not JSON")


def compact_json(*, sort_keys: bool = False, allow_nan: bool = True) -> Callable[[Any], str]:
    """`json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=json_default,
    sort_keys=..., allow_nan=...).encode`, byte for byte, without building the C encoder again on every
    call (which cost as much as encoding a record's tags): one encoder, made once, for values without
    cycles (JSON values, which is all memql writes). Falls back to the json module where its C encoder is
    missing. `allow_nan=False` raises ValueError on a non-finite number (JSON has none)."""
    encoder = json.JSONEncoder(
        ensure_ascii=False,
        separators=(",", ":"),
        default=json_default,
        sort_keys=sort_keys,
        allow_nan=allow_nan,
    )
    if c_make_encoder is None:  # pragma: no cover - CPython has it
        return encoder.encode
    # the arguments JSONEncoder.iterencode passes it, with no cycle check (markers None)
    chunks = c_make_encoder(
        None, json_default, encode_basestring, None, ":", ",", sort_keys, False, allow_nan
    )

    def dumps(value: Any) -> str:
        if type(value) is str:
            return encode_basestring(value)
        return "".join(chunks(value, 0))

    return dumps


def instants_for_to_json(image: dict[str, Any]) -> dict[str, Any]:
    """An audit entry's dict, its top-level instants ready for pydantic-core's `to_json`: each as
    `format_instant` writes it (canonical UTC text). `to_json` writes a datetime whose tzinfo is UTC as
    that very text, so a dict whose every instant is held in UTC — a record's image, as nearly always —
    is returned as it is, found by C-level calls; only one holding another offset (or a naive datetime,
    which `format_instant` refuses) is rebuilt with the texts."""
    values = image.values()
    found = list(compress(values, map(is_, map(type, values), _DATETIMES)))
    if all(instant.tzinfo is UTC for instant in found):
        return image
    return {k: format_instant(v) if type(v) is datetime else v for k, v in image.items()}


_DATETIMES = repeat(datetime)  # endless: one iterator serves every call
