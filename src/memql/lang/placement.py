"""Where a field goes: the hints a diagnostic gives when a real field of the language is written in the
wrong place (`{"op": "Retrieve", "query": "x"}`) or as the wrong shape (`"search": "text"`).

"did you mean 'query'?" is no help to someone who wrote `query`; what helps is the path the verb takes
it under (target.search.intent.query) and, for an object given as a string, what the object looks like.
Both are read from the verb models themselves, so a new field is placed without editing a table; the
shapes below are the short examples a person would write.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel

# an example of each object-valued field, as a person writes it (the models give the full list)
SHAPES: dict[str, str] = {
    "target": '{"ids": ["1"]}, {"search": {"intent": {"query": "..."}}} or {"filter": {...}}',
    "search": '{"intent": {"query": "..."}, "limit": 10}',
    "intent": '{"query": "..."}',
    "overrides": '{"k": 10, "alpha": 0.5, "order_by": "relevance"}',
    "filter": '{"has_tags": ["..."], "time_range": {...}, "limit": 10}',
    "time_range": '{"relative": "last", "amount": 7, "unit": "days"} or {"start": "...", "end": "..."}',
    "payload": '{"text": "..."}, {"url": "..."} or {"structured": {...}}',
    "set": '{"text": "...", "weight": 0.8, ...}: the fields to change',
    "remind": '{"rrule": "FREQ=WEEKLY;BYDAY=MO"}',
    "policy": '{"allow": ["Label"], "deny": ["Delete"], "reviewers": ["..."], "expires": "..."}',
    "params": '{"by_chunks": {"chunk_size": 200}}',
    "facets": '{"subject": "...", "topic": "...", "<name>": ...}',
    "meta": '{"actor": "...", "confirmation": true, "dry_run": true}',
    "fact": '{"subject": "...", "attribute": "...", "valid_at": "..."}',
}


def models_in(annotation: object) -> list[type[BaseModel]]:
    """The pydantic models inside a type annotation (unions, lists, optionals)."""
    found = []
    stack = [annotation]
    while stack:
        a = stack.pop()
        if isinstance(a, type) and issubclass(a, BaseModel):
            found.append(a)
        stack.extend(getattr(a, "__args__", ()) or ())
        origin = getattr(a, "__origin__", None)
        if origin is not None and origin is not a:
            stack.append(origin)
    return found


@cache
def places(op: str) -> dict[str, tuple[str, ...]]:
    """Every field name of `op`'s IR -> the dotted paths it sits at (shortest first)."""
    from memql.lang.ops import VERB_MODELS

    found: dict[str, list[str]] = {}

    def visit(model: type[BaseModel], prefix: str, seen: frozenset[type]) -> None:
        for name, field in model.model_fields.items():
            key = field.alias or name
            path = f"{prefix}.{key}" if prefix else key
            found.setdefault(key, []).append(path)
            for sub in models_in(field.annotation):
                if sub not in seen:  # recursive models (a where clause) end here
                    visit(sub, path, seen | {sub})

    model = VERB_MODELS.get(op)
    if model is not None:
        visit(model, "", frozenset({model}))
    return {k: tuple(sorted(set(v), key=lambda p: (p.count("."), p))) for k, v in found.items()}


def where_it_goes(op: str | None, name: str, here: tuple[str, ...]) -> str | None:
    """ "Retrieve takes query under target.search.intent.query" when `name`, found unknown at `here`, is a
    field of `op` elsewhere; None when it is not."""
    if not op:
        return None
    paths = [p for p in places(op).get(name, ()) if p.rsplit(".", 1)[0] != ".".join(here)]
    if not paths:
        return None
    shown = " or ".join(paths[:3])
    return f"{op} takes {name} under {shown}"


def shape_hint(name: str, given: str, class_name: str | None = None) -> str:
    """`name` must be an object but is `given` (a string, a list ...): say what the object looks like."""
    example = SHAPES.get(name)
    if example is not None:
        return f"{name} must be an object, not {given}, e.g. {example}"
    kind = f" ({class_name})" if class_name else ""
    return f"{name} must be an object{kind}, not {given}"
