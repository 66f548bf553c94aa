"""The Python API's convenience methods build their IRs with memql.lang.build: a bad argument comes back
as diagnostics in the ExecutionResult, never as an exception, and nothing is written."""

from __future__ import annotations

import pytest


def test_bad_arguments_are_diagnostics(m, db):
    before = len(db.operations(m))
    for result in (
        m.update(None, text="x"),  # no ids
        m.promote("1", weight="heavy"),
        m.encode(),  # no payload
        m.label("1"),  # neither tags nor facets
        m.expire("1", ttl="soon"),
    ):
        assert not result.success and result.diagnostics
    assert len(db.operations(m)) == before


def test_the_audited_ir_is_the_built_one(m, db):
    rid = m.encode("Standup moves to 9:30", tags=["team"]).id
    m.delete(rid, reason="moved", confirm=True)
    ir = db.operations(m)[-1]["ir"]
    assert ir["target"] == {"ids": [rid]}
    assert ir["args"]["reason"] == "moved" and ir["args"]["soft"] is True
    assert ir["meta"] == {"confirmation": True}


def test_an_int_names_a_record_wherever_an_id_is_taken(m):
    """get and the verbs took 5 for "5"; history, lineage and consolidation's primary raised AttributeError
    (found by fuzzing the API's arguments). A value that is no id at all is a TypeError that says so."""
    m.encode("the ferry leaves at nine")
    assert m.history(1) == m.history("1") and len(m.history(1)) == 1
    assert m.lineage(1) == m.lineage("1")
    assert m.get(1)["id"] == "1"
    with pytest.raises(TypeError, match="a record id is a string of digits"):
        m.history(None)


def test_fields_to_include_are_a_list_of_names(m):
    """`include="text"` was read as the fields t, e, x, t, and `include=5` raised TypeError."""
    m.encode("the ferry leaves at nine")
    for include in ("text", 5):
        result = m.retrieve(query="ferry", include=include)
        assert [(d.rule, d.path) for d in result.diagnostics] == [("field.type", "/args/include")]
    assert m.retrieve(query="ferry", include=("id", "text")).data["rows"] == [
        {"id": "1", "text": "the ferry leaves at nine"}
    ]


def test_text_no_store_can_hold_is_answered_not_raised(m):
    """A lone surrogate (half of an emoji cut in two) reached the store's driver: UnicodeEncodeError."""
    m.encode("the ferry leaves at nine")
    assert m.history("1\ud83d") == [] and m.lineage("\ud83d") == []
    for user in ("mira\ud83d", 5):
        exported = m.export_a2p(user=user)
        assert not exported.success and exported.diagnostics[0].path == "/user"
    assert m.export_a2p(user="mira").success


def test_a_callers_wrong_argument_is_an_error_naming_it(m):
    """These raised AttributeError or TypeError from deep inside ("'NoneType' object is not iterable",
    "'<' not supported between instances of 'str' and 'int'"); consolidating no ids read every record."""
    for call, error, words in (
        (lambda: m.encode_many(None), TypeError, "items are Encodes"),
        (lambda: m.encode_many("one text"), TypeError, "items are Encodes"),
        (lambda: m.encode_many(["x"], batch_size="10"), ValueError, "batch_size"),
        (
            lambda: m.execute({"op": "Encode", "args": {"payload": {"text": "x"}}}, max_steps="9"),
            ValueError,
            "max_steps",
        ),
        (lambda: m.execute_plan(None), TypeError, "execute_plan runs a Plan"),
        (lambda: m.plan("remember tea", planner=None), TypeError, "planner is"),
        (lambda: m.promote_episodes(5), TypeError, "PromotionConfig"),
    ):
        with pytest.raises(error, match=words):
            call()
    refused = m.consolidate(None)
    assert not refused.success and refused.diagnostics[0].rule == "target.missing_selector"
    assert m.retrieve(filter={}).data["count"] == 0  # nothing written by any of them
