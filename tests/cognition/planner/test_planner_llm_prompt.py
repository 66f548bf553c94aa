"""Reading a model's reply and checking the steps: whatever a model writes, the planner gets steps, a
clarification or a list of problems to send back — never an exception; and the destructive flag."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.cognition.planner.base import PlanContext
from memql.cognition.planner.llm_prompt import detect_lang, read_reply, render_request
from memql.cognition.planner.programs import check_steps, is_destructive

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
DELETE = {"op": "Delete", "target": {"ids": ["1"]}}


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        (json.dumps({"workflow": [DELETE]}), [DELETE]),
        (json.dumps(DELETE), [DELETE]),  # a bare IR
        (json.dumps([DELETE, DELETE]), [DELETE, DELETE]),  # a bare list
        ("```json\n" + json.dumps({"workflow": [DELETE]}) + "\n```", [DELETE]),
        ("<think>hmm {not json}</think>" + json.dumps({"workflow": [DELETE]}), [DELETE]),
        ("Here is the plan: " + json.dumps(DELETE) + " Hope it helps!", [DELETE]),
    ],
)
def test_replies_are_read_in_the_shapes_models_write(text, steps):
    reply = read_reply(text)
    assert reply.steps == steps and reply.problems == [] and reply.clarification is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("I cannot do that.", "not JSON"),
        ('"a string"', "must be a JSON object"),
        ('{"workflow": "Delete 1"}', "must be a list"),
        ('{"workflow": []}', "the workflow is empty"),
        ('{"plan": []}', "unknown top-level field(s) plan"),
        (json.dumps({"workflow": [DELETE] * 21}), "at most 20"),
        ("[" * 5000 + "]" * 5000, "nests"),
        (
            json.dumps(
                {
                    "workflow": [
                        {"op": "Encode", "args": {"payload": {"structured": [[[[[[[[[[]]]]]]]]]] * 1}}}
                    ]
                }
            )
            .replace("[[", "[" * 70 + "[[")
            .replace("]]", "]" * 70 + "]]"),
            "nests deeper than 64",
        ),
    ],
)
def test_unusable_replies_become_problems_for_the_model(text, problem):
    reply = read_reply(text)
    assert reply.steps is None and reply.clarification is None
    assert len(reply.problems) == 1 and problem in reply.problems[0]


def test_clarifications_are_read_in_either_shape():
    assert read_reply(
        '{"workflow": [], "clarification": {"missing": ["target"], "question": "Which?"}}'
    ).clarification == {
        "missing": ["target"],
        "question": "Which?",
    }
    assert read_reply('{"workflow": [], "clarification": "Which note?"}').clarification == {
        "question": "Which note?"
    }


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=30,
)
ir_like = st.fixed_dictionaries(
    {"op": st.sampled_from(["Encode", "Delete", "Lock", "Label", "Nope", 3])},
    optional={"target": json_values, "args": json_values, "meta": json_values},
)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.one_of(
        st.text(max_size=200),
        json_values.map(json.dumps),
        st.lists(ir_like, max_size=3).map(lambda steps: json.dumps({"workflow": steps})),
    )
)
def test_any_reply_is_read_and_checked_without_raising(text):
    reply = read_reply(text)
    assert (reply.steps is not None) + (reply.clarification is not None) + bool(reply.problems) == 1
    if reply.steps is not None:
        result, destructive = check_steps(reply.steps, NOW)
        assert destructive is False or result.valid
        if result.valid:
            program = result.canonical
            assert all(
                "meta" not in s or set(s["meta"]) == {"confirmation"}
                for s in program.get("workflow", [program])
            )


def test_confirmation_is_added_only_where_the_language_requires_it():
    result, destructive = check_steps(
        [
            {"op": "Retrieve", "target": {"all": True}},
            {
                "op": "Label",
                "target": {"from_step": 0},
                "args": {"tags": ["seen"]},
                "meta": {"confirmation": True},
            },
            {"op": "Delete", "target": {"ids": ["3"]}, "args": {"soft": False}, "meta": {"actor": "root"}},
        ],
        NOW,
    )
    assert result.valid and destructive
    metas = [step.get("meta") for step in result.canonical["workflow"]]
    assert metas == [{"confirmation": True}, None, {"confirmation": True}]


def test_is_destructive():
    assert not is_destructive(None)
    assert is_destructive({"op": "Delete", "target": {"ids": ["1"]}, "args": {"soft": True}})  # soft too
    assert not is_destructive({"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["x"]}})
    assert is_destructive(
        {"workflow": [{"op": "Label", "target": {"ids": ["1"]}}, {"op": "Lock", "target": {"ids": ["1"]}}]}
    )
    assert is_destructive({"op": "Expire", "target": {"ids": ["1"]}, "args": {"on_expire": "hard_delete"}})
    assert not is_destructive({"op": "Expire", "target": {"ids": ["1"]}, "args": {"on_expire": "archive"}})


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Delete note 3", "en"),
        ("删除第3条", "zh"),
        ("把 note 3 标记为重要", "zh"),
        ("Tag it 重要 please now", "en"),
        ("", "en"),
    ],
)
def test_detect_lang(text, lang):
    assert detect_lang(text) == lang


def test_render_request_limits_the_context():
    context = PlanContext(
        now=NOW, tags=tuple(f"t{i}" for i in range(100)), recent_ids=tuple(str(i) for i in range(50))
    )
    text = render_request("Tag it", "en", context)
    assert "t39" in text and "t40" not in text
    assert "Recent ids (newest first): 0, 1," in text and ", 19" in text and ", 20" not in text
    assert render_request("Tag it", "en", None) == "Instruction: Tag it\nLanguage: en"
