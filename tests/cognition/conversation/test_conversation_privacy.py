"""A conversation is private to its participants (issue 16, item 6; docs/conversation.md, Privacy): every
record it writes — messages, tier pages and segments, ladder episodes, facts and themes — is owned by its
user and readable, besides admins, only by its agent (consent read or read_write). Another user, another
agent, an agent with propose consent read none of it, on any read path; a session opens a conversation
only as its user, its agent or an admin."""

from __future__ import annotations

import pytest

from memql.cognition.conversation.records import ConversationError
from memql.cognition.conversation.tiers import TiersConfig

TAG = "conv:mira/assistant"
STRATEGIES = ["flat", "tiers", "ladder"]
CONFIG = {"tiers": TiersConfig(stm_capacity=1)}  # pages move to MTM at once: every tier has records


def _turns(conv) -> None:
    conv.add_turn("I adopted a beagle called Max.", "Lovely! How old is Max?")
    conv.add_turn("Max is two; we walk by the river.", "River walks sound great.")
    conv.add_turn("My sister Ana moved to Porto.", "Is she enjoying Porto?")
    for strategy in conv._observers or ():
        if hasattr(strategy, "flush"):
            strategy.flush()  # the ladder closes its episode: episodes, facts and themes are stored


def _rows(m, **target) -> list[dict]:
    include = ["id", "owner", "read_perm_level", "read_whitelist", "facets", "sensitivity"]
    result = m.retrieve(**target, include=include)
    assert result.success, result.diagnostics
    return result.data["rows"]


@pytest.fixture
def people(memory):
    mira = memory(actor="mira", embedder="none")
    share = {"share": mira, "embedder": "none"}
    return {
        "mira": mira,
        "ravi": memory(actor="ravi", **share),
        "admin": memory(actor="root", role="admin", **share),
        "reader": memory(actor="assistant", role="agent", consent="read", **share),
        "writer": memory(actor="assistant", role="agent", consent="read_write", **share),
        "proposer": memory(actor="assistant", role="agent", consent="propose", **share),
        "spy": memory(actor="spy", role="agent", consent="read_write", **share),
    }


def test_every_record_a_conversation_writes_is_its_users_and_its_agents(people):
    mira = people["mira"]
    _turns(mira.conversation(user="mira", agent="assistant", strategy=STRATEGIES, config=CONFIG))
    rows = _rows(mira, filter={"has_tags": [TAG], "limit": 1000})
    levels = {row["facets"]["level"] for row in rows}
    assert {"message", "page", "segment", "episode", "fact", "theme"} <= levels
    assert all(
        (row["owner"], row["read_perm_level"], row["read_whitelist"]) == ("mira", "custom", ["assistant"])
        for row in rows
    )


@pytest.mark.parametrize("who", ["ravi", "spy", "proposer"])
def test_nobody_else_reads_a_conversation_on_any_path(people, who):
    mira, other = people["mira"], people[who]
    _turns(mira.conversation(user="mira", agent="assistant", strategy=STRATEGIES, config=CONFIG))
    ids = [row["id"] for row in _rows(mira, filter={"has_tags": [TAG], "limit": 1000})]
    assert _rows(other, ids=ids) == []
    assert _rows(other, filter={"has_tags": [TAG], "limit": 1000}) == []
    assert _rows(other, query="beagle Max river Porto") == []
    summary = other.summarize(filter={"has_tags": [TAG]})
    assert "beagle" not in str(summary.data) and "Porto" not in str(summary.data)
    assert all(other.history(i) == [] for i in ids)
    if who == "proposer":  # its own agent name, but no read consent: an empty conversation
        context = other.conversation(user="mira", agent="assistant", strategy="flat").context("Max?")
        assert context.pieces == []
        with pytest.raises(ConversationError) as caught:
            other.conversation(user="mira", agent="assistant", strategy="flat").add_turn("hi", "hello")
        assert [d.rule for d in caught.value.diagnostics] == ["consent.write"]
    else:
        field = "/user" if who == "ravi" else "/agent"
        with pytest.raises(ConversationError) as caught:
            other.conversation(user="mira", agent="assistant")
        assert [(d.path, d.rule) for d in caught.value.diagnostics] == [(field, "conversation.participant")]


def test_the_user_its_agent_and_admins_read_it(people):
    mira = people["mira"]
    _turns(mira.conversation(user="mira", agent="assistant", strategy=STRATEGIES, config=CONFIG))
    rows = _rows(mira, filter={"has_tags": [TAG], "limit": 1000})
    count = len(rows)
    # an agent's clearance is "standard": the fact "Ana is mira's sister" (a2p:relationships) is sensitive
    cleared = [r for r in rows if r["sensitivity"] in ("public", "standard")]
    assert 0 < len(cleared) < count
    for who in ("reader", "writer", "admin"):
        m = people[who]
        seen = _rows(m, filter={"has_tags": [TAG], "limit": 1000})
        assert len(seen) == (count if who == "admin" else len(cleared)), who
        conv = m.conversation(user="mira", agent="assistant", strategy=STRATEGIES, config=CONFIG)
        for strategy in STRATEGIES:
            assert "M5" in conv.context("Where did Ana move?", strategy=strategy).source_ids, (who, strategy)
    # an agent with read consent reads, but adds nothing
    with pytest.raises(ConversationError) as caught:
        people["reader"].conversation(user="mira", agent="assistant", strategy="flat").add_turn("a", "b")
    assert [d.rule for d in caught.value.diagnostics] == ["consent.write"]
    assert len(_rows(mira, filter={"has_tags": [TAG], "limit": 1000})) == count


@pytest.mark.parametrize("who", ["writer", "admin"])
def test_what_the_agent_or_an_admin_adds_is_the_users(people, who):
    conv = people[who].conversation(user="mira", agent="assistant", strategy=STRATEGIES, config=CONFIG)
    _turns(conv)
    rows = _rows(people["mira"], filter={"has_tags": [TAG], "limit": 1000})
    assert len(rows) > 6 and {row["owner"] for row in rows} == {"mira"}
    assert {tuple(row["read_whitelist"]) for row in rows} == {("assistant",)}
    assert _rows(people["ravi"], filter={"has_tags": [TAG], "limit": 1000}) == []
    mine = people["mira"].conversation(user="mira", agent="assistant", strategy=STRATEGIES, config=CONFIG)
    assert "M5" in mine.context("Where did Ana move?").source_ids


def test_a_session_without_an_actor_acts_as_the_user(people, memory):
    anonymous = memory(actor=None, share=people["mira"], embedder="none")
    conv = anonymous.conversation(user="mira", agent="assistant", strategy="flat")
    conv.add_turn("I adopted a beagle called Max.", "Lovely!")
    assert "M1" in conv.context("beagle").source_ids
    assert {row["owner"] for row in _rows(people["mira"], filter={"has_tags": [TAG]})} == {"mira"}
    assert _rows(anonymous, filter={"has_tags": [TAG]}) == []  # its own reads: nothing of mira's


def test_another_users_conversation_with_the_same_id_stays_out_of_it(people):
    mira, ravi = people["mira"], people["ravi"]
    mira.conversation(user="mira", agent="assistant", strategy="flat").add_turn("My cat is Miso.", "Cute!")
    # ravi names his own conversation with the same agent like mira's: the agent reads both users' records
    theirs = ravi.conversation(user="ravi", agent="assistant", id="mira/assistant", strategy="flat")
    theirs.add_turn("Forget it: my cat is called Rex.", "Noted, Rex.")
    for who in ("writer", "admin", "mira"):
        conv = people[who].conversation(user="mira", agent="assistant", strategy="flat")
        context = conv.context("what is the cat called?", budget_tokens=300)
        assert "Miso" in context.text and "Rex" not in context.text, who
    assert "Miso" not in theirs.context("what is the cat called?", budget_tokens=300).text
