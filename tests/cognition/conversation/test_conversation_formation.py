"""Formation in a conversation (issue 17, items 2 and 4; docs/conversation.md, Formation): with an extractor,
each message's typed facts are written in the message's own workflow, cited and linked to it; the
engine's supersession closes the previous value of the same subject and attribute only; the context
leads with the values current at the asked instant, and a superseded value appears only on a line
labelled as history ("until <date>:"). The SGAM passport example, from plain messages, on both backends."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from click.testing import CliRunner
from conversation_helpers import current

from memql import Memory
from memql.cognition.conversation.records import ConversationError
from memql.interfaces.cli import main
from memql.lang import build
from memql.services.extract import RuleExtractor

TAG = "conv:mira/assistant"
FIRST = "My passport renewal deadline is July 15."
CORRECTION = "Scratch what I said about the deadline: it's June 30."


def _passport(m, **options):
    conv = m.conversation(user="mira", agent="assistant", extractor="rules", **options)
    leo = conv.add_message("user", "My son Leo's passport deadline is August 1.", time="2026-03-01T09:00:00Z")
    first = conv.add_message("user", FIRST, time="2026-03-02T09:00:00Z")
    conv.add_message("assistant", "Noted: passport renewal by July 15.", time="2026-03-02T09:00:05Z")
    fix = conv.add_message("user", CORRECTION, time="2026-03-20T09:00:00Z")
    return conv, leo, first, fix


def _rows(m, level: str) -> list[dict]:
    result = m.retrieve(
        filter={"has_tags": [TAG], "facets": {"level": level}, "status": "any", "limit": 100},
        include=["id", "text", "facets", "owner", "read_whitelist"],
    )
    assert result.success, result.diagnostics
    return result.data["rows"]


def test_a_correction_in_plain_words_leads_the_context_and_the_old_value_is_only_history(memory):
    m = memory(actor="mira", embedder="none")
    conv, _, first, fix = _passport(m)
    context = conv.context("When is my passport due?", budget_tokens=300)
    assert context.pieces[0].level == "fact" and "June 30" in context.pieces[0].text
    assert context.pieces[0].source_ids == ("M4",) and context.pieces[0].memory_ids == fix.fact_ids
    assert "June 30" in context.text
    assert "July 15" in context.text  # the history and the messages that said it are kept, labelled
    assert "July 15" not in current(context.text) and "2026-07-15" not in current(context.text)
    assert "until 2026-03-20: [M2] mira's passport deadline was Wednesday, July 15, 2026" in context.text
    assert context.pieces[1].level == "fact_history" and context.pieces[1].memory_ids == first.fact_ids
    assert context.tokens <= 300


def test_as_of_a_day_between_gives_the_value_true_then(memory):
    m = memory(actor="mira", embedder="none")
    conv, *_ = _passport(m)
    then = conv.context("When is my passport due?", budget_tokens=300, as_of="2026-03-10")
    assert "July 15" in current(then.text)
    assert "June 30" not in then.text  # said on March 20: not yet, on March 10
    assert then.pieces[0].source_ids == ("M2",)
    at = conv.context(
        "When is my passport due?",
        budget_tokens=300,
        as_of=datetime.fromisoformat("2026-04-01T00:00:00+00:00"),
    )
    assert "June 30" in current(at.text) and "July 15" not in current(at.text)
    with pytest.raises(ConversationError) as caught:
        conv.context("When is my passport due?", as_of="next blursday")
    assert [(d.path, d.rule) for d in caught.value.diagnostics] == [("/as_of", "time.invalid")]


def test_facts_list_both_windows_with_the_message_each_came_from(memory):
    m = memory(actor="mira", embedder="none")
    _, _, first, fix = _passport(m)
    history = m.facts.history("mira", "passport.deadline")
    assert history.success, history.diagnostics
    windows = [
        (f.value, f.valid_from.date().isoformat(), f.valid_to, f.source, f.derived_from)
        for f in history.facts
    ]
    assert windows[0][:3] == ("2026-07-15", "2026-03-02", datetime.fromisoformat("2026-03-20T09:00:00+00:00"))
    assert windows[0][3:] == ("M2", [first.memory_id])
    assert windows[1] == ("2026-06-30", "2026-03-20", None, "M4", [fix.memory_id])
    # linked in the language's lineage, and the fact record carries the conversation's tag
    links = {(link["src"], link["dst"], link["relation"]) for link in m.lineage(fix.fact_ids[0])}
    assert (fix.fact_ids[0], fix.memory_id, "derived_from") in links
    assert (fix.fact_ids[0], first.fact_ids[0], "supersedes") in links


def test_another_subjects_similar_fact_does_not_supersede(memory):
    m = memory(actor="mira", embedder="none")
    conv, leo, *_ = _passport(m)
    son = m.facts.history("Leo", "passport.deadline").facts
    assert [(f.value, f.valid_to, f.derived_from) for f in son] == [("2026-08-01", None, [leo.memory_id])]
    context = conv.context("When is Leo's passport due?", budget_tokens=300)
    assert context.pieces[0].text.startswith("[M1] Leo's passport deadline: Saturday, August 1, 2026")


def test_the_message_carries_what_was_interpreted(memory):
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", extractor="rules")
    said = conv.add_message(
        "user", "I moved to Lisbon, and I fly to Porto next Friday.", time="2026-03-02T09:00:00Z"
    )
    [row] = [r for r in _rows(m, "message") if r["id"] == said.memory_id]
    facets = row["facets"]  # said on Monday 2026-03-02: "next Friday" is the coming Friday
    assert facets["times"] == [
        {
            "start": "2026-03-06T00:00:00Z",
            "end": "2026-03-07T00:00:00Z",
            "granularity": "day",
            "evidence": {"start": 44, "end": 55, "quote": "next Friday"},
        }
    ]
    assert any(e["text"] == "Porto" for e in facets["entities"])
    # the spans point into the stored text ("mira: ..."), as an Encode with interpret's do
    assert row["text"].startswith("mira: ")
    for item in facets["times"] + facets["entities"]:
        ev = item["evidence"]
        assert row["text"][ev["start"] : ev["end"]] == ev["quote"]
    assert m.facts.get("mira", "residence").values() == {"residence": "Lisbon"}


class CountingExtractor(RuleExtractor):
    """The rule extractor, counting the messages it reads."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def extract(self, message):
        self.texts.append(message.text)
        return super().extract(message)


def test_each_message_is_read_once_and_its_encode_does_not_interpret_again(memory, db):
    counting = CountingExtractor()
    m = memory(actor="mira", embedder="none", extractor=counting)  # the engine's extractor is this one too
    conv = m.conversation(user="mira", agent="assistant", extractor=counting)
    conv.add_message("user", "I fly to Porto next Friday.", time="2026-03-02T09:00:00Z")
    conv.add_turn(FIRST, "Noted.", time="2026-03-03T09:00:00Z")
    assert counting.texts == ["I fly to Porto next Friday.", FIRST, "Noted."]
    assert all("interpret" not in op["ir"]["args"] for op in db.operations(m) if op["op"] == "Encode")


def test_a_locked_conversation_stores_neither_the_message_nor_its_facts(memory):
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", extractor="rules")
    conv.add_message("user", FIRST, time="2026-03-02T09:00:00Z")
    held = m.execute(
        {"op": "Lock", "target": {"filter": {"has_tags": [TAG], "limit": 100}}, "args": {"mode": "read_only"}}
    )
    assert held.success, held.diagnostics
    with pytest.raises(ConversationError) as caught:
        conv.add_message("user", CORRECTION, time="2026-03-20T09:00:00Z")
    assert caught.value.diagnostics[0].rule == "governance.locked"
    assert len(_rows(m, "message")) == 1
    assert [f.value for f in m.facts.history("mira", "passport.deadline").facts] == ["2026-07-15"]


def test_a_refused_fact_is_not_formed_but_what_was_said_is_stored(memory):
    """A fact the engine refuses (its current value is locked: closing it is an Update the lock forbids)
    is left out; the message is stored whole, and says which fact was not formed and why."""
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", extractor="rules")
    first = conv.add_message("user", FIRST, time="2026-03-02T09:00:00Z")
    locked = m.execute(build.lock(first.fact_ids[0], mode="read_only", reason="keep"))
    assert locked.success, locked.diagnostics
    fix = conv.add_message("user", CORRECTION, time="2026-03-20T09:00:00Z")
    assert fix.fact_ids == () and [d.rule for d in fix.unformed] == ["governance.locked"]
    assert "passport.deadline" in fix.unformed[0].message or fix.unformed[0].path.endswith("structured")
    assert sorted(r["id"] for r in _rows(m, "message")) == sorted([first.memory_id, fix.memory_id])
    assert [f.value for f in m.facts.history("mira", "passport.deadline").facts] == ["2026-07-15"]
    assert fix.position == 1
    assert conv.add_message("user", "Thanks for the help.", time="2026-03-21T09:00:00Z").unformed == ()


def test_a_fact_of_another_users_key_is_not_formed_and_the_message_is_stored(memory):
    """Two users of a tenant share a third party's key; one may not close the other's private value."""
    mira = memory(actor="mira", embedder="none")
    leo = {"subject": "Leo", "attribute": "school", "value": "Oakwood"}
    assert mira.encode(structured=leo, write_perm_level="owner_only").success
    ravi = memory(actor="ravi", share=mira, embedder="none")
    conv = ravi.conversation(user="ravi", agent="assistant", extractor="rules")
    said = conv.add_message("user", "Leo's school is Riverside now.", time="2026-03-20T09:00:00Z")
    assert said.fact_ids == () and [d.rule for d in said.unformed] == ["permission.fact"]
    assert "Oakwood" not in str(said.unformed)
    assert [f.value for f in mira.facts.history("Leo", "school").facts] == ["Oakwood"]
    assert conv.context("Where does Leo go to school?", budget_tokens=200).text.count("Riverside") == 1


def test_another_user_sees_none_of_the_facts(memory):
    mira = memory(actor="mira", embedder="none")
    _passport(mira)
    ravi = memory(actor="ravi", share=mira, embedder="none")
    assert ravi.facts.history("mira", "passport.deadline").facts == []
    assert ravi.facts.get("Leo").facts == []
    facts = _rows(mira, "typed_fact")
    assert len(facts) == 4 and all(  # Leo: son of mira, his deadline; mira: two deadlines
        r["owner"] == "mira" and r["read_whitelist"] == ["assistant"] for r in facts
    )
    assert _rows(ravi, "typed_fact") == []


def test_formation_is_on_by_default_off_with_none_and_a_bad_extractor_is_a_diagnostic(memory):
    m = memory(actor="mira", embedder="none")
    default = m.conversation(user="mira", agent="assistant")  # the offline rules
    assert default.add_message("user", FIRST, time="2026-03-02T09:00:00Z").fact_ids
    assert [f.value for f in m.facts.history("mira", "passport.deadline").facts] == ["2026-07-15"]
    off = m.conversation(user="mira", agent="assistant", id="plain", extractor=None)
    said = off.add_message("user", "My visa expires on May 2.", time="2026-03-02T09:00:00Z")
    assert said.fact_ids == ()
    plain = m.retrieve(filter={"has_tags": ["conv:plain"], "limit": 100}, include=["facets"]).data["rows"]
    assert [r["facets"]["level"] for r in plain] == ["message"] and "times" not in plain[0]["facets"]
    with pytest.raises(ConversationError) as caught:
        m.conversation(user="mira", agent="assistant", extractor="regex")
    assert [(d.path, d.rule) for d in caught.value.diagnostics] == [("/extractor", "field.enum")]


def test_memql_facts_lists_both_windows_and_their_messages(new_location):
    db = new_location()
    m = Memory(db, tenant="t", actor="mira", embedder="none")
    _, _, first, fix = _passport(m)
    m.close()
    args = ["--db", db, "--tenant", "t", "--actor", "mira", "facts", "history", "mira", "passport.deadline"]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    facts = json.loads(result.output)["facts"]
    assert [(f["value"], f["valid_to"], f["source"], f["derived_from"]) for f in facts] == [
        ("2026-07-15", "2026-03-20T09:00:00Z", "M2", [first.memory_id]),
        ("2026-06-30", None, "M4", [fix.memory_id]),
    ]


def test_a_reopened_conversation_binds_a_correction_to_what_was_said_before(memory):
    """The extractor of a conversation opened again (a server handles each call with a new Conversation)
    sees the stored last turns, so a bare correction still finds the fact it corrects."""
    m = memory(actor="mira", embedder="none")
    first = m.conversation(user="mira", agent="assistant", extractor="rules")
    for i in range(25):  # more messages than the tail read on opening
        first.add_message("user", f"Small talk number {i}.", time=f"2026-03-01T09:{i:02d}:00Z")
    first.add_message("user", "My passport renewal deadline is July 15.", time="2026-03-02T09:00:00Z")
    again = m.conversation(user="mira", agent="assistant", extractor="rules")
    fix = again.add_message("user", "Correction: it's June 30.", time="2026-03-20T09:00:00Z")
    assert fix.fact_ids, "the correction formed a fact"
    values = [(f.value, f.valid_to) for f in m.facts.history("mira", "passport.deadline").facts]
    assert [v for v, _ in values] == ["2026-07-15", "2026-06-30"]
    assert values[0][1] is not None and values[1][1] is None


def test_an_echo_of_a_superseded_clock_time_is_labelled_as_history(memory):
    """A value stored as a moment is found in the words people echo it with ("2 pm", "两点")."""
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", strategy="flat")
    conv.add_message("user", "My dentist appointment is on Thursday at 2 pm.", time="2026-04-06T09:00:00Z")
    conv.add_message("assistant", "Noted, Thursday 2 pm.", time="2026-04-06T09:00:05Z")
    fix = "Correction: my dentist appointment is on Thursday at 4 pm."
    conv.add_message("user", fix, time="2026-04-06T10:00:00Z")
    text = conv.context("When is my dentist appointment?", budget_tokens=300).text
    assert "4 pm" in current(text)
    assert "2 pm" in text and "2 pm" not in current(text)  # the echo too is labelled


def test_an_old_value_no_fact_held_becomes_a_fact_of_the_message_that_said_it(memory):
    """A change the grammar has no construction for (replacements.py): the value it replaces is made a
    fact of the earlier message, cited to it and linked to its record, and closed by the new one."""
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", extractor="rules")
    old = conv.add_message("user", "The gate code for the bike shed is 7301.", time="2026-03-02T09:00:00Z")
    conv.add_message("assistant", "Got it.", time="2026-03-02T09:00:05Z")
    new = conv.add_message("user", "They changed the bike shed code to 7310.", time="2026-03-09T09:00:00Z")
    (key,) = {(r["subject"], r["attribute"]) for r in _typed(m)}
    history = m.facts.history(*key).facts
    assert [(f.value, f.source, f.derived_from) for f in history] == [
        ("7301", "M1", [old.memory_id]),
        ("7310", "M3", [new.memory_id]),
    ]
    assert history[0].valid_to == history[1].valid_from
    # a query that only finds the old message still gets the value that replaced it
    text = conv.context("gate code?", budget_tokens=120).text
    assert "7310" in current(text) and "7301" not in current(text)


def test_a_stale_value_said_in_short_or_as_a_chinese_day_is_labelled(memory):
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", extractor="rules")
    conv.add_message("user", "我开的是大众朗逸。", time="2026-03-02T09:00:00Z")
    conv.add_message("assistant", "朗逸挺皮实的。", time="2026-03-02T09:00:05Z")
    conv.add_message("user", "车换了，现在开比亚迪海豹。", time="2026-05-02T09:00:00Z")
    conv.add_message("user", "体检约在4月9号。", time="2026-03-02T10:00:00Z")
    conv.add_message("assistant", "好，4月9号。", time="2026-03-02T10:00:05Z")
    conv.add_message("user", "我看错了，体检是4月16号。", time="2026-03-03T10:00:00Z")
    text = conv.context("我开什么车？体检哪天？", budget_tokens=400).text
    now = current(text)
    assert "海豹" in now and "2026-04-16" in now
    assert "朗逸" not in now and "4月9号" not in now


def test_a_change_said_for_later_shows_the_value_until_then_and_the_next_one_from_then(memory, clock):
    """Said on Tuesday 3 March: Tom starts at Rivian next Monday (9 March). On Wednesday the context says
    Ford until the 9th and Rivian from then; as of February only Ford; after the 9th, Rivian and Ford's
    window as history."""
    m = memory(actor="mira", embedder="none")
    conv = m.conversation(user="mira", agent="assistant", extractor="rules")
    conv.add_message("user", "My brother Tom works at Ford.", time="2026-02-02T09:00:00Z")
    conv.add_message("user", "Tom got hired by Rivian, he starts next Monday.", time="2026-03-03T09:00:00Z")
    text = conv.context("Where does Tom work?", budget_tokens=300).text
    assert "until 2026-03-09: [M1] Tom's employer: Ford (since 2 Feb 2026)" in text
    assert "from 2026-03-09: [M2] Tom's employer: Rivian" in text
    assert "Ford" not in current(text)  # the message that said it is labelled too
    past = conv.context("Where does Tom work?", budget_tokens=300, as_of="2026-02-20").text
    assert "Ford" in current(past) and "Rivian" not in past
    clock.set(datetime.fromisoformat("2026-03-10T09:00:00+00:00"))
    later = conv.context("Where does Tom work?", budget_tokens=300).text
    assert "Tom's employer: Rivian (since 9 Mar 2026)" in current(later)
    assert "until 2026-03-09: [M1] Tom's employer was Ford" in later and "from 2026-" not in later


def _typed(m) -> list[dict]:
    result = m.retrieve(
        filter={"has_tags": [TAG], "facets": {"level": "typed_fact"}, "status": "any", "limit": 100},
        include=["subject", "attribute", "value"],
    )
    assert result.success, result.diagnostics
    return result.data["rows"]


def test_a_short_value_is_history_in_the_message_that_stated_it(memory):
    """A number too short to look for anywhere (7, 七) is looked for in the message that said it."""
    m = memory(actor="amy", embedder="none")
    conv = m.conversation(user="amy", agent="assistant", extractor="rules")
    conv.add_message("user", "My son Eli is 7.", time="2026-01-04T09:00:00Z")
    conv.add_message("assistant", "Fun age! 17 is a long way off.", time="2026-01-04T09:00:05Z")
    conv.add_message("user", "Eli turned 8 last week, we had a party.", time="2026-06-10T09:00:00Z")
    text = conv.context("How old is Eli?", budget_tokens=300).text
    assert "until 2026-06-01: [M1] amy: My son Eli is 7." in text
    assert "[M2] assistant: Fun age!" in current(text)  # not the message that stated it
    zh = memory(actor="王丽", embedder="none").conversation(user="王丽", agent="assistant", extractor="rules")
    zh.add_message("user", "我儿子今年七岁。", time="2026-01-04T09:00:00Z")
    zh.add_message("user", "儿子上周满八岁了，办了个生日会。", time="2026-06-10T09:00:00Z")
    text = zh.context("王丽的儿子多大了？", budget_tokens=300).text
    assert "until 2026-06-10: [M1] 王丽: 我儿子今年七岁。" in text and "八岁" in current(text)
    zh.add_message("user", "我爷爷今年89岁。", time="2026-03-16T09:00:00Z")
    zh.add_message("user", "昨天给爷爷过了90大寿。", time="2026-11-16T09:00:00Z")
    text = zh.context("王丽的爷爷多大了？", budget_tokens=300).text
    assert "until 2026-11-16: [M3] 王丽: 我爷爷今年89岁。" in text  # digits next to 年 and 岁 are found


def test_a_weekday_said_as_a_schedule_gets_no_date(memory):
    m = memory(actor="liam", embedder="none")
    conv = m.conversation(user="liam", agent="assistant", extractor="rules")
    conv.add_message(
        "user", "Our nanny Rosa comes Monday to Wednesday, and every Friday.", time="2026-02-08T09:00:00Z"
    )
    conv.add_message("user", "我家阿姨每周一到周三来。", time="2026-02-08T09:01:00Z")
    conv.add_message("user", "The plumber comes on Tuesday.", time="2026-02-08T09:02:00Z")
    text = conv.context("nanny 阿姨 plumber", budget_tokens=300).text
    assert "Monday to Wednesday, and every Friday." in text and "每周一到周三来" in text
    assert "Tuesday (2026-02-10)" in text  # one day said is still resolved


def test_a_clock_time_on_a_relative_day_gets_its_date(memory):
    m = memory(actor="amy", embedder="none")
    conv = m.conversation(user="amy", agent="assistant", extractor="rules")
    conv.add_message("user", "家长会明天晚上六点。", time="2026-09-15T09:00:00Z")
    conv.add_message("user", "The school play is at 6pm.", time="2026-09-15T09:01:00Z")
    text = conv.context("家长会 school play", budget_tokens=300).text
    assert "明天晚上六点 (2026-09-16)" in text
    assert "amy: The school play is at 6pm." in text  # a clock time alone names no day


def test_a_corrected_hour_said_alone_is_history_where_it_was_said_and_echoed(memory):
    m = memory(actor="nora", embedder="none")
    conv = m.conversation(user="nora", agent="assistant", extractor="rules")
    conv.add_message("user", "Our anniversary dinner is booked for Friday at 7.", time="2026-03-02T09:00:00Z")
    conv.add_message("assistant", "Lovely, Friday at 7 it is.", time="2026-03-02T09:00:05Z")
    conv.add_message("assistant", "Anything else? 7 reminders are set.", time="2026-03-02T09:00:09Z")
    conv.add_message(
        "user", "Oops, I meant 8, not 7. The restaurant confirmed 8.", time="2026-03-03T09:00:00Z"
    )
    text = conv.context("When is the anniversary dinner?", budget_tokens=300).text
    assert "until 2026-03-03: [M1] nora: Our anniversary dinner is booked for Friday at 7." in text
    assert "until 2026-03-03: [M2] assistant: Lovely, Friday" in text  # the reply right after echoed it
    assert "until 2026-03-03: [M3]" not in text  # not an echo: a line later


def test_a_date_or_moment_is_shown_with_its_weekday_in_the_subjects_language(memory):
    m = memory(actor="max", embedder="none")
    conv = m.conversation(user="max", agent="assistant", extractor="rules")
    conv.add_message("user", "The dentist is on Thursday at 2pm.", time="2026-05-18T09:00:00Z")
    assert (
        "max's dentist: Thursday, May 21, 2026, 14:00 (2pm, 2 pm) (2026-05-21T14:00:00Z)"
        in conv.context("When is my dentist appointment?", budget_tokens=300).text
    )
    zh = memory(actor="小欧", embedder="none").conversation(user="小欧", agent="assistant", extractor="rules")
    zh.add_message("user", "我的航班周五晚上6点40落地。", time="2026-05-18T09:00:00Z")
    assert (
        "2026年5月22日 周五 18:40（晚上6点40分） (2026-05-22T18:40:00Z)"
        in zh.context("我的航班几点落地？", budget_tokens=300).text
    )


def test_a_relative_day_of_a_month_gets_its_date_and_an_echo_of_a_moved_day_is_history(memory):
    m = memory(actor="gem", embedder="none")
    conv = m.conversation(user="gem", agent="assistant", extractor="rules")
    conv.add_message("user", "I travel for work on the 10th of next month.", time="2026-04-01T09:00:00Z")
    conv.add_message("user", "我下个月十号出差。", time="2026-04-01T09:01:00Z")
    conv.add_message("user", "Interview is Wednesday at 10am.", time="2026-04-01T09:02:00Z")
    conv.add_message("assistant", "Good luck Wednesday!", time="2026-04-01T09:02:05Z")
    conv.add_message("user", "HR moved the interview to Thursday at 3pm.", time="2026-04-02T09:00:00Z")
    text = conv.context("travel 出差", budget_tokens=300).text
    assert "the 10th of next month (2026-05-10)" in text and "下个月十号 (2026-05-10)" in text
    text = conv.context("When is my interview?", budget_tokens=300).text
    assert "until 2026-04-02: [M4] assistant: Good luck Wednesday (2026-04-08)!" in text
