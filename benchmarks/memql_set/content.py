"""The bilingual content bank the bench set draws its memories from.

Twenty life and work domains, each with a topic phrase, a domain tag and a category tag (English and
Chinese), a default record type, four short notes and two multi-sentence texts. Every note carries a key
phrase (a substring of its text in each language) that names it in instructions and searches; key phrases
do not recur across notes, so "the note about the gate change" picks out one record. The Chinese side is
a translation, not a transliteration: a Chinese user's notes are in Chinese, with Chinese tags.

Sentences end with "." or "。" and avoid abbreviations and decimals, so that sentence-based Split and
Merge have one obvious reading.
"""

from __future__ import annotations

from benchmarks.memql_set.bank import Domain, Note, Text, note
from benchmarks.memql_set.domains_everyday import EVERYDAY
from benchmarks.memql_set.domains_work_study import WORK_AND_STUDY

__all__ = ["DOMAINS", "Domain", "Note", "Text"]

DOMAINS: tuple[Domain, ...] = EVERYDAY + WORK_AND_STUDY

# type names as instructions say them
KIND_WORDS: dict[str, Text] = {
    "note": ("notes", "笔记"),
    "task": ("tasks", "任务"),
    "event": ("events", "日程"),
    "reference": ("reference notes", "参考资料"),
    "idea": ("ideas", "想法"),
}

# tags an instruction can add that no domain uses
FRESH_TAGS: tuple[Text, ...] = (
    ("urgent", "紧急"),
    ("follow-up", "待跟进"),
    ("reviewed", "已审阅"),
    ("2025", "2025"),
    ("shared", "共享"),
    ("important", "重要"),
    ("archive-later", "稍后归档"),
    ("weekend", "周末"),
    ("checklist", "清单"),
    ("done", "已完成"),
)

PEOPLE: tuple[Text, ...] = (
    ("Maya", "李娜"),
    ("Tom", "王磊"),
    ("Priya", "张敏"),
    ("Jonas", "陈浩"),
    ("Aisha", "刘洋"),
    ("Kenji", "赵静"),
)

PLACES: tuple[Text, ...] = (
    ("Berlin", "柏林"),
    ("Lyon", "里昂"),
    ("Osaka", "大阪"),
    ("Toronto", "多伦多"),
    ("Valencia", "瓦伦西亚"),
)

# new memories an Encode instruction states, with the phrases the stored text must keep
NEW_FACTS: tuple[Note, ...] = (
    note("The locksmith comes on Friday at 10:00.", "锁匠周五10:00上门。", "locksmith", "锁匠"),
    note("Jonas prefers tea without sugar.", "陈浩喝茶不加糖。", "tea without sugar", "喝茶不加糖"),
    note(
        "The library books are due back on the 18th.",
        "图书馆的书18号到期要还。",
        "library books",
        "图书馆的书",
    ),
    note(
        "The gym membership costs 35 euros a month.", "健身房会员每月35欧元。", "gym membership", "健身房会员"
    ),
    note("The bike lock code is 4-9-2.", "自行车锁密码是4-9-2。", "bike lock code", "自行车锁密码"),
    note(
        "The quarterly report template lives in the shared drive.",
        "季度报告模板在共享盘里。",
        "quarterly report template",
        "季度报告模板",
    ),
    note("Aisha is allergic to peanuts.", "刘洋对花生过敏。", "allergic to peanuts", "对花生过敏"),
    note("The boiler service is booked for the 9th.", "锅炉保养约在9号。", "boiler service", "锅炉保养"),
    note("Kenji's flight lands at 22:15 on Sunday.", "赵静的航班周日22:15落地。", "22:15", "22:15"),
    note(
        "The window cleaner comes every second Tuesday.",
        "擦窗工每隔一周的周二来。",
        "window cleaner",
        "擦窗工",
    ),
    note(
        "The recycling bins go out on Wednesday night.",
        "回收垃圾桶周三晚上拿出去。",
        "recycling bins",
        "回收垃圾桶",
    ),
    note("The passport expires in August next year.", "护照明年八月到期。", "passport", "护照"),
)

NEW_TASKS: tuple[Note, ...] = (
    note("Renew the passport before August.", "八月前续办护照。", "Renew the passport", "续办护照"),
    note("Return the library books by the 18th.", "18号前还图书馆的书。", "library books", "图书馆的书"),
    note("Book the boiler service.", "预约锅炉保养。", "boiler service", "锅炉保养"),
    note("Cancel the old gym membership.", "取消旧的健身房会员。", "gym membership", "健身房会员"),
    note("Order new ink for the printer.", "给打印机订新墨盒。", "ink for the printer", "墨盒"),
    note(
        "Send the signed lease back to the landlord.",
        "把签好的租约寄回给房东。",
        "signed lease",
        "签好的租约",
    ),
)

NEW_EVENTS: tuple[Note, ...] = (
    note("Parent-teacher meeting at the school.", "学校家长会。", "Parent-teacher meeting", "家长会"),
    note("Dinner with Jonas and Aisha.", "和陈浩、刘洋吃晚饭。", "Dinner with Jonas", "吃晚饭"),
    note("Flu shot at the pharmacy.", "在药店打流感疫苗。", "Flu shot", "流感疫苗"),
    note("Call with the landlord about the lease.", "和房东通电话谈租约。", "landlord", "房东"),
    note("Haircut at the usual place.", "在老地方理发。", "Haircut", "理发"),
    note("Viewing of the flat on Rose Street.", "看玫瑰街的房子。", "Rose Street", "玫瑰街"),
)


def domain(name: str) -> Domain:
    for d in DOMAINS:
        if d.name == name:
            return d
    raise KeyError(name)
