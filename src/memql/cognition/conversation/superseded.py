"""Messages a later change said of the same thing makes history, where no typed fact was formed.

The typed facts (formation.label_stale) label a line that states a value a fact no longer holds. Rules do
not read every phrasing, though: "I bank with Chase" … "Moved all my accounts over to Ally", or
我在超级猩猩健身 … 超级猩猩退了，办了乐刻的卡 leave no fact, and the older line would read as current.

Here a context's messages are read the way a person rereads a chat: a later message by the same speaker
that says something changed ("now", "switched", "actually", 现在, 改成, 退了 …) about the same thing — a
content word or name both messages use that is not only who they are about — makes the earlier line, and
the assistant's replies that echoed it, history from the later message's day: ``until <date>:``, the label
`label_stale` writes. It is never guessed across people: when the two messages speak of different people
(my sister … my brother; I … my sister), nothing is labelled. A change said for later (a fact whose value
starts after the context's instant) labels nothing yet. Some endings close a state whatever words were said
of it (`_ENDED_STATES`: retiring ends work, a discharge a hospital stay). And a typed fact formed later
ages an earlier line of the same one that spoke of its attribute in words no fact was read from
(`_label_by_facts`), even when the message that formed it is not in the context.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from itertools import pairwise

import snowballstemmer

from memql.cognition.conversation.base import Piece
from memql.cognition.conversation.formation import StoredFact, facts_by_source
from memql.cognition.conversation.line_people import _NAMED, _about, _known, _others, _people, _same_people
from memql.cognition.conversation.stale_forms import says_whole
from memql.services.extract.matching import STOP_WORDS
from memql.services.extract.vocabulary import DEFAULT_VOCABULARY, Vocabulary
from memql.services.extract.vocabulary_words import RELATIONS

# Words that say a value was replaced: a change, a correction, a state now. Words that only say something
# began ("new", "started", "joined", 开始, 新的) are not among them: a new painting class ages nothing said
# of painting before it.
_CHANGE_EN = re.compile(
    r"\b(?:now|nowadays|these days|anymore|any more|no longer|no more|instead|actually|correction|"
    r"scratch that|"
    r"wait|switch(?:ed|ing)?|swapp?ed|mov(?:e|ed|ing)|chang(?:e|ed|ing)|quit|left|leaving|"
    r"upgrad(?:e|ed)|downgrad(?:e|ed)|rais(?:e|ed)|lower(?:ed)?|replac(?:e|ed)|transferr?ed|promoted|"
    r"retir(?:e|ed)|sold|traded|cancel(?:l)?ed|dropped|gave up|stopped|finished|settled|ended up|"
    r"resched(?:uled)?|postponed|pushed|bumped|delayed|brought forward|rebooked|renamed|broke up|"
    r"divorced|got married|got engaged|tied the knot|adjusted|updated|increased|decreased|turns? out|"
    r"not .{1,30} but|no,)\b",
    re.IGNORECASE,
)
_CHANGE_ZH = re.compile(
    r"现在|如今|目前|改成|改为|改到|改在|改了|换成|换到|换了|换去|搬到|搬去|搬家|搬了|不对|(?<!不)错了|说错|看错|"
    r"记错|其实|不再|退了|辞职|离职|跳槽|涨到|涨了|降到|降了|调到|调回|调去|推迟|提前|延期|延后|取消|分手|转让|倒闭|"
    r"离婚|结婚了|领证了|看完|戒了|戒烟|戒酒|转到|转去|转学|卖了|挪到|退休|放下了|不是.{1,12}是|变成|定在|最后|"
    # 不考研了, 不学钢琴了, 皇家的不能吃了: no longer (不错了, 不少了 only judge)
    r"不(?!错|少|多|久|好意思)(?:再|能|会|用|想|要|去)?[\u4e00-\u9fff]{1,3}了"
)
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|\d[\d,.:]*\d|\d")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")
# characters that say who or how, not what: a Chinese two-character run holding one is no anchor
_ZH_FUNCTION = frozenset(
    "我你他她它们的了是在有和也都就还很吗呢吧啊呀嘛这那个些么不没对给把被让跟与从到去来说要会能想"
)
_ZH_NOT_ANCHORS_WORDS = """
    今天 明天 昨天 后天 前天 上午 下午 中午 晚上 早上 周一 周二 周三 周四 周五 周六 周日
    星期 礼拜 下周 上周 本周 这周 月份 今年 去年 明年 时候 现在 以后 之前 一直 知道 觉得 好像
    应该 可以 一下 谢谢 没事 真的 哈哈
"""
_ZH_NOT_ANCHORS = frozenset(_ZH_NOT_ANCHORS_WORDS.split())
_EN_NOT_ANCHORS_WORDS = """
    now nowadays these days anymore longer instead actually correction scratch that wait switch
    switched moved move moving changed change new newly started start starts starting quit left
    leaving joined join got get gets went gone finally just still also really lol haha yeah yes okay
    ok thanks thank this that they them then than there here have has had will would can could
    should been being said says told tell know think guess going gonna today tomorrow yesterday week
    month year morning night last next ago since before after over all some any much many more most
    very too not but
"""
_EN_NOT_ANCHORS = frozenset(_EN_NOT_ANCHORS_WORDS.split())
_STEMMER = snowballstemmer.stemmer("english")
_LINE = re.compile(r"^(?P<cite>\[[^\]\n]*\])\s(?:(?P<speaker>[^:\n]{1,80}):\s)?(?P<text>.*)$")


def label_superseded(
    pieces: Sequence[Piece], at: datetime, facts: Sequence[StoredFact] = (), agent: str = "assistant"
) -> list[Piece]:
    """`pieces` with each message line that a later change by the same speaker about the same thing
    makes history labelled ``until <that message's day>:`` (see the module's docstring), with the
    replies of `agent` (the speaker name of the conversation's agent) that echoed it, and each fact
    piece that such a line stated, when the change speaks of that fact (its attribute's words or its
    value's). A message whose facts (of `facts`) start after `at` says a change for later: it labels
    nothing yet."""
    later = {f.source for f in facts if f.source and f.valid_from > at}
    stated = facts_by_source(facts)
    lines = []  # (time, position, piece index, line index, speaker, text)
    cited: dict[tuple[int, int], str] = {}  # (piece index, line index) -> the line's turn id
    for p, piece in enumerate(pieces):
        if piece.level != "message" or piece.time is None or piece.time > at:
            continue
        for i, line in enumerate(piece.text.split("\n")):
            m = _LINE.match(line)
            if m:
                speaker = (m["speaker"] or "").strip()
                lines.append((piece.time, getattr(piece, "position", 0), p, i, speaker, m["text"]))
                cited[(p, i)] = m["cite"][1:-1]
    if not lines:
        return list(pieces)
    lines.sort(key=lambda x: (x[0], x[1]))
    people_named = _named_people(lines)
    related: dict[str, set[str]] = {}  # a person's relations to the speakers ("Gwen": best_friend)
    for f in facts:
        if f.attribute.startswith("relation.") and f.attribute.endswith("_of"):
            related.setdefault(f.subject, set()).add(f.attribute[len("relation.") : -len("_of")])
    labels: dict[tuple[int, int], tuple[datetime, frozenset[str]]] = {}
    for n, (when, _, p, i, speaker, text) in enumerate(lines):
        new_job = {f.subject for f in stated.get(cited[(p, i)], ()) if f.attribute == "job_title"}
        # a line that says no change ages only what its new job title ends ("Greg took a job as …")
        changes = _says_change(text) or _ended(text)
        if speaker == agent or not (changes or new_job) or set(pieces[p].source_ids) & later:
            continue
        anchors, people = (_anchors(text) - people_named - _STATES) | _ended(text), _people(text)
        anchors |= {"@" + f.attribute for source in pieces[p].source_ids for f in stated.get(source, ())}
        anchors = anchors if changes else set()
        whose = _subjects(stated.get(cited[(p, i)], ()))
        for k, earlier in enumerate(lines[:n]):
            _, _, q, j, by, said = earlier
            if (q, j) in labels or (by != speaker and by != agent) or q == p:
                continue
            replied = lines[k - 1] if by == agent and k > 0 else earlier  # a reply is of what it answered
            theirs = _subjects(stated.get(cited[(replied[2], replied[3])], ()))
            if _others(whose, theirs, related, {speaker, by}):
                continue  # "Gwen moved to Austin" ages nothing said of "my brother" (facts of others)
            shared = anchors & _anchors(said)
            if by == agent and not shared:  # a reply echoing what it answered, that message shown or not
                asked = _replied(pieces[q], speaker)
                shared = anchors & _anchors(asked) if asked and _echoes(said, asked) else shared
            if _ENDING.search(text) and any(re.search(rf"\b{re.escape(w)}\b", text) for w in theirs):
                shared |= _alike(anchors, _anchors(said))  # "Rachel gave up dentistry": "Rachel is a dentist"
            if any(f.subject in new_job and f.attribute in _DOES for f in stated.get(cited[(q, j)], ())):
                shared |= {"@job_title"}  # "Tom teaches math" … "Tom switched careers, he's a tester now"
            if shared and _same_people(people, _people(said), by == agent):
                known = {_WHO + w for w in whose if _known(w, related, {speaker, by})}
                labels[(q, j)] = (when, shared | known)
    _label_by_facts(pieces, lines, facts, stated, at, agent, labels)
    _label_echoes(lines, labels, agent)
    if not labels:
        return list(pieces)
    changed: dict[str, tuple[datetime, frozenset[str]]] = {}  # source turn id -> when, what changed
    for (q, _), mark in labels.items():
        for source in pieces[q].source_ids:
            changed[source] = mark
    by_id = {f.id: f for f in facts}
    out = []
    for p, piece in enumerate(pieces):
        fact_mark = _fact_change(piece, by_id, changed)
        split = piece.text.split("\n")
        marked = False
        for j, line in enumerate(split):
            mark = labels.get((p, j)) or fact_mark
            if mark is not None and not line.startswith(("until ", "from ")):
                split[j] = f"until {mark[0].date().isoformat()}: {line}"
                marked = True
        out.append(replace(piece, text="\n".join(split)) if marked else piece)
    return out


def _label_by_facts(
    pieces: Sequence[Piece],
    lines: list[tuple],
    facts: Sequence[StoredFact],
    stated: dict[str, list[StoredFact]],
    at: datetime,
    agent: str,
    labels: dict[tuple[int, int], tuple[datetime, frozenset[str]]],
) -> None:
    """A value formed later ages an earlier line that spoke of the same attribute of the same one in words
    the rules formed no fact from ("My sister Jo works at a bakery downtown" … Jo's employer: the Ritz),
    whether or not the later message is in the context."""
    for f in facts:
        if not f.source or f.valid_from > at or f.attribute.startswith("relation."):
            continue
        topic = "@" + f.attribute
        for when, _, q, j, by, said in lines:
            sources = pieces[q].source_ids
            if (q, j) in labels or by == agent or when >= f.valid_from or f.source in sources:
                continue
            own = (g for source in sources for g in stated.get(source, ()))
            if any(g.attribute == f.attribute for g in own):
                continue  # a value of its own (or of someone else) for this key: label_stale reads it
            if (topic in _anchors(said) or _names_key(f.attribute, said)) and _about(f.subject, by, said):
                labels[(q, j)] = (f.valid_from, frozenset({topic}))


def _subjects(facts: Sequence[StoredFact]) -> set[str]:
    """Whom the facts formed from a message are about (relations aside: "my best friend Gwen")."""
    return {f.subject for f in facts if not f.attribute.startswith("relation.")}


def _names_key(attribute: str, text: str) -> bool:
    """A key the vocabulary does not know, named in a line with a number ("I take metformin 500 mg" …
    metformin: 1000 mg): the line gave it a value the rules did not read."""
    if "." in attribute or DEFAULT_VOCABULARY.attribute(attribute) is not None:
        return False
    if _HAN_RUN.fullmatch(attribute):
        named = len(attribute) >= 2 and attribute in text
    else:
        named = all(re.search(rf"\b{re.escape(w)}\b", text, re.IGNORECASE) for w in attribute.split("_") if w)
    return named and re.search(r"\d|[一二两三四五六七八九十百千]", text) is not None


def _label_echoes(
    lines: list[tuple], labels: dict[tuple[int, int], tuple[datetime, frozenset[str]]], agent: str
) -> None:
    """The agent's reply right after a line made history, when it repeats that line's words ("Dentist on
    Tuesday at 2." … "Tuesday at 2, noted."): it said the same outdated thing."""
    for (_, _, q, j, by, said), (_, _, q2, j2, by2, reply) in pairwise(lines):
        mark = labels.get((q, j))
        if mark and by != agent and by2 == agent and (q2, j2) not in labels and _echoes(reply, said):
            labels[(q2, j2)] = mark


def _echoes(reply: str, said: str) -> bool:
    """A reply repeats a line: a word of what it is about, or a number of two digits or more ("$89/mo" …
    "$89 a month is on the pricier side")."""
    if _anchors(reply) & _anchors(said):
        return True
    return any(len(n) >= 2 for n in _numbers(reply) & _numbers(said))


def _replied(piece: Piece, speaker: str) -> str:
    """What a message piece of the agent answered, when `speaker` said it: the message before it as
    stored (a flat context's pieces carry it), shown in the context or not."""
    replied = getattr(piece, "replied", "")
    prefix = f"{speaker}: "
    return replied[len(prefix) :] if speaker and replied.startswith(prefix) else ""


def _fact_change(
    piece: Piece, by_id: dict[str, StoredFact], changed: dict[str, tuple[datetime, frozenset[str]]]
) -> tuple[datetime, frozenset[str]] | None:
    """When a fact piece's value was changed by a later message: its message was labelled by a change
    that speaks of this fact — its attribute (the vocabulary's words for it) or words of its value."""
    if piece.level != "fact" or len(piece.memory_ids) != 1 or not piece.source_ids:
        return None
    fact, mark = by_id.get(piece.memory_ids[0]), changed.get(piece.source_ids[0])
    if fact is None or mark is None:
        return None
    whose = {a[len(_WHO) :] for a in mark[1] if a.startswith(_WHO)}
    if whose and fact.subject not in whose:
        return None  # the change formed facts of someone else: Abby's own job is still hers
    about = _anchors(str(fact.value)) | _anchors(fact.attribute.replace(".", " ").replace("_", " "))
    about |= {"@" + fact.attribute}
    if fact.attribute in _WORK_ATTRIBUTES:
        about |= {_WORK}
    return mark if about & mark[1] else None


def _named_people(lines: list[tuple]) -> frozenset[str]:
    """The names of people in these lines (speakers, "my roommate Jess"): who a line is about is no
    anchor of what changed ("Jess got a new car" makes nothing Jess did before history)."""
    names = {_STEMMER.stemWord(line[4].casefold()) for line in lines if line[4]}
    for line in lines:
        names |= {_STEMMER.stemWord(m["name"].casefold()) for m in _NAMED.finditer(line[5])}
    return frozenset(names)


# "2 weeks now", "for a while now": how long something has gone on, no change
_LASTED_NOW = re.compile(
    r"\b(?:(?:\d+|a|an|one|two|three|four|five|six|few|couple(?: of)?|several|many)\s+(?:more\s+)?"
    r"(?:minutes?|hours?|days?|weeks?|wks?|months?|years?|yrs?)|a while|ages)\s+now\b",
    re.IGNORECASE,
)


def _says_change(text: str) -> bool:
    return bool(_CHANGE_EN.search(_LASTED_NOW.sub(" ", text)) or _CHANGE_ZH.search(text))


_US_SPELLING = {
    "favourite": "favorite",
    "favourites": "favorites",
    "colour": "color",
    "neighbour": "neighbor",
}


@lru_cache(maxsize=4096)
def _anchors(text: str) -> frozenset[str]:
    """The words that name what a line is about: stemmed English content words and names, Chinese
    two-character runs without a function character; never who (relation words) or change words."""
    out: set[str] = set()
    for word in _LATIN_WORD.findall(text):
        folded = word.casefold().replace("’", "'")
        if folded.endswith("'s"):
            folded = folded[:-2]  # Leo's practice is Leo's
        elif "'" in folded:
            continue  # I'm, don't: who and how, not what
        if len(folded) < 3 or folded in STOP_WORDS or folded in _EN_NOT_ANCHORS or folded in RELATIONS:
            continue
        if folded[0].isdigit():
            continue  # a number is a value, not what the line is about
        out.add(_STEMMER.stemWord(_US_SPELLING.get(folded, folded)))  # keys are spelt "favorite"
    for run in _HAN_RUN.findall(text):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if set(pair) & _ZH_FUNCTION or pair in RELATIONS or pair in _ZH_NOT_ANCHORS:
                continue
            if not _CHANGE_ZH.fullmatch(pair):
                out.add(pair)
    out |= _topics(text)
    if _TITLED_DOCTOR.search(text):
        out.add("@doctor")  # "dr okafor retired": a line of one's doctor by the title alone
    out |= {anchor for anchor, words, _ in _ENDED_STATES if words.search(text)}
    if out & _WORK_TOPICS:
        out.add(_WORK)
    if "《" in text:
        out.add("《》")  # a title: the book, film or show a line is about
    return frozenset(out)


# States an ending closes as a whole, whatever words were said of them. Work: retiring or quitting ends what
# was said of one's job, employer or place of work ("still works full time as an engineer" … "Dad finally
# retired"; 还在工厂上班 … 退休了). A hospital stay: a discharge ends it ("Grandma is in St. Luke's" …
# "she was discharged and is back home"; 住在人民医院 … 出院了). Only an ending carries the state as a
# change (`_ended`): "night shift at work now" ages no "I work at Google".
_WORK = "@work"
_WORK_ATTRIBUTES = frozenset({"employer", "job_title", "employment_status", "work_location"})
_WORK_TOPICS = frozenset("@" + key for key in _WORK_ATTRIBUTES)
_WHO = "#who:"  # in a label's anchors: whom the change's own facts are about
_DOES = frozenset({"teaching", "coaching"})  # what one does, which a new job title ends
_ENDED_STATES: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        _WORK,
        re.compile(
            r"\b(?:work(?:s|ed|ing)?\s+(?:as|at|for|in)|job|career|employ(?:ed|er))\b|上班|工作|打工|单位|"
            r"(?:当|做|是)\S{0,4}(?:老师|教师|医生|护士|工程师|经理|会计|律师|司机|厨师|警察|程序员|设计师|销售|主管|"
            r"教授)",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b(?:retir(?:e|ed|ing)|quit\s+(?:my|his|her|their|the)\s+job|"
            r"(?:was|got|been)\s+(?:laid off|fired|let go)|"
            r"stepped down|resigned|"
            r"left\s+(?:the|my|his|her|their)\s+(?:job|company|firm|hospital|school|office))\b"
            r"|退休|辞职|离职|辞了|被裁|下岗|跳槽",
            re.IGNORECASE,
        ),
    ),
    (  # study: graduating or dropping out ends it ("my daughter is in college" … "she graduated";
        # 在上海读大学 … 毕业了)
        "@study",
        re.compile(
            r"\b(?:in college|at (?:college|uni|university)|studying|student|undergrad|freshman|sophomore|"
            r"majoring)\b|读大学|读研|读博|上大学|上学|在读|读书|念书|大学生|研究生",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b(?:graduated|dropped out|finished (?:college|uni|university|school|(?:his|her|my) degree))\b"
            r"|毕业了|已经毕业|刚毕业|毕业后|已毕业|(?:博士|硕士|研究生|大学|本科|高中)毕业|退学|辍学",
            re.IGNORECASE,
        ),
    ),
    (
        "@stay",
        re.compile(r"\b(?:hospital|hospitali[sz]ed|admitted|icu|rehab)\b|医院|住院|病房|重症", re.IGNORECASE),
        re.compile(
            r"\b(?:discharged|released from|out of (?:the )?hospital|back home|came home|went home)\b"
            r"|出院|回家了|回到家",
            re.IGNORECASE,
        ),
    ),
)
_STATES = frozenset(anchor for anchor, _, _ in _ENDED_STATES)


def _ended(text: str) -> set[str]:
    """The states (`_ENDED_STATES`) a line says ended."""
    return {anchor for anchor, _, ends in _ENDED_STATES if ends.search(text)}


_TITLED_DOCTOR = re.compile(r"\bdr\.?\s+[a-z]", re.IGNORECASE)


def _topics(text: str, vocabulary: Vocabulary = DEFAULT_VOCABULARY) -> set[str]:
    """The attributes the vocabulary's words in a line name ("bank with", 健身卡): ``@<key>``."""
    return {"@" + key for key in vocabulary.keys_named(text)}


# words that end something: "no more Orijen", "stepped down from the soccer team", 乐刻退了, 跟婷婷分手了
_ENDING = re.compile(
    r"\b(?:no more|not|no longer|anymore|any more|stepped down|quit|left|broke up|split up|cancel(?:l)?ed|"
    r"dropped|sold|gave up|stopped|ditched|dumped|got rid of|killed(?! it\b)|traded in|moved out of|"
    r"instead of|(?:was|is|did|does|were|are)n'?t|miss)\b|"  # "nursing wasnt it for me", "i miss my walk"
    r"不再|不[\u4e00-\u9fff]{1,3}了|把[\u4e00-\u9fff]{1,6}?(?:关|卖|换|置换|处理|转手|送人)(?:掉)?了|不(?:学|练|弹|打|踢|上|做|喝|吃|用|开|住|带|教|干|去)[\u4e00-\u9fff]{2,5}了|退了|分手|分了|辞职|离职|卖了|不是|取消了?|放弃了?|放下了|戒了|搬出|转让|关门|倒闭",
    re.IGNORECASE,
)
_LABELLED = re.compile(r"(?:until|from) \S+: ")


def _shares(words: set[str], earlier: set[str]) -> bool:
    """A word of `words` was said before, or a word of six letters or more that begins like one said
    before ("dentistry" … "dentist")."""
    return bool(words & earlier or _alike(words, earlier))


def _alike(words: set[str] | frozenset[str], earlier: set[str] | frozenset[str]) -> set[str]:
    """The words of six letters or more of either side that begin like one of the other ("dentistry",
    "dentist"), both spellings."""
    long_ = [e for e in earlier if len(e) >= 6 and e.isascii()]
    return {
        x
        for w in words
        if len(w) >= 6 and w.isascii()
        for e in long_
        if w.startswith(e) or e.startswith(w)
        for x in (w, e)
    }


def _numbers(text: str) -> set[str]:
    """The numbers a line says (a value said again: "是16号不是14号" after "是14号")."""
    return set(re.findall(r"\d[\d:.,]*\d|\d", text))


_CLAUSE_END = re.compile(
    # "Dr. Fox" is one name, no end of a clause
    r"(?<=[,;.!?，。；！？])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)\s*|"
    r"(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s*|"  # "karen left the company 😬 new manager is Omar"
    r"\s+(?=(?:and|but)\s+(?:he|she|i|we|they|it|now)\b)|(?<=[^，,。\s])(?=不是)|"
    # "quit soccer and joined the swim team": a second verb of the same one, said in the past
    r"\s+(?=and\s+(?:[a-z]+ed|took|got|went|began|made|became|bought|found|took up)\b)|"
    # "added me to his family plan so i killed spotify": what followed from it
    r"\s+(?=so\s+(?:i|we|he|she|they)\s+[a-z]+ed\b)|"
    # "quit the bakery and is driving for UPS now": what one does now, said beside what ended
    r"\s+(?=and\s+(?:is|are|am|now)\s+[a-z]+ing\b)",
    re.I,
)


def _names_stale(clause: str, stale: frozenset[str]) -> bool:
    """The clause says one of the stale values' forms."""
    folded = clause.casefold()
    return any(says_whole(form, folded) for form in stale)


def ending_clauses_last(
    pieces: Sequence[Piece], agent: str = "assistant", stale: frozenset[str] = frozenset()
) -> list[Piece]:
    """A change message's clauses that name what ended ("Marco stepped down from the soccer team, he's
    coaching basketball now") are shown after the rest, labelled ``history:`` — when they name something
    an earlier line of the context said (what ended), or a value a fact no longer holds (`stale`, its
    forms: "switched my major to public health. nursing wasnt it for me" when the line that said nursing
    is not in the context), and the message says something else too."""
    lines = []
    for p, piece in enumerate(pieces):
        if piece.level == "message" and piece.time is not None:
            for j, line in enumerate(piece.text.split("\n")):
                labelled = _LABELLED.match(line)  # a line made history still says what was before
                if (m := _LINE.match(line[labelled.end() :] if labelled else line)) is not None:
                    speaker = (m["speaker"] or "").strip()
                    # history from its own day: it named the old value as it said the change ("李总离职了，
                    # 现在我的领导是老陈"), so its clauses are parted as an unlabelled line's are
                    day = f"until {piece.time.date().isoformat()}: "
                    history = labelled is not None and labelled[0] != day
                    lines.append((piece.time, getattr(piece, "position", 0), p, j, speaker, m, history))
    lines.sort(key=lambda x: (x[0], x[1]))
    people = _named_people([(*x[:5], x[5]["text"]) for x in lines])  # who is named is not what ended
    rewritten: dict[tuple[int, int], str] = {}
    for n, (_, _, p, j, speaker, m, labelled) in enumerate(lines):
        text = m["text"]
        if not speaker or speaker == agent or labelled or not _ENDING.search(text):
            continue
        clauses = [c for c in _CLAUSE_END.split(text) if c and c.strip()]
        if len(clauses) < 2:
            continue
        before = [x[5]["text"] for x in lines[:n] if x[4] in (speaker, agent)]
        earlier = set().union(*(_anchors(t) | _numbers(t) for t in before))
        ending = [
            c
            for c in clauses
            if _ENDING.search(c)
            and (_shares((_anchors(c) - people - _STATES) | _numbers(c), earlier) or _names_stale(c, stale))
        ]
        rest = [c for c in clauses if c not in ending]
        if not ending or not any((_anchors(c) - people) | _numbers(c) for c in rest):
            continue
        joint = "" if _HAN_RUN.search(text) else " "
        # "and now runs a bakery", "so now my boss is Tom": the clause alone
        rest[0] = re.sub(r"^(?:and|but|so)\s+", "", rest[0], flags=re.I)
        rewritten[(p, j)] = (
            f"{m['cite']} {m['speaker']}: " + joint.join(rest) + " — history: " + joint.join(ending)
        )
        numbers = set().union(*(_numbers(c) for c in ending))
        words = set().union(*(_anchors(c) for c in ending))
        whom, words = words & people, words - people - _STATES
        for x in lines[:n]:
            # the earlier line that said what ended is history: the number a correction rejects (是14号 …
            # 不是14号), or a thing of the same one ("Rachel is a dentist" … "Rachel gave up dentistry")
            said = x[5]["text"]
            if x[4] not in (speaker, agent) or x[6]:
                continue
            named = x[4] == speaker and (not whom or whom & _anchors(said))
            if numbers & _numbers(said) or (named and _shares(words, _anchors(said) - people)):
                rewritten.setdefault((x[2], x[3]), f"until {lines[n][0].date().isoformat()}: {x[5].string}")
    if not rewritten:
        return list(pieces)
    out = []
    for p, piece in enumerate(pieces):
        split = piece.text.split("\n")
        for j in range(len(split)):
            split[j] = rewritten.get((p, j), split[j])
        out.append(replace(piece, text="\n".join(split)))
    return out
