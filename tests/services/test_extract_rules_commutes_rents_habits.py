"""How one gets to work, a rent said by what one pays and moved to a bare amount, a habit or an exercise
given up or changed, a medicine, a titled person switched to, a plural that names a held event, a clock
time said bare for a held moment, a city one goes to work in, and a date said with its weekday (zh)."""

from __future__ import annotations

from extract_helpers import own

from memql.services.extract.matching import QueryWords, match_score


def test_how_one_gets_to_work_and_its_change():
    bike = "I bike to work every day, it's about 20 minutes."
    assert own(bike, (), "Omar") == {("Omar", "commute", "bike")}
    assert own("Since the office moved I take the train instead.", (bike,), "Omar") == {
        ("Omar", "commute", "take the train")
    }
    # with no commute held, "instead" names no way to work; a walk of the dog is none either
    assert own("I take the train instead.", (), "Omar") == set()
    assert own("I walk the dog every morning.", (), "Omar") == set()
    assert match_score("Omar", "commute", ["bike"], QueryWords.of("How does Omar get to work?")) > 0


def test_a_rent_said_by_what_one_pays_and_moved_to_a_bare_amount():
    charges = "My landlord charges me $1,450 a month."
    assert own(charges, (), "Quin") == {("Quin", "rent", "$1,450 a month")}
    assert own("I pay 1,600 a month in rent.", (), "Quin") == {("Quin", "rent", "1,600 a month")}
    assert own("I pay 1,600 a month for the gym.", (), "Quin") == set()  # no rent
    renewed = own("Lease renewal came through, it's 1,525 now.", (charges,), "Quin")
    assert renewed == {("Quin", "rent", "$1,525 a month")}  # in the held value's own form
    later = (charges, "Lease renewal came through, it's 1,525 now.")
    assert own("Negotiated it back down to 1,490, not bad.", later, "Quin") == {
        ("Quin", "rent", "$1,490 a month")
    }
    # "it's 10 now" of one who holds a weight and no amount is the clock, not a new weight
    assert own("it's 10 now, gotta go", ("I weigh 210 pounds.",), "Al") == set()


def test_an_exercise_habit_and_a_habit_given_up():
    run = "我每天早上跑五公里。"
    assert own(run, (), "阿诚") == {("阿诚", "exercise", "跑五公里")}
    assert own("膝盖受伤了，现在改成游泳了。", (run,), "阿诚") == {("阿诚", "exercise", "游泳")}
    coffee = ("我每天喝两杯咖啡。", "最近睡不好，减到一杯了。")
    assert own("现在完全不喝咖啡了，改喝茶。", coffee, "小邹") == {
        ("小邹", "drink.amount", "完全不喝咖啡了"),
        ("小邹", "drink", "茶"),
    }
    assert own("我不喝咖啡了。", ("我每天喝两杯茶。",), "小邹") == set()  # the tea held is no coffee
    assert own("我戒烟了。", ("我每天抽一包烟。",), "小邹") == {("小邹", "smoking.amount", "戒烟了")}
    assert own("I quit coffee completely, just tea now.", ("I drink four coffees a day.",), "Al") == {
        ("Al", "coffee.per_day", 0)
    }
    assert own("I quit Deloitte.", ("I drink four coffees a day.",), "Al") == set()


def test_a_medicine_and_the_change_a_doctor_asks_for():
    pills = "我血压吃的是氨氯地平，一天一片。"
    assert own(pills, (), "老罗") == {("老罗", "medication", "氨氯地平")}
    assert own("医生让我改吃缬沙坦了。", (pills,), "老罗") == {("老罗", "medication", "缬沙坦")}
    assert own("我每天吃一片阿司匹林。", (), "老罗") == {("老罗", "medication", "阿司匹林")}
    assert own("我每天吃苹果。", (), "老罗") == {("老罗", "food", "苹果")}  # no medicine


def test_a_titled_person_switched_to_replaces_the_one_held():
    kline = "Our daughter's pediatrician is Dr. Kline."
    said = own("Dr. Kline retired, so we switched to Dr. Osei.", (kline,), "Uma")
    assert ("Uma's daughter", "pediatrician", "Dr. Osei") in said
    two = (kline, "My dentist is Dr. Shah.")
    assert all(
        f[1] != "pediatrician" and f[2] != "Dr. Osei" for f in own("We switched to Dr. Osei.", two, "Uma")
    )


def test_a_plural_names_the_held_event_and_a_bare_clock_keeps_its_day():
    held = "Parent-teacher conference is on the 12th."
    assert own("School emailed, conferences are now the 19th.", (held,), "Yusuf") == {
        ("Yusuf", "parent_teacher_conference", "2026-03-19")
    }
    assert own("My parents are in Spain.", (), "Yusuf") == set()
    cut = "My haircut is on the 9th at 2."
    for said in ("Salon called and moved my haircut to 4 the same day.", "Salon moved my haircut to 4."):
        assert own(said, (cut,), "Ida") == {("Ida", "haircut", "2026-03-09T16:00:00Z")}, said
    assert own("We now leave a day earlier.", ("Our flight to Rome is on the 14th.",), "Deb") == {
        ("Deb", "flight_to_rome", "2026-03-13")
    }
    plumber = "The plumber is coming tomorrow morning."
    assert own("Plumber just texted, he can't make it till Thursday.", (plumber,), "Ari") == {
        ("Ari", "plumber.come", "2026-03-05T06:00:00Z")
    }


def test_a_city_one_goes_to_work_in_and_not_a_trip():
    for said in ("小美去广州发展了。", "小美调到广州了。", "小美到广州工作了。"):
        assert own(said, ("我闺蜜小美在深圳做设计。",), "阿玲") == {("小美", "residence", "广州")}, said
    for trip in ("小美去了趟广州了。", "小美去医院了。", "小美去北京出差了。"):
        assert own(trip, (), "阿玲") == set(), trip


def test_a_chinese_date_with_its_weekday_is_one_day():
    held = ("聚会定在3月21号。", "聚会改到3月28号了。")
    assert own("聚会又提前到27号周五晚上了。", held, "小程") == {("小程", "聚会", "2026-03-27T18:00:00Z")}


def test_a_clock_kept_as_said_moved_and_back_again():
    standup = "Our team standup is at 9:15 every morning."
    assert own("New manager moved standup to 10.", (standup,), "Oli") == {("Oli", "team_standup", "10")}
    again = (standup, "New manager moved standup to 10.")
    assert own("Standup is back to 9:15 again, go figure.", again, "Oli") == {("Oli", "team_standup", "9:15")}
    assert own("Weather moved north to Ohio.", (standup,), "Oli") == set()  # a bare noun held only


def test_a_new_one_of_a_kind_held_found_and_a_pet_told_to_change():
    held = "My son's allergist is in Tacoma."
    assert own("We found a closer allergist in Olympia.", (held,), "Pam") == {
        ("Pam's son", "allergist", "in Olympia")
    }
    assert own("We found a new vet called Dr. Ruiz.", ("Our vet is Dr. Lee.",), "Pam") == {
        ("Pam", "vet", "Dr. Ruiz")
    }
    assert own("We found a closer allergist in Olympia.", (), "Pam") == set()
    dog = "我们家狗狗每天吃两顿。"
    assert own("兽医说狗狗太胖了，让它改成一天一顿。", (dog,), "小樊") == {
        ("小樊的狗", "food.amount", "一天一顿")
    }
    major = "我弟在读大三，学的是土木。"
    assert own("我弟转专业了，现在学计算机。", (major,), "阿良") == {("阿良的弟弟", "major", "计算机")}
    assert own("我在学日语。", (), "阿良") == {("阿良", "learning", "日语")}


def test_an_amount_by_its_period_a_bare_event_and_a_company_driven_for():
    assert own("换了家宽带，一年八百。", ("我的网费一年一千二。",), "小柴") == {("小柴", "网费", 800)}
    assert own("一年八百。", ("我今年30岁。",), "小柴") == set()  # an age is no amount
    assert own("Jury duty starts in ten days.", (), "Ty") == {("Ty", "jury_duty.start", "2026-03-12")}
    assert own("Got a deferral, jury duty is pushed a month.", ("Jury duty starts in ten days.",), "Ty") == {
        ("Ty", "jury_duty.start", "2026-04-12")
    }
    quit = own(
        "Jo quit the bakery and is driving for UPS now.",
        ("My partner Jo works nights at the bakery.",),
        "Val",
    )
    assert quit == {("Jo", "employer", "UPS")}


def test_a_household_move_said_without_a_verb_of_the_speakers():
    boise = "Quick update on life: we're in Boise now, my husband got transferred."
    moved = own(
        "Another move! Husband's company sent him to Spokane, so we packed up again.", (boise,), "Ana"
    )
    assert moved == {("Ana", "residence", "Spokane")}
    assert (
        own("We packed up the car and drove to Denver for the weekend.", ("We live in Boise.",), "Ana")
        == set()
    )
    assert own("Another move! Spokane or Tacoma, not sure yet.", (boise,), "Ana") == set()  # two: no guess
    suzhou = "跟你说一下，我们现在住在苏州。"
    assert own("又搬家了！老公公司把他派到无锡，我们就跟着过去了。", (suzhou,), "小林") == {
        ("小林", "residence", "无锡")
    }
    assert own("又搬家了！还在苏州。", (suzhou,), "小林") == {("小林", "residence", "苏州")}  # the same city


def test_an_age_after_a_birthday_and_a_renewal_good_till_a_day_next_year():
    assert own("我爸过完生日六十六了。", ("我爸今年六十五。",), "阿康") == {("阿康的爸爸", "age", 66)}
    held = "My car registration expires April 30."
    renewed = own("Renewed the registration online, good till April 30 next year.", (held,), "Ben")
    assert renewed == {("Ben", "car_registration.expiry", "2027-04-30")}
    assert own("We renewed our lease, it runs until June 2027.", (), "Ben") == {
        ("Ben", "lease.expiry", "2027-06")
    }


def test_a_value_then_the_one_it_is_not_and_a_precise_correction():
    meeting = "会议定在周三下午三点。"
    assert own("我刚才说错了，会议是周四不是周三。", (meeting,), "小A") == {("小A", "meeting", "2026-03-05")}
    assert own("她是老师不是医生。", (), "小A") == set()  # nobody named: nothing read
    assert own("准确地说是4月12号。", ("面试在4月10号。",), "小A") == {("小A", "interview", "2026-04-12")}
    assert own("To be precise, it's April 12.", ("My interview is on April 10.",), "Al") == {
        ("Al", "interview", "2026-04-12")
    }


def test_a_known_employer_said_alone_and_a_jump_from_one():
    assert own("我老公在阿里。", (), "小A") == {("小A的老公", "employer", "阿里")}
    assert own("我哥从腾讯跳到字节了。", ("我哥在腾讯。",), "小A") == {("小A的哥哥", "employer", "字节")}
    assert own("我在公司。", (), "小A") == set()  # no employer by name
    bank = ("我的工资卡是工商银行的。", "公司换了合作银行，工资卡换成招商银行了。")
    assert own("又换了，现在是建设银行。", bank, "小简") == {("小简", "工资卡", "建设银行")}


def test_a_sport_a_race_a_workplace_by_its_kind_and_who_runs_the_team():
    assert own("My son plays soccer.", (), "Al") == {("Al's son", "sport", "soccer")}
    assert own("He switched to basketball this season.", ("My son plays soccer.",), "Al") == {
        ("Al's son", "sport", "basketball")
    }
    assert own("I just picked up soccer shoes.", (), "Al") == set()
    assert own("I am training for a 10K.", (), "Al") == {("Al", "race", "10K")}
    assert own("Signed up for the half instead.", ("I am training for a 10K.",), "Al") == {
        ("Al", "race", "half")
    }
    assert own("My mom works at the library.", (), "Al") == {("Al's mother", "employer", "library")}
    retired = own("Mom retired from the library last week.", ("My mom works at the library.",), "Al")
    assert ("Al's mother", "employment_status", "retired") in retired
    assert own("Karen left, Tom is running the team now.", ("My boss is Karen.",), "Al") == {
        ("Al", "manager", "Tom")
    }
    assert own("Tom is running the marathon.", (), "Al") == set()
    assert own("Sis just closed on a house in Kentucky!", ("My sister lives in Ohio.",), "Al") == {
        ("Al's sister", "residence", "Kentucky")
    }


def test_who_one_knew_at_school_a_line_of_work_taken_in_and_an_exercise_changed():
    friend = "我大学室友阿杰在做外贸。"
    assert own(friend, (), "小A") == {("阿杰", "job_title", "外贸")}
    assert own("阿杰现在改做跨境电商了。", (friend,), "小A") == {("阿杰", "job_title", "跨境电商")}
    assert own("我在做饭。", (), "小A") == set()
    assert own("我妈最近改跳广场舞了。", ("我妈每天早上打太极。",), "小A") == {
        ("小A的妈妈", "exercise", "跳广场舞")
    }
    assert own("舅妈被接到城里和表哥一起住了。", ("我舅妈住在乡下。",), "小A") == {
        ("小A的舅妈", "residence", "城里")
    }


def test_a_relative_said_bare_goes_back_a_company_in_a_city_and_a_kindergarten_class():
    held = ("我表弟在武汉读大学。", "表弟毕业了，去了深圳一家公司。")
    assert own("表弟毕业了，去了深圳一家公司。", held[:1], "阿彬") == {("阿彬的表弟", "residence", "深圳")}
    assert own("表弟又回武汉了，说深圳压力太大。", held, "阿彬") == {("阿彬的表弟", "residence", "武汉")}
    assert own("我要回复他。", (), "阿彬") == set()
    assert own("我孙子在上幼儿园小班。", (), "老郑") == {("老郑的孙子", "grade", "幼儿园小班")}
    assert own("孙子升中班了。", ("我孙子在上幼儿园小班。",), "老郑") == {("老郑的孙子", "grade", "中班")}
    remodel = ("Our kitchen remodel starts next Monday.", "Contractor pushed the remodel back a week.")
    assert own("And now it's pushed another week, ugh.", remodel, "Tom") == {
        ("Tom", "kitchen_remodel.start", "2026-03-23")
    }


def test_a_value_changed_back_and_a_job_changed_again():
    meeting = ("开会定在周一。", "改到周三了。")
    assert own("最后又改回周一。", meeting, "小A") == {("小A", "开会", "2026-03-09")}
    assert own("现在又喝回咖啡了。", ("我每天喝咖啡。", "改喝茶了。"), "小A") == {("小A", "drink", "咖啡")}
    jobs = ("我在华为上班。", "我跳槽去了小米。")
    assert own("又换工作了，现在在OPPO。", jobs, "小A") == {("小A", "employer", "OPPO")}


def test_a_local_or_landline_number_a_bedtime_said_asleep_and_a_relatives_arrival():
    desk = own(
        "They gave me a new desk line: 555-0199. The old one's dead.",
        ("My work number is 555-0134.",),
        "Wade",
    )
    assert {f[2] for f in desk} == {"555-0199"}
    office = own("办公室搬了，电话也换了，新的是010-66885678。", ("我办公室电话是010-66881234。",), "小单")
    assert office == {("小单", "办公室电话", "010-66885678")}
    owl = ("I usually go to bed around 2am.",)
    assert own("New baby means I'm asleep by 10 most nights now.", owl, "Zed") == {("Zed", "bedtime", 10)}
    assert own("我公婆18号到。", (), "阿秀") == {("阿秀的公婆", "arrive", "2026-03-18")}
    assert own("公婆提前两天到了。", ("我公婆18号到。",), "阿秀") == {("阿秀的公婆", "arrive", "2026-03-16")}
    assert own("我18号到。", (), "阿秀") == set()  # the speaker's own coming names no event


def test_back_to_an_employer_or_a_city_a_job_found_there_and_a_workers_own_word():
    held = ("我老公在中石化上班。", "他跳到中海油去了。")
    assert own("他跳到中海油去了。", held[:1], "小邓") == {("小邓的老公", "employer", "中海油")}
    assert own("老公又回中石化了，说还是老单位好。", held, "小邓") == {("小邓的老公", "employer", "中石化")}
    assert own("我哥辞职回成都开火锅店了。", ("我哥在深圳做程序员。",), "小聂") == {
        ("小聂的哥哥", "residence", "成都")
    }
    abroad = ("我女儿在英国读书。",)
    assert own("女儿研究生毕业回国了，在上海找了工作。", abroad, "老丁") == {
        ("老丁的女儿", "residence", "上海")
    }
    visit = ("修暖气的师傅周三下午来。",)
    assert own("师傅说周三来不了，改周四上午。", visit, "阿满") == {
        ("阿满", "修暖气师傅.date", "2026-03-05T06:00:00Z")
    }
    assert own("I'm a night owl, usually in bed around 2am.", (), "Zed") == {("Zed", "bedtime", "2am")}
    nora = own("My wife Nora teaches 5th grade at Hillside.", (), "Abe")
    assert ("Nora", "teaching", "5th grade") in nora and ("Nora", "employer", "Hillside") in nora


def test_a_price_rise_of_a_thing_held_is_that_things_amount():
    held = ("孩子的托班一个月一千八。",)
    assert own("托班涨价了，现在一个月两千一。", held, "小鱼") == {("小鱼的孩子", "托班", 2100)}


def test_a_new_holder_by_surname_a_school_gone_to_and_a_relatives_dose_told():
    held = ("我们家保姆是王姐。",)
    assert own("王姐回老家了，新来的保姆姓赵。", held, "阿宝") == {("阿宝", "保姆", "赵保姆")}
    assert own("新来的同事姓赵。", (), "阿宝") == set()  # no colleague held: no one replaced
    assert own("我妹考上了，去北师大读研了。", ("我妹在考研。",), "小A") == {
        ("小A的妹妹", "school", "北师大")
    }
    assert own("我妹去北京读研了。", (), "小A") == {("小A的妹妹", "residence", "北京")}
    dose = ("我爸的降压药是一天两片。",)
    assert own("医生让我爸减到一天一片了。", dose, "小A") == {("小A的爸爸", "medication", "一天一片")}
