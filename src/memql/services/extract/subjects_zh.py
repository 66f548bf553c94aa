"""Who a Chinese part is about (rules_zh.py reads the rest): the speaker (我/我们), a relative with or
without a name (我姐姐安娜, 我妈), a role or attribute of a relative that is not their name (我女儿班主任,
我爸手机号), 他/她 resolved to the one person they can be, or a name before a verb of residence or work; and
the parts that name a relative by a name (`relation`: 我老婆叫安娜, 新来的老板姓刘), with the adverbs and
times a subject's verb comes after (`after_adverbs`)."""

from __future__ import annotations

import re

from .common import SINGULAR_RELATIONS, Reading
from .corrections_zh import unnamed_relative
from .patterns_zh import (
    _ADVERB,
    _FAMILIAR,
    _JOB_NOUN,
    _NAME_CJK,
    _NAME_LATIN,
    _NOT_NAME,
    _PLACE_NOUN,
    _PRED_START,
    _SINCE,
)
from .values_zh import add_fact, key_of
from .vocabulary import snake

# a role someone holds for the relative before it: 我女儿班主任是王老师 names the teacher, not the daughter
_ROLE_NOUN = re.compile(
    r"班主任|主任|老师|医生|大夫|经理|老板|教练|同学|同事|领导|上司|班长|校长|律师|保姆|司机|室友|房东|对象"
)


_ATTRIBUTE_NEXT = re.compile(r"(?P<attr>[\u4e00-\u9fff]{1,6}?)(?=[：:\s]|是)")


_STUDY_LEVEL = re.compile(r"博士|硕士|研究生|本科|大学|高中|初中|小学|研|博|大专")


def _not_a_name(r: Reading, words: str) -> bool:
    return (
        bool(_ROLE_NOUN.fullmatch(words) or _STUDY_LEVEL.fullmatch(words))  # 儿子博士毕业: a level
        or r.vocabulary.attribute(r.vocabulary.normalize(words)) is not None
        or re.search(r"[我你他她它]", words) is not None  # 我妈教我做饭: 教我 is no name
    )


def relation_words(r: Reading) -> str:
    def make() -> str:
        words = [w for w in r.vocabulary.relations if not w.isascii()]
        return "|".join(sorted(words, key=len, reverse=True))

    return r.vocabulary.memo("relations_zh", make)


# 我大学室友阿杰, 以前的同事小王: when one knew them, before the relation
_SCHOOL_DAYS = r"(?:大学|高中|初中|小学|以前的|之前的|前)?"


# 我同事小吴更惨, 我表哥阿强很会做饭, 我老板张敏每次都拖堂: a word of degree or of how often starts what
# is said of the one named
_DEGREE = r"(?:更|太|挺|很|特别|非常|每次|每回|总是|老是|经常|天天|又|就)"


def subject_at(r: Reading, pos: int, end: int) -> tuple[str, int, bool] | None:
    """(subject, position after it, possessive 的 follows) at the start of a part."""
    s = r.text
    rel = re.compile(
        rf"(?:(?:我们|我)(?:家)?的?)?{_SCHOOL_DAYS}(?:新)?(?P<rel>{relation_words(r)})(?P<name>{_NAME_LATIN}|{_NAME_CJK})??"
        rf"(?=(?:{_ADVERB.pattern})*{_PRED_START}|{_DEGREE}|[。！!~]*$)"  # (我家猫团子 alone: a held turn)
    ).match(s, pos, end)
    if rel is None or (rel["name"] and r.times_from(rel.start("name") + 1, rel.end("name"))):
        rel = _named_before_time(r, pos, end) or rel
    if rel is not None:
        after = rel.end()
        if rel["name"] and r.in_a_time(rel.start("name")):
            after = rel.start("name")  # 我家猫下周一…: the time is the verb's, not a name
        de = s.startswith("的", after)  # 我姐姐的护照…: the sister's passport
        if rel["name"] and re.match(r"[跟和给让把被从叫]", rel["name"]):
            return _relative(r, rel), rel.start("name"), False  # 姑妈跟着表哥去了…: no name, the verb's words
        if rel["name"] and _not_a_name(r, rel["name"]):
            return _relative(r, rel), rel.start("name"), True  # 我女儿班主任是…: the daughter's teacher
        return _relative(r, rel), after + de, de
    bare = re.compile(rf"(?:(?:我们|我)(?:家)?的?)?(?P<rel>{relation_words(r)})(?P<name>)").match(s, pos, end)
    if bare is not None and r.times_from(bare.end(), bare.end() + 1):  # 我妈下个月15号来北京
        return _relative(r, bare), bare.end(), False
    if bare is not None and s.startswith("把", bare.end()) and not _ROLE_NOUN.fullmatch(bare["rel"]):
        # 表姐把丰田卖了: the cousin sold hers (房东把房租涨了 is the speaker's rent)
        return _relative(r, bare), bare.end(), False
    attr = _ATTRIBUTE_NEXT.match(s, bare.end(), end) if bare is not None else None
    if bare is not None and attr is not None and r.vocabulary.attribute(r.vocabulary.normalize(attr["attr"])):
        return _relative(r, bare), bare.end(), True  # 我爸手机号：138…: the father's phone
    if bare is not None and bare.start("rel") > pos and not re.match(r"[们家]", s[bare.end() :]):
        # 我老公每周五晚上打麻将: 我 + a relative is that relative, whatever verb follows (我哥们: friends)
        de = s.startswith("的", bare.end())
        return _relative(r, bare), bare.end() + de, de
    if bare is not None and not re.match(r"[们家]", s[bare.end() :]):
        # 姑妈在苏州住不惯，又回宁波了 after 我姑妈住在宁波: the relative the speaker spoke of before
        rel = _FAMILIAR.get(bare["rel"], bare["rel"])
        known = f"{r.speaker}的{rel}"
        if any(p.name == known for p in r.persons) or any(d.subject == known for d in r.earlier):
            de = s.startswith("的", bare.end())
            return known, bare.end() + de, de
    if (m := re.compile(r"(?:我们|咱们|我)(?:家)?(?P<de>的)?").match(s, pos, end)) is not None:
        return r.speaker, m.end(), bool(m["de"])
    if (m := re.compile(rf"(?P<p>他|她)的?(?P<rel>{relation_words(r)})").match(s, pos, end)) is not None:
        rel = _FAMILIAR.get(m["rel"], m["rel"])
        # (read once already, this part names them: 她 no longer stands for the owner)
        named = [p.name for p in r.persons if p.turn == r.turn and p.name.endswith(f"的{rel}")]
        owner = r.pronoun("m" if m["p"] == "他" else "f")  # 她老公在科大讯飞上班: her husband
        if owner is None and not named:
            return None
        gender = (r.vocabulary.relation(m["rel"]) or ("", None))[1]
        who = named[-1] if named else f"{owner}的{rel}"
        r.name_person(who, gender)
        de = s.startswith("的", m.end())
        return who, m.end() + de, de
    # 继父退休了，他们搬去三亚了: the household moves with him
    if (
        m := _HOUSEHOLD_MOVE.match(s, pos, end) or re.compile(r"(?P<p>他|她)(?P<de>的)?").match(s, pos, end)
    ) is not None:
        gender = "m" if m["p"] == "他" else "f"
        who = r.pronoun(gender) or unnamed_relative(r, gender)  # 我女儿… 她转学了: the daughter
        return (who, m.end(), bool(m.groupdict().get("de"))) if who else None
    for person in reversed(r.persons):
        if s.startswith(person.name, pos):
            de = s.startswith("的", pos + len(person.name))
            # 小琪一家搬到杭州了: the family moves with her
            family = re.compile(r"(?:一家人?|全家|他们|她们|两口子|夫妻俩)").match(
                s, pos + len(person.name), end
            )
            after = family.end() if family and not de else pos + len(person.name) + de
            r.name_person(person.name, person.gender)  # named again: a 她 after it is this one
            return person.name, after, de
    m = re.compile(
        rf"(?P<name>{_NAME_LATIN}|[\u4e00-\u9fff]{{2,3}}?)(?=(?:现在|目前|已经|也|还)*(?:住在|搬到|搬去|在.+?(?:工作|上班)))"
    ).match(s, pos, end)
    if (
        m is not None
        and not _NOT_NAME.match(m["name"])
        and not m["name"].startswith(("你", "他", "她", "这", "那"))
        and not _PLACE_NOUN.search(m["name"])  # 公司搬到了望京: an organisation, not a person
    ):
        r.name_person(m["name"], None, (m.start(), m.end()))
        return m["name"], m.end(), False
    return None


def _named_before_time(r: Reading, pos: int, end: int) -> re.Match[str] | None:
    """我室友小琪月底搬走, 我妹妹小红下周来北京: a relative's name ending where a time of the part begins."""
    pattern = r.vocabulary.memo(
        "relative_named_zh",
        lambda: re.compile(
            rf"(?:(?:我们|我)(?:家)?的?)?{_SCHOOL_DAYS}(?:新)?(?P<rel>{relation_words(r)})"
            rf"(?P<name>{_NAME_LATIN}|[\u4e00-\u9fff]{{2,4}}?)"  # (我妈嫌五一…: one character is a verb)
        ),
    )
    for t0, _, _ in sorted(r.times_from(pos + 1, end)):
        if (m := pattern.fullmatch(r.text, pos, t0)) is None:
            continue
        name = m["name"]
        if _not_a_name(r, name) or _NOT_NAME.match(name) or r.vocabulary.relation(m["rel"] + name):
            return None  # 我女儿班主任下周…: a role; 我妈妈下周…: one relation word, no name
        return m
    return None


_HOUSEHOLD_MOVE = re.compile(
    r"(?P<p>他|她)们(?:俩|两口子|一家)?(?=(?:也|都|已经|一起|全家)*(?:搬|定居|回|住))"
)


def celebrated_at(r: Reading, pos: int, end: int) -> tuple[str, int, bool] | None:
    """给爷爷过了90大寿: the relative whose birthday of that age was held (the subject of the age)."""
    m = re.compile(
        rf"给(?:我们|我)?(?:家)?的?(?P<rel>{relation_words(r)})(?P<name>)(?=(?:过|办|庆祝)了?[^，,。]{{1,4}}(?:大寿|岁生日))"
    ).match(r.text, pos, end)
    return (_relative(r, m), m.end(), False) if m is not None else None


def moved_relative(r: Reading, pos: int, end: int) -> tuple[str, int, int] | None:
    """把奶奶接到了奥兰多的养老院: (the relative moved, the span of where to) — a home someone else moved
    them to."""
    m = re.compile(
        rf"把(?:我们|我)?(?:家)?的?(?P<rel>{relation_words(r)})(?P<name>)(?:接|送|搬|转)(?:到了?|去了?|回了?|进了?)"
        r"(?P<v>[^，,。！!]{2,12}?)(?:了|住|去|来)?$"
    ).match(r.text, pos, end)
    return (_relative(r, m), m.start("v"), m.end("v")) if m is not None else None


def _relative(r: Reading, m: re.Match[str]) -> str:
    relation, gender = r.vocabulary.relation(m["rel"]) or (snake(m["rel"]), None)
    name = m["name"]
    if name and _not_a_name(r, name):
        name = None  # 我女儿班主任, 我爸手机号: a role or an attribute of theirs, not their name
    if name and r.in_a_time(m.start("name")):
        name = None  # 我家猫下周一去打疫苗: a time, not the cat's name
    if not name or _NOT_NAME.match(name):
        # 我姐姐 after 我姐姐小红: the one sister named before, when only one was
        named = {
            d.subject for d in r.earlier if d.attribute == f"relation.{relation}_of" and d.value == r.speaker
        }
        rel = _FAMILIAR.get(m["rel"], m["rel"])  # 我爸 and 我爸爸 are one father
        return named.pop() if len(named) == 1 else f"{r.speaker}的{rel}"
    r.name_person(name, gender, (m.start("name"), m.end("name")))
    r.relate(name, relation, m.start(), m.end(), 0.9, (m.start("name"), m.end("name")))
    return name


def skip(pattern: re.Pattern[str], s: str, pos: int, end: int) -> int:
    m = pattern.match(s, pos, end)
    return m.end() if m else pos


def after_adverbs(r: Reading, pos: int, end: int) -> int:
    """Past the adverbs and time words between a subject and its verb (我上个月已经搬到…)."""
    s = r.text
    while pos < end:
        m = _ADVERB.match(s, pos, end)
        if m is not None and m.end() > pos:
            pos = m.end()
            continue
        at = pos + 1 if s.startswith("从", pos) else pos  # 从七月起, 这个月开始: a time it starts at
        t = next((t1 for _, t1, _ in r.times_from(at, at + 1) if t1 <= end), None)
        if t is None:
            return pos
        pos = skip(_SINCE, s, t, end)
    return pos


# 是做销售的, 是开店的: what someone does, said as one who does it (no name)
_DOES = re.compile(r"(?:做|干|搞|当|开|跑|教|学|卖)[\u4e00-\u9fff]{0,4}的$|[\u4e00-\u9fff]{1,3}的$")
_DESCRIBED_NAME = (
    r"(?:一?(?:个|位|家|间))?(?:姓(?P<sur>[\u4e00-\u9fff])的(?P<title>[\u4e00-\u9fff]{1,3})|"
    r"叫(?P<called>[\u4e00-\u9fffA-Za-z]{2,8}?)的[\u4e00-\u9fff]{1,4})"
)


def relation(r: Reading, a: int, b: int, confidence: float) -> str | None:
    """我老婆叫安娜 / 安娜是我姐姐: the person, and the relation fact naming them."""
    # a name, with the title it is said with (帕特尔先生, 李阿姨)
    titled = r"(?:先生|女士|小姐|太太|阿姨|叔叔|老师|医生|大哥|大姐)"
    rels, name = (
        relation_words(r),
        rf"(?P<name>{_NAME_LATIN}|[^\W的个位家姓叫]{{1,4}}?{titled}|[\u4e00-\u9fff]{{1,4}})",
    )
    part, a = a, after_adverbs(r, a, b)  # 现在我的领导是老陈
    m = re.compile(
        rf"(?:(?:我们|我)(?:家)?的?(?:新|(?:现在|目前|如今)的)?|"
        rf"(?P<new>新来的|新的?|(?:现在|目前|如今)的|(?<=现在|目前|如今)的))(?P<rel>{rels})"
        rf"(?:(?:叫|是|名叫|的名字是|的名字叫)(?:{_DESCRIBED_NAME}|{name})|姓(?P<sur2>[\u4e00-\u9fff]))"
        rf"(?:了|呢)?(?=$|[，,])"  # 我房东是帕特尔先生，什么都不修: read on; 新来的老板姓刘: 刘老板
    ).match(r.text, a, b)
    m = m or re.compile(rf"{name}是我(?:们)?的?(?:直属|顶头|新的?|现在的)?(?P<rel>{rels})(?:了|呢)?$").match(
        r.text, a, b
    )
    if m is None:
        return None
    # 新房东是个姓陈的大哥: 陈大哥; 一家叫光明的公司: 光明
    surname = m.groupdict().get("sur2")
    said = m["name"] or m["called"] or (surname + m["rel"] if surname else m["sur"] + m["title"])
    if m["name"] or m["called"]:
        span = m.span("name") if m["name"] else m.span("called")
    else:
        span = m.span("sur2") if surname else (m.start("sur"), m.end("title"))
    if _NOT_NAME.match(said) or (m["name"] and (_JOB_NOUN.search(said) or _DOES.match(said))):
        return None
    relation, gender = r.vocabulary.relation(m["rel"]) or (snake(m["rel"]), None)
    if m.groupdict().get("new") and relation not in SINGULAR_RELATIONS:
        return None  # 新老板是马总 is the speaker's (one has one boss); 新同事是小王 names no one's
    r.name_person(said, gender, span)
    r.relate(said, relation, part, b, confidence, span)
    return said


# 新来的保姆姓赵, 现在的物业经理叫老孙: the new holder of a role the speaker named before
_NEW_HOLDER = re.compile(
    r"(?:新来的|新的?|(?:现在|目前|如今)的)(?P<attr>[\u4e00-\u9fff]{1,4}?)"
    r"(?:姓(?P<sur>[\u4e00-\u9fff])|叫(?P<name>[\u4e00-\u9fff]{1,4}))(?:了|呢|啦)?$"
)


# 健身房给我换了个教练 叫阿Ken, 换了个马教练: the role's new holder, by name or by surname and role
_SWAPPED_HOLDER = re.compile(
    r"[^，,。！!？?]{0,8}?换了(?:一)?个(?:新的?)?(?P<sur>[\u4e00-\u9fff](?=教练|老师|医生|阿姨|保姆))?"
    r"(?P<attr>教练|老师|医生|阿姨|保姆|班主任|房东|领导|经理)"
    r"(?:[，, ]*(?:叫|是)(?P<name>[A-Za-z\u4e00-\u9fff]{1,5}?)(?=$|[，,。！!\s]))?"
)


def new_holder(r: Reading, a: int, b: int, confidence: float) -> bool:
    """The held role's new holder (赵保姆 for 新来的保姆姓赵, when the speaker said who held it before); the
    one a role was swapped to (阿Ken for 健身房给我换了个教练 叫阿Ken, 马教练 for 换了个马教练)."""
    start = after_adverbs(r, a, b)
    m = _NEW_HOLDER.match(r.text, start, b) or _SWAPPED_HOLDER.match(r.text, start, min(len(r.text), b + 10))
    if m is None:
        return False
    swapped = m.re is _SWAPPED_HOLDER
    role = r.vocabulary.relation(m["attr"]) if swapped else None  # 教练: one's coach
    key = role[0] if role else key_of(r, m["attr"])
    held = [d for d in reversed(r.earlier) if d.attribute == key and d.speaker == r.speaker]
    if swapped and m["name"]:
        value, span = m["name"], m.span("name")
    elif m["sur"]:
        value, span = m["sur"] + m["attr"], (m.start("sur"), m.end("attr") if swapped else m.end("sur"))
    else:
        value, span = m["name"], m.span("name")
    if not value or not (held or swapped):
        return False  # (换了个老师 alone names no one)
    add_fact(r, held[0].subject if held else r.speaker, key, value, a, max(b, span[1]), confidence, True,
             "person", span)  # fmt: skip
    return True


def name_people(r: Reading, start: int, end: int) -> None:
    """The relatives named anywhere in the sentence (我哥哥大伟和我姐姐安娜来了), for a later 他/她."""
    named = {(p.turn, p.name) for p in r.known_persons}
    pattern = (
        rf"我(?:们)?(?:家)?的?{_SCHOOL_DAYS}(?P<rel>{relation_words(r)})(?P<name>{_NAME_LATIN}|[\u4e00-\u9fff]{{2,3}}?)"
        r"(?=现在|目前|已经|也|还|都|和|跟|与|、|，|,|。|来|去|在|住|$)"
    )
    for m in re.compile(pattern).finditer(r.text, start, end):
        if (
            (r.turn, m["name"]) in named
            or _NOT_NAME.match(m["name"])
            or m["name"].startswith(("他", "她", "你", "它"))  # 我表妹她们: no name
            or r.in_a_time(m.start("name"))  # 我家猫下周一…: a time
        ):
            continue
        _relation_key, gender = r.vocabulary.relation(m["rel"]) or ("", None)
        r.name_person(m["name"], gender, (m.start("name"), m.end("name")))
