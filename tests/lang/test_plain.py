"""The plain-Encode validator (memql.lang.plain) against validate(): on plain and near-plain Encodes —
wrong types, extra and padded keys, odd unicode, strings at and beyond every length bound, bad tags,
invalid weights, naive and natural times, odd facets — `validate_encodes` gives exactly what
`validate({"workflow": steps})` gives: the same verdict and diagnostics, the same canonical form (key order
too), the same model instances (fields, fields set, extras). Where it builds the result itself it must
have seen an input the full path accepts without a word."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ir_samples import NOW
from plain_checks import assert_same_result, same

from budgets import examples
from memql.lang import Limits, validate
from memql.lang.plain import PLAIN_ARGS, plain_encode, plain_workflow, validate_encodes

BULK = Limits(max_steps=1000, max_items=10_000, max_nodes=2_000_000, max_bytes=64 * 1024 * 1024)


def budget(n: int) -> settings:
    return settings(
        max_examples=examples(n),
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )


def check(steps: list[Any], *, strict: bool = False, limits: Limits = BULK) -> bool:
    """Both paths on private copies; returns whether the plain path built the result itself."""
    before = copy.deepcopy(steps)
    fast = validate_encodes(copy.deepcopy(steps), now=NOW, strict=strict, limits=limits)
    full = validate({"workflow": copy.deepcopy(steps)}, now=NOW, strict=strict, limits=limits)
    assert_same_result(fast, full)
    mine = copy.deepcopy(steps)
    validate_encodes(mine, now=NOW, strict=strict, limits=limits)
    assert same(mine, before)  # the input is left as it was given
    plain = plain_workflow(steps, limits) is not None
    if plain:
        assert full.valid and not full.diagnostics, full.diagnostics
    return plain


# --- plain Encodes ------------------------------------------------------------------------------

ODD = st.characters(codec=None, blacklist_categories=())  # any code point, lone surrogates included
words = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=30)
texts = words.filter(lambda s: s.strip() != "")
instants = st.sampled_from(
    [
        "2025-10-21T10:00:00Z",
        "2024-02-29T23:59:59+08:00",
        "2025-01-01T00:00:00.250000Z",
        "1999-12-31T12:00:00-05:30",
    ]
)
unit = st.one_of(st.floats(0, 1, allow_nan=False), st.sampled_from([0, 1, 0.0, 1.0, -0.0, 0.5]))

plain_args = st.fixed_dictionaries(
    {"payload": st.fixed_dictionaries({"text": texts})},
    optional={
        "tags": st.lists(texts, max_size=6),
        "type": texts,
        "facets": st.dictionaries(
            st.one_of(
                st.sampled_from(["subject", "location", "topic"]),
                st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
            ),
            texts,
            max_size=4,
        ).map(lambda d: {k: v for k, v in d.items() if k != "time"}),
        "time": instants,
        "subject": texts,
        "location": texts,
        "topic": texts,
        "expire_at": instants,
        "weight": unit,
        "confidence": unit,
        "skip_embedding": st.booleans(),
        "dedupe": st.booleans(),
        "proposal": st.booleans(),
        "source": st.text(max_size=20),
        "memory_type": st.sampled_from(["episodic", "semantic", "procedural"]),
        "sensitivity": st.sampled_from(["standard", "restricted", "sensitive"]),
    },
)


@st.composite
def plain_ir(draw) -> dict[str, Any]:
    args = draw(plain_args)
    if draw(st.booleans()) and "facets" in args:
        args["facets"]["time"] = draw(instants)
    ir = {"op": "Encode", "args": args}
    if draw(st.booleans()):
        ir = {"stage": "ENC", **ir}
    return ir


@budget(1200)
@given(st.lists(plain_ir(), min_size=1, max_size=4), st.booleans())
def test_plain_encodes_are_built_as_validate_builds_them(steps, strict):
    assert check(steps, strict=strict)  # every one of them is plain: the fast path built the result


# --- near-plain Encodes: one thing changed -----------------------------------------------------

odd_text = st.one_of(
    st.text(alphabet=ODD, max_size=12),
    st.sampled_from(
        ["", " ", "\t\n", "\u3000", "\u200b", "a\x00b", " x ", "\x1f", "a\ud800", "é", "\U0001f600", "\x7f"]
    ),
)


def sized(n: int) -> list[str]:
    return ["a" * n, " " * n + "b", "b" + " " * (n - 1), "é" * n]


huge = st.sampled_from(
    [s for n in (255, 256, 257, 511, 512, 513, 2047, 2048, 2049) for s in sized(n)]
    + ["x" * 999_999, "x" * 1_000_000, "x" * 1_000_001, " " * 1_000_000]
)
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    odd_text,
    st.lists(st.one_of(st.integers(), odd_text), max_size=3),
    st.dictionaries(odd_text, st.one_of(st.integers(), odd_text, st.none()), max_size=3),
)
bad_times = st.sampled_from(
    [
        "2025-10-21",
        "2025-10-21T10:00:00",
        "2025-10-21T10:00",
        "2025-10-21 10:00:00Z",
        " 2025-10-21T10:00:00Z ",
        "2025-10-21t10:00:00z",
        "2025-02-30T00:00:00Z",
        "2025-10-21T24:00:00Z",
        "2025-10-21T10:00:00+24:00",
        "2025-10-21T10:00:00,5+0800",
        "0001-01-01T00:00:00+01:00",
        "next friday",
        "yesterday",
        "下周五",
        "tomorrow at 5pm",
        "",
    ]
)
bad_weights = st.sampled_from(
    [
        -0.0001,
        1.0000001,
        2,
        -1,
        math.nan,
        math.inf,
        -math.inf,
        True,
        False,
        "0.5",
        None,
        10**400,
        1e-320,
        [0.5],
    ]
)
bad_tags = st.one_of(
    st.lists(st.one_of(odd_text, huge, anything), min_size=1, max_size=4),
    st.sampled_from(
        [
            ["a", "a", " a", "a "],
            ["x"] * 1001,
            [str(i) for i in range(1001)],
            "tag",
            [["a"]],
            [],
            ["a\x00b"],
            ["ok", "x\x07y"],
            [" \x1b "],
            ["\x1f"],
            ["tab\there"],
            ["\x7f", "\u00a0x\u00a0"],
        ]
    ),
)
bad_facets = st.one_of(
    anything,
    st.dictionaries(
        st.one_of(
            odd_text,
            st.sampled_from(["subject", "time", "topic", "location", " topic", "k" * 129, "k" * 128]),
        ),
        st.one_of(anything, huge, bad_times, instants),
        max_size=3,
    ),
)
FIELD_VALUES = {
    "payload": st.one_of(
        anything,
        st.fixed_dictionaries({"text": st.one_of(odd_text, huge, anything)}),
        st.just({"text": "x", "url": "https://example.com"}),
        st.just({"text": "x", "lang": "en"}),
        st.just({"url": "https://example.com"}),
        st.just({"structured": {"subject": "a", "attribute": "b", "value": 1}}),
    ),
    "tags": bad_tags,
    "facets": bad_facets,
    "time": st.one_of(bad_times, anything),
    "expire_at": st.one_of(bad_times, anything),
    "weight": st.one_of(bad_weights, anything),
    "confidence": st.one_of(bad_weights, anything),
    "skip_embedding": anything,
    "dedupe": anything,
    "proposal": anything,
    "source": st.one_of(huge, odd_text, anything),
    "memory_type": st.one_of(odd_text, st.sampled_from(["Episodic", " semantic", "working"]), anything),
    "sensitivity": st.one_of(odd_text, st.sampled_from(["Standard", "secret"]), anything),
    **{name: st.one_of(odd_text, huge, anything) for name in ("type", "subject", "location", "topic")},
}
OTHER_ARGS = st.sampled_from(
    [
        ("priority", "high"),
        ("text", "loose text"),
        (" tags", ["a"]),
        ("tags ", ["a"]),
        ("category", "a2p:preferences"),
        ("ttl", "P3D"),
        ("namespace", ["a"]),
        ("key", "k"),
        ("interpret", True),
        ("derived_from", {"ids": ["1"]}),
        ("index", False),
        ("read_perm_level", "private"),
        ("auto_frequency", "P1W"),
        ("project", "x"),
        ("tagz", ["a"]),
        ("embedding", [0.1]),
    ]
)
OTHER_IR = st.sampled_from(
    [
        ("stage", "enc"),
        ("stage", "STO"),
        ("stage", None),
        ("op", "encode"),
        ("op", " Encode"),
        ("op", "Update"),
        ("op", None),
        ("meta", {"dry_run": True}),
        ("meta", {}),
        ("meta", {"actor": "x"}),
        ("target", {"ids": ["1"]}),
        ("_comment", "note"),
        ("args", None),
        ("args", "just text"),
        ("args", []),
        ("extra", 1),
        (" op", "Encode"),
    ]
)


@st.composite
def near_plain_ir(draw) -> Any:
    ir = draw(plain_ir())
    how = draw(st.integers(0, 4))
    if how == 0:  # a plain field given a wrong, odd or out-of-bounds value
        name = draw(st.sampled_from(sorted(PLAIN_ARGS)))
        ir["args"][name] = draw(FIELD_VALUES[name])
    elif how == 1:  # a key the plain validator leaves to the full path
        key, value = draw(OTHER_ARGS)
        ir["args"][key] = value
    elif how == 2:
        key, value = draw(OTHER_IR)
        ir[key] = value
    elif how == 3:
        ir["args"].pop("payload")
        if draw(st.booleans()):
            ir["args"]["payload"] = draw(anything)
    else:  # not an object, or not an Encode at all
        return draw(st.one_of(anything, st.just({"op": "Retrieve", "target": {"all": True}})))
    return ir


@budget(3000)
@given(st.lists(st.one_of(near_plain_ir(), plain_ir()), min_size=1, max_size=3), st.booleans())
def test_near_plain_encodes_get_what_validate_gives(steps, strict):
    check(steps, strict=strict)


# --- each rule, one value at a time ---------------------------------------------------------

_NAMES_ODD = [
    "",
    " ",
    "\u3000",
    "a" * 512,
    "a" * 513,
    " " * 512 + "b",
    " x ",
    "x\x00",
    "a\ud800",
    1,
    None,
    ["x"],
]
_TIMES_ODD = [
    "2025-10-21",
    "2025-10-21T10:00:00",
    "2025-10-21 10:00:00Z",
    " 2025-10-21T10:00:00Z ",
    "2025-10-21t10:00:00z",
    "2025-02-30T00:00:00Z",
    "2025-10-21T10:00:00+24:00",
    "2025-10-21T10:00:00,5+0800",
    "2025-10-21T10:00:00.1234567890123Z",
    "0001-01-01T00:00:00+01:00",
    "next friday",
    "下周五",
    "",
    1,
    None,
]
_UNITS_ODD = [
    -0.0,
    0,
    1,
    -0.0001,
    1.0000001,
    2,
    -1,
    math.nan,
    math.inf,
    True,
    "0.5",
    None,
    10**400,
    1e-320,
    [0.5],
]
ONE_VALUE: dict[str, list[Any]] = {
    "payload": [
        {"text": ""},
        {"text": " "},
        {"text": "\u3000"},
        {"text": " padded\ttext \n"},
        {"text": "a\ud800"},
        {"text": "x" * 1_000_000},
        {"text": "x" * 1_000_001},
        {"text": 1},
        {"text": None},
        {"text": "x", "url": "https://example.com"},
        {"text": "x", "lang": "en"},
        {"url": "https://example.com"},
        {},
        "text",
        None,
    ],
    "tags": [
        [],
        ["a", "a", " a", "a "],
        ["x"] * 1001,
        [str(i) for i in range(1000)],
        [str(i) for i in range(1001)],
        ["a\x00b"],
        ["ok", "x\x07y"],
        [" \x1b "],
        ["\x1f"],
        ["tab\there"],
        ["\x7f", "\u00a0x\u00a0"],
        ["a" * 256],
        ["a" * 257],
        [" " + "a" * 255],
        ["é" * 257],
        ["a\ud800"],
        [1],
        [None],
        [["a"]],
        "tag",
        None,
    ],
    **{name: _NAMES_ODD for name in ("type", "subject", "location", "topic")},
    "facets": [
        {},
        {"topic": 1},
        {"topic": " "},
        {"topic": " t "},
        {"subject": "x" * 513},
        {"time": "2025-10-21"},
        {"time": "2025-10-21T10:00:00+08:00"},
        {"time": 5},
        {" topic": "x"},
        {"": "x"},
        {"k" * 128: "x"},
        {"k" * 129: "x"},
        {"proj": 1},
        {"proj": None},
        {"proj": ["a"]},
        {"proj": "a\ud800"},
        {"a\ud800": "x"},
        {"proj": "x", "topic": "y"},
        "topic",
        [],
        None,
    ],
    "time": _TIMES_ODD,
    "expire_at": _TIMES_ODD,
    "weight": _UNITS_ODD,
    "confidence": _UNITS_ODD,
    **{name: [1, 0, "true", None, False] for name in ("skip_embedding", "dedupe", "proposal")},
    "source": ["", "x" * 2048, "x" * 2049, "a\ud800", "\x00", 1, None],
    "memory_type": ["episodic", "Episodic", " semantic", "working", None, 1],
    "sensitivity": ["sensitive", "Standard", "secret", None, 1],
}


def test_every_plain_field_with_odd_values_matches_validate():
    assert set(ONE_VALUE) == PLAIN_ARGS  # every field the plain path checks is tried here
    accepted = 0
    for name, values in ONE_VALUE.items():
        for value in values:
            ir = {"op": "Encode", "args": {"payload": {"text": "a note"}, "tags": ["t"], name: value}}
            accepted += check([ir])
    assert 0 < accepted < sum(map(len, ONE_VALUE.values()))  # both paths are taken


@pytest.mark.parametrize(
    ("key", "value"),
    [("args", {"payload": {"text": "x"}, "tags": ["a"]})]
    + [
        pair
        for pair in [
            ("stage", "enc"),
            ("stage", "STO"),
            ("stage", None),
            ("op", "encode"),
            ("op", " Encode"),
            ("meta", {}),
            ("meta", {"dry_run": True}),
            ("target", {"ids": ["1"]}),
            ("_comment", "c"),
            ("args", None),
            ("args", "text"),
            ("args", []),
            ("extra", 1),
            (" op", "Encode"),
        ]
    ],
)
def test_ir_keys_other_than_op_stage_args_go_to_validate(key, value):
    ir = {"op": "Encode", "args": {"payload": {"text": "x"}}, key: value}
    assert check([ir]) is (key == "args" and isinstance(value, dict))


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("priority", "high"),
        ("text", "loose text"),
        (" tags", ["a"]),
        ("category", "a2p:preferences"),
        ("ttl", "P3D"),
        ("namespace", ["a"]),
        ("key", "k"),
        ("interpret", True),
        ("derived_from", {"ids": ["1"]}),
        ("index", False),
        ("read_perm_level", "private"),
        ("project", "x"),
        ("tagz", ["a"]),
    ],
)
def test_other_args_go_to_validate(key, value):
    assert not check([{"op": "Encode", "args": {"payload": {"text": "x"}, key: value}}])


# --- bounds of the whole document -------------------------------------------------------------


STEPS = [
    {
        "op": "Encode",
        "args": {"payload": {"text": "first note"}, "tags": ["a", "b"], "facets": {"topic": "t"}},
    },
    {"op": "Encode", "args": {"payload": {"text": "second"}, "tags": ["c"], "time": "2025-01-01T00:00:00Z"}},
    {"stage": "ENC", "op": "Encode", "args": {"payload": {"text": "third"}, "weight": 1}},
]


@pytest.mark.parametrize(
    "limits",
    [Limits(max_nodes=n) for n in range(20, 36)]
    + [Limits(max_steps=n) for n in (2, 3)]
    + [Limits(max_string=n) for n in (5, 6, 9, 10, 11, 15, 16, 19, 20, 21)]
    + [Limits(max_items=n) for n in (1, 2, 3)]
    + [Limits(max_depth=n) for n in (3, 4, 5, 6)],
)
def test_document_bounds_are_hygienes(limits):
    """The plain path applies hygiene's bounds on the whole document exactly: it builds the result
    at every bound validate() accepts and leaves every other to validate()."""
    plain = check(STEPS, limits=limits)
    assert plain == validate({"workflow": copy.deepcopy(STEPS)}, limits=limits).valid


def test_empty_and_non_list_inputs_go_to_validate():
    for steps in ([], None, {"op": "Encode"}, "text"):
        fast = validate_encodes(steps, limits=BULK)  # type: ignore[arg-type]
        full = validate({"workflow": steps}, limits=BULK)
        assert not fast.valid and [d.model_dump() for d in fast.diagnostics] == [
            d.model_dump() for d in full.diagnostics
        ]


def test_the_bench_shape_is_plain():
    ir = {
        "op": "Encode",
        "args": {
            "payload": {"text": "Project review dentist report rain schedule."},
            "tags": ["t14", "work"],
            "type": "note",
            "facets": {"topic": "finance"},
            "time": "2025-11-03T23:35:44Z",
        },
    }
    assert plain_encode(ir, BULK) is not None
    assert check([ir, {"op": "Encode", "args": {"payload": {"text": "笔记 二"}, "weight": 0.25}}])


def test_a_list_with_some_plain_steps_is_validated_as_validate_does():
    """Some plain, some not: validate()'s path, with the plain steps' models taken from the plain path."""
    plain = {"op": "Encode", "args": {"payload": {"text": "plain"}, "tags": ["a"]}}
    other = {"op": "Encode", "args": {"payload": {"text": "fine"}, "category": "a2p:preferences"}}
    wrong = {"op": "Encode", "args": {"payload": {"text": "x"}, "weight": 7, "priority": "high"}}
    surrogate = {"op": "Encode", "args": {"payload": {"text": "bad \ud800"}, "ttl": "P1D"}}
    for steps in ([plain, other, plain], [other, plain], [plain, wrong, plain, other], [plain, surrogate]):
        assert not check(steps)  # not every step is plain, and both paths agree
    result = validate_encodes([plain, other], limits=BULK)
    assert result.valid and result.canonical["workflow"][1]["args"]["category"] == "a2p:preferences"


def test_validate_with_takes_the_prebuilt_steps():
    """The hook the mixed path uses: step i's model is prebuilt[i] where given, parsed otherwise."""
    from memql.lang.validate import validate_with

    ir, _form, _count = plain_encode({"op": "Encode", "args": {"payload": {"text": "one"}}}, BULK)
    steps = [
        {"op": "Encode", "args": {"payload": {"text": "one"}}},
        {"op": "Encode", "args": {"payload": {}}},
    ]
    given = (ir, _form)
    result = validate_with({"workflow": steps}, now=None, strict=False, limits=BULK, prebuilt=[given, None])
    assert [d.path for d in result.errors] == ["/workflow/1/args/payload"]  # the other step is parsed
    steps[1] = {"op": "Encode", "args": {"payload": {"text": "two"}}}
    result = validate_with({"workflow": steps}, now=None, strict=False, limits=BULK, prebuilt=[given, None])
    assert result.valid and result.program.workflow[0] is ir
    assert result.canonical is not None and result.canonical["workflow"][0] is _form
