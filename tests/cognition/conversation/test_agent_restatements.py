"""What the assistant restates of its user is the user's fact (formation passes the agent to the
extractor): its key is the one a later change of the user's moves, on both backends."""

from __future__ import annotations

from conversation_helpers import conversation, current


def test_the_assistants_restatement_keys_the_users_fact_and_the_users_change_moves_it(memory):
    m = memory(actor="王阿姨", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "早上 医生说一个月后再来看看", "2026-04-15T06:10:00Z"),
            ("assistant", "好的，下次复查5月13日。", "2026-04-15T06:11:00Z"),
            ("user", "哎呀 医院打电话来 说5月13号那天专家停诊 改到5月20号了", "2026-05-02T09:00:00Z"),
        ],
    )
    text = conv.context("王阿姨下一次复查是哪天？", budget_tokens=300).text
    assert "5月20" in text
    assert "5月13" not in current(text)  # the day the assistant wrote down is history now
    assert [f.value for f in m.facts.history("王阿姨", "下次复查.date").facts] == ["2026-05-13", "2026-05-20"]
    assert m.facts.get("assistant").facts == []


def test_a_change_said_sessions_later_finds_the_value_it_changes(memory):
    # the rent was said more turns ago than the extractor's recent turns reach; the change names no key
    # itself ("from june 1 its $1,595"), a recent turn does ("rent going up")
    m = memory(actor="Ikenna", embedder="none")
    small_talk = [
        ("user" if i % 2 else "assistant", f"ok, noted {i}.", "2026-02-01T09:00:00Z") for i in range(8)
    ]
    conv = conversation(
        m,
        [
            ("user", "budgeting for the year. rent is $1,450/mo", "2026-01-05T17:00:00Z"),
            *small_talk,
            (
                "user",
                "new owners put up signs about upgrades which means rent going up",
                "2026-03-18T20:00:00Z",
            ),
            ("user", "letter came. from june 1 its $1,595. cool cool cool", "2026-04-02T18:30:00Z"),
        ],
    )
    assert [f.value for f in m.facts.history("Ikenna", "rent").facts] == ["$1,450/mo", "$1,595/mo"]
    text = conv.context("How much is Ikenna's rent going to be?", budget_tokens=300).text
    assert "$1,595" in text and "1,450" not in current(text)
