"""The third and fourth sets of Chinese probe conversations (see zh_probes.py), each written after the
grammar was fixed against the sets before it."""

from zh_probes import DAUGHTER, HUSBAND, ME, SON

# a third set, written after the second was fixed
GRANDMA = ME + "的奶奶"
CONVERSATIONS_3: list[tuple[str, list[tuple[str, set[tuple[str, str, object]]]]]] = [
    (
        "massage booking moved",
        [
            ("周日下午四点约了按摩。", {(ME, "按摩", "2026-03-08T16:00:00Z")}),
            ("店里说满了，改到五点。", {(ME, "按摩", "2026-03-08T17:00:00Z")}),
        ],
    ),
    (
        "grandma lives",
        [
            ("我奶奶一个人住在老家绍兴。", {(GRANDMA, "residence", "老家绍兴")}),
        ],
    ),
    (
        "husband drives",
        [
            ("我老公开的是大众。", {(HUSBAND, "car", "大众")}),
            ("他上个月换成理想了。", {(HUSBAND, "car", "理想")}),
        ],
    ),
    (
        "conference city",
        [
            ("年会在三亚开。", {(ME, "年会", "三亚")}),
            ("年会地点改了，改成厦门。", {(ME, "年会", "厦门")}),
        ],
    ),
    (
        "mortgage",
        [
            ("房贷每个月还6800。", {(ME, "房贷", 6800)}),
        ],
    ),
    (
        "dog age pronoun",
        [
            ("我家狗叫豆豆。", {("豆豆", "relation.dog_of", ME)}),
            ("它今年五岁了。", {("豆豆", "age", 5)}),  # 它: the speaker's one animal
        ],
    ),
    (
        "train time wrong",
        [
            ("高铁票是明天早上7点的。", {(ME, "高铁", "2026-03-03T07:00:00Z")}),
            ("写错了，是7点半。", {(ME, "高铁", "2026-03-03T07:30:00Z")}),
        ],
    ),
    (
        "office move",
        [
            ("我们公司在国贸。", set()),
        ],
    ),
    (
        "study language switched",
        [
            ("我在学日语。", {(ME, "learning", "日语")}),
            ("现在改学韩语了。", {(ME, "learning", "韩语")}),
        ],
    ),
    (
        "sister's wedding date",
        [
            # a plan, not married yet: the day of the wedding is the fact
            ("我姐下个月15号结婚。", {(f"{ME}的姐姐", "结婚.date", "2026-04-15")}),
        ],
    ),
    (
        "apology no value",
        [
            ("我的地址是朝阳区望京街5号。", {(ME, "address", "朝阳区望京街5号")}),
            ("抱歉，刚才打错字了。", set()),
        ],
    ),
    (
        "budget",
        [
            ("装修预算是二十万。", {(ME, "预算", 200000)}),
            ("预算提高到二十五万了。", {(ME, "预算", 250000)}),
        ],
    ),
    (
        "coworker named",
        [
            ("我同事小张住在通州。", {("小张", "residence", "通州")}),
            ("他搬到亦庄了。", {("小张", "residence", "亦庄")}),
        ],
    ),
    (
        "doctor appointment day only correction",
        [
            ("下周三复诊。", {(ME, "复诊", "2026-03-11")}),
            ("不对不对，是下周四。", {(ME, "复诊", "2026-03-12")}),
        ],
    ),
    (
        "suggestion no fact",
        [
            ("要不我们周末去爬山吧。", set()),
        ],
    ),
    (
        "hypothetical move",
        [
            ("我可能明年去深圳工作。", set()),
        ],
    ),
    (
        "kid's teacher",
        [
            ("我儿子的班主任是王老师。", {(SON, "班主任", "王老师")}),
            ("班主任换了，现在是李老师。", {(SON, "班主任", "李老师")}),
        ],
    ),
    (
        "mobile plan",
        [
            ("我的手机套餐每月58块。", {(ME, "套餐", 58)}),
        ],
    ),
]

# a fourth set, written after the third was fixed
CONVERSATIONS_4: list[tuple[str, list[tuple[str, set[tuple[str, str, object]]]]]] = [
    (
        "nail salon",
        [
            ("周三晚上七点做美甲。", {(ME, "美甲", "2026-03-04T19:00:00Z")}),
            ("改成八点了。", {(ME, "美甲", "2026-03-04T20:00:00Z")}),
        ],
    ),
    (
        "mother-in-law visit",
        [
            ("我婆婆住在长沙。", {(ME + "的婆婆", "residence", "长沙")}),
        ],
    ),
    (
        "phone plan price corrected",
        [
            ("宽带一年是1200块。", {(ME, "宽带", 1200)}),
            ("记错了，是1080。", {(ME, "宽带", 1080)}),
        ],
    ),
    (
        "meeting room",
        [
            ("明天的会在302会议室。", {(ME, "会", "302会议室")}),
            ("会议室换了，改到305。", {(ME, "会", "305")}),
        ],
    ),
    (
        "daughter's height",
        [
            ("我女儿现在一米三了。", {(DAUGHTER, "height", "一米三")}),
        ],
    ),
    (
        "tutor day",
        [
            ("儿子的钢琴课改到周六了。", {(SON, "钢琴课", "2026-03-07")}),
        ],
    ),
    (
        "neighbor chatter",
        [
            ("楼下邻居又在装修，吵死了。", set()),
        ],
    ),
    (
        "favourite restaurant",
        [
            ("我最喜欢的餐厅是鼎泰丰。", {(ME, "餐厅", "鼎泰丰")}),
            ("现在最喜欢的变成了西贝。", {(ME, "餐厅", "西贝")}),
        ],
    ),
    (
        "new job title",
        [
            ("我升职了，现在是部门经理。", {(ME, "job_title", "部门经理")}),
        ],
    ),
    (
        "cat vet corrected time",
        [
            ("猫咪周五上午十一点打疫苗。", {(ME + "的猫", "疫苗", "2026-03-06T11:00:00Z")}),
            ("不是十一点，是十点。", {(ME + "的猫", "疫苗", "2026-03-06T10:00:00Z")}),
        ],
    ),
    (
        "commute by bus",
        [
            ("我每天坐公交上班。", {(ME, "commute", "坐公交")}),
        ],
    ),
    (
        "girlfriend name",
        [
            ("我女朋友叫小雨。", {("小雨", "relation.girlfriend_of", ME), (ME, "girlfriend", "小雨")}),
            ("她在协和医院当护士。", {("小雨", "employer", "协和医院"), ("小雨", "job_title", "护士")}),
        ],
    ),
]

# not read yet: 会议室换了，改到305 keys the room apart from the meeting (现在最喜欢的变成了西贝, which
# names no thing, is read since replacements.py binds a value to the earlier one of its shape)
KNOWN_MISSES = frozenset({"meeting room"})
