"""A trip said by its flying ("I'm flying to Lisbon on the 20th") and moved by the flight's words or a
rebooking, a car owned by its make and traded in, a return to where one lived, a word said alone that
names no one ("Fun!"), and what the one in charge says of a thing of the speaker's (医生说…)."""

from __future__ import annotations

from extract_helpers import own

from memql.services.extract.matching import QueryWords, match_score

FLYING = "I'm flying to Lisbon on the 20th."


def test_a_trip_said_by_its_flying_is_moved_by_the_flights_words_or_a_rebooking():
    assert own(FLYING, (), "Ike") == {("Ike", "lisbon.fly", "2026-03-20")}
    for said in ("Change of plans, flight's now on the 22nd.", "Flight's now on the 22nd."):
        assert own(said, (FLYING,), "Ike") == {("Ike", "lisbon.fly", "2026-03-22")}, said
    assert own("Ugh, airline cancelled, rebooked for the 24th.", (FLYING,), "Ike") == {
        ("Ike", "lisbon.fly", "2026-03-24")
    }
    # "my doctor's appointment": a possessive 's is no "is"
    assert own("My doctor's appointment is on the 14th.") == {("Mira", "doctors.appointment", "2026-03-14")}


def test_a_car_owned_by_its_make_and_traded_in():
    assert own("I've got a 2019 Honda Civic.", (), "Lev") == {("Lev", "car", "2019 Honda Civic")}
    assert own("We bought a Tesla.", (), "Lev") == {("Lev", "car", "Tesla")}
    assert own("I got a new job.", (), "Lev") == set()  # no make, no car
    civic = ("I've got a 2019 Honda Civic.",)
    assert own("Traded in the Civic for a RAV4.", civic, "Lev") == {("Lev", "car", "RAV4")}


def test_back_where_one_lived_and_not_a_visit():
    before = ("My best friend Zoe lives in Denver.", "Zoe moved to Austin for a job.")
    back = "Zoe's back in Denver, Austin wasn't for her."
    assert own(back, before, "Hana") == {("Zoe", "residence", "Denver")}
    assert own("I'm back in Paris for a conference.", (), "Hana") == set()  # no home held: a visit
    assert own("We moved to Portland, Oregon.", (), "Hana") == {("Hana", "residence", "Portland, Oregon")}


def test_a_word_said_alone_is_no_one_a_later_pronoun_means():
    said = [("Jo", "My son Eli plays soccer on Saturdays."), ("assistant", "Fun!")]
    assert own("His coach is Mr. Barnes.", said, "Jo") == {("Eli", "coach", "Mr. Barnes")}
    dog = [("Fay", "Our dog Rocky weighs 70 pounds."), ("assistant", "Big boy!")]
    diet = own("Vet put Rocky on a diet, he's down to 62 pounds.", dog, "Fay")
    assert diet == {("Rocky", "weight", "62 pounds")}
    # a name with a verb after it is someone a later "he" means
    moving = own("He's moving to Denver next month.", ["Sam called."], "Fay")
    assert moving == {("Sam", "residence", "Denver")}
    # a name before its 's is still read: Bob's birthday of that age
    assert own("We celebrated Uncle Bob's 65th last weekend.", ("My uncle Bob is 64.",), "Lena") == {
        ("Bob", "age", 65)
    }


def test_what_the_one_in_charge_says_of_a_thing_of_the_speakers_is_so():
    due = ("我老婆怀孕了，预产期是十月一号。",)  # 预产期 is the vocabulary's due, as "she's due in May"
    assert own("医生说预产期提前到九月二十五号。", due, "大伟") == {("大伟的老婆", "due", "2026-09-25")}
    assert own("房东说下个月开始房租涨到3300。", ("我房租每月3000。",), "小李") == {("小李", "rent", 3300)}
    assert own("房东说他要卖房子了。", ("我房租每月3000。",), "小李") == set()  # of himself: no fact


def test_an_elder_and_a_younger_sibling_are_two_people_to_a_question():
    asks_younger = QueryWords.of("小周的弟弟住在哪？")
    assert match_score("小周的弟弟", "residence", ["厦门"], asks_younger, asker="小周") > 0
    assert match_score("小周的哥哥", "residence", ["佛山"], asks_younger, asker="小周") == 0
    asks_elder = QueryWords.of("小周的哥住在哪？")
    assert match_score("小周的哥哥", "residence", ["佛山"], asks_elder, asker="小周") > 0


def test_the_following_weekday_counts_from_the_held_day():
    held = ("My dentist appointment is on March 10.",)
    assert own("The dentist moved my appointment to the following Monday.", held, "Pam") == {
        ("Pam", "dentist.appointment", "2026-03-16")
    }
    day_after = own("They moved it to the day after.", held, "Pam")
    assert day_after == {("Pam", "dentist.appointment", "2026-03-11")}
    asked = ("Can you remind me about my mom's cataract surgery? It's next Tuesday.",)
    said = "The surgeon's office rescheduled Mom's surgery for the following Monday."
    assert ("Pam's mom", "surgery", "2026-03-16") in own(said, asked, "Pam")


def test_sent_somewhere_by_ones_employer_in_chinese():
    before = ("我男朋友在上海工作。",)
    sent = own("他被公司派到新加坡了，要待两年。", before, "小叶")
    assert sent == {("小叶的男朋友", "residence", "新加坡")}
    assert own("我被调到总部了。", (), "小叶") == set()  # a workplace, no new employer


def test_a_professional_seen_is_no_partner_and_takes_the_held_role():
    therapist = ("My therapist is Dr. Kim.",)
    said = own("Dr. Kim retired, so I'm seeing Dr. Alvarez now.", therapist, "Yan")
    assert ("Yan", "therapist", "Dr. Alvarez") in said and not any(t[1] == "partner" for t in said)
    assert own("Switched therapists, Dr. Shah now.", therapist, "Yan") == {("Yan", "therapist", "Dr. Shah")}
    assert own("I'm seeing Dr. Alvarez for my back.", (), "Yan") == set()


def test_a_day_settled_on_at_last_in_chinese():
    said = ("我的雅思考试在4月18号。", "雅思改约到5月9号了。")
    assert own("又改了一次，最后定在5月23号。", said, "小季") == {("小季", "雅思考试", "2026-05-23")}


def test_a_new_boss_by_surname_and_a_grade_and_school_said_in_chinese():
    new = own("王总被调走了，新来的老板姓刘。", ("我老板叫王总。",), "小秦")
    assert ("小秦", "manager", "刘老板") in new
    said = own("妹妹考上浙大了，现在是大一新生。", ("我妹妹在读高三。",), "阿梅")
    assert said == {("阿梅的妹妹", "school", "浙大"), ("阿梅的妹妹", "grade", "大一")}


def test_games_that_recur_said_with_are_and_moved_by_her_games():
    games = "My daughter's soccer games are Saturdays at 9."
    assert own(games, (), "Cy") == {("Cy's daughter", "soccer_games", "Saturdays at 9")}
    moved = own("Fall season, her games moved to Sundays at 1.", (games,), "Cy")
    assert moved == {("Cy's daughter", "soccer_games", "Sundays at 1")}  # "Fall season" names no one


def test_a_month_and_day_right_after_the_attribute_is_its_value():
    # no 是 between them: 预产期9月12号 as 预产期是9月12号, in its part of a message parted by spaces
    assert own("医生按末次月经算 预产期9月12号 在市妇幼建的档", (), "阿珍") == {("阿珍", "due", "2026-09-12")}
