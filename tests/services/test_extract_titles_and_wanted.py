"""Titled people written in lower case, the doctor one is given, carers and advisors by title, a thing
someone wants by a day, clauses opened by a thing said to be something, and what no longer makes a key
(services/extract: casual.capitalised_titles, corrections_en, subjects_en, events_en.wanted_by,
clauses_en, shifts, replacement_keys)."""

from __future__ import annotations

import pytest
from extract_helpers import facts_of_turns

from memql.services.extract.casual import capitalised_titles

AGENT = "assistant"


def read(*turns: tuple[str, str]) -> set[tuple]:
    return facts_of_turns(*turns)


@pytest.mark.parametrize(
    "written, read_as",
    [
        ("so i got dr lindqvist", "so i got Dr Lindqvist"),
        ("handed over to prof lindqvist", "handed over to Prof Lindqvist"),
        ("mrs. ortiz teaches him", "Mrs. Ortiz teaches him"),
        ("the dr said rest", "the dr said rest"),  # a word a title is often followed by: no name
        ("dr appt at 3", "dr appt at 3"),
    ],
)
def test_a_titled_name_in_lower_case_is_read_capitalised_at_the_same_length(written, read_as):
    assert capitalised_titles(written) == read_as
    assert len(capitalised_titles(written)) == len(written)


@pytest.mark.parametrize(
    "turns, expected",
    [
        ([("Ruth", "patel isnt taking new patients so i got dr lindqvist. first appt march 10")],
         {("Ruth", "doctor", "Dr Lindqvist"), ("Ruth", "first.appointment", "2026-03-10")}),
        ([("Ruth", "I was assigned Dr. Osei")], {("Ruth", "doctor", "Dr. Osei")}),
        ([("Ruth", "My new primary care doctor is Dr. Lindqvist.")], {("Ruth", "doctor", "Dr. Lindqvist")}),
        ([("Ruth", "my GP is Dr. Patel")], {("Ruth", "doctor", "Dr. Patel")}),
        ([("Priya", "my advisor dr okafor wants a full draft by march 20")],
         {("Priya", "advisor", "Dr Okafor"), ("Priya", "full_draft.deadline", "2026-03-20")}),
        ([("Sofia", "my landlord mr petrakis STILL hasnt fixed the radiator. 3 weeks")],
         {("Sofia", "landlord", "Mr Petrakis")}),
        # a titled one held is replaced by the one the speaker is handed over to
        ([("Priya", "my advisor is Dr. Okafor"),
          ("Priya", "okafor is going on sabbatical so im getting handed over to prof lindqvist 😬")],
         {("Priya", "advisor", "Prof Lindqvist")}),
        # a day wanted, then another day wanted instead
        ([("Priya", "my advisor wants a full draft by march 20"),
          ("Priya", "met lindqvist!! he wants the full draft april 6 instead")],
         {("Priya", "full_draft.deadline", "2026-04-06")}),
        ([("Tom", "the landlord needs the form back by Friday")], {("Tom", "form.deadline", "2026-03-06")}),
        # "so <a thing> is <value>" opens a clause of its own
        ([("Priya", "we got 2 extra weeks so final deadline is may 1 now")],
         {("Priya", "deadline", "2026-05-01")}),
        # the final submission is the deadline a later "final deadline" moves, not another deadline held
        ([("Priya", "final submission is april 17 and my advisor wants a full draft by march 20"),
          ("Priya", "faculty gave everyone 2 extra weeks so final deadline is may 1 now")],
         {("Priya", "deadline", "2026-05-01")}),
    ],
)  # fmt: skip
def test_titled_people_and_days_wanted(turns, expected):
    assert read(*turns) == expected


@pytest.mark.parametrize(
    "turns",
    [
        [("Ruth", "we got Dr. Osei for the baby")],  # the baby's
        [("Ruth", "I got dr pepper")],
        [("Tom", "I don't need the car until monday")],
        # "bc" spelled "because" is no key two turns share
        [("Priya", "results nothing yet bc the survey only closes next week"),
         ("Priya", "faculty gave everyone 2 extra weeks bc of the outage thing, it's may 1 now")],
        # the week after something else, and a day asked about, move no held day
        [("Priya", "final submission is april 17"),
         (AGENT, "Maybe block out the week after the survey closes just for analysis?")],
        [("Priya", "final submission is april 17"), ("Priya", "could we do the week after?")],
    ],
)  # fmt: skip
def test_no_fact_of_the_speakers_own(turns):
    speaker = turns[0][0]
    assert not any(subject == speaker for subject, _, _ in read(*turns))
