"""Rendering and packing of cited context pieces, shared by the strategies.

A message piece renders as ``[D3:12] Caroline: text``: its source turn ids (else its memory id, ``#12``),
who spoke, what was said. Its date is not repeated on every line: when pieces are assembled in reading
order, the first message of each day carries the day on a line of its own (``8 May 2023:``), and the
budget counts that line. A summary piece (page, segment, theme, fact, profile ...) carries its own
citation, e.g. ``[theme: pets; D1:2, D4:5] text``.

Tokens are additive over pieces: `estimate_tokens` never counts whitespace and never joins units across
a line break, so the context's tokens are the sum of its pieces' tokens and packing can count piece by
piece.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memql.cognition.conversation.base import Piece
from memql.services.summarize import estimate_tokens

DATED_LEVELS = frozenset({"message"})  # levels whose text leaves the date to the day line
MAX_CITED = 6  # source ids a summary cites inline; more are elided ("+N"), all stay in source_ids


@dataclass(frozen=True)
class MessagePiece(Piece):
    """A message: its `position` orders messages of the same instant; with an `anchor` (a memory id) it
    only makes sense beside that piece (the message a hit replies to) and is taken only after it.
    `replied`: the message before it as stored ("speaker: text"), what a reply answered, shown or not."""

    position: int = 0
    anchor: str = ""
    replied: str = ""


def citation(source_ids: Sequence[str], memory_ids: Sequence[str]) -> str:
    """What a piece cites inline: its source turn ids, else its memory ids as ``#id``."""
    if source_ids:
        shown = list(source_ids[:MAX_CITED])
        if len(source_ids) > MAX_CITED:
            shown.append(f"+{len(source_ids) - MAX_CITED}")
        return ", ".join(shown)
    return ", ".join(f"#{i}" for i in memory_ids)


def message_text(source_ids: Sequence[str], memory_ids: Sequence[str], speaker: str, text: str) -> str:
    """``[D3:12] Caroline: text`` (the day is added by `assemble`)."""
    who = f"{speaker}: " if speaker else ""
    return f"[{citation(source_ids, memory_ids)}] {who}{text}"


def summary_text(label: str, source_ids: Sequence[str], memory_ids: Sequence[str], text: str) -> str:
    """``[theme: pets; D1:2, D4:5] text``: a derived piece names what it is and what it came from."""
    return f"[{label}; {citation(source_ids, memory_ids)}] {text}"


def day_words(time: datetime) -> str:
    """ "9 Jan 2026": a day as the context's day lines write it."""
    return f"{time.day} {time.strftime('%b %Y')}"


def day_line(time: datetime) -> str:
    return f"{day_words(time)}:"


def _day(piece: Piece) -> str | None:
    if piece.level in DATED_LEVELS and piece.time is not None:
        return day_line(piece.time)
    return None


def assemble(ranked: Iterable[Piece], budget_tokens: int) -> list[Piece]:
    """The best pieces of `ranked` (best first) that fit `budget_tokens` together, in reading order.

    Greedy by rank: a piece is taken when it fits what is left, including its day line when it is the
    first message of its day; a piece that does not fit is skipped, smaller ones after it may still
    fit; a message with an anchor is taken only after it. A piece adds no evidence, and is skipped,
    when its source ids are all cited already by raw messages or by pieces of its own level (a theme
    over turns already shown; the same turn found twice). Reading order: derived pieces first (best
    first), then messages by time, each day's first message with its day.
    """
    chosen: list[Piece] = []
    days: set[str] = set()
    cited: dict[str, set[str]] = {}  # level -> source ids its chosen pieces cite
    seen_memory: set[str] = set()
    used = 0
    for piece in ranked:
        sources = set(piece.source_ids)
        if sources and (sources <= cited.get("message", set()) or sources <= cited.get(piece.level, set())):
            continue
        if not piece.source_ids and set(piece.memory_ids) <= seen_memory:
            continue
        if isinstance(piece, MessagePiece) and piece.anchor and piece.anchor not in seen_memory:
            continue
        day = _day(piece)
        cost = piece.tokens + (estimate_tokens(day) if day and day not in days else 0)
        if used + cost > budget_tokens:
            continue
        chosen.append(piece)
        used += cost
        cited.setdefault(piece.level, set()).update(sources)
        seen_memory.update(piece.memory_ids)
        if day:
            days.add(day)
    return reading_order(chosen)


def reading_order(pieces: Iterable[Piece]) -> list[Piece]:
    """Derived pieces first (best first), then dated messages by time with a day line per day."""
    pieces = list(pieces)
    derived = sorted((p for p in pieces if _day(p) is None), key=lambda p: -p.score)
    dated = sorted(
        (p for p in pieces if _day(p) is not None),
        key=lambda p: (p.time, getattr(p, "position", 0)),  # type: ignore[arg-type,return-value]
    )
    out = list(derived)
    last_day: str | None = None
    for piece in dated:
        day = _day(piece)
        if day != last_day:
            piece = replace(piece, text=f"{day}\n{piece.text}")
            last_day = day
        out.append(piece)
    return out
