"""A small conversation the project owns, for the ladder's tests: two sessions, three topics.

Session 1 (2026-03-01): five messages about a hiking trip, then five about baking bread — a topic shift
inside one session. Session 2 (2026-03-03): four messages about a job interview. With the lexical
fallback vectors (tests run without the embedding model) messages on one topic share their words.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memql import Memory
from memql.cognition.conversation.base import Message

CONVERSATION = "mira/assistant"
TAG = f"conv:{CONVERSATION}"
DAY1 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
DAY2 = datetime(2026, 3, 3, 9, 0, tzinfo=UTC)

TURNS: list[tuple[str, str, datetime]] = [
    ("Mira", "I went hiking on the Ridge trail near the mountain lake last weekend.", DAY1),
    ("Noah", "The Ridge trail hiking is steep, did you reach the mountain summit?", DAY1),
    ("Mira", "Yes, hiking to the mountain summit took four hours on the trail.", DAY1),
    ("Noah", "Mountain hiking on that trail needs good boots and water.", DAY1),
    ("Mira", "My new boots were perfect for the rocky mountain trail hiking.", DAY1),
    ("Noah", "Changing subject: I started baking sourdough bread with rye flour.", DAY1),
    ("Mira", "Sourdough bread baking needs a starter, flour and patience.", DAY1),
    ("Noah", "My sourdough starter doubles overnight, the bread crust gets crisp.", DAY1),
    ("Mira", "Baking rye bread with sourdough starter sounds delicious.", DAY1),
    ("Noah", "I bake the sourdough bread loaf at high heat in a dutch oven.", DAY1),
    ("Mira", "Tomorrow I have a job interview at Lumen Robotics for an engineer role.", DAY2),
    ("Noah", "Good luck with the Lumen Robotics interview, prepare the engineer questions.", DAY2),
    ("Mira", "The interview panel at Lumen Robotics asks about robot control.", DAY2),
    ("Noah", "Robot control interview questions at Lumen are usually practical.", DAY2),
]
EPISODES = [(0, 5), (5, 10), (10, 14)]  # the expected episodes: message positions [start, end)


def store_messages(memory: Memory, start: int = 0, end: int | None = None) -> list[Message]:
    """Encode turns[start:end] as conversation messages by the shared conventions."""
    messages = []
    for i in range(start, len(TURNS) if end is None else end):
        role, text, day = TURNS[i]
        at = day + timedelta(minutes=i)
        facets = {
            "conversation": CONVERSATION,
            "level": "message",
            "source_ids": [f"T{i}"],
            "role": role,
            "position": i,
        }
        result = memory.encode(
            f"{role}: {text}",
            type="turn",
            tags=[TAG],
            facets=facets,
            time=at.strftime("%Y-%m-%dT%H:%M:%SZ"),
            dedupe=False,
        )
        assert result.success, result.diagnostics
        messages.append(Message(str(result.id), role, f"{role}: {text}", at, (f"T{i}",), i))
    return messages
