"""Encode `interpret` and Label `infer` (issue 17, item 3; docs/language.md, Interpretation), offline with
the rule extractor, on every backend: what a record's text says fills what the caller left out, each
derived item with the evidence span of its words; nothing the caller gave is replaced; Label infer adds
lower-case tags and goes through Label's governance and audit."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from typing import cast

import pytest

from memql import Memory
from memql.ports.store import PortableSession
from memql.services.extract import RuleExtractor

TEXT = "I need to renew my passport by next Friday. My passport deadline is July 15. Lena works at Google."


def spans(value):
    """Every evidence span inside a facet value (a dict holding start, end and quote)."""
    if isinstance(value, dict):
        if {"start", "end", "quote"} <= set(value) and isinstance(value["start"], int):
            yield value
        for item in value.values():
            yield from spans(item)
    elif isinstance(value, list):
        for item in value:
            yield from spans(item)


def assert_quotes(record):
    found = list(spans(record.facets))
    assert found, "an interpreted record cites its words"
    for ev in found:
        assert record.text[ev["start"] : ev["end"]] == ev["quote"]


def test_interpret_fills_facets_time_and_type_each_with_its_words(m, db, t0):
    result = m.encode(TEXT, interpret=True)
    assert result.success, result.diagnostics
    r = db.record(m, result.data["id"])
    assert r.text == TEXT  # stored as given
    assert_quotes(r)
    # said on Wednesday 2026-03-04 (the record's time is now): next Friday is 2026-03-13
    assert r.facets["tasks"] == [
        {
            "text": "renew my passport by next Friday",
            "owner": "alice",
            "due": "2026-03-13T00:00:00Z",
            "evidence": {"start": 0, "end": 42, "quote": "I need to renew my passport by next Friday"},
        }
    ]
    assert [(t["start"], t["evidence"]["quote"]) for t in r.facets["times"]] == [
        ("2026-03-13T00:00:00Z", "next Friday"),
        ("2026-07-15T00:00:00Z", "July 15"),
    ]
    assert {"text": "Lena", "kind": "person", "evidence": {"start": 77, "end": 81, "quote": "Lena"}} in (
        r.facets["entities"]
    )
    assert r.time == datetime(2026, 3, 13, tzinfo=UTC)  # the first time the text names
    assert r.memory_type == "semantic" and r.category is not None
    interpreted = r.facets["interpreted"]
    assert interpreted["by"] == "rules"
    assert interpreted["time"] == [{"start": 31, "end": 42, "quote": "next Friday"}]
    assert {"start": 44, "end": 75, "quote": "My passport deadline is July 15"} in interpreted["memory_type"]
    assert r.structured is None and r.attribute is None  # typed facts are formation's, not interpret's
    assert db.ids(m) == [result.data["id"]]


def test_without_interpret_the_text_is_only_stored(m, db):
    for flag in (None, False):
        extra = {} if flag is None else {"interpret": flag}
        r = db.record(m, m.encode(TEXT, dedupe=False, **extra).data["id"])
        assert r.facets == {} and r.time is None and r.memory_type is None and r.category is None


def test_nothing_the_caller_gave_is_replaced(m, db):
    given_times = [{"start": "2026-01-01T00:00:00Z", "label": "mine"}]
    result = m.encode(
        TEXT,
        interpret=True,
        time="2026-02-01T09:00:00Z",
        memory_type="episodic",
        category="a2p:professional",
        facets={"times": given_times, "topic": "travel"},
    )
    r = db.record(m, result.data["id"])
    assert r.time == datetime(2026, 2, 1, 9, tzinfo=UTC)
    assert r.memory_type == "episodic" and r.category == "a2p:professional"
    assert r.facets["times"] == given_times and r.facets["topic"] == "travel"
    assert "tasks" in r.facets and "entities" in r.facets  # what was not given is still filled
    assert "interpreted" not in r.facets  # no record field was derived
    # the record's time is what relative words resolve against: "next Friday" from Sunday 2026-02-01
    assert r.facets["tasks"][0]["due"] == "2026-02-06T00:00:00Z"


def test_a_health_fact_makes_the_record_restricted_and_a_given_sensitivity_is_never_lowered(m, db, warned):
    r = db.record(m, m.encode("I'm allergic to peanuts.", interpret=True).data["id"])
    assert (r.category, r.sensitivity, r.memory_type) == ("a2p:health", "restricted", "semantic")
    assert r.facets["interpreted"]["sensitivity"] == [
        {"start": 0, "end": 23, "quote": "I'm allergic to peanuts"}
    ]
    kept = m.encode("My blood type is A.", interpret=True, sensitivity="restricted", category="a2p:context")
    assert db.record(m, kept.data["id"]).sensitivity == "restricted"
    # a given sensitivity stays; the interpreted category's floor raises it, with the usual warning
    raised = m.encode("My blood type is A.", interpret=True, sensitivity="standard", dedupe=False)
    r = db.record(m, raised.data["id"])
    assert (r.category, r.sensitivity) == ("a2p:health", "restricted")
    assert "category.sensitivity" in warned(raised)


def test_a_text_with_nothing_to_read_derives_nothing(m, db):
    r = db.record(m, m.encode("Hello there, nice weather.", interpret=True).data["id"])
    assert r.facets == {} and r.memory_type is None and r.time is None and r.category is None


def test_chinese_text_is_interpreted_against_the_records_time(m, db):
    result = m.encode("明天下午三点和王芳开会。", interpret=True, time="2026-03-01T02:00:00Z")
    r = db.record(m, result.data["id"])
    assert r.time == datetime(2026, 3, 1, 2, tzinfo=UTC)  # given: kept
    (when,) = r.facets["times"]
    assert when["start"] == "2026-03-02T15:00:00Z" and when["evidence"]["quote"] == "明天下午三点"
    assert_quotes(r)


def test_an_identical_interpreted_encode_is_the_same_memory(m):
    first = m.encode(TEXT, interpret=True)
    again = m.encode(TEXT, interpret=True)
    assert again.data == {"id": first.data["id"], "deduplicated": True}


def test_the_audit_log_holds_the_canonical_ir_with_the_args(m, db):
    m.encode(TEXT, interpret=True)
    m.label("1", infer=True)
    encode, label = db.operations(m)
    assert encode["ir"]["args"]["interpret"] is True and encode["ir"]["args"]["payload"] == {"text": TEXT}
    assert label["ir"] == {
        "stage": "STO",
        "op": "Label",
        "target": {"ids": ["1"]},
        "args": {"mode": "add", "infer": True},
    }
    assert m.history("1")[-1]["op"] == "Label"


def test_an_agent_proposal_is_interpreted_too(memory, db):
    alice = memory()
    agent = memory(actor="bot", role="agent", consent="propose", share=alice)
    result = agent.encode("We decided to ship on Friday.", interpret=True)
    assert result.success and result.data["proposal"] is True
    r = db.record(alice, result.data["id"])
    assert r.status == "pending" and r.owner is None
    (decision,) = r.facets["decisions"]
    assert decision["due"] == "2026-03-06T00:00:00Z" and decision["owner"] == "bot"


# --- Label infer -------------------------------------------------------------------------------------


def test_label_infer_adds_lower_case_tags_with_their_words(m, db):
    m.encode("Lena works at Google. I'm allergic to peanuts. My blood type is A.", tags=["Lena"])
    result = m.label("1", infer=True)
    assert result.success and result.data == {"labelled": 1}
    r = db.record(m, "1")
    # Lena is there already (case-insensitively); the organisation, the facts' keys, the main category
    assert r.tags == ["Lena", "google", "employer", "allergy.peanuts", "blood_type", "health"]
    assert r.facets["inferred_tags"]["google"] == {"start": 14, "end": 20, "quote": "Google"}
    assert r.facets["inferred_tags"]["health"]["quote"] == "I'm allergic to peanuts"
    assert_quotes(r)
    again = m.label("1", ["extra"], infer=True)
    assert again.success and db.record(m, "1").tags == [*r.tags, "extra"]


def test_label_infer_with_replace_keeps_the_given_tags_and_the_inferred(m, db):
    m.encode("Lena works at Google.", tags=["old"])
    assert m.label("1", ["new"], mode="replace", infer=True).success
    assert db.record(m, "1").tags == ["new", "lena", "google", "employer", "professional"]


def test_label_infer_on_a_record_without_words_to_read_changes_nothing(m, db):
    m.encode(url="https://example.com/a")
    m.encode("Hello there, nice weather.")
    assert m.label(["1", "2"], infer=True).success
    assert db.record(m, "1").tags == [] and db.record(m, "2").tags == []
    assert "inferred_tags" not in db.record(m, "2").facets


def test_a_locked_record_refuses_label_infer(m, db, rules):
    m.encode("Lena works at Google.")
    m.lock("1", mode="read_only", reason="legal hold")
    refused = m.label("1", infer=True)
    assert rules(refused) == ["governance.locked"] and db.record(m, "1").tags == []
    m.encode("Bo works at Apple.")
    m.lock("2", mode="append_only")  # inferring only adds: an append-only lock lets it through
    assert m.label("2", infer=True).success and "apple" in db.record(m, "2").tags


def test_a_session_without_write_permission_cannot_label_infer(memory, db, rules):
    alice = memory()
    alice.encode("Lena works at Google.", write_perm_level="owner_only")
    assert rules(memory(actor="bob", share=alice).label("1", infer=True)) == ["permission.write"]
    reader = memory(actor="bot", role="agent", consent="read", share=alice)
    assert rules(reader.label("1", infer=True)) == ["consent.write"]
    alice.encode("Private plan with Lena.", read_perm_level="private")
    hidden = memory(actor="bob", share=alice).label("2", infer=True)
    assert hidden.affected_ids == [] and db.record(alice, "2").tags == []
    alice.encode("Lena is allergic to penicillin.", sensitivity="restricted", write_perm_level="open")
    writer = memory(actor="bot", role="agent", consent="read_write", share=alice)  # clearance: standard
    assert writer.label("3", infer=True).affected_ids == [] and db.record(alice, "3").tags == []
    other_tenant = memory(tenant="other", actor="alice", share=alice)
    assert other_tenant.label(["1", "3"], infer=True).affected_ids == []
    assert db.record(alice, "1").tags == [] and db.record(alice, "3").tags == []


class CountingExtractor(RuleExtractor):
    """The rule extractor, counting the texts it reads."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def extract(self, message):
        self.texts.append(message.text)
        return super().extract(message)


def test_the_extractor_is_the_sessions_and_reads_each_record_once_and_no_refused_one(memory, db, rules):
    counting = CountingExtractor()
    m = memory(extractor=counting)
    m.encode("Lena works at Google.", interpret=True)
    m.encode("Bo works at Apple.")
    m.encode("Kai works at Intel.")
    m.lock("3", mode="read_only")
    assert counting.texts == ["Lena works at Google."]
    assert m.label(["1", "2"], infer=True).success
    assert counting.texts == ["Lena works at Google.", "Lena works at Google.", "Bo works at Apple."]
    assert rules(m.label("3", infer=True)) == ["governance.locked"]
    assert len(counting.texts) == 3  # refused before anything was read
    assert "intel" not in db.record(m, "3").tags


@pytest.mark.parametrize(("choice", "error"), [("llm-ish", ValueError), (3, TypeError)])
def test_an_unknown_extractor_is_refused_before_a_store_is_opened(tmp_path, choice, error):
    with pytest.raises(error, match="extractor"):
        Memory(str(tmp_path / "m.db"), extractor=choice)
    assert not (tmp_path / "m.db").exists()


def test_a_text_beyond_the_extractors_limit_is_read_in_part(m, db, warned):
    text = "Lena works at Google. " + "x" * 100_000 + " Bo works at Apple."
    result = m.encode(text, interpret=True)
    assert result.success and warned(result) == ["interpret.truncated"]
    assert result.warnings[0].path == "/args/interpret"
    r = db.record(m, result.data["id"])
    assert r.text == text and [e["text"] for e in r.facets["entities"]] == ["Lena", "Google"]
    assert_quotes(r)


def test_the_llm_extractor_without_an_llm_warns_and_stores_the_text(memory, db, monkeypatch, warned):
    monkeypatch.delenv("MEMQL_LLM_BASE_URL", raising=False)
    m = memory(extractor="llm")
    result = m.encode("Lena works at Google.", interpret=True)
    assert result.success and warned(result) == ["extract.no_llm"]
    assert db.record(m, result.data["id"]).facets == {}
    labelled = m.label(result.data["id"], infer=True)
    assert labelled.success and warned(labelled) == ["extract.no_llm"]
    assert labelled.warnings[0].path == "/args/infer"
    assert db.record(m, result.data["id"]).tags == []


def test_an_encode_refused_by_governance_reads_nothing(memory, db, rules):
    alice = memory()
    counting = CountingExtractor()
    agent = memory(actor="bot", role="agent", consent="read", extractor=counting, share=alice)
    # below read_write an agent proposes, and who may read a proposal is for its approver to say
    refused = agent.encode("Lena works at Google.", interpret=True, read_perm_level="public")
    assert rules(refused) == ["permission.owner"]
    missing = agent.encode("Lena works at Google.", interpret=True, derived_from={"ids": ["9"]})
    assert rules(missing) == ["target.not_found"]
    assert counting.texts == [] and db.ids(alice) == []


def _raw_log(m) -> str:
    """Every operation's IR and every event's before and after of m's tenant, as stored, as one text."""
    rows = []
    with m.store.dry_run() as store_session:
        session = cast(PortableSession, store_session)
        after = 0
        while page := session.export_log(after, 500):
            rows += [
                [op.ir, [[e.before, e.after] for e in events]] for op, events in page if op.tenant == m.tenant
            ]
            after = page[-1][0].seq
    return json.dumps(rows, ensure_ascii=False, default=str)


def test_a_hard_delete_removes_the_interpreted_words_from_the_log(m):
    secret = "Ottoline Vance works at Quillfeather."
    rid = m.encode(secret, interpret=True).data["id"]
    assert m.label(rid, infer=True).success
    assert "Quillfeather" in _raw_log(m) and "quillfeather" in _raw_log(m)  # facets, tags and spans
    deleted = m.execute(
        {"op": "Delete", "target": {"ids": [rid]}, "args": {"soft": False}, "meta": {"confirmation": True}}
    )
    assert deleted.success, deleted.diagnostics
    log = _raw_log(m).casefold()
    for word in ("ottoline", "vance", "quillfeather"):
        assert word not in log


# a process that never interprets never imports the grammars (0.76 s of its cold start); the first
# interpretation loads them and reads as the rules do
_DEFERRED = """
import sys
from memql import Memory

m = Memory(sys.argv[1], embedder=None)
m.encode("Lena works at Google.")
assert m.retrieve("Lena").success
assert "memql.services.extract.rules" not in sys.modules, "the grammars were imported without a reading"
record = m.encode("My passport deadline is July 15.", interpret=True)
assert "memql.services.extract.rules" in sys.modules
print(record.success, m.executor.extractor.name, flush=True)
m.close()
"""


def test_an_engine_imports_the_rules_grammars_only_when_it_first_interprets(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", _DEFERRED, str(tmp_path / "m.db")], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout.split()) == (0, ["True", "rules"]), done.stderr


def test_an_extractor_is_anything_with_a_name_and_extract_and_nothing_else_is():
    """The engine checks the protocol's members (not a runtime protocol check, ~20 µs per Memory opened)."""

    class Quiet:
        name = "quiet"

        def __init__(self) -> None:
            self.inner = RuleExtractor()

        def extract(self, message):  # a wrapper a user might write
            return self.inner.extract(message)

    mine = Quiet()
    assert Memory(":memory:", embedder=None, extractor=mine).executor.extractor is mine
    for wrong in (object(), 42, Quiet.extract):
        with pytest.raises(TypeError, match="extractor is 'rules', 'llm' or an Extractor"):
            Memory(":memory:", embedder=None, extractor=wrong)
