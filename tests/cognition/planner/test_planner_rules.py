"""The rules planner on a table of English and Chinese instructions -> the exact canonical IR, plus
multi-step instructions, clarifications, and properties (deterministic, never raises, always valid)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memql.cognition.planner import PlanContext, make_planner
from memql.lang import validate

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)  # a Wednesday
CONTEXT = PlanContext(
    now=NOW,
    tags=("budget", "launch", "meeting", "travel", "预算", "会议", "旅行"),
    recent_ids=("7", "6", "5"),
    types=("note", "task"),
)
PLANNER = make_planner("rules")


def plan(text: str, context: PlanContext = CONTEXT):
    return PLANNER.plan(text, context=context)


def canonical(program: dict) -> dict:
    checked = validate(program, now=NOW)
    assert checked.valid, checked.diagnostics
    return checked.canonical


# (instruction, the program it means, written short: validation spells out the defaults)
SINGLE_STEPS = [
    (
        "Remember that the Lisbon offsite is in May",
        {
            "op": "Encode",
            "args": {"payload": {"text": "The Lisbon offsite is in May"}, "tags": ["Lisbon offsite"]},
        },
    ),
    (
        "Save a note: the office wifi password is hunter2, tagged 'office'",
        {
            "op": "Encode",
            "args": {
                "payload": {"text": "The office wifi password is hunter2"},
                "tags": ["office", "office wifi password", "hunter2"],
            },
        },
    ),
    (
        "Add a task: book flights to Lisbon",
        {
            "op": "Encode",
            "args": {
                "payload": {"text": "Book flights to Lisbon"},
                "type": "task",
                "tags": ["book flights", "Lisbon"],
            },
        },
    ),
    (
        "Find my notes about the launch",
        {"op": "Retrieve", "target": {"filter": {"has_tags": ["launch"], "type": "note"}}},
    ),
    (
        "Search for anything about hotel bookings from last week",
        {
            "op": "Retrieve",
            "target": {
                "filter": {"time_range": {"relative": "last", "amount": 1, "unit": "weeks"}},
                "search": {"intent": {"query": "hotel bookings"}},
            },
        },
    ),
    (
        "Show me the 3 most recent notes",
        {"op": "Retrieve", "target": {"filter": {"type": "note", "limit": 3}}},
    ),
    ("What did I save about the budget?", {"op": "Retrieve", "target": {"filter": {"has_tags": ["budget"]}}}),
    (
        "Find notes from last Friday",
        {
            "op": "Retrieve",
            "target": {
                "filter": {
                    "time_range": {"start": "2026-02-27T00:00:00Z", "end": "2026-02-28T00:00:00Z"},
                    "type": "note",
                }
            },
        },
    ),
    (
        "Summarize my meeting notes from yesterday",
        {
            "op": "Summarize",
            "target": {
                "filter": {
                    "time_range": {"start": "2026-03-03T00:00:00Z", "end": "2026-03-04T00:00:00Z"},
                    "has_tags": ["meeting"],
                    "type": "note",
                }
            },
        },
    ),
    (
        "Give me a brief summary of the budget notes",
        {
            "op": "Summarize",
            "target": {"filter": {"has_tags": ["budget"], "type": "note"}},
            "args": {"max_tokens": 100},
        },
    ),
    (
        "Update record 12 to say the meeting moved to Thursday",
        {
            "op": "Update",
            "target": {"ids": ["12"]},
            "args": {"set": {"text": "The meeting moved to Thursday"}},
        },
    ),
    (
        "Change the priority of the launch notes to high",
        {
            "op": "Promote",
            "target": {"filter": {"has_tags": ["launch"], "type": "note"}},
            "args": {"weight": 0.8},
        },
    ),
    (
        "Tag records 3 and 4 with 'travel' and 'personal'",
        {"op": "Label", "target": {"ids": ["3", "4"]}, "args": {"tags": ["travel", "personal"]}},
    ),
    (
        "Remove the 'draft' tag from record 5",
        {"op": "Label", "target": {"ids": ["5"]}, "args": {"tags": ["draft"], "mode": "remove"}},
    ),
    (
        "Raise the priority of record 9",
        {"op": "Promote", "target": {"ids": ["9"]}, "args": {"weight_delta": 0.3}},
    ),
    (
        "Lower the priority of the meeting notes",
        {
            "op": "Demote",
            "target": {"filter": {"has_tags": ["meeting"], "type": "note"}},
            "args": {"weight_delta": -0.3},
        },
    ),
    (
        "Archive the travel notes from last year",
        {
            "op": "Demote",
            "target": {
                "filter": {
                    "time_range": {"relative": "last", "amount": 1, "unit": "years"},
                    "has_tags": ["travel"],
                    "type": "note",
                }
            },
            "args": {"archive": True},
        },
    ),
    (
        "Merge records 3, 4 and 5 into record 3",
        {"op": "Merge", "target": {"ids": ["3", "4", "5"]}, "args": {"primary_id": "3"}},
    ),
    (
        "Split record 8 into sentences",
        {"op": "Split", "target": {"ids": ["8"]}, "args": {"strategy": "by_sentences"}},
    ),
    (
        "Split record 8 into 3 parts",
        {
            "op": "Split",
            "target": {"ids": ["8"]},
            "args": {"strategy": "by_chunks", "params": {"by_chunks": {"num_chunks": 3}}},
        },
    ),
    (
        "Break record 8 into background, decisions and next steps",
        {
            "op": "Split",
            "target": {"ids": ["8"]},
            "args": {
                "strategy": "custom",
                "params": {"custom": {"topics": ["background", "decisions", "next steps"]}},
            },
        },
    ),
    (
        "Lock record 2 until next Friday",
        {
            "op": "Lock",
            "target": {"ids": ["2"]},
            "args": {"mode": "read_only", "policy": {"expires": "2026-03-14T00:00:00Z"}},
            "meta": {"dry_run": True},
        },
    ),
    (
        "Make the budget notes read-only because the board is reviewing them",
        {
            "op": "Lock",
            "target": {"filter": {"has_tags": ["budget"], "type": "note"}},
            "args": {"mode": "read_only", "reason": "because the board is reviewing them"},
            "meta": {"dry_run": True},
        },
    ),
    (
        "Unlock record 2",
        {"op": "Lock", "target": {"ids": ["2"]}, "args": {"mode": "unlock"}, "meta": {"dry_run": True}},
    ),
    # every planned Delete, soft too, is shown as a dry run until confirmed
    ("Delete record 6", {"op": "Delete", "target": {"ids": ["6"]}, "meta": {"dry_run": True}}),
    (
        "Delete the travel notes older than 90 days",
        {
            "op": "Delete",
            "target": {"filter": {"has_tags": ["travel"], "type": "note"}},
            "args": {"older_than": "P90D"},
            "meta": {"dry_run": True},
        },
    ),
    (
        "Permanently delete records 6 and 7",
        {"op": "Delete", "target": {"ids": ["6", "7"]}, "args": {"soft": False}, "meta": {"dry_run": True}},
    ),
    (
        "Set the meeting notes to expire in 30 days",
        {
            "op": "Expire",
            "target": {"filter": {"has_tags": ["meeting"], "type": "note"}},
            "args": {"ttl": "P30D", "on_expire": "soft_delete"},
        },
    ),
    (
        "Expire record 3 at the end of the month and archive it",
        {
            "op": "Expire",
            "target": {"ids": ["3"]},
            "args": {"until": "2026-04-01T00:00:00Z", "on_expire": "archive"},
        },
    ),
    (
        "Tag all my memories as 'reviewed'",
        {"op": "Label", "target": {"all": True}, "args": {"tags": ["reviewed"]}, "meta": {"dry_run": True}},
    ),
    ("Label it as 'urgent'", {"op": "Label", "target": {"ids": ["7"]}, "args": {"tags": ["urgent"]}}),
    (
        "记住我的护照2027年6月到期",
        {
            "op": "Encode",
            "args": {"payload": {"text": "我的护照2027年6月到期"}, "time": "2027-06-01T00:00:00Z"},
        },
    ),
    (
        "保存一条笔记：办公室的wifi密码是hunter2",
        {"op": "Encode", "args": {"payload": {"text": "办公室的wifi密码是hunter2"}}},
    ),
    ("查找关于预算的记录", {"op": "Retrieve", "target": {"filter": {"has_tags": ["预算"]}}}),
    (
        "搜索上周关于会议的笔记",
        {
            "op": "Retrieve",
            "target": {
                "filter": {
                    "time_range": {"relative": "last", "amount": 1, "unit": "weeks"},
                    "has_tags": ["会议"],
                }
            },
        },
    ),
    (
        "总结昨天的会议记录",
        {
            "op": "Summarize",
            "target": {
                "filter": {
                    "time_range": {"start": "2026-03-03T00:00:00Z", "end": "2026-03-04T00:00:00Z"},
                    "has_tags": ["会议"],
                }
            },
        },
    ),
    (
        "把记录12更新为会议改到周四",
        {"op": "Update", "target": {"ids": ["12"]}, "args": {"set": {"text": "会议改到周四"}}},
    ),
    ('把记录3和4标记为"旅行"', {"op": "Label", "target": {"ids": ["3", "4"]}, "args": {"tags": ["旅行"]}}),
    (
        "给第二条和第三条记录加上预算标签",
        {"op": "Label", "target": {"ids": ["2", "3"]}, "args": {"tags": ["预算"]}},
    ),
    (
        '删除记录5上的"草稿"标签',
        {"op": "Label", "target": {"ids": ["5"]}, "args": {"tags": ["草稿"], "mode": "remove"}},
    ),
    (
        "把会议记录标记为最高优先级",
        {"op": "Promote", "target": {"filter": {"has_tags": ["会议"]}}, "args": {"weight": 1.0}},
    ),
    ("降低记录4的优先级", {"op": "Demote", "target": {"ids": ["4"]}, "args": {"weight_delta": -0.3}}),
    (
        "归档去年的会议记录",
        {
            "op": "Demote",
            "target": {
                "filter": {
                    "time_range": {"relative": "last", "amount": 1, "unit": "years"},
                    "has_tags": ["会议"],
                }
            },
            "args": {"archive": True},
        },
    ),
    ("把记录3、4、5合并", {"op": "Merge", "target": {"ids": ["3", "4", "5"]}}),
    (
        "把记录8拆分成三部分",
        {
            "op": "Split",
            "target": {"ids": ["8"]},
            "args": {"strategy": "by_chunks", "params": {"by_chunks": {"num_chunks": 3}}},
        },
    ),
    ("把记录8按句子拆分", {"op": "Split", "target": {"ids": ["8"]}, "args": {"strategy": "by_sentences"}}),
    (
        "锁定记录2",
        {"op": "Lock", "target": {"ids": ["2"]}, "args": {"mode": "read_only"}, "meta": {"dry_run": True}},
    ),
    (
        "永久删除记录6",
        {"op": "Delete", "target": {"ids": ["6"]}, "args": {"soft": False}, "meta": {"dry_run": True}},
    ),
    (
        "让会议记录30天后过期",
        {
            "op": "Expire",
            "target": {"filter": {"has_tags": ["会议"]}},
            "args": {"ttl": "P30D", "on_expire": "soft_delete"},
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), SINGLE_STEPS, ids=[t for t, _ in SINGLE_STEPS])
def test_instruction_plans_to_its_canonical_ir(text, expected):
    made = plan(text)
    assert made.ok, made.diagnostics
    assert made.program == canonical(expected)
    assert made.lang == ("zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en")
    assert made.planner == "rules" and 0 < made.confidence <= 1


def test_all_twelve_verbs_are_read_in_both_languages():
    ops = {"en": set(), "zh": set()}
    for text, expected in SINGLE_STEPS:
        lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
        ops[lang].add(expected["op"])
    twelve = {
        "Encode",
        "Retrieve",
        "Summarize",
        "Update",
        "Label",
        "Promote",
        "Demote",
        "Merge",
        "Split",
        "Lock",
        "Expire",
        "Delete",
    }
    assert ops["en"] == twelve
    assert ops["zh"] == twelve


@pytest.mark.parametrize(
    ("text", "destructive"),
    [
        ("Permanently delete records 6 and 7", True),
        ("Tag all my memories as 'reviewed'", True),
        ("Lock record 2 until next Friday", True),
        ("Unlock record 2", True),
        ("永久删除记录6", True),
        ("锁定记录2", True),
        ("Delete record 6", True),  # a soft delete is confirmed too
        ("删除记录6", True),
        ("Tag records 3 and 4 with 'travel' and 'personal'", False),
    ],
)
def test_destructive_plans_are_flagged_and_shown_as_dry_runs(text, destructive):
    made = plan(text)
    assert made.destructive is destructive
    assert (made.program.get("meta") == {"dry_run": True}) is destructive


def test_the_latest_record_stands_for_it_and_says_so():
    made = plan("Label it as 'urgent'")
    assert made.program["target"] == {"ids": ["7"]}
    assert [d.rule for d in made.diagnostics] == ["plan.assumption"]
    assert "latest record (7)" in made.diagnostics[0].message
    assert made.confidence <= 0.5


# --- several steps ------------------------------------------------------------------------------------

WORKFLOWS = [
    (
        "First find the notes tagged 'launch', then summarize them",
        [
            {"op": "Retrieve", "target": {"filter": {"has_tags": ["launch"], "type": "note"}}},
            {"op": "Summarize", "target": {"from_step": 0}},
        ],
    ),
    (
        "Save that the demo is on Friday and tag it 'demo'",
        [
            {
                "op": "Encode",
                "args": {
                    "payload": {"text": "The demo is on Friday"},
                    "tags": ["demo"],
                    "time": "2026-03-06T00:00:00Z",
                },
            },
            {"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["demo"]}},
        ],
    ),
    (
        "Remind me every Monday to water the plants",
        [
            {"op": "Encode", "args": {"payload": {"text": "Water the plants"}}},
            {
                "op": "Promote",
                "target": {"from_step": 0},
                "args": {"remind": {"rrule": "FREQ=WEEKLY;BYDAY=MO"}},
            },
        ],
    ),
    (
        "先查找所有关于预算的记录，再总结",
        [
            {"op": "Retrieve", "target": {"filter": {"has_tags": ["预算"]}}},
            {"op": "Summarize", "target": {"from_step": 0}},
        ],
    ),
    (
        "先把记录1拆分，然后锁定",
        [
            {
                "op": "Split",
                "target": {"ids": ["1"]},
                "args": {"strategy": "custom", "params": {"custom": {"instruction": "把记录1拆分"}}},
            },
            {"op": "Lock", "target": {"from_step": 0}, "args": {"mode": "read_only"}},
        ],
    ),
    (
        "每周一提醒我浇花",
        [
            {"op": "Encode", "args": {"payload": {"text": "浇花"}}},
            {
                "op": "Promote",
                "target": {"from_step": 0},
                "args": {"remind": {"rrule": "FREQ=WEEKLY;BYDAY=MO"}},
            },
        ],
    ),
]


@pytest.mark.parametrize(("text", "steps"), WORKFLOWS, ids=[t for t, _ in WORKFLOWS])
def test_multi_step_instructions_become_one_workflow(text, steps):
    made = plan(text)
    assert made.ok, made.diagnostics
    program = {"workflow": steps}
    if made.destructive:
        program["meta"] = {"dry_run": True}
    assert made.program == canonical(program)


def test_a_destructive_step_makes_the_whole_workflow_a_dry_run():
    made = plan("Find the budget notes, lock them and then summarize them")
    assert [s["op"] for s in made.program["workflow"]] == ["Retrieve", "Lock", "Summarize"]
    assert made.program["workflow"][1]["target"] == {"from_step": 0}
    assert made.program["workflow"][2]["target"] == {"from_step": 1}
    assert made.destructive and made.program["meta"] == {"dry_run": True}


def test_a_step_that_is_no_memory_operation_is_left_out_and_said():
    made = plan("Find the launch notes and send them to Alice")
    assert made.program["op"] == "Retrieve"
    assert [d.rule for d in made.diagnostics] == ["plan.skipped"]
    assert "send" in made.diagnostics[0].message


def test_a_note_text_runs_on_across_and():
    made = plan("Remember that Alice likes tea and Bob prefers coffee")
    assert made.program["op"] == "Encode"
    assert made.program["args"]["payload"]["text"] == "Alice likes tea and Bob prefers coffee"


# --- properties ---------------------------------------------------------------------------------------


def test_planning_is_deterministic():
    for text, _ in SINGLE_STEPS + WORKFLOWS:
        assert plan(text).program == plan(text).program


def test_the_language_can_be_forced():
    assert (
        plan(
            "Delete record 6",
        ).lang
        == "en"
    )
    assert PLANNER.plan("删除记录6", lang="zh", context=CONTEXT).program["target"] == {"ids": ["6"]}
    assert PLANNER.plan("Delete record 6", lang="xx", context=CONTEXT).diagnostics[0].rule == "plan.clarify"
