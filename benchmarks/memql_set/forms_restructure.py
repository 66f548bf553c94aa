"""Merge and Split scenarios: lineage-changing verbs, with the post-state of primary, children and parts."""

from __future__ import annotations

from benchmarks.memql_set.builder import Builder, Form
from benchmarks.memql_set.content import DOMAINS
from benchmarks.memql_set.scene import Item, ids_of
from benchmarks.memql_set.verbs import Expect

# --- Merge ----------------------------------------------------------------------------------------------


def _merge_scene(b: Builder, size: int) -> list[Item]:
    """`size` notes of one domain (to merge) among notes of two others, in a shuffled order; the merged
    ones have distinct weights, so that the automatic primary (highest weight) is unambiguous."""
    dom = b.lead()
    others = b.rng.sample([d for d in DOMAINS if d is not dom], 2)
    weights = b.rng.sample((0.3, 0.4, 0.5, 0.6, 0.7, 0.8), size)
    picks = [(dom, n, w) for n, w in zip(b.notes(dom, size), weights, strict=True)]
    picks += [(o, b.notes(o, 1)[0], b.weight()) for o in others]
    b.rng.shuffle(picks)
    made = [Item(d, n, b.add_note(d, n, weight=w)) for d, n, w in picks]
    return [it for it in made if it.dom is dom]


def merge_into_primary(b: Builder) -> None:
    group = _merge_scene(b, b.rng.choice((2, 3)))
    primary = b.rng.choice(group)
    children = [it.id for it in group if it is not primary]
    if b.indirect:
        b.say(
            [
                (
                    "My notes on {topic} are scattered over {ids}; I want them in one place, in {main}",
                    "{topic}的内容分散在{ids}里，我想把它们集中到{main}",
                ),
                (
                    "{ids} are really one note about {topic}; keep {main} as the one that stays",
                    "{ids}其实说的是同一件事（{topic}），保留{main}作为主记录",
                ),
            ],
            topic=group[0].dom.topic,
            ids=b.ids(ids_of(group)),
            main=b.ids([primary.id]),
        )
    else:
        b.say(
            [
                ("Merge {children} into {main}", "把{children}合并到{main}"),
                ("Fold {children} into {main}", "将{children}并入{main}"),
            ],
            children=b.ids(children),
            main=b.ids([primary.id]),
        )
    b.step(
        {
            "op": "Merge",
            "target": {"ids": [primary.id, *children]},
            "args": {"strategy": "merge_into_primary", "primary_id": primary.id},
        }
    )


def merge_auto_primary(b: Builder) -> None:
    group = _merge_scene(b, b.rng.choice((2, 3)))
    b.say(
        [("Merge {ids} into one note", "把{ids}合并成一条"), ("Combine {ids}", "合并{ids}")],
        ids=b.ids(ids_of(group)),
    )
    b.step({"op": "Merge", "target": {"ids": ids_of(group)}, "args": {"strategy": "merge_into_primary"}})


def merge_keep_children(b: Builder) -> None:
    group = _merge_scene(b, 2)
    primary, child = group if b.rng.random() < 0.5 else group[::-1]
    b.say(
        [
            ("Merge {child} into {main} but keep the original", "把{child}合并到{main}，但保留原记录"),
            ("Combine {child} into {main}; don't delete {child}", "将{child}并入{main}，不要删除{child}"),
        ],
        child=b.ids([child.id]),
        main=b.ids([primary.id]),
    )
    b.step(
        {
            "op": "Merge",
            "target": {"ids": [primary.id, child.id]},
            "args": {
                "strategy": "merge_into_primary",
                "primary_id": primary.id,
                "soft_delete_children": False,
            },
        }
    )


def merge_by_tag(b: Builder) -> None:
    group = _merge_scene(b, b.rng.choice((2, 3)))
    dom = group[0].dom
    b.say([('Merge all notes tagged "{tag}" into one', "把所有带“{tag}”标签的记录合并成一条")], tag=dom.tag)
    b.step(
        {
            "op": "Merge",
            "target": {"filter": {"has_tags": [b.t(dom.tag)]}},
            "args": {"strategy": "merge_into_primary"},
        },
        Expect(hits=ids_of(group)),
    )


# --- Split ----------------------------------------------------------------------------------------------


def _split_scene(b: Builder):
    """A multi-sentence record among two short ones; returns it and its sentences."""
    dom = b.lead()
    others = b.rng.sample([d for d in DOMAINS if d is not dom], 2)
    order = b.rng.randrange(3)
    made = None
    for i in range(3):
        if i == order:
            made = b.add_long(dom, b.rng.randrange(2))
        else:
            o = others.pop()
            b.add_note(o, o.notes[b.rng.randrange(4)])
    return made


def split_by_sentences(b: Builder) -> None:
    rec, parts = _split_scene(b)
    if b.indirect:
        b.say(
            [
                (
                    "{ids} mixes several things; I'd like each point as its own note",
                    "{ids}混了好几件事，我想每一点单独一条",
                ),
                (
                    "{ids} is hard to use as one block, one memory per sentence would be better",
                    "{ids}整段不好用，最好每句话一条记忆",
                ),
            ],
            ids=b.ids([rec.id]),
        )
    else:
        b.say(
            [
                ("Split {ids} into sentences", "把{ids}按句子拆分"),
                ("Break {ids} up into one note per sentence", "把{ids}拆成每句一条"),
            ],
            ids=b.ids([rec.id]),
        )
    b.step({"op": "Split", "target": {"ids": [rec.id]}, "args": {"strategy": "by_sentences"}}, _parts(parts))


def split_two_sentences(b: Builder) -> None:
    rec, parts = _split_scene(b)
    joiner = " " if b.lang == "en" else ""
    grouped = [joiner.join(parts[i : i + 2]) for i in range(0, len(parts), 2)]
    b.say([("Split {ids} into parts of two sentences each", "把{ids}拆分成每两句一段")], ids=b.ids([rec.id]))
    b.step(
        {
            "op": "Split",
            "target": {"ids": [rec.id]},
            "args": {"strategy": "by_sentences", "params": {"by_sentences": {"max_sentences": 2}}},
        },
        _parts(grouped),
    )


def split_by_chunks(b: Builder) -> None:
    rec, parts = _split_scene(b)
    b.say(
        [
            ("Cut {ids} into {n} chunks", "把{ids}切成{n}块"),
            ("Split {ids} into {n} pieces", "把{ids}分成{n}段"),
        ],
        ids=b.ids([rec.id]),
        n=len(parts),
    )
    b.step(
        {
            "op": "Split",
            "target": {"ids": [rec.id]},
            "args": {"strategy": "by_chunks", "params": {"by_chunks": {"num_chunks": len(parts)}}},
        },
        _parts(parts),
    )


def split_at_delimiter(b: Builder) -> None:
    dom = b.lead()
    en, zh = dom.long[b.rng.randrange(2)]
    items = [s.rstrip(".") for s in en] if b.lang == "en" else [s.rstrip("。") for s in zh]
    text = ("; ".join(s.rstrip(".") for s in en) + ".", "；".join(s.rstrip("。") for s in zh) + "。")
    items[-1] += "." if b.lang == "en" else "。"
    other = b.rng.choice([d for d in DOMAINS if d is not dom])
    b.add_note(other, other.notes[b.rng.randrange(4)])
    rec = b.add(text, dom)
    b.say(
        [
            ("Split {ids} at the semicolons", "在分号处拆分{ids}"),
            ("Cut {ids} wherever there is a semicolon", "在{ids}的每个分号处切开"),
        ],
        ids=b.ids([rec.id]),
    )
    b.step(
        {
            "op": "Split",
            "target": {"ids": [rec.id]},
            "args": {"strategy": "custom", "params": {"custom": {"delimiters": [b.t((";", "；"))]}}},
        },
        _parts(items),
    )


def split_without_inheritance(b: Builder) -> None:
    rec, parts = _split_scene(b)
    b.say(
        [("Split {ids} into sentences, without copying its tags", "把{ids}按句子拆开，不要继承它的标签")],
        ids=b.ids([rec.id]),
    )
    b.step(
        {
            "op": "Split",
            "target": {"ids": [rec.id]},
            "args": {"strategy": "by_sentences", "inherit_all": False},
        },
        _parts(parts),
    )


def _parts(parts: list[str]) -> Expect:
    return Expect(parts=parts)


FORMS = [
    Form("merge", "into-primary", "direct", 3, merge_into_primary, "Merge ids into an explicit primary"),
    Form("merge", "auto-primary", "direct", 2, merge_auto_primary, "Merge ids; primary = highest weight"),
    Form("merge", "keep-children", "direct", 2, merge_keep_children, "Merge keeping the children active"),
    Form("merge", "by-tag", "direct", 1, merge_by_tag, "Merge everything a tag filter selects"),
    Form("merge", "into-primary", "indirect", 3, merge_into_primary, "Scattered notes put in one place"),
    Form("split", "by-sentences", "direct", 3, split_by_sentences, "Split by sentences"),
    Form("split", "two-sentences", "direct", 1, split_two_sentences, "Split by sentences, two per part"),
    Form("split", "by-chunks", "direct", 2, split_by_chunks, "Split into a number of chunks"),
    Form("split", "at-delimiter", "direct", 2, split_at_delimiter, "Split at a delimiter (custom)"),
    Form("split", "no-inherit", "direct", 1, split_without_inheritance, "Split without inheriting tags"),
    Form("split", "by-sentences", "indirect", 3, split_by_sentences, "One point per note, stated"),
]
