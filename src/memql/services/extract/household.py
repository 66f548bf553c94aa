"""A move of the speaker's household announced without a verb of theirs that binds the place, in English
and Chinese: "Another move! Husband's company sent him to Spokane, so we packed up again.",
"又搬家了！老公公司把他派到无锡，我们就跟着过去了。"

The grammars read "sent him to Spokane" as nobody's home. This pass reads the whole message: when it
says that a household moved (another move, packed up, 搬家了, 跟着过去了), the speaker holds a home, and the
message names exactly one other place (a capitalised name after "to"/"in"; a Chinese place the place list
knows), that place is the speaker's home from now on — hedged, since the place is not bound by grammar.
"""

from __future__ import annotations

import re

from .common import CJK, HEDGED, Draft, Reading, latest_held
from .patterns_en import NOT_NAMES
from .places import PLACES_ZH

_EN_MOVED = re.compile(
    r"\b(?:another move|(?:moving|moved|relocating|relocated)\s+again|packed\s+(?:up\s+)?(?:again|everything|"
    r"the\s+(?:house|apartment|flat)|our\s+(?:lives|stuff|things|whole\s+life))|"
    r"(?:we|i)\s+(?:have\s+|'ve\s+|just\s+)*(?:relocated|moved(?!\s+(?:it|the|my|our|on)\b)))\b",
    re.IGNORECASE,
)
_ZH_MOVED = re.compile(r"搬家了|又搬了|搬过去了?|跟着(?:他|她)?过去了?|跟过去了?|全家(?:都)?(?:搬|过去)")
_EN_PLACE = re.compile(r"\b(?:to|in)\s+(?P<place>(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?))", re.IGNORECASE)


def bind(r: Reading) -> None:
    """Draft the speaker's new home a message of moving names (see the module docstring) into `r.facts`."""
    chinese = CJK.search(r.text) is not None
    moved = (_ZH_MOVED if chinese else _EN_MOVED).search(r.text)
    if moved is None or any(d.attribute == "residence" for d in r.facts):
        return  # (most messages end here); a home the grammar read is the grammar's
    held = latest_held(r, lambda d: d.subject == r.speaker and d.attribute == "residence")
    if len(held) != 1:
        return
    (old,) = held.values()
    places = {}  # place -> its span
    if chinese:
        for place in sorted(PLACES_ZH, key=len, reverse=True):
            at = r.text.find(place)
            if at >= 0 and not any(a <= at < b for a, b in places.values()):
                places[place] = (at, at + len(place))
    else:
        for m in _EN_PLACE.finditer(r.text):
            if m["place"] not in NOT_NAMES and not r.times_in(*m.span("place")):
                places[m["place"]] = m.span("place")
    places.pop(str(old.value), None)
    if len(places) != 1:
        return  # none, or two: which is the new home is not guessed
    ((place, span),) = places.items()
    r.add(Draft(r.speaker, "residence", place, 0, len(r.text.rstrip()), r.now, HEDGED, False, "place", span))
