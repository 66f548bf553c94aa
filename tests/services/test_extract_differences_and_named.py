"""A sum said as a difference (贵400, "by 50") is no value a change replaces (sums.by_how_much); a day of
the month said alone that is the held date's day names the held date, not the new one
(value_shapes.names_old_day); a reminder's lead time moves nothing (shifts); a car fetched (提的海豹);
one's partner named after "seeing someone" (answers._partner_named); whom one reports to, named after
汇报给; a time from which a change holds is no part of its key (三月起全勤奖); what one held as one's
manager says is so (刘姐说…)."""

from __future__ import annotations

from extract_helpers import EXTRACTOR, NOW, facts_of_turns, own

from memql.lang.delta import Turn, Utterance, check_evidence
from memql.services.extract.sums import by_how_much
from memql.services.extract.value_shapes import values


def test_a_sum_said_as_a_difference_is_by_how_much():
    text = "主卧带独卫贵400也还算合理"
    (v,) = [v for v in values(text, NOW) if v.value == "400"]
    assert by_how_much(v, text)
    text = "raised it by 50 again"
    (v,) = [v for v in values(text, NOW) if v.value == "50"]
    assert by_how_much(v, text)
    text = "rent is 1,850 now"
    assert not any(by_how_much(v, text) for v in values(text, NOW))


def test_the_agents_difference_is_not_the_value_a_rise_replaces():
    turns = (
        ("思思", "又到交房租的日子 3200一个月 押一付三"),
        ("assistant", "主卧带独卫贵400也还算合理。"),
        ("思思", "房东说续租要涨 主卧涨到3500"),
    )
    said = facts_of_turns(*turns)
    assert ("思思", "主卧", 3500) in said or ("思思", "rent", "3500") in said
    assert not any(str(value) == "400" for _, _, value in said)


def test_the_held_day_said_alone_is_not_the_new_day():
    turns = (
        ("Deb", "Winter concert is December 12. We're doing a lot of Rutter."),
        ("assistant", "Lovely."),
        ("Deb", "The church double-booked the 12th so the concert's moved to the 19th."),
    )
    said = facts_of_turns(*turns)
    assert ("Deb", "winter_concert", "2026-12-19") in said
    assert not any(str(value).endswith("-12") and value != "2026-12-12" for _, _, value in said)


def test_a_reminders_lead_time_moves_no_appointment():
    turns = (("Vivian", "牙又疼了 约了周四下午三点看牙"), ("Vivian", "要 提前一小时提醒我"))
    assert facts_of_turns(*turns) == set()
    moved = facts_of_turns(("Vivian", "约了周四下午三点看牙"), ("Vivian", "看牙提前一天"))
    assert {attribute for _, attribute, _ in moved} == {"看牙.date"}


def test_a_car_fetched_is_ones_car():
    turns = (("阿凯", "我那台卡罗拉又该保养了"), ("阿凯", "对啊 上周提的海豹 老卡罗拉卖了四万二"))
    assert ("阿凯", "car", "海豹") in facts_of_turns(*turns)


def test_a_partner_named_after_seeing_someone():
    turns = (
        ("Marcus", "so. ive been seeing someone"),
        ("assistant", "Oh? Tell me everything."),
        ("Marcus", "her name's lena, she's a paramedic"),
    )
    assert ("Marcus", "partner", "Lena") in facts_of_turns(*turns)
    # without the turn that says so, a name is no partner; nor is a word that is no name
    assert not any(
        a == "partner" for _, a, _ in facts_of_turns(("Marcus", "her name's lena, she's a paramedic"))
    )
    turns = (("Marcus", "ive been seeing someone"), ("Marcus", "her name's not important"))
    assert not any(a == "partner" for _, a, _ in facts_of_turns(*turns))


def test_whom_one_reports_to_named_after_the_verb():
    assert ("阿杰", "manager", "老邓") in own(
        "我们组现在直接汇报给一个新来的 叫老邓 还没摸清脾气", speaker="阿杰"
    )
    assert ("阿杰", "manager", "老邓") in own("现在汇报给老邓了", speaker="阿杰")
    assert not any(a == "manager" for _, a, _ in own("我每周汇报给领导", speaker="阿杰"))


def test_from_when_is_no_part_of_the_key_and_ones_manager_is_in_charge():
    turns = (("老周", "我们现在归刘姐管 人挺好"), ("老周", "还有 刘姐说三月起全勤奖涨到300 原来才200"))
    assert ("老周", "全勤奖", 300) in facts_of_turns(*turns)


def test_a_monthly_sum_of_what_one_signed_up_at_is_the_membership():
    said = own(
        "ok so i finally caved and signed up at Vertical Hive lol. $89/mo which is kinda steep",
        speaker="Dana",
    )
    assert ("Dana", "membership", "$89") in said
    turns = (
        ("Dana", "signed up at Vertical Hive lol. $89/mo which is kinda steep"),
        ("Dana", "cruxworks just emailed everyone, membership is going up to $71/month"),
    )
    assert ("Dana", "membership", "$71") in facts_of_turns(*turns)
    # a sum without its period, or without joining anything, is no membership
    assert not any(a == "membership" for _, a, _ in own("signed up at the climbing gym, paid $89 for shoes"))
    assert not any(a == "membership" for _, a, _ in own("the jacket was $89/mo on layaway"))


def test_it_is_the_speakers_one_animal():
    turns = (("橙子", "我家猫团子六个月了，约了下周三上午去做绝育"), ("橙子", "医生说它4.2公斤，有点偏胖"))
    assert ("团子", "weight", "4.2公斤") in facts_of_turns(*turns)
    # with two animals held, 它 is not guessed
    turns = (("橙子", "我家猫叫团子"), ("橙子", "我家狗叫雷克斯"), ("橙子", "它现在4.2公斤"))
    assert not any(s in ("团子", "雷克斯") for s, _, _ in facts_of_turns(*turns))


def test_how_long_and_how_far_are_no_values():
    assert {v.value for v in values("signed a 12 month lease, like 2 blocks from the office", NOW)} == set()
    assert "12" in {v.value for v in values("moved to desk 12", NOW)}


def test_a_pet_named_with_jiao_ta_and_renamed():
    turns = (("阿梅", "我领养了一只小黑猫！！！三个月大 暂时叫它煤球"),)
    assert ("阿梅", "cat.name", "煤球") in facts_of_turns(*turns)
    turns = (*turns, ("阿梅", "跟男朋友商量了 煤球太土了 改叫奥利奥"))
    assert ("阿梅", "cat.name", "奥利奥") in facts_of_turns(*turns)
    assert not any(a.endswith(".name") for _, a, _ in own("我不叫它煤球", speaker="阿梅"))


def test_the_one_a_role_was_swapped_to():
    turns = (("苏晴", "我的教练叫小杰"), ("苏晴", "无语 小杰离职了 健身房给我换了个教练 叫阿Ken"))
    assert ("苏晴", "coach", "阿Ken") in facts_of_turns(*turns)
    assert ("黄蕾", "coach", "马教练") in own("陈教练调去带校队了 换了个马教练 女的", speaker="黄蕾")
    assert not any(a == "coach" for _, a, _ in own("换了个老师", speaker="黄蕾"))


def _with_confirmed(*turns: tuple[str, str]) -> set[tuple]:
    """Every fact the last turn's delta holds, those said in an earlier turn's words too."""
    *before, (speaker, text) = turns
    recent = tuple(Turn(speaker=s, text=t, time=NOW) for s, t in before)
    said = Utterance(speaker=speaker, text=text, time=NOW, recent=recent, agent="assistant")
    delta = EXTRACTOR.extract(said)
    assert check_evidence(delta, text, said.recent) == []
    return {(f.subject, f.attribute, f.value, f.said_in) for f in delta.facts}


def test_the_agents_question_said_yes_to_is_the_users_statement():
    turns = (
        ("Theo", "the bus to harborview is 40 min each way, i miss my 6 min walk so much"),
        ("assistant", "Oh, you're working at the Harborview shop now?"),
        ("Theo", "yeah the transfer went through last week"),
    )
    assert ("Theo", "employer", "Harborview shop", 1) in _with_confirmed(*turns)
    # a question not said yes to states nothing
    unanswered = (*turns[:2], ("Theo", "the transfer went through last week"))
    assert not any(a == "employer" for _, a, _, _ in _with_confirmed(*unanswered))
    no = (*turns[:2], ("Theo", "no, i'm still at alder st"))
    assert ("Theo", "employer", "Harborview shop", 1) not in _with_confirmed(*no)


def test_a_change_made_for_the_speaker_is_theirs_not_the_one_holders():
    turns = (
        ("周阿姨", "好 我家老头子吃的是美托洛尔 他心率快"),
        ("周阿姨", "今天去社区医院复诊了 医生说我吃氨氯地平脚肿 给我换成缬沙坦了 80毫克 早上吃一次"),
    )
    said = facts_of_turns(*turns)
    assert ("周阿姨", "medication", "缬沙坦") in said
    assert not any(s == "周阿姨的老头子" for s, _, _ in said)


def test_the_one_joined_in_the_part_after():
    assert ("Kevin", "employer", "蓝鲸") in own(
        "不是哈哈 上周入职了 蓝鲸 给了运营主管的title", speaker="Kevin"
    )
    assert not any(a == "employer" for _, a, _ in own("入职了 好累", speaker="Kevin"))


def test_a_roles_new_holder_in_lower_case():
    assert ("Marisol", "manager", "Dmitri") in own("new manager is dmitri, starts oct 1", speaker="Marisol")
    assert not any(a == "manager" for _, a, _ in own("the new manager is great", speaker="Marisol"))


def test_where_one_went_from_and_how_long_since_joining():
    turns = (("陈默", "我老婆在腾讯"), ("陈默", "我老婆也跳槽了，从腾讯去了阿里"))
    assert ("陈默的老婆", "employer", "阿里") in facts_of_turns(*turns)
    assert not any(a == "employer" for _, a, _ in own("入职第一周，美团的食堂比我想象的好吃", speaker="陈默"))


def test_the_agent_restating_a_relatives_value_by_another_word_is_no_new_holder():
    turns = (
        ("老周", "帮我记一下，我妈的新手机号 13917264580，她之前那个号不用了"),
        ("assistant", "记下了：阿姨的手机号是13917264580。"),
        ("老周", "哎 我妈又换号了，现在是 18621095537"),
    )
    said = {(s, k, str(v)) for s, k, v in facts_of_turns(*turns)}
    assert ("老周的妈妈", "phone", "18621095537") in said
    assert not any("阿姨" in s for s, _, _ in said)
    # a reason said between the change and its value leaves the change its subject's
    turns = (*turns[:2], ("老周", "哎 我妈又换号了，说那个号老接到骚扰电话，现在是 18621095537"))
    said = {(s, k, str(v)) for s, k, v in facts_of_turns(*turns)}
    assert ("老周的妈妈", "phone", "18621095537") in said
    assert ("老周", "phone", "18621095537") not in said


def test_a_dose_one_was_started_on_and_one_taken_with_the_medicine_first():
    started = "Good afternoon. My doctor has started me on lisinopril, 10 mg once a day."
    assert ("Walter", "lisinopril", "10 mg") in own(started, speaker="Walter")
    wife = "My wife Dot takes amlodipine 5 mg and we keep mixing the bottles up, ha."
    assert ("Dot", "amlodipine", "5 mg") in own(wife, speaker="Walter")
    turns = (
        ("Walter", started),
        ("Walter", wife),
        ("Walter", "Pressure still too high so she's put me up to 20 mg."),
    )
    assert ("Walter", "lisinopril", "20 mg") in facts_of_turns(*turns)


def test_a_roles_name_is_the_role():
    assert ("Priya", "landlord", "Geoff") in own("my landlords name is Geoff", speaker="Priya")
    assert ("Priya", "dog.name", "Rex") in own("my dog's name is Rex", speaker="Priya")


def test_a_chinese_question_said_yes_to_and_ones_direct_manager():
    assert ("许诺", "manager", "老孙") in own("老孙是我的直属领导", speaker="许诺")
    turns = (
        ("许诺", "今天又被老孙骂了 嫌周报写得不够细"),
        ("assistant", "辛苦了，老孙是你的直属领导吗？"),
        ("许诺", "对 我们组长"),
    )
    assert ("许诺", "manager", "老孙", 1) in _with_confirmed(*turns)


def test_the_network_password_changed_by_another_speaker():
    turns = (
        ("Karen", "new router is in. wifi is Henderson5G, password tangerine42"),
        (
            "Phil",
            "changed the wifi password, someone was streaming from the driveway lol. its now BlueHeron!88",
        ),
    )
    assert ("Karen", "wifi_password", "BlueHeron!88") in facts_of_turns(*turns)


def test_a_value_said_after_from_is_what_it_was():
    turns = (
        ("老陈", "今年又没涨薪 月薪还是18000 税后到手一万四出头"),
        ("assistant", "理解你的郁闷。公司今年整体都没调吗？"),
        ("老陈", "说行情不好 冻结了 我老婆那边倒是涨了 她现在15000"),
        ("老陈", "汇报一下 年中谈下来了!! 涨到21500 这个月开始就按新的发"),
        ("assistant", "恭喜！从18000到21500，涨了将近20%，很不错了。"),
    )
    assert not any(str(v) == "18000" for _, _, v in facts_of_turns(*turns))


def test_changed_again_is_the_key_a_change_set():
    turns = (("爸爸", "家里门锁密码改成 520131 了，大家记一下"), ("爸爸", "听闺女的，又改了，现在是 860274"))
    assert {(s, a, str(v)) for s, a, v in facts_of_turns(*turns)} == {("爸爸", "家里门锁密码", "860274")}


def test_how_a_new_holder_compares_is_no_value():
    said = own(
        "new landlord is SO much better than geoff. Marcus fixed the shower in like a day", speaker="Priya"
    )
    assert not any(a == "landlord" for _, a, _ in said)


def test_a_change_announced_in_one_sentence_valued_in_the_next():
    said = own("我转科了！去了ICU 护士长换成郑护士长 超级严", speaker="小琴")
    assert ("小琴", "department", "ICU") in said
    assert ("小琴", "employer", "字节") in own("换工作了！现在在字节", speaker="小琴")
    assert not any(a == "employer" for _, a, _ in own("离职了。好累", speaker="小琴"))


def test_an_echo_leaves_no_old_value_standing_alone():
    turns = (
        ("爸爸", "家里门锁密码改成 520131 了，大家记一下"),
        ("assistant", "已记下：家里门锁密码520131。"),
        ("爸爸", "听闺女的，又改了，现在是 860274"),
        ("assistant", "已更新：门锁密码是860274。"),
    )
    # the agent restates 爸爸's new code: an echo, and nothing of 520131 stands alone after it
    assert _with_confirmed(*turns) == set()


def test_a_correction_part_in_the_middle_of_a_chinese_sentence():
    said = facts_of_turns(("老韩", "在考虑 车险5月9号到期 到期前定下来 不对 我看错了 是5月19号"))
    assert ("老韩", "车险.date", "2026-05-19") in said


def test_a_code_written_right_after_chinese_is_the_code_alone():
    text = "已更新：wifi密码改为Zh#home2026，名字还是Zhang_Home。"
    assert [v.value for v in values(text, NOW) if v.kind == "code"] == ["Zh#home2026"]


def test_a_bare_change_moves_the_held_thing_the_part_before_named():
    turns = (
        ("Amy", "公司体检约好了 5月12号早上 在美年 要空腹"),
        ("Amy", "12号要出差 体检只能往后挪 改到下周五了"),
    )
    said = facts_of_turns(*turns)
    assert ("Amy", "公司体检", "2026-03-13") in said
    assert not any(a == "出差.date" and v == "2026-03-13" for _, a, v in said)
