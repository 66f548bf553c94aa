"""An event's day and its venue named with "the" ("on June 20 at the Rosewood"), a move of the event that
binds its day (not its venue), a weight said as "Down to 195!" or "Weighed in at 188" in the unit held, and
a line of work named by its field (做后端, 带团队做技术经理)."""

from __future__ import annotations

from datetime import UTC, datetime

from extract_helpers import own

from memql.cognition.conversation.stale_forms import StoredFact, says_whole, short_stale, stale_forms

WEDDING = "Our wedding is on June 20 at the Rosewood."


def test_an_events_day_and_its_venue_and_a_move_of_its_day():
    day_and_venue = {("Bea", "wedding", "2026-06-20"), ("Bea", "wedding.location", "Rosewood")}
    assert own(WEDDING, (), "Bea") == day_and_venue
    moved = "We moved the wedding to June 27, the venue double-booked."
    assert own(moved, (WEDDING,), "Bea") == {("Bea", "wedding", "2026-06-27")}
    venue = "And now the venue is the Grand Hotel instead of the Rosewood."
    assert own(venue, (WEDDING,), "Bea") == {("Bea", "wedding.location", "the Grand Hotel")}
    # a place named by a name alone is the event's value, as before ("at Priya's on Saturday")
    assert own("The housewarming is at Priya's on Saturday.") == {("Mira", "housewarming", "Priya's")}


def test_a_weight_said_without_its_unit_or_weighed_in():
    held = ("I weigh 210 pounds.",)
    assert own("Down to 195!", held, "Ed") == {("Ed", "weight", "195 pounds")}
    assert own("Weighed in at 188 this morning.", held, "Ed") == {("Ed", "weight", 188)}
    assert own("Down to 195!", ("I weigh 210 pounds.", "My rent is 1200."), "Ed") == set()  # which: no guess


def test_the_number_of_a_measure_is_stale_in_the_message_that_said_it():
    said, replaced = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 9, 1, tzinfo=UTC)
    fact = StoredFact("f1", "Ed", "weight", "195 pounds", said, replaced, source="m2")
    assert "195" in {form for form, _, _ in short_stale([fact], replaced)["m2"]}
    # a weight held in 斤 is stale where its number is said alone (称了一下是135)
    jin = StoredFact("f2", "佳佳", "weight", "135斤", said, replaced, source="m3")
    assert "135" in stale_forms([jin], replaced)
    # ten thousands in digits with 万 (1.8万, 2万1), never a form cut short (1万, 2.1)
    pay = StoredFact("f3", "阿琳", "salary", 18000, said, replaced, source="m4")
    assert {"1.8万", "1万8"} <= set(stale_forms([pay], replaced))
    assert not {"1万", "1.8"} & set(stale_forms([pay], replaced))
    # thousands said with k are stale written out too (72k … "Is $72,000 in line?")
    offer = StoredFact("f4", "Ana", "salary", "72k", said, replaced, source="m5")
    assert {"72k", "$72,000", "72,000", "72000"} <= set(stale_forms([offer], replaced))


def test_a_day_and_a_month_are_stale_by_their_own_words_and_never_inside_another_number():
    said, replaced = datetime(2026, 6, 9, tzinfo=UTC), datetime(2026, 6, 12, tzinfo=UTC)
    day = StoredFact("f1", "小菲", "寿宴", "2026-06-20", said, replaced, source="m1")
    month = StoredFact("f2", "Nat", "wedding", "2027-06", said, replaced, source="m2")
    short = short_stale([day, month], replaced)
    assert {"20号", "20日"} <= {form for form, _, _ in short["m1"]}  # 定在20号
    assert {"june", "6月", "六月"} <= {form for form, _, _ in short["m2"]}  # next June, 明年六月结婚
    assert "jun 20" in stale_forms([day], replaced)
    assert not says_whole("jun 20", "9 jun 2026:") and says_whole("jun 20", "on jun 20.")


def test_a_line_of_work_named_by_its_field_in_chinese():
    before = ("我在字节做前端。",)
    assert own("转岗了，现在做后端。", before, "小马") == {("小马", "job_title", "后端")}
    assert own("又转了，现在带团队做技术经理。", before, "小马") == {("小马", "job_title", "技术经理")}


def test_relatives_said_together_are_one_subject_not_the_speaker():
    assert own("My parents live in Ohio.", (), "Jen") == {("Jen's parents", "residence", "Ohio")}
    moved = "My parents sold their house and moved to Arizona."
    assert own(moved, ("My parents live in Ohio.",), "Jen") == {("Jen's parents", "residence", "Arizona")}
    assert own("My grandparents live in Maine.", (), "Jen") == {("Jen's grandparents", "residence", "Maine")}
    # 我爸妈 and 我父母 are one couple
    assert own("我爸妈住在大连。", (), "小杨") == {("小杨的父母", "residence", "大连")}
    assert own("我父母搬到海南了。", ("我爸妈住在大连。",), "小杨") == {("小杨的父母", "residence", "海南")}


def test_rent_said_as_paid_and_corrected_as_a_slip_in_chinese():
    assert own("我月底要交房租三千二。", (), "阿伦") == {("阿伦", "rent", 3200)}
    assert own("口误，是三千五。", ("我月底要交房租三千二。",), "阿伦") == {("阿伦", "rent", 3500)}


def test_an_amount_held_is_stale_where_it_is_said_in_chinese_numerals():
    said, replaced = datetime(2026, 3, 2, tzinfo=UTC), datetime(2026, 3, 3, tzinfo=UTC)
    rent = StoredFact("f1", "阿伦", "rent", 3200, said, replaced, source="m1")
    assert {"三千二", "三千二百", "3200"} <= set(stale_forms([rent], replaced))
    big = StoredFact("f2", "阿伦", "deposit", 10500, said, replaced, source="m1")
    assert not any("万" in form for form in stale_forms([big], replaced))  # 一万零五百: not guessed


def test_an_age_by_a_birthday_a_grandchild_and_a_change_asked_for_in_chinese():
    assert own("我外孙女今年五岁。", (), "老吕") == {("老吕的外孙女", "age", 5)}
    assert own("外孙女上周过了六岁生日。", ("我外孙女今年五岁。",), "老吕") == {("老吕的外孙女", "age", 6)}
    meals = ("我家狗狗每天吃两顿。",)
    assert own("兽医让它改成一天三顿，少吃多餐。", meals, "阿静") == {("阿静的狗", "food.amount", "一天三顿")}


def test_what_someone_does_is_no_name_and_a_day_one_is_told_to_come_again():
    assert own("我男朋友是做销售的。", (), "小鲁") == {("小鲁的男朋友", "job_title", "销售")}
    changed = own("他转行当老师了，在一所中学教英语。", ("我男朋友是做销售的。",), "小鲁")
    assert ("小鲁的男朋友", "job_title", "老师") in changed
    shop = ("我表姐在杭州开了家奶茶店。",)
    assert own(shop[0], (), "小罗") == {("小罗的表姐", "job_title", "开了家奶茶店")}
    now = own("表姐的奶茶店关了，她现在在一家公司做会计。", shop, "小罗")
    assert ("小罗的表姐", "job_title", "会计") in now
    checkup = ("我的体检约在4月2号。",)
    told = own("医院打电话说那天设备检修，让我4月9号再去。", checkup, "老魏")
    assert told == {("老魏", "checkup", "2026-04-09")}
    draft = ("我这个月15号交论文初稿。",)
    assert own("导师让我月底再交。", draft, "小诸") == {("小诸", "交论文初稿.date", "2026-03-31")}


def test_a_spouse_by_a_word_without_gender_and_a_dose_raised_by_the_doctor():
    pills = ("我老伴每天吃一片降压药。",)
    assert own("医生给她加到两片了。", pills, "老邱") == {("老邱的老伴", "food", "两片")}
    assert own("我爱人在银行上班。", (), "老邱") == {("老邱的爱人", "employer", "银行")}
    served = own("我哥退伍了，在老家当了辅警。", ("我哥在部队当兵。",), "小万")
    assert ("小万的哥哥", "job_title", "辅警") in served


def test_a_plans_day_said_before_its_subject_and_work_found_in_a_city():
    plan = "下个月20号我要去深圳面试。"
    assert own(plan, (), "阿凯") == {("阿凯", "深圳面试.date", "2026-04-20")}
    assert own("面试提前了五天。", (plan,), "阿凯") == {("阿凯", "深圳面试.date", "2026-04-15")}
    found = own("佳琪毕业回国了，在上海找了份工作。", ("我闺蜜佳琪在伦敦读书。",), "小蓝")
    assert found == {("佳琪", "residence", "上海")}
    assert own("我在腾讯找了份工作。", (), "小蓝") == {("小蓝", "employer", "腾讯")}


def test_a_level_finished_is_no_name_and_a_living_said_after_a_move_home():
    phd = own("儿子博士毕业，去了苏州一所大学当老师。", ("我儿子在上海读博。",), "老姜")
    assert phd == {("老姜的儿子", "job_title", "老师")}  # 博士 is the level he finished, not his name
    driving = own("表哥把餐馆转让了，现在在跑滴滴。", ("我表哥在深圳开了家餐馆。",), "小刘")
    assert driving == {
        ("小刘的表哥", "job_title", "跑滴滴"),
        ("小刘的表哥", "employer", "滴滴"),
    }  # a known employer
    home = own("小雅辞职回老家长沙了，在那边开了个花店。", ("我闺蜜小雅在广州做设计。",), "婷婷")
    assert home == {("小雅", "residence", "长沙"), ("小雅", "job_title", "开了个花店")}


def test_a_habit_at_a_time_that_recurs_and_its_change_in_chinese():
    habit = "我老公每周五晚上打麻将。"
    assert own(habit, (), "阿月") == {("阿月的老公", "打麻将", "每周五晚上")}
    assert own("他现在改成周六下午打了。", (habit,), "阿月") == {("阿月的老公", "打麻将", "每周六下午")}
    assert own("我女儿每周六上午学钢琴。", (), "阿月") == {("阿月的女儿", "学钢琴", "每周六上午")}
