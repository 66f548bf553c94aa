"""The executor: validate, then run an IR or a workflow in one transaction, audited, or as a dry run."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from datetime import datetime
from typing import Any

from memql.engine.access import check_consent, identity
from memql.engine.bulk import DEFAULT_BATCH, EncodeBatch, paused_gc, read_jsonl
from memql.engine.context import Context, EngineConfig
from memql.engine.interpret import default_extractor
from memql.engine.preconditions import Precondition
from memql.engine.redaction import redact_ir
from memql.engine.result import Change, ExecutionResult, Stats
from memql.engine.verbs import RUNNERS
from memql.engine.verbs.encode import batchable
from memql.errors import Refusal
from memql.lang import Limits, Workflow
from memql.lang.diagnostics import Diagnostic
from memql.lang.ops import Meta, OpBase
from memql.lang.plain import validate_encodes, validate_program
from memql.lang.validate import ValidationResult
from memql.ports.clock import Clock
from memql.ports.models import LLM, Embedder
from memql.ports.progress import Progress, silent
from memql.ports.record import Operation, Record
from memql.ports.store import Store, StoreSession
from memql.services.extract.base import Extractor

StepObserver = Callable[[int, ExecutionResult], None]
MAX_EMBED_BATCH = 1_000_000  # records embed_pending reads and embeds in one transaction, at most


class Executor:
    """Runs programs for one tenant and actor against one store, as a user, an admin or an agent
    (engine/access.py resolves and checks the role, consent and clearance)."""

    def __init__(
        self,
        store: Store,
        *,
        tenant: str,
        actor: str | None,
        clock: Clock,
        admin: bool = False,
        config: EngineConfig | None = None,
        llm: LLM | None = None,
        embedder: Embedder | None = None,
        strict: bool = False,
        clearance: str | None = None,
        role: str | None = None,
        consent: str | None = None,
        extractor: Extractor | str | None = None,
    ) -> None:
        """`extractor` ("rules", "llm" or an Extractor) reads text for Encode interpret and Label infer;
        default: the LLM one when `llm` is given, else the offline rules (engine/interpret.py)."""
        self.identity = identity(actor, role=role, consent=consent, clearance=clearance, admin=admin)
        self.role, self.consent = self.identity.role, self.identity.consent
        self.admin, self.clearance = self.identity.admin, self.identity.clearance
        self.store, self.tenant, self.actor, self.clock = store, tenant, actor, clock
        self.config, self.llm, self.embedder = config or EngineConfig(), llm, embedder
        self.strict = strict
        self.extractor = default_extractor(llm, extractor)

    def acting_as(self, actor: str) -> Executor:
        """This session's engine (store, tenant, clock, models, settings, clearance) acting as user
        `actor`: how the embedded library, which has no actor of its own, writes as the user it names."""
        return Executor(
            self.store,
            tenant=self.tenant,
            actor=actor,
            clock=self.clock,
            config=self.config,
            llm=self.llm,
            embedder=self.embedder,
            strict=self.strict,
            clearance=self.clearance,
            extractor=self.extractor,
        )

    def context(
        self,
        session: StoreSession,
        now: datetime,
        meta: Meta | None = None,
        *,
        path: str = "",
        step_ids: list[list[str]] | None = None,
        to_embed: dict[str, Record] | None = None,
    ) -> Context:
        """The context an op runs in. Who acts is the session's actor: an IR's meta.actor is only a
        claim, kept in the audited IR."""
        return Context(
            session=session,
            tenant=self.tenant,
            actor=self.actor,
            admin=self.admin,
            now=now,
            meta=meta or Meta(),
            config=self.config,
            llm=self.llm,
            embedder=self.embedder,
            path=path,
            step_ids=step_ids if step_ids is not None else [],
            to_embed=to_embed if to_embed is not None else {},
            clearance=self.clearance,
            role=self.role,
            consent=self.consent,
            extractor=self.extractor,
        )

    def execute(
        self,
        source: Any,
        *,
        dry_run: bool = False,
        on_step: StepObserver | None = None,
        limits: Limits | None = None,
        batch_size: int | None = None,
        precondition: Precondition | None = None,
    ) -> ExecutionResult:
        """Validate and run an IR or workflow (JSON text, bytes or decoded JSON, or a typed program).
        `limits` widens validation's bounds for a program built by memql itself (an a2p import is one
        workflow of a step or two per memory, beyond the 100 steps a hand-written workflow may have).
        A workflow's plain Encodes are written `batch_size` at a time (engine/bulk.py; default
        DEFAULT_BATCH; 0: each by itself): the outcome the Encodes would have one by one, in the same one
        transaction, without a statement per record and per audit entry; `on_step` hears of them as each
        batch is written. `precondition` (engine/preconditions.py) runs in the program's transaction
        before its first step, writers of the tenant held off: a Refusal it raises refuses the program,
        nothing written (memql's own callers write so only if what they read is still so)."""
        if isinstance(source, OpBase | Workflow):
            source = source.canonical()
        return self._execute(source, validate_program, dry_run, on_step, limits, batch_size, precondition)

    def _execute(
        self,
        source: Any,
        validator: Callable[..., ValidationResult],
        dry_run: bool,
        on_step: StepObserver | None,
        limits: Limits | None,
        batch_size: int | None,
        precondition: Precondition | None = None,
    ) -> ExecutionResult:
        """`execute` with the validator given: `validate_program` (validate()'s result, built by plain
        Python for a program of plain Encodes: memql.lang.plain), or for a bulk write's steps
        `validate_encodes` (the same)."""
        if batch_size is not None and (not _is_int(batch_size) or batch_size < 0):  # a caller's bug
            raise ValueError(f"batch_size must be 0 (one by one) or a number of Encodes, not {batch_size!r}")
        started = time.perf_counter()
        calls_before, tokens_before = _llm_counts(self.llm)
        now = self.clock.now()
        with paused_gc() if batch_size else nullcontext():
            result = self._checked_run(
                source, validator, now, dry_run, on_step, limits, batch_size, precondition
            )
        calls_after, tokens_after = _llm_counts(self.llm)
        result.stats = Stats(  # this call's share of the LLM's running totals
            elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
            llm_calls=calls_after - calls_before,
            llm_tokens=tokens_after - tokens_before,
        )
        return result

    def _run(
        self,
        program: OpBase | Workflow,
        now: datetime,
        dry_run: bool,
        on_step: StepObserver | None,
        batch_size: int | None = None,
        canonical: dict[str, Any] | None = None,
        precondition: Precondition | None = None,
    ) -> ExecutionResult:
        is_workflow = isinstance(program, Workflow)
        steps: list[OpBase] = program.workflow if is_workflow else [program]  # type: ignore[union-attr]
        metas = (
            [program.effective_meta(i) for i in range(len(steps))]
            if is_workflow
            else [program.meta or Meta()]
        )  # type: ignore[union-attr]
        whole_dry = dry_run or (bool(program.meta and program.meta.dry_run))
        workflow_id = uuid.uuid4().hex if is_workflow else None
        results: list[ExecutionResult] = []
        failed: tuple[int, Diagnostic] | None = None
        # a program that only reads runs in a read transaction: no write lock, its visits buffered
        read_only = (
            precondition is None
            and not whole_dry
            and all(reads_only(ir, meta) for ir, meta in zip(steps, metas, strict=True))
        )
        if whole_dry:
            opened = self.store.dry_run()
        else:
            opened = self.store.read() if read_only else self.store.transaction()
        batcher: EncodeBatch | None = None
        try:
            with opened as session:
                if precondition is not None:
                    try:
                        precondition(self.context(session, now))
                    except Refusal as refusal:  # the program's, not a step's: at the refusal's own path
                        failed = (0, _refused(refusal))
                        raise
                step_ids: list[list[str]] = []
                queue: dict[str, Record] = {}  # records awaiting their embedding, batched across steps

                def written(i: int, result: ExecutionResult) -> None:
                    results.append(result)
                    step_ids.append(result.affected_ids)
                    if on_step is not None:
                        on_step(i, result)

                # each step's canonical IR, as validation made it: the audit log keeps it (made once)
                canonical_steps = None
                if canonical is not None:
                    canonical_steps = canonical["workflow"] if is_workflow else [canonical]
                # a workflow's plain Encodes are written in batches, whoever asked: the outcome is the one
                # they would have one by one (tests/engine/test_bulk.py), at about twice the records a second
                size = batch_size if batch_size is not None else DEFAULT_BATCH if is_workflow else 0
                if size and not whole_dry and canonical_steps is not None:
                    batcher = EncodeBatch(
                        session, size=size, workflow_id=workflow_id, now=now, on_written=written
                    )
                for i, ir in enumerate(steps):
                    path = f"/workflow/{i}" if is_workflow else ""
                    if batcher is not None and _batchable(ir, metas[i]):
                        ctx = self.context(
                            session, now, metas[i], path=path, step_ids=step_ids, to_embed=queue
                        )
                        try:
                            batcher.add(ctx, ir, canonical_steps[i], i)  # type: ignore[arg-type, index]
                        except Refusal as refusal:
                            results.extend(batcher.abandon())
                            failed = (i, _refused(refusal))
                            results.append(ExecutionResult(success=False, op=ir.op, diagnostics=[failed[1]]))
                            raise
                        continue
                    if batcher is not None:
                        batcher.flush()  # this step may read what the waiting Encodes write
                    try:
                        result = self._step(
                            session,
                            ir,
                            metas[i],
                            now,
                            path,
                            step_ids,
                            whole_dry,
                            workflow_id,
                            i if is_workflow else None,
                            queue,
                            read_only,
                            canonical_steps[i] if canonical_steps is not None else None,
                        )
                    except Refusal as refusal:
                        failed = (i, _refused(refusal))
                        results.append(ExecutionResult(success=False, op=ir.op, diagnostics=[failed[1]]))
                        raise
                    results.append(result)
                    # a previewed (undone) step's ids name nothing: later steps must not reuse them
                    step_ids.append([] if result.dry_run and not whole_dry else result.affected_ids)
                    if on_step is not None:
                        on_step(i, result)
                if batcher is not None:
                    batcher.flush()
                if queue and not whole_dry:
                    self.context(session, now, to_embed=queue).embed_queued()
        except Refusal as refusal:  # rolled back; reported below
            if failed is None:  # said by the store, not a step: store.busy, store.full, store.unavailable
                index = _failed_index(batcher, results, len(steps))
                failed = (index, _refused(refusal, f"/workflow/{index}" if is_workflow else None))
        except (
            Exception
        ) as exc:  # a defect: roll back (done by the transaction) and report, never a traceback
            index = _failed_index(batcher, results, len(steps))
            failed = (
                index,
                Diagnostic(
                    path=f"/workflow/{index}" if is_workflow else "",
                    rule="exec.internal",
                    severity="error",
                    message=f"{type(exc).__name__}: {exc}",
                ),
            )
        if not is_workflow:
            if failed is not None:
                return ExecutionResult(
                    success=False,
                    op=steps[0].op,
                    diagnostics=[failed[1]],
                    warnings=results[0].warnings if results else [],
                )
            return results[0]
        return self._workflow_result(results, failed, whole_dry, workflow_id)

    def _step(
        self,
        session: StoreSession,
        ir: OpBase,
        meta: Meta,
        now: datetime,
        path: str,
        step_ids: list[list[str]],
        whole_dry: bool,
        workflow_id: str | None,
        step: int | None,
        queue: dict[str, Record],
        read_only: bool = False,
        canonical: dict[str, Any] | None = None,
    ) -> ExecutionResult:
        step_dry = not whole_dry and bool(meta.dry_run)
        # a previewed step's records are undone, so it keeps a queue of its own that is never flushed
        ctx = self.context(
            session, now, meta, path=path, step_ids=step_ids, to_embed={} if step_dry else queue
        )
        ctx.op = ir.op
        if ir.writes or not ir.system:  # a system verb that only reads lists what read permissions allow
            check_consent(ctx, ir.op)  # before anything runs: a refused agent learns nothing from the store
        if ir.target is not None and ir.target.search is not None:
            ctx.embed_queued()  # a search sees every record written before it, by meaning too
        started = time.perf_counter()
        if step_dry:  # a previewed step inside a committed workflow: run it, then undo it
            with session.scratch():
                outcome = RUNNERS[ir.op](ctx, ir)
        else:
            outcome = RUNNERS[ir.op](ctx, ir)
            if not whole_dry and (ctx.events or not ir.system):  # housekeeping that did nothing: no entry
                operation = Operation(
                    time=now,
                    tenant=self.tenant,
                    actor=ctx.actor,
                    op=ir.op,
                    ir=ctx.loggable_ir(canonical if canonical is not None else ir.canonical()),
                    affected_ids=outcome.affected_ids,
                    trace_id=meta.trace_id,
                    workflow_id=workflow_id,
                    step=step,
                )
                if read_only:  # audited like any op, written with the next flush of the read buffer
                    session.log_read(operation, redact_ir(operation.ir))  # type: ignore[attr-defined]
                else:
                    session.log(operation, ctx.loggable_events())
        dry = whole_dry or step_dry
        return ExecutionResult(
            success=True,
            op=ir.op,
            affected_ids=outcome.affected_ids,
            data=outcome.data,
            warnings=ctx.warnings,
            dry_run=dry,
            preview=[
                Change(record_id=e.record_id, kind=e.kind, before=e.before, after=e.after) for e in ctx.events
            ]
            if dry
            else None,
            stats=Stats(elapsed_ms=round((time.perf_counter() - started) * 1000, 3)),
        )

    def _checked_run(
        self,
        source: Any,
        validator: Callable[..., ValidationResult],
        now: datetime,
        dry_run: bool,
        on_step: StepObserver | None,
        limits: Limits | None,
        batch_size: int | None,
        precondition: Precondition | None = None,
    ) -> ExecutionResult:
        """Validate, then run what passed. (Its own function so that the validated program, a bulk write's
        thousands of models, is freed when it returns, while `paused_gc` still holds the collector off:
        alive when the collector resumed, its first collection walked them all -- 5 us a record.)"""
        checked = validator(source, now=now, strict=self.strict, limits=limits)
        if not checked.valid:
            return ExecutionResult(
                success=False, op=_op_name(source), diagnostics=checked.errors, warnings=checked.warnings
            )
        result = self._run(
            checked.program, now, dry_run, on_step, batch_size, checked.canonical, precondition
        )
        result.warnings = checked.warnings + result.warnings
        return result

    def encode_many(
        self,
        items: Sequence[Any],
        *,
        batch_size: int = DEFAULT_BATCH,
        on_step: StepObserver | None = None,
        dry_run: bool = False,
    ) -> ExecutionResult:
        """Run many Encodes (IR objects, decoded or typed, or bare texts) as one workflow, in one
        transaction, written `batch_size` at a time (engine/bulk.py): all or nothing. Each is validated
        as a step of that workflow (a diagnostic names /workflow/i and the field), beyond the 100 steps a
        hand-written workflow may have; anything but an Encode is refused. A dry run runs them one by
        one and rolls back, with the preview of every change."""
        if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
            raise TypeError(
                f"items are Encodes or texts, in a list or another iterable, not {type(items).__name__}"
            )
        steps: list[Any] = []
        for i, item in enumerate(items):
            if isinstance(item, str):
                item = {"op": "Encode", "args": {"payload": {"text": item}}}
            elif isinstance(item, OpBase):
                item = item.canonical()
            op = item.get("op") if isinstance(item, dict) else None
            if op != "Encode":
                message = f"step {i} is {op!r}: a bulk write holds Encodes only" if op else "not an Encode IR"
                diagnostic = Diagnostic(
                    path=f"/workflow/{i}/op", rule="bulk.encode_only", severity="error", message=message
                )
                return ExecutionResult(success=False, op="Workflow", failed_step=i, diagnostics=[diagnostic])
            steps.append(item)
        # validated as {"workflow": steps}: diagnostics name /workflow/i
        return self._execute(steps, validate_encodes, dry_run, on_step, bulk_limits(len(steps)), batch_size)

    def import_jsonl(
        self,
        source: str | bytes,
        *,
        batch_size: int = DEFAULT_BATCH,
        on_step: StepObserver | None = None,
        dry_run: bool = False,
    ) -> ExecutionResult:
        """`encode_many` of the Encodes of a JSON Lines text (engine/bulk.py `read_jsonl`); a line that is
        not JSON refuses the whole import."""
        items, problems = read_jsonl(source)
        if problems:
            return ExecutionResult(success=False, op="Workflow", diagnostics=problems)
        return self.encode_many(items, batch_size=batch_size, on_step=on_step, dry_run=dry_run)

    def embed_pending(self, *, batch: int = 64, limit: int | None = None, progress: Progress = silent) -> int:
        """Embed the tenant's pending records in batches, one transaction each; returns how many were
        embedded. Embeddings are derived data: stored on the records, not in the audit log. `progress` hears
        the count after each batch (the total is not known in advance)."""
        if not 1 <= batch <= MAX_EMBED_BATCH:
            raise ValueError(f"batch must be 1 to {MAX_EMBED_BATCH:,} records")  # a caller's bug
        if self.embedder is None:
            return 0
        done = 0
        progress("embedding pending records", 0, limit)
        while limit is None or done < limit:
            size = batch if limit is None else min(batch, limit - done)
            with self.store.transaction() as session:
                ctx = self.context(session, self.clock.now())
                pending = session.pending_embeddings(self.tenant, size)
                if not pending:
                    break
                ctx.to_embed = {r.id: r for r in pending}  # type: ignore[misc]
                ctx.embed_queued()
            done += len(pending)
            progress("embedding pending records", done, limit)
        return done

    @staticmethod
    def _workflow_result(
        results: list[ExecutionResult],
        failed: tuple[int, Diagnostic] | None,
        dry: bool,
        workflow_id: str | None,
    ) -> ExecutionResult:
        affected = list(dict.fromkeys(i for r in results for i in r.affected_ids))
        if failed is not None:
            for r in results[: failed[0]]:
                r.data["rolled_back"] = True
            return ExecutionResult(
                success=False,
                op="Workflow",
                steps=results,
                failed_step=failed[0],
                diagnostics=[failed[1]],
                dry_run=dry,
                data={"workflow_id": workflow_id},
            )
        warnings = [w for r in results for w in r.warnings]
        preview = [c for r in results for c in (r.preview or [])] if dry else None
        return ExecutionResult(
            success=True,
            op="Workflow",
            affected_ids=affected,
            steps=results,
            warnings=warnings,
            dry_run=dry,
            preview=preview,
            data={"workflow_id": workflow_id},
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def bulk_limits(steps: int) -> Limits:
    """Validation's bounds for a bulk write of `steps` Encodes: as many steps, the same bounds per step."""
    if not _is_int(steps) or steps < 0:  # a caller's bug
        raise ValueError(f"max_steps must be a number of steps, not {steps!r}")
    default = Limits()
    return Limits(
        max_steps=max(default.max_steps, steps),
        max_items=max(default.max_items, steps),
        max_nodes=max(default.max_nodes, steps * 2_000),
        max_bytes=max(default.max_bytes, steps * 64 * 1024),
    )


def _batchable(ir: OpBase, meta: Meta) -> bool:
    return ir.op == "Encode" and not meta.dry_run and batchable(ir)  # type: ignore[arg-type]


def _failed_index(batcher: EncodeBatch | None, results: list[ExecutionResult], steps: int) -> int:
    """The step a failure that no step raised itself is reported at: the first of a batch whose write
    failed, else the step that was running (the last one, for a failure as the transaction commits).
    The batch's waiting steps join `results` (rolled back with the rest)."""
    if batcher is not None and batcher.pending:
        results.extend(batcher.abandon())
        if batcher.failed_at is not None:
            return batcher.failed_at
    index = len(results) - (1 if results and not results[-1].success else 0)
    return min(index, steps - 1)


def _refused(refusal: Refusal, path: str | None = None) -> Diagnostic:
    """The refusal as a diagnostic, at its own path unless `path` names the step it met."""
    where = refusal.path if path is None else path
    return Diagnostic(path=where, rule=refusal.rule, severity="error", message=refusal.message)


def reads_only(ir: OpBase, meta: Meta) -> bool:
    """Whether a step only reads, so that it may run in a read transaction: a Retrieve that renews no
    time to live, or a system verb that says it does not write (Remind without advance). Summarize
    stores its summary; a previewed step needs a savepoint to undo. Everything else writes."""
    if meta.dry_run:
        return False
    if ir.op == "Retrieve":
        return not ir.args.refresh_ttl  # type: ignore[attr-defined]
    return ir.system and not ir.writes


def _op_name(source: Any) -> str:
    if isinstance(source, dict):
        if isinstance(source.get("op"), str):
            return source["op"]
        if "workflow" in source or "steps" in source:
            return "Workflow"
    if isinstance(source, list):
        return "Workflow"
    return "unknown"


def _llm_counts(llm: LLM | None) -> tuple[int, int]:
    """(calls, prompt + completion tokens) the LLM has counted so far."""
    if llm is None:
        return 0, 0
    return llm.usage.calls, llm.usage.prompt_tokens + llm.usage.completion_tokens
