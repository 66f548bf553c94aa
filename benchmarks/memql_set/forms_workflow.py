"""Workflow scenarios: 2-4 steps in one transaction, later steps often naming an earlier step's records
(`from_step`, the memql extension), in "first … then …" / "先…再…" and looser phrasings."""

from __future__ import annotations

from benchmarks.memql_set.builder import Builder, Form
from benchmarks.memql_set.content import DOMAINS, FRESH_TAGS, NEW_FACTS
from benchmarks.memql_set.forms_lifecycle import AFTER, DURATIONS
from benchmarks.memql_set.forms_weight import WEEKDAY_NAMES
from benchmarks.memql_set.scene import Item, ids_of, scene
from benchmarks.memql_set.verbs import Expect
from benchmarks.memql_set.world import Contains

SPANS = {
    "P7D": ("a week", "一周"),
    "P14D": ("two weeks", "两周"),
    "P1M": ("a month", "一个月"),
    "P30D": ("30 days", "30天"),
}


def _flat(b: Builder, sizes: list[int]) -> list[Item]:
    return [it for group in scene(b, sizes) for it in group]


def _fact(b: Builder):
    note = b.rotate(NEW_FACTS)
    return note.text, Contains((b.t(note.key),))


def _encode(b: Builder, text, must, tags: tuple[str, ...] = ()) -> None:
    b.step({"op": "Encode", "args": {"payload": {"text": b.t(text)}}}, Expect(text=must, tags=Contains(tags)))


def encode_label(b: Builder) -> None:
    _flat(b, [1, 1])
    (text, must), tag = _fact(b), b.rng.choice(FRESH_TAGS)
    if b.indirect:
        b.say(
            [
                (
                    '{fact} I\'ll want to find that again among my "{tag}" things.',
                    "{fact}以后我要在“{tag}”里找到它。",
                )
            ],
            fact=text,
            tag=tag,
        )
    else:
        b.say(
            [
                ('First save "{fact}", then tag it "{tag}"', "先保存“{fact}”，再给它加上“{tag}”标签"),
                ('Store this: {fact} Then label it "{tag}".', "存下这条：{fact}然后标记为“{tag}”。"),
            ],
            fact=text,
            tag=tag,
        )
    _encode(b, text, must)
    b.step({"op": "Label", "target": {"from_step": 0}, "args": {"tags": [b.t(tag)], "mode": "add"}})


def encode_lock(b: Builder) -> None:
    _flat(b, [1, 1])
    text, must = _fact(b)
    if b.indirect:
        b.say(
            [
                (
                    "{fact} Keep that, and make sure nobody edits it.",
                    "{fact}把这个记下来，而且别让任何人改动。",
                )
            ],
            fact=text,
        )
    else:
        b.say(
            [
                ("Remember this: {fact} Then lock it read-only.", "记住：{fact}然后把它锁成只读。"),
                ('First save "{fact}", then make it read-only', "先保存“{fact}”，再设为只读"),
            ],
            fact=text,
        )
    _encode(b, text, must)
    b.step({"op": "Lock", "target": {"from_step": 0}, "args": {"mode": "read_only"}})


def encode_expire(b: Builder) -> None:
    _flat(b, [1, 1])
    text, must = _fact(b)
    ttl = b.rng.choice(list(SPANS))
    if b.indirect:
        action = "soft_delete"
        b.say([("Keep this for {span} only: {fact}", "这条只保留{span}：{fact}")], span=SPANS[ttl], fact=text)
    else:
        action = b.rng.choice(("soft_delete", "archive"))
        b.say(
            [("Note down: {fact} Make it expire {dur} and {then}.", "记下：{fact}让它{dur}过期，{then}。")],
            fact=text,
            dur=DURATIONS[ttl],
            then=AFTER[action],
        )
    _encode(b, text, must)
    b.step({"op": "Expire", "target": {"from_step": 0}, "args": {"ttl": ttl, "on_expire": action}})


def encode_remind(b: Builder) -> None:
    _flat(b, [1, 1])
    (text, must), day = _fact(b), b.rng.choice(list(WEEKDAY_NAMES))
    b.say(
        [('Add "{fact}" and remind me about it every {day}', "添加“{fact}”，并且每{day}提醒我")],
        fact=text,
        day=WEEKDAY_NAMES[day],
    )
    _encode(b, text, must)
    b.step(
        {
            "op": "Promote",
            "target": {"from_step": 0},
            "args": {"remind": {"rrule": f"FREQ=WEEKLY;BYDAY={day}"}},
        }
    )


def encode_label_promote_lock(b: Builder) -> None:
    _flat(b, [1, 1])
    (text, must), tag, weight = _fact(b), b.rng.choice(FRESH_TAGS), b.rng.choice((0.8, 0.9))
    b.say(
        [
            (
                'Save "{fact}", tag it "{tag}", set its weight to {w} and lock it read-only',
                "保存“{fact}”，加上“{tag}”标签，权重设为{w}，然后锁成只读",
            )
        ],
        fact=text,
        tag=tag,
        w=weight,
    )
    _encode(b, text, must)
    b.step({"op": "Label", "target": {"from_step": 0}, "args": {"tags": [b.t(tag)], "mode": "add"}})
    b.step({"op": "Promote", "target": {"from_step": 0}, "args": {"weight": weight}})
    b.step({"op": "Lock", "target": {"from_step": 0}, "args": {"mode": "read_only"}})


def retrieve_archive(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom = groups[0][0].dom
    b.say(
        [
            ('Find the notes tagged "{tag}" and archive them', "找出带“{tag}”标签的记录并归档"),
            (
                'First look up everything tagged "{tag}", then archive it',
                "先查出所有带“{tag}”标签的记录，再把它们归档",
            ),
        ],
        tag=dom.tag,
    )
    b.step(
        {"op": "Retrieve", "target": {"filter": {"has_tags": [b.t(dom.tag)]}}, "args": {}},
        Expect(hits=ids_of(groups[0])),
    )
    b.step({"op": "Demote", "target": {"from_step": 0}, "args": {"archive": True}})


def retrieve_label(b: Builder) -> None:
    dom = b.lead()
    b.add_note(dom, dom.notes[0], time=b.ago(30, 45))
    recent = [b.add_note(dom, n, time=b.ago(1, 8)) for n in dom.notes[1:3]]
    other = b.rng.choice([d for d in DOMAINS if d.kind != dom.kind])
    b.add_note(other, other.notes[b.rng.randrange(4)], time=b.ago(1, 8))
    days, tag = b.rng.choice((10, 14)), b.rng.choice(FRESH_TAGS)
    b.say(
        [
            (
                'First find my {kinds} from the last {n} days, then tag them "{tag}"',
                "先找出最近{n}天的{kinds}，再给它们加上“{tag}”标签",
            )
        ],
        kinds=b.kind_words(dom.kind),
        n=days,
        tag=tag,
    )
    b.step(
        {
            "op": "Retrieve",
            "target": {
                "filter": {
                    "type": dom.kind,
                    "time_range": {"relative": "last", "amount": days, "unit": "days"},
                }
            },
            "args": {},
        },
        Expect(hits=[r.id for r in recent]),
    )
    b.step({"op": "Label", "target": {"from_step": 0}, "args": {"tags": [b.t(tag)], "mode": "add"}})


def retrieve_summarize_archive(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    sources, others = groups[0], groups[1] + groups[2]
    dom = sources[0].dom
    if b.indirect:
        b.say(
            [
                (
                    "I'm finished with {topic}: keep a short recap and get the old notes out of the way",
                    "{topic}的事告一段落了：留一份简短回顾，把旧记录收起来",
                )
            ],
            topic=dom.topic,
        )
    else:
        b.say(
            [
                (
                    'Find everything tagged "{tag}", summarize it, then archive the originals',
                    "找出带“{tag}”标签的所有记录，做个总结，再把原记录归档",
                )
            ],
            tag=dom.tag,
        )
    b.step(
        {"op": "Retrieve", "target": {"filter": {"has_tags": [b.t(dom.tag)]}}, "args": {}},
        Expect(hits=ids_of(sources)),
    )
    b.step(
        {"op": "Summarize", "target": {"from_step": 0}, "args": {}},
        Expect(
            summary=Contains(
                tuple(b.t(it.note.key) for it in sources), tuple(b.t(it.note.key) for it in others)
            )
        ),
    )
    b.step({"op": "Demote", "target": {"from_step": 0}, "args": {"archive": True}})


def retrieve_delete(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom = groups[0][0].dom
    b.say(
        [
            (
                "Look up what I have on {topic}; I won't need any of it after that",
                "查一下我关于{topic}的记录，看完之后这些就都用不上了",
            )
        ],
        topic=dom.topic,
    )
    b.step(
        {"op": "Retrieve", "target": {"filter": {"has_tags": [b.t(dom.tag)]}}, "args": {}},
        Expect(hits=ids_of(groups[0])),
    )
    b.step({"op": "Delete", "target": {"from_step": 0}, "args": {"soft": True}})


def _pair(b: Builder) -> tuple[Item, Item]:
    dom = b.lead()
    others = b.rng.sample([d for d in DOMAINS if d is not dom], 2)
    weights = b.rng.sample((0.3, 0.4, 0.5, 0.6, 0.7), 2)
    picks = [(dom, n, w) for n, w in zip(b.notes(dom, 2), weights, strict=True)]
    picks += [(o, b.notes(o, 1)[0], b.weight()) for o in others]
    b.rng.shuffle(picks)
    made = [Item(d, n, b.add_note(d, n, weight=w)) for d, n, w in picks]
    first, second = [it for it in made if it.dom is dom]
    return (first, second) if b.rng.random() < 0.5 else (second, first)


def merge_label_lock(b: Builder) -> None:
    primary, child = _pair(b)
    if b.indirect:
        b.say(
            [
                (
                    "{child} and {main} are duplicates; "
                    "fold them together into {main} and keep the result safe from edits",
                    "{child}和{main}重复了；把它们合到{main}里，并且别让合并结果再被改动",
                )
            ],
            child=b.ids([child.id]),
            main=b.ids([primary.id]),
        )
    else:
        tag = b.rng.choice(FRESH_TAGS)
        b.say(
            [
                (
                    'Merge {child} into {main}, tag the result "{tag}" and lock it read-only',
                    "把{child}合并到{main}，给结果加上“{tag}”标签并锁成只读",
                )
            ],
            child=b.ids([child.id]),
            main=b.ids([primary.id]),
            tag=tag,
        )
    b.step(
        {
            "op": "Merge",
            "target": {"ids": [primary.id, child.id]},
            "args": {"strategy": "merge_into_primary", "primary_id": primary.id},
        }
    )
    if not b.indirect:
        b.step({"op": "Label", "target": {"ids": [primary.id]}, "args": {"tags": [b.t(tag)], "mode": "add"}})
    b.step({"op": "Lock", "target": {"ids": [primary.id]}, "args": {"mode": "read_only"}})


def label_split(b: Builder) -> None:
    dom = b.lead()
    other = b.rng.choice([d for d in DOMAINS if d is not dom])
    b.add_note(other, other.notes[b.rng.randrange(4)])
    rec, parts = b.add_long(dom, b.rng.randrange(2))
    tag = b.rng.choice(FRESH_TAGS)
    b.say(
        [('Tag {ids} "{tag}", then split it into sentences', "先给{ids}加上“{tag}”标签，再按句子拆分")],
        ids=b.ids([rec.id]),
        tag=tag,
    )
    b.step({"op": "Label", "target": {"ids": [rec.id]}, "args": {"tags": [b.t(tag)], "mode": "add"}})
    b.step(
        {"op": "Split", "target": {"ids": [rec.id]}, "args": {"strategy": "by_sentences"}},
        Expect(parts=parts),
    )


def update_promote(b: Builder) -> None:
    group = scene(b, [2, 1])[0]
    target = group[0]
    used = {it.note for it in group}
    text = b.rng.choice([n for n in target.dom.notes if n not in used]).text
    weight = b.rng.choice((0.8, 0.9, 1.0))
    b.say(
        [
            (
                'Change the text of {ids} to "{text}" and raise its priority to {w}',
                "把{ids}的内容改成“{text}”，并把优先级提高到{w}",
            )
        ],
        ids=b.ids([target.id]),
        text=text,
        w=weight,
    )
    b.step({"op": "Update", "target": {"ids": [target.id]}, "args": {"set": {"text": b.t(text)}}})
    b.step({"op": "Promote", "target": {"ids": [target.id]}, "args": {"weight": weight}})


def delete_encode(b: Builder) -> None:
    group = scene(b, [1, 1, 1])[0]
    target = group[0]
    text, must = _fact(b)
    b.say(
        [
            ('Delete {ids} and save "{fact}" instead', "删除{ids}，改存“{fact}”"),
            ('Replace {ids}: delete it, then store "{fact}"', "替换{ids}：先删除它，再保存“{fact}”"),
        ],
        ids=b.ids([target.id]),
        fact=text,
    )
    b.step({"op": "Delete", "target": {"ids": [target.id]}, "args": {"soft": True}})
    _encode(b, text, must)


def unlock_update_lock(b: Builder) -> None:
    group = scene(b, [2, 1])[0]
    target = group[0]
    used = {it.note for it in group}
    text = b.rng.choice([n for n in target.dom.notes if n not in used]).text
    b.prerequisite(
        {"stage": "STO", "op": "Lock", "target": {"ids": [target.id]}, "args": {"mode": "read_only"}}
    )
    b.say(
        [
            (
                'Unlock {ids}, change its text to "{text}", then lock it read-only again',
                "解锁{ids}，把内容改成“{text}”，然后重新锁成只读",
            )
        ],
        ids=b.ids([target.id]),
        text=text,
    )
    b.step({"op": "Lock", "target": {"ids": [target.id]}, "args": {"mode": "unlock"}})
    b.step({"op": "Update", "target": {"ids": [target.id]}, "args": {"set": {"text": b.t(text)}}})
    b.step({"op": "Lock", "target": {"ids": [target.id]}, "args": {"mode": "read_only"}})


def expire_demote(b: Builder) -> None:
    items = _flat(b, [1, 1, 1])
    target, ttl = b.rng.choice(items), b.rng.choice(("P1M", "P3M"))
    b.say(
        [
            (
                "Set {ids} to expire {dur} and archive it then; lower its weight to 0.2 right away",
                "让{ids}{dur}过期并在到期时归档；现在先把权重降到0.2",
            )
        ],
        ids=b.ids([target.id]),
        dur=DURATIONS[ttl],
    )
    b.step({"op": "Expire", "target": {"ids": [target.id]}, "args": {"ttl": ttl, "on_expire": "archive"}})
    b.step({"op": "Demote", "target": {"ids": [target.id]}, "args": {"weight": 0.2}})


def label_promote_by_tag(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom = groups[0][0].dom
    b.say(
        [
            (
                "Everything about {topic} just became critical: "
                'flag those notes "urgent" and make them count the most',
                "{topic}的事突然变得很关键：这些记录要标上“紧急”，并且最重要",
            )
        ],
        topic=dom.topic,
    )
    b.step(
        {
            "op": "Label",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {"tags": [b.t(("urgent", "紧急"))], "mode": "add"},
        },
        Expect(hits=ids_of(groups[0])),
    )
    b.step({"op": "Promote", "target": {"from_step": 0}, "args": {"weight": 1.0}})


FORMS = [
    Form("encode-label", "from-step", "direct", 2, encode_label, "Encode, then Label the new record"),
    Form("encode-label", "from-step", "indirect", 1, encode_label, "A fact to file under a tag"),
    Form("encode-lock", "from-step", "direct", 2, encode_lock, "Encode, then Lock the new record"),
    Form("encode-lock", "from-step", "indirect", 2, encode_lock, "A fact to keep unchanged"),
    Form("encode-expire", "from-step", "direct", 2, encode_expire, "Encode, then Expire the new record"),
    Form("encode-expire", "from-step", "indirect", 2, encode_expire, "A fact kept for a while"),
    Form("encode-promote", "remind", "direct", 1, encode_remind, "Encode, then a weekly reminder"),
    Form(
        "encode-label-promote-lock",
        "from-step",
        "direct",
        1,
        encode_label_promote_lock,
        "Four steps on one new record",
    ),
    Form("retrieve-demote", "archive", "direct", 2, retrieve_archive, "Retrieve by tag, archive the hits"),
    Form(
        "retrieve-label",
        "type-and-time",
        "direct",
        2,
        retrieve_label,
        "Retrieve by type and time, label hits",
    ),
    Form(
        "retrieve-summarize-demote",
        "archive",
        "direct",
        1,
        retrieve_summarize_archive,
        "Retrieve, summarize the hits, archive them",
    ),
    Form(
        "retrieve-summarize-demote",
        "archive",
        "indirect",
        2,
        retrieve_summarize_archive,
        "A finished topic: recap, put away",
    ),
    Form("retrieve-delete", "from-step", "indirect", 1, retrieve_delete, "Look once, then not needed"),
    Form("merge-label-lock", "by-ids", "direct", 2, merge_label_lock, "Merge, label and lock the primary"),
    Form("merge-lock", "by-ids", "indirect", 1, merge_label_lock, "Duplicates folded and protected"),
    Form("label-split", "by-ids", "direct", 1, label_split, "Label, then Split: parts inherit the tag"),
    Form("update-promote", "by-ids", "direct", 2, update_promote, "Update the text, then Promote"),
    Form("delete-encode", "by-ids", "direct", 2, delete_encode, "Delete, then Encode a replacement"),
    Form(
        "lock-update-lock",
        "unlock-edit-relock",
        "direct",
        1,
        unlock_update_lock,
        "Unlock, Update, Lock again",
    ),
    Form("expire-demote", "by-ids", "direct", 1, expire_demote, "Expire, then Demote"),
    Form("label-promote", "by-tag", "indirect", 1, label_promote_by_tag, "A topic turned critical"),
]
