"""Known places in Chinese (在深圳上班 is a city, 在腾讯上班 an employer), levels (N2水平, then 考过N1了),
"Mine is …" after a relative's value, relations with a word before them ("my college roommate Theo"),
"back in Chicago now", and what something is due for on a day."""

from __future__ import annotations

from extract_helpers import own

ZH = "赵琳"


def test_a_known_city_after_zai_or_qu_is_where_one_lives():
    assert own("我现在在蒙特利尔。", (), ZH) == {(ZH, "residence", "蒙特利尔")}
    assert own("我哥去深圳工作了。", (), ZH) == {(f"{ZH}的哥哥", "residence", "深圳")}
    assert own("我哥在深圳市上班。", (), ZH) == {(f"{ZH}的哥哥", "residence", "深圳市")}
    assert own("我闺蜜小雅在南京读研。", (), ZH) == {("小雅", "residence", "南京")}
    # an employer, a school, a shop or home are not cities: read as before, or not at all
    assert own("我哥在腾讯上班。", (), ZH) == {(f"{ZH}的哥哥", "employer", "腾讯")}
    assert own("我在北京大学读书。", (), ZH) == {(ZH, "school", "北京大学")}
    assert own("我在超市。", (), ZH) == set()
    assert own("我在家。", (), ZH) == set()


def test_a_level_and_the_next_level_passed():
    assert own("我日语现在是N2水平。", (), ZH) == {(ZH, "日语", "N2")}
    assert own("今年考过N1了！", ("我日语现在是N2水平。",), ZH) == {(ZH, "日语", "N1")}
    assert own("I passed N3!", ("My Japanese level is N4.",)) == {("Mira", "japanese_level", "N3")}


def test_mine_is_the_speakers_own_value_of_what_was_just_said():
    both = own("My husband's birthday is March 3. Mine is October 30.")
    assert both == {("Mira's husband", "birthday", "2026-03-03"), ("Mira", "birthday", "2026-10-30")}
    assert own("Mine is October 30.", ("My husband's birthday is March 3.",)) == {
        ("Mira", "birthday", "2026-10-30")
    }
    assert own("Mine is October 30.") == set()  # nothing said before it: no attribute


def test_a_relation_with_a_word_before_it_and_back_in_a_city():
    theo = "My college roommate Theo just moved to Denver."
    assert own(theo) == {("Theo", "residence", "Denver")}
    assert own("Theo hated the altitude, so he's back in Chicago now.", (theo,)) == {
        ("Theo", "residence", "Chicago")
    }


def test_what_something_is_due_for_on_a_day():
    assert own("My car is due for an oil change the Monday after next.") == {
        ("Mira", "oil_change", "2026-03-16")
    }
    assert own("I'm booked for a haircut on Friday.") == {("Mira", "haircut", "2026-03-06")}
