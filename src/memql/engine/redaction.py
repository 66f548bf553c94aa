"""What the audit log keeps of a record whose content is gone (a hard delete, the `anonymize` expiry
action): that it existed and who could read it, what happened to it, by whom and when — nothing of what
was said. Pure functions over the log's JSON; the store applies them (StoreSession.redact) to the events
of the record and to the IR of every operation that touched it.
"""

from __future__ import annotations

from typing import Any

from memql.ports.record import INSTANT_FIELDS, PERMISSION_FIELDS, Record, redacted

# the fields of a record's audit images that survive redaction: its governance (who could read and
# change it, its status, lock and lifecycle instants) and the row's structure. A link event's `dst` and
# `relation` stay too: ids and relation names, not content.
KEPT_FIELDS = frozenset(
    {
        "tenant",
        "schema_version",
        "status",
        "owner",
        "agent",
        "sensitivity",
        *PERMISSION_FIELDS,
        "created_at",
        "updated_at",
        "deleted_at",
        "expire_at",
        "on_expire",
        "lock_mode",
        "lock_reason",
        "lock_policy",
        "lock_until",
        "lock_by",
        "dst",
        "relation",
    }
)

# the read governance a gone record's delete event keeps: what decides who may still see its history
_READ_GOVERNANCE = (
    "status",
    "owner",
    "agent",
    "sensitivity",
    "read_perm_level",
    "read_whitelist",
    "read_blacklist",
)

# the parts of a canonical IR kept whole: its verb, stage and meta (who asked, trace id, dry run and
# confirmation flags); a target keeps how it named records by id, never a filter's or a search's values
_KEPT_IR_KEYS = frozenset({"stage", "op", "meta"})
_KEPT_TARGET_KEYS = frozenset({"ids", "all", "from_step"})


def blank_image(image: dict[str, Any]) -> dict[str, Any]:
    """An event's before or after image with every field but the governance ones blanked (`redacted`:
    text to a marker, lists and objects emptied, numbers to null; instants to null). The keys stay, so
    history still shows which fields an operation changed."""
    return {
        name: value if name in KEPT_FIELDS else (None if name in INSTANT_FIELDS else redacted(value))
        for name, value in image.items()
    }


def redact_ir(ir: dict[str, Any]) -> dict[str, Any]:
    """A canonical IR with its content removed: payload, text, tags, set values, facets, `_comment`,
    filter values and search text. Kept: op, stage, meta, target ids (or `all`, `from_step`), and the
    names of the arguments given with their numbers and flags (a weight, `soft`, a limit), which say
    nothing of what was said. Applying it twice changes nothing."""
    out: dict[str, Any] = {}
    for key, value in ir.items():
        if key in _KEPT_IR_KEYS:
            out[key] = value
        elif key == "target" and isinstance(value, dict):
            out[key] = {k: v if k in _KEPT_TARGET_KEYS else _blank_tree(v) for k, v in value.items()}
        elif key == "args" and isinstance(value, dict):
            # governance arguments (read level, sensitivity, whitelists, on_expire) stay as in the events
            out[key] = {k: v if k in KEPT_FIELDS else _blank_tree_value(v) for k, v in value.items()}
        else:  # `_comment` and anything else
            out[key] = redacted(value)
    return out


def _blank_tree(value: Any) -> Any:
    """An object keeps its keys with each value blanked one level down (a nested object or list is
    emptied whole: its keys — facet names, structured fields — are content too); flags and numbers stay."""
    if not isinstance(value, dict):
        return _blank_tree_value(value)
    return {k: _blank_tree_value(v) for k, v in value.items()}


def _blank_tree_value(value: Any) -> Any:
    if isinstance(value, bool | int | float) or value is None:
        return value
    return redacted(value)


def governance_of(record_id: str, image: dict[str, Any]) -> Record:
    """The record a gone record's last image (its delete event's `before`) describes, for the read rules:
    only its read governance, which redaction keeps."""
    kept = {name: image[name] for name in _READ_GOVERNANCE if image.get(name) is not None}
    return Record(id=record_id, **kept)
