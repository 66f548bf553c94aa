"""Encode, Retrieve and Summarize scenarios."""

from __future__ import annotations

from datetime import timedelta

from benchmarks.memql_set.builder import Builder, Form
from benchmarks.memql_set.content import (
    DOMAINS,
    FRESH_TAGS,
    NEW_EVENTS,
    NEW_FACTS,
    NEW_TASKS,
    PEOPLE,
    PLACES,
    Note,
)
from benchmarks.memql_set.scene import Item, ids_of, scene
from benchmarks.memql_set.verbs import Expect
from benchmarks.memql_set.world import Contains, iso

PRIORITY = {0.2: ("low", "低"), 0.8: ("high", "高"), 1.0: ("urgent", "紧急")}


def _flat(b: Builder, sizes: list[int]) -> list[Item]:
    return [it for group in scene(b, sizes) for it in group]


def _fact(b: Builder, pool: tuple[Note, ...] = NEW_FACTS):
    note = b.rotate(pool)
    return note.text, Contains((b.t(note.key),))


# --- Encode ---------------------------------------------------------------------------------------------


def encode_tagged(b: Builder) -> None:
    _flat(b, [1, 1])
    (text, must), tag = _fact(b), b.rng.choice(FRESH_TAGS)
    b.say(
        [
            ('Remember this: {fact} Tag it "{tag}".', "记住：{fact}打上“{tag}”标签。"),
            ('Save a note, tagged "{tag}": {fact}', "存一条记录，标签“{tag}”：{fact}"),
        ],
        fact=text,
        tag=tag,
    )
    b.step(
        {"op": "Encode", "args": {"payload": {"text": b.t(text)}, "tags": [b.t(tag)]}},
        Expect(text=must, tags=Contains((b.t(tag),))),
    )


def encode_typed_priority(b: Builder) -> None:
    _flat(b, [1, 1])
    (text, must), weight = _fact(b, NEW_TASKS), b.rng.choice((0.2, 0.8, 1.0))
    b.say(
        [
            ("Add a task with {p} priority: {fact}", "新建一个{p}优先级任务：{fact}"),
            ("New task, {p} priority: {fact}", "新任务，{p}优先级：{fact}"),
        ],
        p=PRIORITY[weight],
        fact=text,
    )
    b.step(
        {"op": "Encode", "args": {"payload": {"text": b.t(text)}, "type": "task", "weight": weight}},
        Expect(text=must, tags=Contains()),
    )


def encode_event_time(b: Builder) -> None:
    _flat(b, [1, 1])
    text, must = _fact(b, NEW_EVENTS)
    when = iso(
        (b.now + timedelta(days=b.rng.randint(2, 30))).replace(hour=b.rng.choice((9, 10, 14, 19)), minute=0)
    )
    b.say(
        [("Save an event for {when}: {fact}", "保存一个{when}的日程：{fact}")], when=b.when(when), fact=text
    )
    b.step(
        {"op": "Encode", "args": {"payload": {"text": b.t(text)}, "type": "event", "time": when}},
        Expect(text=must, tags=Contains()),
    )


def encode_subject_location(b: Builder) -> None:
    _flat(b, [1, 1])
    person, place = b.rng.choice(PEOPLE), b.rng.choice(PLACES)
    text = (f"{person[0]} moved to {place[0]}.", f"{person[1]}搬到了{place[1]}。")
    b.say(
        [
            (
                "Save a note that {who} moved to {place}, with subject {who} and location {place}",
                "记一条：{who}搬到了{place}，主题人物是{who}，地点是{place}",
            )
        ],
        who=person,
        place=place,
    )
    b.step(
        {
            "op": "Encode",
            "args": {"payload": {"text": b.t(text)}, "subject": b.t(person), "location": b.t(place)},
        },
        Expect(text=Contains((b.t(person), b.t(place))), tags=Contains()),
    )


def encode_indirect(b: Builder) -> None:
    _flat(b, [1, 1])
    text, must = _fact(b)
    b.say(
        [
            ("Just so you know for later: {fact}", "以后可能用得上：{fact}"),
            ("Something I'll need to know later: {fact}", "这个以后我得知道：{fact}"),
            ("FYI for the future: {fact}", "供以后参考：{fact}"),
        ],
        fact=text,
    )
    b.step({"op": "Encode", "args": {"payload": {"text": b.t(text)}}}, Expect(text=must, tags=Contains()))


# --- Retrieve -------------------------------------------------------------------------------------------


def retrieve_by_tag(b: Builder) -> None:
    groups = scene(b, [2, 1, 1])
    dom = groups[0][0].dom
    if b.indirect:
        b.say(
            [
                ("What did I write about {topic}?", "关于{topic}我都记了些什么？"),
                ("What do I have on {topic}?", "{topic}方面我都有哪些记录？"),
            ],
            topic=dom.topic,
        )
    else:
        b.say(
            [
                ('Show me my notes tagged "{tag}"', "给我看带“{tag}”标签的记录"),
                ('List everything tagged "{tag}"', "列出所有标签为“{tag}”的记录"),
            ],
            tag=dom.tag,
        )
    b.step(
        {"op": "Retrieve", "target": {"filter": {"has_tags": [b.t(dom.tag)]}}, "args": {}},
        Expect(hits=ids_of(groups[0])),
    )


def retrieve_by_type(b: Builder) -> None:
    kind = b.rng.choice(("task", "event", "reference"))
    same = b.rng.sample([d for d in DOMAINS if d.kind == kind], 2)
    different = b.rng.sample([d for d in DOMAINS if d.kind != kind], 2)
    picks = [(d, b.notes(d, 1)[0]) for d in same + different]
    b.rng.shuffle(picks)
    made = [b.add_note(d, n) for d, n in picks]
    b.say(
        [("List my {kinds}", "列出我的{kinds}"), ("Which {kinds} do I have?", "我有哪些{kinds}？")],
        kinds=b.kind_words(kind),
    )
    b.step(
        {"op": "Retrieve", "target": {"filter": {"type": kind}}, "args": {}},
        Expect(hits=[r.id for r in made if r.kind == kind]),
    )


def retrieve_recent(b: Builder) -> None:
    doms = b.domains(4)
    days = b.rng.choice((7, 10))
    times = [b.ago(1, days - 2), b.ago(1, days - 2), b.ago(days + 5, 40), b.ago(days + 5, 40)]
    order = list(range(4))
    b.rng.shuffle(order)
    made = [b.add_note(doms[i], doms[i].notes[b.rng.randrange(4)], time=times[i]) for i in order]
    b.say(
        [
            ("What did I note in the last {n} days?", "最近{n}天我记了什么？"),
            ("Show my memories from the past {n} days", "显示过去{n}天的记忆"),
        ],
        n=days,
    )
    b.step(
        {
            "op": "Retrieve",
            "target": {"filter": {"time_range": {"relative": "last", "amount": days, "unit": "days"}}},
            "args": {},
        },
        Expect(hits=[r.id for r in made if r.time >= iso(b.now - timedelta(days=days))]),
    )


def retrieve_absolute_range(b: Builder) -> None:
    doms = b.domains(4)
    start = (b.now - timedelta(days=b.rng.choice((30, 45, 60)))).replace(hour=0, minute=0)
    inside = [iso(start + timedelta(days=d, hours=10)) for d in (1, 4)]
    outside = [iso(start - timedelta(days=6, hours=-9)), iso(start + timedelta(days=12, hours=15))]
    times = inside + outside
    order = list(range(4))
    b.rng.shuffle(order)
    made = [b.add_note(doms[i], doms[i].notes[b.rng.randrange(4)], time=times[i]) for i in order]
    last = start + timedelta(days=6)
    b.say([("Show the notes from {a} to {z}", "显示{a}到{z}的记录")], a=b.day(start), z=b.day(last))
    b.step(
        {
            "op": "Retrieve",
            "target": {
                "filter": {
                    "time_range": {
                        "start": iso(start),
                        "end": iso(last.replace(hour=23, minute=59, second=59)),
                    }
                }
            },
            "args": {},
        },
        Expect(hits=[r.id for r in made if r.time in inside]),
    )


def retrieve_by_search(b: Builder) -> None:
    target = scene(b, [1, 1, 1, 1])[0][0]
    if b.indirect:
        b.say(
            [
                ("What was the {key} again?", "{key}是怎么说的来着？"),
                ("I can't remember the details of the {key}", "我记不清{key}的细节了"),
            ],
            key=target.note.key,
        )
    else:
        b.say(
            [
                ("Find the note about the {key}", "查找关于{key}的记录"),
                ("Search my memory for the {key}", "在记忆里搜索{key}"),
            ],
            key=target.note.key,
        )
    b.step(
        {"op": "Retrieve", "target": {"search": {"intent": {"query": b.t(target.note.key)}}}, "args": {}},
        Expect(hits=[target.id]),
    )


def retrieve_search_top_k(b: Builder) -> None:
    first, second = scene(b, [2, 1, 1])[0]
    keys = (first.note.key, second.note.key)
    query = (f"{keys[0][0]} {keys[1][0]}", f"{keys[0][1]} {keys[1][1]}")
    b.say(
        [
            ("Find my two notes about the {a} and the {c}", "找出关于{a}和{c}的两条记录"),
            ('Search for "{q}" and give me the top 2', "搜索“{q}”，给我前2条"),
        ],
        a=keys[0],
        c=keys[1],
        q=query,
    )
    b.step(
        {
            "op": "Retrieve",
            "target": {"search": {"intent": {"query": b.t(query)}, "overrides": {"k": 2}}},
            "args": {},
        },
        Expect(hits=ids_of([first, second])),
    )


def retrieve_not_tag(b: Builder) -> None:
    category = b.rng.choice(
        [c for c in sorted({d.category for d in DOMAINS}) if sum(d.category == c for d in DOMAINS) >= 2]
    )
    first, second = b.rng.sample([d for d in DOMAINS if d.category == category], 2)
    other = b.rng.choice([d for d in DOMAINS if d.category != category])
    picks = [(first, n) for n in b.notes(first, 2)] + [
        (second, b.notes(second, 1)[0]),
        (other, other.notes[0]),
    ]
    b.rng.shuffle(picks)
    made = [(d, b.add_note(d, n)) for d, n in picks]
    b.say(
        [('Show notes tagged "{cat}" but not "{tag}"', "显示带“{cat}”标签但不带“{tag}”标签的记录")],
        cat=category,
        tag=first.tag,
    )
    b.step(
        {
            "op": "Retrieve",
            "target": {"filter": {"has_tags": [b.t(category)], "not_tags": [b.t(first.tag)]}},
            "args": {},
        },
        Expect(hits=[r.id for d, r in made if d is second]),
    )


def retrieve_weight_gte(b: Builder) -> None:
    doms = b.domains(4)
    weights = [0.8, b.rng.choice((0.9, 1.0)), 0.4, b.rng.choice((0.5, 0.7))]
    order = list(range(4))
    b.rng.shuffle(order)
    made = [b.add_note(doms[i], doms[i].notes[b.rng.randrange(4)], weight=weights[i]) for i in order]
    b.say(
        [
            ("Show my notes with a weight of at least 0.8", "显示权重不低于0.8的记录"),
            ("Which memories have weight 0.8 or more?", "哪些记忆的权重在0.8及以上？"),
        ]
    )
    b.step(
        {"op": "Retrieve", "target": {"filter": {"weight_gte": 0.8}}, "args": {}},
        Expect(hits=[r.id for r in made if (r.weight or 0) >= 0.8]),
    )


def retrieve_archived(b: Builder) -> None:
    items = _flat(b, [1, 1, 1, 1])
    archived = sorted(b.rng.sample(items, 2), key=lambda it: int(it.id))
    b.prerequisite(
        {"stage": "STO", "op": "Demote", "target": {"ids": ids_of(archived)}, "args": {"archive": True}}
    )
    b.say([("Show my archived notes", "显示已归档的记录"), ("What have I archived?", "我归档了哪些内容？")])
    b.step(
        {"op": "Retrieve", "target": {"filter": {"status": "archived"}}, "args": {}},
        Expect(hits=ids_of(archived)),
    )


def retrieve_by_ids(b: Builder) -> None:
    items = _flat(b, [1, 1, 1, 1])
    targets = sorted(b.rng.sample(items, 2), key=lambda it: int(it.id))
    b.say([("Show me {ids}", "给我看{ids}"), ("Open {ids}", "打开{ids}")], ids=b.ids(ids_of(targets)))
    b.step({"op": "Retrieve", "target": {"ids": ids_of(targets)}, "args": {}})


def retrieve_recent_limit(b: Builder) -> None:
    dom = b.lead()
    others = b.rng.sample([d for d in DOMAINS if d is not dom], 1)
    days = b.rng.sample(range(2, 30), 3)
    made = [b.add_note(dom, n, time=b.ago(d, d)) for n, d in zip(b.notes(dom, 3), days, strict=True)]
    b.add_note(others[0], others[0].notes[0], time=b.ago(1, 1))
    newest = sorted(made, key=lambda r: r.time or "", reverse=True)[:2]
    b.say([('Show the 2 most recent notes tagged "{tag}"', "显示带“{tag}”标签的最近2条记录")], tag=dom.tag)
    b.step(
        {"op": "Retrieve", "target": {"filter": {"has_tags": [b.t(dom.tag)], "limit": 2}}, "args": {}},
        Expect(hits=[r.id for r in newest]),
    )


# --- Summarize ------------------------------------------------------------------------------------------


def _keys(b: Builder, items: list[Item]) -> tuple[str, ...]:
    return tuple(b.t(it.note.key) for it in items)


def summarize_by_tag_focus(b: Builder) -> None:
    groups = scene(b, [3, 1, 1])
    sources, others = groups[0], groups[1] + groups[2]
    focus = b.rng.choice(sources)
    if b.indirect:
        b.say(
            [
                (
                    "I need a quick recap of {topic}, mostly about the {key}",
                    "我需要一份{topic}的简要回顾，重点是{key}",
                )
            ],
            topic=focus.dom.topic,
            key=focus.note.key,
        )
    else:
        b.say(
            [
                (
                    'Summarize my notes tagged "{tag}", focusing on the {key}',
                    "总结带“{tag}”标签的记录，重点关注{key}",
                )
            ],
            tag=focus.dom.tag,
            key=focus.note.key,
        )
    b.step(
        {
            "op": "Summarize",
            "target": {"filter": {"has_tags": [b.t(focus.dom.tag)]}},
            "args": {"focus": b.t(focus.note.key)},
        },
        Expect(hits=ids_of(sources), summary=Contains((b.t(focus.note.key),), _keys(b, others))),
    )


def summarize_by_ids(b: Builder) -> None:
    items = _flat(b, [1, 1, 1, 1])
    sources = sorted(b.rng.sample(items, 2), key=lambda it: int(it.id))
    others = [it for it in items if it not in sources]
    b.say(
        [("Summarize {ids}", "总结一下{ids}"), ("Give me a summary of {ids}", "给我一份{ids}的摘要")],
        ids=b.ids(ids_of(sources)),
    )
    b.step(
        {"op": "Summarize", "target": {"ids": ids_of(sources)}, "args": {}},
        Expect(summary=Contains(_keys(b, sources), _keys(b, others))),
    )


def summarize_recent(b: Builder) -> None:
    doms = b.domains(4)
    days = b.rng.choice((7, 14))
    times = [b.ago(1, days - 3), b.ago(1, days - 3), b.ago(days + 10, 50), b.ago(days + 10, 50)]
    made = [
        Item(d, n, b.add_note(d, n, time=t))
        for d, t in zip(doms, times, strict=True)
        for n in [d.notes[b.rng.randrange(4)]]
    ]
    recent, old = made[:2], made[2:]
    b.say([("Summarize what I noted in the last {n} days", "总结我最近{n}天记录的内容")], n=days)
    b.step(
        {
            "op": "Summarize",
            "target": {"filter": {"time_range": {"relative": "last", "amount": days, "unit": "days"}}},
            "args": {},
        },
        Expect(hits=ids_of(recent), summary=Contains(_keys(b, recent), _keys(b, old))),
    )


def summarize_short_focus(b: Builder) -> None:
    items = _flat(b, [1, 1, 1, 1])
    sources = sorted(b.rng.sample(items, 3), key=lambda it: int(it.id))
    others = [it for it in items if it not in sources]
    focus = b.rng.choice(sources)
    b.say(
        [
            (
                "Summarize {ids} in at most 30 tokens, focused on the {key}",
                "用不超过30个token总结{ids}，重点是{key}",
            )
        ],
        ids=b.ids(ids_of(sources)),
        key=focus.note.key,
    )
    b.step(
        {
            "op": "Summarize",
            "target": {"ids": ids_of(sources)},
            "args": {"focus": b.t(focus.note.key), "max_tokens": 30},
        },
        Expect(summary=Contains((b.t(focus.note.key),), _keys(b, others))),
    )


FORMS = [
    Form("encode", "tagged", "direct", 3, encode_tagged, "Encode with a tag"),
    Form("encode", "typed-priority", "direct", 2, encode_typed_priority, "Encode a task with a priority"),
    Form("encode", "event-time", "direct", 2, encode_event_time, "Encode an event with its time"),
    Form(
        "encode", "subject-location", "direct", 1, encode_subject_location, "Encode with subject and location"
    ),
    Form("encode", "statement", "indirect", 3, encode_indirect, "A fact stated for later"),
    Form("retrieve", "by-tag", "direct", 2, retrieve_by_tag, "Retrieve through a tag filter"),
    Form("retrieve", "by-type", "direct", 2, retrieve_by_type, "Retrieve by record type"),
    Form("retrieve", "last-n-days", "direct", 2, retrieve_recent, "Retrieve a relative time range"),
    Form("retrieve", "date-range", "direct", 1, retrieve_absolute_range, "Retrieve an absolute time range"),
    Form("retrieve", "by-search", "direct", 3, retrieve_by_search, "Retrieve by a search phrase"),
    Form("retrieve", "search-top-k", "direct", 2, retrieve_search_top_k, "Retrieve the top k of a search"),
    Form("retrieve", "tag-not-tag", "direct", 1, retrieve_not_tag, "Retrieve with has_tags and not_tags"),
    Form("retrieve", "weight-gte", "direct", 1, retrieve_weight_gte, "Retrieve by minimum weight"),
    Form("retrieve", "archived", "direct", 1, retrieve_archived, "Retrieve archived records (status filter)"),
    Form("retrieve", "by-ids", "direct", 1, retrieve_by_ids, "Retrieve by ids"),
    Form("retrieve", "recent-limit", "direct", 1, retrieve_recent_limit, "Retrieve the newest k of a tag"),
    Form("retrieve", "by-search", "indirect", 3, retrieve_by_search, "A question about one note"),
    Form("retrieve", "by-tag", "indirect", 2, retrieve_by_tag, "A question about a topic"),
    Form("summarize", "by-tag-focus", "direct", 2, summarize_by_tag_focus, "Summarize a tag with a focus"),
    Form("summarize", "by-ids", "direct", 2, summarize_by_ids, "Summarize by ids"),
    Form("summarize", "last-n-days", "direct", 1, summarize_recent, "Summarize a relative time range"),
    Form(
        "summarize", "short-focus", "direct", 1, summarize_short_focus, "Summarize with max_tokens and focus"
    ),
    Form("summarize", "by-tag-focus", "indirect", 3, summarize_by_tag_focus, "A recap asked for"),
]
