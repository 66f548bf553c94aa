"""What a `MemoryDelta` gives a stored record (docs/language.md, "Interpretation"): the facets an Encode
with ``interpret`` (or a conversation's message) carries, the record fields it may fill, and the tags a
Label with ``infer`` adds. Every item keeps the evidence span — ``{start, end, quote}`` in the record's
text — of the words it came from; a field the delta gives no words for is not derived at all.

Typed facts are not here: they become their own records only through conversation formation (or an
explicit ``payload.structured``), where supersession and links to the message apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memql.lang.delta import Evidence, MemoryDelta

INTERPRETED = "interpreted"  # the facet naming each derived record field's evidence, and the extractor
INFERRED_TAGS = "inferred_tags"  # the facet naming each inferred tag's evidence
TAG_ENTITY_KINDS = ("person", "place", "organization", "product")  # "other" names are not tagged
MAX_TAG = 256


def span(ev: Evidence, offset: int = 0) -> dict[str, Any]:
    return {"start": ev.start + offset, "end": ev.end + offset, "quote": ev.quote}


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat().replace("+00:00", "Z")


def interpreted_facets(delta: MemoryDelta, offset: int = 0) -> dict[str, Any]:
    """The facets of a delta: `entities` [{text, kind, evidence}], `times` [{start, end, granularity,
    evidence}], `tasks` and `decisions` [{text, owner, due, evidence}]; a key only when it has items.
    `offset` is where the text read starts in the record's text (a message stored as "mira: ...")."""
    out: dict[str, Any] = {}
    if delta.entities:
        out["entities"] = [
            {"text": e.text, "kind": e.kind, "evidence": span(e.evidence, offset)} for e in delta.entities
        ]
    if delta.times:
        out["times"] = [
            {
                "start": iso(t.start),
                "end": iso(t.end),
                "granularity": t.granularity,
                "evidence": span(t.evidence, offset),
            }
            for t in delta.times
        ]
    for name in ("tasks", "decisions"):
        items = getattr(delta, name)
        if items:
            out[name] = [
                {
                    "text": a.text,
                    "owner": a.owner,
                    "due": None if a.due is None else iso(a.due),
                    "evidence": span(a.evidence, offset),
                }
                for a in items
            ]
    return out


@dataclass(frozen=True)
class Derived:
    """A record field's value read from the text, and the spans it rests on (never empty)."""

    value: Any
    evidence: tuple[dict[str, Any], ...]


def derived_fields(delta: MemoryDelta) -> dict[str, Derived]:
    """The record fields a delta supports, each with its evidence:

    - `time`: the start of the first time expression in the text;
    - `memory_type`: the delta's a2p type, when items of the text back it — semantic by its facts,
      episodic by its times (else its entities: who and where), procedural by its tasks and decisions
      (else its facts); an unbacked type is the extractor's default, not a reading, and is left out;
    - `category`: the delta's category, backed by the facts of that category;
    - `sensitivity`: the delta's, when stricter than standard and backed by its categorised facts.
    """
    out: dict[str, Derived] = {}
    if delta.times:
        first = min(delta.times, key=lambda t: t.evidence.start)
        out["time"] = Derived(iso(first.start), (span(first.evidence),))
    facts = [span(f.evidence) for f in delta.facts]
    backing = {
        "semantic": [facts],
        "episodic": [[span(t.evidence) for t in delta.times], [span(e.evidence) for e in delta.entities]],
        "procedural": [[span(a.evidence) for a in (*delta.tasks, *delta.decisions)], facts],
    }
    for spans in backing.get(delta.memory_type, []):
        if spans:
            out["memory_type"] = Derived(delta.memory_type, tuple(spans))
            break
    if delta.category is not None:
        spans = [span(f.evidence) for f in delta.facts if f.category == delta.category]
        if spans:
            out["category"] = Derived(delta.category, tuple(spans))
    if delta.sensitivity != "standard":
        spans = [span(f.evidence) for f in delta.facts if f.category is not None]
        if spans:
            out["sensitivity"] = Derived(delta.sensitivity, tuple(spans))
    return out


def inferred_tags(delta: MemoryDelta) -> dict[str, dict[str, Any]]:
    """Tags a Label with `infer` adds, each with the span it came from: the names of the people,
    places, organisations and products (in the text's order), then each fact's attribute key
    (passport.deadline), then the delta's category without its namespace (a2p:health -> health; only a
    category its facts back). Lower-case, whitespace collapsed, deduplicated, at most 256 characters."""
    names = [(e.text, e.evidence) for e in delta.entities if e.kind in TAG_ENTITY_KINDS]
    keys = [(f.attribute, f.evidence) for f in delta.facts]
    backing = [f.evidence for f in delta.facts if f.category is not None and f.category == delta.category]
    category = [(_category_name(delta.category), backing[0])] if backing else []  # type: ignore[arg-type]
    out: dict[str, dict[str, Any]] = {}
    for group in (names, keys, category):
        for text, ev in sorted(group, key=lambda item: item[1].start):
            tag = " ".join(text.split()).casefold()
            if tag and len(tag) <= MAX_TAG and tag not in out:
                out[tag] = span(ev)
    return out


def _category_name(category: str) -> str:
    """a2p:health.allergies -> health.allergies; ext:vendor:music -> music."""
    return category.rsplit(":", 1)[-1]
