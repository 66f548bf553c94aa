"""A relative's arrival however they travel and a shift of it said by its own verb (events_en, predicates_zh,
shifts.py), and a held amount moved by an amount from a month to come (raises.py): the new amount holds
from that month, named by its aspect ("the fee" of hoa.price) or by the end of a Chinese key."""

from __future__ import annotations

from datetime import datetime

from extract_helpers import NOW, extract, facts, own

ME = "Mira"


def test_a_relatives_arrival_however_they_travel_and_its_shift():
    flies = "My mother-in-law flies in on the 18th."
    assert own(flies) == {("Mira's mother in law", "arrive", "2026-03-18")}
    later = own("She changed her flight, she's now arriving two days later.", (flies,))
    assert later == {("Mira's mother in law", "arrive", "2026-03-20")}
    plane = "我婆婆18号坐飞机过来。"
    assert own(plane) == {("Mira的婆婆", "arrive", "2026-03-18")}
    assert own("婆婆改签了，推迟两天到。", (plane,)) == {("Mira的婆婆", "arrive", "2026-03-20")}
    assert own("The movers come in two weeks.") == {(ME, "movers.come", "2026-03-16")}  # "in" is no verb
    assert own("我周六坐地铁去看展。") == set()  # a ride somewhere is no arrival


def _rise(text: str, recent: tuple[str, ...]) -> tuple[object, datetime]:
    (fact,) = [f for f in extract(text, recent).facts if f.said_in is None]
    return fact.value, fact.valid_from


def test_an_amount_going_up_by_an_amount_from_a_month_to_come():
    held = ("Our HOA fee is $220 a month.",)
    value, since = _rise("HOA voted a special increase, fee's going up by $35 starting October.", held)
    assert value == "$255 a month" and since == datetime(2026, 10, 1, tzinfo=NOW.tzinfo)
    value, since = _rise("The fee is going up by $35.", held)  # named by its aspect; from now
    assert value == "$255 a month" and since == NOW
    value, since = _rise("业委会投票了，物业费从10月起每月涨35。", ("我们小区物业费每月220。",))
    assert value == 255 and since == datetime(2026, 10, 1, tzinfo=NOW.tzinfo)


def test_her_held_day_moved_by_someone_else_is_hers():
    due = "My wife's due date is June 3."
    moved = own("OB moved her due date up to May 28 after the ultrasound.", (due,))
    assert moved == {("Mira's wife", "deadline", "2026-05-28")}


def test_a_day_to_come_said_to_hold_now_moves_the_one_held():
    held = ("My passport renewal appointment is in three weeks.",)
    assert own("Got an earlier slot, it's next Monday now.", held) == {
        (ME, "passport.appointment", "2026-03-09")
    }
    assert own("It's Monday now, time flies.", held) == set()  # today, not a day to come


def test_they_who_move_together_are_the_household_of_the_one_named():
    moved = own("继父上个月退休了，他们搬去三亚了。", ("我继父在大连当邮递员。",))
    assert ("Mira的继父", "residence", "三亚") in moved


def test_still_at_an_employer_jumping_ship_a_teacher_by_another_title_and_a_weigh_in():
    said = own("Quick update: my sister Nell just started at Deloitte, and my brother Abe is still at KPMG.")
    assert {("Nell", "employer", "Deloitte"), ("Abe", "employer", "KPMG")} <= said
    assert own("Mom is still at Mercy Hospital.") == set()  # a stay, no employer
    assert own("Abe jumped ship to EY last week.", ("My brother Abe works at KPMG.",)) == {
        ("Abe", "employer", "EY")
    }
    teacher = own(
        "Mrs. Ortiz moved away, so he's with Mr. Baker now.", ("My son's piano teacher is Mrs. Ortiz.",)
    )
    assert teacher == {("Mira's son", "piano_teacher", "Mr. Baker")}
    weighed = own("Hit 188 this morning.", ("I weigh 210 right now, goal is 180.", "Down to 196!"))
    assert weighed == {(ME, "weight", 188)}
    assert own("I weigh 210 right now, goal is 180.") == {(ME, "weight", 210)}


def test_a_buddy_doing_work_for_an_employer_now():
    raf = "My buddy Raf is a bartender at The Owl."
    assert ("Raf", "relation.friend_of", ME) in facts(raf)
    now = own("Raf got his real estate license, he's selling houses for Redfin now.", (raf,))
    assert now == {("Raf", "job_title", "selling houses"), ("Raf", "employer", "Redfin")}
    assert own("He's staying for Christmas now.", (raf,)) == set()


def test_the_one_coming_rescheduled_moves_the_held_visit():
    held = ("The plumber's coming Tuesday morning.",)
    assert own("He rescheduled to Wednesday afternoon.", held) == {(ME, "plumber", "2026-03-04T12:00:00Z")}
