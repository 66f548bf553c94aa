"""Merge and Split: fold records into a primary, or cut one into parts — lineage linked both ways."""

from __future__ import annotations

import json

from memql.engine.access import audience
from memql.engine.context import Context
from memql.engine.governance import check_lock, check_writable
from memql.engine.targets import canonical_id, resolve
from memql.engine.verbs.base import Outcome, runner
from memql.engine.verbs.encode import content_hash
from memql.lang.categories import stricter
from memql.lang.ops import MergeIR, SplitIR
from memql.ports.models import ChatMessage, ChatRequest
from memql.ports.record import PERMISSION_FIELDS, Record
from memql.services import (
    chunk_by_count,
    chunk_by_size,
    is_cjk,
    keywords,
    merge_texts,
    split_by_delimiters,
    split_by_topics,
    split_markdown_sections,
    split_paragraphs,
    split_sentences,
)

DEFAULT_CHUNK = 500
_PARTS_SCHEMA = {
    "type": "object",
    "properties": {"parts": {"type": "array", "items": {"type": "string"}}},
    "required": ["parts"],
}


@runner("Merge")
def run_merge(ctx: Context, ir: MergeIR) -> Outcome:
    args = ir.args
    records = [r for r, _ in resolve(ctx, ir.target, write=True)]  # type: ignore[arg-type]
    if len(records) < 2:
        raise ctx.refuse(
            "merge.too_few", f"Merge needs at least two records; the target found {len(records)}", "target"
        )
    for record in records:
        check_writable(ctx, "Merge", record)
        if record.locked(ctx.now):
            check_lock(ctx, "Merge", record)
    if len({audience(r) for r in records}) > 1:
        # one record has one set of readers: folding in a record others may not read would show it
        # to them (or hide the rest from its own readers)
        raise ctx.refuse(
            "permission.merge",
            f"records {', '.join(r.id for r in records)} have different readers (owner, read level or "  # type: ignore[misc]
            "lists); give them the same read permissions first",
            "target",
        )
    if args.primary_id is not None:
        wanted = canonical_id(args.primary_id)
        primary = next((r for r in records if r.id == wanted), None)
        if primary is None:
            raise ctx.refuse(
                "merge.primary_not_in_target",
                f"primary {args.primary_id} is not among the merged records",
                "args",
                "primary_id",
            )
    else:  # highest weight, then the oldest
        primary = min(records, key=lambda r: (-r.weight, r.created_at, int(r.id)))  # type: ignore[arg-type]
    children = [r for r in records if r.id != primary.id]
    text = _merged_text(ctx, [primary, *children])
    tags = list(primary.tags)
    facets = {}
    for record in reversed(children):
        facets.update(record.facets)
    facets.update(primary.facets)  # the primary wins where facets disagree
    for record in children:
        known = {t.casefold() for t in tags}
        tags += [t for t in record.tags if t.casefold() not in known]
    changes = {
        "tags": tags,
        "facets": facets,
        "weight": max(r.weight for r in records),
        "sensitivity": stricter(*(r.sensitivity for r in records)),  # the merged text holds them all
    }
    if args.consolidated_from is not None:  # a consolidation keeps its sources' names (a2p consolidatedFrom)
        earlier = primary.payload_meta.get("consolidated_from")
        names = [*(earlier if isinstance(earlier, list) else []), *args.consolidated_from]
        changes["payload_meta"] = {**primary.payload_meta, "consolidated_from": list(dict.fromkeys(names))}
    if text is not None:
        changes.update(
            text=text,
            keywords=keywords(text),
            content_hash=content_hash(text, primary.url, primary.structured),
        )
        if not args.skip_reembedding:
            changes["embedding_status"] = "pending"
    ctx.update(primary, **changes)
    for child in children:
        if args.soft_delete_children:
            ctx.update(child, status="deleted", deleted_at=ctx.now)
        ctx.link(child.id, primary.id, "merged_into")  # type: ignore[arg-type]
    ids = [primary.id, *(c.id for c in children)]
    return Outcome(ids, {"id": primary.id, "primary_id": primary.id, "merged_ids": [c.id for c in children]})  # type: ignore[list-item]


def _merged_text(ctx: Context, records: list[Record]) -> str | None:
    texts = [r.text for r in records if r.text]
    if not texts:
        return None
    if ctx.llm is not None and len(texts) > 1:
        reply = _ask(
            ctx,
            "Merge these notes into one note. Keep every fact, drop repetition, "
            'keep the language of the notes. Reply as JSON {"parts": [merged note]}.',
            texts,
        )
        if reply:
            return reply[0]
    return merge_texts(texts)


def _ask(ctx: Context, instruction: str, texts: list[str]) -> list[str] | None:
    """One LLM call returning a list of strings; None if the reply is unusable (the caller falls back)."""
    request = ChatRequest(
        messages=[ChatMessage("system", instruction), ChatMessage("user", "\n\n---\n\n".join(texts))],
        json_schema=_PARTS_SCHEMA,
    )
    try:
        parts = json.loads(ctx.llm.chat(request)).get("parts")  # type: ignore[union-attr]
    except (ValueError, AttributeError):
        return None
    if isinstance(parts, list) and parts and all(isinstance(p, str) and p.strip() for p in parts):
        return [p.strip() for p in parts]
    return None


@runner("Split")
def run_split(ctx: Context, ir: SplitIR) -> Outcome:
    args = ir.args
    affected: list[str] = []
    children_of: dict[str, list[str]] = {}
    for parent, _ in resolve(ctx, ir.target, write=True):  # type: ignore[arg-type]
        check_writable(ctx, "Split", parent)
        if any(
            link.relation == "split_from" and link.dst == parent.id
            for link in ctx.session.links(ctx.tenant, [parent.id])
        ):  # type: ignore[list-item]
            ctx.warn(
                "split.already", f"record {parent.id} was split before; split its parts instead", "target"
            )
            continue
        check_lock(ctx, "Split", parent)
        parts = _parts(ctx, ir, parent.text or "") or [(None, parent.text or "")]
        if len(parts) < 2:  # DESIGN §5: parent -> at least one child, so the split still happens
            ctx.warn("split.nothing", f"record {parent.id} yields a single part", "target")
        ids = []
        for topic, text in parts:
            # who may read and write a part is never optional: the parent's owner, sensitivity and
            # permissions always carry over (a part of a private record is private); the rest with inherit_all
            child = Record(
                text=text,
                kind=parent.kind,
                time=parent.time,
                owner=parent.owner,
                agent=parent.agent,
                keywords=keywords(text),
                content_hash=content_hash(text, None, None),
                embedding_status="pending",
                weight=ctx.config.default_weight,
                sensitivity=parent.sensitivity,
                **{name: getattr(parent, name) for name in PERMISSION_FIELDS},
            )
            if args.inherit_all:
                child = child.copy(
                    tags=list(parent.tags),
                    facets=dict(parent.facets),
                    weight=parent.weight,
                    source=parent.source,
                    memory_type=parent.memory_type,
                    category=parent.category,
                )
            if topic is not None:
                child = child.copy(facets={**child.facets, "topic": topic})
            child = ctx.insert(child)
            ctx.link(child.id, parent.id, "split_from")  # type: ignore[arg-type]
            ids.append(child.id)
        ctx.update(parent, status="archived")
        children_of[parent.id] = ids  # type: ignore[index]
        affected += [parent.id, *ids]  # type: ignore[list-item]
    return Outcome(affected, {"children": children_of})


def _parts(ctx: Context, ir: SplitIR, text: str) -> list[tuple[str | None, str]]:
    """(topic, text) parts of the text by the IR's strategy."""
    args, params = ir.args, ir.args.params
    if args.strategy == "by_sentences":
        opts = params.by_sentences if params and params.by_sentences else None
        sentences = split_sentences(text, opts.lang if opts else "auto")
        size = (opts.max_sentences if opts else None) or 1
        groups = [sentences[i : i + size] for i in range(0, len(sentences), size)]
        return [(None, _join(g)) for g in groups]
    if args.strategy == "by_chunks":
        opts = params.by_chunks if params and params.by_chunks else None
        if opts and opts.num_chunks:
            return [(None, c) for c in chunk_by_count(text, opts.num_chunks)]
        return [(None, c) for c in chunk_by_size(text, (opts.chunk_size if opts else None) or DEFAULT_CHUNK)]
    custom = params.custom  # type: ignore[union-attr]
    if custom.delimiters:
        parts = [(None, p) for p in split_by_delimiters(text, custom.delimiters)]
    elif ctx.llm is not None and custom.instruction:
        reply = _ask(
            ctx,
            f"Split the text into parts. {custom.instruction} Keep the original wording. "
            'Reply as JSON {"parts": [...]}.',
            [text],
        )
        parts = [(None, p) for p in reply] if reply else _fallback(text)
    elif custom.topics:
        parts = [(t, p) for t, p in split_by_topics(text, custom.topics)]
    else:
        parts = _fallback(text)
    if len(parts) > custom.max_splits:  # keep the count: the tail joins the last allowed part
        head, tail = parts[: custom.max_splits - 1], parts[custom.max_splits - 1 :]
        parts = [*head, (tail[0][0], "\n\n".join(p for _, p in tail))]
    return parts


def _fallback(text: str) -> list[tuple[str | None, str]]:
    """Without an LLM, an instruction-only custom split cuts at Markdown headings, else paragraphs,
    else sentences — the first that yields more than one part."""
    for cut in (split_markdown_sections, split_paragraphs, split_sentences):
        parts = cut(text)
        if len(parts) > 1:
            return [(None, p) for p in parts]
    return [(None, text)]


def _join(sentences: list[str]) -> str:
    out = ""
    for s in sentences:
        if out and not (is_cjk(out[-1]) or is_cjk(s[0])):
            out += " "
        out += s
    return out
