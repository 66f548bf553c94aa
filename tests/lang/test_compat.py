"""Accepted variant spellings are rewritten into one canonical form, with a warning when not official."""

from __future__ import annotations

import pytest
from ir_samples import NOW

from memql.lang import validate


def canon(ir: dict, **kw) -> dict:
    result = validate(ir, **kw)
    assert result.valid, result.diagnostics
    return result.canonical


def warning_rules(ir: dict, **kw) -> list[str]:
    return [d.rule for d in validate(ir, **kw).warnings]


def test_official_equivalents_are_rewritten_silently():
    ir = {
        "op": "Expire",
        "target": {"ids": "3", "all": False},
        "args": {"expire_at": "2026-05-01T08:00:00+08:00", "on_expire": "soft_delete"},
    }
    result = validate(ir)
    assert result.diagnostics == []
    assert result.canonical["target"] == {"ids": ["3"]}
    assert result.canonical["args"] == {"until": "2026-05-01T00:00:00Z", "on_expire": "soft_delete"}


@pytest.mark.parametrize("primary", ["auto", None])
def test_merge_auto_primary(primary):
    args = {"strategy": "merge_into_primary"} | ({"primary_id": primary} if primary else {})
    out = canon({"op": "Merge", "target": {"ids": ["1", "2"]}, "args": args})
    assert "primary_id" not in out["args"]


def test_demote_archive_false_means_not_archived():
    out = canon({"op": "Demote", "target": {"ids": ["1"]}, "args": {"archive": False, "weight_delta": -0.2}})
    assert out["args"] == {"weight_delta": -0.2}


@pytest.mark.parametrize(
    ("on_expire", "canonical"),
    [
        ("soft_delete", "soft_delete"),
        ("hard_delete", "hard_delete"),
        ("demote", "demote"),
        ("archive", "archive"),
        ("anonymize", "anonymize"),
        ("none", "none"),
        ("delete", "soft_delete"),
        ("purge", "hard_delete"),
    ],
)
def test_on_expire_accepts_the_union_of_both_official_enums(on_expire, canonical):
    out = canon({"op": "Expire", "target": {"ids": ["1"]}, "args": {"ttl": "P1D", "on_expire": on_expire}})
    assert out["args"]["on_expire"] == canonical


@pytest.mark.parametrize(
    ("mode", "canonical"),
    [
        ("read_only", "read_only"),
        ("append_only", "append_only"),
        ("read-only", "read_only"),
        ("unlock", "unlock"),
        ("none", "unlock"),
        ("release", "unlock"),
    ],
)
def test_lock_modes_including_lifting(mode, canonical):
    assert (
        canon({"op": "Lock", "target": {"ids": ["1"]}, "args": {"mode": mode}})["args"]["mode"] == canonical
    )


def test_unlock_flag_lifts_the_lock():
    out = canon({"op": "Lock", "target": {"ids": ["1"]}, "args": {"unlock": True}})
    assert out["args"]["mode"] == "unlock"


@pytest.mark.parametrize(
    ("mode", "canonical"),
    [
        ("add", "add"),
        ("replace", "replace"),
        ("remove", "remove"),
        ("append", "add"),
        ("overwrite", "replace"),
        ("delete", "remove"),
    ],
)
def test_label_modes(mode, canonical):
    assert (
        canon({"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["a"], "mode": mode}})["args"][
            "mode"
        ]
        == canonical
    )


def test_label_mode_defaults_to_add_in_canonical_form():
    assert canon({"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["a"]}})["args"]["mode"] == "add"


def test_facet_filter_aliases():
    ir = {
        "op": "Retrieve",
        "target": {
            "filter": {
                "facet_subject": "Mira",
                "facet_topic": "travel",
                "facet_location": "Lisbon",
                "facet_certainty": "high",
            }
        },
    }
    f = canon(ir)["target"]["filter"]
    assert f == {"subject": "Mira", "topic": "travel", "location": "Lisbon", "facets": {"certainty": "high"}}


def test_search_variants():
    ir = {
        "op": "Update",
        "target": {
            "search": {"intent": {"query": "okr"}, "overrides": {"k": 5, "hydration": "ids", "limit": 3}}
        },
        "args": {"set": {"topic": "planning"}},
    }
    result = validate(ir)
    assert result.canonical["target"]["search"] == {
        "intent": {"query": "okr"},
        "overrides": {"k": 5},
        "limit": 3,
    }
    assert sorted(d.rule for d in result.warnings) == ["compat.alias", "compat.ignored"]


def test_split_flat_params_move_under_their_strategy():
    ir = {
        "op": "Split",
        "target": {"ids": ["1"]},
        "args": {
            "strategy": "by_chunks",
            "params": {"chunk_size": 500, "num_chunks": 3},
            "inherit_all": True,
        },
    }
    assert canon(ir)["args"]["params"] == {"by_chunks": {"chunk_size": 500, "num_chunks": 3}}


def test_split_tiny_chunk_size_defers_to_num_chunks():
    ir = {
        "op": "Split",
        "target": {"ids": ["1"]},
        "args": {"strategy": "by_chunks", "params": {"chunk_size": 1, "num_chunks": 3}},
    }
    assert canon(ir)["args"]["params"] == {"by_chunks": {"num_chunks": 3}}


@pytest.mark.parametrize(("strategy", "key"), [("by_topics", "topics"), ("by_sections", "sections")])
def test_named_part_strategies_become_custom_topics(strategy, key):
    ir = {
        "op": "Split",
        "target": {"ids": ["1"]},
        "args": {"strategy": strategy, "params": {key: ["a", "b"]}},
    }
    assert canon(ir)["args"] == {
        "strategy": "custom",
        "params": {"custom": {"max_splits": 10, "topics": ["a", "b"]}},
        "inherit_all": True,
    }


def test_split_delimiters_are_unescaped_and_link_back_dropped():
    ir = {
        "op": "Split",
        "target": {"ids": ["1"]},
        "args": {"strategy": "custom", "params": {"delimiters": ["\\n", "结论："]}, "link_back": "bi"},
    }
    assert canon(ir)["args"]["params"]["custom"]["delimiters"] == ["\n", "结论："]


def test_padded_keys_are_trimmed():
    ir = {"op": "Encode", "args": {"payload": {"text": "x"}, " facets": {"status": "active"}}}
    assert canon(ir)["args"]["facets"] == {"status": "active"}


def test_unknown_encode_and_update_fields_become_free_facets():
    ir = {"op": "Encode", "args": {"payload": {"text": "x"}, "knowledge_type": "fact", "context": "audit"}}
    result = validate(ir)
    assert result.canonical["args"]["facets"] == {"knowledge_type": "fact", "context": "audit"}
    assert [d.rule for d in result.warnings] == ["compat.moved_to_facets"] * 2
    upd = {"op": "Update", "target": {"ids": ["1"]}, "args": {"set": {"amount": 5000, "currency": "USD"}}}
    assert canon(upd)["args"]["set"] == {"facets": {"amount": 5000, "currency": "USD"}}


def test_near_miss_of_a_real_field_is_not_moved_but_refused():
    result = validate({"op": "Encode", "args": {"payload": {"text": "x"}, "tag": ["a"]}})
    assert [(d.rule, d.path) for d in result.errors] == [("field.unknown", "/args/tag")]


def test_update_set_tags_is_an_extension():
    assert canon({"op": "Update", "target": {"ids": ["1"]}, "args": {"set": {"tags": ["done"]}}})["args"][
        "set"
    ] == {"tags": ["done"]}


@pytest.mark.parametrize(
    ("word", "weight"), [("low", 0.2), ("normal", 0.5), ("high", 0.8), ("urgent", 1.0), ("紧急", 1.0)]
)
def test_priority_words_become_weights(word, weight):
    out = canon({"op": "Promote", "target": {"ids": ["1"]}, "args": {"priority": word}})
    assert out["args"] == {"weight": weight}


def test_payload_extras_are_kept():
    ir = {"op": "Encode", "args": {"payload": {"text": "x", "knowledge_type": "fact", "source": "wiki"}}}
    assert canon(ir)["args"]["payload"] == {"text": "x", "knowledge_type": "fact", "source": "wiki"}


def test_instants_become_utc_and_naive_ones_warn():
    ir = {"op": "Encode", "args": {"payload": {"text": "x"}, "time": "2025-10-21T08:00:00"}}
    result = validate(ir)
    assert result.canonical["args"]["time"] == "2025-10-21T08:00:00Z"
    assert [d.rule for d in result.warnings] == ["time.assumed_utc"]
    ir["args"]["time"] = "2025-10-21T08:00:00+08:00"
    assert canon(ir)["args"]["time"] == "2025-10-21T00:00:00Z"


def test_natural_times_resolve_against_now():
    ir = {"op": "Expire", "target": {"ids": ["1"]}, "args": {"until": "tomorrow", "on_expire": "archive"}}
    result = validate(ir, now=NOW)
    assert result.canonical["args"]["until"] == "2026-04-02T00:00:00Z"  # the end of tomorrow
    assert [d.rule for d in result.warnings] == ["time.natural_resolved"]
    no_clock = validate(ir)
    assert [(d.rule, d.path) for d in no_clock.errors] == [("time.needs_now", "/args/until")]


def test_time_range_unit_spellings():
    ir = {
        "op": "Retrieve",
        "target": {"filter": {"time_range": {"relative": "past", "amount": 2, "unit": "week"}}},
    }
    assert canon(ir)["target"]["filter"]["time_range"] == {"relative": "last", "amount": 2, "unit": "weeks"}


def test_lowercase_op_and_stage():
    result = validate({"op": "retrieve", "stage": "ret", "target": {"ids": ["1"]}})
    assert result.canonical["op"] == "Retrieve" and result.canonical["stage"] == "RET"


def test_numeric_ids_become_strings():
    assert canon({"op": "Retrieve", "target": {"ids": [1, 2]}})["target"]["ids"] == ["1", "2"]


def test_strict_mode_refuses_every_variant_spelling():
    ir = {
        "op": "Split",
        "target": {"ids": ["1"]},
        "args": {"strategy": "by_topics", "params": {"topics": ["a"]}},
    }
    assert validate(ir).valid
    assert not validate(ir, strict=True).valid


def test_tags_are_trimmed_and_deduplicated():
    out = canon({"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": [" a", "b", "a", "b "]}})
    assert out["args"]["tags"] == ["a", "b"]


def test_rrule_prefix_and_case_are_canonical():
    ir = {
        "op": "Promote",
        "target": {"ids": ["1"]},
        "args": {"remind": {"rrule": "RRULE:freq=daily;count=7"}},
    }
    assert canon(ir)["args"]["remind"] == {"rrule": "FREQ=DAILY;COUNT=7"}


@pytest.mark.parametrize(
    ("ir", "pointer", "expected"),
    [
        ({"op": "Encode", "args": {"payload": "a note"}}, ("args", "payload"), {"text": "a note"}),
        ({"op": "Encode", "args": {"text": "a note"}}, ("args", "payload"), {"text": "a note"}),
        (
            {"op": "Retrieve", "target": {"search": {"intent": "okr"}}},
            ("target", "search", "intent"),
            {"query": "okr"},
        ),
        (
            {"op": "Retrieve", "target": {"search": {"query": "okr"}}},
            ("target", "search", "intent"),
            {"query": "okr"},
        ),
        (
            {"op": "Promote", "target": {"ids": ["1"]}, "args": {"remind": "FREQ=DAILY"}},
            ("args", "remind"),
            {"rrule": "FREQ=DAILY"},
        ),
    ],
)
def test_bare_strings_are_boxed_and_loose_fields_lifted(ir, pointer, expected):
    result = validate(ir)
    node = result.canonical
    for key in pointer:
        node = node[key]
    assert node == expected
    assert [d.rule for d in result.warnings] == ["compat.alias"]
