"""A reply to a question about someone: "豆豆最近怎么样？" … "胖了，现在有15公斤了" is 豆豆's weight, not the
speaker's. A fact the grammar gave the speaker only for want of a subject goes to the one the question
just before it named, when that one held the key and the speaker never did."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memql.services.tokenize import STOP_WORDS

from .common import HEDGED, SINGULAR_RELATIONS, Draft, Reading, Said, held_key, sentence_around
from .patterns_zh import _NOT_NAME
from .value_shapes import SUM_PERIOD, values

_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|me|my|mine|we|we're|our)\b|我", re.IGNORECASE)
_QUESTION = re.compile(r"[?？]\s*$")


def bind(r: Reading, said: Sequence[Said]) -> None:
    """Give the drafts of `r` that the question of the turn before (by someone else) was about to the one
    it named, or that a message saying 它 says of the one pet that held the key (兽医让它减肥，现在14公斤);
    and an amount the grammar keyed by the words before it to the key the question asked about
    ("房租怎么样？" … "一室一厅 1800" is the rent); and the one sum of money of a message that names one
    key of money and states nothing else ("rent is killing me. $1,850 for a 1br")."""
    question = bool(said) and _QUESTION.search(said[-1].text) is not None
    if question:  # (the agent's question is read in its user's voice, as its restatements are)
        _keyed_by_question(r, said[-1].text)
    _keyed_by_topic(r)
    _partner_named(r, said)
    if question:
        _role_answered(r, said)
    asked = question and said[-1].speaker != r.speaker
    if not asked and "它" not in r.text:
        return
    own = {id(d) for d in r.facts}
    for d in r.facts:
        if d.subject != r.speaker or d.said_in is not None or _FIRST_PERSON.search(r.text, d.start, d.end):
            continue
        held = {e.subject for e in r.earlier if e.attribute == d.attribute and id(e) not in own}
        if len(held) != 1 or r.speaker in held:
            continue
        (holder,) = held
        if (asked and _named(holder, said[-1].text)) or ("它" in r.text and _a_pet(r, holder)):
            d.subject = holder


def pet_of(fact, speaker: str) -> bool:
    """Does the fact (a draft or a stored fact) say its subject is an animal of the speaker's (我家狗雷克斯:
    relation.dog_of)?"""
    return fact.attribute in PET_RELATIONS and fact.value == speaker


def one_pet(r: Reading) -> str | None:
    """The speaker's one animal (我家猫叫团子: relation.cat_of), or None with none or several."""
    pets = {e.subject for e in r.earlier if pet_of(e, r.speaker)}
    return pets.pop() if len(pets) == 1 else None


def _a_pet(r: Reading, subject: str) -> bool:
    """Is `subject` an animal of the speaker's?"""
    return any(e.subject == subject and pet_of(e, r.speaker) for e in r.earlier)


PET_RELATIONS = frozenset(
    f"relation.{pet}_of" for pet in ("dog", "cat", "pet", "puppy", "kitten", "rabbit", "bird")
)


def _named(subject: str, text: str) -> bool:
    """Does `text` name `subject` ("Biscuit", 豆豆)?"""
    if re.fullmatch(r"[A-Za-z][\w .'-]*", subject):
        return re.search(rf"\b{re.escape(subject)}\b", text) is not None
    return subject in text


_AMOUNT = re.compile(r"[$€£¥]?\d[\d,]*(?:\.\d+)?(?:\s?[kKwW万千块元])?")
# a reply that opens with an amount alone: "53.5！…", "$2,100, ugh"
_BARE_AMOUNT = re.compile(
    r"\s*(?P<v>" + _AMOUNT.pattern + r"(?:\s?(?:kg|公斤|斤|lbs?))?)(?=\s*(?:$|[！!，,。.]))"
)


def _keyed_by_question(r: Reading, question: str) -> None:
    """A speaker's amount whose key is no word of the vocabulary (the grammar took the words before it),
    said right after a question that names one key of the vocabulary, is that key's."""
    mine = [
        d
        for d in r.facts
        if d.subject == r.speaker
        and d.said_in is None
        and r.vocabulary.attribute(d.attribute) is None
        and "." not in d.attribute
        and _AMOUNT.fullmatch(str(d.value)) is not None
    ]
    bare = _BARE_AMOUNT.match(r.text) if not r.facts else None
    if len(mine) != 1 and bare is None:
        return
    asked = re.split(r"(?<=[。！!.?？])\s*", question.strip())  # the sentence that asks: the last
    keys = r.vocabulary.keys_named(next((q for q in reversed(asked) if q), question))
    if len(keys) != 1 or r.vocabulary.kind(key := keys.pop()) not in ("number", "text"):
        return
    if mine:
        mine[0].attribute = key
    elif bare is not None:  # "体重现在多少了？" … "53.5！生酮那一个月还是掉了不少": the amount answers it
        r.add(Draft(r.speaker, key, bare["v"], bare.start("v"), bare.end("v"), r.now, HEDGED, False, "number",
                    bare.span("v")))  # fmt: skip


# someone else's sum: "my friend jas pays 2100", "she makes 90k", "their rent is …"
_ANOTHERS = re.compile(
    r"\b(?:he|she|his|her|their|him)\b|\bmy\s+(?:[a-z]+\s+)?(?:friend|sister|brother|mom|mum|dad|"
    r"wife|husband|partner|roommate|boss|coworker|colleague|neighbou?r|cousin|son|daughter|parents?)\b|"
    r"(?-i:\b[A-Z][a-z]+)\s+(?:pays|makes|earns|gets|spends|charges)\b|他|她|他们",
    re.IGNORECASE,
)


# "pay" said as a verb names no salary: "i pay $1,850 a month", "paying 389/mo", "have to pay"
_PAYING = re.compile(r"\b(?:i|we|you|they|to|will|'ll|gonna|still|now|and)\s+pay\b", re.IGNORECASE)

_BY = re.compile(
    r"\b(?:by|extra|another|more|up|down|off|save[ds]?|saving|cut|over|under)\s*(?:an?\s+)?$", re.I
)


_SIGNED_UP = re.compile(r"\b(?:signed up|joined)\b", re.IGNORECASE)
_BY_PERIOD = re.compile(SUM_PERIOD, re.IGNORECASE)


def _keyed_by_topic(r: Reading) -> None:
    """The one sum of money (a currency sign, "bucks", "k") in a message of the speaker's that states no
    fact of money and none in a clause holding the sum ("got the offer from Brightwell!!! 72k base": the
    employer and the salary), when the message names exactly one key of money ("rent", "salary",
    "budget") and says the sum in no sentence of someone else's: that key's value, hedged."""
    sums = [v for v in values(r.text, r.now) if v.kind == "money"]
    if len(sums) != 1:
        return
    facts = [d for d in r.facts if not d.attribute.startswith("relation.")]
    if any(r.vocabulary.category(d.attribute) == "a2p:financial" for d in facts):
        return
    if any(d.start < sums[0].end and sums[0].start < d.end for d in facts):
        return
    keys = {
        k
        for k in r.vocabulary.keys_named(_PAYING.sub(" ", r.text))
        if r.vocabulary.category(k) == "a2p:financial" and r.vocabulary.kind(k) in ("number", "text")
    }
    if not keys and _SIGNED_UP.search(r.text) and _BY_PERIOD.match(r.text, sums[0].end):
        keys = {"membership"}  # "signed up at Vertical Hive lol. $89/mo": what one pays for what one joined
    if len(keys) != 1:
        return
    (amount,) = sums
    start = sentence_around(r.text, amount.start, amount.end)[0]
    if _ANOTHERS.search(r.text, start, amount.end) or _BY.search(r.text, 0, amount.start):
        return  # ("raised my rent by $100": by how much, not the rent)
    r.add(Draft(r.speaker, keys.pop(), amount.value, amount.start, amount.end, r.now, HEDGED, False,
                "number", (amount.start, amount.end)))  # fmt: skip


# "ive been seeing someone" … "her name's lena, she's a paramedic": the one seen, named after
_SEEING_SOMEONE = re.compile(
    r"\b(?:seeing|dating|going out with|met)\s+(?:someone|somebody|a\s+(?:guy|girl|woman|man))(?:\s+new)?\b",
    re.IGNORECASE,
)
_THEIR_NAME = re.compile(
    r"(?:^|[^\w\s,']\s*)(?:so\s+|ok\s+|well\s+)?(?:her|his|their)\s+name(?:'s|\s+is)\s+(?P<name>[A-Za-z][a-z'-]+)",
    re.IGNORECASE,
)


def _partner_named(r: Reading, said: Sequence[Said]) -> None:
    """The speaker's partner named in the message after one of their last turns said they are seeing
    someone (the grammar reads the two said together: "seeing someone new, her name is Lena")."""
    if any(d.attribute == "partner" for d in r.facts) or (m := _THEIR_NAME.search(r.text)) is None:
        return
    own = [t.text for t in said[-3:] if t.speaker == r.speaker] + [
        r.text[: m.start()]
    ]  # ("… 👀 her name is")
    if not any(_SEEING_SOMEONE.search(t) for t in own) or m["name"].lower() in STOP_WORDS:
        return  # ("her name's not important")
    name = m["name"][0].upper() + m["name"][1:]
    r.add(Draft(r.speaker, "partner", name, m.start(), m.end(), r.now, HEDGED, False, "person",
                m.span("name")))  # fmt: skip


# "那你们组现在谁带？" … "老周，原来隔壁数据组的"; "who's your new manager?" … "Raj, he came from sales": the
# one a question about who holds a role of the one answering is answered with, named first in the reply (the
# agent's question is read in its user's voice: 我们组, "my new manager")
_WHO_ZH = re.compile(
    r"我(?:们|们组|们部门|的)?[^？?]{0,6}?(?:谁(?P<leads>带|管|负责)|"
    r"(?:新的?|现在的)?(?P<rel>[\u4e00-\u9fff]{2,3}?)(?:现在|目前)?(?:是|换成|换成了)谁)"
)
_WHO_EN = re.compile(r"\bwho(?:'s|s| is| will be)\s+my\s+(?:new\s+)?(?P<rel>[a-z]+)\b", re.IGNORECASE)
_NAMED_FIRST_ZH = re.compile(
    r"(?:新来的|新的|现在是|暂时是|还是|就是|是)?"
    r"(?P<name>[阿小老][\u4e00-\u9fff]|[\u4e00-\u9fff]{2,3})(?=$|[，,。！!\s])"
)
_NAMED_FIRST_EN = re.compile(r"(?:(?:it's|its|it is|a guy named|a woman named|someone named)\s+)?"
                             r"(?-i:(?P<name>[A-Z][a-z]+))(?=$|[\s,.!-])", re.IGNORECASE)  # fmt: skip
# the speaker's own: 我脱单了 (not 我妹脱单了)
_SEEING_ZH = re.compile(
    r"(?<![\u4e00-\u9fff])我(?:终于|也|已经)?(?:脱单|有(?:男|女)朋友了|谈恋爱了|恋爱了|交了个?(?:男|女)朋友)"
)
_WHO_IS_ZH = re.compile(r"(?:是谁|谁呀|谁啊|哪位|叫什么)[呀啊呢]?[？?]")
_NO_ANSWER = re.compile(r"不知道|不清楚|还没|没有|不好说|暂时|目前|还行|一样|老样子|没人|没定")


def _role_answered(r: Reading, said: Sequence[Said]) -> None:
    """The one named first in a reply to a question about who holds a role of the reply's speaker now, or
    who it is after the speaker said they are seeing someone (我脱单了 … 是谁呀？ … 阿珍，…): that role's
    holder, hedged — when the reply names the role's holder in no other way."""
    question = said[-1].text
    seeing = len(said) > 1 and said[-2].speaker == r.speaker and _SEEING_ZH.search(said[-2].text) is not None
    if seeing and _WHO_IS_ZH.search(question) is not None:
        relation, named = "partner", _NAMED_FIRST_ZH.match(r.text)
    elif (m := _WHO_ZH.search(question)) is not None:
        relation = "boss" if m["leads"] else (r.vocabulary.relation(m["rel"]) or (None,))[0]
        named = _NAMED_FIRST_ZH.match(r.text)
    elif (m := _WHO_EN.search(question)) is not None:
        relation = (r.vocabulary.relation(m["rel"].lower()) or (None,))[0]
        named = _NAMED_FIRST_EN.match(r.text)
    else:
        return
    if relation not in SINGULAR_RELATIONS or named is None:
        return
    name = named["name"]
    if _NOT_NAME.match(name) or _NO_ANSWER.match(name) or name.lower() in STOP_WORDS:
        return
    key = held_key(r.vocabulary, relation)
    if any(d.subject == r.speaker and d.attribute == key for d in r.facts):
        return
    r.relate(name, relation, named.start(), named.end(), HEDGED, named.span("name"))
