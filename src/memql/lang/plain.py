"""A second validator for plain Encodes: the bulk write's (`encode_many`) inputs checked by plain Python.

`validate()` copies the input (hygiene), normalises its spellings, parses it by the pydantic models and
writes the canonical form: per Encode that costs several times what storing it costs. Most bulk inputs
are plain — a text with tags, a type, facets and a time, spelled as memql writes them — and for those every
step of that path is the identity or a check. `validate_encodes` checks them here, field by field, by the
same rules (the models' constraints, `trimmed_nonempty`, `parse_instant`, hygiene's limits) and builds
the very model instances and canonical form the full path builds. It accepts only the shape listed in
`PLAIN_ARGS`; anything else — an unknown or padded key, a type it does not expect, a naive or
natural-language time, a value any rule would refuse or rewrite, anything it is unsure of — is left to
`validate()`: a list holding such an item goes through `validate()`'s path, which takes the plain items'
models and canonical forms from here (`validate_with`) and judges the rest. So it never rejects: it
accepts, with the full path's result, or declines. tests/lang/test_plain.py pins both on plain and
near-plain input.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from memql.lang.fields import Facets
from memql.lang.hygiene import Limits
from memql.lang.ir import Workflow
from memql.lang.ops import EncodeArgs, EncodeIR
from memql.lang.ops.encode import MAX_TEXT, Payload
from memql.lang.time import TimeParseError, format_instant, parse_instant
from memql.lang.validate import ValidationResult, validate, validate_with

# the Encode args this validator checks itself, each by the rule of its model field (below)
NAMES = frozenset({"type", "subject", "location", "topic"})  # fields.Name: <= 512, stripped, not blank
INSTANTS = frozenset({"time", "expire_at"})  # fields.Instant, with an offset (no warning, no rewrite)
UNIT_FLOATS = frozenset({"weight", "confidence"})  # a finite number in [0, 1]
FLAGS = frozenset({"skip_embedding", "dedupe", "proposal"})  # a boolean
CHOICES = {
    "memory_type": frozenset({"episodic", "semantic", "procedural"}),
    "sensitivity": frozenset({"standard", "restricted", "sensitive"}),
}
PLAIN_ARGS = frozenset({"payload", "tags", "facets", "source"}) | NAMES | INSTANTS | UNIT_FLOATS | FLAGS
PLAIN_ARGS |= frozenset(CHOICES)
_TYPED_FACETS = frozenset(Facets.model_fields)  # subject, time, location, topic
_ARG_INDEX = {name: i for i, name in enumerate(EncodeArgs.model_fields)}  # the canonical form's order
_FACET_ORDER = tuple(Facets.model_fields)
# format_instant's text of a whole second: such a text that parses is its own canonical form
_CANONICAL = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_CONTROL = re.compile("[\x00-\x1f]")  # what fields.Tag refuses: a character below U+0020
_SHORTEST = 16  # hygiene's string bound at least this: op, stage, memory_type, sensitivity fit within
_MAX_NAME, _MAX_TAG, _MAX_TAGS, _MAX_SOURCE, _MAX_FACET_KEY = 512, 256, 1000, 2048, 128


def validate_encodes(
    steps: list[Any], *, now: datetime | None = None, strict: bool = False, limits: Limits | None = None
) -> ValidationResult:
    """`validate({"workflow": steps}, ...)`'s result: built here when every step is a plain Encode; by
    `validate()`'s path with the plain steps' models taken from here when only some are; by `validate()`
    alone when none is."""
    limits = limits or Limits()
    built = _plain_steps(steps, limits)
    whole = _whole(built, limits)
    if whole is not None:
        return _plain_result(*whole)
    prebuilt = [b[:2] if b is not None else None for b in built or ()]
    if not any(prebuilt):
        return validate({"workflow": steps}, now=now, strict=strict, limits=limits)
    # hygiene over the whole document, the other steps and the workflow's checks are validate()'s
    return validate_with({"workflow": steps}, now=now, strict=strict, limits=limits, prebuilt=prebuilt)


def validate_program(
    source: Any, *, now: datetime | None = None, strict: bool = False, limits: Limits | None = None
) -> ValidationResult:
    """`validate(source, ...)`'s result, built here when `source` is decoded JSON holding plain Encodes:
    one Encode IR, a list of them, or {"workflow": [...]} alone, which is `validate_encodes`'s document
    (a partly plain one too). What `Memory.encode` and a program of Encodes built in Python hand the
    engine. Anything else -- JSON text, another op, a named workflow -- is validate()'s, unchanged."""
    if now is not None and now.tzinfo is None:
        raise ValueError("now must be timezone-aware")  # as validate() says: a caller's bug, not bad input
    limits = limits or Limits()
    if type(source) is dict and source.keys() == {"workflow"} and type(source["workflow"]) is list:
        return validate_encodes(source["workflow"], now=now, strict=strict, limits=limits)  # its document
    if type(source) is list:  # the same steps, but validate() names them /i rather than /workflow/i
        whole = plain_workflow(source, limits)
        if whole is not None:
            return _plain_result(*whole)
    elif type(source) is dict:  # one IR: within a workflow's bounds, so within its own (less nested)
        one = plain_workflow([source], limits)
        if one is not None:
            (ir,), (form,) = one
            return ValidationResult(valid=True, kind="ir", diagnostics=[], canonical=form, program=ir)
    return validate(source, now=now, strict=strict, limits=limits)


def _plain_result(irs: list[EncodeIR], canonical: list[dict]) -> ValidationResult:
    """What validate() gives for a workflow of these plain Encodes."""
    program = Workflow.model_construct(workflow=irs, name=None, meta=None)  # as validate() assembles it
    return ValidationResult(
        valid=True, kind="workflow", diagnostics=[], canonical={"workflow": canonical}, program=program
    )


_Built = tuple[EncodeIR, dict[str, Any], int]


def plain_workflow(steps: list[Any], limits: Limits) -> tuple[list[EncodeIR], list[dict]] | None:
    """The steps as EncodeIRs with their canonical forms when every one is plain and the document
    {"workflow": steps} is within `limits`; else None."""
    return _whole(_plain_steps(steps, limits), limits)


def _whole(built: list[_Built | None] | None, limits: Limits) -> tuple[list[EncodeIR], list[dict]] | None:
    """The models and canonical forms of the steps when every one is plain and the document holds no
    more values than `limits` allow (the document and its list, then each step's)."""
    if built is None:
        return None
    irs: list[EncodeIR] = []
    canonical: list[dict] = []
    nodes = 2
    for step in built:
        if step is None:
            return None
        irs.append(step[0])
        canonical.append(step[1])
        nodes += step[2]
    return (irs, canonical) if nodes <= limits.max_nodes else None


def _plain_steps(steps: list[Any], limits: Limits) -> list[_Built | None] | None:
    """plain_encode of each step (None for one that is not plain); None when the list is beyond the
    bounds hygiene puts on the whole document {"workflow": steps}, which every plain step meets."""
    if type(steps) is not list or not 0 < len(steps) <= min(limits.max_steps, limits.max_items):
        return None
    if limits.max_depth <= 4 or limits.max_string < _SHORTEST:  # a plain step nests 5 deep
        return None
    return [plain_encode(raw, limits) for raw in steps]


def plain_encode(raw: Any, limits: Limits) -> tuple[EncodeIR, dict[str, Any], int] | None:
    """(the EncodeIR, its canonical form, how many JSON values it holds) of a plain Encode, else None."""
    if type(raw) is not dict or raw.get("op") != "Encode" or type(raw.get("args")) is not dict:
        return None
    if len(raw) != 2 + ("stage" in raw) or raw.get("stage", "ENC") != "ENC" or type(raw["op"]) is not str:
        return None  # only op, args and the right stage: a target, meta or comment is the full path's
    if max(len(raw), len(raw["args"])) > limits.max_items:  # (the payload holds one item)
        return None
    got = _args(raw["args"], limits)
    if got is None:
        return None
    args, form, count = got
    ir = _instance(
        EncodeIR, _IR_TEMPLATE, {"op": "Encode", "stage": "ENC", "args": args}, set(_IR_FIELDS), None
    )
    return ir, {"stage": "ENC", "op": "Encode", "args": form}, 1 + len(raw) + count


def _args(raw: dict, limits: Limits) -> tuple[EncodeArgs, dict[str, Any], int] | None:
    if not raw.keys() <= PLAIN_ARGS or "payload" not in raw:
        return None
    values: dict[str, Any] = {}
    form: dict[str, Any] = {}  # each field's value in the canonical form (model_dump in JSON mode)
    count = len(raw)
    for key, value in raw.items():
        kind = type(value)
        if key == "payload":
            if kind is not dict or len(value) != 1 or type(value.get("text")) is not str:
                return None
            text = value["text"]
            if not (0 < len(text) <= min(MAX_TEXT, limits.max_string)) or not text.strip() or _bad(text):
                return None
            count += 1
            values[key] = _instance(Payload, _PAYLOAD_TEMPLATE, {"text": text}, {"text"}, {})
            form[key] = {"text": text}
        elif key in NAMES:
            if kind is not str or (name := _name(value, limits)) is None:
                return None
            values[key] = form[key] = name
        elif key == "tags":
            if kind is not list or len(value) > min(_MAX_TAGS, limits.max_items):
                return None
            tags = _tags(value, limits)
            if tags is None:
                return None
            count += len(value)
            values[key], form[key] = tags, list(tags)
        elif key in INSTANTS:
            got = _instant(value, limits)
            if got is None:
                return None
            values[key], form[key] = got
        elif key == "facets":
            if kind is not dict or len(value) > limits.max_items:
                return None
            got = _facets(value, limits)
            if got is None:
                return None
            count += len(value)
            values[key], form[key] = got
        elif key in UNIT_FLOATS:
            if not (kind is float or kind is int) or not 0 <= value <= 1:  # NaN fails the comparison
                return None
            values[key] = form[key] = float(value)
        elif key in FLAGS:
            if kind is not bool:
                return None
            values[key] = form[key] = value
        elif key == "source":
            if kind is not str or len(value) > min(_MAX_SOURCE, limits.max_string) or _bad(value):
                return None
            values[key] = form[key] = value
        else:  # one of CHOICES
            if kind is not str or value not in CHOICES[key]:
                return None
            values[key] = form[key] = value
    args = _instance(EncodeArgs, _ARGS_TEMPLATE, values, set(values), None)
    return args, {key: form[key] for key in sorted(form, key=_ARG_INDEX.__getitem__)}, count


def _bad(text: str) -> bool:
    """A string hygiene would refuse: one holding a lone surrogate (ASCII holds none)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _name(value: str, limits: Limits) -> str | None:
    """fields.Name: at most 512 characters as given, then stripped and not blank."""
    if len(value) > min(_MAX_NAME, limits.max_string) or _bad(value):
        return None
    return value.strip() or None


def _tags(values: list, limits: Limits) -> list[str] | None:
    """fields.Tags: each a Tag (at most 256 characters as given, stripped, not blank, no control
    character), then the repeats dropped, first kept."""
    longest = min(_MAX_TAG, limits.max_string)
    out: list[str] = []
    for value in values:
        if type(value) is not str or len(value) > longest or _bad(value):
            return None
        tag = value.strip()
        if not tag or (not tag.isprintable() and _CONTROL.search(tag)):  # printable: no control character
            return None
        out.append(tag)
    return list(dict.fromkeys(out)) if len(out) > 1 else out


def _instant(value: Any, limits: Limits) -> tuple[datetime, str] | None:
    """fields.Instant of a text with its offset (what normalising leaves alone and the model parses),
    with its canonical text: the text itself when it is in the canonical form already."""
    if type(value) is not str or len(value) > limits.max_string:
        return None
    try:
        instant, assumed_utc = parse_instant(value)
    except TimeParseError:
        return None
    if assumed_utc:
        return None
    return instant, value if _CANONICAL.fullmatch(value) else format_instant(instant)


def _facets(raw: dict, limits: Limits) -> tuple[Facets, dict[str, Any]] | None:
    """fields.Facets: the typed keys by their types, any other key (trimmed, 1-128 characters) a text;
    with the canonical form (the typed keys in field order, then the others as given)."""
    typed: dict[str, Any] = {}
    texts: dict[str, Any] = {}  # the typed keys' canonical values
    extra: dict[str, Any] = {}
    for key, value in raw.items():
        if type(key) is not str:
            return None
        if key == "time":
            got = _instant(value, limits)
            if got is None:
                return None
            typed[key], texts[key] = got
        elif key in _TYPED_FACETS:
            if type(value) is not str or (name := _name(value, limits)) is None:
                return None
            typed[key] = texts[key] = name
        else:
            if not key or key != key.strip() or len(key) > _MAX_FACET_KEY or _bad(key):
                return None
            if type(value) is not str or len(value) > limits.max_string or _bad(value):
                return None
            extra[key] = value
    facets = _instance(Facets, _FACETS_TEMPLATE, typed, set(typed) | set(extra), extra)
    form = {key: texts[key] for key in _FACET_ORDER if key in texts}
    form.update(extra)
    return facets, form


_set = object.__setattr__


def _instance(cls: type, template: dict, values: dict, fields_set: set[str], extra: dict | None) -> Any:
    """A model instance holding already-valid values, set as `model_construct` sets them (without its
    per-field walk): every field (the unset ones at their default), the fields given, the extra keys."""
    instance = cls.__new__(cls)
    fields = template.copy()
    fields.update(values)
    _set(instance, "__dict__", fields)
    _set(instance, "__pydantic_fields_set__", fields_set)
    _set(instance, "__pydantic_extra__", extra)
    _set(instance, "__pydantic_private__", None)
    return instance


def _template(cls: Any) -> dict[str, Any]:
    """Every field of a model at its default, in field order (a required field holds None until given).
    Every default is None or a text, so the template may be shared by every instance."""
    template = {name: None if f.is_required() else f.get_default() for name, f in cls.model_fields.items()}
    if any(type(v) not in (type(None), str) for v in template.values()) or cls.__pydantic_post_init__:
        raise TypeError(f"{cls.__name__} changed: plain.py builds it only with None or text defaults")
    return template


_IR_TEMPLATE = _template(EncodeIR)
_ARGS_TEMPLATE = _template(EncodeArgs)
_PAYLOAD_TEMPLATE = _template(Payload)
_FACETS_TEMPLATE = _template(Facets)
_IR_FIELDS = ("op", "stage", "args")  # the fields set: normalising adds stage when it is absent
