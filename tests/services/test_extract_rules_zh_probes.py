"""The Chinese grammar on conversations written apart from the bench set (zh_probes.py): each message,
read with the messages before it as recent turns, gives the facts it must and no fact it must not."""

from __future__ import annotations

import pytest
from extract_helpers import NOW
from zh_probes import CONVERSATIONS, CONVERSATIONS_2, ME
from zh_probes_later import CONVERSATIONS_3, CONVERSATIONS_4, KNOWN_MISSES

from memql.lang.delta import Turn, Utterance, check_evidence
from memql.services.extract import make_extractor

RULES = make_extractor("rules")


def family(attribute: str, wanted: str) -> bool:
    return attribute == wanted or wanted in attribute.split(".") or wanted in attribute


def read(conversation) -> list[tuple[str, set, set]]:
    """(message, expected, formed) for each message, the ones before it its recent turns."""
    out, recent = [], []
    for text, expected in conversation:
        delta = RULES.extract(Utterance(speaker=ME, text=text, time=NOW, recent=tuple(recent)))
        assert check_evidence(delta, text) == [], "every evidence quotes the message exactly"
        relations = any(a.startswith("relation.") for _, a, _ in expected)  # a relative named, or not
        formed = {
            (f.subject, f.attribute, f.value)
            for f in delta.facts
            if relations or not f.attribute.startswith("relation.")
        }
        out.append((text, expected, formed))
        recent.append(Turn(speaker=ME, text=text, time=NOW))
    return out


def passes(expected: set, formed: set) -> bool:
    """Every expected fact formed, and no other fact formed (a wrong fact is worse than none)."""
    if len(formed) != len(expected):
        return False
    return all(any(s == fs and family(fa, a) and v == fv for fs, fa, fv in formed) for s, a, v in expected)


ALL = CONVERSATIONS + CONVERSATIONS_2 + CONVERSATIONS_3 + CONVERSATIONS_4


@pytest.mark.parametrize(
    "name, conversation",
    [
        pytest.param(*c, id=c[0], marks=[pytest.mark.xfail(strict=True)] if c[0] in KNOWN_MISSES else [])
        for c in ALL
    ],
)
def test_probe(name, conversation):
    for text, expected, formed in read(conversation):
        assert passes(expected, formed), f"{text}: expected {expected}, formed {formed}"


if __name__ == "__main__":  # the pass rate by message, and each failure
    import sys

    total = ok = 0
    sets = {"1": CONVERSATIONS, "2": CONVERSATIONS_2, "3": CONVERSATIONS_3, "4": CONVERSATIONS_4}
    for name, conversation in sets.get(sys.argv[1] if sys.argv[1:] else "", ALL):
        for text, expected, formed in read(conversation):
            total += 1
            if passes(expected, formed):
                ok += 1
            else:
                print(f"FAIL {name}: {text}\n   want {sorted(map(str, expected))}")
                print(f"   got  {sorted(map(str, formed))}")
    print(f"{ok}/{total} messages")
