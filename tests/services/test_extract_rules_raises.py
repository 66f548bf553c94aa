"""A held amount moved by an amount ("raised my rent by $100", "got a 10% raise", 房东给我涨了200, 涨了两千)
in the held value's own form, and a flight delayed by hours (延误了两个小时; "Flight's delayed two hours")."""

from __future__ import annotations

from extract_helpers import own

ZH = "葛优"


def test_an_amount_raised_or_cut_by_an_amount_keeps_its_form():
    assert own("Landlord raised my rent by $100.", ("My rent is $1,500 a month.",)) == {
        ("Mira", "rent", "$1,600 a month")
    }
    assert own("Got a 10% raise!", ("My salary is 80k.",)) == {("Mira", "salary", "88k")}
    assert own("They raised it by 50.", ("My rent is 1200.",)) == {("Mira", "rent", 1250)}
    assert own("They cut it by 10%.", ("My rent is 1200.",)) == {("Mira", "rent", 1080)}
    assert own("房东给我涨了200。", ("我房租每月3000。",), ZH) == {(ZH, "rent", 3200)}
    assert own("涨了两千！", ("我月薪一万。",), ZH) == {(ZH, "salary", 12000)}


def test_a_rise_of_something_else_or_of_two_amounts_moves_none():
    assert own("股票涨了两千！", ("我月薪一万。",), ZH) == set()
    assert own("Stocks went up by 5%.", ("My salary is 80k.",)) == set()
    two = ("My rent is 1200.", "My gym membership costs $40 a month.")
    assert own("They raised it by 50.", two) == set()  # which: not guessed
    assert own("Landlord raised my rent by $100.", ()) == set()  # nothing held
    # a day or a clock time held is no amount
    assert own("They raised it by 50.", ("The party is on May 9.",)) == set()
    assert own("They raised it by 50.", ("My rent is 1200.", "The party is on May 9.")) == {
        ("Mira", "rent", 1250)
    }


def test_a_flight_delayed_by_hours():
    flight = "Our flight home is at 6:40 pm on Sunday."
    assert own("Flight's delayed two hours.", (flight,)) == {("Mira", "flight_home", "2026-03-08T20:40:00Z")}
    zh = "我们周日晚上6点40的航班回家。"
    assert own(zh, (), "洪涛") == {("洪涛", "flight", "2026-03-08T18:40:00Z")}
    assert own("航班延误了两个小时。", (zh,), "洪涛") == {("洪涛", "flight", "2026-03-08T20:40:00Z")}
    assert own("Boss pushed the meeting back an hour.", ("The team meeting is at 3pm on Thursday.",)) == {
        ("Mira", "team_meeting", "2026-03-05T16:00:00Z")
    }


def test_a_weight_lost_or_gained_in_the_unit_held():
    assert own("Lost 15 pounds since January!", ("I'm 5'10\" and weigh 190.",)) == {("Mira", "weight", 175)}
    assert own("半年瘦了8公斤！", ("我现在体重90公斤。",), ZH) == {(ZH, "weight", "82公斤")}
    assert own("半年瘦了8公斤！", ("我现在体重180斤。",), ZH) == set()  # 斤 held, 公斤 said: not mixed
    assert own("Lost 15 pounds since January!", ("My salary is 80k.",)) == set()  # only a weight moves


def test_the_book_one_is_reading_in_chinese():
    assert own("我最近在看《三体》。", (), "蒋勤") == {("蒋勤", "reading", "《三体》")}
    said = ("我最近在看《三体》。", "《三体》看完了，开始看《活着》。")
    assert own("《活着》太压抑了，换成《围城》了。", said, "蒋勤") == {("蒋勤", "reading", "《围城》")}
