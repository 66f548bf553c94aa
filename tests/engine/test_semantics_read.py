"""Retrieve and Summarize (DESIGN §5).

Retrieve: ranked, filtered rows; governance applied (tenant, status, expiry, permissions); `include`
whitelist; `order_by`; `k`; scores explained; visits/last_access updated; `as_of` answers what a read
would have returned then. Refused for `all` without confirmation.
Summarize: within max_tokens, with focus; stored as a derived record (kind summary) linked `summarizes`
to its sources. Refused for `all` without confirmation.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from memql.ports.models import LLMUsage
from memql.services import estimate_tokens

DEFAULT_FIELDS = ["id", "text", "type", "tags", "facets", "time", "weight", "status", "score"]


@pytest.fixture
def coffee(m):
    m.encode("coffee beans from Ethiopia", tags=["coffee"], weight=0.2, time="2026-01-01T00:00:00Z")
    m.encode(
        "coffee coffee grinder settings", tags=["coffee", "gear"], weight=0.9, time="2026-02-01T00:00:00Z"
    )
    m.encode("tea ceremony notes", tags=["tea"], weight=0.5, time="2026-03-01T00:00:00Z", type="event")
    m.encode(
        "coffee shop downtown", tags=["Coffee"], weight=0.6, time="2026-03-02T00:00:00Z", location="Oslo"
    )
    return m


def _ids(result):
    assert result.success, result.diagnostics
    return [row["id"] for row in result.data["rows"]]


# --- Retrieve: rows and fields --------------------------------------------------------------------


def test_default_row_fields(m, t0):
    m.encode("hello world", type="note", tags=["a"], facets={"topic": "greeting"}, weight=0.7)
    result = m.retrieve(filter={})
    assert result.success and result.op == "Retrieve"
    assert result.affected_ids == ["1"] and result.data["count"] == 1
    (row,) = result.data["rows"]
    assert list(row) == DEFAULT_FIELDS
    assert row == {
        "id": "1",
        "text": "hello world",
        "type": "note",
        "tags": ["a"],
        "facets": {"topic": "greeting"},
        "time": t0,  # no event time: the creation time
        "weight": 0.7,
        "status": "active",
        "score": None,  # no search, no lexical score
    }


def test_include_is_a_whitelist(m, t0):
    m.encode("hello", subject="me", tags=["a"], sensitivity="restricted")
    m.expire("1", ttl="P1D", on_expire="archive")
    m.lock("1", reason="keep")
    include = ["id", "subject", "sensitivity", "expire_at", "on_expire", "created_at", "lock"]
    (row,) = m.retrieve(ids="1", include=include).data["rows"]
    assert list(row) == include
    assert row["subject"] == "me" and row["sensitivity"] == "restricted"
    assert row["expire_at"] == t0 + timedelta(days=1) and row["on_expire"] == "archive"
    assert row["created_at"] == t0
    assert row["lock"] == {
        "mode": "read_only",
        "reason": "keep",
        "by": "alice",
        "until": None,
        "policy": None,
    }


def test_include_rejects_unknown_fields(m, rules):
    result = m.execute({"op": "Retrieve", "target": {"filter": {}}, "args": {"include": ["id", "embedding"]}})
    assert not result.success and rules(result) == ["field.enum"]
    assert result.diagnostics[0].path == "/args/include/1"


def test_search_ranks_and_explains(coffee):
    result = coffee.retrieve("coffee", include=["id", "score", "explain"])
    rows = result.data["rows"]
    assert [r["id"] for r in rows] == ["2", "4", "1"]  # the tea note does not match
    scores = [r["score"] for r in rows]
    assert all(s is not None and s > 0 for s in scores) and scores == sorted(scores, reverse=True)
    assert all(set(r["explain"]) >= {"bm25", "weight"} for r in rows)
    assert rows[0]["explain"]["weight"] == 0.9


@pytest.mark.parametrize(
    ("order_by", "expected"),
    [("weight_desc", ["2", "4", "1"]), ("time_asc", ["1", "2", "4"]), ("time_desc", ["4", "2", "1"])],
)
def test_search_order_by(coffee, order_by, expected):
    assert _ids(coffee.retrieve("coffee", order_by=order_by)) == expected


def test_a_filter_read_is_newest_first(coffee):
    assert _ids(coffee.retrieve(filter={})) == ["4", "3", "2", "1"]


def test_k_caps_the_search(coffee):
    assert _ids(coffee.retrieve("coffee", k=2)) == ["2", "4"]
    capped = coffee.execute(
        {
            "op": "Retrieve",
            "target": {"search": {"intent": {"query": "coffee"}, "overrides": {"k": 5}, "limit": 1}},
        }
    )
    assert _ids(capped) == ["2"]


def test_search_defaults_to_the_top_ten(m):
    for i in range(12):
        m.encode(f"receipt number {i}")
    assert len(_ids(m.retrieve("receipt"))) == 10
    assert len(_ids(m.retrieve("receipt", k=12))) == 12


def test_search_limit_without_k_returns_up_to_the_limit(m):
    for i in range(12):
        m.encode(f"receipt number {i}")
    ir = {"op": "Retrieve", "target": {"search": {"intent": {"query": "receipt"}, "limit": 50}}}
    assert len(_ids(m.execute(ir))) == 12


def test_search_is_narrowed_by_a_filter(coffee):
    assert _ids(coffee.retrieve("coffee", filter={"has_tags": ["gear"]})) == ["2"]
    assert _ids(coffee.retrieve("coffee", filter={"weight_lte": 0.6})) == ["4", "1"]
    assert _ids(coffee.retrieve("coffee", filter={"location": "Oslo"})) == ["4"]


@pytest.mark.parametrize(
    ("filter_", "expected"),
    [
        ({"has_tags": ["COFFEE"]}, ["4", "2", "1"]),  # tags match case-insensitively
        ({"has_tags": ["coffee", "gear"]}, ["2"]),
        ({"not_tags": ["coffee"]}, ["3"]),
        ({"type": "event"}, ["3"]),
        ({"location": "Oslo"}, ["4"]),
        ({"weight_gte": 0.5, "weight_lte": 0.6}, ["4", "3"]),
        ({"time_range": {"start": "2026-01-15T00:00:00Z", "end": "2026-03-01T12:00:00Z"}}, ["3", "2"]),
        ({"time_range": {"relative": "last", "amount": 7, "unit": "days"}}, ["4", "3"]),
        ({"limit": 2}, ["4", "3"]),
    ],
)
def test_filters(coffee, filter_, expected):
    assert _ids(coffee.retrieve(filter=filter_)) == expected


def test_free_facet_filter(m):
    m.encode("a", facets={"project": "apollo"})
    m.encode("b", facets={"project": "gemini"})
    assert _ids(m.retrieve(filter={"facets": {"project": "gemini"}})) == ["2"]


def test_filter_reads_default_to_a_cap(m):
    for i in range(105):
        m.encode(f"note {i}")
    assert m.retrieve(filter={}).data["count"] == 100
    assert m.retrieve(filter={"limit": 105}).data["count"] == 105


def test_only_active_records_by_default_and_status_filters(m, clock, visible):
    for text in ("live", "archived", "deleted", "expired"):
        m.encode(text)
    m.demote("2", archive=True)
    m.delete("3")
    m.expire("4", ttl="PT1M", on_expire="none")
    clock.advance(timedelta(minutes=1))
    assert visible(m) == ["1"]
    assert visible(m, filter={"status": "archived"}) == ["2"]
    assert visible(m, filter={"status": "deleted"}) == ["3"]
    assert visible(m, filter={"status": "any"}) == ["4", "3", "2", "1"]


def test_retrieve_by_ids_reports_hidden_and_missing_records(m, warned):
    m.encode("one")
    m.encode("two")
    m.delete("2")
    result = m.retrieve(ids=["1", "2", "3"])
    assert _ids(result) == ["1"]
    assert sorted(warned(result)) == ["target.hidden", "target.not_found"]


def test_ids_naming_the_same_record_return_it_once(m):
    m.encode("one")
    assert _ids(m.retrieve(ids=["1", "001"])) == ["1"]
    assert m.summarize(ids=["1", "01"]).data["source_ids"] == ["1"]


def test_reads_are_scoped_to_the_tenant(memory, warned):
    a = memory(tenant="a")
    b = memory(tenant="b", share=a)
    a.encode("alpha secret", tags=["x"])
    b.encode("beta note", tags=["x"])
    assert _ids(a.retrieve(filter={"status": "any"})) == ["1"]
    assert _ids(b.retrieve(filter={"status": "any"})) == ["2"]
    assert _ids(b.retrieve("secret")) == []
    hidden = b.retrieve(ids="1")
    assert _ids(hidden) == [] and warned(hidden) == ["target.not_found"]
    assert _ids(b.execute({"op": "Retrieve", "target": {"all": True}, "meta": {"confirmation": True}})) == [
        "2"
    ]


def test_retrieve_all_needs_confirmation(coffee, rules):
    refused = coffee.execute({"op": "Retrieve", "target": {"all": True}})
    assert not refused.success and rules(refused) == ["confirm.all_read"]
    ok = coffee.execute({"op": "Retrieve", "target": {"all": True}, "meta": {"confirmation": True}})
    assert _ids(ok) == ["4", "3", "2", "1"]


def test_a_read_counts_as_a_visit(m, db, clock, t0):
    m.encode("apple")
    m.encode("banana")
    clock.advance(timedelta(hours=1))
    m.retrieve("apple")
    m.retrieve("apple")
    a, b = db.record(m, "1"), db.record(m, "2")
    assert (a.visits, a.last_access_at) == (2, t0 + timedelta(hours=1))
    assert (b.visits, b.last_access_at) == (0, None)
    assert a.updated_at == t0  # bookkeeping, not a change
    assert [e["change"] for e in m.history("1")] == ["insert"]


def test_a_dry_run_read_counts_no_visit(m, db):
    m.encode("apple")
    assert m.execute({"op": "Retrieve", "target": {"filter": {}}}, dry_run=True).success
    assert db.record(m, "1").visits == 0


def test_read_permissions_are_applied(memory):
    alice = memory()
    bob = memory(actor="bob", share=alice)
    alice.encode("not for bob", read_blacklist=["bob"])
    alice.encode("only for carol", read_whitelist=["carol"])
    alice.encode("for everyone")
    assert _ids(bob.retrieve(filter={})) == ["3"]
    assert _ids(alice.retrieve(filter={})) == ["3", "2", "1"]  # the owner reads her own records


# --- Retrieve as_of -------------------------------------------------------------------------------


@pytest.fixture
def timeline(m, clock, t0):
    """t0: 1 encoded; +1h: 2 encoded; +2h: 1 labelled; +3h: 2 deleted; +4h: 1's text updated."""
    m.encode("apple pie recipe", tags=["food"])
    clock.advance(timedelta(hours=1))
    m.encode("banana bread")
    clock.advance(timedelta(hours=1))
    m.label("1", ["dessert"])
    clock.advance(timedelta(hours=1))
    m.delete("2")
    clock.advance(timedelta(hours=1))
    m.update("1", text="cherry tart recipe")
    clock.advance(timedelta(hours=1))
    return m


def _at(t0, hours):
    return (t0 + timedelta(hours=hours)).isoformat()


@pytest.mark.parametrize(
    ("hours", "expected"),
    [
        (-1, []),
        (0, [("1", ["food"])]),
        (0.5, [("1", ["food"])]),
        (1, [("2", []), ("1", ["food"])]),
        (2, [("2", []), ("1", ["food", "dessert"])]),
        (3, [("1", ["food", "dessert"])]),
    ],
)
def test_as_of_returns_what_a_read_returned_then(timeline, t0, hours, expected):
    result = timeline.retrieve(filter={}, as_of=_at(t0, hours), include=["id", "tags"])
    assert result.success and result.data["as_of"] == t0 + timedelta(hours=hours)
    assert [(r["id"], r["tags"]) for r in result.data["rows"]] == expected


def test_as_of_search_sees_the_text_of_then(timeline, t0):
    assert _ids(timeline.retrieve("apple", as_of=_at(t0, 3))) == ["1"]
    assert _ids(timeline.retrieve("cherry", as_of=_at(t0, 3))) == []
    assert _ids(timeline.retrieve("cherry", as_of=_at(t0, 4))) == ["1"]
    assert _ids(timeline.retrieve("apple")) == []


def test_as_of_by_ids_and_status(timeline, t0):
    assert _ids(timeline.retrieve(ids="2", as_of=_at(t0, 2))) == ["2"]
    assert _ids(timeline.retrieve(ids="2", as_of=_at(t0, 3))) == []
    then = timeline.retrieve(filter={"status": "deleted"}, as_of=_at(t0, 3), include=["id", "status"])
    assert then.data["rows"] == [{"id": "2", "status": "deleted"}]


def test_as_of_applies_expiry_as_it_was_then(m, clock, t0):
    m.encode("flash sale")
    m.expire("1", ttl="PT2H", on_expire="none")
    clock.advance(timedelta(hours=5))
    assert _ids(m.retrieve(filter={}, as_of=_at(t0, 1))) == ["1"]
    assert _ids(m.retrieve(filter={}, as_of=_at(t0, 2))) == []


def test_as_of_after_a_hard_delete_does_not_return_the_record(m, clock, t0):
    m.encode("temporary")
    clock.advance(timedelta(hours=1))
    m.delete("1", hard=True, confirm=True)
    assert _ids(m.retrieve(filter={}, as_of=_at(t0, 1))) == []


def test_as_of_counts_no_visit_and_leaves_the_present_alone(timeline, db, t0):
    timeline.retrieve(filter={"status": "any"}, as_of=_at(t0, 2))
    assert db.record(timeline, "1").visits == 0
    assert db.record(timeline, "1").text == "cherry tart recipe"
    assert db.record(timeline, "2").status == "deleted"


def test_as_of_is_scoped_to_the_tenant(memory, clock, t0):
    a = memory(tenant="a")
    b = memory(tenant="b", share=a)
    a.encode("alpha")
    clock.advance(timedelta(hours=1))
    assert _ids(b.retrieve(filter={"status": "any"}, as_of=_at(t0, 0))) == []


# --- Summarize ------------------------------------------------------------------------------------

NOTES = [
    ("The project deadline is Friday. The budget is 10k dollars. The team has five engineers.", ["proj"]),
    ("The client prefers weekly calls. The budget may grow next quarter.", ["client", "Proj"]),
]


@pytest.fixture
def notes(m, clock):
    for text, tags in NOTES:
        m.encode(text, tags=tags)
        clock.advance(timedelta(minutes=1))
    return m


def test_summarize_stores_a_linked_summary_record(notes, db, t0):
    result = notes.summarize(ids=["1", "2"], focus="budget", max_tokens=12)
    assert result.success and result.op == "Summarize"
    assert result.affected_ids == ["3"] and result.id == "3"
    summary = result.data["summary"]
    assert result.data["source_ids"] == ["1", "2"] and result.data["tokens"] == estimate_tokens(summary)
    assert 0 < estimate_tokens(summary) <= 12
    assert "budget" in summary.lower()
    r = db.record(notes, "3")
    assert r.kind == "summary" and r.text == summary and r.status == "active"
    assert r.facets == {"focus": "budget"} and r.owner == "alice"
    assert r.created_at == t0 + timedelta(minutes=2)
    assert db.links(notes) == {("3", "1", "summarizes"), ("3", "2", "summarizes")}
    assert [(e["op"], e["change"]) for e in notes.history("3")] == [
        ("Summarize", "insert"),
        ("Summarize", "link"),
        ("Summarize", "link"),
    ]


def test_summary_sentences_stay_within_the_budget_for_every_budget(notes):
    for budget in (8, 16, 32, 1000):
        summary = notes.summarize(ids=["1", "2"], max_tokens=budget).data["summary"]
        assert 0 < estimate_tokens(summary) <= budget
    everything = notes.summarize(ids=["1", "2"], max_tokens=1000).data["summary"]
    assert all(sentence in everything for sentence in ("deadline is Friday", "weekly calls"))


def test_focus_steers_the_summary(notes):
    on_calls = notes.summarize(ids=["1", "2"], focus="weekly calls with the client", max_tokens=10)
    assert "weekly calls" in on_calls.data["summary"]


def test_summarize_through_search_and_filter(notes, db):
    result = notes.summarize("deadline")
    assert result.data["source_ids"] == ["1"]
    assert db.links(notes, "3") == {("3", "1", "summarizes")}
    by_tag = notes.summarize(filter={"has_tags": ["client"]})
    assert by_tag.data["source_ids"] == ["2"]


def test_summarize_skips_hidden_sources(notes):
    notes.delete("2")
    assert notes.summarize(filter={}).data["source_ids"] == ["1"]


def test_summarize_of_nothing_stores_nothing(m, db, warned):
    result = m.summarize(filter={"has_tags": ["absent"]})
    assert result.success and result.affected_ids == [] and result.data == {"summary": "", "source_ids": []}
    assert warned(result) == ["target.empty"]
    assert db.ids(m) == []


def test_summarize_all_needs_confirmation(notes, db, rules):
    refused = notes.execute({"op": "Summarize", "target": {"all": True}})
    assert not refused.success and rules(refused) == ["confirm.all_read"]
    assert db.ids(notes) == ["1", "2"]
    ok = notes.execute({"op": "Summarize", "target": {"all": True}, "meta": {"confirmation": True}})
    assert ok.success and ok.data["source_ids"] == ["1", "2"]


def test_summarize_dry_run_stores_nothing(notes, db):
    result = notes.execute({"op": "Summarize", "target": {"ids": ["1", "2"]}, "meta": {"dry_run": True}})
    assert result.success and result.dry_run and result.data["summary"]
    assert [c.kind for c in result.preview] == ["insert", "link", "link"]
    assert db.ids(notes) == ["1", "2"] and db.links(notes) == set()


class _SummaryLLM:
    def __init__(self) -> None:
        self.usage = LLMUsage()
        self.requests = []

    def chat(self, request):
        self.usage.calls += 1
        self.requests.append(request)
        return "Budget: 10k now, may grow."


def test_summarize_with_an_llm(memory, db):
    llm = _SummaryLLM()
    m = memory(llm=llm)
    for text, tags in NOTES:
        m.encode(text, tags=tags)
    result = m.summarize(ids=["1", "2"], focus="budget", max_tokens=20)
    assert result.data["summary"] == "Budget: 10k now, may grow." and result.stats.llm_calls == 1
    assert db.record(m, "3").text == "Budget: 10k now, may grow."
    (request,) = llm.requests
    assert request.max_tokens == 20 and "budget" in request.messages[0].content.lower()


def test_a_sessions_clearance_hides_more_protected_records_from_reads_and_writes(memory):
    owner = memory()
    for level in ("standard", "sensitive", "restricted"):
        owner.encode(f"{level} note about the trip", sensitivity=level)
    agent = memory(share=owner, actor="agent", clearance="standard")
    helper = memory(share=owner, actor="helper", clearance="sensitive")
    assert _ids(owner.retrieve(filter={})) == ["3", "2", "1"]
    assert _ids(helper.retrieve(filter={})) == ["2", "1"]
    assert _ids(agent.retrieve(filter={})) == ["1"]
    assert _ids(agent.retrieve("trip note")) == ["1"]
    # by id: as if the record did not exist — not returned, not changed, and no hint that it is there
    hidden = agent.retrieve(ids=["3"])
    assert _ids(hidden) == [] and [w.rule for w in hidden.warnings] == ["target.not_found"]
    assert agent.update("3", text="overwritten").affected_ids == []
    labelled = agent.execute({"op": "Label", "target": {"filter": {"limit": 10}}, "args": {"tags": ["seen"]}})
    assert labelled.success and labelled.affected_ids == ["1"]
    assert owner.retrieve(ids=["3"]).data["rows"][0]["text"] == "restricted note about the trip"


def test_an_unknown_clearance_is_refused_when_the_session_opens(memory):
    with pytest.raises(ValueError, match="clearance must be one of standard, sensitive, restricted"):
        memory(clearance="secret")
