"""Memory.lineage: a record's links, both ways, governed like its history."""

from __future__ import annotations


def test_lineage_lists_links_both_ways_oldest_first(m):
    m.encode("Alpha one.")
    m.encode("Beta two. Gamma three.")
    m.merge(["1", "2"], primary="1")
    m.split("1")
    links = [(x["src"], x["dst"], x["relation"]) for x in m.lineage("1")]
    assert links == [
        ("2", "1", "merged_into"),
        ("3", "1", "split_from"),
        ("4", "1", "split_from"),
        ("5", "1", "split_from"),
    ]
    assert [(x["src"], x["dst"], x["relation"]) for x in m.lineage("002")] == [("2", "1", "merged_into")]
    assert all(x["created_at"] is not None for x in m.lineage("1"))


def test_lineage_hides_what_the_session_may_not_read(memory):
    mira = memory(actor="mira")
    agent = memory(actor="helper", role="agent", consent="read_write", share=mira)
    olga = memory(tenant="other", actor="olga", share=mira)
    mira.encode("Checkup notes", sensitivity="sensitive")
    mira.encode("Team lunch on Friday")
    mira.summarize(ids=["1", "2"])  # 3 summarizes 1 and 2; as sensitive as its strictest source
    mira.encode("Standup at 9:30")
    mira.summarize(ids=["2", "4"])  # 5: standard, readable by the agent
    assert {(x["src"], x["dst"]) for x in mira.lineage("2")} == {("3", "2"), ("5", "2")}
    assert [(x["src"], x["dst"]) for x in agent.lineage("2")] == [("5", "2")]  # 3 is beyond its clearance
    assert agent.lineage("1") == [] and agent.lineage("3") == []
    assert olga.lineage("2") == []


def test_lineage_of_a_record_without_links_is_empty(m):
    m.encode("Alone")
    assert m.lineage("1") == [] and m.lineage("99") == []
