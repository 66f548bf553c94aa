"""An amount said to move from one value to another (from_to): the old and the new value under the key the
words name, a held value the old one repeats, or the amount said beside it; times and unknown pronouns are
left alone. And a mobile number said as one's own (我自己的还是 …), a change with a reason said between it
and its value, a job change said with 跳槽 (one held no employer before)."""

from __future__ import annotations

from extract_helpers import facts, facts_of_turns, own


def test_an_amount_named_before_the_verb_moves_from_old_to_new():
    said = facts_of_turns(("Dev", "my rent went from $1,850 to $1,975"), corrections=True)
    assert said == {("Dev", "rent", "$1,975", True)}  # (one value per key: the one left true)
    assert ("Dev", "rent", "1975") in own("they bumped my rent from 1850 to 1975", speaker="Dev")
    assert ("Ana", "rent", "1,350") in facts("Ana's rent just went from 1,200 to 1,350", speaker="Dev")
    assert ("Dev", "dose", "20mg") in own("my dose went from 10mg to 20mg", speaker="Dev")
    assert ("Dev", "weight", "158 lbs") in own("I went from 170 lbs to 158 lbs", speaker="Dev")
    assert not any(k == "employer" for _, k, _ in own("I went from 170 lbs to 158 lbs", speaker="Dev"))


def test_chinese_amounts_move_from_old_to_new():
    assert own("房租从3200涨到3500了", speaker="小雨") == {("小雨", "rent", "3500")}
    assert ("小雨", "weight", "158斤") in own("我从170斤瘦到158斤了", speaker="小雨")
    assert ("小雨的姐姐", "rent", "3300") in facts("我姐的房租也从3000涨到3300了", speaker="小雨")
    assert not any("从" in k for _, k, _ in facts("我的房租从3200涨到3500了", speaker="小雨"))


def test_a_held_value_the_old_one_repeats_is_the_one_that_moved():
    said = facts_of_turns(("Dev", "rent is $1,850 for a 1br"), ("Dev", "update: went from 1,850 to 1,975"))
    assert said == {("Dev", "rent", "$1,975")}  # (the held value is not said again; its currency kept)


def test_another_persons_amount_beside_ones_own_takes_its_key():
    turns = (("佳佳", "今天称129.5，终于破130了"), ("佳佳", "我男朋友陪我一起减，他从170掉到158了"))
    assert ("佳佳的男朋友", "weight", "158") in facts_of_turns(*turns)
    assert not any(s == "佳佳" for s, _, _ in facts_of_turns(*turns))
    # 她 is not the boyfriend: whom it stands for is not known, nothing is read
    turns = (turns[0], ("佳佳", "我男朋友陪我一起减，她从170掉到158了"))
    assert not any(v == "158" for _, _, v in facts_of_turns(*turns))


def test_times_and_unnamed_amounts_are_left_alone():
    assert not any(v in ("4", "4pm") for _, _, v in own("the meeting went from 3 to 4pm", speaker="Dev"))
    assert not own("so i went from 9 to 5 lol", speaker="Dev")
    assert not any(k == "so_i" for _, k, _ in own("so i went from 9 to 5 lol", speaker="Dev"))


def test_ones_own_mobile_number_and_a_mothers_change_with_its_reason():
    turns = [
        ("老周", "帮我记一下，我妈的新手机号 13917264580，她之前那个号不用了"),
        ("老周", "我自己的还是 13501187732 不变"),
    ]
    assert {(s, k, str(v)) for s, k, v in facts_of_turns(*turns)} == {("老周", "phone", "13501187732")}
    turns.append(("老周", "哎 我妈又换号了，说那个号老接到骚扰电话，现在是 18621095537"))
    said = {(s, k, str(v)) for s, k, v in facts_of_turns(*turns)}
    assert said == {("老周的妈妈", "phone", "18621095537")}
    turns.append(("老周", "我也换号了，公司给配了个新号 15800342216"))
    said = {(s, k, str(v)) for s, k, v in facts_of_turns(*turns)}
    assert said == {("老周", "phone", "15800342216")}


def test_a_job_hop_names_the_new_employer_without_one_held():
    assert ("陈默的老婆", "employer", "阿里") in facts("我老婆也跳槽了，从腾讯去了阿里", speaker="陈默")
    assert ("陈默", "employer", "阿里") in own("我跳槽了，去了阿里", speaker="陈默")


def test_a_bound_a_hospital_and_a_companion_are_no_values_or_keys():
    # 也要4300以上: what others ask at least, not the speaker's new rent
    turns = (
        ("林杰", "今天交房租了 4200一个月 押一付三"),
        ("林杰", "还在想 这附近同样的两室也要4300以上 搬家也麻烦"),
    )
    assert not any(str(v) == "4300" for _, _, v in facts_of_turns(*turns))
    said = own("决定转院了 市妇幼排队太夸张 转到省人民医院了 离家也近", speaker="阿珍")
    assert ("阿珍", "hospital", "省人民医院") in said
    # whom one went with names no key for the schedule replaced ("w kerry, wednesdays 4pm")
    turns = (
        ("Ollie", "started physio at flexworks w kerry, wednesdays 4pm"),
        ("Ollie", "kerry's going on mat leave so from next week i'm with anand. moving to fridays 10am"),
    )
    assert not any(k == "kerry" for _, k, _ in facts_of_turns(*turns))
