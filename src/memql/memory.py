"""Memory: the Python API, and the composition root of the layers under it. It opens the store, builds the
Executor, and hands the executor to each cognitive layer (facts, proposals, profiles, conversations); none
of them knows this class. Every method builds an IR (memql.lang.build) and runs it through the same
validated, transactional, audited path as `execute` — the convenience methods hold no logic of their own."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, get_args

from memql.cognition.facts import Facts
from memql.cognition.maintenance import Maintenance
from memql.cognition.planner import Plan, Planner, make_planner
from memql.cognition.planner.execution import PlanOutcome, run_plan
from memql.cognition.planner.store_context import store_context
from memql.cognition.profile.a2p import ExportResult, export_profile
from memql.cognition.profile.a2p_import import ImportResult, import_profile
from memql.cognition.profile.consolidation import consolidate, reclassify
from memql.cognition.profile.promotion import PromotionConfig, PromotionReport, promote_episodes
from memql.cognition.profile.proposals import Proposals
from memql.cognition.remember import RememberResult, remember
from memql.engine import audit
from memql.engine.access import identity
from memql.engine.bulk import DEFAULT_BATCH
from memql.engine.context import EngineConfig
from memql.engine.executor import Executor, StepObserver, bulk_limits
from memql.engine.interpret import default_extractor
from memql.engine.result import ExecutionResult
from memql.errors import Refusal
from memql.lang import ValidationResult, build, validate
from memql.lang.ops.read import IncludeField
from memql.ports.clock import Clock, FixedClock, SystemClock
from memql.ports.models import LLM, Embedder
from memql.ports.progress import Progress, silent
from memql.ports.store import Store
from memql.services.extract.base import Extractor
from memql.store import default_db_path, open_store

if TYPE_CHECKING:
    from memql.cognition.conversation.session import Conversation

Ids = str | list[str]

# every field a Retrieve can return about one record (its search score and explanation are about a query)
RECORD_FIELDS: list[str] = [f for f in get_args(IncludeField) if f not in ("score", "explain")]

# the method of this API that sends each verb (Memory.execute sends any); tests/test_verb_coverage.py
# checks that every verb of the language has one
VERB_METHODS: dict[str, str] = {
    "Encode": "encode",
    "Update": "update",
    "Label": "label",
    "Promote": "promote",
    "Demote": "demote",
    "Merge": "merge",
    "Delete": "delete",
    "Split": "split",
    "Lock": "lock",
    "Expire": "expire",
    "Retrieve": "retrieve",
    "Summarize": "summarize",
    "Sweep": "sweep",
    "Remind": "due",
    "Restore": "restore",
}


class Memory:
    """A tenant's memory in a store.

    >>> m = Memory(":memory:", tenant="acme", actor="mira")
    >>> m.encode("Standup moves to 9:30", tags=["team"]).id
    '1'

    Who acts: `actor` (a name), `role` ("user", "admin" — also `admin=True` —, or "agent") and, for an
    agent, its `consent` ("propose" — the default —, "read" or "read_write"; docs/engine.md). `clearance`
    is the most protected sensitivity ("standard" < "sensitive" < "restricted") the session may read or
    act on; records beyond it are, to this session, not there. Users and admins see every level by
    default, agents only "standard". `extractor` ("rules", "llm" or an Extractor) is what Encode
    `interpret` and Label `infer` read text with; default: the LLM one when `llm` is given, else the
    offline rules (docs/language.md, Interpretation).
    """

    def __init__(
        self,
        location: str | os.PathLike[str] | Store | None = None,
        *,
        tenant: str = "default",
        actor: str | None = None,
        admin: bool = False,
        clock: Clock | datetime | None = None,
        llm: LLM | None = None,
        embedder: Embedder | str | None = "auto",
        strict: bool = False,
        config: EngineConfig | None = None,
        clearance: str | None = None,
        role: str | None = None,
        consent: str | None = None,
        extractor: Extractor | str | None = None,
    ) -> None:
        # a contradictory identity is refused before a store is opened (and left open)
        identity(actor, role=role, consent=consent, clearance=clearance, admin=admin)
        extractor = default_extractor(llm, extractor)  # an unknown one too
        if isinstance(location, str | os.PathLike) or location is None:
            self.store = open_store(location if location is not None else default_db_path())
            self._owns_store = True
        else:
            self.store, self._owns_store = location, False
        if isinstance(clock, datetime):
            clock = FixedClock(clock)
        self.clock: Clock = clock or SystemClock()
        if isinstance(embedder, str):
            embedder = default_embedder(embedder)
        self.executor = Executor(
            self.store,
            tenant=tenant,
            actor=actor,
            clock=self.clock,
            admin=admin,
            config=config,
            llm=llm,
            embedder=embedder,
            strict=strict,
            clearance=clearance,
            role=role,
            consent=consent,
            extractor=extractor,
        )
        self.tenant, self.actor = tenant, actor
        prepare = getattr(self.store, "prepare", None)  # a store with index snapshots opens them now
        if prepare is not None:
            prepare(tenant, embedder.model if embedder is not None else None)
        # the cognitive layers, each given the engine it runs on (none of them knows this class)
        self.facts = Facts(self.executor)  # typed facts: current, at a world or record time, history
        self.proposals = Proposals(self.executor)

    # --- the language ----------------------------------------------------------------------------

    def execute(
        self,
        program: Any,
        *,
        dry_run: bool = False,
        on_step: StepObserver | None = None,
        max_steps: int | None = None,
        batch_size: int | None = None,
    ) -> ExecutionResult:
        """Run an IR or a workflow (JSON text, a dict/list, or a typed model). A workflow has at most 100
        steps unless `max_steps` raises the cap (the caller's explicit choice, as for an import); its
        plain Encodes are written `batch_size` (default 1000; 0: each by itself) at a time, in the same one
        transaction, with the outcome they would have one by one."""
        limits = bulk_limits(max_steps) if max_steps is not None else None
        return self.executor.execute(
            program, dry_run=dry_run, on_step=on_step, limits=limits, batch_size=batch_size
        )

    def encode_many(
        self,
        items: Sequence[Any],
        *,
        batch_size: int = DEFAULT_BATCH,
        on_step: StepObserver | None = None,
    ) -> ExecutionResult:
        """Encode many memories in one transaction, all or nothing: `items` are Encode IRs (dicts or
        typed) or bare texts. Records, index rows and audit entries are written `batch_size` at a time;
        each record still gets its own audited Encode, and the outcome is the one the Encodes would have
        run one by one. The result is a workflow's: `steps[i].data["id"]` is item i's record.

        >>> m = Memory(":memory:", embedder="none")
        >>> second = {"op": "Encode", "args": {"payload": {"text": "second"}}}
        >>> m.encode_many(["first note", second]).affected_ids
        ['1', '2']
        """
        return self.executor.encode_many(items, batch_size=batch_size, on_step=on_step)

    def import_jsonl(
        self,
        source: str | bytes,
        *,
        batch_size: int = DEFAULT_BATCH,
        dry_run: bool = False,
        on_step: StepObserver | None = None,
    ) -> ExecutionResult:
        """Import JSON Lines as one bulk write (`encode_many`; `memql import --format jsonl`): each
        non-blank line an Encode IR, an Encode's args ({"payload": {"text": ...}, "tags": [...]}) or a
        bare text. All or nothing; a diagnostic names the step (the n-th non-blank line, from 0)."""
        return self.executor.import_jsonl(source, batch_size=batch_size, on_step=on_step, dry_run=dry_run)

    def validate(self, program: Any) -> ValidationResult:
        return validate(program, now=self.clock.now(), strict=self.executor.strict)

    def plan(
        self,
        text: str,
        *,
        lang: str = "auto",
        planner: str | Planner = "rules",
        execute: bool = False,
        confirm: bool = False,
    ) -> PlanOutcome:
        """Plan a natural-language instruction (English or Chinese) as an IR or workflow; with `execute`,
        run it. A destructive plan (any delete, all records, a lock change) only runs with `confirm`:
        without it the outcome holds a dry run and the diagnostic `plan.needs_confirmation`.

        >>> m = Memory(":memory:", embedder="none")
        >>> m.plan("Remember that the standup moved to 9:30", execute=True).executed
        True
        """
        if not isinstance(planner, str) and not callable(getattr(planner, "plan", None)):  # a caller's bug
            raise TypeError(f"planner is 'rules', 'llm' or a Planner, not {type(planner).__name__}")
        chosen = make_planner(planner, llm=self.executor.llm) if isinstance(planner, str) else planner
        made = chosen.plan(text, lang=lang, context=store_context(self.executor))  # type: ignore[arg-type]
        return run_plan(self.executor, made, execute=execute, confirm=confirm)

    def execute_plan(self, plan: Plan, *, confirm: bool = False) -> PlanOutcome:
        """Run a plan made earlier (by `plan`, or by a planner directly); destructive ones need `confirm`."""
        if not isinstance(plan, Plan):  # a caller's bug
            raise TypeError(f"execute_plan runs a Plan (`plan(...).plan`), not {type(plan).__name__}")
        return run_plan(self.executor, plan, execute=True, confirm=confirm)

    # --- convenience: each builds one IR ---------------------------------------------------------

    def encode(
        self,
        text: str | None = None,
        *,
        url: str | None = None,
        structured: dict | None = None,
        type: str | None = None,
        tags: list[str] | None = None,
        facets: dict | None = None,
        time: str | None = None,
        weight: float | None = None,
        **args: Any,
    ) -> ExecutionResult:
        return self.execute(
            build.encode(
                text,
                url=url,
                structured=structured,
                type=type,
                tags=tags,
                facets=facets,
                time=time,
                weight=weight,
                **args,
            )
        )

    def retrieve(
        self,
        query: str | None = None,
        *,
        ids: Ids | None = None,
        filter: dict | None = None,
        k: int | None = None,
        include: list[str] | None = None,
        as_of: str | None = None,
        order_by: str | None = None,
        overrides: dict | None = None,
        facts: str | None = None,
        offset: int | None = None,
        refresh_ttl: bool | None = None,
        **meta: Any,
    ) -> ExecutionResult:
        """`overrides`: further search overrides (alpha, recency, heat, mmr; docs/engine.md). `facts`
        ("current" or "history") also returns the typed facts `query` names, true at `as_of` or now, and
        marks each row whose typed facts no longer hold (docs/language.md, "Retrieve facts"). `offset`
        skips that many ordered results (paging); `refresh_ttl` renews each returned record's time to live
        (not a content change)."""
        return self.execute(
            build.retrieve(
                query,
                ids=ids,
                filter=filter,
                k=k,
                include=include,
                as_of=as_of,
                order_by=order_by,
                overrides=overrides,
                facts=facts,
                offset=offset,
                refresh_ttl=refresh_ttl,
                meta=meta,
            )
        )

    add = encode  # the command line's name (`memql add`); encode is the verb's
    search = retrieve  # the command line's name (`memql search`); retrieve is the verb's

    def get(self, record_id: str) -> dict[str, Any] | None:
        """One record with every field this session may read (a Retrieve by id), or None when there is
        no such live record in the tenant or this session may not read it (the same answer). Raises
        memql.errors.Refusal when the read itself is refused (e.g. an agent without read consent)."""
        result = self.execute(build.retrieve(ids=[record_id], include=RECORD_FIELDS))
        if not result.success:
            first = result.diagnostics[0]
            raise Refusal(first.rule, first.message, first.path)
        rows = result.data.get("rows") or []
        return rows[0] if rows else None

    def summarize(
        self,
        query: str | None = None,
        *,
        ids: Ids | None = None,
        filter: dict | None = None,
        focus: str | None = None,
        max_tokens: int | None = None,
        **meta: Any,
    ) -> ExecutionResult:
        return self.execute(
            build.summarize(query, ids=ids, filter=filter, focus=focus, max_tokens=max_tokens, meta=meta)
        )

    def update(self, ids: Ids, **fields: Any) -> ExecutionResult:
        return self.execute(build.update(build.by_ids(ids), **fields))

    def label(
        self,
        ids: Ids,
        tags: list[str] | None = None,
        *,
        facets: dict | None = None,
        mode: str = "add",
        infer: bool = False,
    ) -> ExecutionResult:
        """Add, replace or remove tags and facets; `infer` also adds tags read from each record's text."""
        return self.execute(
            build.label(build.by_ids(ids), tags, facets=facets, mode=mode, infer=True if infer else None)
        )

    def promote(
        self,
        ids: Ids,
        *,
        weight: float | None = None,
        delta: float | None = None,
        remind: str | None = None,
        until: str | None = None,
    ) -> ExecutionResult:
        reminder = {"rrule": remind, "until": until} if remind else None
        return self.execute(
            build.promote(build.by_ids(ids), weight=weight, weight_delta=delta, remind=reminder)
        )

    def demote(
        self, ids: Ids, *, weight: float | None = None, delta: float | None = None, archive: bool = False
    ) -> ExecutionResult:
        return self.execute(
            build.demote(
                build.by_ids(ids), weight=weight, weight_delta=delta, archive=True if archive else None
            )
        )

    def merge(self, ids: Ids, *, primary: str | None = None, keep_children: bool = False) -> ExecutionResult:
        return self.execute(
            build.merge(build.by_ids(ids), primary_id=primary, soft_delete_children=not keep_children)
        )

    def delete(
        self, ids: Ids, *, hard: bool = False, confirm: bool = False, reason: str | None = None
    ) -> ExecutionResult:
        meta = {"confirmation": True} if confirm else None
        return self.execute(build.delete(build.by_ids(ids), soft=not hard, reason=reason, meta=meta))

    def split(self, ids: Ids, *, strategy: str = "by_sentences", **params: Any) -> ExecutionResult:
        return self.execute(
            build.split(build.by_ids(ids), strategy=strategy, params={strategy: params} if params else None)
        )

    def lock(
        self, ids: Ids, *, mode: str = "read_only", reason: str | None = None, policy: dict | None = None
    ) -> ExecutionResult:
        return self.execute(build.lock(build.by_ids(ids), mode=mode, reason=reason, policy=policy))

    def unlock(self, ids: Ids) -> ExecutionResult:
        return self.execute(build.lock(build.by_ids(ids), mode="unlock"))

    def expire(
        self, ids: Ids, *, ttl: str | None = None, until: str | None = None, on_expire: str = "soft_delete"
    ) -> ExecutionResult:
        return self.execute(build.expire(build.by_ids(ids), ttl=ttl, until=until, on_expire=on_expire))

    # --- profiles (a2p): export, import, consolidation, reclassification, promotion -------------------

    def export_a2p(self, *, user: str | None = None, did: str | None = None) -> ExportResult:
        """The tenant's memories (only those `user` owns, when given) as an a2p profile document
        (`.profile`; `.text()` is its canonical JSON). See docs/profile.md."""
        return export_profile(self.executor, user=user, did=did)

    def import_a2p(
        self, document: Any, *, dry_run: bool = False, progress: Progress = silent
    ) -> ImportResult:
        """Import an a2p profile (JSON text, bytes or decoded JSON), all or nothing, in one workflow;
        `progress` (memql.ports.progress) hears each step run."""
        return import_profile(self.executor, document, dry_run=dry_run, progress=progress)

    def consolidate(
        self, ids: Ids, *, primary: str | None = None, note: str | None = None, dry_run: bool = False
    ) -> ExecutionResult:
        """Fold memories into one: one Merge whose primary records the others' a2p ids (consolidatedFrom)."""
        return consolidate(self.executor, build.id_list(ids), primary=primary, note=note, dry_run=dry_run)

    def reclassify(
        self,
        record_id: str,
        *,
        memory_type: str | None = None,
        category: str | None = None,
        note: str | None = None,
        dry_run: bool = False,
    ) -> ExecutionResult:
        """Change a memory's type and/or category: one audited Update."""
        return reclassify(
            self.executor, record_id, memory_type=memory_type, category=category, note=note, dry_run=dry_run
        )

    def promote_episodes(
        self, config: PromotionConfig | None = None, *, dry_run: bool = False
    ) -> PromotionReport:
        """Promote qualifying episodic memories to semantic ones (thresholds: PromotionConfig)."""
        if config is not None and not isinstance(config, PromotionConfig):  # a caller's bug
            raise TypeError(f"config is a PromotionConfig, not {type(config).__name__}")
        return promote_episodes(self.executor, config, dry_run=dry_run)

    # --- cognitive layers ------------------------------------------------------------------------

    def conversation(
        self,
        *,
        user: str,
        agent: str,
        id: str | None = None,
        strategy: str | list[str] | None = None,
        config: dict[str, Any] | None = None,
        llm: LLM | None = None,
        embed_batch: int = 1,
        extractor: Any = "rules",
    ) -> Conversation:
        """A conversation between `user` and `agent` (id default "<user>/<agent>"): add messages, get cited
        context under a token budget, respond with the LLM; `strategy` names the strategies that observe
        it (the first answers by default), `config` maps a strategy's name to its config; `embed_batch` > 1
        embeds messages that many at a time (and before every read). The conversation is private to its
        participants: its records are the user's, readable by its agent and admins; this session opens
        it only as its user, its agent or an admin (`conversation.participant` otherwise); without an
        actor, it acts as the user. `extractor` (default "rules": offline; "llm", an Extractor, or None:
        off) forms typed facts from every message, in the message's workflow, and lets them lead its
        contexts. See
        docs/conversation.md (Privacy, Locks, Formation)."""
        from memql.cognition.conversation.session import Conversation

        return Conversation(
            self.executor,
            user=user,
            agent=agent,
            id=id,
            strategy=strategy,
            config=config,
            llm=llm,
            embed_batch=embed_batch,
            extractor=extractor,
        )

    def remember(
        self,
        said: str | Sequence[tuple[str, str]],
        *,
        speaker: str | None = None,
        time: datetime | str | None = None,
        facets: dict[str, Any] | None = None,
        keep_unformed: bool = True,
        **fields: Any,
    ) -> RememberResult:
        """Store what `speaker` (default: this session's actor, else "user") says: `said` is a message or
        the turns (speaker, text) of an exchange, oldest first. Each typed fact the session's extractor
        reads becomes a fact record — a newer value supersedes the one its key held, and the result says
        so (`UPDATE` with the facts it closed) —; a message of the speaker's with no fact is stored as it
        is (`keep_unformed`). One workflow: all or nothing. `facets` and `fields` (permissions, tags,
        sensitivity …) go on every record. `time` (when it was said; default now) is a datetime, an
        ISO-8601 string or a time phrase ("yesterday", "昨天"), as an Encode's. See
        memql.cognition.remember."""
        return remember(
            self.executor,
            said,
            speaker=speaker or None,
            time=time,
            facets=facets,
            keep_unformed=keep_unformed,
            **fields,
        )

    # --- housekeeping and history ----------------------------------------------------------------

    def sweep(self) -> ExecutionResult:
        """Apply on_expire to expired records; purge soft deletions past the recovery window."""
        return self.execute(build.sweep())

    def maintenance(
        self,
        *,
        every: float = 60.0,
        promote_every: float | None = None,
        on_due: Callable[[list[dict[str, Any]]], None] | None = None,
        webhook: str | None = None,
    ) -> Maintenance:
        """A runner that sweeps expired records, fires due reminders (to `on_due` and/or a `webhook`
        URL) and, every `promote_every` seconds, promotes episodes — each run through the verbs, visible
        in history. `run_once()` runs it now; `start()`/`stop()` or a `with` block run it every `every`
        seconds in a background thread (docs/engine.md, "Maintenance")."""
        return Maintenance(self, every=every, promote_every=promote_every, on_due=on_due, webhook=webhook)

    def due(self, *, advance: bool = False) -> ExecutionResult:
        """Reminders that are due now (advance=True schedules each one's next occurrence)."""
        return self.execute(build.remind(advance=advance))

    def restore(self, record_id: str) -> ExecutionResult:
        return self.execute(build.restore(record_id))

    def history(self, record_id: str) -> list[dict[str, Any]]:
        """Every change to a record, oldest first: when, who, which op, each field before and after,
        `note` (the op's `_comment`, e.g. "reclassify: ...", "consolidate"), and for a proposal which step
        it was (`proposal`: proposed, approved, approved with edits, rejected, expired). A record this
        session may not read has no history for it (as if absent)."""
        return audit.history(self.executor, record_id)

    def lineage(self, record_id: str) -> list[dict[str, Any]]:
        """The record's lineage links, both directions, oldest first: `src`, `dst`, `relation`
        (merged_into, split_from, supersedes, summarizes, ...) and `created_at`. Read like `history`: none
        for a record this session may not read, and none to a record it may not read."""
        return audit.lineage(self.executor, record_id)

    def embed_pending(self, *, batch: int = 64, limit: int | None = None, progress: Progress = silent) -> int:
        """Embed records stored with skip_embedding or before an embedder was set; returns how many.
        `progress` (memql.ports.progress) hears the count after each batch."""
        return self.executor.embed_pending(batch=batch, limit=limit, progress=progress)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The vectors memql itself compares for `texts` (this session's embedder, unit length), so another
        tool can embed with memql's model (the REST server's /v1/embeddings). Refuses (rule
        `embedding.unavailable`) when the session has no embedder."""
        if self.executor.embedder is None:
            raise Refusal(
                "embedding.unavailable",
                "this memory has no embedder (started with embedder='none', or the model is not installed)",
            )
        return self.executor.embedder.embed(list(texts))

    def count_embedding_tokens(self, texts: Sequence[str]) -> int:
        """How many model tokens `texts` are to this session's embedder (its own tokenizer when it has
        one, as MiniLM's WordPiece; else a whitespace count): what /v1/embeddings reports as usage."""
        embedder = self.executor.embedder
        token_ids = getattr(embedder, "token_ids", None)
        if callable(token_ids):
            return sum(len(token_ids(text)) for text in texts)
        return sum(len(text.split()) for text in texts)

    @property
    def embedding_model(self) -> tuple[str, int] | None:
        """The embedder's model name and dimension, or None when there is none."""
        embedder = self.executor.embedder
        return None if embedder is None else (embedder.model, embedder.dimension)

    def close(self) -> None:
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def default_embedder(choice: str = "auto") -> Embedder | None:
    """The embedder `choice` names: "none"; "minilm" (the packaged all-MiniLM-L6-v2, required); "auto"
    (MiniLM when its weights are installed, else none: search is then lexical). $MEMQL_EMBEDDER overrides
    "auto". The model is loaded once per process."""
    choice = os.environ.get("MEMQL_EMBEDDER", choice) if choice == "auto" else choice
    if choice == "none":
        return None
    from memql.services.embedding import MiniLMEmbedder, available

    if choice == "minilm" or available():
        return MiniLMEmbedder.shared()  # raises EmbedderUnavailable, with the install command, if absent
    return None
