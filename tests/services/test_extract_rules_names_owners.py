"""Who holds a value and what it is called: a workplace said with a teaching job ("teaches chemistry at
Lincoln High"), a described employer named later ("a biotech startup" … "The startup is called Helix
Labs"), a person's swap said with 把 (老张把奥迪换成了蔚来), a new landlord described by surname or name
(个姓陈的大哥, 一家叫光明的公司), and 什么都 that asks nothing."""

from __future__ import annotations

from extract_helpers import facts, own

ZH = "罗文"


def test_a_teacher_works_where_they_teach():
    assert own("My wife Dana teaches chemistry at Lincoln High.") == {
        ("Dana", "teaching", "chemistry"),
        ("Dana", "employer", "Lincoln High"),
        ("Mira", "wife", "Dana"),
    }


def test_a_described_employer_and_its_name_said_later():
    hired = "Dana got hired by a biotech startup, so she's done teaching."
    assert own(hired) == {("Dana", "employer", "biotech startup")}
    assert own("The startup is called Helix Labs.", (hired,)) == {("Dana", "employer", "Helix Labs")}
    assert own("It's called Helix Labs.", (hired,)) == {("Dana", "employer", "Helix Labs")}
    assert own("I joined a new group.") == set()  # no employer named or described
    # a name of a thing nobody described is no one's employer
    assert own("The dog is called Rex.") == {("Mira", "dog.name", "Rex")}


def test_a_swap_said_with_ba_is_the_holders():
    recent = ("我邻居老张开的是奥迪。", "我开的是本田。")
    assert own("老张把奥迪换成了蔚来。", recent, "马超") == {("老张", "car", "蔚来")}
    assert own("我把本田换成了特斯拉。", ("我开的是本田。",), "马超") == {("马超", "car", "特斯拉")}


def test_a_new_landlord_described_by_surname_or_name():
    assert own("房子卖了，新房东是个姓陈的大哥。", ("我的房东是李阿姨。",), ZH) == {
        (ZH, "landlord", "陈大哥")
    }
    assert own("新房东是一家叫光明的公司。", (), ZH) == {(ZH, "landlord", "光明")}
    # a name with its title, and a part after it that says "anything" asks nothing
    assert ("帕特尔先生", "relation.landlord_of", ZH) in facts("我房东是帕特尔先生，什么都不修。", (), ZH)
    assert own("房东人挺好的。", (), ZH) == set()


def test_a_coffee_order_said_as_a_habit_and_its_usual_key():
    assert own("I usually get a cappuccino in the morning.") == {("Mira", "coffee_order", "cappuccino")}
    assert own("My usual coffee order is a cappuccino.") == {("Mira", "coffee_order", "cappuccino")}
    assert own("I have a cat.") == set()  # "have" with no coffee is no order
    held = ("I usually get a cappuccino in the morning.", "Switched to flat whites.")
    assert own("Now it's just black coffee, cutting out milk.", held) == {
        ("Mira", "coffee_order", "black coffee")
    }


def test_where_one_banks_and_a_past_verb_that_opens_a_sentence():
    assert own("I bank with Chase.") == {("Mira", "bank", "Chase")}
    moved = own("Moved all my accounts to a credit union, Navy Federal.", ("I bank with Chase.",))
    assert moved == {("Mira", "bank", "Navy Federal")}
    assert own("Ted moved to Boston.") == {("Ted", "residence", "Boston")}  # a name is still a name


def test_renting_somewhere_is_living_there():
    assert own("I'm renting in Brixton.") == {("Mira", "residence", "Brixton")}


def test_promoted_in_chinese_and_a_thing_ready_on_a_day():
    assert own("他升领班了！", ("我弟弟在海底捞当服务员。",), ZH) == {(f"{ZH}的弟弟", "job_title", "领班")}
    assert own("护照十天后能取。", (), ZH) == {(ZH, "passport.date", "2026-03-12")}
    assert own("My passport will be ready in 10 days.") == {("Mira", "passport.ready", "2026-03-12")}
    sooner = own("They called, it'll be ready two days sooner.", ("My passport will be ready in 10 days.",))
    assert sooner == {("Mira", "passport.ready", "2026-03-10")}
