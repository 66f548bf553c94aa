"""Spellings of Lock, Expire and time ranges that the Text2Mem reference produces and memql's canonical
language spells otherwise, rewritten at parse time (each with a `compat.alias` warning; strict mode
refuses them). Called from the normalisation pass (lang/normalize.py).

Surveyed in MemTensor/text2mem (fetched 2026-11-26, commit f934c4b): the reference models
(text2mem/core/models.py: LockArgs, ExpireArgs, TimeRange, UpdateSet, DeleteArgs, Filters), its SQLite
adapter (how each Lock mode behaves), the JSON schema (text2mem/schema/text2mem-ir-v1.json), the bench
generator's stage-2 prompts in both languages (bench/generate/prompts/*stage2_ir_generation.md, which list
the spellings models produce) and the examples. What memql already read is in normalize.py; what this
module adds:

- Lock `mode: no_delete` (the reference refuses only Delete): read_only with every other write allowed;
- Lock `mode: custom` with a policy (the reference refuses what `allow` leaves out and what `deny`
  names): read_only with that allow list, or with every write but the denied ones;
- Lock `mode: disabled` (the reference lifts the lock): unlock — in normalize.py's mode table;
- Expire `reason` (the reference stores it as expire_reason): the IR's `_comment`, which the audit log
  keeps as the op's note;
- Expire `duration: "90 days"` and `time_delta: {"days": 90}` (listed by the prompts as what models
  write): `ttl: "P90D"`;
- time_range nested as `{"absolute": {start, end}}` or `{"relative": {relative, amount, unit}}` (also
  listed by the prompts): the flat form.
Update `set` fields, Delete `older_than`/`time_range`, filter `facet_*` and Expire `expire_at` were
already accepted; `auto_frequency` stays an RRULE (the reference fills it from remind.rrule).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from memql.lang.diagnostics import join
from memql.lang.ops import OPS, WRITE_OPS
from memql.lang.time import TimeParseError, parse_duration

Alias = Callable[[str, str], None]  # (JSON pointer, message): records a compat.alias warning

# writes a lock can let through (a lock never governs reads; a Lock on a locked record is decided by who
# holds it, not by its policy)
_LOCKABLE = tuple(op for op in OPS if op in WRITE_OPS and op != "Lock")

# a duration's unit, in the spellings of the prompts' examples (English and Chinese) -> ISO-8601 letter
_DURATION_UNITS = {
    "year": "Y",
    "years": "Y",
    "yr": "Y",
    "y": "Y",
    "年": "Y",
    "month": "M",
    "months": "M",
    "个月": "M",
    "月": "M",
    "week": "W",
    "weeks": "W",
    "w": "W",
    "周": "W",
    "星期": "W",
    "day": "D",
    "days": "D",
    "d": "D",
    "天": "D",
    "日": "D",
    "hour": "H",
    "hours": "H",
    "hr": "H",
    "h": "H",
    "小时": "H",
    "minute": "MIN",
    "minutes": "MIN",
    "min": "MIN",
    "mins": "MIN",
    "分钟": "MIN",
    "second": "S",
    "seconds": "S",
    "sec": "S",
    "s": "S",
    "秒": "S",
}
_AMOUNT_UNIT = re.compile(r"^\s*(\d+)\s*([^\d\s].*?)\s*$")


def lock_mode(args: dict, path: str, alias: Alias) -> None:
    """no_delete and custom (with a policy) as read_only locks whose policy lets the same ops through."""
    mode = args.get("mode")
    if not isinstance(mode, str) or mode.strip().lower() not in ("no_delete", "no-delete", "custom"):
        return
    policy = args.get("policy")
    if policy is None:
        policy = {}
    if not isinstance(policy, dict):
        return  # the typed parse reports the policy's type
    deny = policy.get("deny") or []
    if not isinstance(deny, list) or not all(isinstance(op, str) for op in deny):
        return
    custom = mode.strip().lower() == "custom"
    if custom and "allow" in policy:
        pass  # allow already says what passes; deny refuses on top of it, as in memql
    elif custom and not deny:
        return  # custom without a policy says nothing: left for the typed parse to refuse
    else:
        refused = {op.lower() for op in deny} | (set() if custom else {"delete"})
        policy["allow"] = [op for op in _LOCKABLE if op.lower() not in refused]
    args["policy"] = policy
    args["mode"] = "read_only"
    what = (
        "every write but Delete allowed"
        if not custom
        else "its policy's allow list"
        if deny == [] or ("allow" in policy and not deny)
        else "every write its policy does not deny allowed"
    )
    alias(join(path, "mode"), f"mode {mode!r} is read_only with {what}")


def expire_horizon(args: dict, path: str, alias: Alias) -> None:
    """Expire `duration: "90 days"` or `time_delta: {"days": 90}` as `ttl: "P90D"`."""
    for key, read in (("duration", _duration_text), ("time_delta", _duration_parts)):
        if key not in args or "ttl" in args or "until" in args:
            continue
        ttl = read(args[key])
        if ttl is not None:
            args.pop(key)
            args["ttl"] = ttl
            alias(join(path, key), f"{key} is ttl {ttl!r}")


def expire_reason(ir: dict, path: str, alias: Alias) -> None:
    """Expire `reason` becomes the IR's `_comment` (kept as the op's note in the audit log)."""
    args = ir.get("args")
    if not isinstance(args, dict) or not isinstance(args.get("reason"), str) or "_comment" in ir:
        return
    ir["_comment"] = args.pop("reason")
    alias(join(path, "args", "reason"), "an Expire's reason is the IR's _comment (kept in its history)")


def flat_time_range(tr: dict, path: str, alias: Alias) -> None:
    """{"absolute": {start, end}} and {"relative": {relative, amount, unit}} as the flat form."""
    for key, fields in (("absolute", ("start", "end")), ("relative", ("relative", "amount", "unit"))):
        inner = tr.get(key)
        if not isinstance(inner, dict) or any(f in tr for f in fields if f != key):
            continue
        inner = dict(inner)
        if key == "relative" and "relative" not in inner and "direction" in inner:
            inner["relative"] = inner.pop("direction")
        if set(inner) - set(fields):
            continue  # something else is nested there: left for the typed parse to report
        tr.pop(key)
        tr.update(inner)
        alias(join(path, key), f"time_range is flat: {key}'s fields go directly in time_range")


def _duration_text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        return str(parse_duration(value.strip()))
    except TimeParseError:
        pass
    match = _AMOUNT_UNIT.match(value)
    if match is None:
        return None
    return _duration_parts({match.group(2).lower(): int(match.group(1))})


def _duration_parts(value: Any) -> str | None:
    """{"days": 90, "hours": 2} -> "P90DT2H" (None when a key is not a unit or a value not a count)."""
    if not isinstance(value, dict) or not value:
        return None
    amounts: dict[str, int] = {}
    for unit, amount in value.items():
        letter = _DURATION_UNITS.get(str(unit).strip().lower())
        if letter is None or not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            return None
        amounts[letter] = amounts.get(letter, 0) + amount
    date = "".join(f"{amounts[u]}{u}" for u in ("Y", "M", "W", "D") if amounts.get(u))
    time = "".join(f"{amounts[u]}{u[0]}" for u in ("H", "MIN", "S") if amounts.get(u))
    text = "P" + date + (f"T{time}" if time else "")
    return text if text != "P" else None
