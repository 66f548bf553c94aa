"""A change or correction the grammar has no construction for (replacements.py): the new value replaces
the latest earlier value of its shape on the same topic; an old value no fact held becomes a fact
`said_in` its own turn, quoting that turn; another subject, a question or a person never replaces a value."""

from __future__ import annotations

from datetime import timedelta

import pytest
from extract_helpers import EXTRACTOR, NOW, extract, message

from memql.lang.delta import check_evidence


def _all(text: str, recent) -> list[tuple]:
    """(subject, attribute, value, said_in) of every fact, in the delta's order."""
    return [(f.subject, f.attribute, f.value, f.said_in) for f in extract(text, recent).facts]


def _keyed(text: str, recent) -> tuple[dict, dict]:
    """(the message's own facts, the facts said in earlier turns), each as {value: (subject, key)}."""
    delta = extract(text, recent)
    own = {f.value: (f.subject, f.attribute) for f in delta.facts if f.said_in is None}
    said = {f.value: (f.subject, f.attribute, f.said_in) for f in delta.facts if f.said_in is not None}
    return own, said


def test_a_corrected_code_replaces_the_one_said_just_before():
    own, said = _keyed(
        "Oops, typo — it's 41C.", ["Booked seat 14C on the sleeper train.", ("assistant", "OK.")]
    )
    # the seat the recent turn names is the grammar's (tickets.py): the correction moves that one
    assert own["41C"][:2] == ("Mira", "seat") and said == {}


def test_the_old_value_is_quoted_from_its_own_turn():
    recent = ["We settled on Harbor Grill for the reunion dinner.", ("assistant", "Sounds fun.")]
    said = message("Change of venue for the reunion dinner: Blue Door Bistro instead.", recent)
    delta = EXTRACTOR.extract(said)
    assert check_evidence(delta, said.text, said.recent) == []
    (earlier,) = [f for f in delta.facts if f.said_in is not None]
    assert earlier.value == "Harbor Grill" and earlier.evidence.quote.startswith("We settled on Harbor Grill")
    assert earlier.valid_from == NOW  # true from its turn's time (the helper's turns share one time)
    assert [f.value for f in delta.facts if f.said_in is None] == ["Blue Door Bistro"]


def test_an_amount_correction_needs_no_shared_word():
    own, said = _keyed("Sorry, no, $210.", ["Parking at the new office costs $180 a month."])
    assert own["$210"] == said["$180"][:2]


def test_a_moved_day_replaces_the_day_of_the_same_matter():
    recent = ["The piano recital is on May 9.", ("assistant", "Noted."), "Lily is nervous about it."]
    own, _ = _keyed("They pushed the recital to next Saturday.", recent)
    (key,) = {k for _, k in own.values()}
    assert "2026-03-07" in own  # said on Monday 2 March
    first = {f.value: f.attribute for f in extract(recent[0]).facts}
    assert first.get("2026-05-09", key) == key  # the same key as the recital's day, or the key it gets now


@pytest.mark.parametrize(
    ("text", "recent"),
    [
        # another subject's value of the same shape never replaces the speaker's own, nor the reverse
        ("My sister's flight was moved to 9:15 pm.", ["My flight lands at 6:40 pm."]),
        ("They moved my flight to 9:15 pm.", ["My sister's flight lands at 6:40 pm."]),
        # a question is no change
        ("Did they move the recital to Friday?", ["The piano recital is on May 9."]),
        # a person does not replace a place
        ("Moved in with Sam last month.", ["I rent a room in Leeds."]),
        # no cue of a change or a correction
        ("The dinner is at Blue Door Bistro.", ["Lunch was at Harbor Grill."]),
    ],
)
def test_no_replacement(text, recent):
    assert not any(said_in is not None for *_, said_in in _all(text, recent))
    assert not any(v == "Sam" for _, _, v, _ in _all(text, recent))


def test_a_recent_turn_that_replaced_a_value_is_itself_an_earlier_fact():
    """Read again as a recent turn, a replacement is known: the next change binds to its key, and the
    value it replaced is not made a fact twice."""
    week = timedelta(days=7)
    first = ("Mira", "Book club is reading Middlemarch this month.")
    second = ("Mira", "We swapped to The Overstory, nobody finished Middlemarch.")
    said = message("New pick for book club: Piranesi.", [first, second], now=NOW + week)
    delta = EXTRACTOR.extract(said)
    own = [(f.attribute, f.value) for f in delta.facts if f.said_in is None]
    assert own and own[0][1] == "Piranesi"
    assert not any(f.value == "Middlemarch" for f in delta.facts)


def test_a_pronoun_names_no_key():
    """The words two turns share name the key of a replaced value, but a pronoun's half of a word
    (我老公: 我老) names nothing."""
    first = ("孙丽", "我老公在一所中学当数学老师。")
    delta = EXTRACTOR.extract(message("我老公辞职了，现在自己开了一家咖啡店。", [first], speaker="孙丽"))
    assert not any("我" in f.attribute for f in delta.facts)


def test_a_correction_that_names_its_attribute_binds_to_that_fact_not_the_latest_number():
    recent = ["想做个记账表，房租每月4800，水电大概300", "吃饭2000吧"]
    own, said = _keyed("啊刚才房租说错了，应该是4300", recent)
    assert own["4300"][1] == "rent" and said == {}  # the rent fact held 4800: it is closed, 2000 untouched


def test_codes_and_names_beside_chinese_are_values():
    # the flight the recent turn names is the grammar's (tickets.py): the correction moves that one
    own, said = _keyed("搞错了，刚看了行程单，是CA1382", ["下周回北京，航班CA1832，早上九点的"])
    assert own["CA1382"][1] == "flight" and said == {}
    # a phone by its make is the grammar's (owned.py): the new one under the key the old one holds
    own, said = _keyed("干脆换了台华为Mate 60，拍照绝了", ["我这iPhone 13电池不行了", "再说吧"])
    assert own["华为Mate 60"][1] == "phone" and said == {}


def test_a_value_given_alone_after_the_speaker_announced_a_change_replaces_its_shape():
    recent = [
        "我爸手机号 138 1234 5678，存一下",
        ("assistant", "已保存。"),
        "我爸换号了，老号停机了",
        ("assistant", "新号码是多少？"),
    ]
    own, _ = _keyed("13900217788", recent)
    assert own["13900217788"] == ("Mira的爸爸", "phone")
    # no change announced: a number alone replaces nothing
    quiet = ["我爸手机号 138 1234 5678，存一下", ("assistant", "已保存。"), "谢啦", ("assistant", "不客气")]
    assert _keyed("13900217788", quiet)[0] == {}


def test_who_passes_a_change_on_is_not_its_new_value():
    recent = ["book club is on the 27th at Marisol's", ("assistant", "Noted."), "we're reading Piranesi"]
    own, said = _keyed("ok Marisol just texted the group, it's pushed to two weeks from today", recent)
    assert set(own) == {"2026-03-16"} and set(said) == {"2026-03-27"}  # said on Monday 2 March
    assert own["2026-03-16"] == said["2026-03-27"][:2]  # one key: the moved meeting's day


def test_a_count_in_words_is_replaced_by_a_count_in_words():
    recent = ["Book a table for four at Nonna's on Friday.", ("assistant", "Table for four, Friday.")]
    own, _ = _keyed("Oops, make that six people, my cousins are coming.", recent)
    assert own["six"] == ("Mira", "table.people")
    # held as a number, the count in words keeps being one: "two cats" then "three cats now" is 3
    own, _ = _keyed("We adopted another one, so three cats now.", ["I have two cats."])
    assert own == {3: ("Mira", "cats.count")}
    # "one" is a pronoun here, no count
    assert _keyed("Switched to the new one.", ["I have two cats."])[0] == {}


def test_a_bare_no_opens_a_correction():
    own, _ = _keyed("hm no, locker is 241, I always flip those digits", ["My locker number is 214."])
    assert own == {"241": ("Mira", "locker.number")}


def test_a_settled_amount_replaces_the_last_one():
    recent = ["Rent is $1,800 a month.", "The landlord raised rent to $1,950."]
    own, _ = _keyed("After some back and forth we settled at $1,900.", recent)
    assert [(k, v) for k, v in own.items() if "1,900" in str(k)] == [("$1,900 a month", ("Mira", "rent"))]


def test_a_pronoun_stands_for_the_one_other_subject_the_speaker_just_spoke_of():
    own, _ = _keyed("He sold the Civic and bought a Subaru Forester.", ["My husband drives a Honda Civic."])
    assert own == {"Subaru Forester": ("Mira's husband", "car")}
    # two relatives just named: whose car it is is not guessed
    recent = ["My husband and my brother both drive a Honda Civic."]
    assert _keyed("He sold the Civic and bought a Subaru Forester.", recent)[0] == {}


def test_a_titled_name_replaces_a_titled_name_and_names_no_employer():
    own, _ = _keyed("Dad switched to Dr. Patel because Stone retired.", ["My dad's doctor is Dr. Stone."])
    assert own == {"Dr. Patel": ("Mira's father", "doctor")}


def test_a_chinese_key_is_the_whole_run_of_shared_characters():
    own, said = _keyed("读书会改到周三了。", ["读书会每周一见面。"])
    assert {key for _, key in own.values()} == {"读书会"}
    assert {key for _, key, _ in said.values()} == {"读书会"}


def test_a_swap_in_plain_words_replaces_the_held_value():
    """swaps.py: the held value named after a verb of leaving, the new one after a verb of taking up."""
    own, _ = _keyed("Eli quit trumpet and picked up drums.", ["My son Eli plays trumpet in the school band."])
    assert own == {"drums": ("Eli", "instrument")}
    # the grammar's reading of "joined the YMCA" (an employer) yields to the swap of the gym
    own, _ = _keyed("I cancelled Planet Fitness and joined the YMCA.", ["My gym is Planet Fitness on 5th."])
    assert own == {"YMCA": ("Mira", "gym")}
    own, _ = _keyed("Finished Dune, started Project Hail Mary.", ["I'm reading Dune."])
    assert own == {"Project Hail Mary": ("Mira", "reading")}
    # a value said alone after "switched to", right after the speaker's own plain value
    assert _keyed("Switched to oat lattes.", ["My coffee order is a flat white."])[0] == {
        "oat lattes": ("Mira", "coffee_order")
    }
    # "switched from X to Y": the held X, the new Y after "to"
    own, _ = _keyed("Isha switched from violin to cello this term.", ["My daughter Isha plays violin."])
    assert own == {"cello": ("Isha", "instrument")}
    assert _keyed("I moved from Lisbon to cello.", ["My daughter Isha plays violin."])[0] == {}  # not held
    # nothing held is named: no swap
    assert _keyed("I quit smoking and picked up running.", ["My gym is Planet Fitness on 5th."])[0] == {}


def test_a_replacement_said_for_later_holds_from_then():
    """A change no construction read, said for later (下个月要搬去厦门), holds from the time it names."""
    delta = EXTRACTOR.extract(
        message("小雅下个月要搬去厦门了。", [("刘敏", "我闺蜜小雅住在广州。")], speaker="刘敏")
    )
    (moved,) = [f for f in delta.facts if f.said_in is None and f.attribute == "residence"]
    assert moved.value == "厦门" and moved.valid_from.isoformat().startswith("2026-04-01")


def test_a_relative_names_no_key():
    first = ("陈刚", "我嫂子是牙医。")
    delta = EXTRACTOR.extract(message("嫂子现在不当牙医了，开了一家面包店。", [first], speaker="陈刚"))
    assert not any(f.attribute == "嫂子" for f in delta.facts)


@pytest.mark.parametrize(
    "text, before, fact",
    [
        (
            "Cancelled Anytime Fitness; I go to the YMCA now.",
            "My gym is Anytime Fitness on Elm.",
            ("gym", "YMCA"),
        ),
        (
            "Dropped Spanish, I'm doing Japanese now.",
            "I'm learning Spanish on Duolingo.",
            ("learning", "Japanese"),
        ),
        ("乐刻退了，现在去超级猩猩。", "我在乐刻健身。", ("gym", "超级猩猩")),
    ],
)
def test_a_change_that_names_the_value_it_ends_puts_the_new_one_in_its_place(text, before, fact):
    own, _ = _keyed(text, [before])
    assert own[fact[1]] == ("Mira", fact[0])


def test_a_past_verb_opening_a_sentence_is_no_part_of_a_name():
    from memql.services.extract.value_shapes import values

    said = [v.value for v in values("Sold the Volvo and bought a Fiat. Reed Hastings runs Netflix.", NOW)]
    assert said == ["Volvo", "Fiat", "Reed Hastings", "Netflix"]


def test_a_change_naming_its_topic_replaces_the_value_said_of_it_not_the_nearest_one():
    recent = [
        "can you remember my building gate code for me, i always forget. its 4417#",
        ("assistant", "Saved: building gate code 4417#."),
        "and the bike room is 2290",
        ("assistant", "Bike room: 2290. Got it."),
    ]
    own, said = _keyed("HOA changed the gate code after some break ins. new one is 9032#", recent)
    assert own["9032"] == ("Mira", "gate_code") and said["4417"][:2] == ("Mira", "gate_code")
    # a word both turns say in the sentences of the two values is their topic too
    own, said = _keyed(
        "new job, blue shield HMO. deductible only $750 but i need referrals",
        ["i have the aetna PPO thru work, deductible is $1,500", "its like $900 at the hospital tho"],
    )
    assert own["$750"] == ("Mira", "deductible") and said["$1,500"][:2] == ("Mira", "deductible")


def test_someones_relative_said_without_an_apostrophe_is_not_the_speaker():
    recent = [
        "my buddy ramon's wedding is in july, groomsmen are renting suits. im a 40R jacket, pants 32x30",
        ("assistant", "Noted: 40R jacket, 32x30 pants."),
        "ramons brother is a 44L lmao hes a giant",
        ("assistant", "Ha, there's always one."),
    ]
    # the size the speaker changes is their own 40R, not the 44L of Ramon's brother said since
    own, said = _keyed("went in to get measured. shoulders went up. im a 42R now", recent)
    assert own["42R"][0] == "Mira" and "44L" not in said


def test_the_old_value_is_the_one_the_messages_topic_words_lead_to():
    # the old turn prices three things; the change names one of them: its price is the old value
    recent = ["doing a budget thing. subscriptions: netflix 17.99, spotify family 16.99, icloud 2.99"]
    delta = extract("spotify just emailed, family plan going up to 19.99 next month. for WHAT", recent)
    got = {(f.attribute, f.value, f.said_in) for f in delta.facts}
    assert got == {("spotify_family", "16.99", 0), ("spotify_family", "19.99", None)}
    # and the old value is quoted by its whole sentence: a point between digits ends no sentence
    (old,) = [f for f in delta.facts if f.said_in == 0]
    assert old.evidence.quote.startswith("subscriptions: netflix 17.99, spotify family 16.99")
