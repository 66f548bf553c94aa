"""Chinese work, study and meetings (predicates_zh, places.works_for_zh, corrections_zh.agreed_change): a
known employer said with the work done there, a buddy as a friend, a school said short before 学 and its
field, whom one meets naming the meeting, and a change someone asked for that the speaker agreed to."""

from __future__ import annotations

from extract_helpers import facts, own

ME = "Mira"


def test_a_known_employer_with_the_work_done_there_and_a_buddy():
    assert own("我哥们老卡在顺丰开大车。") == {("老卡", "employer", "顺丰"), ("老卡", "job_title", "开大车")}
    assert own("我在美团送外卖。") == {(ME, "employer", "美团"), (ME, "job_title", "送外卖")}
    assert own("我在微软当工程师。") == {(ME, "employer", "微软"), (ME, "job_title", "工程师")}
    assert ("老卡", "relation.friend_of", ME) in facts("我哥们老卡在顺丰开大车。")  # 哥们: a buddy


def test_a_school_said_short_before_its_field():
    assert own("我外甥女露露在武大学护理。") == {("露露", "school", "武大"), ("露露", "major", "护理")}
    assert own("我在清华大学学计算机。") == {(ME, "school", "清华大学"), (ME, "major", "计算机")}
    assert not any(key == "major" for _, key, _ in own("我在武大学习。"))  # 学习 is studying, no field


def test_whom_one_meets_names_the_meeting_and_an_agreed_change_moves_it():
    meet = "我周四上午十点跟装修师傅碰头。"
    assert own(meet) == {(ME, "装修师傅碰头.date", "2026-03-05T10:00:00Z")}
    agreed = own("师傅发消息说能不能改下午两点，我答应了。", (meet,))
    assert agreed == {(ME, "装修师傅碰头.date", "2026-03-05T14:00:00Z")}
    assert own("师傅发消息说能不能改下午两点？", (meet,)) == set()  # asked, not agreed


def test_the_big_four_weighing_in_and_the_teacher_gone_to_now():
    said = own("家里最近：我姐在德勤上班，我哥还在毕马威。")
    assert ("Mira的哥哥", "employer", "毕马威") in said and ("Mira的姐姐", "employer", "德勤") in said
    weighed = own("今早称了一下，188。", ("我现在210斤，目标180。", "降到196了！"))
    assert weighed == {(ME, "weight", 188)}
    teacher = own("欧老师搬走了，现在跟贝老师学。", ("我儿子的钢琴老师是欧老师。",))
    assert teacher == {("Mira的儿子", "钢琴老师", "贝老师")}


def test_kin_words_moving_with_someone_and_back_to_the_hometown():
    aunt = "我姑妈住在宁波。"
    assert own(aunt) == {("Mira的姑妈", "residence", "宁波")}  # 姑妈, 女婿, 小舅子: kin words (kin_zh.py)
    assert own("姑妈跟着表哥去了苏州。", (aunt,)) == {("Mira的姑妈", "residence", "苏州")}
    assert own("姑妈在苏州住不惯，又回宁波了。", (aunt,)) == {
        ("Mira的姑妈", "residence", "宁波")
    }  # 住不惯: no home
    assert own("我妈跟着我爸去了深圳。") == {("Mira的妈妈", "residence", "深圳")}
    assert own("我跟着老板去了会议室。") == set()  # a room one went to is no home
    assert own("我女婿在中石化上班。") == {("Mira的女婿", "employer", "中石化")}
    assert own("我弟把奶茶店关了，回老家种茶去了。") == {("Mira的弟弟", "residence", "老家")}


def test_a_code_of_a_level_and_a_number_replaced_by_one_of_its_shape():
    spot = "我们家的车位是B2-105。"
    assert own("物业重新分配了，现在是B1-033。", (spot,)) == {(ME, "车位", "B1-033")}


def test_poached_by_a_kind_of_employer_and_the_work_there():
    said = own("小舅子被一家烤肉店挖走了，现在在那当店长。", ("我小舅子在海底捞当服务员。",))
    assert said == {("Mira的小舅子", "employer", "烤肉店"), ("Mira的小舅子", "job_title", "店长")}
