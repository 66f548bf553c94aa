"""The LLM planner end to end against a local HTTP server speaking the OpenAI chat API (tests/chat_server.py).

The server plays the model: it receives the real prompt (these tests check that the schema, the chosen
examples and the store context are in it) and answers with scripted replies. This exercises the HTTP path
and the validate -> repair loop; it does not, and cannot, measure how well a real model plans.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from chat_server import words
from memql.cognition.planner import PlanContext, make_planner
from memql.cognition.planner.examples import ExampleLibrary
from memql.cognition.planner.llm import FIRST_ROUND_CONFIDENCE, REPAIR_FACTOR, LLMPlanner
from memql.cognition.planner.llm_prompt import reply_schema
from memql.lang import OPS, json_schema
from memql.services.llm import OpenAIChat

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
CONTEXT = PlanContext(
    now=NOW, tags=("work", "travel", "budget"), recent_ids=("9", "8", "7"), types=("note", "task")
)
LABEL = {"op": "Label", "target": {"ids": ["9"]}, "args": {"tags": ["budget"]}}
LABEL_CANONICAL = {
    "stage": "STO",
    "op": "Label",
    "target": {"ids": ["9"]},
    "args": {"tags": ["budget"], "mode": "add"},
}


def reply(*steps: dict) -> str:
    return json.dumps({"workflow": list(steps)})


@pytest.fixture
def llm(provider):
    client = OpenAIChat(provider.url, "test-planner", timeout=2.0, max_retries=1, backoff=0.01)
    yield client
    client.close()


@pytest.fixture
def planner(llm):
    return LLMPlanner(llm=llm)


def user_turns(body: dict) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


# -- a valid plan at once --------------------------------------------------------------------------------


def test_a_valid_reply_becomes_the_plan_and_the_prompt_carries_schema_examples_and_context(provider, planner):
    provider.replies = [reply(LABEL)]
    plan = planner.plan("Tag the last note I saved with budget.", context=CONTEXT)

    assert plan.ok and plan.program == LABEL_CANONICAL
    assert plan.planner == "llm" and plan.lang == "en" and not plan.destructive
    assert plan.confidence == FIRST_ROUND_CONFIDENCE and plan.diagnostics == []

    (request,) = provider.requests
    body = request["body"]
    # the reply is constrained by the language's own schema, wrapped as {"workflow": [IR, ...]}
    schema = body["response_format"]["json_schema"]["schema"]
    assert body["response_format"]["type"] == "json_schema"
    assert schema == reply_schema()
    assert schema["$defs"]["LabelIR"] == json_schema("ir")["$defs"]["LabelIR"]
    assert schema["properties"]["workflow"]["items"] == {"$ref": "#/$defs/IR"}
    # the system prompt explains every verb
    system = body["messages"][0]
    assert system["role"] == "system" and all(f"- {op}:" in system["content"] for op in OPS)
    # the examples: chosen by relevance, each a user turn and the assistant's canonical reply
    shown = plan.stats["examples"]
    library = {e.id: e for e in ExampleLibrary.default().examples}
    assert len(shown) == 8 and "en-context-recent" in shown  # "the last note I saved" -> that example
    turns = body["messages"][1:-1]
    assert len(turns) == 2 * len(shown)
    for example_id in shown:
        example = library[example_id]
        at = next(i for i, m in enumerate(turns) if m["role"] == "user" and example.nl in m["content"])
        assert json.loads(turns[at + 1]["content"]) == example.reply
    assert any(library[i].kind == "clarification" for i in shown)
    # the instruction and the store context, last
    last = body["messages"][-1]
    assert last["role"] == "user"
    assert "Instruction: Tag the last note I saved with budget." in last["content"]
    assert "Now: 2026-03-04T10:00:00+00:00 (Wednesday)" in last["content"]
    assert "Tags in use: work, travel, budget" in last["content"]
    assert "Recent ids (newest first): 9, 8, 7" in last["content"]
    assert "Types in use: note, task" in last["content"]
    assert body["temperature"] == 0.0 and body["max_tokens"] == 2048

    prompt_words = sum(words(m["content"]) for m in body["messages"])
    assert plan.stats["calls"] == 1 and plan.stats["rounds"] == 1 and plan.stats["repairs"] == 0
    assert plan.stats["prompt_tokens"] == prompt_words
    assert plan.stats["completion_tokens"] == words(reply(LABEL))
    assert plan.stats["tokens"] == prompt_words + words(reply(LABEL))


def test_a_chinese_instruction_is_read_as_chinese_with_chinese_examples(provider, planner):
    provider.replies = [reply({"op": "Delete", "target": {"ids": ["11"]}})]
    plan = planner.plan("删除第11条记忆。", context=CONTEXT)
    assert plan.ok and plan.lang == "zh"
    assert plan.program == {"stage": "STO", "op": "Delete", "target": {"ids": ["11"]}, "args": {"soft": True}}
    assert plan.stats["examples"][0] == "zh-delete-soft"
    assert "Language: zh" in user_turns(provider.bodies()[0])[-1]


def test_a_workflow_reply_and_a_bare_ir_in_code_fences_are_read(provider, planner):
    provider.replies = [
        reply(
            {"op": "Encode", "args": {"payload": {"text": "Buy oat milk"}, "tags": ["shopping"]}},
            {"op": "Promote", "target": {"from_step": 0}, "args": {"remind": {"rrule": "FREQ=DAILY"}}},
        ),
        '<think>the user wants a retrieve</think>\n```json\n{"op": "Retrieve", "target": {"search": '
        '{"intent": {"query": "oat milk"}}}}\n```',
    ]
    plan = planner.plan("Save 'buy oat milk' as shopping, then remind me daily.", context=CONTEXT)
    assert plan.ok and [s["op"] for s in plan.program["workflow"]] == ["Encode", "Promote"]
    assert plan.program["workflow"][1]["target"] == {"from_step": 0}
    plan = planner.plan("What did I note about oat milk?", context=CONTEXT)
    assert plan.ok and plan.program["op"] == "Retrieve" and plan.stats["rounds"] == 1


# -- repair --------------------------------------------------------------------------------------------


def test_an_invalid_first_answer_is_repaired_on_the_second_round(provider, planner):
    bad = reply(LABEL, {"op": "Expire", "target": {"from_step": 0}, "args": {"ttl": "P30D"}})
    good = reply(
        LABEL, {"op": "Expire", "target": {"from_step": 0}, "args": {"ttl": "P30D", "on_expire": "archive"}}
    )
    provider.replies = [bad, good]
    plan = planner.plan("Tag note 9 with budget and archive it in 30 days.", context=CONTEXT)

    assert plan.ok and plan.program["workflow"][1]["args"] == {"ttl": "P30D", "on_expire": "archive"}
    assert plan.stats["rounds"] == 2 and plan.stats["repairs"] == 1 and plan.stats["calls"] == 2
    assert plan.confidence == round(FIRST_ROUND_CONFIDENCE * REPAIR_FACTOR, 3) < FIRST_ROUND_CONFIDENCE

    first, second = provider.bodies()
    assert (
        second["messages"][: len(first["messages"])] == first["messages"]
    )  # the same conversation, continued
    answer, repair = second["messages"][len(first["messages"]) :]
    assert answer == {"role": "assistant", "content": bad}
    assert repair["role"] == "user"
    assert "/workflow/1/args" in repair["content"] and "[expire.on_expire]" in repair["content"]
    assert plan.stats["prompt_tokens"] == sum(
        words(m["content"]) for m in first["messages"] + second["messages"]
    )


def test_a_reply_that_is_not_json_is_sent_back(provider, planner):
    provider.replies = ["Sure! I will label note 9 for you.", reply(LABEL)]
    plan = planner.plan("Tag note 9 with budget.", context=CONTEXT)
    assert plan.ok and plan.program == LABEL_CANONICAL and plan.stats["rounds"] == 2
    assert "the reply is not JSON" in provider.bodies()[1]["messages"][-1]["content"]


def test_one_step_paths_point_into_the_workflow_the_model_wrote(provider, planner):
    provider.replies = [
        reply({"op": "Label", "target": {"ids": ["9"]}, "args": {"tag": ["budget"]}}),
        reply(LABEL),
    ]
    assert planner.plan("Tag note 9 with budget.", context=CONTEXT).ok
    repair = provider.bodies()[1]["messages"][-1]["content"]
    assert "/workflow/0/args/tag: unknown field 'tag'; did you mean 'tags'? [field.unknown]" in repair


def test_a_never_valid_answer_gives_up_with_diagnostics(provider, llm):
    bad = reply({"op": "Promote", "target": {"ids": ["9"]}, "args": {"weight": 3}})
    provider.replies = [bad] * 5
    plan = LLMPlanner(llm=llm, max_repairs=2).plan("Make note 9 very important.", context=CONTEXT)

    assert plan.program is None and not plan.ok and plan.confidence == 0.0
    assert len(provider.requests) == 3  # one answer and two repairs, then it stops
    rules = [d.rule for d in plan.diagnostics]
    assert rules[-1] == "plan.invalid_reply" and "after 3 round(s)" in plan.diagnostics[-1].message
    (range_error,) = [d for d in plan.diagnostics if d.rule == "field.range"]
    assert range_error.path == "/workflow/0/args/weight"
    assert plan.stats["rounds"] == 3 and plan.stats["calls"] == 3


def test_no_repairs_allowed_means_one_round(provider, llm):
    provider.replies = ['{"workflow": []}', reply(LABEL)]
    plan = LLMPlanner(llm=llm, max_repairs=0).plan("Tag note 9.", context=CONTEXT)
    assert plan.program is None and len(provider.requests) == 1
    assert [d.rule for d in plan.diagnostics] == ["plan.invalid_reply", "plan.invalid_reply"]
    assert "the workflow is empty" in plan.diagnostics[0].message


# -- clarification and safety ------------------------------------------------------------------------------


def test_a_clarification_is_a_plan_without_a_program(provider, planner):
    provider.replies = [
        json.dumps(
            {
                "workflow": [],
                "clarification": {"missing": ["target"], "question": "Which note should I delete?"},
            }
        )
    ]
    plan = planner.plan("Delete it.", context=PlanContext(now=NOW))
    assert plan.program is None and not plan.ok and plan.confidence == 0.0
    (diag,) = plan.diagnostics
    assert (
        diag.rule == "plan.clarify"
        and "Which note should I delete?" in diag.message
        and "target" in diag.message
    )
    assert plan.stats["missing"] == ["target"] and plan.stats["calls"] == 1


def test_a_clarification_wins_over_steps_written_beside_it(provider, planner):
    provider.replies = [
        json.dumps(
            {
                "workflow": [{"op": "Delete", "target": {"all": True}, "args": {"soft": False}}],
                "clarification": {"missing": ["scope"], "question": "Everything?"},
            }
        )
    ]
    plan = planner.plan("Wipe it all.", context=CONTEXT)
    assert plan.program is None and [d.rule for d in plan.diagnostics] == ["plan.clarify"]


@pytest.mark.parametrize(
    ("step", "destructive"),
    [
        ({"op": "Delete", "target": {"ids": ["9"]}, "args": {"soft": False}}, True),
        ({"op": "Delete", "target": {"all": True}}, True),
        ({"op": "Lock", "target": {"ids": ["9"]}, "args": {"mode": "read_only"}}, True),
        ({"op": "Lock", "target": {"ids": ["9"]}, "args": {"mode": "unlock"}}, True),
        (
            {"op": "Expire", "target": {"ids": ["9"]}, "args": {"ttl": "P1D", "on_expire": "hard_delete"}},
            True,
        ),
        ({"op": "Delete", "target": {"ids": ["9"]}}, True),  # a soft delete is confirmed too
        (LABEL, False),
    ],
)
def test_destructive_plans_are_flagged_and_the_models_meta_is_not_trusted(
    provider, planner, step, destructive
):
    provider.replies = [reply({**step, "meta": {"actor": "root", "dry_run": False, "confirmation": False}})]
    plan = planner.plan("do it", context=CONTEXT)
    assert plan.ok and plan.destructive is destructive
    meta = plan.program.get("meta")
    if step["op"] == "Delete" and (step.get("args", {}).get("soft") is False or "all" in step["target"]):
        assert meta == {"confirmation": True}  # the language requires it; the caller must still confirm
    else:
        assert meta is None  # the model's actor, dry_run and confirmation are dropped


# -- failures that are not the model's plan ------------------------------------------------------------------


def test_a_server_error_is_a_diagnostic_not_an_exception(provider, planner):
    provider.script = ["500", "500"]
    plan = planner.plan("Tag note 9 with budget.", context=CONTEXT)
    assert plan.program is None and plan.confidence == 0.0
    (diag,) = plan.diagnostics
    assert (
        diag.rule == "plan.llm_error"
        and "HTTP 500" in diag.message
        and "gave up after 2 attempts" in diag.message
    )
    assert plan.stats["status"] == 500 and plan.stats["calls"] == 0 and plan.stats["rounds"] == 1


def test_an_unreachable_server_is_a_diagnostic(provider):
    closed = OpenAIChat("http://127.0.0.1:9/v1", "m", timeout=0.5, max_retries=0)  # port 9: discard, closed
    plan = LLMPlanner(llm=closed).plan("Tag note 9.", context=CONTEXT)
    (diag,) = plan.diagnostics
    assert diag.rule == "plan.llm_error" and "no response" in diag.message
    assert plan.stats["status"] is None


def test_a_server_without_structured_output_gets_the_schema_in_the_prompt(provider, planner):
    provider.reject_formats = {"json_schema", "json_object"}
    provider.replies = [reply(LABEL)]
    plan = planner.plan("Tag note 9 with budget.", context=CONTEXT)
    assert plan.ok and plan.program == LABEL_CANONICAL
    sent = provider.bodies()[-1]
    assert "response_format" not in sent
    assert '"LabelIR"' in sent["messages"][0]["content"]  # the schema travels in the system prompt
    assert plan.stats["calls"] == 1


def test_an_empty_instruction_asks_without_calling_the_model(provider, planner):
    plan = planner.plan("   ", context=CONTEXT)
    assert [d.rule for d in plan.diagnostics] == ["plan.clarify"] and provider.requests == []


def test_without_a_configured_llm_the_plan_says_so(provider):
    plan = make_planner("llm").plan("Tag note 9 with budget.")
    assert plan.program is None and [d.rule for d in plan.diagnostics] == ["plan.no_llm"]
    assert "MEMQL_LLM_BASE_URL" in plan.diagnostics[0].message and provider.requests == []


def test_a_half_configured_llm_names_the_missing_variable(provider, monkeypatch):
    monkeypatch.setenv("MEMQL_LLM_BASE_URL", provider.url)
    plan = make_planner("llm").plan("Tag note 9 with budget.")
    assert [d.rule for d in plan.diagnostics] == ["plan.no_llm"] and "MEMQL_LLM_MODEL" in plan.diagnostics[
        0
    ].message


def test_make_planner_uses_the_llm_from_the_environment(provider, monkeypatch):
    monkeypatch.setenv("MEMQL_LLM_BASE_URL", provider.url)
    monkeypatch.setenv("MEMQL_LLM_MODEL", "qwen2.5:7b")
    provider.replies = [reply(LABEL)]
    plan = make_planner("llm", max_repairs=1).plan("Tag note 9 with budget.", context=CONTEXT)
    assert plan.ok and plan.program == LABEL_CANONICAL
    assert provider.bodies()[0]["model"] == "qwen2.5:7b"


def test_now_comes_from_the_clock_when_the_context_has_none(provider, llm):
    from memql.ports.clock import FixedClock

    provider.replies = [reply(LABEL)]
    LLMPlanner(llm=llm, clock=FixedClock(NOW)).plan("Tag note 9 with budget.")
    assert "Now: 2026-03-04T10:00:00+00:00" in user_turns(provider.bodies()[0])[-1]
