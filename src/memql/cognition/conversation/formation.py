"""Formation in a conversation: each message's `MemoryDelta` written with memql verbs, and the typed facts
that lead a context (docs/conversation.md, "Formation"; docs/formation.md).

The write side (`delta_encodes`, `interpreted_facets`): every fact candidate is one Encode of a typed fact
(`payload.structured`, so the engine's supersession closes the previous value of the same subject and
attribute, never another's), tagged as the conversation's (level ``typed_fact``) and linked to the message
it came from (`derived_from`); the message's own Encode carries what was interpreted in it (entities,
resolved times, tasks, decisions, each with its evidence span) in the facets an Encode with `interpret`
writes (memql.services.extract.interpret), from the delta already extracted: one extraction per message,
so the message's Encode does not ask the engine to interpret again. `Conversation._store` runs them all
in the message's workflow.

The read side (`fact_pieces`, `label_stale`): the conversation's facts whose subject, attribute, value or
the vocabulary's words for the attribute match the query; the values true at the asked instant lead the
context, each cited to its message; a value that was true before appears only on a line labelled
``until <date>:`` (history). A strategy's message that states a value no longer true gets the same label
on each of its lines, so no reader takes the stale value for the current one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from memql.cognition.conversation.assemble import day_words
from memql.cognition.conversation.base import Piece
from memql.cognition.conversation.held import held_turns, pet_turn
from memql.cognition.conversation.records import error, read_rows, tag
from memql.cognition.conversation.stale_forms import (
    CITE,
    WEEKDAYS_ZH,
    YEAR_MONTH,
    StoredFact,
    as_date,
    says_short,
    says_whole,
    short_stale,
    stale_forms,
)
from memql.lang import build
from memql.lang.delta import MemoryDelta, Turn, Utterance
from memql.lang.time.natural_en import MONTHS, WEEKDAYS
from memql.services.extract import Extractor, make_extractor
from memql.services.extract.base import is_extractor
from memql.services.extract.common import CJK, MOMENT, SINGULAR_RELATIONS, held_key
from memql.services.extract.interpret import interpreted_facets  # the message's facets: as Encode interpret's
from memql.services.extract.matching import QueryWords, attribute_phrases, match_score, someone_else
from memql.services.extract.replacements import CHANGE as CHANGE_SAID
from memql.services.extract.replacements import CORRECTION as CORRECTION_SAID
from memql.services.extract.vocabulary import DEFAULT_VOCABULARY, Vocabulary
from memql.services.summarize import estimate_tokens

if TYPE_CHECKING:
    from memql.engine.executor import Executor

FACT_LEVEL = "typed_fact"  # not "fact": the ladder's salient-sentence facts are level "fact"
FACT_TYPE = "fact"
FACT_SCORE = 1e6  # fact pieces lead and are the last a budget drops
MAX_CURRENT = 8  # matching current facts a context leads with
MAX_HISTORY = 3  # earlier values shown per fact
_MAX_ROWS = 10_000
_FIELDS = ["id", "subject", "attribute", "value", "valid_from", "valid_to", "source", "status", "facets"]
_OPEN = datetime.max.replace(tzinfo=UTC)


def resolve_extractor(value: Any) -> Extractor | None:
    """`extractor=` of a conversation: None (off), "rules", "llm", or an Extractor."""
    if value is None or is_extractor(value):
        return value
    if isinstance(value, str):
        try:
            return make_extractor(value)
        except ValueError as exc:
            raise error("/extractor", "field.enum", str(exc)) from None
    raise error("/extractor", "field.type", "extractor is None, 'rules', 'llm' or an Extractor")


# --- the write side ----------------------------------------------------------------------------------


def delta_encodes(
    delta: MemoryDelta,
    conversation_id: str,
    *,
    source: str,
    message_step: int,
    skip_embedding: bool | None,
    recent: Sequence[tuple[str | None, dict[str, Any]]] = (),
) -> list[dict[str, Any]]:
    """One Encode per fact candidate: a typed fact cited to its message (`source`, the message's turn id)
    and linked to the message's record (step `message_step` of the same workflow). A fact `said_in` a
    recent turn is cited to that turn and linked to its record instead: `recent[i]` is the turn's
    (source, derived_from) — an id (``{"ids": [...]}``) or a step of the same workflow; one without a
    source cannot be cited and is left out."""
    out = []
    seen: set[tuple[str, str, str]] = set()
    for fact in delta.facts:
        cited, link = source, {"from_step": message_step}
        if fact.said_in is not None:
            if fact.said_in >= len(recent) or recent[fact.said_in][0] is None:
                continue
            cited, link = recent[fact.said_in][0], recent[fact.said_in][1]  # type: ignore[assignment]
        key = (fact.subject, fact.attribute, cited)
        if key in seen:  # one message, one value per key: the first statement (a workflow is one instant)
            continue
        seen.add(key)
        out.append(
            build.encode(
                structured=fact.structured(source=cited),
                type=FACT_TYPE,
                tags=[tag(conversation_id)],
                facets={
                    "conversation": conversation_id,
                    "level": FACT_LEVEL,
                    "source_ids": [cited],
                    "evidence": fact.evidence.quote,
                    # the words that named the value it ended ("left Boise for Denver"): history from here
                    **({"replaces": fact.replaces.quote} if fact.replaces is not None else {}),
                },
                memory_type="semantic",
                category=fact.category,
                confidence=fact.confidence,
                skip_embedding=skip_embedding,
                derived_from=link,
            )
        )
    return out


RECENT_TURNS = 6  # the turns before a message its extractor sees (corrections and pronouns bind to them)


def form_messages(
    extractor: Extractor,
    read_facts: Callable[[], list[StoredFact]],
    conversation_id: str,
    irs: list[dict[str, Any]],
    said: list[tuple[bool, str, datetime, str]],
    recent: list[Turn],
    recent_ids: dict[str, str],
    agent: str | None = None,
) -> list[tuple[int, dict[str, Any]]]:
    """Each message's delta — its interpreted facets onto its Encode `irs[i]` (in place) and one Encode per
    typed fact, linked to it — as (message index, IR), to run in the messages' workflow. `said[i]` is (by
    the agent?, text, time, turn id); `recent` the turns before them and `recent_ids` their records by turn
    id; `agent` the agent's speaker name (what it restates is the user's). The agent's facts about itself
    are not the user's memory: left out. A value an earlier message
    already made a fact of (`read_facts`, read on first need) is not made a fact again."""
    out: list[tuple[int, dict[str, Any]]] = []
    links: dict[str, dict[str, Any]] = {k: {"ids": [v]} for k, v in recent_ids.items()}
    held: set[tuple[str, str, str]] | None = None
    for i, (ir, (by_agent, text, at, source)) in enumerate(zip(irs, said, strict=True)):
        speaker = ir["args"]["facets"]["speaker"]
        # a change or a correction said sessions after the value it changes: the turns that stated the
        # speaker's current facts of the key it names come before the recent ones (none is re-made)
        changes = CHANGE_SAID.search(text) or CORRECTION_SAID.search(text)
        held_before = held_turns(read_facts(), speaker, text, recent, at) if changes else []
        if "它" in text:  # whose 它 is: the speaker's one animal, named sessions before
            held_before = [*pet_turn(read_facts(), speaker, recent), *held_before]
        shown = [*held_before, *recent]
        delta = extractor.extract(Utterance(speaker=speaker, text=text, time=at, recent=shown, agent=agent))
        stored_text = ir["args"]["payload"]["text"]  # "<speaker>: <text>": spans point into it
        ir["args"]["facets"].update(interpreted_facets(delta, len(stored_text) - len(text)))
        kept = [f for f in delta.facts if not (by_agent and f.subject == speaker)]
        if any(f.said_in is not None for f in kept):
            if held is None:
                held = {(f.subject, f.attribute, str(f.value)) for f in read_facts()}
            kept = [
                f for f in kept if f.said_in is None or (f.subject, f.attribute, str(f.value)) not in held
            ]
        refs = [(t.source, links.get(t.source or "")) for t in shown]
        out.extend(
            (i, fact_ir)
            for fact_ir in delta_encodes(
                delta.model_copy(update={"facts": kept}),
                conversation_id,
                source=source,
                message_step=i,
                skip_embedding=ir["args"].get("skip_embedding"),
                recent=[(src, link) if link else (None, {}) for src, link in refs],
            )
        )
        recent = [*recent, Turn(speaker=speaker, text=text, time=at, source=source)][-RECENT_TURNS:]
        links[source] = {"from_step": i}
    return out


# --- the read side -----------------------------------------------------------------------------------


def fact_refused(result: Any, messages: int) -> bool:
    """A workflow refused at one of its typed facts (after its `messages` message steps), for a reason
    that is the fact's own: a fact the session may not change, or a lock on it."""
    step = result.failed_step
    if step is None or step < messages or not result.diagnostics:
        return False
    return all(d.rule == "permission.fact" or d.rule.startswith("governance.") for d in result.diagnostics)


def conversation_facts(executor: Executor, conversation_id: str, *, visit: bool = True) -> list[StoredFact]:
    """Every live typed fact the conversation formed (all windows, oldest first); `visit=False` for the
    cognitive layers' own reads on the write path (a dry run: no heat, no audit entry)."""
    rows = read_rows(
        executor,
        {
            "filter": {
                "has_tags": [tag(conversation_id)],
                "facets": {"conversation": conversation_id, "level": FACT_LEVEL},
                "fact": {},
                "status": "any",
                "limit": _MAX_ROWS,
            }
        },
        _FIELDS,
        visit=visit,
    )
    facts = [
        StoredFact(
            str(r["id"]),
            r["subject"],
            r["attribute"],
            r["value"],
            r["valid_from"],
            r["valid_to"],
            r["source"],
            (r.get("facets") or {}).get("evidence"),
            (r.get("facets") or {}).get("replaces"),
        )
        for r in rows
        if r.get("status") in ("active", "archived") and r.get("valid_from") is not None
    ]
    facts.sort(key=lambda f: (f.valid_from, f.valid_to or _OPEN, f.id))
    return facts


def end_replaced_relations(facts: Sequence[StoredFact]) -> list[StoredFact]:
    """`facts` with each "X is the speaker's boss" (`relation.boss_of`, a relation one has one of) ended
    when the speaker's own key for it took another value: after "I report to Mark now" Karen is no longer
    Ben's boss, though no fact about Karen was said."""
    held: dict[tuple[str, str], list[StoredFact]] = {}
    for f in facts:
        held.setdefault((f.subject, f.attribute), []).append(f)
    out = []
    for f in facts:
        relation = f.attribute[len("relation.") : -len("_of")] if f.attribute.startswith("relation.") else ""
        if relation in SINGULAR_RELATIONS and f.attribute.endswith("_of") and isinstance(f.value, str):
            later = [
                h.valid_from
                for h in held.get((f.value, held_key(DEFAULT_VOCABULARY, relation)), ())
                if h.value != f.subject and h.valid_from > f.valid_from
            ]
            end = min(later, default=None)
            if end is not None and (f.valid_to is None or end < f.valid_to):
                f = replace(f, valid_to=end)
        out.append(f)
    return out


def fact_pieces(
    facts: Sequence[StoredFact],
    query: str,
    at: datetime,
    *,
    asker: str,
    vocabulary: Vocabulary = DEFAULT_VOCABULARY,
    upcoming: bool = False,
) -> list[Piece]:
    """The pieces that lead a context: each matching fact's value true at `at` (best match first), then
    up to MAX_HISTORY of its earlier values, each on a line labelled ``until <date>:``. With `upcoming`
    (a context for now), a change already said but not yet in force ("he starts at Rivian next week")
    shows too: the value in force labelled ``until <date>:`` (it is history from then), and the next one
    on a line labelled ``from <date>:``."""
    keys: dict[tuple[str, str], list[StoredFact]] = {}
    for f in facts:
        keys.setdefault((f.subject, f.attribute), []).append(f)
    words = QueryWords.of(query)
    aliases = _relatives_named(facts, at, vocabulary)
    scored = []
    for (subject, attribute), chain in keys.items():
        values = [f.value for f in chain]
        score = max(
            match_score(name, attribute, values, words, asker=asker, vocabulary=vocabulary)
            for name in (subject, *aliases.get(subject, ()))
        )
        if score > 0:
            scored.append((score, subject, attribute, chain))
    # "Who is Eli's team lead?": a fact of another person, one the query does not name ("Priya's team"),
    # is not what it asks when a fact of the one it names matches
    named = {s for _, s, _, _ in scored if any(words.has_phrase(n) for n in (s, *aliases.get(s, ())))}
    if named:
        scored = [x for x in scored if x[1] in named or x[1] == asker or not _bare_name(x[1])]
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    out: list[Piece] = []
    for score, subject, attribute, chain in scored[:MAX_CURRENT]:
        current = [f for f in chain if f.valid_from <= at < (f.valid_to or _OPEN)]
        before = [f for f in chain if f.valid_to is not None and f.valid_to <= at and f not in current]
        label = _label(attribute)
        for f in current[-1:]:
            out.append(_current_piece(f, FACT_SCORE + score, ending=upcoming))
        if upcoming:
            following = next((f for f in chain if f.valid_from > at), None)
            if following is not None:
                out.append(_next_piece(following, FACT_SCORE + score - 0.25))
        for f in before[-MAX_HISTORY:][::-1]:
            said = _render(f.value, subject)
            text_ = f"until {_day(f.valid_to)}: {_cite(f)} {_whose(subject)} {label} was {said}"
            out.append(_piece(f, text_, "fact_history", FACT_SCORE + score - 0.5))
    return out


def _bare_name(subject: str) -> bool:
    """A person by a name alone ("Priya", 丹姐), not by a relation ("Ivy's brother", 阿花的儿子)."""
    return "'s " not in subject and "的" not in subject


def _relatives_named(
    facts: Sequence[StoredFact], at: datetime, vocabulary: Vocabulary
) -> dict[str, list[str]]:
    """The other names of a person the relation facts true at `at` give: Tom is "Abby's husband" (a
    question about Abby's husband asks about Tom's facts too), in each word for the relation."""
    out: dict[str, list[str]] = {}
    for f in facts:
        current = f.valid_from <= at < (f.valid_to or _OPEN)
        if not (current and f.attribute.startswith("relation.") and f.attribute.endswith("_of")):
            continue
        relation, owner = f.attribute[len("relation.") : -len("_of")], str(f.value)
        words = [w for w, (key, _) in vocabulary.relations.items() if key == relation] or [relation]
        for word in words:
            if CJK.search(word):
                out.setdefault(f.subject, []).append(f"{owner}的{word}")
            else:
                out.setdefault(f.subject, []).append(f"{owner}'s {word.replace('_', ' ')}")
    return out


def label_stale(
    pieces: Sequence[Piece],
    facts: Sequence[StoredFact],
    at: datetime,
    shown: set[str] = frozenset(),
    upcoming: bool = False,
    agent: str | None = None,
    query: str | None = None,
    asker: str | None = None,
) -> list[Piece]:
    """The strategy's pieces, each line that states a value no longer true at `at` (and not true of
    any fact then) labelled ``until <date>:`` — the date the value stopped being true (a value too short
    to look for anywhere, in the message that stated it and the reply of `agent` right after); led by what
    replaced those values: the value true at `at` of each key one of whose earlier values a piece states
    (a context that shows an outdated value also shows the current one, whatever words the query used),
    unless a fact of `shown` (ids) already says it, or it is of a relative the `query` (asked by `asker`)
    does not ask about ("where do my in-laws live?" brings no new home of the parents). With `upcoming` (a
    context for now), a value whose end is already known is labelled with that end, and the value that
    follows it leads too."""
    stale = stale_forms(facts, at, ending=upcoming)
    short = short_stale(facts, at, ending=upcoming)
    if not stale and not short:
        return list(pieces)
    keys: set[tuple[str, str]] = set()
    out = []
    echoed: list[tuple[str, datetime, set[tuple[str, str]]]] = []  # short values the last line said
    for piece in pieces:
        lines = piece.text.split("\n")
        changed = False
        for i, line in enumerate(lines):
            folded = line.casefold()
            found = [(t, of) for form, (t, of) in stale.items() if says_whole(form, folded)]
            cite = CITE.match(line)
            said = short.get(cite[1], []) if cite is not None else []
            if echoed and agent and cite is not None and line.startswith(f"{cite[0]} {agent}: "):
                said = said + echoed  # "Friday at 7" … "Lovely, Friday at 7 it is."
            echoed = [(form, t, of) for form, t, of in said if says_short(form, folded)]
            found += [(t, of) for _, t, of in echoed]
            for _, of in found:
                keys |= of
            if found and not line.startswith("until "):
                lines[i] = f"until {_day(max(t for t, _ in found))}: {line}"
                changed = True
        out.append(replace(piece, text="\n".join(lines)) if changed else piece)
    replacing: list[Piece] = []
    following: set[tuple[str, str]] = set()
    words = QueryWords.of(query) if query else None
    for f in facts:
        key = (f.subject, f.attribute)
        if key not in keys or f.id in shown:
            continue
        if words is not None and someone_else(f.subject, words, asker=asker):
            continue
        if f.valid_from <= at < (f.valid_to or _OPEN):
            replacing.append(_current_piece(f, FACT_SCORE - 1, ending=upcoming))
        elif upcoming and f.valid_from > at and key not in following:
            following.add(key)
            replacing.append(_next_piece(f, FACT_SCORE - 1.25))
    return replacing + out


def facts_by_source(facts: Sequence[StoredFact]) -> dict[str, list[StoredFact]]:
    """The facts stated by each message, keyed by the message's turn id (its first source id)."""
    out: dict[str, list[StoredFact]] = {}
    for f in facts:
        if f.source:
            out.setdefault(f.source, []).append(f)
    return out


def fact_statement(f: StoredFact) -> str:
    """A typed fact as one self-contained sentence for the cognitive layers (ladder facts, LPM knowledge):
    who, what, the value, and the words it was read from (so lexical search still finds "moved")."""
    label = _label(f.attribute)
    said = f' ("{f.evidence}")' if f.evidence else ""
    return f"{_whose(f.subject)} {label}: {_render(f.value, f.subject)}, from {_day(f.valid_from)}{said}"


def profile_fields(
    facts: Sequence[StoredFact], budget_tokens: int, user: str | None = None
) -> tuple[list[str], tuple[str, ...]]:
    """A profile's fields: each key's current value ("Mira's employer: Stripe"), the `user`'s first, then
    the people and things around them, within `budget_tokens`; and the messages they cite."""
    current: dict[tuple[str, str], StoredFact] = {}
    for f in facts:
        if f.valid_to is None:
            current[(f.subject, f.attribute)] = f  # oldest first: the last one holds the key now
    ranked = sorted(current.values(), key=lambda f: (f.subject != user, f.subject, f.attribute))
    lines: list[str] = []
    sources: list[str] = []
    used = 0
    for f in ranked:
        label = _label(f.attribute)
        line = f"{_whose(f.subject)} {label}: {_render(f.value, f.subject)}"
        used += estimate_tokens(line)
        if used > budget_tokens:
            break
        lines.append(line)
        if f.source:
            sources.append(f.source)
    return lines, tuple(dict.fromkeys(sources))


# --- matching and rendering --------------------------------------------------------------------------


def _whose(subject: str) -> str:
    """ "Jen's", and for relatives said together "Jen's parents'" (not "parents's")."""
    together = subject.endswith(("'s parents", "'s grandparents", "'s in laws"))
    return f"{subject}'" if together else f"{subject}'s"


def _render(value: Any, subject: str = "") -> str:
    """A date or moment as people say it, with its weekday (a question may ask by either), then as
    stored: "Thursday, May 21, 2026 (2026-05-21)"; for a Chinese subject "2026年5月21日 周四 (…)"."""
    moment = MOMENT.match(value) if isinstance(value, str) else None
    day = as_date(moment["date"] if moment else value)
    if day is None:
        if isinstance(value, str) and (month := YEAR_MONTH.fullmatch(value)) is not None:
            y, m = int(month["y"]), int(month["m"])  # "December 2026 (2026-12)", "2026年12月 (2026-12)"
            return (
                f"{y}年{m}月 ({value})"
                if CJK.search(subject)
                else f"{MONTHS[m - 1].capitalize()} {y} ({value})"
            )
        return str(value)
    clock = (
        f" {moment['h']}:{moment['m']}{_twelve_hour(int(moment['h']), int(moment['m']), subject)}"
        if moment
        else ""
    )
    if CJK.search(subject):
        return f"{day.year}年{day.month}月{day.day}日 周{WEEKDAYS_ZH[day.weekday()]}{clock} ({value})"
    said = (
        f"{WEEKDAYS[day.weekday()].capitalize()}, {MONTHS[day.month - 1].capitalize()} {day.day}, {day.year}"
    )
    return f"{said}{',' + clock if clock else ''} ({value})"


def _twelve_hour(hour: int, minute: int, subject: str) -> str:
    """A clock time as people also say it, beside the 24-hour one: " (8:30pm, 8:30 pm)", "（晚上6点）"."""
    half = hour % 12 or 12
    if CJK.search(subject):
        part = (
            "凌晨"
            if hour < 6
            else "上午"
            if hour < 12
            else "中午"
            if hour < 13
            else "下午"
            if hour < 18
            else "晚上"
        )
        rest = "半" if minute == 30 else f"{minute}分" if minute else ""
        return f"（{part}{half}点{rest}）"
    said = f"{half}:{minute:02d}" if minute else f"{half}"
    suffix = "am" if hour < 12 else "pm"
    return f" ({said}{suffix}, {said} {suffix})"  # as people write it, joined or not


def _current_piece(f: StoredFact, score: float, ending: bool = False) -> Piece:
    """A value in force; with `ending`, one whose end is already known is labelled with it."""
    label = _label(f.attribute)
    text = f"{_cite(f)} {_whose(f.subject)} {label}: {_render(f.value, f.subject)}"
    # when it was said, written as the day lines are: an ISO date beside an ISO value reads as a value
    text += f" (since {day_words(f.valid_from.astimezone(UTC))})"
    if ending and f.valid_to is not None:
        text = f"until {_day(f.valid_to)}: {text}"
    return _piece(f, text, "fact", score)


def _next_piece(f: StoredFact, score: float) -> Piece:
    """A value said for later ("she starts at St. Luke's on Monday"), labelled with when it begins."""
    label = _label(f.attribute)
    text = f"from {_day(f.valid_from)}: {_cite(f)} {_whose(f.subject)} {label}: "
    text += _render(f.value, f.subject)
    return _piece(f, text, "fact_upcoming", score)


def _label(attribute: str) -> str:
    """A key as words: "passport.due_date" -> "passport due date"."""
    return attribute.replace("_", " ").replace(".", " ")


def _cite(f: StoredFact) -> str:
    return f"[{f.source}]" if f.source else f"[fact {f.id}]"


def _piece(f: StoredFact, text: str, level: str, score: float) -> Piece:
    sources = (f.source,) if f.source else ()
    return Piece(
        text=text, memory_ids=(f.id,), source_ids=sources, level=level, score=score, time=f.valid_from
    )


def _day(when: datetime) -> str:
    return when.astimezone(UTC).date().isoformat()


__all__ = [
    "FACT_LEVEL",
    "StoredFact",
    "attribute_phrases",
    "conversation_facts",
    "delta_encodes",
    "end_replaced_relations",
    "fact_pieces",
    "fact_refused",
    "fact_statement",
    "facts_by_source",
    "form_messages",
    "interpreted_facets",
    "label_stale",
    "profile_fields",
    "resolve_extractor",
]
