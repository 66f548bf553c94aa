"""The LLM planner's few-shot library: every example validates, is canonical, fits the reply schema, and
the library covers both languages, all twelve verbs, workflows and clarifications; selection by BM25
picks relevant examples in the instruction's language."""

from __future__ import annotations

import json
from datetime import datetime

import jsonschema
import pytest

from memql.bench.corpus import default_shared_dir
from memql.cognition.planner.examples import Example, ExampleLibrary
from memql.cognition.planner.llm_prompt import detect_lang, reply_schema
from memql.cognition.planner.programs import check_steps
from memql.lang import OPS, json_schema

LIBRARY = ExampleLibrary.default()
SHARED_DATA = default_shared_dir() / "data"


@pytest.mark.parametrize("example", LIBRARY.examples, ids=lambda e: e.id)
def test_every_example_validates_and_is_canonical(example: Example):
    jsonschema.Draft202012Validator(reply_schema()).validate(example.reply)
    assert detect_lang(example.nl) == example.lang
    if example.kind == "clarification":
        assert example.reply["workflow"] == []
        assert example.reply["clarification"]["missing"] and example.reply["clarification"]["question"]
        return
    now = datetime.fromisoformat(example.context["now"]) if "now" in example.context else None
    steps = example.reply["workflow"]
    result, _ = check_steps(steps, now)
    assert result.valid, [str(d) for d in result.diagnostics]
    assert result.diagnostics == []  # no warnings either: examples teach the canonical form
    canonical = result.canonical["workflow"] if len(steps) > 1 else [result.canonical]
    assert [{k: v for k, v in s.items() if k != "meta"} for s in canonical] == steps


def test_the_library_covers_both_languages_every_verb_workflows_and_clarifications():
    for lang in ("en", "zh"):
        examples = [e for e in LIBRARY.examples if e.lang == lang]
        ops = {step["op"] for e in examples for step in e.reply["workflow"]}
        assert ops == set(OPS), f"{lang} misses {set(OPS) - ops}"
        kinds = [e.kind for e in examples]
        assert kinds.count("workflow") >= 2 and kinds.count("clarification") >= 2
        assert any(e.context.get("recent_ids") for e in examples)  # how to use the store context
    ids = [e.id for e in LIBRARY.examples]
    assert len(ids) == len(set(ids))


def test_the_reply_schema_wraps_the_languages_schema():
    schema = reply_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    ir = json_schema("ir", system_verbs=False)  # the planner plans the twelve verbs, not housekeeping
    assert {k: v for k, v in schema["$defs"].items() if k != "IR"} == ir["$defs"]
    assert schema["$defs"]["IR"]["oneOf"] == ir["oneOf"]
    validator = jsonschema.Draft202012Validator(schema)
    assert not validator.is_valid(
        {"workflow": [{"op": "Label", "target": {"ids": ["1"]}, "args": {"tag": ["x"]}}]}
    )
    assert not validator.is_valid({"steps": []})
    assert validator.is_valid({"workflow": [{"op": "Delete", "target": {"ids": ["1"]}, "args": {}}]})


@pytest.mark.parametrize(
    ("text", "lang", "expected_first"),
    [
        ("Merge memories 12 and 13 into 12.", "en", "Merge"),
        ("Please split note 5 into sentences", "en", "Split"),
        ("Unlock memory 4", "en", "Lock"),
        ("把第7条锁定，不许修改", "zh", "Lock"),
        ("给第3条加上旅行标签", "zh", "Label"),
        ("总结一下关于搬家的笔记", "zh", "Summarize"),
    ],
)
def test_selection_puts_a_relevant_example_first(text, lang, expected_first):
    chosen = LIBRARY.select(text, lang, k=8)
    assert len(chosen) == 8
    assert chosen[0].kind == expected_first and chosen[0].lang == lang
    assert sum(e.lang == lang for e in chosen) >= 6
    assert any(e.kind == "clarification" for e in chosen)
    assert chosen == LIBRARY.select(text, lang, k=8)  # deterministic


def test_selection_tops_up_with_other_verbs_when_nothing_matches():
    chosen = LIBRARY.select("xyzzy", "en", k=8)
    assert len(chosen) == 8 and len({e.kind for e in chosen}) == 8
    assert LIBRARY.select("xyzzy", "en", k=0) == []


def test_a_small_custom_library_is_usable():
    line = json.dumps(
        {
            "id": "mine",
            "lang": "en",
            "nl": "Forget note 1.",
            "reply": {
                "workflow": [
                    {"stage": "STO", "op": "Delete", "target": {"ids": ["1"]}, "args": {"soft": True}}
                ]
            },
        }
    )
    from memql.cognition.planner.examples import parse_example

    library = ExampleLibrary([parse_example(line)])
    assert [e.id for e in library.select("forget note 2", "en", k=3)] == ["mine"]
    with pytest.raises(ValueError):
        ExampleLibrary([])


@pytest.mark.shared_data
@pytest.mark.skipif(not (SHARED_DATA / "text2mem-bench-dev.jsonl").is_file(), reason="../shared/data absent")
def test_no_example_is_taken_from_the_bench_data():
    texts: set[str] = set()
    lines = []
    for name in ("text2mem-bench-dev.jsonl", "text2mem-bench-v1-merge-split-dev.jsonl"):
        if (SHARED_DATA / name).is_file():
            lines += (SHARED_DATA / name).read_text(encoding="utf-8").splitlines()
    for line in lines:
        if line.strip():
            nl = json.loads(line).get("nl")
            values = nl.values() if isinstance(nl, dict) else [nl]
            texts.update(v.strip() for v in values if isinstance(v, str))
    assert len(texts) > 100
    assert not {e.nl for e in LIBRARY.examples} & texts
