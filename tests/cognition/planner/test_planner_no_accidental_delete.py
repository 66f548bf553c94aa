"""The planner never turns an instruction about tags, priority, reminders or expiry into a Delete
(issue 16, item 8: "把记忆7的标签草稿去掉" was planned as a soft Delete of record 7 that ran
unconfirmed), and any Delete it does plan waits for confirmation, soft or hard.

Instructions are built from small sets of templates, record references and tag names, in English and in
Chinese; hypothesis combines them."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.cognition.planner import PlanContext, make_planner

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)  # a Wednesday
CONTEXT = PlanContext(
    now=NOW,
    tags=("budget", "launch", "travel", "draft", "预算", "会议", "旅行", "草稿"),
    recent_ids=("7", "6", "5"),
    types=("note", "task"),
)
PLANNER = make_planner("rules")

EN_REFS = ("memory 7", "note 12", "record 3", "item 5", "records 3 and 4", "it", "the travel notes")
ZH_REFS = ("记忆7", "记录12", "第3条", "第5条记录", "笔记9", "记录3和4", "旅行笔记")
EN_TAGS = ("draft", "urgent", "wip", "q3-budget", "follow-up", "travel")
ZH_TAGS = ("草稿", "紧急", "待办", "预算", "旅行", "复盘")
EN_DAYS = ("monday", "friday", "day", "week", "month")
ZH_DAYS = ("周一", "周五", "星期三", "天")

EN_TAG_REMOVALS = (
    "remove the {t} tag from {r}",
    "remove the tag {t} from {r}",
    "drop the tag {t} from {r}",
    "take '{t}' off {r}",
    "untag {t} from {r}",
    "remove '{t}' from the tags of {r}",
    "delete the '{t}' label from {r}",
    "strip the {t} and {u} tags from {r}",
    "please remove the #{t} tag from {r}",
)
ZH_TAG_REMOVALS = (
    "把{r}的标签{t}去掉",
    "把{r}的{t}标签删掉",
    "请把{r}上的“{t}”标签去掉",
    "删除{r}的{t}标签",
    "去掉{r}的标签“{t}”",
    "把{t}标签从{r}移除",
    "帮我把{r}的“{t}”和“{u}”标签都删除",
)
EN_OTHER = (
    # tags added or replaced
    "tag {r} as '{t}'",
    "add the tag '{t}' to {r}",
    "label {r} with '{t}'",
    "mark {r} as {t}",
    "retag {r} as '{t}'",
    "replace the tags of {r} with '{t}' and '{u}'",
    # priority
    "raise the priority of {r}",
    "lower the priority of {r}",
    "make {r} more important",
    "{r} is less important now",
    "set {r} to high priority",
    "mark {r} as low priority",
    # reminders
    "remind me about {r} every {d}",
    "set a reminder for {r} every {d}",
    "remind me to renew the {t} permit every {d}",
    # expiry (some say "delete": a scheduled expiry, not a Delete now)
    "make {r} expire in {n} days",
    "set {r} to expire in {n} weeks",
    "expire {r} after {n} days",
    "delete {r} in {n} days",
    "keep {r} for {n} months",
)
ZH_OTHER = (
    "给{r}打上{t}标签",
    "把{r}标记为{t}",
    "给{r}添加“{t}”标签",
    "把{r}的标签替换成“{t}”",
    "提高{r}的优先级",
    "降低{r}的优先级",
    "把{r}设为最高优先级",
    "把{r}标记为最高优先级",
    "{r}的优先级降低到低",
    "每{d}提醒我{r}",
    "每{d}提醒我交{t}报告",
    "让{r}{n}天后过期",
    "{r}{n}天后过期",
    "{n}天后删除{r}",
    "把{r}保留到下周五",
    "{r}的有效期设为{n}天",
)


def _ops(plan) -> list[str]:
    if plan.program is None:
        return []  # a clarification: nothing planned, nothing deleted
    return [ir["op"] for ir in plan.program.get("workflow", [plan.program])]


def _instruction(lang: str, templates: tuple[str, ...]):
    refs, tags, days = (EN_REFS, EN_TAGS, EN_DAYS) if lang == "en" else (ZH_REFS, ZH_TAGS, ZH_DAYS)
    return st.builds(
        lambda template, r, t, u, d, n: template.format(r=r, t=t, u=u, d=d, n=n),
        st.sampled_from(templates),
        st.sampled_from(refs),
        st.sampled_from(tags),
        st.sampled_from(tags),
        st.sampled_from(days),
        st.sampled_from((2, 3, 7, 30) if lang == "en" else ("3", "三", "7", "十")),
    )


INSTRUCTIONS = st.one_of(
    _instruction("en", EN_TAG_REMOVALS + EN_OTHER), _instruction("zh", ZH_TAG_REMOVALS + ZH_OTHER)
)


@settings(max_examples=examples(300), deadline=None)
@given(INSTRUCTIONS)
def test_tags_priority_reminders_and_expiry_never_plan_a_delete(text):
    plan = PLANNER.plan(text, context=CONTEXT)
    assert "Delete" not in _ops(plan), (text, plan.program)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.one_of(
        _instruction("en", EN_TAG_REMOVALS).filter(lambda s: " it" not in s and "travel notes" not in s),
        _instruction("zh", ZH_TAG_REMOVALS).filter(lambda s: "旅行笔记" not in s),
    )
)
def test_a_tag_removal_on_named_records_is_a_label_remove(text):
    plan = PLANNER.plan(text, context=CONTEXT)
    assert plan.ok, (text, plan.diagnostics)
    assert plan.program["op"] == "Label" and plan.program["args"]["mode"] == "remove", (text, plan.program)
    assert plan.program["target"].get("ids"), (text, plan.program)
    assert not plan.destructive


def test_the_issue_example_removes_the_tag():
    plan = PLANNER.plan("把记忆7的标签草稿去掉", context=CONTEXT)
    assert plan.ok and not plan.destructive
    assert plan.program == {
        "stage": "STO",
        "op": "Label",
        "target": {"ids": ["7"]},
        "args": {"tags": ["草稿"], "mode": "remove"},
    }
    english = PLANNER.plan("remove the draft tag from memory 7", context=CONTEXT)
    assert english.program["op"] == "Label"
    assert english.program["args"] == {"tags": ["draft"], "mode": "remove"}


def test_a_tag_that_only_names_the_records_still_deletes_them_with_confirmation():
    for text in ("delete notes with the tag draft", "把标签为草稿的记录删掉", "删除标记为草稿的记录"):
        plan = PLANNER.plan(text, context=CONTEXT)
        assert _ops(plan) == ["Delete"], (text, plan.program)
        assert plan.destructive and plan.program["meta"] == {"dry_run": True}


def test_a_planned_soft_delete_is_not_executed_without_confirmation(memory):
    m = memory()
    for text in ("first", "second", "third"):
        m.encode(text)
    for instruction in ("Delete record 2", "删除记录2"):
        outcome = m.plan(instruction, execute=True)
        assert outcome.program["op"] == "Delete" and outcome.program["args"]["soft"] is True
        assert outcome.destructive and outcome.needs_confirmation and not outcome.executed
        assert outcome.diagnostics[-1].rule == "plan.needs_confirmation"
        assert m.retrieve(ids="2", include=["id"]).affected_ids == ["2"]  # still there
    confirmed = m.plan("Delete record 2", execute=True, confirm=True)
    assert confirmed.executed and confirmed.result.affected_ids == ["2"]
    assert m.retrieve(ids="2", include=["id"]).affected_ids == []
