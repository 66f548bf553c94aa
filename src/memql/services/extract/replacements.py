"""The change or correction a grammar did not bind: a message that puts a value in place of an earlier one
of the same kind ("Switched to Sonic.", "Sorry, typo. It's UA 828.", "搞错了，应该是4471").

People rarely say a change in the words a grammar expects, but they nearly always say the new value in
the shape of the old one: a date for a date, an amount for an amount, a code for a code, a name for a
name. So this pass, run after the grammar on a message that carries a change or correction cue and whose
facts bind none of the earlier keys, finds the message's new value and the latest earlier value of the
same shape in a turn on the same topic (they share a content word; a correction binds to the turn just
before without one), and drafts:

- the new value, under the key of the earlier fact that holds the old value, else a key named by the
  words the two turns share ("door code", "lisinopril") or the noun the old value was given for;
- the old value itself when no earlier fact holds it, `said_in` the turn that said it (cited to that turn,
  true from its time), so that supersession has a value to close and the old value reads as history.

Rare shapes (an email, a code, an amount or a measure in the same unit) need no shared word. A value the
message also names as rejected ("not the other one" aside) is never the new one. The drafts are hedged
(confidence HEDGED): they are read from the shape of a change, not from a construction the grammar knows.
"""

from __future__ import annotations

import re

from . import values_en, values_zh
from .common import (
    CJK,
    HEDGED,
    MOMENT,
    RECURRING,
    Draft,
    Reading,
    Said,
    count_of,
    kin_named,
    same_value,
    sentence_around,
)
from .matching import QueryWords, attribute_phrases
from .patterns_en import _NEGATION
from .replacement_keys import key_for_old, on_topic, shape_key, terms
from .shifts import following_day
from .sums import by_how_much
from .value_pairs import new_value, pairs
from .value_shapes import Value, values

_I = re.IGNORECASE
_FROM = re.compile(r"(?:从|\bfrom\s+)$", _I)
CORRECTION = re.compile(
    r"(?:^|(?<=[\s,.!]))no,|"  # "hm no, locker is 241": a comma ends no word, so no \b after it
    r"\b(?:sorry|oops|wait|nope|actually|correction|(?:small|quick|minor) fix|fix(?=\s*:)|"
    r"misspoke|mis-spoke|mis(?:heard|read|remembered)|said it wrong|typo|scratch that|"
    r"i meant|meant to say|hold on|hang on|should (?:be|have said)|had it wrong|got it wrong|wrong|"
    r"mixed (?:it|them|the two) "
    r"up|not the other|my bad|mistake|let me correct|double-?checked|read (?:it|the number) backwards)\b|"
    r"不对|搞错|说错|记错|弄错|写错|看错|错了|应该是|更正|纠正|其实是|口误|不是.{1,12}而是|写反|说反|记反|弄反|反了",
    _I,
)
CHANGE = re.compile(
    r"\b(?:instead|switch(?:ed|ing)?|swap(?:ped)?|mov(?:ed|ing)|transferr?(?:ed|ing)?|relocat(?:ed|ing)|"
    r"chang(?:ed|ing)|push(?:ed|ing)?|bump(?:ed|ing)?|delay(?:ed|ing)?|postpon(?:ed|ing)?|reschedul(?:ed|ing)?|"
    r"upgrad(?:ed|ing)?|negotiat(?:ed|ing)|haggled|talked\s+(?:him|her|them)\s+down|"
    r"replac(?:ed)?|new|now|anymore|no longer|from now on|these days|went with|going with|updated?|"
    r"raised|raise|pay rise|promot\w*|lowered|dropped|cancell?ed|left|quit|joined|started|returned|sold|"
    r"reshuffled|took over|handed over|handing over|reassigned|assigned|"
    r"setting|set|turns out|any more|got|up to|down to|went up|goes up|going up|increas\w*|decreas\w*|"
    r"settled (?:at|on)|ended up|landed on|agreed on|back to|adjust(?:ed)?|revis(?:ed|ing)|going for|"
    r"hit|reached|passed|starting|effective|doubl(?:e|es|ed|ing)|halv(?:e|es|ed|ing)|officially)\b|"
    r"\bfrom\s+[\w ]{1,20}?\s+it(?:'s|s| is|'ll be| will be)\b|"  # "from june 1 it's $1,595"
    r"现在|如今|目前|改成|改为|改到|改去|改订|换成|换到|换了|改了|搬到|搬去|搬家|调到|转到|跳槽|新的|不再|推迟|提前|"
    r"延期|延到|推到|顺延|挪到|取消|升到|涨到|降到|变成|换工作|入职|离职|辞职|退了|搬|定在|定为|新|换号|改号|换.{1,2}了|"
    r"调整|调成|调为|最后|最终|又|考过|考到|通过了|升级|改期|改签|改约|[晚早](?:了)?[一二两三四五六七八九十\d]+(?:天|周|个?星期|个?月)",
    _I,
)
# a change said with one of these binds to a value just before without a shared word ("swapped to X")
STRONG_CHANGE = re.compile(
    r"\b(?:instead|switch(?:ed|ing)?|swap(?:ped|ping)?|moved|relocated|transferred|went with|replaced|"
    r"changed|push(?:ed|ing)|bump(?:ed|ing)|delayed|postponed|rescheduled|upgraded)\b|改成|改为|换成|改到|推迟|"
    r"提前|延期|延到|推到|顺延|挪到|搬到|"
    r"搬去|转到|调到|换到|换了|跳槽|考过|考到|通过了|(?<![a-z])passed\b",  # passing a level leaves the last
    _I,
)
# getting or giving up a thing one owns: a new one of the kind the speaker held ("got an iPhone 16")
ACQUIRED = re.compile(
    r"\b(?:got|bought|picked up|ordered|returned|sold|traded in)\b|买了|入了|提了|退了|卖了", _I
)
OWNED = re.compile(
    r"(?:^|[._])(?:phone|car|laptop|computer|bike|tablet|watch|camera|console|headphones|vehicle|"
    r"work_laptop|手机|车|电脑|笔记本|平板)(?:$|[._])"
)
# a correction looks back this many turns without a shared word ("Sorry, typo. It's UA 828.")
CORRECTION_REACH = 4
_QUESTION = re.compile(r"[?？]\s*$|吗\s*$")
# a reminder asked for ("改成下午一点半提醒吧", "remind me at 1:30 instead"): the time is the reminder's
_REMINDER = re.compile(r"提醒(?:我|一下)?[吧呗哈啊。！!～~]*\s*$|叫我|\bremind me\s+(?:at|in|on|to)\b", _I)
_PRONOUN = re.compile(r"^\s*(?:\w+,\s*)*(?:he|she|him|her)\b|(?:^|[，。,])\s*[他她]", _I)
_REJECTED = re.compile(r"\b(?:not|instead of|rather than|from)\s+$|不是\s*$", _I)
# a negation earlier in the value's clause, with no "but"/"instead" after it: "I don't work at Google
# anymore" names no new employer (not even when the next clause names one: ", I'm at Meta")
_NEGATED = re.compile(
    rf"(?:{_NEGATION.pattern}|不是|不在|不住|不再)"
    r"(?![^,;.!?，；。！？]*\b(?:but|instead|rather)\b)[^,;.!?，；。！？]*$",
    _I,
)


# "I gave you the wrong one yesterday": when something was said or done, never a new value of anything
_PAST_DAY = re.compile(r"(?:yesterday|last night|earlier today|this morning|昨天|前天|刚才)", _I)


# a bare number counting some of a thing: "just 2 of the 50s each morning"
_COUNT_OF = re.compile(r"\s+of\s+(?:the|my|them|those|these|his|her|our)\b", _I)


def _rejected(text: str, v: Value) -> bool:
    """A value said as what it is not: "not July 15", "不是7月15", "don't work at Google anymore"; or a count
    of some of a thing ("2 of the 50s")."""
    return (
        _REJECTED.search(text[max(0, v.start - 12) : v.start]) is not None
        or _NEGATED.search(text[max(0, v.start - 60) : v.start]) is not None
        or (v.kind == "number" and _COUNT_OF.match(text, v.end) is not None)
    )


def _answers_own_change(r: Reading, text: str, before: list[Said]) -> Said | None:
    """The turn of the last three where the speaker announced a change, when the message is a value alone
    (the change's new value, given when asked for)."""
    said = text.strip(" .。!！~")
    if len(said) > 64:  # a value alone is short (and most messages end here, before any value is read)
        return None
    announced = next(
        (t for t in reversed(before[-3:]) if t.speaker == r.speaker and CHANGE.search(t.text)), None
    )
    if announced is None:
        return None
    found = values(said, r.now)
    if len(found) != 1 or found[0].end - found[0].start < len(said) - 2:
        return None
    return announced


def bind(r: Reading, before: list[Said], turn_index: int | None) -> None:
    """Draft a replacement the grammar did not bind (see the module docstring) into `r.facts`.
    `before` are the turns before the one read (oldest first); the old value's draft is `said_in` its
    turn (an index into `before`) when `turn_index` is None (the message itself), else it is left to the
    turn that said it."""
    text = r.text
    correcting = CORRECTION.search(text) is not None
    announced = _answers_own_change(r, text, before)  # "we changed the wifi" … "new one?" … "sunflower99"
    if not before or not (correcting or announced or CHANGE.search(text)) or _QUESTION.search(text):
        return
    if _REMINDER.search(text):
        return
    referent = None
    if _PRONOUN.search(text) and not any(d.subject != r.speaker for d in r.facts):
        # "He sold the Civic …" right after "My husband drives a Honda Civic": the one other subject the
        # speaker's recent facts are about; with none or several, whose it is is not guessed
        others = {d.subject for d in r.earlier if d.subject != r.speaker and d.speaker == r.speaker}
        others -= {d.subject for d in r.earlier if d.attribute.startswith("relation.")}
        if len(others) != 1 or len(kin_named([t.text for t in before[-3:] if t.speaker == r.speaker])) > 1:
            return
        referent = others.pop()
    mine = values(text, r.now)
    candidates = [
        v
        for v in mine
        if not _rejected(text, v)
        and not _PAST_DAY.fullmatch(text, v.start, v.end)
        and not (v.kind == "money" and by_how_much(v, text))  # "adding $400 for new decking"
        and not _FROM.search(text, 0, v.start)  # 从18000到21500, "from $1,850 to $1,975": what it was
        and not _BOUND.match(text, v.end)  # 同样的两室也要4300以上: a bound, no value
    ]
    if not candidates:
        return  # (before the recent turns are read: most messages end here)
    earlier_keys = {(d.subject, d.attribute) for d in r.earlier if d not in r.facts}
    held_keys = {attribute for _, attribute in earlier_keys}
    if any(
        (d.subject, d.attribute) in earlier_keys or (d.correction and d.attribute in held_keys)
        for d in r.facts
    ):
        return  # the grammar bound this change to a fact already (or to a key another holds)
    own_terms = terms(text)
    strong = announced is not None or STRONG_CHANGE.search(text) is not None
    acquired = ACQUIRED.search(text) is not None
    echoes = " ".join(t.text for t in before[-2:]).casefold()  # what was just said is no news
    candidates = [v for v in candidates if str(v.value).casefold() not in echoes]
    held = [d for d in r.earlier if d not in r.facts and d.speaker == r.speaker]
    held_words = set().union(*(terms(str(d.value)) for d in held))
    # the people the grammar knows by a relation or a fact about them (its list of names read anywhere
    # also holds titles and places: "reading Middlemarch")
    known = [*r.earlier, *r.facts]
    people = set(r.speakers) | {d.subject for d in known}
    people |= {str(d.value) for d in known if d.attribute.startswith("relation.") or d.kind == "person"}
    # whom the grammar read this message to be about is not a replacement's new value
    subjects = {d.subject.casefold() for d in r.facts} | {p.casefold() for p in people}
    candidates = [v for v in candidates if v.kind != "name" or str(v.value).casefold() not in subjects]
    if _bind_named(r, before, candidates, turn_index, people):
        return
    unkeyed = None  # a name no fact held, whose turn names no key for it: the last resort
    # the speaker's own turns first (an echo by someone else is a last resort), and first a turn on the
    # message's topic (`on_topic`): "changed the gate code … new one is 9032#" replaces the gate code said
    # earlier, not the bike room's number said since
    for own, topical_only in ((True, True), (True, False), (False, False)):
        for back in range(len(before) - 1, -1, -1):
            said = before[back]
            if (said.speaker == r.speaker) != own:
                continue
            near = len(before) - back <= CORRECTION_REACH
            topic = terms(said.text) & own_terms

            def named(old: Value, said: Said = said) -> int:  # the key words of the fact holding it said
                keys = {d.attribute for d in r.earlier if _holds(d.value, old, said.text)}
                return max(
                    (len(terms(k.replace(".", " ").replace("_", " ")) & own_terms) for k in keys), default=0
                )

            for old, new in pairs(values(said.text, said.time), candidates, said.text, text, named):
                if _person(old, said.text, people) != _person(new, text, people):
                    continue  # a person is replaced by a person ("our landlord now"), not by a city
                if _prices_another(new, text, said.text):
                    continue  # "$1,150 for the outlet": the price of a thing the old turn did not name
                shared = topic - terms(f"{old.value} {new.value} {said.text[old.start : old.end]}")
                # (words of a value held are no topic: "Anytime Fitness" of "Anytime Fitness on Elm")
                if topical_only and not on_topic(shared - held_words, said.text, old, text, new):
                    continue
                holders = [d for d in held if _holds(d.value, old, said.text)]
                known = bool(holders)
                owned = acquired and any(OWNED.search(d.attribute) for d in holders)
                # "Cancelled Anytime Fitness; I go to the YMCA now": the change names the value it ends
                ends_it = known and names_value(str(old.value), text)
                if not (
                    shared
                    or old.rare()
                    or (known and (strong or owned or ends_it))
                    or ((correcting or strong) and near)
                ):
                    continue
                topical = shared or known or (correcting and near) or _where_one_lives(r, said, old)
                if not topical and _read_under_own_key(r, new):
                    continue  # the grammar's key for the new value needs the old turn on its topic
                if referent is not None:
                    if not any(d.subject == referent and same_value(d.value, str(old.value)) for d in held):
                        continue  # a pronoun's change replaces a value its referent held
                elif not _same_subject(r, said, announced.text if announced else text) and not (
                    # "My landlord is raising the rent to $2,100": a value the grammar read as the speaker's
                    any(d.subject == r.speaker for d in holders) and _OPENS_WITH_OTHER.search(text) is None
                ):
                    continue
                unkeyed_name = old.kind == "name" and key_for_old(r, said, old, shared, r.speaker) == "name"
                if not holders and unkeyed_name:  # "Lisbon and Porto": an earlier turn may name its key
                    unkeyed = unkeyed or (said, back, old, new, shared)
                    continue
                _draft(r, said, back, old, new, shared, turn_index)
                return
    if unkeyed is not None:
        _draft(r, *unkeyed, turn_index)


_COMPANION = re.compile(
    r"(?<!went )(?<!going )(?<!go )\b(?:with|met|told|asked|called|texted|visited)\s+$", _I
)


# a sum followed by the thing it pays for: "$1,150 for the outlet", "400 on a new couch"
_PRICE_OF = re.compile(
    r"\s*(?:for|on)\s+(?:the|a|an|my|our|that|this|his|her)\s+((?:(?!(?:and|but|so|or|because)\b)[a-z]{3,}\s*){1,3})",
    _I,
)
# a sum said as a value's new level, whatever it is for: "raised it to $2,000 for the new lease"
_TO_A_VALUE = re.compile(r"\b(?:to|at|now|is|was|be|it's|its|of)\s*[$€£]?$", _I)


def _prices_another(new: Value, text: str, old_text: str) -> bool:
    """A new sum said as the price of a thing the old turn does not name is that thing's, no change."""
    if new.kind not in ("money", "number") or _TO_A_VALUE.search(text, 0, new.start):
        return False
    m = _PRICE_OF.match(text, new.end)
    return m is not None and not any(w.rstrip("s") in old_text.casefold() for w in m[1].casefold().split())


def _holds(held: object, old: Value, said: str) -> bool:
    """A held value the old one is: the same, headed by it, or the recurring time it names a day of
    (周六上午十点 of 每周六上午十点)."""
    words = said[old.start : old.end]
    recurs = old.kind in ("date", "clock") and RECURRING.match(str(held)) is not None and words in str(held)
    return same_value(held, str(old.value)) or _heads(held, old) or (recurs and len(words) >= 2)


def _heads(held: object, old: Value) -> bool:
    """The words said head the held value ("Anytime Fitness" of "Anytime Fitness on Elm")."""
    words = str(old.value)
    return old.kind == "name" and len(words) >= 4 and str(held).startswith(words + " ")


def names_value(value: str, text: str) -> bool:
    """`text` names `value`: whole, or by a capitalised word of it ("Anytime Fitness on Elm")."""
    return value.casefold() in text.casefold() or names_a_name_of(value, text)


def names_a_name_of(value: str, text: str) -> bool:
    """`text` says a capitalised word of four letters or more of `value`, in any case ("okafor is going on
    sabbatical" of "Dr Okafor")."""
    folded = text.casefold()
    return any(
        w[:1].isupper() and len(w) >= 4 and w.casefold() in folded for w in re.findall(r"[\w'-]+", value)
    )


_BOUND = re.compile(r"\s*(?:以上|以下|上下|开外|\+|\s*or\s+(?:more|less|so)\b|\s*and\s+up\b)", _I)


def _person(v: Value, text: str, people: set[str]) -> bool:
    """Is the value someone: a person the grammar knows, or a name after "with", "met", "told" ...?"""
    if v.kind == "name" and _TITLED.match(str(v.value)):
        return True  # "Dr. Alvarez", "Ms. Ortega": a name with a title is someone
    return v.value in people or (v.kind == "name" and _COMPANION.search(text[: v.start]) is not None)


_TITLED = re.compile(r"(?:Dr|Mr|Mrs|Ms|Miss|Prof|Coach)\.?\s+[A-Z]")


_LIVES_IN = re.compile(
    r"\b(?:live[sd]?|living|based|staying|still|renting|rent a (?:place|flat|room|house|apartment))\s+in\s+$|"
    r"(?:住在|我在|还在)\s*$",
    _I,
)


def _where_one_lives(r: Reading, said: Said, old: Value) -> bool:
    """A move ("搬到南京了") and an old turn that says where one is ("我在上海", "still in Chicago")."""
    moved = any(d.attribute == "residence" for d in r.facts)
    return moved and _LIVES_IN.search(said.text[: old.start]) is not None


def _bind_named(
    r: Reading, before: list[Said], candidates: list[Value], turn: int | None, people: set[str]
) -> bool:
    """A message that names the attribute it changes ("刚才房租说错了，应该是4300", "the rent is 1,600
    now"): the new value replaces the speaker's latest fact of that attribute whose value has its shape."""
    words = QueryWords.of(r.text)
    mine = [d for d in r.earlier if d not in r.facts and d.speaker == r.speaker]
    for held in reversed(mine):
        if not any(words.has_phrase(p) for p in attribute_phrases(held.attribute, r.vocabulary)):
            continue
        for back in range(len(before) - 1, -1, -1):
            said = before[back]
            old = next(
                (v for v in values(said.text, said.time) if same_value(v.value, str(held.value))), None
            )
            if old is None or said.speaker != r.speaker:
                continue
            new = new_value(candidates, old, said.text, r.text)
            if new is None or _person(old, said.text, people) != _person(new, r.text, people):
                continue
            if _same_subject(r, said, r.text):
                _draft(r, said, back, old, new, set(), turn)
                return True
    return False


def _read_under_own_key(r: Reading, new: Value) -> bool:
    """Did the grammar read the new value under a key the vocabulary knows (its own makings do not count)?"""
    return any(
        same_value(d.value, str(new.value)) and r.vocabulary.attribute(d.attribute) is not None
        for d in r.facts
    )


def _draft(r: Reading, said: Said, back: int, old: Value, new: Value, shared: set[str], turn: int | None):
    held = next((d for d in reversed(r.earlier) if _holds(d.value, old, said.text)), None)
    part = next((d for d in reversed(r.earlier) if _part_of(old, d)), None) if held is None else None
    if part is not None:  # "3K729" of 京A·3K729: the held value with its part replaced
        held = part
        new = Value(new.kind, new.start, new.end, str(part.value).replace(str(old.value), str(new.value)))
    elif held is not None and isinstance(held.value, int) and not str(new.value).isdigit():
        n = count_of(str(new.value))
        new = new if n is None else Value(new.kind, new.start, new.end, n)  # held 2: "three cats now" is 3
    if (
        held is not None
        and isinstance(held.value, int)
        and _MORE.search(r.text, *sentence_around(r.text, new.start, new.end))
    ):
        # held 2: 又领养了一只 is 3, unless the message says the total ("so three cats now", "现在三只了")
        total = None if _IS_TOTAL.search(r.text[: new.start]) else _ALSO_SAID_TOTAL.search(r.text, new.end)
        n = count_of(total["n"] or total["en"]) if total else count_of(str(new.value))
        if n is not None and not _IS_TOTAL.search(r.text[: new.start]):
            new = Value(new.kind, new.start, new.end, int(n) if total else held.value + int(n))
    own = read = next((d for d in r.facts if same_value(d.value, str(new.value))), None)
    if own is not None and r.vocabulary.attribute(own.attribute) is None:
        own = None  # the grammar's key of its own making ("把目标") yields to the key the old value held
    start, end = sentence_around(r.text, new.start, new.end)
    correcting = CORRECTION.search(r.text) is not None
    if own is not None:
        # the grammar read the new value, and whose it is: an earlier fact that holds the old value under
        # another subject or key is not this one's; an old value no fact held is the earlier value of the
        # grammar's key ("moved to Seattle": residence) when it is the same subject's
        if held is not None:
            if held.subject == own.subject and held.attribute != own.attribute and (correcting or shared):
                own.attribute = held.attribute  # "体检是4月16号" corrects the day the earlier words keyed
            return
        if r.vocabulary.attribute(own.attribute) is None:
            return
        if own.subject != r.speaker and not _mentions(said.text, own.subject, r.speaker):
            return
        _earlier_value(r, own.subject, own.attribute, said, back, old, turn)
        return
    named = _named_opening(r, said) if held is not None else None
    if held is not None and named not in (None, held.subject) and named not in str(held.value):
        # 阿关搬去重庆了 after 我哥住在成都 … 我闺蜜阿关也在成都: the key another held, for the one named
        subject, attribute, held = named, held.attribute, None
    elif held is not None:
        subject, attribute = held.subject, held.attribute
    else:
        subject = _subject(r, said)
        attribute = key_for_old(r, said, old, shared, subject)
        if not attribute:
            return
        if read is not None and read.subject == r.speaker and attribute == shape_key(old):
            # "Carol is moving my lesson to Wednesdays at 5:30" after "Tuesdays 6pm": the key the grammar read
            # is better than the old value's shape alone
            _earlier_value(r, read.subject, read.attribute, said, back, old, turn)
            return
    # the grammar's own reading of the new value under a key it could not bind is replaced by this one
    r.facts[:] = [d for d in r.facts if not same_value(d.value, str(new.value))]
    if held is None:
        _earlier_value(r, subject, attribute, said, back, old, turn)
    span = (new.start, new.end)
    # "下个月要搬去厦门", "relocating to Austin next month": a change said for later holds from then
    begins = (values_zh if CJK.search(r.text[start:end]) else values_en).valid_from(r, start, end, *span)
    begins = r.now if correcting else begins  # 说错了，是周日，周六我要加班: what was said is wrong now
    before = held.value if held is not None else old.value
    # "rescheduled it for the following Monday": the Monday after the held day, not after today
    value = following_day(r.text, new.start, new.end, before) or _same_day_and_half(new, before, r.text)
    if held is not None and RECURRING.match(str(held.value)) and new.kind in ("date", "clock"):
        words = r.text[new.start : new.end]  # 每周六上午十点, then 改成周日下午两点: 每周日下午两点
        value = ("每" if CJK.match(words) else "every ") + words
    r.add(Draft(subject, attribute, value, start, end, begins, HEDGED, correcting, _kind(new), span))


# an addition to a held count ("adopted another cat", "two more chickens", 又领养了一只猫): the sum
_MORE = re.compile(r"\b(?:another|more|an extra|additional|extra)\b|又|再|多了|新添|添了", _I)
_IS_TOTAL = re.compile(r"(?:\b(?:so|now|that's|that makes|total of)|现在|一共|总共)\s*$", _I)
_ALSO_SAID_TOTAL = re.compile(
    r"现在(?:一共|总共)?(?P<n>[0-9一二两三四五六七八九十]+)|"
    r"\b(?:so|now)\s+(?:we\s+have\s+)?(?P<en>\w+)\s+(?:in total|total)\b",
    _I,
)

_CLOCK_ONLY = re.compile(
    r"(?:at\s+)?(?:上午|下午|晚上|早上|中午|凌晨|傍晚)?\s*[0-9一二三四五六七八九十两]{1,3}"
    r"(?:[:：点][0-9一二三四五六七八九十半刻]{0,3}分?)?\s*(?:[ap]\.?m\.?|o'clock)?",
    _I,
)
_MORNING = re.compile(r"上午|早上|早晨|凌晨|\b(?:am|a\.m\.|morning)\b", _I)


def _same_day_and_half(new: Value, old: object, text: str) -> object:
    """A clock time said alone for a held moment ("8点15落地" after "晚上6点40"): that moment's day, and its
    half of the day unless the words say the morning."""
    moment, held = MOMENT.match(str(new.value)), MOMENT.match(str(old))
    if (
        new.kind != "clock"
        or moment is None
        or held is None
        or not _CLOCK_ONLY.fullmatch(text, new.start, new.end)
    ):
        return new.value  # "改到周五下午三点" names its own day
    hour = int(moment["h"])
    if hour < 12 <= int(held["h"]) and not _MORNING.search(text[max(0, new.start - 4) : new.end + 3]):
        hour += 12
    return f"{held['date']}T{hour:02d}:{moment['m']}:00Z"


def _earlier_value(r: Reading, subject: str, attribute: str, said: Said, back: int, old: Value, turn) -> None:
    """The old value as a fact of its own turn: in the message's delta (`said_in` that turn), or, when a
    recent turn is read again, only known to the turns after it (its own delta made it a fact then)."""
    o0, o1 = sentence_around(said.text, old.start, old.end)
    draft = Draft(
        subject, attribute, old.value, o0, o1, said.time, HEDGED, False, _kind(old), None, r.speaker
    )
    if turn is None:
        draft.said_in = back
        r.facts.insert(0, draft)
    else:
        r.known_facts.append(draft)


def _part_of(old: Value, draft: Draft) -> bool:
    text = str(old.value)
    return len(text) >= 3 and isinstance(draft.value, str) and text in draft.value and text != draft.value


def _mentions(text: str, subject: str, speaker: str) -> bool:
    """Does `text` name `subject` ("Ana", or "Mira's sister" as "my sister" / 我妹妹)?"""
    for prefix in (f"{speaker}'s ", f"{speaker}的"):
        if subject.startswith(prefix):
            return _relative(text) == subject[len(prefix) :].lower()
    return subject in text


def _kind(v: Value) -> str:
    return {"date": "date", "clock": "date", "number": "number", "name": "text"}.get(v.kind, "text")


# the relatives and close others a turn names: one list for whose value it is and whom a turn opens with
_RELATIVES_EN = (
    "mom|mum|mother|dad|father|sister|brother|son|daughter|wife|husband|partner|boss|manager|landlord|"
    "grandma|grandpa"
)
_RELATIVES_ZH = "妈妈|爸爸|老妈|老爸|姐姐|妹妹|哥哥|弟弟|儿子|女儿|老婆|老公|老板"
_OTHERS_EN, _OTHERS_ZH = "friend|neighbou?r|colleague", "朋友|同事"  # someone else, not keyed as a relative
_FAMILIAR = "(?-i:Mom|Mum|Dad|Grandma|Grandpa)"  # a relative named as a name
_RELATIVE = re.compile(
    rf"\b(?:my|our)\s+({_RELATIVES_EN})\b|\b({_FAMILIAR})\b|({_RELATIVES_ZH})",
    _I,
)


def _relative(text: str) -> str | None:
    m = _RELATIVE.search(text)
    return next(g for g in m.groups() if g).lower() if m else None


def _subject(r: Reading, said: Said) -> str:
    """Whose value it is: a person named before whom the message opens with ("Priya transferred to
    Austin"), a relative of the speaker's either turn names ("Dad takes 10 mg"), else the speaker."""
    opening = re.match(r"\s*([A-Z][a-z]+)\b(?!\s+(?:and|&)\s+(?:i|me)\b)", r.text)  # "Carol and i": mine too
    if opening and _relative(opening[1]):  # "Grandpa's doctor …": a relative, as "my grandpa" would be
        return f"{r.speaker}'s {_relative(opening[1])}"
    if (name := _named_opening(r, said)) is not None:
        return name
    relative = _relative(r.text) or (_relative(said.text) if _OPENS_WITH_OTHER.search(said.text) else None)
    return f"{r.speaker}'s {relative}" if relative else r.speaker


def _named_opening(r: Reading, said: Said) -> str | None:
    """A person named before whom the message opens with and the old turn names ("Priya transferred to
    Austin", 阿关为了工作搬去重庆了)."""
    names = {p.name for p in r.persons}
    opening = re.match(r"\s*([A-Z][a-z]+)\b(?!\s+(?:and|&)\s+(?:i|me)\b)", r.text)  # "Carol and i": mine too
    if opening and opening[1] in names and opening[1] in said.text and not _is_value_word(opening[1], said):
        return opening[1]
    text = r.text.lstrip()
    return next((n for n in names if CJK.match(n) and text.startswith(n) and n in said.text), None)


_OPENS_WITH_OTHER = re.compile(
    rf"^\s*(?:\w+[,:]\s*)*(?:(?:my|our)\s+(?:\w+\s+)?(?:{_RELATIVES_EN}|{_OTHERS_EN})|{_FAMILIAR})\b|"
    # "ramons brother is a 44L", "Jess's boss": someone's relative, an apostrophe or none
    rf"^\s*(?:\w+[,:]\s*)*[a-z]+(?:'s|’s|s)\s+(?:{_RELATIVES_EN}|{_OTHERS_EN})\b|"
    rf"^\s*我(?:的)?(?:{_RELATIVES_ZH}|{_OTHERS_ZH})",
    _I,
)


def _same_subject(r: Reading, said: Said, about: str) -> bool:
    """Are the two turns about the same one? A message about someone else (my sister's flight) never
    replaces the speaker's own value, nor the other way round; someone the message names must be named in
    the old turn too. `about` is the message's words, or those of the change it gives the value of."""
    subject = _subject(r, said)
    if subject == r.speaker:  # the message is the speaker's own: so must the old turn be
        return _OPENS_WITH_OTHER.search(said.text) is None and _OPENS_WITH_OTHER.search(about) is None
    return _mentions(said.text, subject, r.speaker) and _mentions(about, subject, r.speaker)


def _is_value_word(word: str, said: Said) -> bool:
    return any(
        word in str(v.value) for v in values(said.text, said.time) if v.kind == "name" and v.value != word
    )
