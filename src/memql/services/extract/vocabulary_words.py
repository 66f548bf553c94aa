"""The words of the attribute vocabulary (vocabulary.py reads them): known attributes with their
English and Chinese phrases, the aspects and things keys are built from, filler words, relations and
British spellings. Data only; extend a vocabulary with `Vocabulary.extended`, not by editing this."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .kin_zh import RELATIONS_ZH

ValueKind = Literal["text", "date", "place", "organization", "person", "number", "product"]


@dataclass(frozen=True)
class Attribute:
    """One key, the phrases that name it (English lower-case, Chinese), its a2p category and the kind of
    value it takes (which decides the entity kind of the value, and how a correction binds to it)."""

    key: str
    phrases: tuple[str, ...]
    category: str | None = None
    kind: ValueKind = "text"


CONTEXT = "a2p:context"
WORK = "a2p:professional"
HEALTH = "a2p:health"
MONEY = "a2p:financial"

ATTRIBUTES: tuple[Attribute, ...] = (
    Attribute(
        "residence",
        (
            "residence",
            "place of residence",
            "current city",
            "city",
            "home city",
            "居住地",
            "所在城市",
            "住的地方",
            "城市",
            "在哪里",  # 她现在在哪里？: where a person is is where they live
            "在哪儿",
            # the verbs of residence, for attribute names a model or a caller writes ("lives_in")
            "live in",
            "lives in",
            "living in",
            "moved to",
            "moving to",
            "relocated to",
            "based in",
            "住在",
            "住",
            "搬到",
            "搬去",
            "定居在",
        ),
        CONTEXT,
        "place",
    ),
    Attribute(
        "address",
        ("address", "home address", "street address", "mailing address", "地址", "住址", "家庭住址"),
        CONTEXT,
        "place",
    ),
    Attribute("wifi_network", ("wifi network", "wi-fi network", "wifi name", "ssid", "wifi名称", "无线网名")),
    Attribute("hometown", ("hometown", "home town", "老家", "家乡"), CONTEXT, "place"),
    Attribute("birthplace", ("birthplace", "place of birth", "出生地"), CONTEXT, "place"),
    Attribute(
        "employer",
        (
            "employer",
            "company",
            "workplace",
            "firm",
            "current employer",
            "works at",
            "work at",
            "works for",
            "work for",
            "working at",
            "employed by",
            "公司",
            "单位",
            "工作单位",
            "雇主",
            "就职于",
            "任职于",
        ),
        WORK,
        "organization",
    ),
    Attribute(
        "job_title",
        (
            "job",
            "job title",
            "title",
            "role",
            "position",
            "occupation",
            "profession",
            "职位",
            "职业",
            "岗位",
            "工作",
            "头衔",
        ),
        WORK,
    ),
    Attribute(
        "phone",
        (
            "phone",
            "phone number",
            "mobile",
            "mobile number",
            "cell",
            "cell number",
            "cell phone",
            "telephone",
            "telephone number",
            "number",
            "电话",
            "手机",
            "手机号",
            "电话号码",
            "手机号码",
            "号码",
        ),
        CONTEXT,
    ),
    Attribute(
        "email",
        ("email", "e-mail", "email address", "e-mail address", "mail", "邮箱", "电子邮件", "邮箱地址"),
        CONTEXT,
    ),
    Attribute(
        "birthday", ("birthday", "date of birth", "birth date", "dob", "生日", "出生日期"), CONTEXT, "date"
    ),
    Attribute("age", ("age", "年龄", "岁数", "几岁", "多大了", "多大"), CONTEXT, "number"),
    Attribute("name", ("name", "full name", "名字", "姓名"), CONTEXT, "person"),
    Attribute("nickname", ("nickname", "昵称", "小名"), CONTEXT),
    Attribute("nationality", ("nationality", "citizenship", "国籍"), CONTEXT),
    Attribute("native_language", ("native language", "first language", "mother tongue", "母语"), CONTEXT),
    Attribute("marital_status", ("marital status", "relationship status", "婚姻状况"), "a2p:relationships"),
    Attribute("diet", ("diet", "饮食", "vegan", "vegetarian", "pescatarian", "吃素", "素食"), HEALTH),
    Attribute("blood_type", ("blood type", "blood group", "血型"), HEALTH),
    Attribute("height", ("height", "身高"), HEALTH),
    Attribute("weight", ("weight", "体重", "称了一下", "重新称了一下", "称出来"), HEALTH),
    Attribute(
        "medication", ("medication", "medicine", "meds", "用药", "吃什么药", "降压药", "降糖药", "药"), HEALTH
    ),
    Attribute(
        "salary",
        (
            "salary",
            "pay",
            "income",
            "wage",
            "base salary",
            "base pay",
            "base",
            "工资",
            "薪水",
            "收入",
            "月薪",
            "年薪",
        ),
        MONEY,
        "number",
    ),
    Attribute("budget", ("budget", "预算"), MONEY, "number"),
    Attribute(
        "school",
        (
            "school",
            "university",
            "college",
            "daycare",
            "preschool",
            "kindergarten",
            "学校",
            "大学",
            "上学",
            "读书",
            "托儿所",
            "幼儿园",
        ),
        CONTEXT,
        "organization",
    ),
    Attribute("hospital", ("hospital", "医院", "产检医院", "就诊医院"), HEALTH, "organization"),
    Attribute("major", ("major", "field of study", "专业"), CONTEXT),
    Attribute(
        "aspiration",
        (
            "aspiration",
            "dream job",
            "wants to be",
            "want to be",
            "wants to become",
            "理想",
            "梦想",
            "想当",
            "想做",
        ),
        CONTEXT,
    ),
    Attribute("grade", ("grade", "school grade", "grade level", "school year", "年级"), CONTEXT),
    Attribute(
        "car",
        ("car", "vehicle", "drive", "drives", "driving", "车", "车子", "爱车", "开车"),
        CONTEXT,
        "product",
    ),
    Attribute("size", ("size", "clothing size", "shirt size", "t-shirt size", "hoodie size"), CONTEXT),
    Attribute("allergy", ("allergy", "allergies", "allergic to", "food allergy", "过敏", "过敏源"), HEALTH),
    Attribute("reading", ("reading", "currently reading"), CONTEXT),
    Attribute("partner", ("partner", "dating", "seeing", "going out with", "对象"), CONTEXT, "person"),
    Attribute("instrument", ("instrument", "musical instrument", "plays", "乐器"), CONTEXT),
    Attribute("race", ("race", "training for", "备赛", "什么比赛"), CONTEXT),  # a race one trains for
    Attribute(
        "球队", ("球队", "哪个队", "什么队", "哪支队"), CONTEXT
    ),  # the team one plays for (pursuits_zh)
    # when a baby is due ("she's due in three weeks", 预产期, 还有三周就生了)
    Attribute("due", ("预产期", "什么时候生", "哪天生", "几号生", "什么时候出生"), HEALTH, "date"),
    Attribute(
        "playing_position", ("playing position", "position on the team", "场上位置", "踢什么位置"), CONTEXT
    ),
    Attribute("timezone", ("time zone", "timezone", "时区"), CONTEXT),
    Attribute("employment_status", ("employment status", "就业状况"), WORK),
    # what one usually drinks, eats, smokes (我每天喝美式 -> drink; 我改喝绿茶了 supersedes it)
    Attribute("drink", ("usual drink", "喝", "饮品", "饮料", "喝的"), HEALTH),
    Attribute("food", ("usual food", "吃", "吃的"), HEALTH),
    Attribute(  # what one orders at a café ("go-to order", "my usual coffee")
        "coffee_order",
        (
            *("coffee order", "drink order", "usual order", "go-to order", "go to order", "go-to drink"),
            *("coffee shop order", "cafe order", "café order", "usual coffee", "usual drink order"),
        ),
        HEALTH,
    ),
    Attribute("smoking", ("抽", "抽烟", "吸烟", "戒烟", "香烟", "包烟", "根烟"), HEALTH),
    Attribute(
        "commute",
        ("commute", "get to work", "go to work", "get to school", "通勤", "上班方式", "怎么上班", "上班"),
        CONTEXT,
    ),
    Attribute(
        "bedtime", ("bedtime", "go to bed", "go to sleep", "sleep", "睡觉", "几点睡", "睡", "上床"), HEALTH
    ),
    Attribute(
        "arrive",
        ("arrive", "arrival", "arrives", "get here", "到", "到达", "抵达", "回来", "过来"),
        CONTEXT,
        "date",
    ),
    Attribute("exercise", ("exercise", "workout", "work out", "运动", "锻炼"), HEALTH),
    Attribute("wake_time", ("wake up", "get up", "wake time", "起床", "几点起"), HEALTH),
    Attribute("rent", ("rent", "monthly rent", "房租", "租金", "月租", "涨租", "加租"), MONEY),
    Attribute("floor", ("floor", "楼层", "几楼", "楼"), CONTEXT),
    Attribute(
        "bank", ("bank", "bank with", "banks with", "banking", "bank account", "银行"), MONEY, "organization"
    ),
    Attribute(
        "gym", ("gym", "fitness club", "gym membership", "健身房", "健身卡", "健身"), HEALTH, "organization"
    ),
    Attribute(
        "shift", ("shift", "work shift", "night shift", "day shift", "nights", "班次", "夜班", "白班"), WORK
    ),
    Attribute(
        "doctor",
        (
            "doctor",
            "physician",
            "primary care doctor",
            "primary care physician",
            "family doctor",
            "GP",
            "PCP",
            "医生",
            "大夫",
            "家庭医生",
        ),
        HEALTH,
    ),
    Attribute(
        "work_location",
        ("work location", "office", "posted", "stationed", "工作地点", "办公室", "驻"),
        WORK,
        "place",
    ),
    Attribute("teaching", ("teach", "teaches", "teaching", "教"), WORK),
    Attribute("coaching", ("coaches", "coaching"), CONTEXT),  # "coach" is who coaches (`coach`)
    # what one is learning now (a language, an instrument, a craft): 我在学日语 -> 改学韩语了 supersedes it
    Attribute("learning", ("learning", "learn", "lessons", "学", "练", "学习", "在学", "练习"), CONTEXT),
)

# the English words a question asks an attribute by ("how old is Leo?", "how much does Biscuit weigh?",
# "who does Ana report to?"), so the fact matches the question that asks for it
_ASKED_EN: dict[str, tuple[str, ...]] = {
    "age": ("how old",),
    "weight": ("weigh", "weighs"),
    "car": ("drive", "drives"),
    "major": ("study", "studies", "studying"),
    "instrument": ("play", "playing"),
    "residence": ("live", "lives", "living", "based"),
    "employer": ("work", "works", "working"),
    "job_title": ("do for a living", "do for work", "job", "做什么", "干什么", "干嘛"),
}
ATTRIBUTES = (
    *(replace(a, phrases=a.phrases + _ASKED_EN.get(a.key, ())) for a in ATTRIBUTES),
    Attribute(
        "manager",
        ("manager", "boss", "line manager", "supervisor", "report to", "reports to", "reporting to"),
        WORK,
        "person",
    ),
)

# aspect key -> phrases; a phrase "<thing> <aspect>" is the key "<thing>.<aspect>"
ASPECTS: dict[str, tuple[str, ...]] = {
    "deadline": (
        "deadline",
        "due date",
        "due day",
        "due",
        "cutoff",
        "cut-off",
        "cutoff date",
        "submission",  # "final submission is april 17": the day it is due
        "截止日期",
        "截止时间",
        "截止日",
        "最后期限",
        "期限",
        "ddl",
    ),
    "expiry": (
        "expiry",
        "expiry date",
        "expiration",
        "expiration date",
        "expiration day",
        "有效期",
        "过期时间",
        "过期日期",
        "到期日",
        "到期时间",
        "到期日期",
    ),
    "appointment": ("appointment", "appt", "预约"),
    "date": ("date", "day", "日期", "日子"),
    "time": ("time", "时间"),
    "number": ("number", "no.", "id", "号码", "编号", "号"),
    "address": ("address", "地址"),
    "start": ("start date", "start", "开始时间", "开始日期"),
    "end": ("end date", "结束时间", "结束日期"),
    "price": ("price", "cost", "fee", "价格", "费用", "价钱"),
    "location": ("location", "venue", "地点"),
    "status": ("status", "状态"),
    "size": ("尺码", "尺寸", "码数"),  # Chinese only: "shoe size" stays one English key
    "headcount": ("人数",),
}
# aspects that are dates: a correction with a date value binds to a fact with one of these
DATE_ASPECTS = frozenset({"deadline", "expiry", "appointment", "date", "time", "start", "end"})

# words dropped between a thing and its aspect ("passport renewal deadline" -> passport.deadline)
FILLERS: frozenset[str] = frozenset(
    {
        "renewal",
        "application",
        "submission",
        "filing",
        "payment",
        "final",
        "official",
        "new",
        "current",
        "续签",
        "续期",
        "办理",
        "申请",
        "更新",
        "换发",
        "提交",
        "缴纳",
        "最终",
        "新",
    }
)

# Chinese (and variant English) things -> their English key, so both languages share one key
THINGS: dict[str, str] = {
    "护照": "passport",
    "签证": "visa",
    "驾照": "driver_license",
    "驾驶证": "driver_license",
    "身份证": "id_card",
    "房租": "rent",
    "租金": "rent",
    "租约": "lease",
    "合同": "contract",
    "报告": "report",
    "项目": "project",
    "论文": "thesis",
    "作业": "homework",
    "税": "tax",
    "报税": "tax",
    "保险": "insurance",
    "会员": "membership",
    "牙医": "dentist",
    "体检": "checkup",
    "航班": "flight",
    "面试": "interview",
    "考试": "exam",
    "会议": "meeting",
    "贷款": "loan",
    "信用卡": "credit_card",
    "driver's license": "driver_license",
    "drivers license": "driver_license",
    "driving licence": "driver_license",
    "driving license": "driver_license",
    "driver license": "driver_license",
    "颜色": "color",
    "食物": "food",
    "电影": "movie",
    "书": "book",
    "歌": "song",
    "歌手": "singer",
    "运动": "sport",
    "水果": "fruit",
    "饮料": "drink",
    "菜": "dish",
    "动物": "animal",
    "季节": "season",
    "乐队": "band",
    "游戏": "game",
    "作家": "author",
    "咖啡": "coffee",
    "茶": "tea",
    "孩子": "kids",
    "children": "kids",
    "child": "kids",
    "id": "id_card",
    "id card": "id_card",
    "tax return": "tax",
    "taxes": "tax",
}

# relation words -> (relation key, gender or None); "my sister Ana" is Ana with relation.sister_of
RELATIONS: dict[str, tuple[str, str | None]] = {
    "sister": ("sister", "f"),
    "brother": ("brother", "m"),
    "mother": ("mother", "f"),
    "mom": ("mother", "f"),
    "sis": ("sister", "f"),
    "bro": ("brother", "m"),
    "hubby": ("husband", "m"),
    "mum": ("mother", "f"),
    "father": ("father", "m"),
    "dad": ("father", "m"),
    "son": ("son", "m"),
    "daughter": ("daughter", "f"),
    "wife": ("wife", "f"),
    "husband": ("husband", "m"),
    "partner": ("partner", None),
    "boyfriend": ("boyfriend", "m"),
    "girlfriend": ("girlfriend", "f"),
    "fiance": ("fiance", "m"),
    "fiancé": ("fiance", "m"),
    "fiancee": ("fiancee", "f"),
    "fiancée": ("fiancee", "f"),
    "cousin": ("cousin", None),
    "aunt": ("aunt", "f"),
    "uncle": ("uncle", "m"),
    "grandmother": ("grandmother", "f"),
    "grandma": ("grandmother", "f"),
    "grandfather": ("grandfather", "m"),
    "grandpa": ("grandfather", "m"),
    "niece": ("niece", "f"),
    "nephew": ("nephew", "m"),
    "friend": ("friend", None),
    "buddy": ("friend", None),
    "best friend": ("best_friend", None),
    "roommate": ("roommate", None),
    "flatmate": ("roommate", None),
    "colleague": ("colleague", None),
    "coworker": ("colleague", None),
    "co-worker": ("colleague", None),
    "boss": ("boss", None),
    "manager": ("manager", None),
    "supervisor": ("manager", None),
    "neighbor": ("neighbor", None),
    "neighbour": ("neighbor", None),
    "kid": ("child", None),
    "child": ("child", None),
    # English kin the first table leaves out
    "stepdad": ("stepfather", "m"),
    "stepfather": ("stepfather", "m"),
    "stepmom": ("stepmother", "f"),
    "stepmother": ("stepmother", "f"),
    "stepson": ("stepson", "m"),
    "stepdaughter": ("stepdaughter", "f"),
    "grandson": ("grandson", "m"),
    "granddaughter": ("granddaughter", "f"),
    "grandmom": ("grandmother", "f"),
    "granny": ("grandmother", "f"),
    "nana": ("grandmother", "f"),
    "granddad": ("grandfather", "m"),
    "grandad": ("grandfather", "m"),
    # relatives said together: "my parents moved to Arizona" is the parents' home, not the speaker's
    "parents": ("parents", None),
    "folks": ("parents", None),
    "in-laws": ("in_laws", None),
    "grandparents": ("grandparents", None),
    "sister-in-law": ("sister_in_law", "f"),
    "brother-in-law": ("brother_in_law", "m"),
    "mother-in-law": ("mother_in_law", "f"),
    "father-in-law": ("father_in_law", "m"),
    **RELATIONS_ZH,  # the Chinese words: kin_zh.py
}

SPELLING = {
    "colour": "color",
    "flavour": "flavor",
    "favourite": "favorite",
    "licence": "license",
    "neighbour": "neighbor",
    "theatre": "theater",
    "centre": "center",
}


def birth_order(word: str) -> str | None:
    """ "elder" or "younger" for a Chinese sibling word (哥, 姐姐; 弟, 妹妹), which the vocabulary maps to
    brother or sister alike; None for any other word. Two siblings' words name one person only when they
    agree (哥 and 哥哥 do, 哥 and 弟 do not)."""
    if word[:1] in ("哥", "姐"):
        return "elder"
    return "younger" if word[:1] in ("弟", "妹") else None


def may_name_one(a: str, b: str) -> bool:
    """Can two words of one relation name the same relative (not an elder and a younger sibling)?"""
    first, second = birth_order(a), birth_order(b)
    return first is None or second is None or first == second
