"""`memql bench conversation`: a long synthetic conversation through the MemoryOS tiers, to show the write
path stays bounded (MTM capacity, LPM knowledge base) while eviction by heat and promotion into LPM happen
and are in the audit log.

The generator is deterministic (a seeded RNG): a user talks with an assistant about a few dozen topics;
a handful recur often (their segments get hot and reach LPM), most come back rarely (their segments go
cold and are evicted). Time moves ten minutes a turn, with a day's gap between sessions.
"""

from __future__ import annotations

import random
import time as wallclock
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from memql.cognition.conversation.base import Message
from memql.cognition.conversation.records import message_encode
from memql.cognition.conversation.tiers import Tiers, TiersConfig
from memql.memory import Memory
from memql.ports.clock import FixedClock

START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
TURN_GAP = timedelta(minutes=10)
SESSION_GAP = timedelta(days=1)
SESSION_TURNS = 20

# (topic, things the user does or has, details) — vocabulary distinct enough per topic for Fscore
TOPICS: list[tuple[str, list[str], list[str]]] = [
    (
        "hiking",
        ["hiked the ridge trail", "bought new hiking boots", "planned a trek in the Alps"],
        ["fog", "summit", "blisters", "map"],
    ),
    (
        "painting",
        ["finished a watercolor", "started an oil portrait", "joined a painting class"],
        ["canvas", "brushes", "palette", "gallery"],
    ),
    (
        "cooking",
        ["baked sourdough bread", "tried a Thai curry recipe", "made fresh pasta"],
        ["oven", "spices", "dough", "dinner"],
    ),
    (
        "running",
        ["ran a half marathon", "improved my 5k time", "joined a running club"],
        ["pace", "shoes", "intervals", "race"],
    ),
    (
        "gardening",
        ["planted tomatoes", "built a raised bed", "pruned the roses"],
        ["soil", "compost", "seeds", "harvest"],
    ),
    (
        "piano",
        ["practised a Chopin nocturne", "booked a piano lesson", "learned a jazz standard"],
        ["scales", "chords", "recital", "metronome"],
    ),
    (
        "travel",
        ["booked flights to Lisbon", "renewed my passport", "planned a road trip"],
        ["hotel", "itinerary", "luggage", "train"],
    ),
    (
        "work",
        ["shipped the billing feature", "presented the quarterly roadmap", "interviewed a candidate"],
        ["deadline", "manager", "sprint", "meeting"],
    ),
    (
        "reading",
        ["finished a mystery novel", "joined a book club", "started a history book"],
        ["chapter", "author", "library", "plot"],
    ),
    (
        "cycling",
        ["rode to the coast", "fixed a flat tyre", "bought a road bike"],
        ["gears", "helmet", "climb", "saddle"],
    ),
    (
        "chess",
        ["won a club tournament", "studied the Sicilian defence", "played blitz online"],
        ["opening", "endgame", "rating", "puzzle"],
    ),
    (
        "photography",
        ["shot the sunrise", "bought a prime lens", "edited wedding photos"],
        ["aperture", "tripod", "exposure", "prints"],
    ),
    (
        "yoga",
        ["tried a sunrise yoga class", "held a headstand", "signed up for a retreat"],
        ["mat", "breathing", "stretch", "balance"],
    ),
    (
        "pottery",
        ["threw my first bowl", "glazed a set of mugs", "fired pieces in the kiln"],
        ["clay", "wheel", "glaze", "studio"],
    ),
    (
        "astronomy",
        ["saw Saturn's rings", "bought a telescope", "watched a meteor shower"],
        ["stars", "eyepiece", "orbit", "observatory"],
    ),
    (
        "dogs",
        ["adopted a beagle puppy", "took the dog to training", "walked the dog by the lake"],
        ["leash", "treats", "vet", "park"],
    ),
    (
        "swimming",
        ["swam two kilometres", "learned the butterfly stroke", "joined a masters swim group"],
        ["pool", "goggles", "laps", "lane"],
    ),
    (
        "languages",
        ["practised Spanish verbs", "passed a French exam", "started learning Japanese"],
        ["grammar", "vocabulary", "tutor", "accent"],
    ),
    (
        "guitar",
        ["changed my guitar strings", "learned a fingerpicking song", "played at an open mic"],
        ["frets", "amplifier", "capo", "riff"],
    ),
    (
        "birdwatching",
        ["spotted a kingfisher", "logged twenty species", "joined a bird count"],
        ["binoculars", "feathers", "nest", "migration"],
    ),
    (
        "knitting",
        ["knitted a wool scarf", "learned cable stitches", "finished a baby blanket"],
        ["yarn", "needles", "pattern", "sweater"],
    ),
    (
        "climbing",
        ["sent a hard boulder problem", "led my first sport route", "bought climbing shoes"],
        ["chalk", "rope", "crag", "belay"],
    ),
    (
        "baking",
        ["made croissants", "decorated a birthday cake", "baked cinnamon rolls"],
        ["butter", "frosting", "flour", "pastry"],
    ),
    (
        "movies",
        ["watched a Kurosawa film", "went to a film festival", "rewatched a sci-fi classic"],
        ["cinema", "director", "screenplay", "trailer"],
    ),
    (
        "volunteering",
        ["served at the food bank", "tutored kids after school", "cleaned the beach"],
        ["shelter", "donations", "community", "charity"],
    ),
    (
        "sailing",
        ["sailed across the bay", "learned to tie a bowline", "crewed in a regatta"],
        ["mast", "wind", "harbour", "keel"],
    ),
]
HOT = 5  # the first HOT topics recur often; the rest rarely
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
USER_FORMS = (
    "I {did} on {day}.",
    "On {day} I {did}, the {detail} mattered most.",
    "Guess what: I {did}!",
    "My {topic} news: I {did}.",
    "Finally I {did}; {detail} everywhere.",
    "{day} update, I {did}.",
)
REPLY_FORMS = (
    "How was the {detail}?",
    "Nice! Tell me more about the {detail}.",
    "Sounds like {topic} is going well.",
    "Will you keep doing {topic}?",
    "Great, and the {detail}?",
)


@dataclass(frozen=True)
class Turn:
    user: str
    assistant: str
    time: datetime
    source_ids: tuple[str, str]
    topic: str


def synthetic_turns(turns: int, seed: int = 7) -> Iterator[Turn]:
    rng = random.Random(seed)
    at = START
    topic = 0
    for i in range(turns):
        if i and i % SESSION_TURNS == 0:
            at += SESSION_GAP
        if i % 4 == 0:  # a topic lasts about four turns, then the talk moves on
            topic = rng.randrange(HOT) if rng.random() < 0.6 else rng.randrange(HOT, len(TOPICS))
        name, doings, details = TOPICS[topic]
        did, detail = rng.choice(doings), rng.choice(details)
        user = rng.choice(USER_FORMS).format(did=did, detail=detail, topic=name, day=_DAYS[i % 7])
        assistant = rng.choice(REPLY_FORMS).format(detail=detail, topic=name)
        yield Turn(user, assistant, at, (f"T{i}:u", f"T{i}:a"), name)
        at += TURN_GAP


def encode_message(
    memory: Memory,
    conversation_id: str,
    role: str,
    text: str,
    at: datetime,
    source_ids: tuple[str, ...],
    position: int,
) -> Message:
    """A conversation message stored by the shared conventions (the Conversation API's own Encode), for
    driving a strategy directly; the text is stored without a speaker prefix."""
    result = memory.execute(
        message_encode(
            conversation_id,
            role=role,
            speaker="",
            text=text,
            time=at,
            source_ids=source_ids,
            position=position,
            previous=None,
        )
    )
    if not result.success:
        raise RuntimeError(f"storing message {position} failed: {result.diagnostics}")
    return Message(result.id or "", role, text, at, tuple(source_ids), position)


def ingest(
    memory: Memory, tiers: Tiers, turns: Iterator[Turn], clock: FixedClock, query_every: int = 0
) -> int:
    """Store each turn's two messages and let the tiers observe them; every `query_every` turns, ask for a
    context about the current topic (reads are what make segments hot). Returns the turns ingested."""
    count = 0
    for turn in turns:
        for offset, (role, text) in enumerate((("user", turn.user), ("assistant", turn.assistant))):
            clock.set(turn.time + timedelta(seconds=offset))
            position = 2 * count + offset
            tiers.observe(
                encode_message(
                    memory,
                    tiers.conversation_id,
                    role,
                    text,
                    clock.now(),
                    (turn.source_ids[offset],),
                    position,
                )
            )
        count += 1
        if query_every and count % query_every == 0:
            tiers.context(f"What did I do about {turn.topic}?", 2000)
    return count


def run(
    turns: int = 10_000,
    *,
    stm: int | None = None,
    mtm: int | None = None,
    embedder: str = "none",
    location: Any = ":memory:",
    query_every: int = 10,
    seed: int = 7,
) -> dict[str, Any]:
    changes = {k: v for k, v in (("stm_capacity", stm), ("mtm_capacity", mtm)) if v is not None}
    config = TiersConfig(**changes)
    clock = FixedClock(START)
    with Memory(location, tenant="bench", actor="bench", clock=clock, embedder=embedder) as memory:
        tiers = Tiers(memory.executor, "bench/assistant", config)
        tracemalloc.start()
        began = wallclock.perf_counter()
        done = ingest(memory, tiers, synthetic_turns(turns, seed), clock, query_every)
        seconds = wallclock.perf_counter() - began
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        r = tiers.records
        sizes = {
            "stm": len(r.read(r.facets("page", "stm"), ("id",))),
            "mtm": len(r.read(r.facets("segment", "mtm"), ("id",))),
            "lpm_knowledge": len(r.read(r.facets("knowledge", "lpm"), ("id",))),
            "lpm_total": sum(
                len(r.read(r.facets(level, "lpm"), ("id",))) for level in ("knowledge", "profile", "trait")
            ),
        }
        audit = audit_checks(memory, r)
    return {
        "turns": done,
        "messages": 2 * done,
        "seconds": round(seconds, 2),
        "turns_per_second": round(done / seconds, 1) if seconds else None,
        "config": {
            "stm_capacity": config.stm_capacity,
            "mtm_capacity": config.mtm_capacity,
            "embedder": embedder,
        },
        "sizes": sizes,
        "within_capacity": sizes["mtm"] <= config.mtm_capacity
        and sizes["stm"] <= config.stm_capacity
        and sizes["lpm_knowledge"] <= config.kb_capacity,
        **{k: v for k, v in tiers.stats.items()},
        "peak_python_mb": round(peak / 2**20, 2),
        "audit": audit,
    }


def audit_checks(memory: Memory, records: Any, sample: int = 3) -> dict[str, Any]:
    """A few evicted segments and promoted ones, looked up in their history (Memory.history)."""
    evicted = records.read({**records.facets("segment", "mtm")}, ("id",))  # live ones, for promotions
    gone = memory.execute(
        {
            "op": "Retrieve",
            "target": {
                "filter": {
                    "has_tags": [records.tag],
                    "facets": {"level": "segment"},
                    "status": "deleted",
                    "limit": sample,
                }
            },
            "args": {"include": ["id"]},
            "meta": {"dry_run": True},
        }
    ).data.get("rows", [])
    evictions = []
    for row in gone:
        notes = [h["note"] for h in memory.history(row["id"]) if h["op"] == "Delete"]
        evictions.append({"id": row["id"], "note": notes[-1] if notes else None})
    promotions = []
    for row in evicted:
        notes = [h["note"] for h in memory.history(row["id"]) if h["op"] == "Promote"]
        if notes:
            promotions.append({"id": row["id"], "promotions": len(notes), "note": notes[-1]})
        if len(promotions) >= sample:
            break
    return {"evictions": evictions, "promotions": promotions}
