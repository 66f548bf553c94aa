"""Each invariant of DESIGN §3 pinned by a passing and a failing example (rule id and JSON path)."""

from __future__ import annotations

import pytest
from ir_samples import NOW, VALID, sample

from memql.lang import validate


def _with(name: str, **changes) -> dict:
    ir = sample(name)
    for dotted, value in changes.items():
        node = ir
        *parents, last = dotted.split("__")
        for key in parents:
            node = node.setdefault(key, {})
        if value is ...:
            node.pop(last, None)
        else:
            node[last] = value
    return ir


# (id, ir, rule expected as an error, path of that error)
FAILING = [
    # Encode needs a payload: exactly one of text, url, structured
    (
        "encode two payloads",
        _with("encode_text", args__payload__url="https://x.org/a"),
        "encode.payload",
        "/args/payload",
    ),
    ("encode empty payload", _with("encode_text", args__payload={}), "encode.payload", "/args/payload"),
    ("encode no payload", {"op": "Encode", "args": {"tags": ["x"]}}, "encode.payload", "/args"),
    (
        "encode blank text",
        _with("encode_text", args__payload={"text": "   "}),
        "field.empty",
        "/args/payload",
    ),
    ("encode with target", _with("encode_text", target={"ids": ["1"]}), "target.forbidden", "/target"),
    (
        "encode relative url",
        _with("encode_url", args__payload={"url": "/spec"}),
        "url.invalid",
        "/args/payload/url",
    ),
    # Label needs tags or facets; mode add|replace|remove
    (
        "label nothing",
        {"op": "Label", "target": {"ids": ["1"]}, "args": {"mode": "add"}},
        "label.empty",
        "/args",
    ),
    ("label empty tags", _with("label_add", args__tags=[]), "label.empty", "/args"),
    ("label bad mode", _with("label_add", args__mode="toggle"), "field.enum", "/args/mode"),
    # Update needs a non-empty set; embeddings cannot be set directly
    ("update empty set", _with("update", args__set={}), "update.empty", "/args/set"),
    ("update no set", {"op": "Update", "target": {"ids": ["1"]}, "args": {}}, "update.empty", "/args"),
    (
        "update embedding",
        _with("update", args__set={"embedding": [0.1, 0.2]}),
        "update.embedding",
        "/args/set",
    ),
    ("update no target", _with("update", target=...), "target.required", "/target"),
    # Promote/Demote: exactly one of weight, weight_delta (+ remind / archive); weights in [0, 1]
    ("promote both", _with("promote_delta", args__weight=0.9), "weight.exclusive", "/args"),
    ("promote nothing", _with("promote_delta", args__weight_delta=...), "weight.missing", "/args"),
    (
        "promote weight > 1",
        _with("promote_delta", args__weight_delta=..., args__weight=1.5),
        "field.range",
        "/args/weight",
    ),
    (
        "promote bad rrule",
        _with("promote_remind", args__remind={"rrule": "EVERY MONDAY"}),
        "rrule.invalid",
        "/args/remind/rrule",
    ),
    ("demote archive and weight", _with("demote_archive", args__weight=0.3), "weight.exclusive", "/args"),
    ("demote nothing", _with("demote_archive", args__archive=...), "weight.missing", "/args"),
    ("demote weight < 0", _with("demote_weight", args__weight=-0.1), "field.range", "/args/weight"),
    # Expire needs a finite horizon and an explicit on_expire
    ("expire no horizon", _with("expire_ttl", args__ttl=...), "expire.horizon", "/args"),
    (
        "expire two horizons",
        _with("expire_ttl", args__until="2026-05-01T00:00:00Z"),
        "expire.horizon",
        "/args",
    ),
    ("expire zero ttl", _with("expire_ttl", args__ttl="PT0S"), "expire.horizon", "/args"),
    ("expire infinite ttl", _with("expire_ttl", args__ttl="forever"), "duration.invalid", "/args/ttl"),
    ("expire no action", _with("expire_ttl", args__on_expire=...), "expire.on_expire", "/args"),
    ("expire bad action", _with("expire_ttl", args__on_expire="explode"), "field.enum", "/args/on_expire"),
    # Lock modes and policy
    ("lock bad mode", _with("lock", args__mode="write_once"), "field.enum", "/args/mode"),
    (
        "lock allow and deny",
        _with("lock", args__policy={"allow": ["Delete"], "deny": ["Delete"]}),
        "lock.policy_conflict",
        "/args/policy",
    ),
    (
        "lock unknown op in policy",
        _with("lock", args__policy={"deny": ["Destroy"]}),
        "field.enum",
        "/args/policy/deny/0",
    ),
    # all: writes need confirmation or dry_run; reads need confirmation
    ("write all unconfirmed", {"op": "Delete", "target": {"all": True}}, "confirm.all_write", "/target/all"),
    ("read all unconfirmed", {"op": "Retrieve", "target": {"all": True}}, "confirm.all_read", "/target/all"),
    (
        "read all dry run only",
        {"op": "Summarize", "target": {"all": True}, "meta": {"dry_run": True}},
        "confirm.all_read",
        "/target/all",
    ),
    # hard delete needs confirmation
    ("hard delete unconfirmed", _with("delete_hard", meta=...), "confirm.hard_delete", "/args/soft"),
    # targets: exactly one selector; a filter may only narrow search/from_step
    (
        "ids and all",
        {
            "op": "Label",
            "target": {"ids": ["1"], "all": True},
            "args": {"tags": ["x"]},
            "meta": {"confirmation": True},
        },
        "target.conflict",
        "/target",
    ),
    (
        "ids and filter",
        {"op": "Label", "target": {"ids": ["1"], "filter": {"has_tags": ["a"]}}, "args": {"tags": ["x"]}},
        "target.conflict",
        "/target",
    ),
    (
        "empty target",
        {"op": "Label", "target": {}, "args": {"tags": ["x"]}},
        "target.missing_selector",
        "/target",
    ),
    ("empty ids", {"op": "Label", "target": {"ids": []}, "args": {"tags": ["x"]}}, "field.empty", "/target"),
    (
        "search without intent",
        {"op": "Retrieve", "target": {"search": {"limit": 3}}},
        "field.required",
        "/target/search/intent",
    ),
    (
        "search with two intents",
        {"op": "Retrieve", "target": {"search": {"intent": {"query": "a", "vector": [1.0]}}}},
        "field.required",
        "/target/search/intent",
    ),
    (
        "inverted weight filter",
        {"op": "Retrieve", "target": {"filter": {"weight_gte": 0.8, "weight_lte": 0.2}}},
        "filter.empty_range",
        "/target/filter",
    ),
    (
        "inverted time range",
        {
            "op": "Retrieve",
            "target": {
                "filter": {"time_range": {"start": "2026-03-02T00:00:00Z", "end": "2026-03-01T00:00:00Z"}}
            },
        },
        "time.empty_range",
        "/target/filter/time_range",
    ),
    (
        "half a time range",
        {"op": "Retrieve", "target": {"filter": {"time_range": {"start": "2026-03-02T00:00:00Z"}}}},
        "field.required",
        "/target/filter/time_range",
    ),
    # stage is derived from op; a contradicting stage is an error
    ("stage contradicts op", _with("update", stage="RET"), "stage.mismatch", "/stage"),
    # Merge and Split
    (
        "merge one id",
        _with("merge", target={"ids": ["1"]}, args__primary_id=...),
        "merge.too_few",
        "/target/ids",
    ),
    (
        "merge primary outside",
        _with("merge", args__primary_id="9"),
        "merge.primary_not_in_target",
        "/args/primary_id",
    ),
    (
        "split stray params",
        _with("split_chunks", args__strategy="by_sentences"),
        "split.params",
        "/args/params",
    ),
    (
        "delete two time conditions",
        _with("delete_soft", args__time_range={"relative": "last", "amount": 2, "unit": "days"}),
        "delete.time_conflict",
        "/args",
    ),
    # workflow references outside a workflow
    (
        "from_step outside workflow",
        {"op": "Retrieve", "target": {"from_step": 0}},
        "workflow.ref_outside",
        "/target/from_step",
    ),
]


@pytest.mark.parametrize("name", sorted(VALID))
def test_every_sample_is_valid(name):
    result = validate(VALID[name], now=NOW)
    assert result.valid, result.diagnostics
    assert result.kind == "ir"
    assert not result.errors


@pytest.mark.parametrize(("label", "ir", "rule", "path"), FAILING, ids=[f[0] for f in FAILING])
def test_invariant_refuses(label, ir, rule, path):
    result = validate(ir, now=NOW)
    assert not result.valid
    assert result.canonical is None
    found = [(d.rule, d.path) for d in result.errors]
    assert (rule, path) in found, found


def test_write_through_filter_without_limit_gets_default_cap():
    ir = {"op": "Delete", "target": {"filter": {"has_tags": ["draft"]}}}
    result = validate(ir)
    assert result.valid
    assert result.canonical["target"]["filter"]["limit"] == 100
    assert [(d.rule, d.path, d.severity) for d in result.diagnostics] == [
        ("write.default_limit", "/target/filter/limit", "warning")
    ]


def test_a_null_limit_is_no_limit():  # found by the property test: null used to slip past the cap
    result = validate({"op": "Delete", "args": {}, "target": {"filter": {"limit": None}}})
    assert result.canonical["target"]["filter"] == {"limit": 100}
    assert validate(result.canonical).canonical == result.canonical
    searched = validate(
        {
            "op": "Label",
            "target": {"search": {"intent": {"query": "x"}, "limit": None}},
            "args": {"tags": ["a"]},
        }
    )
    assert searched.canonical["target"]["search"]["limit"] == 100


def test_write_through_search_without_limit_is_capped_on_the_search():
    ir = {
        "op": "Label",
        "target": {"search": {"intent": {"query": "okr"}}, "filter": {"has_tags": ["q3"]}},
        "args": {"tags": ["focus"]},
    }
    result = validate(ir)
    assert result.canonical["target"]["search"]["limit"] == 100
    assert "limit" not in result.canonical["target"]["filter"]


def test_strict_mode_turns_the_default_cap_into_an_error():
    ir = {"op": "Delete", "target": {"filter": {"has_tags": ["draft"]}}}
    result = validate(ir, strict=True)
    assert not result.valid
    assert [(d.rule, d.severity) for d in result.diagnostics] == [("write.default_limit", "error")]


def test_reads_through_filter_need_no_limit():
    assert validate(VALID["retrieve_filter"]).diagnostics == []


@pytest.mark.parametrize("meta", [{"confirmation": True}, {"dry_run": True}])
def test_write_on_all_passes_with_confirmation_or_dry_run(meta):
    assert validate({"op": "Demote", "target": {"all": True}, "args": {"archive": True}, "meta": meta}).valid


def test_hard_delete_dry_run_is_allowed_without_confirmation():
    assert validate(
        {"op": "Delete", "target": {"ids": ["1"]}, "args": {"soft": False}, "meta": {"dry_run": True}}
    ).valid


def test_search_narrowed_by_filter_is_one_target():
    ir = {
        "op": "Retrieve",
        "target": {"search": {"intent": {"query": "okr"}}, "filter": {"has_tags": ["q3"]}},
    }
    assert validate(ir).valid


def test_stage_is_derived_when_absent():
    result = validate({"op": "Summarize", "target": {"ids": ["1"]}})
    assert result.canonical["stage"] == "RET"


@pytest.mark.parametrize(("op", "delta"), [("Promote", -0.3), ("Demote", 0.3)])
def test_weight_change_against_the_verb_warns(op, delta):
    result = validate({"op": op, "target": {"ids": ["1"]}, "args": {"weight_delta": delta}})
    assert result.valid
    assert [d.rule for d in result.warnings] == ["weight.direction"]


def test_expiry_in_the_past_warns_only_with_a_reference_time():
    ir = {
        "op": "Expire",
        "target": {"ids": ["1"]},
        "args": {"until": "2026-01-01T00:00:00Z", "on_expire": "none"},
    }
    assert validate(ir).diagnostics == []
    assert [d.rule for d in validate(ir, now=NOW).warnings] == ["expire.in_past"]


def test_all_diagnostics_of_an_ir_are_reported_together():
    ir = {"op": "Expire", "stage": "RET", "target": {"ids": ["1"]}, "args": {"ttl": "soon", "on_expire": "x"}}
    rules = {d.rule for d in validate(ir).errors}
    assert {"stage.mismatch", "duration.invalid", "field.enum"} <= rules


def test_chunk_size_below_minimum_is_clamped_with_a_warning_and_refused_in_strict_mode():
    ir = {
        "op": "Split",
        "target": {"ids": ["7"]},
        "args": {"strategy": "by_chunks", "params": {"by_chunks": {"chunk_size": 10}}},
    }
    lenient = validate(ir)
    assert lenient.valid
    assert lenient.canonical["args"]["params"]["by_chunks"]["chunk_size"] == 50
    assert [(d.rule, d.path) for d in lenient.warnings] == [
        ("compat.clamped", "/args/params/by_chunks/chunk_size")
    ]
    strict = validate(ir, strict=True)
    assert not strict.valid and [d.rule for d in strict.errors] == ["compat.clamped"]


def test_a_null_selector_beside_a_filter_leaves_the_write_capped():  # found by the property test
    result = validate({"op": "Delete", "target": {"ids": None, "all": None, "filter": {"has_tags": ["a"]}}})
    assert result.canonical["target"] == {"filter": {"has_tags": ["a"], "limit": 100}}
    assert validate(result.canonical).canonical == result.canonical
