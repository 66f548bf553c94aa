"""Delete, Lock and Expire scenarios."""

from __future__ import annotations

from datetime import timedelta

from benchmarks.memql_set.builder import Builder, Form
from benchmarks.memql_set.content import DOMAINS, PEOPLE
from benchmarks.memql_set.scene import ids_of, scene
from benchmarks.memql_set.verbs import Expect
from benchmarks.memql_set.world import iso

DURATIONS = {  # ISO duration -> how an instruction says it
    "P7D": ("in a week", "一周后"),
    "P14D": ("in two weeks", "两周后"),
    "P30D": ("in 30 days", "30天后"),
    "P1M": ("in a month", "一个月后"),
    "P3M": ("in three months", "三个月后"),
    "PT48H": ("in 48 hours", "48小时后"),
    "P1Y": ("in a year", "一年后"),
}
AFTER = {  # on_expire -> what happens then, as an instruction says it
    "soft_delete": ("delete it then", "到时删除"),
    "archive": ("archive it then", "到时归档"),
    "demote": ("lower its priority then", "到时降低优先级"),
    "anonymize": ("anonymize it then", "到时匿名化"),
    "none": ("just mark it as expired", "到时只标记为过期"),
    "hard_delete": ("delete it permanently then", "到时彻底删除"),
}


def _flat(b: Builder, sizes: list[int]):
    return [it for group in scene(b, sizes) for it in group]


def _search(query: str) -> dict:
    return {"search": {"intent": {"query": query}, "limit": 1}}


# --- Delete ---------------------------------------------------------------------------------------------


def delete_soft_by_ids(b: Builder) -> None:
    items = _flat(b, [1, 1, 1, 1])
    targets = sorted(b.rng.sample(items, b.rng.choice((1, 2))), key=lambda it: int(it.id))
    b.say(
        [
            ("Delete {ids}", "删除{ids}"),
            ("Please remove {ids}", "请把{ids}删掉"),
            ("Get rid of {ids}", "把{ids}去掉"),
        ],
        ids=b.ids(ids_of(targets)),
    )
    b.step({"op": "Delete", "target": {"ids": ids_of(targets)}, "args": {"soft": True}})


def delete_soft_by_tag(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom = groups[0][0].dom
    if b.indirect:
        b.say(
            [
                ("I won't need the notes about {topic} any more", "关于{topic}的记录我以后用不上了"),
                ("Everything about {topic} is obsolete now", "{topic}相关的内容都已经作废了"),
            ],
            topic=dom.topic,
        )
    else:
        b.say(
            [
                ('Delete all notes tagged "{tag}"', "删除所有带“{tag}”标签的记录"),
                ('Remove everything with the tag "{tag}"', "把标签为“{tag}”的记录全部删除"),
            ],
            tag=dom.tag,
        )
    b.step(
        {"op": "Delete", "target": {"filter": {"has_tags": [b.t(dom.tag)]}}, "args": {"soft": True}},
        Expect(hits=ids_of(groups[0])),
    )


def delete_soft_by_type_and_time(b: Builder) -> None:
    dom = b.lead()
    old = [b.add_note(dom, dom.notes[0], time=b.ago(40, 60))]
    recent = [b.add_note(dom, n, time=b.ago(2, 10)) for n in dom.notes[1:3]]
    other = b.rng.choice([d for d in DOMAINS if d.kind != dom.kind])
    b.add_note(other, other.notes[b.rng.randrange(4)], time=b.ago(2, 10))
    days = b.rng.choice((14, 21))
    b.say(
        [("Delete the {kinds} from the last {n} days", "删除最近{n}天的{kinds}")],
        kinds=b.kind_words(dom.kind),
        n=days,
    )
    b.step(
        {
            "op": "Delete",
            "target": {
                "filter": {
                    "type": dom.kind,
                    "time_range": {"relative": "last", "amount": days, "unit": "days"},
                }
            },
            "args": {"soft": True},
        },
        Expect(hits=[r.id for r in recent]),
    )
    del old


def delete_hard_by_ids(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    targets = sorted(b.rng.sample(items, b.rng.choice((1, 2))), key=lambda it: int(it.id))
    b.say(
        [
            ("Permanently delete {ids}, I confirm", "彻底删除{ids}，我确认"),
            ("Hard-delete {ids}; yes, I'm sure", "永久删除{ids}，确认执行"),
        ],
        ids=b.ids(ids_of(targets)),
    )
    b.step(
        {
            "op": "Delete",
            "target": {"ids": ids_of(targets)},
            "args": {"soft": False},
            "meta": {"confirmation": True},
        }
    )


def delete_soft_by_search(b: Builder) -> None:
    target = scene(b, [1, 1, 1])[0][0]
    if b.indirect:
        b.say(
            [("The {key} is off, so that note is useless now", "{key}取消了，那条记录没用了")],
            key=target.note.key,
        )
    else:
        b.say([("Delete the note about the {key}", "删除关于{key}的那条记录")], key=target.note.key)
    b.step(
        {"op": "Delete", "target": _search(b.t(target.note.key)), "args": {"soft": True}},
        Expect(hits=[target.id]),
    )


def delete_in_time_range(b: Builder) -> None:
    dom = b.lead()
    start = b.now - timedelta(days=b.rng.choice((20, 25, 30)))
    end = start + timedelta(days=7)
    inside = [
        b.add_note(dom, n, time=iso(start + timedelta(days=d, hours=12)))
        for n, d in zip(dom.notes[:2], (1, 5), strict=True)
    ]
    b.add_note(dom, dom.notes[2], time=iso(end + timedelta(days=3, hours=9)))
    other = b.rng.choice([d for d in DOMAINS if d is not dom])
    b.add_note(other, other.notes[0], time=iso(start + timedelta(days=2, hours=10)))
    end_of_day = iso(end.replace(hour=23, minute=59, second=59) - timedelta(days=1))
    b.say(
        [('Delete the notes tagged "{tag}" from between {a} and {z}', "删除{a}到{z}之间带“{tag}”标签的记录")],
        tag=dom.tag,
        a=b.day(start),
        z=b.day(end - timedelta(days=1)),
    )
    b.step(
        {
            "op": "Delete",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {
                "soft": True,
                "time_range": {"start": iso(start.replace(hour=0, minute=0)), "end": end_of_day},
            },
        },
        Expect(hits=[r.id for r in b.world.records.values() if b.t(dom.tag) in r.tags]),
    )
    del inside


# --- Lock -----------------------------------------------------------------------------------------------


def lock_by_ids(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    targets = sorted(b.rng.sample(items, b.rng.choice((1, 2))), key=lambda it: int(it.id))
    mode = "append_only" if b.form.name.startswith("append") else "read_only"
    if b.indirect:
        b.say(
            {
                "read_only": [
                    ("Nobody should be able to change {ids} any more", "{ids}以后谁都不能再改了"),
                    ("{ids} is final; keep it exactly as it is", "{ids}已经定稿，保持原样"),
                ],
                "append_only": [
                    ("From now on {ids} may only be added to, never rewritten", "{ids}以后只能追加，不能改写")
                ],
            }[mode],
            ids=b.ids(ids_of(targets)),
        )
    else:
        b.say(
            {
                "read_only": [
                    ("Lock {ids} as read-only", "把{ids}锁定为只读"),
                    ("Make {ids} read-only", "将{ids}设为只读"),
                ],
                "append_only": [
                    ("Make {ids} append-only", "把{ids}设为仅追加"),
                    ("Lock {ids} in append-only mode", "以仅追加模式锁定{ids}"),
                ],
            }[mode],
            ids=b.ids(ids_of(targets)),
        )
    b.step({"op": "Lock", "target": {"ids": ids_of(targets)}, "args": {"mode": mode}})


def lock_by_tag_with_reason(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom = groups[0][0].dom
    reason = b.rng.choice([("the audit", "审计"), ("the legal review", "法务审查"), ("the handover", "交接")])
    b.say(
        [
            (
                'Lock everything tagged "{tag}" read-only because of {why}',
                "因为{why}，把带“{tag}”标签的记录都锁成只读",
            )
        ],
        tag=dom.tag,
        why=reason,
    )
    b.step(
        {
            "op": "Lock",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {"mode": "read_only", "reason": b.t(reason)},
        },
        Expect(hits=ids_of(groups[0])),
    )


def lock_with_reviewer(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    target, person = b.rng.choice(items), b.rng.choice(PEOPLE)
    b.say(
        [
            (
                "Lock {ids} read-only; {who} may review and change the lock",
                "把{ids}锁成只读，{who}可以审核并修改这个锁",
            )
        ],
        ids=b.ids([target.id]),
        who=person,
    )
    b.step(
        {
            "op": "Lock",
            "target": {"ids": [target.id]},
            "args": {"mode": "read_only", "policy": {"reviewers": [b.t(person)]}},
        }
    )


def unlock_by_id(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    target = b.rng.choice(items)
    mode = b.rng.choice(("read_only", "append_only"))
    b.prerequisite({"stage": "STO", "op": "Lock", "target": {"ids": [target.id]}, "args": {"mode": mode}})
    b.say(
        [("Unlock {ids}", "解锁{ids}"), ("Lift the lock on {ids}", "解除{ids}的锁定")], ids=b.ids([target.id])
    )
    b.step({"op": "Lock", "target": {"ids": [target.id]}, "args": {"mode": "unlock"}})


# --- Expire ---------------------------------------------------------------------------------------------


def expire_ttl(b: Builder) -> None:
    target = scene(b, [1, 1, 1])[0][0]
    ttl = b.rng.choice(list(DURATIONS))
    action = b.form.name.split("-", 1)[1] if b.form.name.startswith("ttl-") else "soft_delete"
    action = action.replace("-", "_")
    if b.indirect:
        b.say(
            [
                (
                    "The note about the {key} only matters for a while; forget it {dur}",
                    "关于{key}的记录只是暂时有用，{dur}就不用再记了",
                )
            ],
            key=target.note.key,
            dur=DURATIONS[ttl],
        )
        b.step(
            {
                "op": "Expire",
                "target": _search(b.t(target.note.key)),
                "args": {"ttl": ttl, "on_expire": "soft_delete"},
            },
            Expect(hits=[target.id]),
        )
        return
    b.say(
        [
            ("Make {ids} expire {dur} and {then}", "让{ids}{dur}过期，{then}"),
            ("Set {ids} to expire {dur}; {then}", "给{ids}设置过期时间：{dur}，{then}"),
        ],
        ids=b.ids([target.id]),
        dur=DURATIONS[ttl],
        then=AFTER[action],
    )
    b.step({"op": "Expire", "target": {"ids": [target.id]}, "args": {"ttl": ttl, "on_expire": action}})


def expire_until(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    target = b.rng.choice(items)
    until = iso(
        (b.now + timedelta(days=b.rng.randint(5, 90))).replace(hour=b.rng.choice((12, 18, 23)), minute=0)
    )
    action = b.rng.choice(("none", "demote", "archive"))
    if b.indirect:
        action = "archive"
        b.say(
            [
                (
                    "{ids} is only relevant until {when}, after that put it away",
                    "{ids}只到{when}有用，之后收起来",
                )
            ],
            ids=b.ids([target.id]),
            when=b.when(until),
        )
    else:
        b.say(
            [("Let {ids} expire on {when}; {then}", "让{ids}在{when}过期，{then}")],
            ids=b.ids([target.id]),
            when=b.when(until),
            then=AFTER[action],
        )
    b.step({"op": "Expire", "target": {"ids": [target.id]}, "args": {"until": until, "on_expire": action}})


def expire_by_tag_anonymize(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom, ttl = groups[0][0].dom, b.rng.choice(("P3M", "P1Y", "P30D"))
    b.say(
        [
            (
                'Everything tagged "{tag}" should expire {dur} and then be anonymized',
                "所有带“{tag}”标签的记录{dur}过期，然后匿名化",
            )
        ],
        tag=dom.tag,
        dur=DURATIONS[ttl],
    )
    b.step(
        {
            "op": "Expire",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {"ttl": ttl, "on_expire": "anonymize"},
        },
        Expect(hits=ids_of(groups[0])),
    )


FORMS = [
    Form("delete", "soft-by-ids", "direct", 3, delete_soft_by_ids, "Soft delete by ids"),
    Form("delete", "soft-by-tag", "direct", 2, delete_soft_by_tag, "Soft delete through a tag filter"),
    Form(
        "delete",
        "soft-by-type-and-time",
        "direct",
        1,
        delete_soft_by_type_and_time,
        "Soft delete by type within a relative time range",
    ),
    Form("delete", "hard-by-ids", "direct", 2, delete_hard_by_ids, "Hard delete with confirmation"),
    Form("delete", "soft-by-search", "direct", 1, delete_soft_by_search, "Soft delete of a searched record"),
    Form(
        "delete",
        "soft-in-time-range",
        "direct",
        1,
        delete_in_time_range,
        "Soft delete narrowed by args.time_range",
    ),
    Form("delete", "soft-by-tag", "indirect", 3, delete_soft_by_tag, "A topic no longer needed"),
    Form("delete", "soft-by-search", "indirect", 1, delete_soft_by_search, "A note made useless"),
    Form("lock", "read-only-by-ids", "direct", 2, lock_by_ids, "Lock read_only by ids"),
    Form("lock", "append-only-by-ids", "direct", 2, lock_by_ids, "Lock append_only by ids"),
    Form(
        "lock", "read-only-by-tag", "direct", 1, lock_by_tag_with_reason, "Lock through a tag filter, reason"
    ),
    Form("lock", "read-only-reviewer", "direct", 1, lock_with_reviewer, "Lock with a reviewer policy"),
    Form("lock", "unlock-by-id", "direct", 2, unlock_by_id, "Lift a lock"),
    Form("lock", "read-only-by-ids", "indirect", 2, lock_by_ids, "Finality stated"),
    Form("lock", "append-only-by-ids", "indirect", 1, lock_by_ids, "Additions only, stated"),
    Form("expire", "ttl-soft-delete", "direct", 2, expire_ttl, "Expire by ttl, then soft delete"),
    Form("expire", "ttl-archive", "direct", 2, expire_ttl, "Expire by ttl, then archive"),
    Form("expire", "ttl-hard-delete", "direct", 1, expire_ttl, "Expire by ttl, then hard delete"),
    Form("expire", "ttl-demote", "direct", 1, expire_ttl, "Expire by ttl, then demote"),
    Form("expire", "until", "direct", 3, expire_until, "Expire at an instant (none, demote or archive)"),
    Form(
        "expire",
        "ttl-by-tag-anonymize",
        "direct",
        1,
        expire_by_tag_anonymize,
        "Expire through a tag filter, then anonymize",
    ),
    Form("expire", "ttl-by-search", "indirect", 2, expire_ttl, "A limited relevance, by search"),
    Form("expire", "until-by-id", "indirect", 1, expire_until, "Relevant until a date"),
]
