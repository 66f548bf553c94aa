"""The Chinese predicates beyond residence, work and status (predicates_at_verb_zh.py reads those):
habits (我每天喝美式, 我现在改喝绿茶了), studies (在读法学, 改读计算机), schools (在育才小学上学), cars
(开一辆丰田, 换了辆奥迪), amounts by the period (房租每个月4500), sizes (文化衫我要M码), party sizes
(订六个人的位子), the clock time of a ride (坐7点45的地铁) and dated events without a copula (合同下周五签,
搬家公司两周后来, 我后天飞哈尔滨). Floors are floors.py's, an instrument or a race pursuits_zh.py's, a
change announced in one part and valued in the next announced_zh.py's.
"""

from __future__ import annotations

import re
from datetime import timedelta
from itertools import pairwise

from memql.lang.time.numbers import parse_zh_number, whole_number

from .common import HEDGED, Reading, latest_held, time_value
from .floors import floor_zh
from .habits_zh import HABIT_KEYS, HABIT_WORDS, habit_change
from .patterns_zh import _STATUSES, HOLIDAYS_ZH, ZH_AMOUNT_TO, ZH_MOVED_TO
from .places import followed_to_zh, is_employer_zh, is_place_zh, works_for_zh
from .pursuits_zh import pursuit_zh
from .values_zh import add_fact, add_match, key_of, names_no_key, said_like

_CLAUSE = r"[^，,。；;！!？?]"
_HABIT = re.compile(
    r"(?P<change>改成?|换成?|转而|开始|在)?(?P<verb>喝|吃|抽|用|学|练|玩)(?:的是|回)?"  # 又喝回咖啡了
    r"(?:一|两|半)?(?:杯|瓶|碗|份|罐|根|包)?(?:点|一点|很多|一些|些)?(?!过|了|完|得|的|着)(?P<v>"
    + _CLAUSE
    + r"{1,12}?)(?:了|啦|呢|吧)?$"
)
# 我每天早上一杯美式: a habit of a drink said by its cup, without the verb
_CUP = re.compile(
    r"(?:早上|早晨|上午|中午|下午|晚上|睡前|饭后)?(?:都|就|要|得)?(?:一|两|半)(?:杯|罐|瓶)(?P<v>"
    + _CLAUSE
    + r"{1,10}?)(?:了|啦|呢)?$"
)
_COMMUTE = re.compile(  # 我每天骑车上班, 我现在改坐地铁上班了: how one gets to work or school
    r"(?P<change>改|换成?|开始)?(?P<v>骑电动车|骑自行车|骑车|开车|坐地铁|坐公交车?|坐班车|坐高铁|打车|走路|步行|坐轮渡|"
    r"开[\u4e00-\u9fffA-Za-z0-9]{2,6}?(?=上班|去公司|去单位))"  # 开帕萨特上班: driving, by the car
    r"(?:去)?(?:上班|上学|去公司|去学校|去单位|通勤)?(?:了|啦)?(?=[，,。]|$)"
)
_WORKOUT = re.compile(  # 我在一兆韦德健身, 我换到了威尔士健身: where one works out
    r"(?:在|换到了?|换去了?|改去了?|转到了?)(?P<v>"
    + _CLAUSE
    + r"{2,10}?)(?:健身|锻炼|撸铁|练器械)(?:了|呢|啦)?$"
)
_EACH_PERIOD = re.compile(r"(?:一|每)(?:天|日|周|星期|个月|晚)")
_PER_PERIOD = re.compile(  # 抽一包烟, 只抽五根, 喝三杯咖啡: the amount kept, with what it is of
    r"(?:(?:一|每)(?:天|周|晚))?(?:只|就|才|大概|差不多)*(?P<verb>喝|吃|抽)(?P<v>(?:[0-9]{1,2}|[一两二三四五六七八九十半]{1,3})"
    r"(?:杯|瓶|碗|份|罐|根|包|支|顿|个|片|粒|颗)[\u4e00-\u9fff]{0,4}?)(?:了|啦|左右)?$"
)
_STUDY = re.compile(
    r"(?:在读|主修|改读|改学|转读|转专业(?:到了?|去了?|读|学|念)?|读的是|学的是)(?P<v>"
    + _CLAUSE
    + r"{1,10}?)(?:专业|系)?(?:了|啦|呢)?$"
)
_GRADE_YEAR = r"[一二三四五六]年级|(?:高|初|大|研)[一二三四]"  # 三年级, 高二
_GRADE = re.compile(  # 在读高三, 在读研究生: a grade, not a field of study
    _GRADE_YEAR + r"|小学|初中|高中|大学|研究生|博士|硕士|本科|研|博"
)
_SCHOOL_GRADE = re.compile(  # 上小学二年级, 升三年级了, 读高二, 我现在大四了: the grade one is in
    # 上周开学升五年级了: the term's start before it
    r"(?:(?:上周|这周|本周|昨天|今天|前天|九月|9月)?开学(?:了|后|就)?[，,]?)?"
    r"(?:在|已经|马上|就要|要)?(?:(?:上|读|念|升|升到|升上|进|进入)了?(?:小学|初中|高中|大学)?|是|"
    r"(?:都)?(?=\S+(?:了|啦)$))"
    r"(?P<v>"
    + _GRADE_YEAR
    + r"|幼儿园(?:[大中小]班)?|[大中小]班)(?:的)?(?:新生|学生)?(?:了|啦|呢)?$"  # 大一新生
)
# 在复旦读生物: the school after 在 and the field after the verb of study (读书, 读高二 are no field)
_SCHOOL_AND_FIELD = re.compile(
    r"在(?P<school>"
    + _CLAUSE
    + r"{2,10}?)(?P<verb>读|(?<![中小附])学|念|主修)(?P<v>(?![读学念习])"  # 在武大学护理: 武大
    + _CLAUSE
    + r"{1,8}?)(?:专业|系)?(?:了|啦|呢)?$"
)
# universities by the short names people use (考上浙大了): a school without 大学 in its name
_UNIVERSITIES = (
    r"清华|北大|浙大|复旦|上交|交大|南大|人大|中大|武大|川大|厦大|同济|哈工大|华科|中科大|北航|北师大|南开|天大|"
    r"山大|西交|东大|华师大|北外|上外|港大|港中文"
)
_SCHOOL = re.compile(
    r"在(?P<v>"
    + _CLAUSE
    + r"{2,12}?)(?:上学|读书|念书|就读|读研|读博|读大学|读高中|读初中|读小学)(?:了|啦|呢)?$|"
    r"在(?P<v3>"
    + _CLAUSE
    + r"{1,10}?(?:幼儿园|托儿所|小学|中学|高中|初中|附小|附中|大学|学院))(?:了|呢|啦)?$|"
    r"(?:转学到了?|转学去了?|转到了?)(?P<v2>" + _CLAUSE + r"{2,12}?)(?:上学|读书|念书|就读)?(?:了|啦|呢)?$|"
    # 上了橡树中学, 考上了复旦大学: a school by the word that names it as one
    r"(?:上了|进了|考上了?|考进了?|升入了?|进入了?|开始上|上|去了(?!一?趟)|转去了?)(?P<v4>"
    + _CLAUSE
    + r"{1,10}?(?:幼儿园|托儿所|小学|中学|高中|初中|附小|附中|大学|学院|(?<!开)学校)|"
    + _UNIVERSITIES
    + r")(?:了|啦|呢)?$"
)
_NUMBER = r"(?:[0-9]{1,3}(?:\.[0-9])?|[一二两三四五六七八九十百]{1,4})"
_MEASURES = (  # 我现在62公斤了, 身高一米七: a weight or a height, in the words said
    (
        re.compile(
            r"(?:体重)?(?:有|是|已经|才|只有|都)?(?:瘦到|胖到|降到|涨到|减到|长到|掉到|称了?|秤了?|测了?)?"
            r"(?P<v>" + _NUMBER + r"(?:公斤|斤|千克|kg))(?:了|啦)?$"
        ),
        "weight",
    ),
    (  # 体重52了, 现在体重53.5: a number said of one's weight, its unit unsaid
        re.compile(r"体重(?:现在|已经|又|都)?(?:有|是|才|只有)?(?P<v>" + _NUMBER + r")(?:了|啦)?$"),
        "weight",
    ),
    (  # 瘦到85了: a number one slimmed or grew to is a weight, its unit unsaid
        re.compile(
            r"(?:已经|才|又|都)?(?:瘦到|胖到|减到|瘦了?到|长胖到|称了?一下是?|称|秤)(?P<v>"
            + _NUMBER
            + r")(?:了|啦)?$"
        ),
        "weight",
    ),
    (
        re.compile(
            r"(?:身高)?(?:有|是|已经|才|只有)?(?P<v>一米[0-9一二三四五六七八九]{1,2}|"
            + _NUMBER
            + r"(?:厘米|cm))(?:了|啦)?$"
        ),
        "height",
    ),
)
_HEADCOUNT = re.compile(  # 我们部门有十二个人: a headcount, in the words said
    r"(?P<thing>" + _CLAUSE + r"{1,6}?)(?:现在|目前|一共|总共|已经)*(?:有|是|共)"
    r"(?P<v>(?:[0-9]{1,4}|[一二两三四五六七八九十百]{1,4})(?:个人|人|名员工|个员工|位员工|名学生|个学生|个成员|名成员|"
    r"位成员|个会员|名会员|个队员|名队员))(?:了|啦)?$"
)
_CAR = re.compile(
    r"(?:开着?|换了?|买了?|换成了?|提了)(?:一|新)?(?P<cl>辆|台)(?:新的?)?(?P<v>"
    + _CLAUSE
    + r"{1,12}?)(?:了|啦)?$"
)
_PERIOD = r"(?:每个?月|一个月|每年|一年|每周|一周|每天|一天)"
_AMOUNT = re.compile(
    r"(?P<attr>"
    + _CLAUSE
    + r"{0,8}?)"
    + _PERIOD
    + r"(?:的)?(?:是|要|交|付|花|赚|挣|拿|还|存|收|涨到|降到|变成)?"
    r"(?P<n>[0-9]+(?:\.[0-9]+)?|[零〇一二两三四五六七八九十百千万]{1,10})(?P<unit>块钱?|元|万|千|[kKwW](?![A-Za-z]))?(?:了|啦|呢)?$"
)
# 我月薪一万二, 工资涨到一万五了: an amount after an attribute whose values are numbers (no period said)
_PLAIN_AMOUNT = re.compile(
    r"(?P<attr>"
    + _CLAUSE
    + r"{1,6}?)(?:现在|目前|已经|也|才|都)*(?P<change>"
    + ZH_AMOUNT_TO
    + r"|提高到|降低到|变成)?"
    r"(?:是|有|为|只有|大概|差不多)?"
    r"(?<![周期拜0-9.])(?P<n>[0-9]+(?:\.[0-9]+)?|[一二两三四五六七八九十百千万]{1,10})(?P<unit>块钱?|元|万|千|[kKwW](?![A-Za-z]))?"
    r"(?:/?(?:一个月|每个?月|一年|每年))?"  # 房租3200一个月: the period after the amount
    r"(?:(?:了|啦|呢)?$|(?<=[kKwW万千元])(?=在))"  # 月薪18k在杭州算啥水平: the amount, then where
)
_WEEKDAY_AFTER = re.compile(r"周[一二三四五六日天]$")  # 改到每周四了: a day of the week, no amount
_PAID = re.compile(
    r"(?:每个?月|月底|月初|每年|每季度)?(?:都|要|得)*(?:交|付|还)(?P<attr>房租|租金|物业费|学费|月供|房贷|车贷|水电费)"
    r"(?:是|要)?(?P<n>[0-9]+(?:\.[0-9]+)?|[一二两三四五六七八九十百千万]{1,10})(?P<unit>块钱?|元|万|千|[kKwW](?![A-Za-z]))?(?:了|啦|呢)?$"
)
_SIZE = re.compile(
    r"(?P<thing>" + _CLAUSE + r"{1,8}?)(?:我们|我)?(?:要|穿|买|订|选|拿)(?:的是)?"
    r"(?P<v>[A-Za-z0-9]{1,4}(?:码|号)|(?:特大|加大|大|中|小)(?:码|号))(?:的)?(?:吧|了|啦)?$"
)
_PARTY = re.compile(
    r"(?P<v>(?:[0-9]{1,3}|(?<![周期拜])[一二两三四五六七八九十]{1,3})(?:个人|位|人))的(?P<thing>位子|座位|桌子?|包间|包厢|房间|票)"
)
_RIDE = re.compile(
    r"(?:坐|搭|乘|赶|坐上|搭乘)(?P<t>"
    + _CLAUSE
    + r"{2,10}?)(?:的(?P<vehicle>地铁|公交车?|火车|高铁|动车|航班|飞机|"
    r"班车|大巴|轮渡|船)|的?那(?:一)?班(?:车)?)"  # 坐7点40那班: the one the held ride's time names
)
_EVENT = re.compile(
    r"(?:就|才|要|会|将|再|开始|能|可以|得|打算|计划|准备|想)*(?:在(?P<place>" + _CLAUSE + r"{1,8}?))?"
    # 跟装修师傅碰头: whom one meets names the event
    r"(?:(?:跟|和|与|同)(?P<with>[\u4e00-\u9fff]{1,6}?)(?=碰头|碰面|见面|会面|见|聊|吃饭|开会))?"
    # 坐飞机过来: arriving, however one travels
    r"(?P<vp>(?:(?:坐|乘|搭)(?:飞机|高铁|火车|动车|大巴|汽车|船)|开车)(?:过来|回来|来|到)|碰头|碰面|会面|"
    r"(?:去|来)?(?:签|来|到|去|飞|走|回|做|发|出发|动身|启程|开|交|办|打|见|搬|考|"
    r"面试|体检|复查|上课|开学|放假|报到|入职|出院|住院|手术|比赛|演出|交付|上线|发布|接|送|取|领|参加|举行|举办|"
    r"出差|旅游|度假|探亲|"
    r"吃|喝|聚|约|理发|剪|看|逛|爬|唱|洗|练|学|健身|踢|玩|拍|修|装|遛|按摩|毕业|复诊|就诊|"
    r"打针|检查|产检|拔牙|补牙|拔|种牙|落地|降落|起飞|抵达|到达|登机|截止|生(?!日)|分娩|临盆|结婚|办婚礼|保养|年检|"
    r"维修|换油)" + _CLAUSE + r"{0,8}?)?(?:了|吧|啦|呢)?$"
)
_HOW_ONE_CAME = re.compile(
    r"^(?:(?:坐|乘|搭)(?:飞机|高铁|火车|动车|大巴|汽车|车|船)|开车|飞(?=过?来)|(?:出差|旅游|度假|探亲)(?=回来))"
)
_TRIP_TO = re.compile(r"去(?P<v>[\u4e00-\u9fff]{2,6})")
_HOLIDAY = re.compile(r"(?:这|下)?(?:" + "|".join(HOLIDAYS_ZH) + ")")
_GIVING_BIRTH = re.compile(r"生(?:孩子|宝宝|娃|二胎|老二)?|分娩|临盆")
_RESCHEDULE = re.compile(r"(?:改到|改在|改成|" + ZH_MOVED_TO + r")了?$")
_CLOCK_ZH = r"(?P<v>(?:晚上|早上|夜里)?[0-9一二两三四五六七八九十]{1,3}点(?:半|[0-9]{2}分?)?)"
_SLEEP = re.compile(rf"(?:{_CLOCK_ZH})?(?:左右)?(?:就|才)?(?:睡觉|睡了|睡|上床|(?P<up>起床))(?:了)?[。！!]*$")
_CLOCK_BEFORE = re.compile(_CLOCK_ZH + r"(?:左右)?(?:就|才)?$")
_NOT_PERSON = re.compile(r"我|你|他|她|自己|大家|谁|公司|部门|团队")
# 我现在归李总管, 改向老陈汇报了: whom one reports to is one's manager (one at a time)
_REPORTS_TO = re.compile(
    r"(?:改|转)?(?:归|由|向|跟)(?P<v>[^，,。！!？?的]{1,4}?)(?:管|带|直接管|负责|汇报)(?:了|啦|呢)?[。！!]*$"
)

# 直接汇报给老邓, 汇报给一个新来的 叫老邓: the one reported to, named after the verb (also in the next words)
_REPORTS_TO_NAMED = re.compile(
    r"(?:直接|改成|改为|改)?汇报给(?:了)?(?:(?:一个)?新来的(?:领导|经理|主管|人)?[，, ]*叫)?"
    r"(?P<v>(?![一个新]|(?:领导|老板|经理|主管|上级|上司|公司|部门)(?![\u4e00-\u9fff]))"
    r"[^，,。！!？?\s的了]{2,4}?)(?:了|啦|呢)?(?=[。！!，,\s]|$)"
)


def _holds_car(r: Reading, subject: str) -> bool:
    """换了台RAV4: 台 counts a car only of one who drives one (it counts a phone or a computer too)."""
    return any(d.subject == subject and d.attribute == "car" for d in r.earlier)


def _in_college(r: Reading, subject: str) -> bool:
    """The subject holds a major or a grade at college (大二, 研一), said before or earlier in the message."""
    return any(
        d.subject == subject
        and (d.attribute == "major" or (d.attribute == "grade" and re.match(r"[大研]", str(d.value))))
        for d in (*r.earlier, *r.facts)
    )


def verb_states(r: Reading, subject: str, a: int, verb_at: int, b: int, confidence: float, correction: bool):
    """A predicate at the verb of a part: a habit, a study, a school, a car or the clock time of a ride."""
    s = r.text
    sleep_at = verb_at - 1 if s.startswith("起床", verb_at - 1) else verb_at  # 7点起 read as "from 7"
    if (m := _SLEEP.match(s, sleep_at, b)) is not None:
        # 我一般11点睡觉, 现在10点就睡了, 每天7点起床: the clock time said with the verb or just before it
        clock = m if m["v"] else _CLOCK_BEFORE.search(s, a, sleep_at)
        if clock is not None:
            key = "wake_time" if m["up"] else "bedtime"
            add_fact(r, subject, key, clock["v"], a, b, confidence, correction, "text", clock.span("v"))
            return True
    m = _REPORTS_TO.match(s, verb_at, b) or _REPORTS_TO_NAMED.search(s, a, min(len(s), b + 8))
    if m is not None and not _NOT_PERSON.match(m["v"]):
        return add_match(r, subject, "manager", m, a, b, confidence, correction, "person")
    if (m := _WORKOUT.match(s, verb_at, b)) is not None and not r.times_in(a, b):
        return add_match(r, subject, "gym", m, a, b, confidence, correction, "place")
    if (m := _COMMUTE.match(s, verb_at, b)) is not None and (
        s[m.end() - 1] in "班学司校位勤了啦" or re.search(r"每天|天天|平时|现在|一般", s[a:verb_at])
    ):  # 我现在天天坐地铁: a ride said of every day is how one gets to work
        return add_match(r, subject, "commute", m, a, b, confidence, correction, "text")
    if pursuit_zh(r, subject, a, verb_at, b, confidence, correction):
        return True  # an instrument played, a race trained for (pursuits_zh)
    if habit_change(r, subject, a, verb_at, b, confidence, correction):
        return True  # an exercise, a medicine, a habit given up (habits_zh)
    if (
        (m := _PER_PERIOD.match(s, verb_at, b)) is not None
        and _EACH_PERIOD.search(s, a, m.start("verb"))
        and not (m["verb"] in "喝吃" and re.match(r"[一1](?![0-9])", m["v"]))  # 每天喝一杯热牛奶: the drink
    ):
        # 我一天抽一包烟 … 一天只抽五根了: how much, for a habit said per day or week
        key = HABIT_KEYS.get(m["verb"], m["verb"]) + ".amount"
        return add_match(r, subject, key, m, a, b, confidence, correction, "text")
    habit = _HABIT.match(s, verb_at, b)
    if (
        habit is not None
        and (habit["change"] != "在" or habit["verb"] in "学练")  # 在学 is a study; 在吃 only now
        # 我儿子在读大二，学计算机: 学 of one at college is the major
        and (
            habit["change"]
            or HABIT_WORDS.search(s, a, verb_at)
            or (habit["verb"] == "学" and _in_college(r, subject))
        )
        and not any(p.match(s, verb_at, b) for p, _, _ in _STATUSES)  # 我现在吃素了 is the diet
    ):
        key = HABIT_KEYS.get(habit["verb"], habit["verb"])  # 我在学日语 -> 改学韩语了: keyed by the verb
        if key == "learning" and _in_college(r, subject):
            key = "major"  # 学的是土木 … 转专业了，现在学计算机: what one studies is the major held
        return add_match(r, subject, key, habit, a, b, confidence, correction, "text")
    if (m := _CUP.match(s, verb_at, b)) is not None and HABIT_WORDS.search(s, a, verb_at):
        return add_match(r, subject, "drink", m, a, b, confidence, correction, "text")
    for pattern, key in _MEASURES:
        if (m := pattern.match(s, verb_at, b)) is not None and not _far_from_held(r, subject, key, m):
            return add_match(r, subject, key, m, a, b, confidence, correction, "text")
    if (m := _SCHOOL_GRADE.match(s, verb_at, b)) is not None:
        return add_match(r, subject, "grade", m, a, b, confidence, correction, "text")
    if (m := _SCHOOL_AND_FIELD.match(s, verb_at, b)) is not None and m["v"] != "书":
        if is_place_zh(m["school"]):  # 在南京读研: where one studies is the city one lives in
            return add_match(r, subject, "residence", m, a, b, confidence, correction, "place", "school")
        said = add_match(r, subject, "school", m, a, b, confidence, correction, "organization", "school")
        if re.fullmatch(_GRADE_YEAR, m["v"]):  # 在实验中学读高二: the grade
            return add_match(r, subject, "grade", m, a, b, confidence, correction, "text") or said
        if not _GRADE.match(m["v"]):  # 在人大读研究生: a level of study, no field
            # 在复旦读生物 is a major; 在新东方学英语 what one is learning (学 at a university: a major)
            college = m["verb"] != "学" or re.search(r"大学|学院|大$", m["school"])
            key = "major" if college else "learning"
            return add_match(r, subject, key, m, a, b, confidence, correction, "text") or said
        return said
    for pattern, key, kind in ((_STUDY, "major", "text"), (_SCHOOL, "school", "organization")):
        m = pattern.match(s, verb_at, b)
        group = next((g for g in ("v", "v2", "v3", "v4") if m is not None and m.groupdict().get(g)), "v")
        if m is not None and not _GRADE.fullmatch(m[group]):
            if key == "school" and is_place_zh(m[group]):
                key, kind = "residence", "place"  # 在南京上学: as above
            elif key == "school" and re.search(r"(?:医院|妇幼|诊所|卫生院)$", m[group]):
                key = "hospital"  # 转到省人民医院了: a hospital, no school
            return add_match(r, subject, key, m, a, b, confidence, correction, kind, group)
    if (m := _CAR.match(s, verb_at, b)) is not None and (m["cl"] == "辆" or _holds_car(r, subject)):
        return add_match(r, subject, "car", m, a, b, confidence, correction, "product")
    if (m := _RIDE.match(s, verb_at, b)) is not None and r.time_at(m.start("t"), m.end("t")) is not None:
        # the clock time as said (7点45): the words a later message's line is matched by
        rides = [
            d.attribute for d in r.earlier if d.subject == subject and d.attribute.endswith((".time", "时间"))
        ]
        key = key_of(r, m["vehicle"] + "时间") if m["vehicle"] else (rides[-1] if rides else "")
        if not key:
            return False
        add_fact(r, subject, key, m["t"], a, b, confidence, correction, "text", m.span("t"))
        return True
    return False


def topic_states(r: Reading, subject: str, a: int, at: int, b: int, confidence: float, correction: bool):
    """A predicate after a topic (a thing named first): a floor, an amount by the period, a size, a party
    size, or a dated event."""
    s = r.text
    if floor_zh(r, subject, a, at, b, confidence, correction):
        return True
    if (
        (m := _AMOUNT.match(s, at, b)) is not None
        and m["attr"].strip()
        and not _WEEKDAY_AFTER.search(s, 0, m.end("n"))
    ):
        key = key_of(r, m["attr"].strip())
        if (
            key
            and not re.search(r"[我你他她是在]", m["attr"])
            and not r.times_in(*m.span("attr"))
            and not names_no_key(r, m["attr"].strip())
        ):
            return amount(r, subject, key, m, a, b, confidence, correction)
    if (m := _PAID.match(s, at, b)) is not None:  # 每月交房租三千二: the rent (月底 is when it is due)
        return amount(r, subject, key_of(r, m["attr"]), m, m.start("attr") - 1, b, confidence, correction)
    plain = _PLAIN_AMOUNT.match(s, at, b)
    phrase = re.sub(r"^(?:现在|目前|如今)+", "", plain["attr"].strip()) if plain else ""  # 我现在月薪18k
    if plain and phrase and not re.search(r"[我你他她是在]", phrase) and not names_no_key(r, phrase):
        m = plain  # (老婆20k: whose amount, not an amount called 老婆)
        key = said_like(r, subject, key_of(r, phrase), phrase, m["change"] is not None)
        key = "salary" if key == "employer" else key  # 新公司给到25k: what the new employer pays
        money = key in ("rent", "price") or key.endswith(".price") or m["unit"] is not None
        if key and (r.vocabulary.kind(key) == "number" or money):
            return amount(r, subject, key, m, a, b, confidence, correction or m["change"] is not None)
    if (m := _SIZE.match(s, at, b)) is not None and not re.search(r"[是在你他她]", m["thing"]):
        key = key_of(r, m["thing"].strip() + "尺码")
        return bool(key) and add_match(r, subject, key, m, a, b, confidence, correction, "text")
    if (m := _HEADCOUNT.match(s, at, b)) is not None and not re.search(r"[我你他她是在]", m["thing"]):
        key = key_of(r, m["thing"].strip() + "人数")
        return bool(key) and add_match(r, subject, key, m, a, b, confidence, correction, "text")
    if (m := _PARTY.search(s, at, b)) is not None:
        key = key_of(r, m["thing"] + "人数")
        return add_match(r, subject, key, m, a, b, confidence, correction, "text")
    return event(r, subject, a, at, b, confidence, correction)


def amount(r, subject, key, m, a, b, confidence, correction) -> bool:
    n = m["n"]
    number = float(n) if "." in n else whole_number(n) if n.isdigit() else zh_amount(n)
    if isinstance(number, str):
        return False  # (digits past any amount: no sum)
    if number is None:
        return False
    if m["unit"] and m["unit"] in "万千wWkK":  # 18k, 2.2w: how amounts are written in chat
        number = number * (10000 if m["unit"] in "万wW" else 1000)
        number = int(number) if number == int(number) else number
    add_fact(r, subject, key, number, a, b, confidence, correction, "number", m.span("n"))
    return True


_SPOKEN_TAIL = re.compile(r"(?P<head>.*?(?P<unit>[百千万]))(?P<digit>[一二两三四五六七八九])")


def zh_amount(words: str) -> int | None:
    """A spoken Chinese amount: 两千五 is 2500 and 一万二 12000 (a last digit after its unit is the next
    unit down), 三万五千 35000; None when it is no number."""
    try:
        if "万" in words:
            high, _, low = words.partition("万")
            rest = zh_amount(low) if low else 0
            if rest is not None and len(low) == 1:
                rest *= 1000  # 一万二: 12000
            top = zh_amount(high) if high else 1
            return None if top is None or rest is None else top * 10000 + rest
        if (m := _SPOKEN_TAIL.fullmatch(words)) is not None:
            step = {"百": 10, "千": 100, "万": 1000}[m["unit"]]
            return parse_zh_number(m["head"]) + parse_zh_number(m["digit"]) * step
        return parse_zh_number(words)
    except ValueError:
        return None


def event(r: Reading, subject: str, a: int, at: int, b: int, confidence: float, correction: bool) -> bool:
    """<thing><day><verb>: 合同下周五签, 搬家公司两周后来, 我后天飞哈尔滨 — the day the thing happens, keyed
    by the thing (else by what is done), so that 合同改到下周一签了 moves it."""
    s = r.text
    ranged = _ranged(r, a, b)
    for t0, t1, span in r.times_in(at, b):
        words = s[t0:t1]
        clock = span.granularity in ("minute", "hour") and re.search(r"[0-9点:：]", words) is not None
        # 明天下午 is that day; 下个月 that month; 早上 alone no day at all
        day = span.granularity in ("day", "week", "instant") or (
            span.granularity == "hour" and re.search(r"[天号日周]|星期", words) is not None
        )
        if not (clock or day or span.granularity == "month"):
            continue
        if t0 in ranged:
            return False  # 中午12点到晚上8点吃东西: a span of hours, no event at its start or end
        if s[max(at, t0 - 1) : t0] == "每":
            # 每周五晚上打麻将: a time that recurs is held as its words, keyed by what is done
            return _recurring(r, subject, (a, at), t0 - 1, t1, b, confidence, correction)
        today = r.now.replace(hour=0, minute=0, second=0, microsecond=0)
        booked = re.match(r"(?:预约了?|约了?|订了?|定了?|安排了?)", s[t1:b])  # 周日下午四点约了按摩
        after = t1 + (booked.end() if booked else 0)
        after += 2 if s.startswith("我们", after) else 1 if s.startswith("我", after) else 0  # 下周五我去…
        done = (
            re.search(
                r"过(?![来去])|了(?![。！!]*$).", s[after:b]
            )  # 三周后就生了: 了 that ends it is to come
            or (  # 过来 is coming, not done
                span.start < today + timedelta(days=1) and "了" in s[after:b]
            )
        )
        if span.end <= today or done:
            return False  # 我们昨天去吃了火锅, 我今天去吃了火锅: an episode, not a plan
        thing = s[at:t0].strip()
        change = _RESCHEDULE.search(thing)
        if change is not None:
            thing = thing[: change.start()]
        thing = re.sub(r"^(?:预约了?|约了?|订了?|定了?|安排了?)", "", thing.strip("的 "))  # 约了周四看牙
        thing = re.sub(r"(?:预约了?|约了?|约的|订了?|定了?|安排了?|要|得|该)$", "", thing)  # 车子约了3月12号…
        if (held := r.vocabulary.known(thing)) is not None and held.kind != "date":
            thing = ""  # 我的车下周三保养: the car is what the act is done to; the event is 保养
        thing = re.sub(r"^(?:和|跟|与|同)[\u4e00-\u9fff]{1,5}$", "", thing)  # 我和男朋友下周六领证: with whom
        if len(thing) > 8 or re.search(r"[是在住我你他她，,]|每", thing):
            return False
        m = _EVENT.match(s, after, b)
        if m is None:
            return False
        if s[t1:b].rstrip("。！!").endswith("吧"):
            confidence = min(confidence, HEDGED)  # 这周六去爬山吧: a plan put forward, not yet agreed
        # 聚餐周五在海底捞: a thing with its day and place needs no verb; a day alone does, unless the thing
        # names an event (公司年会1月23号)
        named_event = change is None and re.search(f"(?:{_EVENT_NOUNS})$", thing)
        if not m["vp"] and not (m["place"] and thing) and not named_event:
            return False
        phrase = thing or (m["with"] or "") + (re.sub(r"^(?:去|来)", "", m["vp"]) or m["vp"])
        # 去医院复查: the thing done at the place (复查), not the place
        phrase = re.sub(
            r"^(?:医院|诊所|学校|公司|银行|4S店|店里|机场|车站|单位)(?=[\u4e00-\u9fff]{2})", "", phrase
        )
        # 我婆婆18号坐飞机过来, 我老婆半个月后出差回来: an arrival, however one travels or what for
        came = _HOW_ONE_CAME.sub("", phrase)
        arrival = came in ("到", "过来", "回来", "抵达", "到达") or (
            came == "来" and came != phrase
        )  # 坐飞机来
        arriving = not thing and subject != r.speaker and arrival
        if not thing and len(phrase) < 2 and not arriving and phrase != "生":
            return False  # 明天见: a farewell, no event named
        holiday = _HOLIDAY.fullmatch(s, t0, t1)
        if not thing and holiday and (trip := _TRIP_TO.fullmatch(m["vp"] or "")) and is_place_zh(trip["v"]):
            # 五一打算去厦门: where the holiday is spent (改去青岛 moves it: venues_zh)
            span = (m.start("vp") + trip.start("v"), m.start("vp") + trip.end("v"))
            where = key_of(r, holiday[0] + "旅行地点")
            said = HEDGED if re.match(r"打算|计划|准备|想", s[t1:]) else confidence  # a plan, not yet booked
            plan = add_fact(r, subject, where, trip["v"], a, b, said, correction, "place", span)
            plan.valid_from = r.now  # the plan holds from when it is said; the holiday is in its key
            return True
        key = "arrive" if arriving else key_of(r, phrase + "日期")  # 我妈18号到: her arrival
        if _GIVING_BIRTH.fullmatch(phrase):
            key = key_of(r, "预产期")  # 我姐还有三周就生了: when the baby is due
        if not key:
            return False
        # a day named relatively (两周后) is that day; a clock time (下午两点) the moment
        value = (
            time_value(span, r.now)
            if clock or not day
            else span.start.astimezone(r.now.tzinfo).date().isoformat()
        )
        add_fact(r, subject, key, value, a, b, confidence, correction or change is not None, "date", (t0, t1))
        if m["place"] and (where := key_of(r, phrase + "地点")):  # 周五在老地方吃饭: where, too
            add_match(r, subject, where, m, a, b, confidence, correction, "place", "place")
        elif thing and (trip := _TRIP_TO.fullmatch(m["vp"] or "")) and is_place_zh(trip["v"]):
            # 结婚纪念日九月去三亚: where the occasion is spent (改去西双版纳 moves it: venues_zh)
            span = (m.start("vp") + trip.start("v"), m.start("vp") + trip.end("v"))
            add_fact(
                r, subject, key_of(r, thing + "地点"), trip["v"], a, b, confidence, correction, "place", span
            )
        return True
    return False


def _recurring(
    r: Reading, subject: str, part: tuple[int, int], t0: int, t1: int, b: int, confidence, correction
) -> bool:
    (a, at), m = part, _EVENT.match(r.text, t1, b)
    if m is None or not m["vp"] or r.text[at:t0].strip("我们的 "):
        return False  # (a thing named before the time, 钢琴课每周六…, is the grammar's copula reading)
    key = key_of(r, re.sub(r"^(?:去|来)", "", m["vp"]) or m["vp"])
    if not key:
        return False
    add_fact(r, subject, key, r.text[t0:t1], a, b, confidence, correction, "schedule", (t0, t1))
    return True


_WENT_TO = re.compile(
    r"(?:去了|跳到了?|跳去了?|换到了?|换去了?|进了)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:去|来)?(?:了|啦)?[。！!]*$"
)
_CHANGED_JOBS = re.compile(r"跳槽|换公司")  # (换工作，去了三亚 may be a move)
_TIMED_RIDE = re.compile(r"的(?P<what>航班|飞机|火车|高铁|动车|大巴)")
_AT_PLACE = re.compile(
    r"(?:现在|目前|如今|已经|一直|还)*在(?P<v>[\u4e00-\u9fff]{2,6}?)(?:了|呢|啦)?[。！!]*$"
)


def places_and_rides(
    r: Reading, subject: str, a: int, verb_at: int, b: int, confidence: float, correction: bool
):
    """去了网易 by one who held an employer (another employer, not a known city); 周日晚上6点40的航班 (the
    flight's moment); 我现在在蒙特利尔 (being in a known city now is living there)."""
    s = r.text
    if (
        (m := _WENT_TO.match(s, verb_at, b)) is not None
        and not is_place_zh(m["v"])
        and (
            any(d.subject == subject and d.attribute == "employer" for d in r.earlier)
            or _CHANGED_JOBS.search(s) is not None  # 我老婆也跳槽了，从腾讯去了阿里: a job change says so
        )
    ):
        add_fact(r, subject, "employer", m["v"], a, b, confidence, True, "organization", m.span("v"))
        return True
    for t0, t1, span in r.times_in(a, b):
        m = _TIMED_RIDE.match(s, t1, b)
        if m is not None and span.start > r.now and (key := key_of(r, m["what"])):
            add_fact(r, subject, key, time_value(span, r.now), a, b, confidence, correction, "date", (t0, t1))
            return True
    if (m := followed_to_zh(s, verb_at, b)) is not None:  # 跟着表哥去了苏州: a move with someone
        return add_match(r, subject, "residence", m, a, b, confidence, correction, "place")
    if (m := works_for_zh(s, verb_at, b)) is not None:  # 在顺丰开大车, 跑滴滴: the employer, and the work
        org, job = ("v", "job") if m["v"] else ("w", "job2")
        add_fact(r, subject, "employer", m[org], a, b, confidence, correction, "organization", m.span(org))
        return add_match(r, subject, "job_title", m, a, b, confidence, correction, "text", job) or True
    if (m := _AT_PLACE.match(s, verb_at, b)) is not None and is_place_zh(m["v"]):
        add_fact(r, subject, "residence", m["v"], a, b, confidence, correction, "place", m.span("v"))
        return True
    if m is not None and is_employer_zh(m["v"]):  # 我老公在腾讯: a known employer, said by its name alone
        add_fact(r, subject, "employer", m["v"], a, b, confidence, correction, "organization", m.span("v"))
        return True
    return False


# 下周四下午两点项目评审会: a time, then the event it is the time of (a noun that names a gathering)
_EVENT_NOUNS = r"会|课|考试|面试|体检|聚餐|聚会|婚礼|派对|讲座|培训|答辩|复查|复诊|手术|演出|比赛|典礼|饭局"
_TIMED_EVENT = re.compile(
    r"(?:的|有个|有场|有|要开|开)?(?P<thing>[\u4e00-\u9fffA-Za-z0-9]{0,8}?"
    r"(?:" + _EVENT_NOUNS + r"))"
    r"(?:要开|开|见|办)?(?:了|啊|哈|呢)?[。！!~～]*$"
)


def timed_event_noun(r: Reading, a: int, b: int, confidence: float) -> bool:
    """A part that is a time and the event it is of: the speaker's event on that day (or moment)."""
    found = next(((t1, span) for t0, t1, span in r.times_in(a, b) if t0 == a), None)
    if found is None or (m := _TIMED_EVENT.match(r.text, found[0], b)) is None or not m["thing"]:
        return False
    key = key_of(r, m["thing"])
    value = time_value(found[1], r.now)
    return (
        bool(key)
        and add_fact(r, r.speaker, key, value, a, b, confidence, False, "date", (a, found[0])) is not None
    )


def _ranged(r: Reading, a: int, b: int) -> set[int]:
    """Where each time that starts or ends a span of times begins (中午12点到晚上8点: both)."""
    times = r.times_in(a, b)
    return {
        t
        for (t0, e, _), (n0, _, _) in pairwise(times)
        if n0 == e + 1 and r.text[e] in "到至~-"
        for t in (t0, n0)
    }


def _far_from_held(r: Reading, subject: str, key: str, m: re.Match[str]) -> bool:
    """A weight said bare (no verb: 加油！22斤) half or less, or twice or more, the one held is a difference
    (how much to lose), not a weight."""
    if key != "weight" or m.start("v") != m.start() or (said := re.match(r"\d+(?:\.\d+)?", m["v"])) is None:
        return False
    held = latest_held(r, lambda d: d.subject == subject and d.attribute == key)
    numbers = [re.match(r"\d+(?:\.\d+)?", str(d.value)) for d in held.values()]
    return any(n is not None and not 0.5 < float(said[0]) / float(n[0]) < 2 for n in numbers if float(n[0]))
