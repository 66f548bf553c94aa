"""Memory.remember (issue 18, item 2: what mem0's add(infer=True) runs on), on every backend: typed facts
read from messages supersede the value their key held (events ADD, UPDATE, NONE), a message with no fact
is kept as said, the other speakers' turns are context only — and governance: a lock on the value it would
close or another user's fact refuses the whole call, which stores nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memql import Memory


def values(m: Memory, subject: str, attribute: str) -> list[str]:
    return [f.value for f in m.facts.history(subject, attribute).facts]


def test_a_new_value_supersedes_and_says_which_it_closed(memory, clock) -> None:
    m = memory(actor="mira", embedder="none")
    (first,) = m.remember("I live in Berlin.", facets={"from": "chat"}, tags=["onboarding"]).memories
    assert (first.event, first.text, first.fact) == (
        "ADD",
        "mira's residence: Berlin",
        {"subject": "mira", "attribute": "residence", "value": "Berlin"},
    )
    clock.advance(timedelta(days=3))
    (moved,) = m.remember("I moved to Lisbon.").memories
    assert (moved.event, moved.superseded) == (
        "UPDATE",
        [{"id": first.id, "text": "mira's residence: Berlin"}],
    )
    (again,) = m.remember("I moved to Lisbon.").memories
    assert (again.event, again.id) == ("NONE", moved.id)
    assert values(m, "mira", "residence") == ["Berlin", "Lisbon"]
    (row,) = m.retrieve(ids=[first.id], include=["facets", "tags", "memory_type"]).data["rows"]
    assert row["facets"]["from"] == "chat" and row["facets"]["evidence"] == "I live in Berlin"
    assert row["tags"] == ["onboarding"] and row["memory_type"] == "semantic"


def test_a_message_without_a_fact_is_kept_and_others_turns_are_context(memory) -> None:
    m = memory(actor="mira", embedder="none")
    said = [
        ("mira", "Likes to play cricket on weekends"),
        ("bot", "I live in Paris."),  # the bot's words: context, not mira's memory
        ("mira", "My passport deadline is July 15."),
        ("mira", "Correction: it's June 30."),  # binds to the turn before it
    ]
    result = m.remember(said)
    assert [(r.event, r.text) for r in result.memories] == [
        ("ADD", "Likes to play cricket on weekends"),
        ("ADD", "mira's passport deadline: 2026-07-15"),
        ("UPDATE", "mira's passport deadline: 2026-06-30"),
    ]
    assert m.facts.get("bot").facts == []
    assert m.remember([("bot", "I live in Paris.")], speaker="mira").memories == []
    kept = m.remember("Likes to play cricket on weekends", keep_unformed=False)
    assert kept.success and kept.memories == []


def test_more_facts_than_a_hand_written_workflow_holds_are_remembered(memory) -> None:
    """One Encode per fact: 120 turns each stating one were 120 steps, and a workflow a caller writes holds
    100 (`workflow.too_long`: nothing was remembered). A remember's workflow is memql's own, bounded per
    step as a bulk write is."""
    m = memory(actor="mira", embedder="none")
    result = m.remember([("mira", f"my locker code is {1000 + i}") for i in range(120)])
    assert result.success, result.diagnostics
    assert [r.event for r in result.memories] == ["ADD"] + ["UPDATE"] * 119
    assert values(m, "mira", "locker_code")[-1] == 1119


def test_a_lock_on_the_value_it_would_close_stores_nothing(memory, clock) -> None:
    m = memory(actor="mira", embedder="none")
    (berlin,) = m.remember("I live in Berlin.").memories
    assert m.lock(berlin.id, reason="legal hold").success
    clock.advance(timedelta(days=1))
    refused = m.remember([("mira", "Likes chess"), ("mira", "I moved to Lisbon.")])
    assert not refused.success and refused.memories == []
    assert refused.diagnostics[0].rule == "governance.locked"
    assert values(m, "mira", "residence") == ["Berlin"]
    assert m.retrieve(filter={}, include=["text"]).data["count"] == 1  # not "Likes chess" either


def test_another_users_fact_is_not_closed_and_tenants_never_meet(memory, clock) -> None:
    mira = memory(actor="mira", embedder="none")
    mira.remember("I live in Berlin.", read_perm_level="private")
    clock.advance(timedelta(days=1))
    ravi = memory(actor="ravi", share=mira, embedder="none")
    refused = ravi.remember([("mira", "I moved to Lisbon.")], speaker="mira")  # ravi writing mira's key
    assert not refused.success and refused.diagnostics[0].rule == "permission.fact"
    assert "Berlin" not in refused.diagnostics[0].message  # never a hidden value
    other = memory(tenant="other", actor="mira", share=mira, embedder="none")
    assert [m.event for m in other.remember("I moved to Lisbon.").memories] == ["ADD"]  # its own key
    assert values(mira, "mira", "residence") == ["Berlin"]


def test_a_message_too_long_to_read_is_a_diagnostic(memory) -> None:
    m = memory(actor="mira", embedder="none")
    result = m.remember("word " * 30_000)
    assert not result.success
    assert (result.diagnostics[0].rule, result.diagnostics[0].path) == ("field.size", "/said/0")


def test_when_it_was_said_is_a_datetime_an_iso_string_or_a_phrase(memory, clock) -> None:
    """As an Encode's time: `time="yesterday"` was a pydantic ValidationError, and so was a naive datetime."""
    m = memory(actor="mira", embedder="none")
    assert m.remember("I live in Berlin.", time="2026-01-02T10:00:00Z").success
    assert m.remember("I moved to Lisbon.", time="yesterday").success
    assert m.remember("I moved to Porto.", time=datetime(2026, 5, 1, 9)).success  # naive: UTC
    yesterday = datetime.combine(clock.now().date() - timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    assert [(f.value, f.valid_from) for f in m.facts.history("mira", "residence").facts] == [
        ("Berlin", datetime(2026, 1, 2, 10, tzinfo=UTC)),
        ("Lisbon", yesterday),
        ("Porto", datetime(2026, 5, 1, 9, tzinfo=UTC)),
    ]
    for bad, rule in (("the day after never", "time.invalid"), (5, "field.type")):
        refused = m.remember("I moved to Madrid.", time=bad)
        assert not refused.success
        assert [(d.rule, d.path) for d in refused.diagnostics] == [(rule, "/time")]
    assert "Madrid" not in values(m, "mira", "residence")  # nothing written


def test_input_of_the_wrong_shape_is_a_diagnostic_naming_where(memory) -> None:
    """Each of these raised (a pydantic ValidationError, or TypeError and ValueError from unpacking)."""
    m = memory(actor="mira", embedder="none")
    for arguments, expected in (
        ({"said": None}, ("field.type", "/said")),
        ({"said": {"a": 1}}, ("field.type", "/said")),
        ({"said": [("mira",)]}, ("field.type", "/said/0")),
        ({"said": [("mira", "hi"), ("ravi", 5)]}, ("field.type", "/said/1")),
        ({"said": "I live in Paris \ud83d"}, ("json.encoding", "/said/0")),  # half an emoji
        ({"said": [("ra\udcffvi", "hi")]}, ("json.encoding", "/said/0/0")),
        ({"said": [("  ", "hi")]}, ("field.invalid", "/said/0/0")),
        ({"said": "hi", "speaker": 5}, ("field.type", "/speaker")),
        ({"said": "hi", "speaker": "x" * 513}, ("field.invalid", "/speaker")),
        ({"said": "hi", "facets": 5}, ("field.type", "/facets")),
    ):
        result = m.remember(**arguments)
        assert not result.success and result.memories == [], arguments
        assert (result.diagnostics[0].rule, result.diagnostics[0].path) == expected, arguments
    assert m.retrieve(filter={}).data["count"] == 0
    # what remember sets on each record itself is no caller's field (these raised TypeError)
    for name, value in (("category", "a2p:preferences"), ("type", "note"), ("confidence", 0.5)):
        result = m.remember("I live in Paris.", **{name: value})
        assert not result.success and [(d.path, d.rule) for d in result.diagnostics] == [
            (f"/{name}", "field.invalid")
        ]
    assert m.retrieve(filter={}).data["count"] == 0
    assert m.remember([("mira", "I live in Paris 😀")]).success
    assert m.remember(turn for turn in [("mira", "I live in Rome.")]).success  # any iterable of turns


def test_messages_no_delta_can_hold_whole_are_read_not_raised(memory) -> None:
    """A number of 5,000 digits (Python refuses such an int: ValueError), 400 time expressions (a delta
    holds 200: pydantic's ValidationError), a time expression of 6,000 characters (evidence quotes
    2,000) and capitalised words over as many each raised from the extractor; a conversation's message
    as well."""
    m = memory(actor="mira", embedder="none")
    digits = "9" * 5000
    for said in (
        f"my wifi password is {digits}",
        f"I have {digits} cats",
        f"book a table for {digits} people",
        f"房租{digits}",
        "明天下午三点" * 400,
        f"提醒我{digits}天后打电话",
        "Swap\n" * 1000,  # capitalised words over 5,000 characters: an entity no evidence quotes
    ):
        result = m.remember(said)
        assert result.success, (said[:30], result.diagnostics)
    conversation = m.conversation(user="mira", agent="bot")
    assert conversation.add_message("user", f"my code is {digits}").memory_id
    assert conversation.add_message("user", "1月" * 1000).memory_id


def test_an_agents_facts_are_proposals_and_its_speaker_defaults_to_its_name(memory) -> None:
    mira = memory(actor="mira", embedder="none")
    mira.remember("I live in Berlin.")
    helper = memory(actor="helper", role="agent", consent="propose", share=mira, embedder="none")
    proposed = helper.remember("I moved to Lisbon.", speaker="mira")
    assert proposed.to_json() == {
        "success": True,
        "memories": [
            {
                "id": proposed.memories[0].id,
                "event": "ADD",
                "text": "mira's residence: Lisbon",
                "fact": {"subject": "mira", "attribute": "residence", "value": "Lisbon"},
                "superseded": [],
                "proposal": True,
            }
        ],
        "diagnostics": [],
    }
    assert values(mira, "mira", "residence") == ["Berlin"]  # until mira approves it
    (own,) = helper.remember("I prefer short answers.").memories  # the agent's own words: its name
    assert own.proposal and own.fact is not None and own.fact["subject"] == "helper"
    (users,) = (
        memory(actor=None, embedder="none", share=mira).remember("I live in Oslo.").memories
    )  # no actor
    assert users.fact == {"subject": "user", "attribute": "residence", "value": "Oslo"}
