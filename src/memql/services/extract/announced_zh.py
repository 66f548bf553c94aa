"""A change announced in one Chinese part and valued in the next (项目负责人换了，现在是小冯; 房东涨租了，
从七月起每个月5200; 他离职了，现在在小米; 今早称了一下，188): `announced` names the attribute that changed,
`announced_value` reads the next part's value for it; `announced_of_other` and `changed_owner` say whose
attribute it is (他离职了, 我妈又换号了, 班主任换了 of the son's)."""

from __future__ import annotations

import re

from .common import SINGULAR_RELATIONS, Reading, held_key
from .predicates_zh import _AMOUNT, _CLAUSE, amount
from .subjects_zh import after_adverbs, subject_at
from .values_zh import add_fact, key_of, read_value

_ANNOUNCE = re.compile(
    r"(?:(?P<thing>" + _CLAUSE + r"{0,6}?)(?P<verb>涨|降|加|减)(?P<money>租|价|薪|工资|房租)了?|"
    r"(?P<attr>" + _CLAUSE + r"{1,10}?)(?:换了|变了|改了|涨了|降了|调整了|换人了)|"
    r"(?:我们|我)?(?:上周|上个月|昨天|前天|今天|已经|又|也|刚|刚刚)*(?P<verb_object>换工作|跳槽|换公司|换单位|搬家|换号码?|换手机号|"
    r"换车|离职|辞职|入职|转专业|换专业|转科|换科室|转岗|调岗|改地方|换地方|改地点|换地点)了|"
    r"[\u4e00-\u9fff]{0,4}?(?P<weighed>称了一?下|上秤了?|称了体重|量了体重))$"  # 今早称了一下，188
)
_ANNOUNCED_VALUE = re.compile(
    # (从腾讯去了阿里: where from is said first)
    r"(?:从[^，,。]{1,8}?(?=去了?|到了?|跳到|换到|转到))?"
    r"(?:现在|目前|如今|已经|改|换)*(?:新的|新)?(?:成了?|是|为|由|在[^，,。]{1,6}?(?:管|开|经营)着?|在|到了?|去了?|读|学)?(?P<v>"
    + _CLAUSE
    + r"{1,12}?)"
    r"(?:在管|在负责|负责|来管|接手|在带|来带)?(?:了|啦|呢)?$"
)
# 新的是amei@qq.com: an address or a number, longer than a value is otherwise
_CONTACT = re.compile(  # (公司给配了个新号 15800342216: the words before it say who gave it)
    r"(?:[^，,。！!？?]{0,10}?新的?)?(?:现在|目前|新的|新)*(?:手机号码?|号码?|邮箱|地址)?(?:是|为|换成了?|改成了?)?[：:\s]*"
    r"(?P<v>[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\+?\d[\d -]{5,}\d)"
)
_MONEY_KEYS = {"租": "房租", "价": "价格", "薪": "工资"}
_VERB_OBJECT_KEYS = {
    "换工作": "employer",
    "跳槽": "employer",
    "换公司": "employer",
    "换单位": "employer",
    "搬家": "residence",
    "换": "phone",
    "换手机": "phone",
    "换车": "car",
    "离职": "employer",  # 他离职了，现在在小米: the next part names the new one
    "入职": "employer",  # 上周入职了 蓝鲸: the one joined
    "辞职": "employer",
    "转科": "department",  # 我转科了！去了ICU
    "换科室": "department",
    "转岗": "department",
    "调岗": "department",
    "转专业": "major",
    "换专业": "major",
    "改地方": "location",  # 改地方了，去海底捞: the place of the plan before
    "换地方": "location",
    "改地点": "location",
    "换地点": "location",
}


# 她现在不在协和了: no longer at a place a fact of theirs held (the next part says where now)
_NO_LONGER_AT = re.compile(
    r"(?:我们|我)?(?:现在|已经|早就|目前)*(?:不在|离开了?)(?P<left>[^，,。！!]{1,10}?)(?:上班|工作|干|住)?了[。！!]*$"
)


def announced(r: Reading, a: int, b: int, subject: str | None = None) -> str | None:
    """项目负责人换了 / 房东涨租了: the attribute a part says changed, whose value the next part gives
    (`subject`: whose, when the part named them: 他/她 …)."""
    if (left := _NO_LONGER_AT.match(r.text, a, b)) is not None:
        whose = subject or r.speaker
        held = (d for d in reversed(r.earlier) if d.subject == whose and isinstance(d.value, str))
        return next((d.attribute for d in held if left["left"] in d.value or d.value in left["left"]), None)
    m = _ANNOUNCE.match(r.text, a, b)
    if m is None:
        return None
    owner = re.match(r"(?:我们|我)的?", m["attr"] or "")
    relation = r.vocabulary.relation(m["attr"][owner.end() :]) if owner and m["attr"] else None
    if relation is not None and relation[0] in SINGULAR_RELATIONS:  # 我老板换人了，现在是刘总
        return held_key(r.vocabulary, relation[0])
    if m["weighed"]:
        return "weight"
    if m["verb_object"]:  # 我换工作了，现在在京东: the thing changed is the job
        return _VERB_OBJECT_KEYS[m["verb_object"].removesuffix("码").removesuffix("号")]
    held = key_of(r, m["thing"].strip("的又也都 ")) if m["money"] and m["thing"] else ""
    if held and any(d.attribute == held for d in r.earlier):  # 托班涨价了: the amount of the thing held
        return held
    phrase = _MONEY_KEYS.get(m["money"], m["money"]) if m["money"] else m["attr"].strip()
    if (traded := re.fullmatch(r"(?:我们|我)?把(?P<v>.{2,8}?)置?", phrase)) is not None:
        # 把思域置换了，换了台RAV4: the thing named is a value held; its key is what changed
        whose = subject or r.speaker
        held = (d for d in reversed(r.earlier) if d.subject == whose and traded["v"] in str(d.value))
        return next((d.attribute for d in held), None)
    adverbs = re.fullmatch(r"[又也都还就再刚已经终于]+", phrase)  # 又换了 says again, not what
    if (
        adverbs and "又" in phrase
    ):  # …换成招商银行了 … 又换了，现在是建设银行: what changed before changed again
        whose = subject or r.speaker
        mine = [d for d in r.earlier if d.subject == whose and not d.attribute.startswith("relation.")]
        said = [d.attribute for d in mine]
        again = next((key for key in reversed(said) if said.count(key) > 1), None)
        # (门锁密码改成 520131 … 又改了，现在是 860274: a key set by a change is changed again)
        return again or next((d.attribute for d in reversed(mine) if d.correction), None)
    if re.search(r"[我你他她是在说]|工作|主意|天气|[都也还]$", phrase) or adverbs:  # 说周边都涨了: a report
        return None
    # 场地换了，改在植物园办了: the next part moves the held gathering's place (venue_said)
    if phrase in ("场地", "地点", "地方", "位置") and any(
        d.attribute.endswith(".location") for d in r.earlier
    ):
        return None
    return key_of(r, phrase) or None


def announced_value(r: Reading, subject: str, key: str, part: int, a: int, b: int, confidence: float) -> bool:
    """现在是小冯在管 / 从七月起每个月5200: the value of an attribute the part before said changed, at `a`
    past the adverbs and time of the part (which begins at `part`; its time dates it: 下个月开始5000)."""
    s = r.text
    if (m := _AMOUNT.match(s, a, b)) is not None and not m["attr"].strip():
        return amount(r, subject, key, m, part, b, confidence, True)
    end = a + len(s[a:b].rstrip("。！!了啦"))
    contact = _CONTACT.fullmatch(s, a, end)
    m = _ANNOUNCED_VALUE.match(s, a, b) if contact is None else contact
    if m is None:
        return False
    got = read_value(r, m.start("v"), m.end("v"), r.vocabulary.kind(key))
    if got is None or (len(str(got[0])) > 10 and contact is None):
        return False
    value, v0, v1 = got
    if _FEELING.match(str(value)):
        return False  # 入职了 好累: how it feels, no value
    add_fact(r, subject, key, value, part, b, confidence, True, r.vocabulary.kind(key), (v0, v1))
    return True


_FEELING = re.compile(r"(?:好|很|太|真|挺|超|有点|特别|非常)?(?:累|忙|开心|难|爽|烦|紧张|激动|高兴|不错)")


def changed_owner(r: Reading, topic: str | None, key: str) -> str:
    """Whose attribute changed: the part's subject, else the speaker, else the one person it was said of
    (我儿子的班主任是王老师, then 班主任换了: the son's)."""
    if topic is not None:
        return topic
    said_of = {d.subject for d in r.earlier if d.attribute == key or d.attribute.endswith("." + key)}
    return said_of.pop() if len(said_of) == 1 else r.speaker


def announced_of_other(r: Reading, a: int, b: int) -> tuple[str, str] | None:
    """他去年离职了, 我妈又换号了: (the attribute they changed, them), for the next part's value."""
    at = after_adverbs(r, a, b)
    if (
        not re.match(r"[他她我]", r.text[at:b])
        or (got := subject_at(r, at, b)) is None
        or got[0] == r.speaker
    ):
        return None
    key = announced(r, after_adverbs(r, got[1], b), b, got[0])
    return (key, got[0]) if key is not None else None
