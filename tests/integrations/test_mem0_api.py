"""mem0's API on memql (issue 18, item 2), on every backend: mem0's documented quick start with only the
import line changed, scopes (a property test: delete_all / search / get_all never touch another scope),
mem0's filter operators, `infer=True` as typed facts with supersession, and governance (locks, tenants,
another user's memories)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from memql import Memory as MemqlMemory
from memql import Refusal
from memql.integrations.mem0 import InvalidRequest, Memory, MemoryNotFound
from memql.ports.clock import FixedClock
from memql.store import open_store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)


@pytest.fixture
def open_memory(new_location: Callable[..., str], clock: FixedClock) -> Iterator[Callable[..., Memory]]:
    """open_memory(**Memory options) -> a mem0-style Memory on a fresh store of the run's backend."""
    opened: list[Memory] = []

    def make(**options: Any) -> Memory:
        options.setdefault("embedder", "none")
        memory = Memory(new_location(in_memory=True), clock=clock, **options)
        opened.append(memory)
        return memory

    yield make
    for memory in opened:
        memory.close()


def memories(result: dict[str, Any]) -> list[str]:
    return sorted(r["memory"] for r in result["results"])


# --- mem0's quick start --------------------------------------------------------------------------------


def test_mem0s_quick_start_runs_with_only_the_import_changed(new_location, clock) -> None:
    # mem0's Python quick start (https://docs.mem0.ai/v0x/open-source/python-quickstart, Apache-2.0), its
    # calls as written there; only `from mem0 import Memory` became the import above, and the Memory is
    # opened on this run's backend (mem0's reads its own config from the environment).
    m = Memory(new_location(in_memory=True), embedder="minilm", clock=clock)

    messages = [
        {"role": "user", "content": "I'm planning to watch a movie tonight. Any recommendations?"},
        {"role": "assistant", "content": "How about a thriller movies? They can be quite engaging."},
        {"role": "user", "content": "I'm not a big fan of thriller movies but I love sci-fi movies."},
        {
            "role": "assistant",
            "content": "Got it! I'll avoid thriller recommendations and suggest sci-fi movies in the future.",
        },
    ]

    # Store inferred memories (default behavior)
    result = m.add(messages, user_id="alice", metadata={"category": "movie_recommendations"})
    assert [(r["event"], r["memory"]) for r in result["results"]] == [
        ("ADD", "I'm planning to watch a movie tonight. Any recommendations?"),  # no fact in it: as said
        ("ADD", "alice's preference sci fi movies: love"),
    ]

    # Store memories with agent and run context
    result = m.add(
        messages,
        user_id="alice",
        agent_id="movie-assistant",
        run_id="session-001",
        metadata={"category": "movie_recommendations"},
    )
    assert [r["event"] for r in result["results"]] == ["ADD", "NONE"]  # the fact is alice's already

    # Store raw messages without inference
    result = m.add(messages, user_id="alice", metadata={"category": "movie_recommendations"}, infer=False)
    assert [r["role"] for r in result["results"]] == ["user", "assistant", "user", "assistant"]

    # Get all memories
    all_memories = m.get_all(user_id="alice")
    # the inferred two, the first message again in the agent's and run's scope, and the four raw messages
    assert len(all_memories["results"]) == 7
    assert all(r["user_id"] == "alice" for r in all_memories["results"])
    assert all(r["metadata"] == {"category": "movie_recommendations"} for r in all_memories["results"])

    # Get a single memory by ID
    memory_id = result["results"][2]["id"]
    specific_memory = m.get(memory_id)
    assert specific_memory["memory"] == "I'm not a big fan of thriller movies but I love sci-fi movies."
    assert specific_memory["role"] == "user" and specific_memory["score"] is None

    related_memories = m.search(query="What do you know about me?", user_id="alice")
    assert related_memories["results"] and all(r["score"] > 0 for r in related_memories["results"])
    sci_fi = m.search(query="Which movies does alice love?", user_id="alice", limit=3)
    assert "sci-fi" in sci_fi["results"][0]["memory"] or "sci fi" in sci_fi["results"][0]["memory"]

    result = m.update(memory_id=memory_id, data="I love India, it is my favorite country.")
    assert result == {"message": "Memory updated successfully!"}

    history = m.history(memory_id=memory_id)
    assert [(h["event"], h["old_memory"], h["new_memory"]) for h in history] == [
        ("ADD", None, "I'm not a big fan of thriller movies but I love sci-fi movies."),
        (
            "UPDATE",
            "I'm not a big fan of thriller movies but I love sci-fi movies.",
            "I love India, it is my favorite country.",
        ),
    ]

    m.delete(memory_id=memory_id)
    assert m.get(memory_id) is None
    assert [h["event"] for h in m.history(memory_id)] == ["ADD", "UPDATE", "DELETE"]

    m.delete_all(user_id="alice")
    assert m.get_all(user_id="alice")["results"] == []

    m.add("bob's note", user_id="bob", infer=False)
    m.reset()
    assert m.get_all(user_id="bob")["results"] == []  # every scope's memories, soft-deleted ones too
    assert m.get(memory_id) is None
    m.close()


def test_mem0_2_x_scopes_in_filters_and_top_k(open_memory) -> None:
    m = open_memory()
    m.add("Likes to play cricket on weekends", user_id="alice", metadata={"category": "hobbies"})
    m.add("Likes to play chess", user_id="bob")
    assert memories(m.get_all(filters={"user_id": "alice"}, top_k=20)) == [
        "Likes to play cricket on weekends"
    ]
    found = m.search("cricket", filters={"user_id": "alice"}, top_k=5)
    assert memories(found) == ["Likes to play cricket on weekends"]
    assert m.search("chess", filters={"user_id": "alice"})["results"] == []
    with pytest.raises(InvalidRequest) as conflict:
        m.get_all(user_id="alice", filters={"user_id": "bob"})
    assert (conflict.value.rule, conflict.value.field) == ("scope.conflict", "filters.user_id")


# --- infer=True: typed facts with supersession ---------------------------------------------------------


def test_a_move_supersedes_the_old_residence_instead_of_adding_a_second(open_memory, clock) -> None:
    m = open_memory()
    berlin = m.add("I live in Berlin.", user_id="alice")["results"]
    assert [(r["event"], r["memory"]) for r in berlin] == [("ADD", "alice's residence: Berlin")]
    clock.advance(timedelta(days=30))
    lisbon = m.add("I moved to Lisbon.", user_id="alice")["results"]
    assert [(r["event"], r["memory"], r["previous_memory"]) for r in lisbon] == [
        ("UPDATE", "alice's residence: Lisbon", "alice's residence: Berlin")
    ]
    assert lisbon[0]["superseded"] == [berlin[0]["id"]]
    assert memories(m.get_all(user_id="alice")) == ["alice's residence: Lisbon"]  # one current fact
    assert memories(m.search("Berlin Lisbon residence", user_id="alice")) == ["alice's residence: Lisbon"]
    history = m.history(lisbon[0]["id"])
    assert [(h["event"], h["old_memory"], h["new_memory"]) for h in history] == [
        ("ADD", None, "alice's residence: Berlin"),
        ("UPDATE", "alice's residence: Berlin", "alice's residence: Lisbon"),
    ]
    assert [h["event"] for h in m.history(berlin[0]["id"])] == ["ADD", "UPDATE"]  # closed by Lisbon
    again = m.add("I moved to Lisbon.", user_id="alice")["results"]
    assert [(r["event"], r["id"]) for r in again] == [("NONE", lisbon[0]["id"])]
    # the old value is still history in memql: the fact as it was true before the move
    facts = MemqlMemory(m.store, tenant="default", actor="alice", embedder="none").facts
    assert [f.value for f in facts.history("alice", "residence").facts] == ["Berlin", "Lisbon"]


def test_a_search_in_other_words_finds_the_current_fact_of_its_scope(open_memory, clock) -> None:
    m = open_memory()
    m.add("I live in Berlin.", user_id="alice", metadata={"topic": "home"})
    m.add("Likes to play cricket on weekends", user_id="alice", infer=False)
    m.add("I live in Paris.", user_id="bob")
    clock.advance(timedelta(days=2))
    m.add("I moved to Lisbon.", user_id="alice", metadata={"topic": "home"})
    found = m.search("where do I live?", user_id="alice")["results"]
    assert [r["memory"] for r in found] == ["alice's residence: Lisbon"]  # named by its words; current only
    assert found[0]["score"] == 1.0  # no hit of the search itself: the fact alone, scored as one
    assert memories(m.search("where do I live?", user_id="bob")) == ["bob's residence: Paris"]
    assert m.search("where do I live?", user_id="alice", filters={"topic": "work"})["results"] == []
    assert m.search("where do I live?", user_id="alice", agent_id="bot")["results"] == []  # not that scope


def test_infer_false_stores_each_message_as_said(open_memory) -> None:
    m = open_memory()
    result = m.add(
        [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "I live in Berlin.", "name": "ali"},
            {"role": "assistant", "content": "Noted."},
        ],
        user_id="alice",
        infer=False,
    )
    assert [(r["memory"], r["role"], r["actor_id"], r["event"]) for r in result["results"]] == [
        ("I live in Berlin.", "user", "ali", "ADD"),
        ("Noted.", "assistant", None, "ADD"),
    ]
    rows = m.get_all(user_id="alice")["results"]
    assert sorted((r["memory"], r["role"]) for r in rows) == [
        ("I live in Berlin.", "user"),
        ("Noted.", "assistant"),
    ]


def test_add_takes_as_many_messages_as_mem0_does(open_memory) -> None:
    """150 messages (infer=False) were one workflow of 150 steps: refused as over the 100 a hand-written
    workflow holds. With inference, 150 turns each stating a fact (remember's own workflow) as well."""
    m = open_memory()
    said = [{"role": "user", "content": f"message number {i}"} for i in range(150)]
    assert len(m.add(said, user_id="alice", infer=False)["results"]) == 150
    assert len(m.get_all(user_id="alice", limit=500)["results"]) == 150
    said = [{"role": "user", "content": f"my locker code is {1000 + i}"} for i in range(150)]
    assert len(m.add(said, user_id="bob")["results"]) == 150


# --- filters -------------------------------------------------------------------------------------------


@pytest.fixture
def filtered(open_memory) -> Memory:
    m = open_memory()
    items = {
        "tea note": {"drink": "tea", "cups": 3, "origin": "Shizuoka, Japan", "labels": ["hot", "green"]},
        "coffee note": {"drink": "coffee", "cups": 2, "origin": "Huila, Colombia", "labels": ["hot"]},
        "water note": {"drink": "water", "cups": 8, "origin": "tap"},
        "plain note": {},
    }
    for text, metadata in items.items():
        m.add(text, user_id="alice", metadata=metadata or None, infer=False)
    m.add("bob's tea note", user_id="bob", metadata={"drink": "tea", "cups": 3}, infer=False)
    return m


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"drink": "tea"}, ["tea note"]),
        ({"drink": {"eq": "coffee"}}, ["coffee note"]),
        ({"drink": {"ne": "tea"}}, ["coffee note", "plain note", "water note"]),
        ({"drink": {"in": ["tea", "water"]}}, ["tea note", "water note"]),
        ({"drink": {"nin": ["tea", "water"]}}, ["coffee note", "plain note"]),
        ({"cups": {"gt": 2}}, ["tea note", "water note"]),
        ({"cups": {"gte": 3}}, ["tea note", "water note"]),
        ({"cups": {"lt": 3}}, ["coffee note"]),
        ({"cups": {"lte": 3}}, ["coffee note", "tea note"]),
        ({"cups": {"gt": 1, "lt": 8}}, ["coffee note", "tea note"]),
        ({"origin": {"contains": "Japan"}}, ["tea note"]),
        ({"origin": {"contains": "japan"}}, []),
        ({"origin": {"icontains": "COLOMBIA"}}, ["coffee note"]),
        ({"labels": {"contains": "green"}}, ["tea note"]),
        ({"drink": "*"}, ["coffee note", "tea note", "water note"]),
        ({"AND": [{"labels": {"contains": "hot"}}, {"cups": {"lt": 3}}]}, ["coffee note"]),
        ({"OR": [{"drink": "water"}, {"cups": 2}]}, ["coffee note", "water note"]),
        ({"NOT": [{"drink": "tea"}]}, ["coffee note", "plain note", "water note"]),
        ({"NOT": [{"drink": "tea"}, {"cups": {"gte": 8}}]}, ["coffee note", "plain note"]),
        ({"OR": [{"AND": [{"drink": "tea"}, {"cups": 3}]}, {"origin": "tap"}]}, ["tea note", "water note"]),
    ],
)
def test_mem0s_filter_operators(filtered: Memory, filters: dict[str, Any], expected: list[str]) -> None:
    assert memories(filtered.get_all(user_id="alice", filters=filters)) == expected
    searched = filtered.search("note", user_id="alice", filters=filters)
    assert memories(searched) == expected  # the same conditions narrow a search


@pytest.mark.parametrize(
    ("filters", "rule", "field"),
    [
        ({"drink": {"like": "t%"}}, "filters.operator", "filters.drink"),
        ({"drink": {}}, "filters.operator", "filters.drink"),
        ({"OR": {"drink": "tea"}}, "filters.logical", "filters.OR"),
        ({"AND": [{"cups": {"between": [1, 2]}}]}, "filters.operator", "filters.AND[0].cups"),
        ({"$or": [{"drink": "tea"}]}, "filters.field", "filters.$or"),
    ],
)
def test_an_unknown_operator_names_the_field_and_operator(filtered: Memory, filters, rule, field) -> None:
    with pytest.raises(InvalidRequest) as bad:
        filtered.get_all(user_id="alice", filters=filters)
    assert (bad.value.rule, bad.value.field) == (rule, field)


def test_an_operand_memql_cannot_compare_is_its_diagnostic(filtered: Memory) -> None:
    with pytest.raises(InvalidRequest) as bad:
        filtered.search("note", user_id="alice", filters={"drink": {"in": "tea"}})
    assert bad.value.rule == "filter.where" and "$in takes a list" in bad.value.message


# --- scopes --------------------------------------------------------------------------------------------


def test_a_scope_is_required_and_checked(open_memory) -> None:
    m = open_memory()
    for call in (lambda: m.add("hi"), lambda: m.get_all(), lambda: m.search("hi"), lambda: m.delete_all()):
        with pytest.raises(InvalidRequest) as missing:
            call()
        assert missing.value.rule == "scope.required"
    for bad in ("", "  ", "two words"):
        with pytest.raises(InvalidRequest) as invalid:
            m.add("hi", user_id=bad)
        assert (invalid.value.rule, invalid.value.field) == ("scope.invalid", "user_id")
    with pytest.raises(InvalidRequest):
        m.add("hi", user_id="agent:bot")  # the name of an agent's principal
    assert m.add("hi", user_id=42, infer=False)["results"][0]["event"] == "ADD"  # mem0 takes integer ids
    assert memories(m.get_all(user_id="42")) == ["hi"]


def test_delete_all_of_one_user_leaves_every_other_user(open_memory) -> None:
    # mem0 #3928: delete_all(user_id=...) wiped every user's memories
    m = open_memory()
    for user in ("alice", "bob", "carol"):
        m.add(f"{user} likes tea", user_id=user, infer=False)
    m.add("alice and the bot", user_id="alice", agent_id="bot", infer=False)
    m.delete_all(user_id="alice")
    assert m.get_all(user_id="alice")["results"] == []
    assert memories(m.get_all(user_id="bob")) == ["bob likes tea"]
    assert memories(m.get_all(user_id="carol")) == ["carol likes tea"]


USERS, AGENTS, RUNS = ("u1", "u2", None), ("a1", "a2", None), ("r1", None)
Scope = tuple[str | None, str | None, str | None]
_scopes = st.tuples(st.sampled_from(USERS), st.sampled_from(AGENTS), st.sampled_from(RUNS)).filter(
    lambda s: any(s)
)
_tenants = itertools.count(1)


def _ids(scope: Scope) -> dict[str, str]:
    return {k: v for k, v in zip(("user_id", "agent_id", "run_id"), scope, strict=True) if v is not None}


def _within(record: Scope, asked: Scope) -> bool:
    return all(a is None or a == r for r, a in zip(record, asked, strict=True))


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(records=st.lists(_scopes, min_size=1, max_size=8), asked=_scopes, deleted=_scopes)
def test_scopes_never_leak(new_location, records: list[Scope], asked: Scope, deleted: Scope) -> None:
    store = open_store(new_location(in_memory=True))
    try:
        m = Memory(store, tenant=f"t{next(_tenants)}", embedder="none")
        written = {}
        for i, scope in enumerate(records):
            text = f"note {i} apple"
            m.add(text, infer=False, **_ids(scope))
            written[text] = scope
        expect = sorted(t for t, s in written.items() if _within(s, asked))
        assert memories(m.get_all(**_ids(asked))) == expect
        assert memories(m.search("apple", **_ids(asked))) == expect
        m.delete_all(**_ids(deleted))
        kept = {t: s for t, s in written.items() if not _within(s, deleted)}
        assert memories(m.get_all(**_ids(asked))) == sorted(t for t, s in kept.items() if _within(s, asked))
        for scope in set(records):  # every scope still holds exactly what delete_all did not match
            assert memories(m.get_all(**_ids(scope))) == sorted(
                t for t, s in kept.items() if _within(s, scope)
            )
    finally:
        store.close()


# --- governance ----------------------------------------------------------------------------------------


def test_a_locked_memory_refuses_update_and_delete(open_memory) -> None:
    m = open_memory()
    memory_id = m.add("keep this as it is", user_id="alice", infer=False)["results"][0]["id"]
    owner = MemqlMemory(m.store, tenant="default", actor="alice", embedder="none")
    assert owner.lock(memory_id, reason="legal hold").success
    for call in (
        lambda: m.update(memory_id, data="changed"),
        lambda: m.delete(memory_id),
        lambda: m.delete_all(user_id="alice"),
        lambda: m.update(memory_id, data="changed", user_id="alice"),
    ):
        with pytest.raises(Refusal) as refused:
            call()
        assert refused.value.rule == "governance.locked" and "legal hold" in refused.value.message
    assert m.get(memory_id)["memory"] == "keep this as it is"


def test_another_tenant_and_another_user_are_invisible(open_memory) -> None:
    acme = open_memory(tenant="acme")
    other = Memory(acme.store, tenant="globex", embedder="none")
    memory_id = acme.add("acme's secret", user_id="alice", infer=False)["results"][0]["id"]
    assert other.get_all(user_id="alice")["results"] == [] and other.get(memory_id) is None
    assert other.search("secret", user_id="alice")["results"] == []
    with pytest.raises(MemoryNotFound):
        other.delete(memory_id)
    other.delete_all(user_id="alice")
    other.reset()
    assert memories(acme.get_all(user_id="alice")) == ["acme's secret"]
    # by id with a scope: checked as that user — bob may not read alice's memory
    assert acme.get(memory_id, user_id="bob") is None
    with pytest.raises(MemoryNotFound):
        acme.update(memory_id, data="mine now", user_id="bob")
    assert acme.history(memory_id, user_id="bob") == []
    assert acme.get(memory_id, user_id="alice")["memory"] == "acme's secret"


def test_an_agent_reads_what_it_shares_with_a_user_and_nothing_else(open_memory) -> None:
    m = open_memory()
    m.add("alice told the bot", user_id="alice", agent_id="bot", infer=False)
    m.add("alice alone", user_id="alice", infer=False)
    m.add("bob told the bot", user_id="bob", agent_id="bot", infer=False)
    m.add("the other bot", user_id="bob", agent_id="other", infer=False)
    assert memories(m.get_all(agent_id="bot")) == ["alice told the bot", "bob told the bot"]
    assert memories(m.get_all(user_id="alice")) == ["alice alone", "alice told the bot"]
    m.delete_all(agent_id="bot")
    assert memories(m.get_all(user_id="alice")) == ["alice alone"]
    assert memories(m.get_all(user_id="bob")) == ["the other bot"]


# --- configuration and bad input -----------------------------------------------------------------------


def test_from_config_takes_memqls_options(new_location, clock) -> None:
    m = Memory.from_config({"path": new_location(in_memory=True), "tenant": "acme", "embedder": "none"})
    assert m.add("hi", user_id="alice", infer=False)["results"][0]["event"] == "ADD"
    assert m.tenant == "acme"
    m.close()
    with pytest.raises(InvalidRequest) as unknown:
        Memory.from_config({"vector_store": {"provider": "qdrant"}})
    assert (unknown.value.rule, unknown.value.field) == ("config.unknown", "vector_store")
    for option, rule in (("embedder", "config.embedder"), ("extractor", "config.extractor")):
        with pytest.raises(InvalidRequest) as bad:
            Memory.from_config({"path": new_location(in_memory=True), option: "nope"})
        assert (bad.value.rule, bad.value.field) == (rule, option)


@pytest.mark.parametrize(
    ("call", "rule", "field"),
    [
        (lambda m: m.add(3, user_id="a"), "messages.type", "messages"),
        (lambda m: m.add([{"role": "user"}], user_id="a"), "messages.content", "messages[0].content"),
        (lambda m: m.add(["hi"], user_id="a"), "messages.type", "messages[0]"),
        (lambda m: m.add("hi", user_id="a", memory_type="episodic"), "memory_type.enum", "memory_type"),
        (lambda m: m.add("hi", user_id="a", prompt="extract"), "prompt.unsupported", "prompt"),
        (lambda m: m.add("hi", user_id="a", metadata=["x"]), "metadata.type", "metadata"),
        (
            lambda m: m.add("hi", user_id="a", expiration_date="soon"),
            "expiration_date.invalid",
            "expiration_date",
        ),
        (lambda m: m.search("  ", user_id="a"), "query.empty", "query"),
        (lambda m: m.search("hi", user_id="a", limit=0), "limit.range", "limit"),
        (lambda m: m.search("hi", user_id="a", threshold="high"), "threshold.type", "threshold"),
        (lambda m: m.update("1"), "update.empty", "data"),
        (lambda m: m.get("1", owner="a"), "argument.unknown", "owner"),
        (lambda m: m.delete(None), "memory_id.invalid", "memory_id"),
        (lambda m: m.get(""), "memory_id.invalid", "memory_id"),
    ],
)
def test_bad_input_names_the_field_and_the_rule(open_memory, call, rule, field) -> None:
    with pytest.raises(InvalidRequest) as bad:
        call(open_memory())
    assert (bad.value.rule, bad.value.field) == (rule, field)


def test_an_expiration_date_hides_the_memory_after_that_day(open_memory, clock) -> None:
    m = open_memory()
    m.add("the offer holds", user_id="alice", infer=False, expiration_date="2026-03-03")
    assert memories(m.get_all(user_id="alice")) == ["the offer holds"]
    clock.advance(timedelta(days=2))  # March 4th
    assert m.get_all(user_id="alice")["results"] == []


def test_update_merges_metadata_and_sets_an_expiration_date(open_memory, clock) -> None:
    m = open_memory()
    memory_id = m.add("a note", user_id="alice", infer=False, metadata={"a": 1, "b": 2})["results"][0]["id"]
    m.update(memory_id, metadata={"b": 3, "c": 4})
    assert m.get(memory_id)["metadata"] == {"a": 1, "b": 3, "c": 4}
    assert memories(m.get_all(user_id="alice", filters={"b": 3})) == ["a note"]
    assert [h["event"] for h in m.history(memory_id)] == ["ADD", "UPDATE"]
    m.update(memory_id, expiration_date="2026-03-02")
    clock.advance(timedelta(days=1))
    assert m.get(memory_id) is None and m.get_all(user_id="alice")["results"] == []
    with pytest.raises(MemoryNotFound):
        m.update("999", metadata={"x": 1})
    with pytest.raises(MemoryNotFound):
        m.delete("999")


def test_a_procedural_memory_is_one_record_of_the_steps(open_memory) -> None:
    m = open_memory()
    steps = [{"role": "user", "content": "open the repo"}, {"role": "assistant", "content": "ran the tests"}]
    (result,) = m.add(steps, agent_id="coder", memory_type="procedural_memory")["results"]
    assert result["memory"] == "user: open the repo\nassistant: ran the tests"
    assert m.get_all(agent_id="coder")["results"][0]["role"] == "procedure"


def test_the_api_module_imports_without_mem0() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['mem0'] = None\n"  # any import of mem0 now fails
        "from memql.integrations.mem0 import Memory\n"
        "m = Memory(':memory:', embedder='none')\n"
        "assert m.add('hi', user_id='a', infer=False)['results'][0]['event'] == 'ADD'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
