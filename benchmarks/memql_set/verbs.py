"""The model's verbs: what each of the twelve does to the records (DESIGN §5, docs/engine.md), applied to
a World. A template states what the specification cannot decide for it — the hits of a search, the parts
of a split text, what a summary must say — in an Expect; everything else follows from the IR."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from benchmarks.memql_set.world import (
    Contains,
    GenerationError,
    Rec,
    World,
    add_duration,
    iso,
    next_reminder,
    parse_iso,
    sentences,
)


@dataclass(frozen=True)
class Expect:
    hits: list[str] | None = None  # the records a search selects (or a filter must select), best first
    parts: list[str] | None = None  # Split: the children's texts, in order
    text: str | Contains | None = None  # Encode/Update: what the stored text must be or contain
    tags: Contains | None = None  # Encode: tags that must (not) be there when the rest is left open
    summary: Contains | None = None  # Summarize: what the summary must (not) contain
    topic_facets: bool = False  # Split by topics: each child carries facets.topic = its topic


@dataclass
class Applied:
    op: str
    ids: list[str] = field(default_factory=list)  # what `from_step` later refers to


def clamp(value: float) -> float:
    return min(1.0, max(0.0, round(value, 6)))


def apply(world: World, ir: dict[str, Any], expect: Expect) -> Applied:
    op = ir["op"]
    handler = _HANDLERS.get(op)
    if handler is None:
        raise GenerationError(f"the model has no verb {op}")
    done = handler(world, ir, ir.get("args") or {}, expect)
    world.step_ids.append(done.ids)
    return done


def _targets(world: World, ir: dict[str, Any], expect: Expect, *, write: bool = True) -> list[Rec]:
    ids = world.resolve(ir["target"], write=write, hits=expect.hits)
    recs = [world.get(i) for i in ids]
    if write:
        for rec in recs:
            if rec.status == "deleted":
                raise GenerationError(f"{ir['op']} on deleted record {rec.id}: the engine refuses it")
            if rec.lock_mode is not None and ir["op"] != "Lock":
                raise GenerationError(f"{ir['op']} on locked record {rec.id}: the engine refuses it")
    return recs


def _encode(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    payload = args["payload"]
    loose = {
        name for name, key in (("kind", "type"), ("weight", "weight"), ("time", "time")) if key not in args
    }
    rec = Rec(
        id=world.next_id(),
        text=expect.text if expect.text is not None else payload["text"],
        tags=expect.tags if expect.tags is not None else list(args.get("tags", [])),
        kind=args.get("type"),
        weight=args.get("weight", 0.5),
        time=args.get("time"),
        facets={k: args[k] for k in ("subject", "location", "topic") if k in args}
        | dict(args.get("facets", {})),
        touched=["created"],
        loose=frozenset(loose),
    )
    if "expire_at" in args:
        rec.expire_at, rec.on_expire = args["expire_at"], "soft_delete"
    world.add(rec)
    return Applied("Encode", [rec.id])


def _update(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    given = args["set"]
    recs = _targets(world, ir, expect)
    for rec in recs:
        if "text" in given:
            rec.text = expect.text if expect.text is not None else given["text"]
        if "weight" in given:
            rec.weight = clamp(given["weight"])
        if "type" in given:
            rec.kind = given["type"]
        rec.loose = rec.loose - {
            k for k, name in (("weight", "weight"), ("kind", "type"), ("time", "time")) if name in given
        }
        if "tags" in given:
            rec.tags = list(dict.fromkeys(given["tags"]))
        if "time" in given:
            rec.time = given["time"]
        for key in ("subject", "location", "topic"):
            if key in given:
                rec.facets[key] = given[key]
        rec.facets.update(given.get("facets", {}))
        if "ttl" in given:
            rec.expire_at = iso(add_duration(world.now, given["ttl"]))
            rec.on_expire = rec.on_expire or "soft_delete"
        rec.touched.append("updated")
    return Applied("Update", [r.id for r in recs])


def _unique(tags: list[str]) -> list[str]:
    seen: set[str] = set()
    return [t for t in tags if not (t.casefold() in seen or seen.add(t.casefold()))]  # type: ignore[func-returns-value]


def _label(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    mode, tags, facets = args.get("mode", "add"), list(args.get("tags", [])), dict(args.get("facets", {}))
    recs = _targets(world, ir, expect)
    for rec in recs:
        if isinstance(rec.tags, Contains):  # tags known in part (a new record's): only an add is modelled
            if mode != "add" or facets:
                raise GenerationError(f"Label {mode} on record {rec.id} whose tags are not known exactly")
            rec.tags = Contains(tuple(dict.fromkeys([*rec.tags.include, *tags])), rec.tags.exclude)
            rec.touched.append("labelled")
            continue
        current = list(rec.tags)
        if mode == "add":
            rec.tags = _unique(current + tags)
            rec.facets.update(facets)
        elif mode == "replace":
            if "tags" in args:
                rec.tags = _unique(tags)
            if "facets" in args:
                rec.facets = facets
        else:
            gone = {t.casefold() for t in tags}
            rec.tags = [t for t in current if t.casefold() not in gone]
            for key in facets:
                rec.facets.pop(key, None)
        rec.touched.append("labelled" if mode == "add" else f"tags_{mode}d")
    return Applied("Label", [r.id for r in recs])


def _promote(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    recs = _targets(world, ir, expect)
    for rec in recs:
        before = rec.weight
        if "weight" in args:
            rec.weight = clamp(args["weight"])
            rec.loose = rec.loose - {"weight"}
        elif "weight_delta" in args:
            if rec.weight is None or "weight" in rec.loose:
                raise GenerationError(f"weight_delta on record {rec.id} whose weight is not known")
            rec.weight = clamp(rec.weight + args["weight_delta"])
        if "remind" in args:
            rec.next_remind_at = iso(next_reminder(args["remind"]["rrule"], world.now))
        if rec.status == "archived" and (before is None or rec.weight is None or rec.weight >= before):
            rec.status = "active"  # raising an archived record's priority brings it back
        rec.touched.append("promoted")
    return Applied("Promote", [r.id for r in recs])


def _demote(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    recs = _targets(world, ir, expect)
    for rec in recs:
        if args.get("archive"):
            rec.status, rec.weight = "archived", None  # kept, out of default reads; its weight is unspecified
            rec.touched.append("archived")
            continue
        if "weight" in args:
            rec.weight = clamp(args["weight"])
            rec.loose = rec.loose - {"weight"}
        else:
            if rec.weight is None or "weight" in rec.loose:
                raise GenerationError(f"weight_delta on record {rec.id} whose weight is not known")
            rec.weight = clamp(rec.weight + args["weight_delta"])
        rec.touched.append("demoted")
    return Applied("Demote", [r.id for r in recs])


def _merge(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    recs = _targets(world, ir, expect)
    if len(recs) < 2:
        raise GenerationError("Merge needs at least two records")
    if any(r.weight is None or "weight" in r.loose for r in recs):
        raise GenerationError("Merge of records whose weight is not known")
    if "primary_id" in args:
        primary = next(r for r in recs if r.id == str(int(args["primary_id"])))
    else:  # highest weight, then the oldest (all records of a scenario are created at the same instant)
        primary = min(recs, key=lambda r: (-(r.weight or 0.0), int(r.id)))
    children = [r for r in recs if r is not primary]
    keep: list[str] = []
    for rec in [primary, *children]:
        if not isinstance(rec.text, str):
            raise GenerationError(f"Merge of record {rec.id} whose text is not known exactly")
        keep += [s for s in sentences(rec.text) if s not in keep]
    tags = list(primary.tags) if isinstance(primary.tags, list) else []
    for child in children:
        known = {t.casefold() for t in tags}
        tags += [t for t in child.tags if t.casefold() not in known] if isinstance(child.tags, list) else []
    facets: dict[str, Any] = {}
    for child in reversed(children):
        facets.update(child.facets)
    facets.update(primary.facets)
    primary.text, primary.tags, primary.facets = Contains(tuple(keep)), tags, facets
    primary.weight = max(r.weight for r in recs)  # type: ignore[type-var]
    primary.touched.append("merge_primary")
    for child in children:
        if args.get("soft_delete_children", True):
            child.status = "deleted"
        child.touched.append(f"merged_into_{primary.id}")
    return Applied("Merge", [primary.id, *(c.id for c in children)])


def _delete(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    recs = _targets(world, ir, expect)
    if "time_range" in args:
        start, end = world.window(args["time_range"])
        recs = [r for r in recs if start <= (parse_iso(r.time) if r.time else world.now) <= end]
    soft = args.get("soft", True)
    for rec in recs:
        if soft:
            rec.status = "deleted"
            rec.touched.append("soft_deleted")
        else:
            rec.gone = True
            rec.touched.append("hard_deleted")
    return Applied("Delete", [r.id for r in recs])


def _split(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    recs = _targets(world, ir, expect)
    if len(recs) != 1 or not expect.parts:
        raise GenerationError("the model splits one record into the parts the template gives")
    parent, inherit = recs[0], args.get("inherit_all", True)
    topics = ((args.get("params") or {}).get("custom") or {}).get("topics") if expect.topic_facets else None
    ids = [parent.id]
    for i, text in enumerate(expect.parts):
        facets = dict(parent.facets) if inherit else {}
        if topics:
            facets["topic"] = topics[i]
        child = Rec(
            id=world.next_id(),
            text=text,
            tags=list(parent.tags) if inherit and isinstance(parent.tags, list) else [],
            kind=parent.kind,
            weight=parent.weight if inherit else 0.5,
            time=parent.time,
            facets=facets,
            touched=[f"split_part_of_{parent.id}"],
        )
        world.add(child)
        ids.append(child.id)
    parent.status, parent.split_parent = "archived", True
    parent.touched.append("split_parent")
    return Applied("Split", ids)


def _lock(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    mode = args.get("mode", "read_only")
    recs = _targets(world, ir, expect)
    changed = []
    for rec in recs:
        if mode == "unlock":
            if rec.lock_mode is None:
                continue
            rec.lock_mode = None
            rec.touched.append("unlocked")
        else:
            rec.lock_mode = mode
            rec.touched.append(f"locked_{mode}")
        changed.append(rec.id)
    return Applied("Lock", changed)


def _expire(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    when = args.get("until") or iso(add_duration(world.now, args["ttl"]))
    recs = _targets(world, ir, expect)
    for rec in recs:
        rec.expire_at, rec.on_expire = when, args["on_expire"]
        rec.touched.append("expiring")
    return Applied("Expire", [r.id for r in recs])


def _retrieve(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    target = ir["target"]
    if "ids" in target:
        ids = [r.id for r in _targets(world, ir, expect, write=False) if r.status == "active"]
    else:
        ids = world.resolve(target, write=False, hits=expect.hits)
    return Applied("Retrieve", ids)


def _summarize(world: World, ir: dict[str, Any], args: dict[str, Any], expect: Expect) -> Applied:
    sources = world.resolve(ir["target"], write=False, hits=expect.hits)
    if not sources or expect.summary is None:
        raise GenerationError("a Summarize needs sources and what its summary must say")
    rec = Rec(
        id=world.next_id(),
        text=expect.summary,
        kind="summary",
        weight=None,
        touched=["summary_of_" + "_".join(sources)],
        loose=frozenset({"tags"}),
    )
    world.add(rec)
    return Applied("Summarize", [rec.id])


_HANDLERS = {
    "Encode": _encode,
    "Update": _update,
    "Label": _label,
    "Promote": _promote,
    "Demote": _demote,
    "Merge": _merge,
    "Delete": _delete,
    "Split": _split,
    "Lock": _lock,
    "Expire": _expire,
    "Retrieve": _retrieve,
    "Summarize": _summarize,
}
