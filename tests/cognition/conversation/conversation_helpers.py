"""Shared helpers of the conversation context tests: a rules-extracting conversation fed (role, text, time)
turns, and a context's text without its history parts."""

from __future__ import annotations

import re

LABEL = re.compile(r"until \d{4}-\d{2}-\d{2}:")


def current(text: str) -> str:
    """Each line of `text` cut at its history label: what the context says is true."""
    return "\n".join(line[: m.start()] if (m := LABEL.search(line)) else line for line in text.splitlines())


def conversation(m, turns, **options):
    """A conversation of `m`'s actor with the assistant (rule extraction), `turns` added in order."""
    conv = m.conversation(user=m.actor, agent="assistant", extractor="rules", **options)
    for role, text, time in turns:
        conv.add_message(role, text, time=time)
    return conv
