"""The attribute vocabulary: the many ways people name an attribute, mapped onto one key.

A typed fact is keyed by (subject, attribute), so "deadline for the passport", "passport due date" and
"护照截止日期" must all be `passport.deadline` — otherwise a correction would not supersede the value it
corrects. A key is lower-case dotted snake case. `Vocabulary.normalize(phrase)` finds it in four steps:

1. **Known attributes** (`ATTRIBUTES`): a key with its English and Chinese phrases — "lives in" and
   "住在" are `residence`, "company" and "公司" `employer`, "date of birth" and "生日" `birthday`.
2. **Structured families**: "favourite X" / "最喜欢的X" is `favorite.<x>`; a relation ("sister",
   "姐姐") is `relation.<relation>_of` (see `RELATIONS`).
3. **A thing and an aspect**: a phrase ending in an aspect (`ASPECTS`: deadline, expiry, appointment,
   number, address ...) is `<thing>.<aspect>`, the thing's filler words dropped ("passport renewal
   deadline" -> passport.deadline; "deadline for the passport" is first turned into "passport deadline").
   `THINGS` gives Chinese things their English key (护照 -> passport), so both languages share keys.
4. **Anything else is kept**, snake-cased: "blood pressure" -> `blood_pressure`, "血压" -> `血压`.

Extend it without editing this module: `DEFAULT_VOCABULARY.extended(attributes=[Attribute(...)],
aspects={...}, things={...})` returns a new vocabulary; pass it to an extractor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

ValueKind = Literal["text", "date", "place", "organization", "person", "number", "product"]


@dataclass(frozen=True)
class Attribute:
    """One key, the phrases that name it (English lower-case, Chinese), its a2p category and the kind of
    value it takes (which decides the entity kind of the value, and how a correction binds to it)."""

    key: str
    phrases: tuple[str, ...]
    category: str | None = None
    kind: ValueKind = "text"


_CONTEXT = "a2p:context"
_WORK = "a2p:professional"
_HEALTH = "a2p:health"
_MONEY = "a2p:financial"

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
        _CONTEXT,
        "place",
    ),
    Attribute(
        "address",
        ("address", "home address", "street address", "mailing address", "地址", "住址", "家庭住址"),
        _CONTEXT,
        "place",
    ),
    Attribute("hometown", ("hometown", "home town", "老家", "家乡"), _CONTEXT, "place"),
    Attribute("birthplace", ("birthplace", "place of birth", "出生地"), _CONTEXT, "place"),
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
        _WORK,
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
        _WORK,
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
        _CONTEXT,
    ),
    Attribute(
        "email",
        ("email", "e-mail", "email address", "e-mail address", "mail", "邮箱", "电子邮件", "邮箱地址"),
        _CONTEXT,
    ),
    Attribute(
        "birthday", ("birthday", "date of birth", "birth date", "dob", "生日", "出生日期"), _CONTEXT, "date"
    ),
    Attribute("age", ("age", "年龄", "岁数"), _CONTEXT, "number"),
    Attribute("name", ("name", "full name", "名字", "姓名"), _CONTEXT, "person"),
    Attribute("nickname", ("nickname", "昵称", "小名"), _CONTEXT),
    Attribute("nationality", ("nationality", "citizenship", "国籍"), _CONTEXT),
    Attribute("native_language", ("native language", "first language", "mother tongue", "母语"), _CONTEXT),
    Attribute("marital_status", ("marital status", "relationship status", "婚姻状况"), "a2p:relationships"),
    Attribute("diet", ("diet", "饮食"), _HEALTH),
    Attribute("blood_type", ("blood type", "blood group", "血型"), _HEALTH),
    Attribute("height", ("height", "身高"), _HEALTH),
    Attribute("weight", ("weight", "体重"), _HEALTH),
    Attribute("medication", ("medication", "medicine", "meds", "用药"), _HEALTH),
    Attribute(
        "salary",
        ("salary", "pay", "income", "wage", "工资", "薪水", "收入", "月薪", "年薪"),
        _MONEY,
        "number",
    ),
    Attribute("budget", ("budget", "预算"), _MONEY, "number"),
    Attribute("school", ("school", "university", "college", "学校", "大学"), _CONTEXT, "organization"),
    Attribute("major", ("major", "field of study", "专业"), _CONTEXT),
    Attribute("car", ("car", "vehicle", "车"), _CONTEXT, "product"),
    Attribute("size", ("size", "clothing size", "shirt size", "t-shirt size", "hoodie size"), _CONTEXT),
    Attribute("allergy", ("allergy", "allergies", "allergic to", "food allergy"), _HEALTH),
    Attribute("instrument", ("instrument", "musical instrument", "plays"), _CONTEXT),
    Attribute("timezone", ("time zone", "timezone", "时区"), _CONTEXT),
    Attribute("employment_status", ("employment status", "就业状况"), _WORK),
    # what one usually drinks, eats, smokes (我每天喝美式 -> drink; 我改喝绿茶了 supersedes it)
    Attribute("drink", ("usual drink", "喝", "饮品", "饮料", "喝的"), _HEALTH),
    Attribute("food", ("usual food", "吃", "吃的"), _HEALTH),
    Attribute("smoking", ("抽", "抽烟", "吸烟"), _HEALTH),
    Attribute("commute", ("commute", "通勤", "上班方式", "怎么上班", "上班"), _CONTEXT),
    Attribute("rent", ("rent", "monthly rent", "房租", "租金", "月租"), _MONEY),
    Attribute("floor", ("floor", "楼层", "几楼", "楼"), _CONTEXT),
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
    "job_title": ("do for a living", "do for work", "job"),
}
ATTRIBUTES = (
    *(replace(a, phrases=a.phrases + _ASKED_EN.get(a.key, ())) for a in ATTRIBUTES),
    Attribute(
        "manager", ("manager", "line manager", "report to", "reports to", "reporting to"), _WORK, "person"
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
    "best friend": ("best_friend", None),
    "roommate": ("roommate", None),
    "flatmate": ("roommate", None),
    "colleague": ("colleague", None),
    "coworker": ("colleague", None),
    "co-worker": ("colleague", None),
    "boss": ("boss", None),
    "manager": ("manager", None),
    "neighbor": ("neighbor", None),
    "neighbour": ("neighbor", None),
    "kid": ("child", None),
    "child": ("child", None),
    "姐姐": ("sister", "f"),
    "妹妹": ("sister", "f"),
    "哥哥": ("brother", "m"),
    "弟弟": ("brother", "m"),
    "妈妈": ("mother", "f"),
    "母亲": ("mother", "f"),
    "爸爸": ("father", "m"),
    "父亲": ("father", "m"),
    "儿子": ("son", "m"),
    "女儿": ("daughter", "f"),
    "老婆": ("wife", "f"),
    "妻子": ("wife", "f"),
    "太太": ("wife", "f"),
    "老公": ("husband", "m"),
    "丈夫": ("husband", "m"),
    "男朋友": ("boyfriend", "m"),
    "女朋友": ("girlfriend", "f"),
    "男友": ("boyfriend", "m"),
    "女友": ("girlfriend", "f"),
    "表哥": ("cousin", "m"),
    "表姐": ("cousin", "f"),
    "表弟": ("cousin", "m"),
    "表妹": ("cousin", "f"),
    "堂哥": ("cousin", "m"),
    "堂姐": ("cousin", "f"),
    "阿姨": ("aunt", "f"),
    "叔叔": ("uncle", "m"),
    "舅舅": ("uncle", "m"),
    "奶奶": ("grandmother", "f"),
    "外婆": ("grandmother", "f"),
    "爷爷": ("grandfather", "m"),
    "外公": ("grandfather", "m"),
    "朋友": ("friend", None),
    "好朋友": ("best_friend", None),
    "室友": ("roommate", None),
    "同事": ("colleague", None),
    "老板": ("boss", None),
    "领导": ("boss", None),
    "经理": ("manager", None),
    "邻居": ("neighbor", None),
    "孩子": ("child", None),
    "同学": ("classmate", None),
    # the short and familiar forms (我爸, 我姐, 老妈), in-laws (so 我姐夫 is no sister named 夫), pets
    "爸": ("father", "m"),
    "老爸": ("father", "m"),
    "妈": ("mother", "f"),
    "老妈": ("mother", "f"),
    "哥": ("brother", "m"),
    "姐": ("sister", "f"),
    "弟": ("brother", "m"),
    "妹": ("sister", "f"),
    "闺女": ("daughter", "f"),
    "姐夫": ("brother_in_law", "m"),
    "妹夫": ("brother_in_law", "m"),
    "嫂子": ("sister_in_law", "f"),
    "弟媳": ("sister_in_law", "f"),
    "上司": ("boss", None),
    "主管": ("manager", None),
    "房东": ("landlord", None),
    "舍友": ("roommate", None),
    "闺蜜": ("best_friend", "f"),
    "发小": ("best_friend", None),
    "狗": ("dog", None),
    "小狗": ("dog", None),
    "猫": ("cat", None),
    "小猫": ("cat", None),
    "猫咪": ("cat", None),
    "狗狗": ("dog", None),
    "婆婆": ("mother_in_law", "f"),
    "岳母": ("mother_in_law", "f"),
    "丈母娘": ("mother_in_law", "f"),
    "公公": ("father_in_law", "m"),
    "岳父": ("father_in_law", "m"),
    "老丈人": ("father_in_law", "m"),
    "姑姑": ("aunt", "f"),
    "小姨": ("aunt", "f"),
    "姨妈": ("aunt", "f"),
}

_SPELLING = {
    "colour": "color",
    "flavour": "flavor",
    "favourite": "favorite",
    "licence": "license",
    "neighbour": "neighbor",
    "theatre": "theater",
    "centre": "center",
}
_LEADING = re.compile(r"^(?:(?:my|our|his|her|their|your|the|a|an|its)\s+)+")
_OF_FOR = re.compile(
    r"^(?P<aspect>.+?)\s+(?:for|of|on)\s+(?:(?:my|our|his|her|their|your|the|a|an)\s+)*"
    r"(?P<thing>.+)$"
)
_FAVORITE_EN = re.compile(r"^(?:most\s+)?(?:favorite|fave|fav)\s+(?P<x>.+)$")
_FAVORITE_ZH = re.compile(r"^最(?:喜欢|爱)(?:的)?(?P<x>.+)$")
_FRESH = re.compile(r"^(?:new|current|present|latest|updated)\s+|^(?:最新的|新的|现在的|目前的|新)")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_NON_WORD = re.compile(r"[^\w]+")


def snake(phrase: str) -> str:
    """A key segment: lower-case words joined by '_' ("Blood Pressure" -> blood_pressure); '' if none."""
    words = _NON_WORD.sub(" ", phrase.lower().replace("'s ", " ").replace("'", "")).split()
    return "_".join(_SPELLING.get(w, w) for w in words)


@dataclass(frozen=True)
class Vocabulary:
    """Attribute phrases -> keys (see the module docstring). Immutable; `extended` makes a new one."""

    attributes: tuple[Attribute, ...] = ATTRIBUTES
    aspects: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(ASPECTS))
    things: Mapping[str, str] = field(default_factory=lambda: dict(THINGS))
    fillers: frozenset[str] = FILLERS
    relations: Mapping[str, tuple[str, str | None]] = field(default_factory=lambda: dict(RELATIONS))

    def __post_init__(self) -> None:
        by_phrase: dict[str, Attribute] = {}
        for attr in self.attributes:
            for phrase in (attr.key.replace("_", " "), *attr.phrases):
                by_phrase[_clean(phrase)] = attr
        aspect_of: dict[str, str] = {}
        for key, phrases in self.aspects.items():
            for phrase in phrases:
                aspect_of[_clean(phrase)] = key
        object.__setattr__(self, "_by_phrase", by_phrase)
        object.__setattr__(self, "_memo", {})
        object.__setattr__(self, "_by_key", {a.key: a for a in self.attributes})
        # longest first: "expiry date" before "date"
        object.__setattr__(self, "_aspects", sorted(aspect_of.items(), key=lambda kv: -len(kv[0])))

    def extended(
        self,
        *,
        attributes: Iterable[Attribute] = (),
        aspects: Mapping[str, Iterable[str]] | None = None,
        things: Mapping[str, str] | None = None,
        fillers: Iterable[str] = (),
        relations: Mapping[str, tuple[str, str | None]] | None = None,
    ) -> Vocabulary:
        """A new vocabulary with more entries; a phrase given again maps to its new key."""
        merged_aspects = {k: tuple(v) for k, v in self.aspects.items()}
        for key, phrases in (aspects or {}).items():
            merged_aspects[key] = merged_aspects.get(key, ()) + tuple(phrases)
        return Vocabulary(
            attributes=self.attributes + tuple(attributes),
            aspects=merged_aspects,
            things={**self.things, **(things or {})},
            fillers=self.fillers | frozenset(fillers),
            relations={**self.relations, **(relations or {})},
        )

    def memo(self, name: str, make):
        """What `make()` returns, computed once per vocabulary (the grammars' patterns built from it)."""
        memo = self._memo  # type: ignore[attr-defined]
        if name not in memo:
            memo[name] = make()
        return memo[name]

    # -- lookups --------------------------------------------------------------------------------------

    def known(self, phrase: str) -> Attribute | None:
        """The attribute a phrase names exactly (after articles and spelling variants), or None."""
        return self._by_phrase.get(_clean(phrase))  # type: ignore[attr-defined]

    def attribute(self, key: str) -> Attribute | None:
        return self._by_key.get(key)  # type: ignore[attr-defined]

    def relation(self, word: str) -> tuple[str, str | None] | None:
        """(relation key, gender) of a relation word ("sister", "姐姐"), or None."""
        return self.relations.get(_clean(word))

    def category(self, key: str) -> str | None:
        """The a2p category of a key: its attribute's, or by family (favorite./preference. are
        preferences, relation. relationships, an aspect of a thing is context)."""
        attr = self.attribute(key)
        if attr is not None:
            return attr.category
        family = key.split(".", 1)[0]
        if family in ("favorite", "preference"):
            return "a2p:preferences"
        if family == "relation" or key in {relation for relation, _ in self.relations.values()}:
            return "a2p:relationships"
        if family == "allergy":
            return _HEALTH
        if "." in key and key.rsplit(".", 1)[1] in self.aspects:
            return _CONTEXT
        return None

    def kind(self, key: str) -> ValueKind:
        """The kind of value a key takes ("date" for a deadline, "place" for a residence ...)."""
        attr = self.attribute(key)
        if attr is not None:
            return attr.kind
        if key.rsplit(".", 1)[-1] in DATE_ASPECTS:
            return "date"
        return "text"

    # -- normalisation --------------------------------------------------------------------------------

    def normalize(self, phrase: str) -> str:
        """The key for an attribute phrase (see the module docstring); '' for a phrase with no words."""
        text = _clean(phrase)
        if not text:
            return ""
        attr = self._by_phrase.get(text)  # type: ignore[attr-defined]
        if attr is not None:
            return attr.key
        fresh = _FRESH.match(text)  # "new address", "新手机号": the attribute itself
        if fresh and fresh.end() < len(text):
            attr = self._by_phrase.get(text[fresh.end() :].strip())  # type: ignore[attr-defined]
            if attr is not None:
                return attr.key
        fav = _FAVORITE_EN.match(text) or _FAVORITE_ZH.match(text)
        if fav and (thing := self._segment(fav["x"])):
            return "favorite." + thing
        swapped = _OF_FOR.match(text)
        if swapped and self._aspect_suffix(swapped["aspect"]) is not None:
            return self.normalize(f"{swapped['thing']} {swapped['aspect']}")
        found = self._aspect_suffix(text)
        if found is not None:
            thing, aspect = found
            thing_key = self._thing(thing)
            if not thing_key:
                return aspect
            if self._by_phrase.get(thing) is not None and thing_key == aspect:  # type: ignore[attr-defined]
                return thing_key
            return f"{thing_key}.{aspect}"
        return self._segment(text)

    def _aspect_suffix(self, text: str) -> tuple[str, str] | None:
        """(the thing before it, aspect key) when `text` ends with an aspect phrase."""
        for phrase, key in self._aspects:  # type: ignore[attr-defined]
            if text == phrase:
                return "", key
            if text.endswith(phrase):
                head = text[: -len(phrase)]
                cjk = bool(_CJK.search(phrase[:1]))
                if cjk or head.endswith(" "):
                    return head.strip().removesuffix("的").strip(), key
        return None

    def _thing(self, thing: str) -> str:
        words = thing.split() if not _CJK.search(thing) else [thing]
        kept = [w for w in words if w not in self.fillers]
        text = " ".join(kept)
        if _CJK.search(text):
            for filler in sorted(self.fillers, key=len, reverse=True):
                if _CJK.search(filler) and text.endswith(filler) and len(text) > len(filler):
                    text = text[: -len(filler)]
        return self._segment(text)

    def _segment(self, text: str) -> str:
        text = text.strip().removesuffix("的")
        if text in self.things:
            return self.things[text]
        attr = self._by_phrase.get(text)  # type: ignore[attr-defined]
        if attr is not None and "." not in attr.key:
            return attr.key
        return snake(text)


def _clean(phrase: str) -> str:
    text = " ".join(phrase.replace("\u2019", "'").lower().split())
    text = _LEADING.sub("", text)
    if text.startswith("我的"):
        text = text[2:]
    elif text.startswith(("我", "他的", "她的")) and len(text) > 2:
        text = text[2:] if text[1] == "的" else text[1:]
    words = [_SPELLING.get(w, w) for w in text.split(" ")]
    return " ".join(words).strip(" .,:;!?。，：；！？")


DEFAULT_VOCABULARY = Vocabulary()
