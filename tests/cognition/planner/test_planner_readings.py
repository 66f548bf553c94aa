"""Readings the rules planner learnt for instructions outside its first development set: a weight given as
a number, reminders with their day and hour, Chinese verbs said another way (并入, 切开, 改写, 设…提醒,
给我看, 存一条), the priority named before its verb (优先级提高到), "more important" said indirectly, Chinese
record kinds, Update fields and values (": location X", "into a task", a time as news, quoted text kept
verbatim), Encode preambles ("a task for Monday: …"), Summarize focus and budget, an expiry's action said
as its own sentence, date ranges, and facts handed over to keep ("keep in mind: …"). Each sentence is our
own, in English and Chinese."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memql.cognition.planner import PlanContext, make_planner
from memql.lang import validate

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
CONTEXT = PlanContext(
    now=NOW, tags=("garden", "花园"), recent_ids=("9", "8", "7"), types=("note", "task", "event")
)
PLANNER = make_planner("rules")


def program(text: str) -> dict:
    made = PLANNER.plan(text, context=CONTEXT)
    assert made.ok, made.diagnostics
    return made.program


def canonical(ir: dict) -> dict:
    checked = validate(ir, now=NOW)
    assert checked.valid, checked.diagnostics
    return checked.canonical


CASES = [
    # a weight given as a number, not read as a record id ("record 6 to 0.7" is not records 6..0)
    (
        "Raise the priority of note 6 to 0.7",
        {"op": "Promote", "target": {"ids": ["6"]}, "args": {"weight": 0.7}},
    ),
    (
        "Lower the weight of item 4 to 0.15",
        {"op": "Demote", "target": {"ids": ["4"]}, "args": {"weight": 0.15}},
    ),
    ("把5号记录的权重提高到0.85", {"op": "Promote", "target": {"ids": ["5"]}, "args": {"weight": 0.85}}),
    ("把第4条记录的优先级降到0.2", {"op": "Demote", "target": {"ids": ["4"]}, "args": {"weight": 0.2}}),
    # reminders keep the day and the hour they name
    (
        "Remind me about record 8 every week on Tuesdays at 9:30",
        {
            "op": "Promote",
            "target": {"ids": ["8"]},
            "args": {"remind": {"rrule": "FREQ=WEEKLY;BYDAY=TU;BYHOUR=9;BYMINUTE=30"}},
        },
    ),
    (
        "Remind me about item 7 on the 3rd of every month",
        {
            "op": "Promote",
            "target": {"ids": ["7"]},
            "args": {"remind": {"rrule": "FREQ=MONTHLY;BYMONTHDAY=3"}},
        },
    ),
    (
        "Remind me about note 9 every day at 8 pm",
        {
            "op": "Promote",
            "target": {"ids": ["9"]},
            "args": {"remind": {"rrule": "FREQ=DAILY;BYHOUR=20;BYMINUTE=0"}},
        },
    ),
    (
        "给第8条记录设一个每周二9点半的提醒",
        {
            "op": "Promote",
            "target": {"ids": ["8"]},
            "args": {"remind": {"rrule": "FREQ=WEEKLY;BYDAY=TU;BYHOUR=9;BYMINUTE=30"}},
        },
    ),
    # Chinese verbs said another way
    (
        "给我看带“花园”标签的记录",
        {"op": "Retrieve", "target": {"filter": {"has_tags": ["花园"]}}, "args": {}},
    ),
    (
        "把第7项并入第9项",
        {
            "op": "Merge",
            "target": {"ids": ["9", "7"]},
            "args": {"strategy": "merge_into_primary", "primary_id": "9", "soft_delete_children": True},
        },
    ),
    (
        "把第2条记录改写为：“花园周六浇水。”",
        {"op": "Update", "target": {"ids": ["2"]}, "args": {"set": {"text": "花园周六浇水。"}}},
    ),
    ("存一条记录：邻居借走了梯子", {"op": "Encode", "args": {"payload": {"text": "邻居借走了梯子"}}}),
    # "more important" said without a verb
    ("浇花这件事对我重要多了", None),
    # Update: the field named after a colon, a kind or a time as the new value, the quoted text verbatim
    (
        "Update note 5: location Porto",
        {"op": "Update", "target": {"ids": ["5"]}, "args": {"set": {"location": "Porto"}}},
    ),
    (
        "更新第7条记录：权重改为0.6",
        {"op": "Update", "target": {"ids": ["7"]}, "args": {"set": {"weight": 0.6}}},
    ),
    (
        "Turn record 8 into a task",
        {"op": "Update", "target": {"ids": ["8"]}, "args": {"set": {"type": "task"}}},
    ),
    (
        "把第8条记录改成任务类型",
        {"op": "Update", "target": {"ids": ["8"]}, "args": {"set": {"type": "task"}}},
    ),
    (
        "把第9条记录的时间设为2026年5月3日10:00",
        {"op": "Update", "target": {"ids": ["9"]}, "args": {"set": {"time": "2026-05-03T10:00:00Z"}}},
    ),
    (
        'Change the text of note 3 to "Water the roses."',
        {"op": "Update", "target": {"ids": ["3"]}, "args": {"set": {"text": "Water the roses."}}},
    ),
    (
        "Heads up: the dentist appointment moved to May 6, 2026 at 15:00",
        {
            "op": "Update",
            "target": {"search": {"intent": {"query": "dentist appointment"}, "limit": 1}},
            "args": {"set": {"time": "2026-05-06T15:00:00Z"}},
        },
    ),
    (
        "牙医复诊改到了2026年5月6日15:00",
        {
            "op": "Update",
            "target": {"search": {"intent": {"query": "牙医复诊"}, "limit": 1}},
            "args": {"set": {"time": "2026-05-06T15:00:00Z"}},
        },
    ),
    (
        "关于浇花的那条记录写错了，应该是：“每周六浇水。”",
        {
            "op": "Update",
            "target": {"search": {"intent": {"query": "浇花"}, "limit": 1}},
            "args": {"set": {"text": "每周六浇水。"}},
        },
    ),
    (
        "The boiler service is my top priority now",
        {
            "op": "Promote",
            "target": {"search": {"intent": {"query": "boiler service"}, "limit": 1}},
            "args": {"weight": 1.0},
        },
    ),
    # Encode: words before a colon that only say the kind, the time or the tags are not the note
    (
        "Store a task for next Monday: renew the car insurance",
        {
            "op": "Encode",
            "args": {
                "payload": {"text": "Renew the car insurance"},
                "type": "task",
                "tags": ["car insurance", "renew"],
                "time": "2026-03-09T00:00:00Z",
            },
        },
    ),
    (
        "记一条5月3日的日程：牙医复诊",
        {
            "op": "Encode",
            "args": {"payload": {"text": "牙医复诊"}, "type": "event", "time": "2026-05-03T00:00:00Z"},
        },
    ),
    # Summarize: what to focus on ("mainly about", "especially", 重点是/重点关注 after a comma is no Promote),
    # a noun cue with its object after "of", a token budget in Chinese
    (
        "Give me a short overview of the garden notes, mainly about watering",
        {
            "op": "Summarize",
            "target": {"filter": {"has_tags": ["garden"], "type": "note"}},
            "args": {"focus": "watering", "max_tokens": 100},
        },
    ),
    (
        "总结带“花园”标签的记录，重点关注玫瑰",
        {"op": "Summarize", "target": {"filter": {"has_tags": ["花园"]}}, "args": {"focus": "玫瑰"}},
    ),
    (
        "我需要一份花园的简要回顾，重点是施肥",
        {
            "op": "Summarize",
            "target": {"filter": {"has_tags": ["花园"]}},
            "args": {"focus": "施肥", "max_tokens": 100},
        },
    ),
    (
        "用不超过40个token总结第7项和第8项，重点是浇水",
        {"op": "Summarize", "target": {"ids": ["7", "8"]}, "args": {"focus": "浇水", "max_tokens": 40}},
    ),
    # what an expiry does, said as a sentence of its own, is not a second step
    (
        "Set record 9 to expire in two weeks; archive it then",
        {"op": "Expire", "target": {"ids": ["9"]}, "args": {"ttl": "P2W", "on_expire": "archive"}},
    ),
    (
        "让第9条记录30天后过期，到时归档",
        {"op": "Expire", "target": {"ids": ["9"]}, "args": {"ttl": "P30D", "on_expire": "archive"}},
    ),
    # a range of dates is one time range, from the first day to the end of the last
    (
        "Show my garden notes from February 2, 2026 to February 9, 2026",
        {
            "op": "Retrieve",
            "target": {
                "filter": {
                    "time_range": {"start": "2026-02-02T00:00:00Z", "end": "2026-02-10T00:00:00Z"},
                    "has_tags": ["garden"],
                    "type": "note",
                }
            },
            "args": {},
        },
    ),
    (
        "列出2026年2月2日至2026年2月9日之间的记录",
        {
            "op": "Retrieve",
            "target": {
                "filter": {"time_range": {"start": "2026-02-02T00:00:00Z", "end": "2026-02-10T00:00:00Z"}}
            },
            "args": {},
        },
    ),
    # a fact handed over to keep, without "save"
    ("Keep in mind: the shed key is under the pot", None),
    ("Something we'll need later: the hose is in the shed", None),
    ("以后我得知道：花园水管在棚子里", None),
    # Chinese record kinds narrow a time range
    (
        "删除最近10天的任务",
        {
            "op": "Delete",
            "target": {
                "filter": {"time_range": {"relative": "last", "amount": 10, "unit": "days"}, "type": "task"}
            },
            "args": {"soft": True},
            "meta": {"dry_run": True},
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[t for t, _ in CASES])
def test_reading(text, expected):
    made = program(text)
    if expected is None:  # an indirect reading: the verb, and for a note its text after the colon
        if made["op"] == "Encode":
            assert made["args"]["payload"]["text"] == text.split(":")[-1].split("：")[-1].strip().capitalize()
        else:
            assert made["op"] == "Promote"
        return
    assert made == canonical(expected)
