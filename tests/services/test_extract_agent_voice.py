"""The agent's turns restate what the one it answers said (Utterance.agent; services/extract/rules.py)."""

from __future__ import annotations

import pytest
from extract_helpers import EXTRACTOR, NOW

from memql.lang.delta import Turn, Utterance, check_evidence

AGENT = "assistant"


def read(turns: list[tuple[str, str]], agent: str | None = AGENT) -> set[tuple]:
    """The facts the last turn states, each earlier turn before it as a recent turn."""
    *before, (speaker, text) = turns
    recent = tuple(Turn(speaker=s, text=t, time=NOW) for s, t in before)
    said = Utterance(speaker=speaker, text=text, time=NOW, recent=recent, agent=agent)
    delta = EXTRACTOR.extract(said)
    assert check_evidence(delta, text, said.recent) == []  # quoted as written, "your" and all
    return {(f.subject, f.attribute, f.value) for f in delta.facts if f.said_in is None}


@pytest.mark.parametrize(
    "turns, expected",
    [
        ([("Tom", "im reporting to a new lead starting monday."),
          (AGENT, "So Raj is your new manager from Monday.")],
         {("Tom", "manager", "Raj")}),
        ([("王阿姨", "早上 医生说一个月后再来看看"), (AGENT, "好的，下次复查5月13日。")],
         {("王阿姨", "下次复查.date", "2026-05-13")}),
        # the agent's restatement names the key a later change of the user's then moves
        ([("王阿姨", "早上 医生说一个月后再来看看"), (AGENT, "好的，下次复查5月13日。"),
          ("王阿姨", "哎呀 医院打电话来 说5月13号那天专家停诊 改到5月20号了 真麻烦")],
         {("王阿姨", "下次复查.date", "2026-05-20")}),
    ],
)  # fmt: skip
def test_the_agents_restatement_is_the_users_fact(turns, expected):
    assert read(turns) == expected


@pytest.mark.parametrize(
    "turns",
    [
        [("Caroline", "how was your weekend?"), (AGENT, "I ran a charity 5k race in the park!")],
        [("小林", "我在杭州上班"), (AGENT, "好的，我的电话是13800000000。")],
        # a restated value the user holds already is no second fact of it
        [("Marco", "dentist office called, they need to push me to 4:30 on feb 17"),
         (AGENT, "Updated: Tuesday Feb 17 at 4:30pm.")],
        # or says it by its first word
        [("Tom", "im reporting to raj okonkwo starting monday."),
         (AGENT, "So Raj is your new manager from Monday.")],
    ],
)  # fmt: skip
def test_the_agent_speaking_of_itself_or_echoing_states_nothing_of_the_user(turns):
    user = turns[0][0]  # (the agent's facts about itself are left out by formation)
    assert not any(subject.startswith(user) for subject, _, _ in read(turns))


def test_without_an_agent_named_its_turns_are_its_own():
    got = read([("Tom", "hi"), (AGENT, "So Raj is your new manager from Monday.")], agent=None)
    assert got and not any(subject == "Tom" for subject, _, _ in got)
