"""The exceptions memql raises on purpose, under one base: `except memql.MemqlError` catches every one
of them and nothing else (a defect stays a defect).

`Refusal` is the one way memql says no — a governance rule, a lock, consent, a missing record, a state
that does not allow the op — wherever it is said (a verb, housekeeping, the REST server): a stable rule
id, a message and the JSON pointer of what is refused. The executor turns it into a diagnostic and rolls
the transaction back; the shells show that diagnostic. This module imports nothing from memql.
"""

from __future__ import annotations


class MemqlError(Exception):
    """Base of every exception memql defines."""


class Refusal(MemqlError):
    """memql refuses: `rule` (a stable id, e.g. "governance.locked"), `message`, and `path`, the JSON
    pointer of the refused part of the program ("" for the whole). `also` holds further refusals said
    at once (a shell reporting every diagnostic of a refused program); the first one decides."""

    def __init__(self, rule: str, message: str, path: str = "", *, also: tuple[Refusal, ...] = ()) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.path = path
        self.also = also

    def __repr__(self) -> str:
        more = f", also={self.also!r}" if self.also else ""
        return f"Refusal({self.rule!r}, {self.message!r}, {self.path!r}{more})"
