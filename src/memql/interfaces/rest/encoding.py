"""JSON answers of the REST server whose text may hold a lone UTF-16 surrogate.

JSON's escapes can spell a lone surrogate ("\\ud800"), which no UTF-8 can: Python decodes the escape into
a string that cannot be encoded again. The language refuses such strings (`json.encoding`) and request
models take none, but an answer may still echo one (a diagnostic quoting the input): it is written back as
the escape it came in as — valid JSON for the same string — rather than failing the request.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse as FrameworkJSONResponse


def json_bytes(text: str) -> bytes:
    """JSON text as UTF-8, a lone surrogate written as its JSON escape (it can only stand in a string)."""
    return text.encode("utf-8", "backslashreplace")


class JSONResponse(FrameworkJSONResponse):
    """The framework's JSON response (the same compact text), a lone surrogate written as its escape."""

    def render(self, content: Any) -> bytes:
        return json_bytes(json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")))
