"""Update and Label scenarios."""

from __future__ import annotations

from benchmarks.memql_set.builder import Builder, Form
from benchmarks.memql_set.content import DOMAINS, FRESH_TAGS, PLACES
from benchmarks.memql_set.scene import Item, ids_of, scene
from benchmarks.memql_set.verbs import Expect


def _search(query: str, limit: int = 1) -> dict:
    return {"search": {"intent": {"query": query}, "limit": limit}}


# --- Update ---------------------------------------------------------------------------------------------


def update_text_by_id(b: Builder) -> None:
    group = scene(b, [2, 1])[0]
    a = group[0]
    used = {it.note for it in group}
    replacement = b.rng.choice([n for n in a.dom.notes if n not in used]).text
    if b.indirect:
        b.say(
            [
                (
                    'The note about the {key} is wrong; it should read: "{text}"',
                    "关于{key}的那条记录写错了，应该是：“{text}”",
                )
            ],
            key=a.note.key,
            text=replacement,
        )
        b.step(
            {"op": "Update", "target": _search(b.t(a.note.key)), "args": {"set": {"text": b.t(replacement)}}},
            Expect(hits=[a.id]),
        )
    else:
        b.say(
            [
                ('Change the text of {ids} to "{text}"', "把{ids}的内容改成“{text}”"),
                ('Rewrite {ids} so it says: "{text}"', "把{ids}改写为：“{text}”"),
            ],
            ids=b.ids([a.id]),
            text=replacement,
        )
        b.step({"op": "Update", "target": {"ids": [a.id]}, "args": {"set": {"text": b.t(replacement)}}})


def update_weight_by_id(b: Builder) -> None:
    items = [it for group in scene(b, [1, 1, 1]) for it in group]
    target = b.rng.choice(items)
    weight = b.rng.choice((0.15, 0.25, 0.85, 0.95))
    b.say(
        [
            ("Set the weight of {ids} to {w}", "把{ids}的权重设为{w}"),
            ("Update {ids}: weight {w}", "更新{ids}：权重改为{w}"),
        ],
        ids=b.ids([target.id]),
        w=weight,
    )
    b.step({"op": "Update", "target": {"ids": [target.id]}, "args": {"set": {"weight": weight}}})


def update_type_by_id(b: Builder) -> None:
    items = [it for group in scene(b, [1, 1, 1]) for it in group]
    target = b.rng.choice(items)
    kind = b.rng.choice([k for k in ("task", "event", "reference", "idea") if k != target.rec.kind])
    singular = {
        "task": ("a task", "任务"),
        "event": ("an event", "日程"),
        "reference": ("a reference note", "参考资料"),
        "idea": ("an idea", "想法"),
    }[kind]
    b.say(
        [
            ("Change {ids} into {kind}", "把{ids}改成{kind}类型"),
            ("Make the type of {ids} {kind}", "把{ids}的类型设为{kind}"),
        ],
        ids=b.ids([target.id]),
        kind=singular,
    )
    b.step({"op": "Update", "target": {"ids": [target.id]}, "args": {"set": {"type": kind}}})


def update_time_by_id(b: Builder) -> None:
    dom = b.lead(lambda d: any(n.when for n in d.notes))
    note = b.rng.choice([n for n in dom.notes if n.when])
    others = b.rng.sample([d for d in DOMAINS if d is not dom], 2)
    picks = [(dom, note), *((d, b.notes(d, 1)[0]) for d in others)]
    b.rng.shuffle(picks)
    made = [Item(d, n, b.add_note(d, n)) for d, n in picks]
    target = next(it for it in made if it.note is note)
    when = b.ago(-20, -3).replace(":00:00Z", ":30:00Z")  # a future instant
    if b.indirect:
        b.say(
            [
                ("The {key} is now on {when}", "{key}改到了{when}"),
                ("Heads up: the {key} moved to {when}", "注意：{key}挪到了{when}"),
            ],
            key=target.note.key,
            when=b.when(when),
        )
        b.step(
            {"op": "Update", "target": _search(b.t(target.note.key)), "args": {"set": {"time": when}}},
            Expect(hits=[target.id]),
        )
    else:
        b.say(
            [
                ("Move {ids} to {when}", "把{ids}的时间改到{when}"),
                ("Set the time of {ids} to {when}", "把{ids}的时间设为{when}"),
            ],
            ids=b.ids([target.id]),
            when=b.when(when),
        )
        b.step({"op": "Update", "target": {"ids": [target.id]}, "args": {"set": {"time": when}}})


def update_location_by_tag(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    place = b.rng.choice(PLACES)
    dom = groups[0][0].dom
    b.say(
        [
            (
                'Set the location to {place} for everything tagged "{tag}"',
                "把所有带“{tag}”标签的记录的地点设为{place}",
            ),
            ('Update the notes tagged "{tag}": location {place}', "更新“{tag}”标签下的记录：地点改为{place}"),
        ],
        place=place,
        tag=dom.tag,
    )
    b.step(
        {
            "op": "Update",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {"set": {"location": b.t(place)}},
        },
        Expect(hits=ids_of(groups[0])),
    )


def update_tags_by_id(b: Builder) -> None:
    items = [it for group in scene(b, [1, 1, 1]) for it in group]
    target = b.rng.choice(items)
    first, second = b.rng.sample(FRESH_TAGS, 2)
    b.say(
        [('Update {ids} so its tags are just "{a}" and "{c}"', "更新{ids}，标签只保留“{a}”和“{c}”")],
        ids=b.ids([target.id]),
        a=first,
        c=second,
    )
    b.step(
        {"op": "Update", "target": {"ids": [target.id]}, "args": {"set": {"tags": [b.t(first), b.t(second)]}}}
    )


# --- Label ----------------------------------------------------------------------------------------------


def label_add_by_ids(b: Builder) -> None:
    items = [it for group in scene(b, [1, 1, 1, 1]) for it in group]
    targets = sorted(b.rng.sample(items, b.rng.choice((1, 2))), key=lambda it: int(it.id))
    tag = b.rng.choice(FRESH_TAGS)
    b.say(
        [
            ('Tag {ids} with "{tag}"', "给{ids}加上“{tag}”标签"),
            ('Add the tag "{tag}" to {ids}', "为{ids}添加标签“{tag}”"),
            ('Label {ids} as "{tag}"', "把{ids}标记为“{tag}”"),
        ],
        ids=b.ids(ids_of(targets)),
        tag=tag,
    )
    b.step({"op": "Label", "target": {"ids": ids_of(targets)}, "args": {"tags": [b.t(tag)], "mode": "add"}})


def label_add_by_tag(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    tag, dom = b.rng.choice(FRESH_TAGS), groups[0][0].dom
    b.say(
        [
            ('Add the tag "{new}" to everything tagged "{tag}"', "给所有带“{tag}”标签的记录加上“{new}”标签"),
            (
                'Every note tagged "{tag}" should also get the tag "{new}"',
                "凡是有“{tag}”标签的记录，都再加一个“{new}”标签",
            ),
        ],
        new=tag,
        tag=dom.tag,
    )
    b.step(
        {
            "op": "Label",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {"tags": [b.t(tag)], "mode": "add"},
        },
        Expect(hits=ids_of(groups[0])),
    )


def label_add_by_type_and_time(b: Builder) -> None:
    dom = b.lead()
    kind = dom.kind
    b.add_note(dom, dom.notes[0], time=b.ago(30, 50))
    new = [b.add_note(dom, n, time=b.ago(1, 9)) for n in dom.notes[1:3]]
    other = b.rng.choice([d for d in DOMAINS if d.kind != kind])
    b.add_note(other, other.notes[b.rng.randrange(4)], time=b.ago(1, 9))
    days, tag = b.rng.choice((10, 12, 14)), b.rng.choice(FRESH_TAGS)
    b.say(
        [('Tag all {kinds} from the last {n} days as "{tag}"', "把最近{n}天的所有{kinds}标记为“{tag}”")],
        kinds=b.kind_words(kind),
        n=days,
        tag=tag,
    )
    b.step(
        {
            "op": "Label",
            "target": {
                "filter": {"type": kind, "time_range": {"relative": "last", "amount": days, "unit": "days"}}
            },
            "args": {"tags": [b.t(tag)], "mode": "add"},
        },
        Expect(hits=[r.id for r in new]),
    )


def label_replace_by_id(b: Builder) -> None:
    items = [it for group in scene(b, [1, 1, 1]) for it in group]
    target = b.rng.choice(items)
    first, second = b.rng.sample(FRESH_TAGS, 2)
    b.say(
        [
            ('Replace the tags of {ids} with "{a}" and "{c}"', "把{ids}的标签替换成“{a}”和“{c}”"),
            ('Retag {ids}: only "{a}" and "{c}"', "重新给{ids}打标签：只要“{a}”和“{c}”"),
        ],
        ids=b.ids([target.id]),
        a=first,
        c=second,
    )
    b.step(
        {
            "op": "Label",
            "target": {"ids": [target.id]},
            "args": {"tags": [b.t(first), b.t(second)], "mode": "replace"},
        }
    )


def label_remove_by_ids(b: Builder) -> None:
    tag = b.rng.choice(FRESH_TAGS)
    doms = b.domains(3)
    tagged = [b.add_note(d, d.notes[b.rng.randrange(4)], tags=[d.tag, tag]) for d in doms[:2]]
    b.add_note(doms[2], doms[2].notes[b.rng.randrange(4)], tags=[doms[2].tag, tag])
    if b.indirect:
        b.say(
            [
                ('{ids} no longer count as "{tag}"', "{ids}已经不算“{tag}”了"),
                ('{ids}: that "{tag}" label doesn\'t apply anymore', "{ids}的“{tag}”已经不适用了"),
            ],
            ids=b.ids([r.id for r in tagged]),
            tag=tag,
        )
    else:
        b.say(
            [
                ('Remove the "{tag}" tag from {ids}', "去掉{ids}上的“{tag}”标签"),
                ('Take the tag "{tag}" off {ids}', "把{ids}的“{tag}”标签删掉"),
            ],
            ids=b.ids([r.id for r in tagged]),
            tag=tag,
        )
    b.step(
        {
            "op": "Label",
            "target": {"ids": [r.id for r in tagged]},
            "args": {"tags": [b.t(tag)], "mode": "remove"},
        }
    )


def label_facet_by_id(b: Builder) -> None:
    items = [it for group in scene(b, [1, 1, 1]) for it in group]
    target, place = b.rng.choice(items), b.rng.choice(PLACES)
    b.say(
        [("Label {ids} with the location {place}", "给{ids}标注地点：{place}")],
        ids=b.ids([target.id]),
        place=place,
    )
    b.step(
        {
            "op": "Label",
            "target": {"ids": [target.id]},
            "args": {"facets": {"location": b.t(place)}, "mode": "add"},
        }
    )


def label_add_indirect(b: Builder) -> None:
    items = [it for group in scene(b, [1, 1, 1, 1]) for it in group]
    targets = sorted(b.rng.sample(items, 2), key=lambda it: int(it.id))
    concept = b.rng.choice([("weekend", "周末"), ("shared", "共享"), ("checklist", "清单")])
    b.say(
        {
            "weekend": [("{ids} are part of my weekend plans too", "{ids}也属于我的周末安排")],
            "shared": [
                (
                    "I'm sharing {ids} with the family, so they should count as shared",
                    "{ids}要和家人共享，算作共享内容",
                )
            ],
            "checklist": [("{ids} belong on my checklist", "{ids}应该归入我的清单")],
        }[concept[0]],
        ids=b.ids(ids_of(targets)),
    )
    b.step(
        {"op": "Label", "target": {"ids": ids_of(targets)}, "args": {"tags": [b.t(concept)], "mode": "add"}}
    )


FORMS = [
    Form("update", "text-by-id", "direct", 3, update_text_by_id, "Update the text of one record by id"),
    Form("update", "weight-by-id", "direct", 2, update_weight_by_id, "Update the weight by id"),
    Form("update", "type-by-id", "direct", 2, update_type_by_id, "Update the record type by id"),
    Form("update", "time-by-id", "direct", 2, update_time_by_id, "Update the event time by id"),
    Form(
        "update",
        "location-by-tag",
        "direct",
        2,
        update_location_by_tag,
        "Update a facet through a tag filter",
    ),
    Form("update", "tags-by-id", "direct", 1, update_tags_by_id, "Update replaces the tags"),
    Form("update", "text-by-search", "indirect", 2, update_text_by_id, "A correction: new text, by search"),
    Form("update", "time-by-search", "indirect", 2, update_time_by_id, "A changed date, by search"),
    Form("label", "add-by-ids", "direct", 3, label_add_by_ids, "Label add by ids"),
    Form("label", "add-by-tag", "direct", 2, label_add_by_tag, "Label add through a tag filter"),
    Form(
        "label",
        "add-by-type-and-time",
        "direct",
        1,
        label_add_by_type_and_time,
        "Label add through type and a relative time range",
    ),
    Form("label", "replace-by-id", "direct", 2, label_replace_by_id, "Label replace"),
    Form("label", "remove-by-ids", "direct", 2, label_remove_by_ids, "Label remove"),
    Form("label", "facet-by-id", "direct", 1, label_facet_by_id, "Label adds a facet"),
    Form("label", "add-by-ids", "indirect", 2, label_add_indirect, "A stated grouping becomes a tag"),
    Form("label", "remove-by-ids", "indirect", 1, label_remove_by_ids, "A tag that no longer applies"),
]
