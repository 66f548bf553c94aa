"""The generator's model of the verbs (from DESIGN §5, independent of the engine) and its self-checks: a
template that contradicts itself or writes an invalid gold program stops the generation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from benchmarks.memql_set.builder import Builder, Form
from benchmarks.memql_set.content import DOMAINS
from benchmarks.memql_set.verbs import Expect, apply
from benchmarks.memql_set.world import (
    Contains,
    GenerationError,
    Rec,
    World,
    add_duration,
    next_reminder,
    record_assertion,
)
from memql.engine.verbs.weight import next_occurrence

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)  # a Wednesday


def test_durations_are_calendar_arithmetic():
    assert add_duration(datetime(2026, 1, 31, 9, tzinfo=UTC), "P1M") == datetime(2026, 2, 28, 9, tzinfo=UTC)
    assert add_duration(datetime(2024, 2, 29, tzinfo=UTC), "P1Y") == datetime(2025, 2, 28, tzinfo=UTC)
    assert add_duration(NOW, "P2W") == datetime(2026, 3, 18, 10, tzinfo=UTC)
    assert add_duration(NOW, "PT48H") == datetime(2026, 3, 6, 10, tzinfo=UTC)
    with pytest.raises(GenerationError):
        add_duration(NOW, "soon")


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("FREQ=WEEKLY;BYDAY=MO", datetime(2026, 3, 9, 10, tzinfo=UTC)),
        ("FREQ=WEEKLY;BYDAY=WE", datetime(2026, 3, 11, 10, tzinfo=UTC)),  # strictly after now
        ("FREQ=WEEKLY;BYDAY=WE;BYHOUR=18;BYMINUTE=0", datetime(2026, 3, 4, 18, tzinfo=UTC)),
        ("FREQ=DAILY;BYHOUR=8;BYMINUTE=0", datetime(2026, 3, 5, 8, tzinfo=UTC)),
        ("FREQ=DAILY", datetime(2026, 3, 5, 10, tzinfo=UTC)),
        ("FREQ=MONTHLY;BYMONTHDAY=1", datetime(2026, 4, 1, 10, tzinfo=UTC)),
    ],
)
def test_reminders_land_where_the_rrule_says_and_where_the_engine_puts_them(rule, expected):
    assert next_reminder(rule, NOW) == expected
    assert next_occurrence(rule, NOW) == expected


def _world() -> World:
    world = World(NOW)
    for n, (tags, weight) in enumerate([(["a", "x"], 0.4), (["a"], 0.7), (["b"], 0.5)], start=1):
        world.add(
            Rec(
                id=str(n),
                text=f"Sentence {n}. More {n}.",
                tags=tags,
                weight=weight,
                time="2026-03-01T09:00:00Z",
            )
        )
    return world


def test_merge_folds_into_the_heaviest_record_and_keeps_every_sentence():
    world = _world()
    done = apply(world, {"op": "Merge", "target": {"ids": ["1", "2"]}, "args": {}}, Expect())
    primary, child = world.records["2"], world.records["1"]
    assert done.ids == ["2", "1"]
    assert primary.text == Contains(("Sentence 2.", "More 2.", "Sentence 1.", "More 1."))
    assert (primary.tags, primary.weight, child.status) == (["a", "x"], 0.7, "deleted")


def test_a_filter_the_template_misreads_stops_the_generation():
    world = _world()
    with pytest.raises(GenerationError, match="the filter selects"):
        world.resolve({"filter": {"has_tags": ["a"]}}, write=True, hits=["1"])
    assert world.resolve({"filter": {"has_tags": ["a"], "not_tags": ["x"]}}, write=False, hits=None) == ["2"]


def test_the_model_refuses_what_the_engine_refuses():
    world = _world()
    apply(world, {"op": "Lock", "target": {"ids": ["3"]}, "args": {"mode": "read_only"}}, Expect())
    with pytest.raises(GenerationError, match="locked"):
        apply(world, {"op": "Update", "target": {"ids": ["3"]}, "args": {"set": {"text": "t"}}}, Expect())
    apply(world, {"op": "Delete", "target": {"ids": ["1"]}, "args": {"soft": True}}, Expect())
    with pytest.raises(GenerationError, match="deleted"):
        apply(world, {"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["t"]}}, Expect())


def test_a_hard_deleted_record_must_be_gone():
    world = _world()
    apply(world, {"op": "Delete", "target": {"ids": ["2"]}, "args": {"soft": False}}, Expect())
    spec = record_assertion(world.records["2"], "record_2_hard_deleted")
    assert spec["select"]["where"] == ["id = :id"] and spec["expect"] == {"op": "==", "value": 0}


def _bad_program(b: Builder) -> None:
    b.add(("A note.", "一条记录。"), DOMAINS[0])
    b.say([("Label note 1", "标记第1条记录")])
    b.step({"op": "Label", "target": {"ids": ["1"]}, "args": {"mode": "add"}})  # no tags: label.empty


def test_an_invalid_gold_program_stops_the_generation_with_its_rule():
    form = Form("label", "broken", "direct", 1, _bad_program, "a template with an invalid program")
    builder = Builder(form, 0, "en", 1)
    form.build(builder)
    with pytest.raises(GenerationError, match=r"label\.empty"):
        builder.sample()
