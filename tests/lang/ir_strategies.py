"""Hypothesis strategies: well-formed IRs across all twelve verbs, and mutations of them."""

from __future__ import annotations

import copy
import functools
from datetime import UTC, datetime, timedelta

from hypothesis import strategies as st

text = st.text(min_size=1, max_size=40).filter(lambda s: s.strip() != "")
tag = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12).filter(
    lambda s: s.strip() != ""
)
tags = st.lists(tag, min_size=1, max_size=5)
ident = st.integers(min_value=1, max_value=10_000).map(str)
weight = st.floats(min_value=0, max_value=1, allow_nan=False)
delta = st.floats(min_value=-1, max_value=1, allow_nan=False)
offsets = st.sampled_from(["Z", "+08:00", "-05:00", "+00:00", "+05:30"])


# Strategies a composite draws from are built once, here: one built inside a composite is a new object
# each draw, validated anew (that was a third of the property tests' time), and draws the same values.
coin = st.booleans()
seconds = st.integers(0, 10 * 365 * 86400)


@functools.cache
def index(size: int) -> st.SearchStrategy[int]:
    """An index into a sequence of `size` items (what st.sampled_from draws), one strategy per size."""
    return st.integers(0, size - 1)


def pick(draw, items: list):
    """One of `items`, as draw(st.sampled_from(items)) would choose it."""
    return items[draw(index(len(items)))]


@st.composite
def instant(draw) -> str:
    base = datetime(2020, 1, 1, tzinfo=UTC) + timedelta(seconds=draw(seconds))
    return base.strftime("%Y-%m-%dT%H:%M:%S") + draw(offsets)


duration = st.builds(
    lambda n, unit: f"P{n}{unit}" if unit in "YMWD" else f"PT{n}{unit}",
    st.integers(1, 500),
    st.sampled_from(["Y", "M", "W", "D", "H", "S"]),
)
time_range = st.one_of(
    st.builds(
        lambda a, u: {"relative": "last", "amount": a, "unit": u},
        st.integers(1, 400),
        st.sampled_from(["minutes", "hours", "days", "weeks", "months", "years"]),
    ),
    st.just({"start": "2025-01-01T00:00:00Z", "end": "2025-12-31T23:59:59+08:00"}),
)
filters = st.fixed_dictionaries(
    {},
    optional={
        "has_tags": tags,
        "not_tags": tags,
        "type": st.sampled_from(["note", "task", "event", "笔记"]),
        "time_range": time_range,
        "weight_gte": st.just(0.1),
        "weight_lte": st.just(0.9),
        "limit": st.integers(1, 500),
        "status": st.sampled_from(["active", "archived", "any"]),
        "subject": text,
    },
)
search = st.fixed_dictionaries(
    {"intent": st.fixed_dictionaries({"query": text}, optional={"context": text})},
    optional={
        "overrides": st.fixed_dictionaries(
            {},
            optional={
                "k": st.integers(1, 50),
                "alpha": weight,
                "order_by": st.sampled_from(["relevance", "time_desc", "time_asc", "weight_desc"]),
            },
        ),
        "limit": st.integers(1, 100),
    },
)
targets = st.one_of(
    st.builds(lambda ids: {"ids": ids}, st.lists(ident, min_size=1, max_size=6, unique=True)),
    st.builds(lambda f: {"filter": f}, filters),
    st.builds(lambda s: {"search": s}, search),
    st.builds(lambda s, f: {"search": s, "filter": f}, search, filters),
)
meta = st.fixed_dictionaries(
    {},
    optional={
        "actor": text,
        "lang": st.sampled_from(["en", "zh"]),
        "trace_id": text,
        "timestamp": instant(),
        "dry_run": st.booleans(),
        "confirmation": st.booleans(),
    },
)
facets = st.fixed_dictionaries(
    {},
    optional={
        "subject": text,
        "topic": text,
        "location": text,
        "time": instant(),
        "priority": st.sampled_from(["high", 3, True, ["a", "b"]]),
    },
)

ARGS = {
    "Encode": st.fixed_dictionaries(
        {
            "payload": st.one_of(
                st.builds(lambda t: {"text": t}, text),
                st.just({"url": "https://example.org/x?y=1"}),
                st.builds(lambda d: {"structured": d}, st.dictionaries(text, text, max_size=3)),
            )
        },
        optional={
            "type": text,
            "tags": tags,
            "facets": facets,
            "time": instant(),
            "expire_at": instant(),
            "weight": weight,
            "memory_type": st.sampled_from(["episodic", "semantic"]),
            "sensitivity": st.sampled_from(["standard", "restricted"]),
            "skip_embedding": st.booleans(),
        },
    ),
    "Update": st.builds(
        lambda s: {"set": s},
        st.fixed_dictionaries(
            {"text": text},
            optional={"weight": weight, "topic": text, "tags": tags, "ttl": duration, "time": instant()},
        ),
    ),
    "Label": st.fixed_dictionaries(
        {"tags": tags}, optional={"mode": st.sampled_from(["add", "replace", "remove"])}
    ),
    "Promote": st.one_of(
        st.builds(lambda w: {"weight": w}, weight),
        st.builds(lambda d: {"weight_delta": d}, delta),
        st.just({"remind": {"rrule": "FREQ=WEEKLY;BYDAY=MO", "until": "2026-01-01T00:00:00Z"}}),
    ),
    "Demote": st.one_of(
        st.just({"archive": True}),
        st.builds(lambda w: {"weight": w}, weight),
        st.builds(lambda d: {"weight_delta": d, "reason": "r"}, delta),
    ),
    "Delete": st.fixed_dictionaries(
        {}, optional={"older_than": duration, "reason": text, "soft": st.just(True)}
    ),
    "Split": st.one_of(
        st.just({"strategy": "by_sentences"}),
        st.builds(
            lambda n: {"strategy": "by_chunks", "params": {"by_chunks": {"num_chunks": n}}},
            st.integers(1, 20),
        ),
        st.builds(lambda t: {"strategy": "custom", "params": {"custom": {"instruction": t}}}, text),
    ),
    "Lock": st.fixed_dictionaries(
        {},
        optional={
            "mode": st.sampled_from(["read_only", "append_only", "unlock"]),
            "reason": text,
            "policy": st.just({"allow": ["Retrieve"], "reviewers": ["a"]}),
        },
    ),
    "Expire": st.builds(
        lambda h, a: {**h, "on_expire": a},
        st.one_of(st.builds(lambda d: {"ttl": d}, duration), st.builds(lambda t: {"until": t}, instant())),
        st.sampled_from(["soft_delete", "hard_delete", "demote", "archive", "anonymize", "none"]),
    ),
    "Retrieve": st.fixed_dictionaries(
        {},
        optional={
            "include": st.lists(
                st.sampled_from(["id", "text", "tags", "weight", "time"]), min_size=1, max_size=4, unique=True
            ),
            "as_of": instant(),
        },
    ),
    "Summarize": st.fixed_dictionaries({}, optional={"focus": text, "max_tokens": st.integers(1, 2000)}),
}


VERB = st.sampled_from(sorted(ARGS))


@st.composite
def valid_ir(draw) -> dict:
    op = draw(VERB)
    ir: dict = {"op": op, "args": draw(ARGS[op])}
    if draw(coin):
        ir["stage"] = "ENC" if op == "Encode" else "RET" if op in ("Retrieve", "Summarize") else "STO"
    if op != "Encode":
        ir["target"] = draw(targets)
        if op == "Merge":
            ir["target"] = {"ids": ["1", "2"]}
    m = draw(meta)
    if m:
        ir["meta"] = m
    return ir


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)

KEYS = [
    "op",
    "stage",
    "target",
    "args",
    "meta",
    "ids",
    "filter",
    "search",
    "all",
    "payload",
    "text",
    "set",
    "tags",
    "facets",
    "mode",
    "weight",
    "weight_delta",
    "ttl",
    "until",
    "on_expire",
    "limit",
    "intent",
    "query",
    "time_range",
    "from_step",
    "strategy",
    "params",
    "confirmation",
    "dry_run",
    "soft",
    "workflow",
]
EDITS = st.integers(1, 4)
ACTIONS = st.sampled_from(["drop", "replace", "inject", "wrap", "rename"])
KNOWN_KEY = st.sampled_from(KEYS)
ANY_KEY = KNOWN_KEY | st.text(max_size=8)


@st.composite
def mutated_ir(draw) -> object:
    """A valid IR with 1-4 random edits: drop, replace, retype, inject, or wrap a node."""
    doc = copy.deepcopy(draw(valid_ir()))
    for _ in range(draw(EDITS)):
        containers = []
        stack = [doc]
        while stack:
            node = stack.pop()
            if isinstance(node, dict | list):
                containers.append(node)
                stack.extend(node.values() if isinstance(node, dict) else node)
        if not containers:
            break
        node = pick(draw, containers)
        action = draw(ACTIONS)
        if isinstance(node, dict):
            keys = list(node)
            if action == "inject" or not keys:
                node[draw(ANY_KEY)] = draw(json_values)
            else:
                key = pick(draw, keys)
                if action == "drop":
                    node.pop(key)
                elif action == "replace":
                    node[key] = draw(json_values)
                elif action == "wrap":
                    node[key] = [node[key]]
                else:
                    node[draw(KNOWN_KEY)] = node.pop(key)
        elif node:
            at = draw(index(len(node)))
            if action == "drop":
                node.pop(at)
            else:
                node[at] = draw(json_values)
    return doc
