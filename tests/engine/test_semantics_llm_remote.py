"""The engine with the real LLM client (OpenAIChat) against a local OpenAI-compatible HTTP server: each
result's stats count that call's LLM calls and tokens (not the client's running totals), and a model
service that keeps failing refuses the op cleanly — rolled back, a diagnostic, no traceback; and a plan
from the LLM planner runs on the store as it is (a destructive one carries what the language requires, and
only previews when run as a dry run)."""

from __future__ import annotations

import json

import pytest

from chat_server import words
from memql.cognition.planner import PlanContext
from memql.cognition.planner.llm import LLMPlanner
from memql.services.llm import OpenAIChat


@pytest.fixture
def llm(provider):
    client = OpenAIChat(provider.url, "test-chat", timeout=2.0, max_retries=1, backoff=0.01)
    yield client
    client.close()


def test_each_result_counts_its_own_llm_calls_and_tokens(memory, db, provider, llm):
    m = memory(llm=llm)
    m.encode("Bob proposed a budget of 10k.")
    m.encode("Alice said the budget may grow next quarter.")
    provider.replies = ["Budget 10k, may grow.", "Alice expects growth."]

    first = m.summarize(ids=["1", "2"], max_tokens=40)
    assert first.success and first.data["summary"] == "Budget 10k, may grow."
    prompt = sum(words(msg["content"]) for msg in provider.bodies()[0]["messages"])
    assert first.stats.llm_calls == 1
    assert first.stats.llm_tokens == prompt + words("Budget 10k, may grow.")

    second = m.summarize(ids=["2"], max_tokens=40, focus="Alice")
    prompt = sum(words(msg["content"]) for msg in provider.bodies()[1]["messages"])
    assert second.stats.llm_calls == 1
    assert second.stats.llm_tokens == prompt + words("Alice expects growth.")  # not the running total
    assert llm.usage.calls == 2
    assert provider.bodies()[1]["max_tokens"] == 40

    assert m.retrieve(ids=["1"]).stats.llm_calls == 0  # no model involved, nothing counted
    assert m.retrieve(ids=["1"]).stats.llm_tokens == 0


def test_a_failing_model_service_refuses_the_op_and_writes_nothing(memory, db, provider, llm):
    m = memory(llm=llm)
    m.encode("Bob proposed a budget of 10k.")
    m.encode("Alice said the budget may grow next quarter.")
    provider.script = ["503", "503"]
    result = m.summarize(ids=["1", "2"])
    assert not result.success
    (diag,) = result.diagnostics
    assert diag.rule == "exec.internal"
    assert (
        "LLMError" in diag.message
        and "HTTP 503" in diag.message
        and "gave up after 2 attempts" in diag.message
    )
    assert db.ids(m) == ["1", "2"]  # the summary record was rolled back
    assert result.stats.llm_calls == 0


def test_an_llm_plan_runs_on_the_store_and_a_destructive_one_only_previews_unconfirmed(
    memory, db, provider, llm, t0
):
    m = memory()
    m.encode("Flight to Lisbon on May 2, seat 14C.")
    m.encode("Hotel booking reference QX-7781.")
    planner = LLMPlanner(llm=llm)
    context = PlanContext(now=t0, recent_ids=("2", "1"))

    provider.replies = [
        json.dumps(
            {
                "workflow": [
                    {"op": "Label", "target": {"ids": ["1", "2"]}, "args": {"tags": ["travel"]}},
                    {"op": "Promote", "target": {"from_step": 0}, "args": {"weight": 0.9}},
                ]
            }
        )
    ]
    plan = planner.plan("Tag both trip notes as travel and make them important.", context=context)
    assert plan.ok and not plan.destructive
    result = m.execute(plan.program)
    assert result.success and result.affected_ids == ["1", "2"]
    assert db.record(m, "1").tags == ["travel"] and db.record(m, "2").weight == 0.9

    provider.replies = [
        json.dumps({"workflow": [{"op": "Delete", "target": {"ids": ["2"]}, "args": {"soft": False}}]})
    ]
    plan = planner.plan("Erase the hotel note for good.", context=context)
    assert plan.ok and plan.destructive
    preview = m.execute(plan.program, dry_run=True)  # what a caller shows before asking for confirmation
    assert preview.success and preview.dry_run
    assert db.record(m, "2") is not None
    confirmed = m.execute(plan.program)
    assert confirmed.success and db.record(m, "2") is None
