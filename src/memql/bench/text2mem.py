"""The Text2Mem Bench runner: execute each sample on a fresh store and score ESR and EMR.

Per sample: a fresh in-memory store; the clock pinned to `expected.meta.eval_time_utc`; every
`prerequisites` IR run on its own (a failing prerequisite makes the sample an error: not executed);
then the program — the gold `schema_list` or what a planner makes of the instruction — as a single IR
(one step) or as one transactional workflow (several steps).

- ESR (execution success rate): the program executed successfully.
- EMR (exact match rate): executed, every `expected.assertions` query holds, and the `ranking` check
  passes when there is one.

Assertions are SQL over the compatibility view `memory` (the reference's column names):
`SELECT COUNT(*) FROM memory WHERE (c1) AND (c2) ...`, or the aggregate `select.agg` names
(`count`; `sum`/`avg`/`min`/`max`/`total` over a column, written `max(weight)` or `max:weight`).
A list-valued parameter expands into one placeholder per item (`id IN (:ids)` → `id IN (:ids__0, :ids__1)`).

Ranking applies to a Retrieve's result: `expected.meta.step_index` names the program step whose rows are
ranked (every official sample says 0: the Retrieve that opens the program); when that step is not a
Retrieve, the first Retrieve after it is used. Among the first `k` returned ids at least `min_hits` must
be in `gold_ids`; with `allow_extra: false` none of them may be outside `gold_ids`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memql.errors import MemqlError
from memql.ports.progress import Progress, silent

# A planner turns an instruction (the sample's natural-language text) into an IR or a workflow
# (a dict, a list of IRs, {"workflow": [...]}, or the same as JSON text). It is given the sample's Memory
# after the prerequisites ran, to read store context from — never the gold or assertions. The planners the
# bench offers by name are in text2mem_plan.py, which builds on this runner (not the other way round).
Planner = Callable[[str, Any], Any]

# Where a sample runs: given the sample's clock, a context manager yielding a SampleTarget. Default: a new
# in-memory memql store (`memql_sample`); `memql bench text2mem --store mem0` gives one of
# text2mem_mem0.py, which runs the same programs on a mem0 store through memql.adapters.mem0.
SampleStore = Callable[[Any], AbstractContextManager["SampleTarget"]]


@dataclass
class SampleTarget:
    """What one sample runs on: `execute(program)` like `Memory.execute`; `assertion_store()` a context
    manager yielding a store whose `execute_sql` reads the `memory` view of what the program left; and
    `memory`, the memql Memory a planner reads store context from (None: gold IRs only)."""

    execute: Callable[[Any], Any]
    assertion_store: Callable[[], AbstractContextManager[Any]]
    memory: Any = None


@contextmanager
def memql_sample(clock: Any) -> Iterator[SampleTarget]:
    """A sample on a new in-memory memql store, acting as user `bench` of tenant `bench`."""
    from memql import Memory

    with Memory(":memory:", tenant="bench", actor="bench", clock=clock) as memory:
        yield SampleTarget(memory.execute, lambda: nullcontext(memory.store), memory)


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]")
_AGG_FUNCS = ("count", "sum", "avg", "min", "max", "total")
_AGG_SHAPE = re.compile(r"^\s*(count|sum|avg|min|max|total)\s*(?:\(\s*([\w*]+)\s*\)|:\s*(\w+))?\s*$", re.I)
_PARAM = re.compile(r"'(?:[^']|'')*'|(?<![:\w]):([A-Za-z_]\w*)")  # quoted literals are skipped
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b,
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
}


class SampleError(MemqlError):
    """A sample this runner cannot evaluate as written (reported as a failure, never raised out)."""


@dataclass
class Check:
    """One assertion or the ranking check: what was asked, what was found."""

    name: str
    passed: bool
    detail: str


@dataclass
class SampleResult:
    id: str
    source: str
    op: str  # the verb of the program's first step
    workflow: bool  # the program has several steps (runs as one transaction)
    lang: str  # detected from the instruction text: zh when it has CJK characters, else en
    structure: str  # class.structure as labelled
    instruction: str  # class.instruction_type as labelled
    executed: bool = False  # ESR
    matched: bool = False  # EMR
    stage: str | None = None  # where it failed: setup|prerequisite|plan|execute|assertion|ranking|error
    reason: str | None = None
    checks: list[Check] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    planned_op: str | None = None  # with a planner: the first verb of its program
    program: Any = None  # with a planner: the program it made (None when it declined)
    sma_lev: float | None = None  # with a planner: schema matching accuracy against the gold (bench/sma.py)
    sma_cos: float | None = None
    sma_exact: bool | None = None  # with a planner: its canonical text is the gold's (the paper's SMA)
    expected_checks: int = 0  # the sample's assertions and ranking check: the paper's EMR counts each

    def fail(self, stage: str, reason: str) -> SampleResult:
        self.stage, self.reason = stage, reason
        return self


# --- samples ------------------------------------------------------------------------------------------


def load_samples(path: Path) -> Iterator[dict[str, Any]]:
    """The samples of a JSONL file; an undecodable line becomes a sample that fails with the reason."""
    with path.open(encoding="utf-8") as handle:
        for n, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                sample = json.loads(line)
            except json.JSONDecodeError as exc:
                sample = {"id": f"{path.name}:{n}", "_load_error": f"line {n} is not JSON: {exc}"}
            if not isinstance(sample, dict):
                sample = {"id": f"{path.name}:{n}", "_load_error": f"line {n} is not a JSON object"}
            yield sample


def instruction_text(sample: dict[str, Any]) -> str:
    """The instruction: the first non-empty `nl` text (the `nl` key is as unreliable as `class.lang`)."""
    nl = sample.get("nl")
    if isinstance(nl, str):
        return nl
    if isinstance(nl, dict):
        for value in nl.values():
            if isinstance(value, str) and value.strip():
                return value
    return ""


def detect_lang(text: str) -> str:
    return "zh" if _CJK.search(text or "") else "en"


def steps_of(program: Any) -> list[Any]:
    """The steps of a program: an IR, a list of IRs, or {"workflow": [...]}."""
    if isinstance(program, dict) and isinstance(program.get("workflow"), list):
        return program["workflow"]
    if isinstance(program, list):
        return program
    return [program]


def _first_op(steps: list[Any]) -> str:
    first = steps[0] if steps else None
    op = first.get("op") if isinstance(first, dict) else None
    return op if isinstance(op, str) and op else "?"


def _eval_clock(sample: dict[str, Any]):
    from memql.ports.clock import FixedClock

    text = ((sample.get("expected") or {}).get("meta") or {}).get("eval_time_utc")
    if not isinstance(text, str):
        raise SampleError("expected.meta.eval_time_utc is missing")
    try:
        instant = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise SampleError(f"expected.meta.eval_time_utc is not ISO-8601: {text!r}") from None
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=UTC)  # the field is UTC by name
    return FixedClock(instant.astimezone(UTC))


# --- assertions and ranking ---------------------------------------------------------------------------


def compile_assertion(spec: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The SQL and named parameters of one assertion (list-valued parameters expanded)."""
    select = spec.get("select") or {}
    table = select.get("from", "memory")
    if table != "memory":
        raise SampleError(f"assertion reads from {table!r}; only the `memory` view exists")
    where = select.get("where") or []
    if isinstance(where, str):
        where = [where]
    params = dict(spec.get("params") or {})
    sql = f"SELECT {_aggregate(select.get('agg'))} AS actual FROM memory"
    if where:
        sql += " WHERE " + " AND ".join(f"({clause})" for clause in where)
    return _expand_params(sql, params)


def _aggregate(agg: Any) -> str:
    if agg is None or (isinstance(agg, str) and agg.strip().lower() in ("", "count")):
        return "COUNT(*)"
    if isinstance(agg, dict):  # {"fn": "max", "column": "weight"}
        agg = f"{agg.get('fn') or agg.get('func') or ''}({agg.get('column') or agg.get('col') or '*'})"
    match = _AGG_SHAPE.match(agg) if isinstance(agg, str) else None
    if not match:
        raise SampleError(f"unsupported aggregate {agg!r} (supported: {', '.join(_AGG_FUNCS)})")
    fn, column = match.group(1).upper(), match.group(2) or match.group(3) or "*"
    if column == "*" and fn != "COUNT":
        raise SampleError(f"aggregate {agg!r} needs a column")
    return f"{fn}({column})"


def _expand_params(sql: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    out: dict[str, Any] = {}
    missing: list[str] = []

    def placeholder(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        if name not in params:
            missing.append(name)
            return match.group(0)
        value = params[name]
        if isinstance(value, list | tuple):
            names = [f"{name}__{i}" for i in range(len(value))]
            out.update({n: _sql_value(v) for n, v in zip(names, value, strict=True)})
            return ", ".join(f":{n}" for n in names)
        out[name] = _sql_value(value)
        return match.group(0)

    expanded = _PARAM.sub(placeholder, sql)
    if missing:
        raise SampleError(f"assertion parameter(s) not given: {', '.join(sorted(set(missing)))}")
    return expanded, out


def _sql_value(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return value


def check_assertion(store: Any, spec: dict[str, Any]) -> Check:
    name = str(spec.get("name") or "assertion")
    expect = spec.get("expect") or {}
    op, wanted = expect.get("op", "=="), expect.get("value")
    compare = _OPS.get(op)
    if compare is None:
        raise SampleError(f"assertion {name}: unknown comparison {op!r}")
    sql, params = compile_assertion(spec)
    try:
        rows = store.execute_sql(sql, params)
    except Exception as exc:  # a malformed condition is the sample's fault, reported with the SQL
        raise SampleError(f"assertion {name}: SQL failed ({exc}): {sql}") from None
    actual = rows[0][0] if rows else None
    try:
        passed = actual is not None and compare(actual, wanted)
    except TypeError:
        passed = False
    return Check(name, bool(passed), f"{name}: {actual} {op} {wanted}")


def check_ranking(spec: dict[str, Any], returned: list[str]) -> Check:
    gold = [str(g) for g in spec.get("gold_ids") or []]
    k = int(spec.get("k") or spec.get("topk") or 5)
    min_hits = int(spec.get("min_hits", len(gold)))
    allow_extra = bool(spec.get("allow_extra", True))
    top = returned[:k]
    hits = [i for i in top if i in gold]
    extras = [i for i in top if i not in gold]
    passed = len(hits) >= min_hits and (allow_extra or not extras)
    detail = f"ranking: top{k}={top} gold={gold} hits={len(hits)}/{min_hits}"
    if extras and not allow_extra:
        detail += f" extras={extras} (not allowed)"
    return Check("ranking", passed, detail)


def _ranked_ids(result: Any, steps: list[Any], step_index: int) -> list[str] | None:
    """The ids returned by the Retrieve the ranking applies to (None when there is no such step)."""
    results = result.steps if result.steps is not None else [result]
    for n in range(max(step_index, 0), min(len(steps), len(results))):
        step = steps[n]
        if isinstance(step, dict) and step.get("op") == "Retrieve":
            # affected_ids lists the hits in rank order even when `include` leaves "id" out of the rows
            return [str(record_id) for record_id in results[n].affected_ids]
    return None


# --- running ------------------------------------------------------------------------------------------


def run_sample(
    sample: dict[str, Any],
    planner: Planner | None = None,
    source: str = "",
    store: SampleStore = memql_sample,
) -> SampleResult:
    """Run one sample on a new `store` (default: memql's in-memory one); never raises (a sample that
    breaks something is a failure with the reason)."""
    cls = sample.get("class") if isinstance(sample.get("class"), dict) else {}
    gold = sample.get("schema_list")
    gold_steps = steps_of(gold) if gold is not None else []
    text = instruction_text(sample)
    result = SampleResult(
        id=str(sample.get("id", "?")),
        source=source,
        op=_first_op(gold_steps),
        workflow=len(gold_steps) > 1,
        lang=detect_lang(text),
        structure=str(cls.get("structure") or "?"),
        instruction=str(cls.get("instruction_type") or "?"),
    )
    try:
        _run(sample, planner, text, result, store)
    except SampleError as exc:
        result.fail(result.stage or "setup", str(exc))
    except Exception as exc:
        result.fail(result.stage or "error", f"{type(exc).__name__}: {exc}")
    if result.stage is not None:
        result.matched = False
    return result


def _run(
    sample: dict[str, Any], planner: Planner | None, text: str, result: SampleResult, store: SampleStore
) -> None:
    if "_load_error" in sample:
        raise SampleError(sample["_load_error"])
    expected = sample.get("expected") or {}
    result.expected_checks = len(expected.get("assertions") or []) + bool(expected.get("ranking"))
    clock = _eval_clock(sample)
    with store(clock) as target:
        memory = target.memory
        if planner is not None and memory is None:
            raise SampleError("this store runs gold IRs only (no planner)")
        for i, ir in enumerate(sample.get("prerequisites") or []):
            done = target.execute(ir)
            if not done.success:
                result.fail("prerequisite", f"prerequisites[{i}] ({_op_of(ir)}) refused: {_why(done)}")
                return
        if planner is None:
            program = sample.get("schema_list")
            if not program:
                result.fail("plan", "the sample has no schema_list")
                return
        else:
            result.stage = "plan"
            _score_sma(result, None, sample, memory)  # a declined plan scores 0
            program = planner(text, memory)
            if isinstance(program, str | bytes):  # a planner may answer with JSON text
                program = json.loads(program)
            result.program = program
            _score_sma(result, program, sample, memory)
            result.stage = None
        steps = steps_of(program)
        if len(steps) == 1:
            program = steps[0]
        if planner is None:
            result.op, result.workflow = _first_op(steps), len(steps) > 1
        else:  # breakdowns stay by what the sample asks (its gold), the planner's verb is kept beside
            result.planned_op = _first_op(steps)
        done = target.execute(program)
        result.warnings = [f"{w.path or '/'}: {w.message} [{w.rule}]" for w in _all_warnings(done)]
        if not done.success:
            result.fail("execute", _why(done))
            return
        result.executed = True
        result.stage = "assertion"
        with target.assertion_store() as assertion_store:
            result.checks = [
                check_assertion(assertion_store, spec) for spec in expected.get("assertions") or []
            ]
        result.stage = None
        ranking = expected.get("ranking")
        if ranking:
            step_index = int((expected.get("meta") or {}).get("step_index") or 0)
            returned = _ranked_ids(done, steps, step_index)
            if returned is None:
                result.checks.append(Check("ranking", False, "ranking: the program has no Retrieve step"))
            else:
                result.checks.append(check_ranking(ranking, returned))
    failed = [c for c in result.checks if not c.passed]
    result.matched = not failed
    if failed:
        stage = "ranking" if all(c.name == "ranking" for c in failed) else "assertion"
        result.fail(stage, "; ".join(c.detail for c in failed))


def _score_sma(result: SampleResult, program: Any, sample: dict[str, Any], memory: Any) -> None:
    from memql.bench.sma import scores

    gold = sample.get("schema_list")
    if gold is None:
        return
    result.sma_lev, result.sma_cos, result.sma_exact = scores(
        program, gold, now=memory.clock.now(), embedder=memory.executor.embedder
    )


def _op_of(ir: Any) -> str:
    return str(ir.get("op")) if isinstance(ir, dict) else type(ir).__name__


def _all_warnings(done: Any) -> list[Any]:
    found = list(done.warnings)
    for step in done.steps or []:
        found.extend(w for w in step.warnings if w not in found)
    return found


def _why(done: Any) -> str:
    """The reason a result failed: the failing step and its diagnostics."""
    where = f"step {done.failed_step}: " if done.failed_step is not None else ""
    diagnostics = list(done.diagnostics)
    if not diagnostics and done.steps and done.failed_step is not None and done.failed_step < len(done.steps):
        diagnostics = list(done.steps[done.failed_step].diagnostics)
    text = "; ".join(f"{d.path or '/'}: {d.message} [{d.rule}]" for d in diagnostics)
    return where + (text or "failed without a diagnostic")


def run_files(
    paths: Iterable[Path],
    planner: Planner | None = None,
    *,
    only: Iterable[str] = (),
    limit: int | None = None,
    lines: str | None = None,
    on_sample: Callable[[SampleResult], None] | None = None,
    progress: Progress | None = None,
    store: SampleStore = memql_sample,
) -> list[SampleResult]:
    """Run the samples of every file (optionally only the given ids, at most `limit` per file). `lines`
        "even" or "odd" keeps the samples on lines of that parity, counting the file's first line as 0 (a
        development half and a held-out half). `progress` hears each sample done, per file; `store` is where
    each sample runs (memql's in-memory store by default)."""
    say = progress or silent
    results: list[SampleResult] = []
    for path in paths:
        chosen = select_samples(Path(path), only=only, limit=limit, lines=lines)
        task = f"{Path(path).name}: {len(chosen)} samples"
        say(task, 0, len(chosen))
        for done, sample in enumerate(chosen, start=1):
            outcome = run_sample(sample, planner, source=Path(path).name, store=store)
            results.append(outcome)
            if on_sample is not None:
                on_sample(outcome)
            say(task, done, len(chosen))
    return results


def select_samples(
    path: Path, *, only: Iterable[str] = (), limit: int | None = None, lines: str | None = None
) -> list[dict[str, Any]]:
    """The samples of one file that `run_files` runs, in file order (see there for the options)."""
    wanted = set(only)
    chosen: list[dict[str, Any]] = []
    for n, sample in enumerate(load_samples(path)):
        if lines is not None and n % 2 != (0 if lines == "even" else 1):
            continue
        if wanted and str(sample.get("id")) not in wanted:
            continue
        if limit is not None and len(chosen) >= limit:
            break
        chosen.append(sample)
    return chosen
