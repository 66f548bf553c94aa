"""Casual spelling read as careful spelling: "im moving", "ive got", "dont" are "I'm", "I've", "don't" to
the grammars, whose patterns know contractions by their apostrophes; chat shorthand ("w", "bc", "tmrw")
is its words. The words are spelled out in a copy of
the text, and each of its offsets maps back to the text as written, so evidence still quotes the message
exactly ("im moving to Denver", never a quote the user did not write)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memql.services.tokenize import STOP_WORDS

# contractions written without their apostrophe that are no other word ("cant", "wont" are rare as words;
# "its", "ill", "id", "were", "lets", "well", "hell" are common words and are left as written)
_SPELLED = {
    "im": "I'm",
    "ive": "I've",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "isnt": "isn't",
    "wasnt": "wasn't",
    "arent": "aren't",
    "werent": "weren't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "hadnt": "hadn't",
    "wouldnt": "wouldn't",
    "couldnt": "couldn't",
    "shouldnt": "shouldn't",
    "cant": "can't",
    "wont": "won't",
    "youre": "you're",
    "theyre": "they're",
    "youve": "you've",
    "theyve": "they've",
    "weve": "we've",
    "thats": "that's",
    "whats": "what's",
    "shes": "she's",
    "hes": "he's",
    "theres": "there's",
}
# chat shorthand, spelled out whole ("w kerry" is "with kerry", "bc" "because", "tmrw" "tomorrow")
_SHORTHAND = {
    "w": "with",
    "w/": "with",
    "bc": "because",
    "b/c": "because",
    "cuz": "because",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmrow": "tomorrow",
    "rn": "right now",
    "u": "you",
    "ur": "your",
    "pls": "please",
    "plz": "please",
    "thru": "through",
    "abt": "about",
    "tho": "though",
    "bday": "birthday",
    "appt": "appointment",
    "hubby": "husband",
    "bf": "boyfriend",
    "gf": "girlfriend",
}
_SPELLED.update(_SHORTHAND)
# "its" is "it's" before what only "it is" comes before: a number, an article, a date, an adverb
_ITS = (
    r"its(?=\s+(?:[$£€]?\d|a\b|an\b|the\b|not\b|now\b|just\b|only\b|still\b|actually\b|been\b|going\b|"
    r"gonna\b|so\b|too\b|really\b|fine\b|ok\b|okay\b|over\b|done\b|on\b|at\b|in\b|(?:jan|feb|mar|apr|may|jun|"
    r"jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b))"
)
_CASUAL = re.compile(
    r"(?<![\w'/])(?:"
    + "|".join(re.escape(w) for w in sorted(_SPELLED, key=len, reverse=True))
    + "|"
    + _ITS
    + r")(?![\w'/])",
    re.I,
)


@dataclass(frozen=True)
class Spelled:
    """A text as the grammars read it (`text`) and as it was written (`written`); `at[i]` is where the
    read text's offset i falls in the written one (None: the same text)."""

    written: str
    text: str
    at: tuple[int, ...] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The written text's span of the read text's [start, end)."""
        if self.at is None:
            return start, end
        return self.at[start], self.at[end]


# the agent's words as the addressee's: "your new manager" is "my new manager" of the one it answers
_AGENT_WORDS = {
    "your": "my",
    "yours": "mine",
    "you're": "I'm",
    "you've": "I've",
    "you'll": "I'll",
    "you'd": "I'd",
    "你的": "我的",
    "您的": "我的",
    "你": "我",
    "您": "我",
}
_AGENT = re.compile(r"(?<![\w'])(?:your|yours|you're|you've|you'll|you'd)(?![\w'])|你的|您的|你|您", re.I)
_CITATION = re.compile(r"\s*\[[A-Za-z]{0,3}\d+(?::\d+)?\]")
# the agent speaking of itself ("I've noted 503-555-0177", "I ran a 5k", "我帮您记着")
_AGENT_SELF = re.compile(r"\b(?:I|me|my|mine)\b|\bI'|我(?!们)")


def speaks_of_itself(text: str) -> bool:
    """Does the agent's turn say anything of itself (then it is read as its own words, not a restatement)?"""
    return _AGENT_SELF.search(text) is not None


@lru_cache(maxsize=1024)
def spell_out(written: str, agent: bool = False) -> Spelled:
    """`written` with its apostrophe-less contractions and chat shorthand spelled out (the first letter's
    case kept; "I" always capital); for the agent's restatement (`agent`), its "your" the addressee's "my"."""
    # the agent's citations ("Your cat is Miso [M1]") are no part of a value: blanks keep every offset
    read = _CITATION.sub(lambda m: " " * len(m[0]), written) if agent else written
    found = sorted(
        [*_CASUAL.finditer(read), *(_AGENT.finditer(read) if agent else ())], key=lambda m: m.start()
    )
    if not found:
        return Spelled(written, read)
    parts: list[str] = []
    at: list[int] = []
    last = 0
    for m in found:
        said = m[0].lower()
        if m.start() < last:
            continue  # (an agent's word inside a casual one already spelled)
        if said not in _AGENT_WORDS and (
            (m[0].isupper() and len(m[0]) > 2) or (said in _SHORTHAND and m[0] != said)
        ):
            continue  # "DONT", "THATS": shouting spelled as it is; "W", "U", "Ur": an initial, a name
        parts.append(read[last : m.start()])
        at.extend(range(last, m.start()))
        word = "it's" if said == "its" else _AGENT_WORDS.get(said) or _SPELLED[said]
        if m[0][0].isupper() and word[0].islower():
            word = word[0].upper() + word[1:]
        parts.append(word)
        if said in _SHORTHAND or said in _AGENT_WORDS:  # a word for a word: its letters fall at its start
            at.extend([m.start()] * len(word))
        else:
            j = m.start()
            for ch in word:  # an inserted apostrophe falls where the letter after it was written
                at.append(j)
                j += ch != "'"
        last = m.end()
    parts.append(read[last:])
    at.extend(range(last, len(read) + 1))
    return Spelled(written, "".join(parts), tuple(at))


# "dr lindqvist", "mrs ortiz": a title written in lower case before a word is a titled name, unless the
# word is one a title is often followed by in chat ("dr appt", "dr said", "mr right")
_TITLED_LOWER = re.compile(r"(?<![\w'])(?P<t>dr|prof|mr|mrs|ms)(?P<gap>\.?\s+)(?P<n>[a-z][a-z'-]{2,})\b")
_AFTER_A_TITLE_WORDS = """
    a an and the my our your his her their this that these those is was are were be been will would can
    could should has have had said says told tells wants wanted thinks thought recommended recommends
    suggested suggests gave prescribed ordered put took appointment appointments appt visit visits office
    offices note notes bill bills stuff says who what when where why how if but or so then also just
    pepper right nice know about for from with at on in to of not no yes ok okay thing things
"""
_AFTER_A_TITLE = frozenset(_AFTER_A_TITLE_WORDS.split())


@lru_cache(maxsize=1024)
def capitalised_titles(text: str) -> str:
    """`text` with each titled name written in lower case ("i got dr lindqvist") capitalised as written
    with capitals ("Dr lindqvist" → "Dr Lindqvist"; the same length, so every offset holds)."""

    def capital(m: re.Match) -> str:
        if m["n"] in _AFTER_A_TITLE:
            return m[0]
        return m["t"].capitalize() + m["gap"] + m["n"].capitalize()

    return _TITLED_LOWER.sub(capital, text)


# whom one reports to, written in lower case: "im now reporting to sunita mehta on the platform side",
# "had my first 1:1 with sandra oyelaran today"
_REPORTING_TO_LOWER = re.compile(
    r"\b(?:(?:report|reports|reporting)\s+(?:directly\s+)?to|1:1s?\s+(?:w/?|with))\s+"
    r"(?P<n>[a-z][a-z'-]{2,}(?:\s+[a-z][a-z'-]{2,})?)\b"
)


# one's supervisor (landlord, coach …) named in lower case before what they do: "my supervisor derek wants
# everybody doing OT" (a word of manner or time is no name: "my boss always says")
_ROLE_NAMED_LOWER = re.compile(
    r"\b(?:my|our)\s+(?:supervisor|manager|boss|landlord|landlady|coach|trainer|teacher|tutor|therapist|"
    r"advisor|mentor|roommate|flatmate)\s+(?P<n>[a-z][a-z'-]{2,})(?=\s+(?:wants|wanted|said|says|told|tells|"
    r"asked|asks|thinks|thought|gave|gives|needs|needed|made|makes|called|texted|emailed|approved|moved|"
    r"keeps|kept|has|had|is|was|hasnt|hasn't|didnt|didn't|doesnt|doesn't|wont|won't|cant|can't)\b)"
)
# a role's new holder in lower case: "new super is dmitri, starts oct 1", "our new manager is priya"
_NEW_ROLE_LOWER = re.compile(
    r"\b(?:(?:my|our|the)\s+)?new\s+(?:super|superintendent|manager|boss|landlord|landlady|coach|trainer|"
    r"teacher|tutor|therapist|advisor|mentor|roommate|flatmate|supervisor|doctor|dentist|nanny|babysitter)"
    r"\s+(?:is|'s)\s+(?P<n>[a-z][a-z'-]{2,})(?=\s*(?:[,.!;]|$|\s+(?:and|who|from|starts|starting)\b))"
)
_NO_NAME_WORDS = """
    always never still also even ever kinda basically actually usually sometimes often already apparently
    now then just really totally seriously definitely probably maybe literally officially
    great nice good bad fine cool awesome amazing terrible awful strict chill lovely friendly sweet young
    older younger tough lazy weird funny smart kind mean rude okay ok better worse here there away
"""
_NO_NAME = frozenset(_NO_NAME_WORDS.split())


def _common(word: str) -> bool:
    """A common word, never taken for a lower-case name."""
    return word in _AFTER_A_TITLE or word in STOP_WORDS


@lru_cache(maxsize=1024)
def capitalised_managers(text: str) -> str:
    """`text` with the lower-case name of whom someone reports to capitalised (same length); its second
    word only when it is no common word ("sunita mehta", but "sunita now", "greg on"); and of one's
    supervisor, landlord, coach … named before what they do ("my supervisor derek wants …"), or as its
    new holder ("new super is dmitri, starts oct 1")."""

    def role_named(m: re.Match) -> str:
        name = m["n"]
        if _common(name) or name in _NO_NAME or name.endswith("ly"):
            return m[0]
        return m[0][: m.start("n") - m.start()] + name.capitalize()

    text = _NEW_ROLE_LOWER.sub(role_named, _ROLE_NAMED_LOWER.sub(role_named, text))

    def capital(m: re.Match) -> str:
        first, *rest = m["n"].split()
        if _common(first):
            return m[0]
        words = [first.capitalize(), *(w.capitalize() for w in rest if not _common(w))]
        name = " ".join(words)
        return m[0][: m.start("n") - m.start()] + name + m["n"][len(name) :]

    return _REPORTING_TO_LOWER.sub(capital, text)
