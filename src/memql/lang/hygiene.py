"""Input hygiene: decode JSON safely and copy it into plain JSON values within size limits.

Malformed JSON, invalid UTF-8, duplicate keys, NaN/Infinity, absurd sizes and deep nesting become
diagnostics here, before any parsing; nothing in this module lets an exception escape for any input.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from memql.lang.diagnostics import Diagnostics, pointer

MAX_REPORTED = 20  # hygiene problems reported per input; the rest are summarised


@dataclass(frozen=True)
class Limits:
    """Bounds on what validation accepts. Generous for real use, tight enough to stop abuse."""

    max_bytes: int = 8 * 1024 * 1024
    max_depth: int = 32
    max_string: int = 1_000_000
    max_items: int = 10_000  # per list or object
    max_nodes: int = 200_000
    max_steps: int = 100
    write_limit: int = 100  # default cap for writes through filter/search without a limit


class _NonFinite:
    def __init__(self, literal: str) -> None:
        self.literal = literal


class _Missing:
    pass


MISSING = _Missing()


def decode(source: Any, diags: Diagnostics, limits: Limits) -> Any:
    """Return a private, plain-JSON copy of the input, or MISSING when it cannot be used at all."""
    duplicates: dict[int, list[str]] = {}
    if isinstance(source, bytes | bytearray | memoryview):
        raw = bytes(source)
        if len(raw) > limits.max_bytes:
            diags.error("", "json.too_large", f"input is {len(raw)} bytes; the limit is {limits.max_bytes}")
            return MISSING
        try:
            source = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            diags.error("", "json.encoding", f"input is not UTF-8 (byte {exc.start})")
            return MISSING
    if isinstance(source, str):
        if len(source) > limits.max_bytes:
            diags.error(
                "", "json.too_large", f"input is {len(source)} characters; the limit is {limits.max_bytes}"
            )
            return MISSING
        source = _loads(source.lstrip("\ufeff"), diags, duplicates)
        if source is MISSING:
            return MISSING
    return _copy(source, diags, limits, duplicates)


def _loads(text: str, diags: Diagnostics, duplicates: dict[int, list[str]]) -> Any:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        dups = []
        for key, value in items:
            if key in obj:
                dups.append(key)
            obj[key] = value
        if dups:
            duplicates[id(obj)] = dups
        return obj

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=_NonFinite)
    except json.JSONDecodeError as exc:
        diags.error(
            "", "json.malformed", f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        )
    except RecursionError:
        diags.error("", "json.too_deep", "input nests too deeply to parse")
    except ValueError as exc:  # e.g. an integer literal with thousands of digits
        diags.error("", "json.malformed", f"malformed JSON: {exc}")
    return MISSING


def _parts(where: Any) -> list[Any]:
    """The path parts of a chain of (parent, key) pairs."""
    parts: list[Any] = []
    while where:
        where, key = where
        parts.append(key)
    return parts[::-1]


def _plain_leaf(value: Any, max_string: int) -> bool:
    """A value that is copied as it is, with nothing to report: null, a boolean, an integer, or an ASCII
    string within the length limit (ASCII holds no lone surrogate)."""
    kind = type(value)
    return (
        kind is int
        or kind is bool
        or value is None
        or (kind is str and value.isascii() and len(value) <= max_string)
    )


def lone_surrogate(text: str) -> bool:
    """Whether `text` holds a UTF-16 surrogate on its own (JSON's escapes can spell one; no UTF-8 can)."""
    if text.isascii():
        return False  # (most text: ASCII holds none)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _copy(root: Any, diags: Diagnostics, limits: Limits, duplicates: dict[int, list[str]]) -> Any:
    """Iteratively copy `root` into dict/list/str/int/float/bool/None, reporting what does not fit."""
    problems = 0
    nodes = 0

    def report(where: Any, rule: str, message: str) -> None:
        nonlocal problems
        problems += 1
        if problems <= MAX_REPORTED:
            diags.error(pointer(_parts(where)), rule, message)

    holder: list[Any] = [None]
    # stack of (value, parent container, key in parent, where, depth); `where` is the path as a chain of
    # (where of the parent, key) pairs, () for the root: spelled out only for a problem
    stack: list[tuple[Any, Any, Any, Any, int]] = [(root, holder, 0, (), 0)]
    while stack:
        value, parent, key, where, depth = stack.pop()
        nodes += 1
        if nodes > limits.max_nodes:
            report((), "json.too_large", f"input has more than {limits.max_nodes} values")
            break
        kind = type(value)
        if kind is int or kind is bool or value is None:  # the commonest leaves, by exact type first
            parent[key] = value
            continue
        if kind is str and value.isascii() and len(value) <= limits.max_string:  # ASCII: no surrogate
            parent[key] = value
            continue
        if isinstance(value, dict | list | tuple):
            if depth >= limits.max_depth:
                report(where, "json.too_deep", f"nesting deeper than {limits.max_depth} levels")
                parent[key] = None
                continue
            if len(value) > limits.max_items:
                report(where, "json.too_long", f"{len(value)} items; the limit is {limits.max_items}")
                parent[key] = None
                continue
        if isinstance(value, dict):
            for dup in duplicates.get(id(value), ()):
                report((where, dup), "json.duplicate_key", f"key {dup!r} appears more than once")
            copy: dict[str, Any] = {}
            parent[key] = copy
            inline = nodes + len(value) <= limits.max_nodes  # else each is counted as it is popped
            for k, v in value.items():
                if not isinstance(k, str):
                    report((where, str(k)), "json.bad_key", "object keys must be strings")
                    continue
                if lone_surrogate(k):  # reported at the object: a path can't hold it
                    report(where, "json.encoding", f"the key {k!r} holds a lone surrogate, not valid Unicode")
                    continue
                if inline and _plain_leaf(v, limits.max_string):  # nothing to check: copied at once
                    copy[k] = v
                    nodes += 1
                    continue
                copy[k] = None  # placed now, filled when popped: the copy keeps the input's key order
                stack.append((v, copy, k, (where, k), depth + 1))
        elif isinstance(value, list | tuple):
            items: list[Any] = [None] * len(value)
            parent[key] = items
            inline = nodes + len(value) <= limits.max_nodes
            for i, v in enumerate(value):
                if inline and _plain_leaf(v, limits.max_string):
                    items[i] = v
                    nodes += 1
                    continue
                stack.append((v, items, i, (where, i), depth + 1))
        elif isinstance(value, str):
            if len(value) > limits.max_string:
                report(
                    where,
                    "json.too_long",
                    f"string of {len(value)} characters; the limit is {limits.max_string}",
                )
                parent[key] = ""
                continue
            if lone_surrogate(value):
                report(where, "json.encoding", "string holds a lone surrogate, which is not valid Unicode")
                parent[key] = ""
                continue
            parent[key] = value
        elif isinstance(value, float):
            if not math.isfinite(value):
                report(where, "json.non_finite", "NaN and Infinity are not JSON numbers")
                parent[key] = None
                continue
            parent[key] = value
        elif value is None or isinstance(value, bool | int):
            parent[key] = value
        elif isinstance(value, _NonFinite):
            report(where, "json.non_finite", f"{value.literal} is not a JSON number")
            parent[key] = None
        else:
            report(where, "json.type", f"a {type(value).__name__} is not a JSON value")
            parent[key] = None
    if problems > MAX_REPORTED:
        diags.error("", "json.too_large", f"{problems - MAX_REPORTED} more input problems not listed")
    return MISSING if problems else holder[0]
