"""The Chinese habits read apart from the others (predicates_zh reads 我每天喝美式, 一天只抽五根): the
exercise one does (我每天早上跑五公里 … 现在改成游泳了), the medicine one takes (我血压吃的是氨氯地平,
医生让我改吃缬沙坦了), and a habit given up (现在完全不喝咖啡了, 我戒烟了), which ends what one held of it."""

from __future__ import annotations

import re

from .common import Reading, latest_held
from .values_zh import add_fact, add_match

# a habit is said with a word of habit before its verb (每天, 平时, 现在) or as a change (改喝)
HABIT_WORDS = re.compile(r"每天|每晚|每早|每周|平时|平常|一般|通常|经常|天天|总是|习惯|现在|如今|目前|只|都")
HABIT_KEYS = {"喝": "drink", "吃": "food", "抽": "smoking", "学": "learning", "练": "learning"}
# 我每天早上跑五公里, 现在改成游泳了: the exercise one does (with a word of habit, or as a change)
_EXERCISE = re.compile(
    r"(?P<change>改成?|换成?|开始|改为)?(?:去)?(?P<v>(?:跑步|慢跑|夜跑|晨跑|跑)(?:[0-9一二三四五六七八九十两半]+(?:公里|千米|圈))?|"
    r"游泳|游(?:[0-9一二三四五六七八九十两]+(?:米|个来回|圈))|打(?:篮球|羽毛球|网球|乒乓球|排球|太极拳?)|踢(?:足)?球|"
    r"做(?:瑜伽|普拉提)|爬山|散步|快走|跳绳|跳(?:广场舞|舞|操)|骑(?:动感单车|单车))"
    r"(?:[0-9一二三四五六七八九十两半]+(?:个)?(?:分钟|小时|公里))?(?:了|啦|呢)?[。！!]*$"
)
# 现在完全不喝咖啡了, 我戒烟了: a habit given up ends what one held of it (its amount, the thing itself)
_QUIT = re.compile(
    r"(?:完全|已经|彻底|早就|都|也|再也)*(?:不(?P<verb>喝|吃|抽)(?P<thing>[\u4e00-\u9fff]{1,4}?)了|"
    r"戒(?:掉)?了?(?P<quit>烟|酒|咖啡|奶茶|可乐|饮料|糖|甜食)(?:了|啦)?)[。！!]*$"
)
_QUIT_KEYS = {"烟": "smoking", "糖": "food", "甜食": "food"}
_MEASURED = re.compile(
    r"^(?:[0-9]{1,2}|[一两二三四五六七八九十半几]{1,3})(?:杯|瓶|碗|份|罐|根|包|支|顿|个|片|粒|颗)"
)
# 我血压吃的是氨氯地平, 改吃缬沙坦了, 在服用二甲双胍: the medicine one takes (named as one, or after 药/血压)
_MEDICINE = (
    r"[\u4e00-\u9fffA-Za-z]{0,6}?(?:地平|沙坦|普利|洛尔|他汀|双胍|列净|胰岛素|阿司匹林|布洛芬|缓释片|胶囊|片)"
)
_MEDICATION = re.compile(
    r"(?P<topic>(?:血压|血糖|血脂|胆固醇|甲状腺)(?:药)?|降压药|降糖药|药)?(?:现在|一直|目前|每天)?"
    r"(?P<change>改成?|换成?|开始|在)?(?:吃|服用|服|用)(?:的是|着|的)?\s*(?:(?:降压药|降糖药|的药)是?)?"
    r"(?:[0-9一两二三半](?:片|粒|颗|支))?"
    r"(?P<v>" + _MEDICINE + r"|[\u4e00-\u9fffA-Za-z]{2,8}?)(?:了|呢|啦)?$"
)


def habit_change(r: Reading, subject: str, a: int, verb_at: int, b: int, confidence: float, correction: bool):
    """An exercise, a medicine or a habit given up said at the verb of a part (see the module docstring)."""
    s = r.text
    if (m := _EXERCISE.match(s, verb_at, b)) is not None and (
        m["change"] or HABIT_WORDS.search(s, a, verb_at)
    ):
        return add_match(r, subject, "exercise", m, a, b, confidence, correction, "text")
    medicine = _MEDICATION.match(s, verb_at, b) or _MEDICATION.match(s, a, b)
    named = medicine is not None and len(medicine["v"]) > 1 and re.fullmatch(_MEDICINE, medicine["v"])
    if medicine is not None and (medicine["topic"] or named):
        return add_match(r, subject, "medication", medicine, a, b, confidence, correction, "text")
    return (m := _QUIT.match(s, verb_at, b)) is not None and _quit(r, subject, m, a, b, confidence)


def _quit(r: Reading, subject: str, m: re.Match[str], a: int, b: int, confidence: float) -> bool:
    """The held habit of what is given up, and its amount ("两杯咖啡", or "一杯" naming nothing else), take
    the words that give it up: 不喝咖啡了 is the subject's drink and drink amount from now on."""
    thing = m["thing"] or m["quit"]
    key = HABIT_KEYS[m["verb"]] if m["verb"] else _QUIT_KEYS.get(thing, "drink")

    def of_it(d) -> bool:
        if d.subject != subject or d.attribute not in (key, key + ".amount"):
            return False
        named = _MEASURED.sub("", str(d.value))  # 两杯咖啡 -> 咖啡; 一杯 names nothing
        return thing in named or (d.attribute != key and not named)

    held = latest_held(r, of_it)
    for d in held.values():
        add_fact(r, subject, d.attribute, m[0].rstrip("。！!"), a, b, confidence, False, "text", m.span())
    return bool(held)
