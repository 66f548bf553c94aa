"""Long-term persona memory (LPM): a hot segment's new content becomes user knowledge (a base of at most
`kb_capacity` sentences, oldest dropped first), a user profile and user/agent traits.

Knowledge is typed where possible: the typed facts the conversation's extractor formed from the
segment's messages become knowledge entries (one statement each, cited to its message). Offline, the
first-person statements (I, my, we ...) that are not questions and state no typed fact add to them; the
profile's fields are the current typed facts (the user's first), then an extractive summary of the rest
of the knowledge base; traits are the most frequent keywords of what each side said. With an LLM, one
structured call per promotion gives the profile's static fields, trait dimensions and knowledge.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from memql.cognition.conversation.formation import (
    StoredFact,
    conversation_facts,
    fact_statement,
    facts_by_source,
    profile_fields,
)
from memql.cognition.conversation.tiers.records import step_ids
from memql.cognition.conversation.tiers.scoring import Vectorizer
from memql.cognition.conversation.tiers.state import Entry, SegmentState, instant
from memql.lang import build
from memql.lang.time import format_instant
from memql.services import jaccard, split_sentences, summarize
from memql.services.summarize import estimate_tokens

if TYPE_CHECKING:
    from memql.cognition.conversation.tiers.view import TiersView

AGENT_ROLES = frozenset({"assistant", "agent", "system"})
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|my|mine|me|we|our|we're|we've)\b", re.I)
_DUPLICATE = 0.6  # keyword Jaccard at which a sentence repeats a knowledge entry already kept
_MIN_KEYWORDS = 3
FIELD_MARK = "- "  # a profile line that is a typed field (the rest of the profile is its summary)


def entry_from_row(row: dict[str, Any], vectorizer: Vectorizer) -> Entry:
    f = row["facets"]
    return Entry(
        id=row["id"],
        level=f["level"],
        text=row["text"] or "",
        source_ids=tuple(f.get("source_ids", ())),
        vector=vectorizer.vector(row["text"] or "") if f["level"] == "knowledge" else None,
        keywords=tuple(vectorizer.keywords(row["text"] or "", 10)),
        of=f.get("of", "user"),
        counts={str(k): int(v) for k, v in (f.get("keyword_counts") or {}).items()},
    )


def _lines(page_row: dict[str, Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(role, text, source ids) of each message of a stored page."""
    f = page_row["facets"]
    lines = [line.partition(": ") for line in (page_row["text"] or "").split("\n")]
    sources = f.get("source_ids", [])
    per_line = len(sources) == len(lines)
    return [
        (role, text, (sources[i],) if per_line else tuple(sources)) for i, (role, _, text) in enumerate(lines)
    ]


def _typed_knowledge(
    lines: list[tuple[str, str, tuple[str, ...]]], kept: list[Entry], typed: dict[str, list[StoredFact]]
) -> list[tuple[str, tuple[str, ...]]]:
    """The typed facts stated in the lines, as knowledge statements not already in the base."""
    known = {e.text for e in kept}
    out: dict[str, tuple[str, ...]] = {}
    for _, _, sources in lines:
        for source in sources:
            for f in typed.get(source, ()):
                text = fact_statement(f)
                if text not in known:
                    out.setdefault(text, (source,))
    return list(out.items())


def _knowledge(
    lines: list[tuple[str, str, tuple[str, ...]]],
    kept: list[Entry],
    limit: int,
    vectorizer: Vectorizer,
    typed: dict[str, list[StoredFact]],
):
    candidates: dict[str, tuple[str, ...]] = {}
    for role, text, sources in lines:
        if role.lower() in AGENT_ROLES:
            continue
        quotes = [f.evidence.casefold() for s in sources for f in typed.get(s, ()) if f.evidence]
        for sentence in split_sentences(text):
            s = sentence.strip()
            words = vectorizer.keywords(s, 10)
            if s.endswith("?") or not _FIRST_PERSON.search(s) or len(words) < _MIN_KEYWORDS:
                continue
            if any(q in s.casefold() for q in quotes):  # stated already, typed
                continue
            if any(jaccard(words, e.keywords) >= _DUPLICATE for e in kept):
                continue
            candidates.setdefault(f"{role}: {s}", sources)
    if not candidates:
        return []
    chosen = summarize(list(candidates), 40 * limit)
    picked = [c for c in candidates if c in chosen][:limit]
    return [(c, candidates[c]) for c in picked]


def promote(tiers: TiersView, key: str, seg: SegmentState, h: float) -> None:
    cfg, r = tiers.config, tiers.records
    # only the pages that joined since the last promotion (a time window, then exact by position)
    since = _iso(seg.analyzed_time)
    rows = r.read(r.facets("page", segment=key), time_from=since)
    rows = [row for row in rows if row["facets"].get("positions", [0, 0])[1] > seg.analyzed_until]
    lines = [line for row in rows for line in _lines(row)]
    until = max([row["facets"].get("positions", [0, 0])[1] for row in rows], default=seg.analyzed_until)
    until_time = max([instant(row["time"]) for row in rows], default=seg.analyzed_time)
    knowledge_entries = [e for e in tiers.lpm.values() if e.level == "knowledge"]
    persona = (
        tiers.llm.persona([row["text"] for row in rows], _profile(tiers).text if _profile(tiers) else "")
        if tiers.llm
        else None
    )
    sources = tuple(dict.fromkeys(s for _, _, ids in lines for s in ids))
    facts = conversation_facts(r.executor, r.conversation_id, visit=False)
    typed = facts_by_source(facts)
    untyped = (
        [(k, sources) for k in persona.knowledge]
        if persona is not None
        else _knowledge(lines, knowledge_entries, cfg.knowledge_per_promotion, tiers.vectorizer, typed)
    )
    new = _typed_knowledge(lines, knowledge_entries, typed) + untyped
    reason = f"tiers: segment {key} heat {h:.3f} > τ {cfg.heat_threshold}: its content moves into LPM"
    steps: list[dict[str, Any]] = [
        build.promote([seg.id], weight_delta=0.1, reason=reason, comment=reason),
        r.update(
            [seg.id],
            f"tiers: segment {key} promoted; interaction count reset",
            facets={
                **seg.facets(),
                "interactions": 0,
                "analyzed_until": until,
                "analyzed_time": _iso(until_time),
            },
        ),
    ]
    first_new = len(steps)
    for text, ids in new:
        steps.append(
            r.encode(
                text,
                "knowledge",
                "lpm",
                {"source_ids": list(ids), "from_segment": key},
                kind="fact",
                comment=f"tiers: knowledge from segment {key}",
            )
        )
    overflow = len(knowledge_entries) + len(new) - cfg.kb_capacity
    held = r.locked([e.id for e in tiers.lpm.values()], "Delete")  # a locked entry is neither dropped
    dropped = [e for e in knowledge_entries if e.id not in held][: max(0, overflow)]  # nor rewritten
    if dropped:
        steps.append(
            r.delete(
                [e.id for e in dropped],
                f"tiers: user knowledge base over {cfg.kb_capacity} entries: oldest dropped",
            )
        )
    profile_text, profile_sources = _profile_text(tiers, untyped, persona, facts)
    extra: list[tuple[str, str, dict[str, Any], str]] = []  # (level, text, facets, key) of LPM singletons
    if profile_text:
        extra.append(("profile", profile_text, {"source_ids": list(profile_sources)}, "profile"))
    for of, words in _traits(tiers, lines, persona).items():
        counts = words
        text = f"{'agent' if of == 'agent' else 'user'} traits: " + ", ".join(list(counts)[: cfg.traits])
        extra.append(("trait", text, {"of": of, "keyword_counts": counts, "source_ids": []}, f"trait:{of}"))
    singleton_steps: list[tuple[int, str, str, dict[str, Any], str | None]] = []
    for level, text, facets, _ in extra:
        existing = _singleton(tiers, level, facets.get("of"))
        if existing is not None and existing.id in held:
            continue
        if existing is None:
            steps.append(
                r.encode(
                    text, level, "lpm", facets, kind=level, comment=f"tiers: LPM {level} from segment {key}"
                )
            )
        elif existing.text != text or facets.get("keyword_counts") != existing.counts:
            steps.append(
                r.update(
                    [existing.id], f"tiers: LPM {level} updated from segment {key}", text=text, facets=facets
                )
            )
        else:
            continue
        singleton_steps.append((len(steps) - 1, level, text, facets, existing.id if existing else None))
    ids = step_ids(r.run("a promotion into LPM", steps))
    seg.interactions, seg.analyzed_until, seg.analyzed_time = 0, until, until_time
    for e in dropped:
        tiers.lpm.pop(e.id, None)
    vectors = tiers.vectorizer.vectors([t for t, _ in new])
    for i, ((text, src), vec) in enumerate(zip(new, vectors, strict=True)):
        entry_id = ids[first_new + i]
        tiers.lpm[entry_id] = Entry(
            entry_id, "knowledge", text, tuple(src), vec, tuple(tiers.vectorizer.keywords(text, 10))
        )  # type: ignore[arg-type]
    for index, level, text, facets, existing_id in singleton_steps:
        entry_id = existing_id or ids[index]
        tiers.lpm[entry_id] = Entry(  # type: ignore[index]
            entry_id,
            level,
            text,
            tuple(facets.get("source_ids", ())),
            of=facets.get("of", "user"),  # type: ignore[arg-type]
            counts=dict(facets.get("keyword_counts") or {}),
        )


def _iso(t) -> str | None:
    return format_instant(t) if t is not None else None


def _singleton(tiers: TiersView, level: str, of: str | None) -> Entry | None:
    for e in tiers.lpm.values():
        if e.level == level and (level != "trait" or e.of == of):
            return e
    return None


def _profile(tiers: TiersView) -> Entry | None:
    return _singleton(tiers, "profile", None)


def _profile_text(tiers: TiersView, untyped, persona, facts: list[StoredFact]) -> tuple[str, tuple[str, ...]]:
    """The profile: its fields (the current typed facts, one per line: a value that changes later is
    labelled on its own line, not the whole profile), then a summary updated incrementally — the current
    summary's sentences and the new untyped knowledge compete in one extractive summary (bounded work per
    promotion, whatever the size of the knowledge base)."""
    fields, field_sources = profile_fields(
        facts, tiers.config.profile_tokens, getattr(tiers.records.executor, "user", None)
    )
    if persona is not None:
        fields = [*fields, *persona.fields()]
    fields = [f"{FIELD_MARK}{f}" for f in fields]
    if persona is not None:
        text = "\n".join([*fields, persona.profile] if persona.profile else fields)
        return text, tuple(dict.fromkeys([*field_sources, *(s for _, ids in untyped for s in ids)]))
    current = _profile(tiers)
    texts: dict[str, tuple[str, ...]] = {}
    if current is not None:
        summary_lines = [line for line in current.text.split("\n") if not line.startswith(FIELD_MARK)]
        texts.update((s, current.source_ids) for line in summary_lines for s in split_sentences(line))
    texts.update((t, tuple(ids)) for t, ids in untyped)
    budget = tiers.config.profile_tokens - estimate_tokens("\n".join(fields))
    summary = summarize(list(texts), budget) if texts and budget > 0 else ""
    sources = tuple(dict.fromkeys(s for t, ids in texts.items() if t in summary for s in ids))
    text = "\n".join([*fields, summary.replace("\n", " ")] if summary else fields)
    return text, tuple(dict.fromkeys([*field_sources, *sources]))


def _traits(tiers: TiersView, lines, persona) -> dict[str, dict[str, int]]:
    """Updated keyword counts per side ("user", "agent"), most frequent first, bounded."""
    found: dict[str, dict[str, int]] = {}
    for of in ("user", "agent"):
        existing = _singleton(tiers, "trait", of)
        counts = dict(existing.counts) if existing else {}
        if persona is not None:
            words = persona.user_traits if of == "user" else persona.agent_traits
        else:
            side = [t for role, t, _ in lines if (role.lower() in AGENT_ROLES) == (of == "agent")]
            words = tiers.vectorizer.keywords(" ".join(side), tiers.config.traits) if side else []
        if not words:
            continue
        for w in words:
            counts[w] = counts.get(w, 0) + 1
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[: 3 * tiers.config.traits]
        found[of] = dict(ranked)
    return found


__all__ = ["entry_from_row", "instant", "promote"]
