"""memql's own Text2Mem Bench set (memql-v1): generated, paired English/Chinese samples with strong
assertions.

How a sample is made (docs/bench-set.md has the long version):

1. A *form* (forms_*.py) is a kind of scenario — a verb and a way of using it ("Label remove by ids",
   "Expire by ttl, then archive", "Encode, then lock it"), direct or indirect — made `count` times.
2. For each of those, a Builder with a random generator seeded by (SEED, form, index) runs the form's
   template twice, once per language. The template draws records from the bilingual content bank
   (content.py), writes them as `prerequisites` Encodes, writes the gold program and the instruction.
   Both runs make the same random choices, so the two samples of a scenario share records, ids, times,
   weights and program; only the words differ.
3. The generator's model of the verbs (world.py, verbs.py — written from DESIGN §5, not from the engine)
   applies the program to the records and turns the post-state into assertions over the `memory` view:
   one per record, on every field the instruction determines, plus the row count. A Retrieve gets a
   ranking check that its hits are exactly the gold ids.
4. Gold programs and prerequisites are validated and written in canonical form.

`python -m benchmarks.memql_set --out FILE` writes the set; the same code and SEED give the same bytes.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from benchmarks.memql_set.builder import Builder, Form
from benchmarks.memql_set.world import GenerationError

SET_NAME = "memql-v1"
SEED = 20251122
LANGS = ("en", "zh")


def forms() -> list[Form]:
    from benchmarks.memql_set import (
        forms_annotate,
        forms_lifecycle,
        forms_read,
        forms_restructure,
        forms_weight,
        forms_workflow,
    )

    return [
        *forms_read.FORMS,
        *forms_annotate.FORMS,
        *forms_weight.FORMS,
        *forms_lifecycle.FORMS,
        *forms_restructure.FORMS,
        *forms_workflow.FORMS,
    ]


def build(seed: int = SEED) -> list[dict[str, Any]]:
    """Every sample of the set, in a fixed order (form, index, language)."""
    samples: list[dict[str, Any]] = []
    for form in forms():
        for index in range(form.count):
            pair = []
            for lang in LANGS:
                builder = Builder(form, index, lang, seed)
                form.build(builder)
                pair.append(builder.sample())
            check_pair(*pair)
            samples += pair
    ids = Counter(s["id"] for s in samples)
    twice = [i for i, n in ids.items() if n > 1]
    if twice:
        raise GenerationError(f"sample ids repeat: {twice[:5]}")
    return samples


def check_pair(en: dict[str, Any], zh: dict[str, Any]) -> None:
    """The two languages of a scenario must share its skeleton: records (ids, times, weights, types),
    the program's verbs, selectors, ids and numbers, the eval time and the shape of every assertion."""
    if skeleton(en) != skeleton(zh):
        raise GenerationError(f"{en['scenario']}: the English and Chinese samples differ beyond their words")


def skeleton(sample: dict[str, Any]) -> Any:
    """A sample with every string that is words (not an id, time, enum or SQL) replaced by a marker."""

    def strip(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: strip(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v, key) for v in value]
        if isinstance(value, str) and not _structural(value, key):
            return "<words>"
        return value

    top = {k: v for k, v in sample.items() if k not in ("id", "nl", "class")}
    return strip(top), {k: v for k, v in sample["class"].items() if k != "lang"}


_STRUCTURAL_KEYS = {
    "op",
    "stage",
    "type",
    "mode",
    "strategy",
    "on_expire",
    "relative",
    "unit",
    "name",
    "from",
    "dialect",
    "eval_time_utc",
    "scenario",
    "ids",
    "gold_ids",
    "primary_id",
    "time",
    "start",
    "end",
    "until",
    "expire_at",
    "ttl",
    "rrule",
    "op_",
    "status",
    "weight",
    "notes",
    "lang",
}


def _structural(value: str, key: str) -> bool:
    if key in _STRUCTURAL_KEYS or key.startswith(("facet_path", "next_remind")):
        return True
    if any(w in value for w in ("SELECT", "abs(weight", "instr(", " = :", " IS ")):
        return True  # SQL
    return value.isdigit() or (len(value) == 20 and value.endswith("Z") and value[4] == "-")


def dumps(samples: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in samples)


def verb_of(sample: dict[str, Any]) -> str:
    """The row a sample counts under: its verb when single, `workflow` otherwise."""
    steps = sample["schema_list"]
    return steps[0]["op"] if len(steps) == 1 else "workflow"


def coverage(samples: Iterable[dict[str, Any]]) -> str:
    """Markdown tables: samples by verb × language × instruction type × structure; the workflows' verb
    chains; and every verb's appearances in any step (workflows included)."""
    samples = list(samples)
    columns = [(lang, kind) for lang in LANGS for kind in ("direct", "indirect")]
    rows: dict[str, Counter] = defaultdict(Counter)
    chains: Counter = Counter()
    anywhere: Counter = Counter()
    forms_per_verb: dict[str, set[str]] = defaultdict(set)
    for s in samples:
        cls = s["class"]
        rows[verb_of(s)][(cls["lang"], cls["instruction_type"])] += 1
        ops = [step["op"] for step in s["schema_list"]]
        if len(ops) > 1:
            chains[" → ".join(ops)] += 1
        for op in set(ops):
            anywhere[op] += 1
        forms_per_verb[verb_of(s)].add((s["scenario"].rsplit("-", 1)[0], cls["instruction_type"]))
    order = [
        "Encode",
        "Retrieve",
        "Summarize",
        "Update",
        "Label",
        "Promote",
        "Demote",
        "Merge",
        "Delete",
        "Split",
        "Lock",
        "Expire",
        "workflow",
    ]
    head = "| verb | forms | " + " | ".join(f"{lang} {kind}" for lang, kind in columns) + " | total |"
    lines = [head, "|" + "---|" * (len(columns) + 3)]
    totals: Counter = Counter()
    for verb in order:
        counts = rows.get(verb, Counter())
        totals.update(counts)
        cells = " | ".join(str(counts[c]) for c in columns)
        lines.append(f"| {verb} | {len(forms_per_verb[verb])} | {cells} | {sum(counts.values())} |")
    lines.append(
        f"| **all** | {sum(len(v) for v in forms_per_verb.values())} | "
        + " | ".join(str(totals[c]) for c in columns)
        + f" | {sum(totals.values())} |"
    )
    lines += ["", "| workflow (steps) | samples |", "|---|---|"]
    lines += [f"| {chain} | {n} |" for chain, n in sorted(chains.items(), key=lambda kv: (-kv[1], kv[0]))]
    lines += ["", "| verb | samples using it in any step |", "|---|---|"]
    lines += [f"| {verb} | {anywhere[verb]} |" for verb in order[:-1]]
    return "\n".join(lines) + "\n"
