"""Encode `interpret` and Label `infer`: the session's extractor reads a record's text (docs/language.md,
"Interpretation"). The extractor reaches the engine as a service the Executor is given (`extractor=`),
by default the rules offline and, when the engine has an LLM, the LLM extractor making one call per
record (no retry: a reply that does not validate leaves the record uninterpreted, with a warning).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memql.engine.context import Context
from memql.lang.categories import lookup
from memql.lang.delta import MAX_TEXT, MemoryDelta, Utterance
from memql.ports.models import LLM
from memql.services.extract import EXTRACTORS, DeferredRules
from memql.services.extract.base import Extractor, is_extractor
from memql.services.extract.interpret import (
    INFERRED_TAGS,
    INTERPRETED,
    derived_fields,
    inferred_tags,
    interpreted_facets,
)

SPEAKER = "user"  # who "I" is when the session has no actor


def default_extractor(llm: LLM | None, choice: Extractor | str | None = None) -> Extractor:
    """The extractor an engine interprets with: `choice` ("rules", "llm" or an Extractor), else the LLM
    one when the engine has an LLM, else the rules. The LLM one is not retried: one call per record."""
    if choice is None:
        choice = "llm" if llm is not None else "rules"
    if isinstance(choice, str):
        if choice not in EXTRACTORS:
            raise ValueError(f"unknown extractor {choice!r}: choose one of {', '.join(EXTRACTORS)}")
        if choice == "rules":
            return DeferredRules()  # (the grammars load when it first reads)
        from memql.services.extract.llm import LLMExtractor

        return LLMExtractor(llm, retries=0)
    if not is_extractor(choice):
        raise TypeError(f"extractor is 'rules', 'llm' or an Extractor, not {type(choice).__name__}")
    return choice


@dataclass
class Interpretation:
    """What an Encode's record gains: facets to add and record fields (time, memory_type, category,
    sensitivity) the caller left out."""

    facets: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)


def read(ctx: Context, text: str, at: datetime, *where: str | int) -> MemoryDelta:
    """The extractor's delta of `text` said at `at`; what it reports of its own run (an invalid LLM
    reply, no LLM) becomes a warning at `where`. A text beyond the extractor's limit is read in part."""
    if len(text) > MAX_TEXT:
        ctx.warn("interpret.truncated", f"only the first {MAX_TEXT} characters are interpreted", *where)
        text = text[:MAX_TEXT]
    delta = extractor_of(ctx).extract(Utterance(speaker=ctx.actor or SPEAKER, text=text, time=at))
    for d in delta.diagnostics:
        ctx.warn(d.rule, d.message, *where)
    return delta


def interpret_encode(ctx: Context, args: Any, facets: dict[str, Any]) -> Interpretation:
    """Read an Encode's text (at its `time`, else now) into what its record lacks: a facet key the
    caller gave, or a field it gave, is never replaced; each derived field's evidence goes to the facet
    `interpreted` (so a caller's own `interpreted` facet leaves the fields alone)."""
    at = args.time or ctx.now
    delta = read(ctx, args.payload.text, at, "args", "interpret")
    out = Interpretation()
    for key, value in interpreted_facets(delta).items():
        if key not in facets:
            out.facets[key] = value
    if INTERPRETED in facets:
        return out
    given = {"time": args.time, "memory_type": args.memory_type, "category": args.category}
    given["sensitivity"] = args.sensitivity
    evidence: dict[str, Any] = {}
    for name, derived in derived_fields(delta).items():
        if given[name] is not None:
            continue
        if name == "category" and lookup(derived.value, ctx.config.categories) is None:
            continue  # an unregistered ext: category would refuse the Encode: not the caller's doing
        out.fields[name] = derived.value
        evidence[name] = list(derived.evidence)
    if evidence:
        out.facets[INTERPRETED] = {"by": extractor_of(ctx).name, **evidence}
    return out


def infer_tags(ctx: Context, text: str | None, at: datetime, known: list[str]) -> dict[str, Any]:
    """Tags inferred from a record's text that it does not carry yet (case-insensitively), each with
    the span it came from; none for a record without text."""
    if not text:
        return {}
    have = {t.casefold() for t in known}
    delta = read(ctx, text, at, "args", "infer")
    return {tag: ev for tag, ev in inferred_tags(delta).items() if tag not in have}


def extractor_of(ctx: Context) -> Extractor:
    """The session's extractor (the Executor's; a bare Context defaults like an Executor)."""
    if ctx.extractor is None:
        ctx.extractor = default_extractor(ctx.llm)
    return ctx.extractor


__all__ = [
    "INFERRED_TAGS",
    "Interpretation",
    "default_extractor",
    "extractor_of",
    "infer_tags",
    "interpret_encode",
]
