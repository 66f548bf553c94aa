"""A message no typed fact covers becomes history when a later change by the same speaker speaks of the
same thing (cognition/conversation/superseded.py; docs/conversation.md, Formation): labelled ``until
<date>:`` like a stale fact's line, never across people, never before the change is said or in force."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from conversation_helpers import LABEL, conversation, current

from memql.cognition.conversation.assemble import MessagePiece
from memql.cognition.conversation.formation import StoredFact
from memql.cognition.conversation.superseded import ending_clauses_last, label_superseded


def test_a_change_no_fact_covers_makes_the_earlier_message_history(memory):
    m = memory(actor="ren", embedder="minilm")  # a search by meaning finds the change (no shared word)
    conv = conversation(
        m,
        [
            ("user", "我在家附近的超级猩猩健身。", "2026-01-12T09:00:00Z"),
            ("assistant", "好的，超级猩猩离家近挺方便。", "2026-01-12T09:00:05Z"),
            ("user", "超级猩猩退了，办了乐刻的卡。", "2026-03-23T09:00:00Z"),
        ],
    )
    text = conv.context("我在哪健身？", budget_tokens=300).text
    assert "until 2026-03-23: [M1] ren: 我在家附近的超级猩猩健身。" in text
    assert "until 2026-03-23: [M2] assistant:" in text  # the reply that echoed it, too
    # the gym the first message's fact holds is history from then as well: the change spoke of it
    assert "until 2026-03-23: [M1] ren's gym: 家附近的超级猩猩" in text
    assert "乐刻" in current(text)
    # as of a day before the change, the first message is what is true: nothing is labelled
    then = conv.context("我在哪健身？", budget_tokens=300, as_of="2026-02-01")
    assert not LABEL.search(then.text) and "超级猩猩" in then.text and "乐刻" not in then.text


def test_the_vocabulary_relates_different_words_of_one_attribute(memory):
    m = memory(actor="kit", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My roommate Jess works nights at the hospital.", "2026-01-12T09:00:00Z"),
            ("user", "Jess got switched to the day shift finally.", "2026-03-23T09:00:00Z"),
        ],
    )
    text = conv.context("What shift does Jess work?", budget_tokens=300).text
    assert "until 2026-03-23: [M1]" in text and "day shift" in current(text)


def test_nothing_is_labelled_across_people_or_without_a_change(memory):
    m = memory(actor="oz", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "I'm vegetarian, no meat at the party please.", "2026-01-12T09:00:00Z"),
            ("user", "My sister went vegan last month.", "2026-03-23T09:00:00Z"),  # another person
            ("user", "The party is at the Lotus, vegetarian menu.", "2026-03-24T09:00:00Z"),  # no change said
        ],
    )
    text = conv.context("What's my diet?", budget_tokens=300).text
    assert not LABEL.search(text), text


def test_a_beginning_is_no_change_of_what_was_said_before():
    pieces = [
        _piece("[S1] mel: I love painting sunsets by the lake.", "2026-01-12T09:00:00Z", 1),
        _piece("[S2] mel: I started a new painting class, finally joined one.", "2026-03-01T09:00:00Z", 2),
    ]
    assert [p.text for p in label_superseded(pieces, datetime.fromisoformat("2026-03-02T00:00:00Z"))] == [
        p.text for p in pieces
    ]


def test_a_name_alone_is_no_anchor_of_what_changed(memory):
    m = memory(actor="kit", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My roommate Jess works nights at the hospital.", "2026-01-12T09:00:00Z"),
            ("user", "Jess finally got a new bike.", "2026-03-23T09:00:00Z"),
        ],
    )
    assert not LABEL.search(conv.context("What does Jess do?", budget_tokens=300).text)


def _piece(text: str, time: str, position: int) -> MessagePiece:
    return MessagePiece(
        text,
        (f"m{position}",),
        (f"S{position}",),
        "message",
        1.0,
        datetime.fromisoformat(time),
        position=position,
    )


def test_a_change_said_for_later_labels_nothing_yet():
    pieces = [
        _piece("[S1] ren: I bank with Chase.", "2026-01-12T09:00:00Z", 1),
        _piece("[S2] ren: Switching my bank to Ally.", "2026-03-01T09:00:00Z", 2),
    ]
    at = datetime.fromisoformat("2026-03-02T00:00:00Z")
    labelled = label_superseded(pieces, at)
    assert labelled[0].text == "until 2026-03-01: [S1] ren: I bank with Chase."
    assert labelled[1].text == pieces[1].text
    # the second message's fact starts on March 9: until then Chase is still the bank
    starts = datetime.fromisoformat("2026-03-09T00:00:00Z")
    later = label_superseded(pieces, at, [StoredFact("f1", "ren", "bank", "Ally", starts, None, "S2")])
    assert [p.text for p in later] == [p.text for p in pieces]
    # another speaker's change is not this speaker's
    other = [pieces[0], _piece("[S2] ana: Switching my bank to Ally.", "2026-03-01T09:00:00Z", 2)]
    assert [p.text for p in label_superseded(other, at)] == [p.text for p in other]


def test_a_restated_amount_or_head_count_is_labelled_as_the_value_it_was(memory):
    m = memory(actor="eli", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "Rent is $1,800 a month.", "2026-02-03T09:00:00Z"),
            ("user", "The landlord raised rent to $1,950.", "2026-04-14T09:00:00Z"),
            ("user", "After some back and forth we settled the rent at $1,900.", "2026-06-20T09:00:00Z"),
            ("user", "帮我订周五四个人的桌。", "2026-06-21T09:00:00Z"),
            ("assistant", "好的，四位。", "2026-06-21T09:00:05Z"),
            ("user", "不对，改成六个人，表哥他们也来。", "2026-06-21T09:01:00Z"),
        ],
    )
    rent = conv.context("How much is the rent?", budget_tokens=300).text
    assert "$1,900" in current(rent) and "$1,950" not in current(rent) and "$1,800" not in current(rent)
    table = conv.context("订了几个人的桌？", budget_tokens=300).text
    assert "六个人" in current(table) and "四位" not in current(table), table


def test_a_new_boss_ends_the_old_boss_relation(memory):
    m = memory(actor="ben", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My boss is Karen Liu.", "2026-01-12T09:00:00Z"),
            ("user", "Reorg happened, I report to Mark Diaz now.", "2026-03-23T09:00:00Z"),
        ],
    )
    now = conv.context("Who is my boss?", budget_tokens=300).text
    assert "Mark Diaz" in current(now) and "Karen" not in current(now), now
    assert "until 2026-03-23: [M1] Karen Liu's relation boss of was ben" in now
    then = conv.context("Who is my boss?", budget_tokens=300, as_of="2026-02-01").text
    assert "Karen Liu" in current(then) and "Mark" not in then


def _pair(said: str, later: str, day: str) -> list[str]:
    """The two lines' texts after labelling: `said` on 1 January, `later` on `day` (09:00 UTC), read the
    day after."""
    pieces = [_piece(said, "2026-01-01T09:00:00Z", 1), _piece(later, f"{day}T09:00:00Z", 2)]
    at = datetime.fromisoformat(f"{day}T09:00:00Z") + timedelta(days=1)
    return [p.text for p in label_superseded(pieces, at)]


def _ages(said: str, later: str, day: str = "2026-11-01") -> bool:
    texts = _pair(said, later, day)
    assert texts[1] == later  # the change itself is never labelled by this layer
    return texts[0] == f"until {day}: {said}"


def test_retiring_or_quitting_ends_what_was_said_of_work():
    assert _ages("[S1] hana: My dad still works full time as an engineer.", "[S2] hana: Dad finally retired!")
    assert _ages("[S1] 何雪: 我爸还在工厂上班。", "[S2] 何雪: 我爸上周终于退休了！")
    assert _ages(
        "[S1] 孙丽: 我老公在一所中学当数学老师。", "[S2] 孙丽: 我老公辞职了，现在自己开了一家咖啡店。"
    )
    # talk of work that ends nothing ages nothing: a new shift is not a new job
    work = "[S1] kit: I work at Google as a designer."
    assert not _ages(work, "[S2] kit: I'm on the night shift now, my job is the same.")
    assert not _ages(work, "[S2] kit: My mom retired last week.")  # a relative's retirement


def test_no_longer_said_in_chinese_and_no_more_in_english():
    assert _ages("[S1] 杨帆: 我室友小美在准备考研。", "[S2] 杨帆: 小美不考研了，她决定直接找工作。")
    assert _ages("[S1] 周雨: 团子每天吃皇家猫粮。", "[S2] 周雨: 兽医说团子要吃处方粮，皇家的不能吃了。")
    assert _ages(
        "[S1] dev: Pixel eats the kibble from Orijen.", "[S2] dev: Pixel is on a renal diet, no more Orijen."
    )
    # a judgement is no change: 还不错了 ages nothing
    assert not _ages("[S1] 杨帆: 我在准备考研。", "[S2] 杨帆: 考研复习进度还不错了。")


def test_a_marriage_a_school_transfer_and_quitting_smoking_are_changes():
    assert _ages("[S1] noah: My brother Luke is engaged to Dana.", "[S2] noah: Luke and Dana got married!")
    assert _ages("[S1] 周杰: 我哥和小芳订婚了。", "[S2] 周杰: 我哥和小芳周六结婚了！")
    assert _ages("[S1] 郑爽: 我表弟在武汉大学读医学。", "[S2] 郑爽: 表弟转学到华中科技大学了。")
    assert _ages("[S1] 林涛: 我爸每天抽一包烟。", "[S2] 林涛: 我爸戒烟三个月了！")


def test_a_discharge_ends_a_hospital_stay():
    stay = "[S1] sofia: Grandma is in St. Luke's hospital after her fall."
    assert _ages(stay, "[S2] sofia: Grandma was discharged!")
    assert _ages("[S1] 苏菲: 我奶奶摔了一跤，住在人民医院。", "[S2] 苏菲: 好消息，奶奶出院了，已经回家了。")
    assert not _ages(stay, "[S2] sofia: She's been moved to the ICU now.")  # a stay that goes on


def test_an_elder_brothers_move_ages_nothing_said_of_a_younger_one():
    assert not _ages("[S1] 小周: 我弟住在厦门。", "[S2] 小周: 我哥搬到佛山了。")
    assert _ages("[S1] 小周: 我哥哥住在广州。", "[S2] 小周: 我哥搬到佛山了。")


def test_graduating_ends_a_study():
    college = "[S1] ana: My daughter is in college in Boston."
    assert _ages(college, "[S2] ana: She graduated in May and works at a bank now.")
    assert _ages("[S1] 老王: 我女儿在上海读大学。", "[S2] 老王: 女儿毕业了，留在上海一家银行上班。")
    assert not _ages(college, "[S2] ana: She's graduating next year.")  # an ending still to come


def test_a_value_formed_later_ages_older_words_of_the_same_attribute(memory):
    """The rules read no employer in "works at a bakery downtown"; Jo's employer formed later ages it,
    whether or not the later message is in the context — and not what was said of someone else."""
    m = memory(actor="ella", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My brother works at a garage downtown.", "2026-02-01T08:59:00Z"),
            ("user", "My sister Jo works at a bakery downtown.", "2026-02-01T09:00:00Z"),
            ("assistant", "How's your sister doing?", "2026-06-01T09:00:00Z"),
            ("user", "Good! She's a pastry chef at the Ritz now.", "2026-06-01T09:00:05Z"),
        ],
    )
    text = conv.context("Where does Jo work?", budget_tokens=300).text
    assert "until 2026-06-01: [M2] ella: My sister Jo works at a bakery downtown." in text
    assert "Ritz" in current(text) and "until 2026-06-01: [M1]" not in text


def test_a_line_whose_only_my_is_a_relatives_is_about_the_relative():
    said = "[S1] jude: My daughter's piano lessons are on Mondays."
    assert _ages(said, "[S2] jude: Piano moved to Wednesdays for my daughter.")
    # "I" makes it the speaker's own, whoever else it names
    assert not _ages(said, "[S2] jude: I moved my piano lessons to Wednesdays.")


def test_the_agents_echo_of_a_line_made_history_is_history_too(memory):
    m = memory(actor="max", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "Dentist on Tuesday at 2.", "2026-05-18T09:00:00Z"),
            ("assistant", "Tuesday at 2, noted.", "2026-05-18T09:00:05Z"),
            ("assistant", "Anything else for the week?", "2026-05-18T09:00:09Z"),
            ("user", "Wait no, the dentist is Thursday at 2.", "2026-05-18T12:00:00Z"),
        ],
    )
    text = conv.context("When is my dentist appointment?", budget_tokens=300).text
    assert "until 2026-05-18: [M2] assistant: Tuesday at 2, noted." in text
    assert "Thursday" in current(text) and "Tuesday" not in current(text)
    assert "until" not in next(line for line in text.splitlines() if "Anything else" in line)


def test_a_later_value_of_a_key_the_vocabulary_lacks_ages_a_line_naming_it_with_a_number(memory):
    m = memory(actor="moe", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "I take metformin 500 mg.", "2026-03-13T09:00:00Z"),
            ("user", "I like metformin better than the old pills.", "2026-03-14T09:00:00Z"),
            ("user", "Doctor upped my metformin to 1000 mg.", "2026-08-13T09:00:00Z"),
        ],
    )
    text = conv.context("What dose of metformin do I take?", budget_tokens=300).text
    assert "until 2026-08-13: [M1] moe: I take metformin 500 mg." in text
    assert "until" not in next(line for line in text.splitlines() if "old pills" in line)  # no number


def test_a_british_spelling_of_an_attribute_still_speaks_of_its_fact(memory):
    m = memory(actor="ava", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My mom's favourite show is The Crown.", "2026-01-25T09:00:00Z"),
            (
                "user",
                "Mom's obsessed with Bridgerton these days, it's her new favourite.",
                "2026-06-25T09:00:00Z",
            ),
        ],
    )
    text = conv.context("What is my mom's favourite show?", budget_tokens=300).text
    assert "Crown" not in current(text) and "Bridgerton" in current(text)


def test_the_clause_of_a_change_that_names_what_ended_is_shown_last_as_history(memory):
    m = memory(actor="ana", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My husband Marco coaches the under-12 soccer team.", "2026-02-20T09:00:00Z"),
            (
                "user",
                "Marco stepped down from the soccer team, he's coaching basketball now.",
                "2026-06-18T09:00:00Z",
            ),
        ],
    )
    text = conv.context("What does Marco coach?", budget_tokens=300).text
    assert (
        "[M2] ana: he's coaching basketball now. — history: Marco stepped down from the soccer team," in text
    )
    assert "soccer" not in current(text).replace("history: Marco stepped down from the soccer team", "")


def test_a_clause_of_what_did_not_work_is_shown_last_as_history(memory):
    m = memory(actor="noor", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "vet thinks food allergy. switching biscuit to purina pro plan, the salmon one",
             "2026-02-03T15:00:00Z"),
            ("user", "salmon food didnt really help biscuit. vet put him on royal canin HP",
             "2026-03-10T20:00:00Z"),
        ],
    )  # fmt: skip
    text = conv.context("What food is Biscuit eating now?", budget_tokens=300).text
    assert "vet put him on royal canin HP — history: salmon food didnt really help biscuit." in text
    assert "salmon" not in "\n".join(line.split(" — history: ")[0] for line in current(text).splitlines())


def test_a_number_a_correction_rejects_makes_the_line_that_said_it_history(memory):
    m = memory(actor="阿杰", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "我们婚礼请了120位客人。", "2026-05-12T09:00:00Z"),
            ("user", "抱歉，是150位，不是120位。", "2026-05-13T09:00:00Z"),
        ],
    )
    text = conv.context("婚礼有多少客人？", budget_tokens=300).text
    assert "until 2026-05-13: [M1] 阿杰: 我们婚礼请了120位客人。" in text
    assert "[M2] 阿杰: 抱歉，是150位， — history: 不是120位。" in text


def test_an_ending_word_about_nothing_said_before_moves_nothing(memory):
    m = memory(actor="kai", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "I live in Leeds.", "2026-02-20T09:00:00Z"),
            ("user", "Not sure about dinner, I'm cooking pasta tonight.", "2026-06-18T09:00:00Z"),
        ],
    )
    text = conv.context("dinner pasta Leeds", budget_tokens=300).text
    assert "[M2] kai: Not sure about dinner, I'm cooking pasta tonight" in text and "history:" not in text


def test_the_line_that_said_what_an_ending_clause_ends_is_history(memory):
    m = memory(actor="ken", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My sister-in-law Rachel is a dentist in Leeds.", "2026-03-03T09:00:00Z"),
            ("user", "My dentist says I floss too little.", "2026-03-04T09:00:00Z"),
            ("user", "Rachel gave up dentistry and now runs a bakery.", "2026-08-03T09:00:00Z"),
        ],
    )
    text = conv.context("What does Rachel do?", budget_tokens=300).text
    assert "until 2026-08-03: [M1] ken: My sister-in-law Rachel is a dentist in Leeds." in text
    assert "[M3] ken: now runs a bakery. — history: Rachel gave up dentistry" in text
    assert "until" not in next(line for line in text.splitlines() if "floss" in line)  # not Rachel's


def test_what_one_does_now_beside_what_ended_parts_the_line(memory):
    """ "quit the bakery and is driving for UPS now" and 不学小提琴了，改学架子鼓: the clause naming what
    ended (a verb with its object in Chinese) is shown last as history, what one does now first."""
    m = memory(actor="val", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My partner Jo works nights at the bakery.", "2026-02-02T09:00:00Z"),
            ("user", "Jo quit the bakery and is driving for UPS now.", "2026-07-02T09:00:00Z"),
        ],
    )
    text = conv.context("Where does Jo work?", budget_tokens=300).text
    assert "[M2] val: is driving for UPS now. — history: Jo quit the bakery" in text
    assert "bakery" not in current(text).replace("history: Jo quit the bakery", "")
    m = memory(actor="小俞", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "我女儿跟着李老师学小提琴。", "2026-02-11T09:00:00Z"),
            ("user", "女儿不学小提琴了，改学架子鼓。", "2026-06-11T09:00:00Z"),
        ],
    )
    text = conv.context("女儿学什么乐器？", budget_tokens=300).text
    assert "[M2] 小俞: 改学架子鼓。 — history: 女儿不学小提琴了，" in text
    assert "小提琴" not in current(text).replace("history: 女儿不学小提琴了，", "")


def test_an_ending_of_a_verb_and_an_object_never_said_moves_nothing(memory):
    m = memory(actor="小俞", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "我女儿跟着李老师学小提琴。", "2026-02-11T09:00:00Z"),
            ("user", "今天不去游泳馆了，在家写作业。", "2026-06-11T09:00:00Z"),
        ],
    )
    text = conv.context("女儿今天做什么？", budget_tokens=300).text
    assert "history:" not in text and "不去游泳馆了，在家写作业" in text


def test_a_change_of_a_named_friend_ages_nothing_said_of_a_relative(memory):
    """ "Gwen moved to Austin" shares the attribute of "my brother lives in Denver", not the person: the
    facts of the two lines are about two people (Gwen is known as a best friend), so the brother's line
    and his fact stay current while Gwen's own earlier line becomes history."""
    m = memory(actor="tia", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My brother lives in Denver.", "2026-03-03T09:00:00Z"),
            ("assistant", "Nice city.", "2026-03-03T09:00:05Z"),
            ("user", "My best friend Gwen also lives in Denver.", "2026-03-03T10:00:00Z"),
            ("user", "Gwen just moved to Austin for a job.", "2026-07-03T09:00:00Z"),
        ],
    )
    text = conv.context("Where does my brother live?", budget_tokens=300).text
    assert "until 2026-07-03: [M3] tia: My best friend Gwen also lives in Denver." in text
    assert "[M1] tia: My brother lives in Denver." in current(text)
    assert "[M2] assistant: Nice city." in current(text)
    assert "brother's residence: Denver" in current(text)


def test_a_change_that_names_the_old_value_keeps_its_new_clausecurrent(memory):
    """ "李总离职了，现在我的领导是老陈" names the outdated boss as it says the new one: the line is not
    history as a whole; the clause that names what ended is shown last, labelled history."""
    m = memory(actor="小山", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "我领导是王姐。", "2026-02-11T09:00:00Z"),
            ("user", "部门调整，我现在归李总管。", "2026-05-11T09:00:00Z"),
            ("user", "李总离职了，现在我的领导是老陈。", "2026-08-11T09:00:00Z"),
        ],
    )
    text = conv.context("小山的领导是谁？", budget_tokens=300).text
    assert "[M3] 小山: 现在我的领导是老陈。 — history: 李总离职了，" in text
    assert "until 2026-08-11: [M2] 小山: 部门调整，我现在归李总管。" in text
    assert "李总" not in current(text).replace("history: 李总离职了", "")


def test_a_second_verb_in_the_past_parts_an_ending_from_what_began():
    said = "[S1] ray: My son plays soccer."
    later = "[S2] ray: He quit soccer and joined the swim team."
    pieces = [_piece(said, "2026-02-09T09:00:00", 0), _piece(later, "2026-08-09T09:00:00", 1)]
    text = "\n".join(p.text for p in ending_clauses_last(pieces, "assistant"))
    assert "[S2] ray: joined the swim team. — history: He quit soccer" in text


def test_what_followed_from_a_change_parts_an_ending_said_in_slang():
    said = "[S1] rae: paying for spotify premium again, ugh"
    later = "[S2] rae: my brother added me to his apple music family plan so i killed spotify. free music"
    pieces = [_piece(said, "2026-02-09T09:00:00", 0), _piece(later, "2026-08-09T09:00:00", 1)]
    text = "\n".join(p.text for p in ending_clauses_last(pieces, "assistant"))
    assert "— history: so i killed spotify" in text and "until 2026-08-09: [S1]" in text
    # "killed it" is praise, not an ending
    praise = _piece("[S2] rae: played spotify at the party so we killed it", "2026-08-09T09:00:00", 1)
    assert "history" not in "\n".join(p.text for p in ending_clauses_last([pieces[0], praise], "assistant"))


def test_a_question_about_a_named_relative_finds_their_facts_and_a_new_job_ends_what_they_did(memory):
    """ "What does Abby's husband do?" finds Tom's job (Tom is her husband); "Tom switched careers, he's a
    software tester now" makes "teaches math" history, and not Abby's own job."""
    m = memory(actor="abby", embedder="none")
    conv = conversation(
        m,
        [
            (
                "user",
                "Quick intro: I'm a nurse in Boston, and my husband Tom teaches math.",
                "2026-01-12T09:00:00Z",
            ),
            ("assistant", "Nice to meet you!", "2026-01-12T09:00:05Z"),
            ("user", "Tom switched careers, he's a software tester now.", "2026-05-12T09:00:00Z"),
        ],
    )
    text = conv.context("What does Abby's husband do?", budget_tokens=300).text
    assert "Tom's job title: software tester" in current(text)
    assert "math" not in current(text)
    assert "abby's job title: nurse" in current(text).casefold()


def test_the_weekday_a_moved_day_was_said_by_is_history_in_its_own_message(memory):
    """ "lunch on Thursday at noon" … "so lunch is Friday at noon now": the message that said Thursday
    is history; a weekday elsewhere is not (it is a stale form only where the old value was said)."""
    m = memory(actor="cy", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "Gym on Thursday as usual.", "2026-03-06T09:00:00Z"),
            ("user", "I'm meeting Jo for lunch on Thursday at noon.", "2026-03-07T09:00:00Z"),
            ("user", "Jo can't do Thursday, so lunch is Friday at noon now.", "2026-03-08T09:00:00Z"),
        ],
    )
    text = conv.context("When is lunch with Jo?", budget_tokens=300).text
    assert "until 2026-03-08: [M2] cy: I'm meeting Jo for lunch on Thursday at noon." in text
    assert "Friday" in current(text)


def test_a_degree_finished_ends_the_study():
    assert _ages("[S1] 老姜: 我儿子在上海读博。", "[S2] 老姜: 儿子博士毕业，去了苏州一所大学当老师。")


def test_a_new_job_ends_what_one_did_without_a_word_of_change(memory):
    m = memory(actor="val", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My husband Greg coaches high school basketball.", "2026-01-03T09:00:00Z"),
            ("user", "Greg took a job as athletic director at the same school.", "2026-07-03T09:00:00Z"),
        ],
    )
    text = conv.context("What is Greg's job?", budget_tokens=300).text
    assert "until 2026-07-03: [M1] val: My husband Greg coaches" in text
    assert "athletic director" in current(text)


def test_a_shop_closed_is_the_ending_clause_of_a_change(memory):
    m = memory(actor="老韦", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "我弟弟在杭州开奶茶店。", "2026-01-05T09:00:00Z"),
            ("user", "我弟把奶茶店关了，回老家种茶去了。", "2026-07-05T09:00:00Z"),
        ],
    )
    text = conv.context("弟弟现在做什么？", budget_tokens=300).text
    assert "[M2] 老韦: 回老家种茶去了。 — history: 我弟把奶茶店关了，" in text
    assert "until 2026-07-05: [M1] 老韦: 我弟弟在杭州开奶茶店。" in text


def test_a_reply_is_history_with_what_it_answered_even_when_that_message_is_not_shown():
    at = datetime.fromisoformat("2026-03-02T00:00:00Z")
    asked = "dana: signed up at Vertical Hive, $89/mo which is steep"
    reply = replace(
        _piece(
            "[S2] assistant: Nice! $89 a month is on the pricier side. Bouldering?", "2026-01-10T09:00:05Z", 2
        ),
        replied=asked,
    )
    change = _piece("[S3] dana: cancelled vertical hive, joined Cruxworks instead", "2026-02-14T09:00:00Z", 3)
    labelled = [p.text for p in label_superseded([reply, change], at)]
    assert labelled[0].startswith("until 2026-02-14: [S2] assistant:"), labelled
    # a reply to something else, or one that does not repeat what it answered, stays as it was
    other = replace(reply, replied="dana: my finger hurts, 5 days of rest")
    assert label_superseded([other, change], at)[0].text == other.text
    unrelated = replace(
        _piece("[S2] assistant: Bouldering or ropes?", "2026-01-10T09:00:05Z", 2), replied=asked
    )
    assert label_superseded([unrelated, change], at)[0].text == unrelated.text


def test_how_long_something_has_gone_on_is_no_change():
    pieces = [
        _piece("[S1] priya: can u help me email my landlord about the boiler", "2026-01-14T09:00:00Z", 1),
        _piece(
            "[S2] priya: keeps cutting out at night, 2 weeks now. landlords name is Geoff",
            "2026-01-14T09:01:00Z",
            2,
        ),
    ]
    at = datetime.fromisoformat("2026-02-01T00:00:00Z")
    assert [p.text for p in label_superseded(pieces, at)] == [p.text for p in pieces]
    moved = _piece("[S2] priya: my landlord is Geoff now", "2026-01-14T09:01:00Z", 2)
    assert label_superseded([pieces[0], moved], at)[0].text.startswith("until 2026-01-14: [S1]")
