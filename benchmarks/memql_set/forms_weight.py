"""Promote and Demote scenarios: weights set or moved (clamped), reminders from an RRULE, archiving."""

from __future__ import annotations

from benchmarks.memql_set.builder import Builder, Form
from benchmarks.memql_set.scene import ids_of, scene
from benchmarks.memql_set.verbs import Expect

WEEKDAY_NAMES = {
    "MO": ("Monday", "周一"),
    "TU": ("Tuesday", "周二"),
    "WE": ("Wednesday", "周三"),
    "TH": ("Thursday", "周四"),
    "FR": ("Friday", "周五"),
    "SA": ("Saturday", "周六"),
    "SU": ("Sunday", "周日"),
}
PRIORITY_WORDS = {0.2: ("low", "低"), 0.8: ("high", "高"), 1.0: ("urgent", "紧急")}


def _flat(b: Builder, sizes: list[int]):
    return [it for group in scene(b, sizes) for it in group]


def _search(query: str) -> dict:
    return {"search": {"intent": {"query": query}, "limit": 1}}


# --- Promote --------------------------------------------------------------------------------------------


def promote_weight_by_id(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    target, weight = b.rng.choice(items), b.rng.choice((0.8, 0.85, 0.9, 1.0))
    b.say(
        [
            ("Raise the priority of {ids} to {w}", "把{ids}的优先级提高到{w}"),
            ("Promote {ids} to weight {w}", "把{ids}的权重提升到{w}"),
        ],
        ids=b.ids([target.id]),
        w=weight,
    )
    b.step({"op": "Promote", "target": {"ids": [target.id]}, "args": {"weight": weight}})


def promote_delta_by_tag(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom, delta = groups[0][0].dom, b.rng.choice((0.1, 0.2, 0.3))
    b.say(
        [
            ('Bump the weight of everything tagged "{tag}" by {d}', "把所有带“{tag}”标签的记录的权重提高{d}"),
            ('Increase the weight of the "{tag}" notes by {d}', "“{tag}”标签下的记录权重各加{d}"),
        ],
        tag=dom.tag,
        d=delta,
    )
    b.step(
        {
            "op": "Promote",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {"weight_delta": delta},
        },
        Expect(hits=ids_of(groups[0])),
    )


def promote_priority_word(b: Builder) -> None:
    target, weight = scene(b, [1, 1, 1])[0][0], b.rng.choice((0.8, 1.0))
    if b.indirect:
        b.say(
            {
                0.8: [("The {key} has become much more important to me", "{key}这件事对我重要多了")],
                1.0: [
                    ("The {key} is now my top priority, it can't wait", "{key}现在是头等大事，一刻也不能等")
                ],
            }[weight],
            key=target.note.key,
        )
        b.step(
            {"op": "Promote", "target": _search(b.t(target.note.key)), "args": {"weight": weight}},
            Expect(hits=[target.id]),
        )
        return
    b.say(
        [
            ("Mark {ids} as {p} priority", "把{ids}标为{p}优先级"),
            ("Give {ids} {p} priority", "给{ids}设为{p}优先级"),
        ],
        ids=b.ids([target.id]),
        p=PRIORITY_WORDS[weight],
    )
    b.step({"op": "Promote", "target": {"ids": [target.id]}, "args": {"weight": weight}})


def promote_remind_weekly(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    target, day = b.rng.choice(items), b.rng.choice(list(WEEKDAY_NAMES))
    with_hour = b.rng.random() < 0.5
    hour = b.rng.choice((8, 9, 18))
    rule = f"FREQ=WEEKLY;BYDAY={day}" + (f";BYHOUR={hour};BYMINUTE=0" if with_hour else "")
    at = (f" at {hour}:00", f"{hour}点") if with_hour else ("", "")
    b.say(
        [
            ("Remind me about {ids} every {day}{at}", "每{day}{at}提醒我{ids}"),
            ("Set a weekly reminder for {ids} on {day}s{at}", "给{ids}设一个每{day}{at}的提醒"),
        ],
        ids=b.ids([target.id]),
        day=WEEKDAY_NAMES[day],
        at=at,
    )
    b.step({"op": "Promote", "target": {"ids": [target.id]}, "args": {"remind": {"rrule": rule}}})


def promote_remind_daily_or_monthly(b: Builder) -> None:
    target = scene(b, [1, 1, 1])[0][0]
    if b.rng.random() < 0.5:
        hour = b.rng.choice((7, 8, 20))
        rule, phrase = f"FREQ=DAILY;BYHOUR={hour};BYMINUTE=0", (f"every day at {hour}:00", f"每天{hour}点")
    else:
        day = b.rng.choice((1, 15))
        rule, phrase = f"FREQ=MONTHLY;BYMONTHDAY={day}", (f"on day {day} of every month", f"每月{day}号")
    if b.indirect:
        b.say(
            [("I keep forgetting the {key}; nudge me {when}", "我老是忘了{key}，{when}提醒我一下")],
            key=target.note.key,
            when=phrase,
        )
        b.step(
            {"op": "Promote", "target": _search(b.t(target.note.key)), "args": {"remind": {"rrule": rule}}},
            Expect(hits=[target.id]),
        )
        return
    b.say([("Remind me about {ids} {when}", "{when}提醒我{ids}")], ids=b.ids([target.id]), when=phrase)
    b.step({"op": "Promote", "target": {"ids": [target.id]}, "args": {"remind": {"rrule": rule}}})


# --- Demote ---------------------------------------------------------------------------------------------


def demote_weight_by_id(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    target, weight = b.rng.choice(items), b.rng.choice((0.1, 0.2, 0.25))
    if b.indirect:
        weight = 0.2
        b.say(
            [
                ("{ids} is low priority now", "{ids}现在是低优先级了"),
                (
                    "{ids} doesn't matter much anymore, treat it as low priority",
                    "{ids}不太重要了，按低优先级处理",
                ),
            ],
            ids=b.ids([target.id]),
        )
    else:
        b.say(
            [
                ("Lower the priority of {ids} to {w}", "把{ids}的优先级降到{w}"),
                ("Demote {ids} to weight {w}", "把{ids}的权重降为{w}"),
            ],
            ids=b.ids([target.id]),
            w=weight,
        )
    b.step({"op": "Demote", "target": {"ids": [target.id]}, "args": {"weight": weight}})


def demote_delta_by_tag(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom, delta = groups[0][0].dom, b.rng.choice((0.2, 0.3, 0.4))
    b.say(
        [
            ('Reduce the weight of the notes tagged "{tag}" by {d}', "把带“{tag}”标签的记录权重降低{d}"),
            ('Lower everything tagged "{tag}" by {d} in weight', "“{tag}”标签下的记录权重各减{d}"),
        ],
        tag=dom.tag,
        d=delta,
    )
    b.step(
        {
            "op": "Demote",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {"weight_delta": -delta},
        },
        Expect(hits=ids_of(groups[0])),
    )


def demote_archive_by_ids(b: Builder) -> None:
    items = _flat(b, [1, 1, 1, 1])
    targets = sorted(b.rng.sample(items, b.rng.choice((1, 2))), key=lambda it: int(it.id))
    b.say(
        [("Archive {ids}", "归档{ids}"), ("Move {ids} to the archive", "把{ids}移到归档")],
        ids=b.ids(ids_of(targets)),
    )
    b.step({"op": "Demote", "target": {"ids": ids_of(targets)}, "args": {"archive": True}})


def demote_archive_by_tag(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom = groups[0][0].dom
    if b.indirect:
        b.say(
            [
                (
                    "I'm done with {topic}, but keep those notes around out of sight",
                    "{topic}的事结束了，那些记录留着但别再显示",
                ),
                (
                    "Anything about {topic} is behind me now; "
                    "I don't want those notes in my way, just kept somewhere",
                    "{topic}的事已经过去了，相关记录别挡着我，存起来就行",
                ),
            ],
            topic=dom.topic,
        )
    else:
        b.say([('Archive all notes tagged "{tag}"', "归档所有带“{tag}”标签的记录")], tag=dom.tag)
    b.step(
        {"op": "Demote", "target": {"filter": {"has_tags": [b.t(dom.tag)]}}, "args": {"archive": True}},
        Expect(hits=ids_of(groups[0])),
    )


FORMS = [
    Form("promote", "weight-by-id", "direct", 2, promote_weight_by_id, "Promote to a weight by id"),
    Form(
        "promote", "delta-by-tag", "direct", 2, promote_delta_by_tag, "Promote by a weight delta, tag filter"
    ),
    Form("promote", "priority-word", "direct", 2, promote_priority_word, "Promote with a priority word"),
    Form("promote", "remind-weekly", "direct", 2, promote_remind_weekly, "Promote with a weekly reminder"),
    Form(
        "promote",
        "remind-daily-or-monthly",
        "direct",
        2,
        promote_remind_daily_or_monthly,
        "Promote with a daily or monthly reminder",
    ),
    Form(
        "promote", "priority-by-search", "indirect", 2, promote_priority_word, "Importance stated, by search"
    ),
    Form(
        "promote",
        "remind-by-search",
        "indirect",
        1,
        promote_remind_daily_or_monthly,
        "A nudge asked for, by search",
    ),
    Form("demote", "weight-by-id", "direct", 2, demote_weight_by_id, "Demote to a weight by id"),
    Form("demote", "delta-by-tag", "direct", 2, demote_delta_by_tag, "Demote by a weight delta, tag filter"),
    Form("demote", "archive-by-ids", "direct", 2, demote_archive_by_ids, "Demote archive by ids"),
    Form(
        "demote", "archive-by-tag", "direct", 1, demote_archive_by_tag, "Demote archive through a tag filter"
    ),
    Form("demote", "low-priority-by-id", "indirect", 1, demote_weight_by_id, "Low importance stated"),
    Form("demote", "archive-by-tag", "indirect", 2, demote_archive_by_tag, "A finished topic put away"),
]
