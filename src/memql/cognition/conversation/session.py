"""Conversation: messages in, cited context and answers out (`Memory.conversation(...)`).

>>> from memql import Memory
>>> m = Memory(":memory:", embedder="none")
>>> conv = m.conversation(user="mira", agent="assistant", strategy="flat")
>>> _ = conv.add_turn("I adopted a cat named Miso", "Congratulations! How old is Miso?")
>>> conv.context("what is the cat called?", budget_tokens=100).source_ids
['M1', 'M2']

Every message is one Encode (records.py says what it stores), then every observing strategy sees it.
Which strategies observe: the conversation's (`strategy=`: a name, or a list whose first is the default
for `context`); with none given, every available one of flat, tiers and ladder observes and flat answers.
A strategy that builds structure on the write path (tiers, ladder) can only answer for a conversation it
observed: asking another is `conversation.strategy_inactive`.

A conversation is private to its participants (records.py): a session opens it only as its user, as its
agent or as an admin (`conversation.participant` otherwise, naming the field); a session without an actor
(the embedded, single-user library) acts in it as its user. An agent adds messages only with read_write
consent. A conversation whose latest message is locked (a legal hold) takes no new message: the turn is
refused before anything is stored (`governance.locked`), and a turn's messages are stored together or
not at all, so a retry never duplicates one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memql.cognition.conversation import registry
from memql.cognition.conversation.base import Context, Message, Piece, Strategy
from memql.cognition.conversation.formation import (
    RECENT_TURNS,
    StoredFact,
    conversation_facts,
    end_replaced_relations,
    fact_pieces,
    fact_refused,
    form_messages,
    label_stale,
    resolve_extractor,
)
from memql.cognition.conversation.records import (
    MESSAGE_LEVEL,
    ConversationError,
    ParticipantExecutor,
    acting_executor,
    conversation_filter,
    error,
    first_source,
    llm_calls,
    message_encode,
    message_row_text,
    messages_after,
    position_of,
    read_rows,
    refuses,
    require_text,
    unmoved,
)
from memql.cognition.conversation.shapes import Response
from memql.cognition.conversation.stale_forms import stale_forms
from memql.cognition.conversation.superseded import ending_clauses_last, label_superseded
from memql.lang import build
from memql.lang.delta import MAX_TEXT, Turn
from memql.lang.diagnostics import Diagnostic
from memql.lang.time import TimeParseError, resolve_instant
from memql.ports.models import LLM, ChatMessage, ChatRequest

if TYPE_CHECKING:
    from memql.engine.executor import Executor

DEFAULT_STRATEGY = "flat"  # what `context` uses by default: the best measured (docs/conversation.md)
DEFAULT_BUDGET_TOKENS = 2000
OBSERVED_BY_DEFAULT = ("flat", "tiers", "ladder")
ANSWER_MAX_TOKENS = 512
_TAIL_ROWS = 20  # latest messages read on opening, to continue positions (times may tie)
MESSAGE_FIELDS = ("role", "text", "time", "source_id")  # what add_messages reads of each message

SYSTEM_PROMPT = (
    "You are {agent}, in a conversation with {user}. Below is what memory holds of it: lines cite the "
    "turns they come from in brackets, and each day's messages follow that day. Answer the user's "
    "message using this memory where it helps; cite the turn ids you rely on in brackets; if memory does "
    "not say, say so rather than guess.\n\nMemory:\n{context}"
)


class Conversation:
    """One conversation between a user and an agent, stored through a session's Executor."""

    def __init__(
        self,
        executor: Executor,
        *,
        user: str,
        agent: str,
        id: str | None = None,
        strategy: str | Sequence[str] | None = None,
        config: Mapping[str, Any] | None = None,
        llm: LLM | None = None,
        embed_batch: int = 1,
        extractor: Any = "rules",
    ) -> None:
        require_text("/user", user)
        if isinstance(embed_batch, bool) or not isinstance(embed_batch, int) or embed_batch < 1:
            raise error("/embed_batch", "field.range", "embed_batch must be a positive integer")
        require_text("/agent", agent)
        self.session_executor = executor
        self.executor = ParticipantExecutor(acting_executor(executor, user, agent), user, agent)
        self.user, self.agent = user, agent
        self.id = f"{user}/{agent}" if id is None else id
        require_text("/id", self.id)
        self.llm = llm if llm is not None else executor.llm
        if config is not None and not isinstance(config, Mapping):
            raise error("/config", "field.type", "config is an object: a strategy's name -> its config")
        self.config = dict(config or {})
        for name in self.config:
            if name not in registry.NAMES:
                raise error(
                    f"/config/{name}",
                    "field.enum",
                    f"config names a strategy: one of {', '.join(registry.NAMES)}, not {name!r}",
                )
        self.default_strategy, self.observing = self._resolve(strategy)
        for name in self.observing:  # an absent strategy is a diagnostic now, not at the first message
            registry.strategy_class(name)
        self.write_llm_calls = 0  # LLM calls made by the strategies on the write path
        # embed_batch > 1: messages are stored with skip_embedding and embedded N at a time (one model
        # call per batch instead of per message), and always before a read
        self.embed_batch = embed_batch if executor.embedder is not None else 1
        self._unembedded = 0
        self._latest: datetime | None = None  # the latest message time seen (stored or reloaded)
        self._tail_ids: list[tuple[str, str]] = []  # (turn id, record id) of the reloaded last turns
        # formation (formation.py): each message's MemoryDelta is written in the message's workflow; a
        # reopened conversation's extractor sees its last turns, so "correction: it's June 30" binds
        self.extractor = resolve_extractor(extractor)
        self._resume()

    # --- the write path --------------------------------------------------------------------------

    def add_message(
        self,
        role: str,
        text: str,
        *,
        time: datetime | str | None = None,
        source_id: str | None = None,
    ) -> Message:
        """Store one message (one Encode) and let every observing strategy see it. `role` is "user",
        "assistant", or a speaker's name (streams that are not strict pairs); `source_id` the turn id it
        comes from (default ``M<position + 1>``)."""
        at = self._time(time)
        return self._store([(role, text, at, source_id)], ["/text"])[0]

    def add_messages(
        self, messages: Sequence[Mapping[str, Any]], *, time: datetime | str | None = None
    ) -> list[Message]:
        """Store messages, oldest first, together (one workflow) or not at all, then let every observing
        strategy see them in order: each a mapping with "role" and "text" (as `add_message` takes them)
        and, when given, its own "time" (default `time`, else now) and "source_id". A diagnostic names
        the message and its field (``/messages/2/text``)."""
        if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Sequence):
            raise error("/messages", "field.type", "messages are a list of {role, text} objects")
        if not messages:
            raise error("/messages", "field.empty", "give at least one message")
        at = self._time(time)
        parsed: list[tuple[str, Any, datetime, str | None]] = []
        for i, message in enumerate(messages):
            where = f"/messages/{i}"
            if not isinstance(message, Mapping):
                kind = type(message).__name__
                raise error(where, "field.type", f"a message is an object {{role, text}}, not {kind}")
            for name in message:
                if name not in MESSAGE_FIELDS:
                    raise error(
                        f"{where}/{name}", "field.unknown", f"a message has {', '.join(MESSAGE_FIELDS)}"
                    )
            for name in ("role", "text"):
                if name not in message:
                    raise error(f"{where}/{name}", "field.required", f"message {i} has no {name}")
            own = message.get("time")
            when = at if own is None else self._time(own, f"{where}/time")
            parsed.append((message["role"], message["text"], when, message.get("source_id")))
        return self._store(parsed, [f"/messages/{i}/text" for i in range(len(parsed))], "/messages/{}")

    def add_turn(
        self,
        user_text: str,
        assistant_text: str,
        *,
        time: datetime | str | None = None,
        source_ids: Sequence[str] | None = None,
    ) -> tuple[Message, Message]:
        """A user message and the assistant's reply, stored together (one workflow) or not at all.
        `source_ids`: one id each ([user's, assistant's]), or one id both share."""
        ids: list[str | None] = [None, None]
        if source_ids is not None:
            if not isinstance(source_ids, list | tuple) or len(source_ids) not in (1, 2):
                raise error(
                    "/source_ids", "field.size", "source_ids: one id per message (2), or one for both"
                )
            ids = [source_ids[0], source_ids[-1]]
        at = self._time(time)
        first, second = self._store(
            [("user", user_text, at, ids[0]), ("assistant", assistant_text, at, ids[1])],
            ["/user_text", "/assistant_text"],
        )
        return first, second

    def _store(
        self,
        messages: list[tuple[str, Any, datetime, str | None]],
        text_paths: list[str],
        fields: str = "",
        again: bool = False,
    ) -> list[Message]:
        """Check every message (`text_paths`: where each one's text is; `fields`: where its role and source
        id are, formatted with its index), refuse a locked conversation, store them in one transaction (or
        nothing), then let the observers see them in order; `again`: after another writer's message."""
        identity = self.executor.identity
        if identity.role == "agent" and identity.consent != "read_write":
            raise error(
                "",
                "consent.write",
                f"agent {identity.actor} has consent {identity.consent!r}: it may not add messages to "
                "a conversation (writes need read_write)",
            )
        irs: list[dict[str, Any]] = []
        stored: list[tuple[str, str, datetime, tuple[str, ...], int]] = []
        position, previous = self._next_position, self._previous
        for i, (role, text, at, source_id) in enumerate(messages):
            where = fields.format(i)
            require_text(f"{where}/role", role)
            require_text(text_paths[i], text, "a message needs text", longest=MAX_TEXT)
            sources = (str(source_id),) if source_id is not None else (f"M{position + 1}",)
            require_text(f"{where}/source_id", sources[0], "a source id, when given, must not be blank")
            speaker = {"user": self.user, "assistant": self.agent}.get(role, role)
            ir = message_encode(
                self.id,
                role=role,
                speaker=speaker,
                text=text.strip(),
                time=at,
                source_ids=sources,
                position=position,
                previous=previous,
                skip_embedding=True if self.embed_batch > 1 else None,
            )
            if i > 0:  # the message before it is in the same workflow, its id not known yet: readers
                del ir["args"]["facets"]["previous"]  # find it by position (flat.py)
            irs.append(ir)
            stored.append((role, text.strip(), at, sources, position))
            position, previous = position + 1, ("", ir["args"]["payload"]["text"])
        facts = self._form(irs, stored)
        self._refuse_if_locked()
        if self._observers is None:  # built before the message is stored: they reload what came before it
            self._observers = [self.strategy(name) for name in self.observing]
        program = irs + [ir for _, ir in facts]
        unchanged = unmoved(  # no other writer added one since: checked in the write's transaction
            self.id, self.user, self._previous[0] if self._previous else None
        )
        result = self.executor.execute(
            program[0] if len(program) == 1 else build.workflow(program), precondition=unchanged
        )
        unformed: tuple[Diagnostic, ...] = ()
        if not result.success and fact_refused(result, len(irs)):
            # what was said is stored even when a fact it states may not change (another's, or locked):
            # the facts are left out, and the message says why
            unformed, facts = tuple(result.diagnostics), []
            result = self.executor.execute(
                irs[0] if len(irs) == 1 else build.workflow(irs), precondition=unchanged
            )
        if not result.success:
            if not again and [d.rule for d in result.diagnostics] == ["conversation.moved"]:
                self._resume()  # another writer added to it since it was opened: continue after theirs
                return self._store(messages, text_paths, fields, again=True)
            raise ConversationError(
                "; ".join(d.message for d in result.diagnostics) or "Encode failed", result.diagnostics
            )
        program = irs + [ir for _, ir in facts]
        if facts:
            self._facts_read = None  # the facts just written are read again when next needed
        step_ids = [str(result.data["id"])] if len(program) == 1 else [str(s.id) for s in result.steps or []]
        memory_ids = step_ids[: len(irs)]
        formed: dict[int, list[str]] = {}
        for (owner, _), fact_id in zip(facts, step_ids[len(irs) :], strict=True):
            formed.setdefault(owner, []).append(fact_id)
        out: list[Message] = []
        for i, (memory_id, ir, (role, text, at, sources, pos)) in enumerate(
            zip(memory_ids, irs, stored, strict=True)
        ):
            out.append(
                Message(memory_id, role, text, at, sources, pos, tuple(formed.get(i, ())), unformed=unformed)
            )
            self._next_position, self._previous = pos + 1, (memory_id, ir["args"]["payload"]["text"])
            self._latest = at if self._latest is None else max(self._latest, at)
            if self.extractor is not None:
                speaker = ir["args"]["facets"]["speaker"]
                self._recent.append(Turn(speaker=speaker, text=text, time=at, source=sources[0]))
                self._recent_ids[sources[0]] = memory_id
                live = {t.source for t in self._recent}
                self._recent_ids = {k: v for k, v in self._recent_ids.items() if k in live}
        if self.embed_batch > 1:
            self._unembedded += len(out)
            if self._unembedded >= self.embed_batch:
                self.flush()
        before = llm_calls(self.llm)
        for message in out:
            for observer in self._observers:
                observer.observe(message)
        self.write_llm_calls += llm_calls(self.llm) - before
        return out

    def _form(
        self, irs: list[dict[str, Any]], stored: list[tuple[str, str, datetime, tuple[str, ...], int]]
    ) -> list[tuple[int, dict[str, Any]]]:
        """With an extractor: each message's facts, to run in the message's workflow (formation.py)."""
        if self.extractor is None:
            return []
        return form_messages(
            self.extractor,
            self._live_facts,
            self.id,
            irs,
            [(role == "assistant", text, at, sources[0]) for role, text, at, sources, _ in stored],
            list(self._recent),
            self._recent_ids,
            self.agent,
        )

    def _live_facts(self) -> list[StoredFact]:
        """The conversation's facts as formation reads them, read once until this session writes one (one
        another writer adds meanwhile is missed only as a hint: every write is checked by the engine)."""
        if self._facts_read is None:
            self._facts_read = conversation_facts(self.executor, self.id, visit=False)
        return self._facts_read

    # --- the read path ---------------------------------------------------------------------------

    def context(
        self,
        query: str,
        budget_tokens: int = DEFAULT_BUDGET_TOKENS,
        *,
        strategy: str | None = None,
        as_of: datetime | str | None = None,
    ) -> Context:
        """The cited context for `query`, at most `budget_tokens` long (pieces that would not fit are
        left out): the conversation's typed facts that match the query lead it (their values true at
        `as_of`, default now; earlier values only on lines labelled ``until <date>:``), then what
        `strategy` (default: the conversation's) assembles in the budget left — without the messages
        said after `as_of`, and with a line that states a value no longer true labelled the same way."""
        if not isinstance(query, str) or not query.strip():
            raise error("/query", "field.empty", "a query needs text")
        if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int) or budget_tokens < 1:
            raise error("/budget_tokens", "field.range", "budget_tokens must be a positive integer")
        name = strategy or self.default_strategy
        registry.strategy_class(name)  # unknown or absent: a diagnostic
        missing = [c for c in self._needs(name) if c not in self.observing]
        if missing:
            raise error(
                "/strategy",
                "conversation.strategy_inactive",
                f"strategy {name!r} needs {', '.join(missing)} to observe the conversation from its "
                f"first message; open it with strategy=[..., {missing[0]!r}]",
            )
        if as_of is None:  # now, or the conversation's last message when that is later (a replayed log)
            now = self.executor.clock.now()
            at = max(now, self._latest) if self._latest is not None else now
        else:
            at = self._time(as_of, "/as_of")
        chosen = self.strategy(name)
        self.flush()
        facts = end_replaced_relations(conversation_facts(self.executor, self.id))
        # a context for now also shows a change already said for later ("he starts next week")
        upcoming = as_of is None
        leading = _within(fact_pieces(facts, query, at, asker=self.user, upcoming=upcoming), budget_tokens)
        left = budget_tokens - sum(p.tokens for p in leading) - len(leading)  # a newline between pieces
        before = llm_calls(self.llm)
        context = chosen.context(query, max(left, 1))
        context.llm_calls = max(context.llm_calls, llm_calls(self.llm) - before)
        pieces = context.pieces
        if as_of is not None:  # the context as of an instant holds what had been said by then
            pieces = [p for p in pieces if p.time is None or p.time <= at]
        shown = {i for p in leading for i in p.memory_ids}
        # a piece that shows an outdated value brings the value that replaced it (it outranks the pieces)
        pieces = label_stale(
            pieces, facts, at, shown, upcoming=upcoming, agent=self.agent, query=query, asker=self.user
        )
        pieces = leading + pieces if left > 0 else leading
        if self.extractor is not None:  # formation reads what changed where it formed no fact, too
            stale = frozenset(stale_forms(facts, at))
            pieces = ending_clauses_last(label_superseded(pieces, at, facts, self.agent), self.agent, stale)
        context.pieces = pieces
        context.budget_tokens = budget_tokens
        _enforce_budget(context)
        return context

    def respond(
        self, query: str, budget_tokens: int = DEFAULT_BUDGET_TOKENS, *, strategy: str | None = None
    ) -> Response:
        """Answer `query` with the LLM, given the assembled context. Without an LLM, no answer is made
        up: the response says so and carries the context. It stores nothing (add the exchange with
        `add_turn` when it should be remembered)."""
        context = self.context(query, budget_tokens, strategy=strategy)
        if self.llm is None:
            return Response(
                query,
                None,
                context,
                note="no LLM is configured (set MEMQL_LLM_BASE_URL and MEMQL_LLM_MODEL): here is the context",
            )
        from memql.services.llm import LLMError

        request = ChatRequest(
            [
                ChatMessage(
                    "system",
                    SYSTEM_PROMPT.format(agent=self.agent, user=self.user, context=context.text or "(empty)"),
                ),
                ChatMessage("user", query),
            ],
            max_tokens=ANSWER_MAX_TOKENS,
        )
        before = llm_calls(self.llm)
        try:
            answer = self.llm.chat(request)
        except LLMError as exc:
            problem = f"the LLM could not answer: {exc}"
            return Response(
                query,
                None,
                context,
                llm_calls=context.llm_calls + llm_calls(self.llm) - before,
                diagnostics=[
                    Diagnostic(path="/llm", rule="conversation.llm_error", severity="error", message=problem)
                ],
                note=problem,
            )
        return Response(
            query, answer.strip(), context, llm_calls=context.llm_calls + llm_calls(self.llm) - before
        )

    def flush(self) -> int:
        """Embed the messages stored with deferred embeddings (embed_batch > 1); returns how many."""
        if not self._unembedded:
            return 0
        self._unembedded = 0
        return self.executor.embed_pending(batch=self.embed_batch)

    # --- strategies ------------------------------------------------------------------------------

    def strategy(self, name: str) -> Strategy:
        """This conversation's instance of strategy `name` (built once; hybrid shares its components)."""
        if name not in self._strategies:
            cls = registry.strategy_class(name)
            config = self.config.get(name)
            if name == "hybrid":
                parts = [self.strategy(part) for part in registry.components(name, config)]
                self._strategies[name] = cls(
                    self.executor, self.id, config=config, llm=self.llm, components=parts
                )
            else:
                self._strategies[name] = cls(self.executor, self.id, config=config, llm=self.llm)
        return self._strategies[name]

    def _needs(self, name: str) -> list[str]:
        return [c for c in registry.components(name, self.config.get(name)) if c in registry.BUILDS_ON_WRITE]

    def _resolve(self, strategy: str | Sequence[str] | None) -> tuple[str, tuple[str, ...]]:
        if strategy is None:
            return DEFAULT_STRATEGY, registry.available(OBSERVED_BY_DEFAULT)
        names = [strategy] if isinstance(strategy, str) else strategy
        if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
            raise error("/strategy", "field.type", "strategy is a strategy's name, or a list of names")
        if not names:
            raise error("/strategy", "field.empty", "name at least one strategy")
        observing: list[str] = []
        for name in names:
            registry.strategy_class(name)  # unknown or absent: a diagnostic now, not at the first message
            for part in registry.components(name, self.config.get(name)):
                registry.strategy_class(part)
                if part != "hybrid" and part not in observing:
                    observing.append(part)
        return names[0], tuple(observing)

    # --- internals -------------------------------------------------------------------------------

    def _resume(self) -> None:
        """Take the conversation up where it now ends (on opening, and again after another writer's
        message): its last turns read, its strategies built anew when first needed — the observers at
        the first message (each reloading its state), so one opened only to read builds just the one that
        answers."""
        self._next_position, self._previous, recent = self._tail()
        self._recent: deque[Turn] = deque(recent if self.extractor else (), maxlen=RECENT_TURNS)
        # the records of the recent turns by turn id: a fact read from a recent turn's words is linked to it
        self._recent_ids: dict[str, str] = dict(self._tail_ids)
        self._strategies: dict[str, Strategy] = {}
        self._observers: list[Strategy] | None = None
        self._facts_read: list[StoredFact] | None = None  # (formation's read of the facts: _live_facts)

    def _refuse_if_locked(self) -> None:
        """A conversation whose latest message is under a live lock that refuses writes (a legal hold,
        e.g. a Lock of every record tagged ``conv:<id>``) takes no new message: refused here, before
        anything is stored."""
        if self._previous is None:
            return
        result = self.executor.execute(
            build.retrieve(ids=[self._previous[0]], include=["id", "lock"], meta={"dry_run": True})
        )
        rows = result.data.get("rows", []) if result.success else []
        lock = rows[0].get("lock") if rows else None
        if not lock or not refuses(lock, "Encode", self.executor.clock.now()):
            return
        if lock.get("mode") != "read_only" and "Encode" not in ((lock.get("policy") or {}).get("deny") or ()):
            return  # append_only lets additions through, and a new message is one
        why = f" ({lock['reason']})" if lock.get("reason") else ""
        raise error(
            "/conversation",
            "governance.locked",
            f"conversation {self.id} is locked read_only{why} by {lock.get('by') or 'someone'} "
            f"(its latest message, record {self._previous[0]}): no message was stored; the locker, a "
            "listed reviewer or an admin may lift the lock",
        )

    def _tail(self) -> tuple[int, tuple[str, str] | None, list[Turn]]:
        """Where a reopened conversation continues: the next position, the last message, and its last
        turns (oldest first) for the extractor."""
        fields = ["id", "text", "facets", "time"]
        messages = conversation_filter(self.id, MESSAGE_LEVEL)
        # (opening is no visit to what it reads: a dry run, as the strategies' own reloads are)
        rows = read_rows(self.executor, {"filter": {**messages, "limit": _TAIL_ROWS}}, fields, visit=False)
        if not rows:
            return 0, None, []
        times = [row["time"] for row in rows if row.get("time") is not None]
        self._latest = max(times) if times else None
        # a filter reads the newest by time, and a message may have been given an earlier time than those
        # before it (a backfill): the last position is looked for past the highest seen, and the tail is
        # then the last messages by position (else a new message would repeat a position and its turn id)
        last = top = max(map(position_of, rows))
        while later := read_rows(self.executor, messages_after(messages, top), ["facets"], visit=False):
            top = max(map(position_of, later))
        if top != last:
            rows = read_rows(self.executor, messages_after(messages, top - _TAIL_ROWS), fields, visit=False)
        rows.sort(key=position_of)
        last = rows[-1]
        kept = [
            row
            for row in rows[-RECENT_TURNS:]
            if row.get("text") and (row.get("facets") or {}).get("speaker") and row.get("time") is not None
        ]
        recent = [
            Turn(
                speaker=str(row["facets"]["speaker"]),
                text=message_row_text(row),
                time=row["time"],
                source=first_source(row),
            )
            for row in kept
        ]
        self._tail_ids = [(s, str(row["id"])) for row in kept if (s := first_source(row))]
        position = int(last["facets"].get("position") or 0) + 1
        return position, (str(last["id"]), str(last.get("text") or "")), recent

    def _time(self, time: datetime | str | None, path: str = "/time") -> datetime:
        name = path.strip("/")
        if time is None:
            return self.executor.clock.now()
        # a time expression is read against the clock; an as_of phrase means its end (as in the language)
        try:
            return resolve_instant(time, self.executor.clock.now(), end=path == "/as_of")
        except TimeParseError as exc:
            raise error(path, "time.invalid", f"{name}: {exc}") from None
        except TypeError:
            raise error(
                path, "field.type", f"{name} is a datetime, an ISO-8601 string or a time expression"
            ) from None


def _within(pieces: list[Piece], budget_tokens: int) -> list[Piece]:
    """The leading fact pieces that fit the budget, in order."""
    out: list[Piece] = []
    used = 0
    for piece in pieces:
        cost = piece.tokens + (1 if out else 0)
        if used + cost > budget_tokens:
            break
        out.append(piece)
        used += cost
    return out


def _enforce_budget(context: Context) -> None:
    """The budget is a promise whatever the strategy did: drop the weakest pieces until it holds."""
    while context.pieces and context.tokens > context.budget_tokens:
        weakest = min(range(len(context.pieces)), key=lambda i: context.pieces[i].score)
        del context.pieces[weakest]
