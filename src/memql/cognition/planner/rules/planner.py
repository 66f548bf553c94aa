"""RulesPlanner: instruction -> steps -> one validated, canonical IR or workflow (or a clarification)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memql.cognition.planner.base import Lang, Plan, PlanContext
from memql.cognition.planner.rules.clauses import split_steps
from memql.cognition.planner.rules.model import Clarify, Reading, Step
from memql.cognition.planner.rules.text import detect_lang
from memql.cognition.planner.rules.verbs import build
from memql.lang import validate
from memql.lang.diagnostics import Diagnostic

MAX_INSTRUCTION = 4_000  # characters: an instruction, not a document (a note to save fits well within)
_QUIET = frozenset({"write.default_limit"})  # the planner sets write caps on purpose


class RulesPlanner:
    """Deterministic: the same text and context always give the same plan. No model, no network."""

    name = "rules"

    def plan(self, text: str, *, lang: Lang = "auto", context: PlanContext | None = None) -> Plan:
        context = context or PlanContext()
        if not isinstance(text, str) or not text.strip():
            return _clarify("instruction", "the instruction is empty: say what to do with your memory", "en")
        if len(text) > MAX_INSTRUCTION:
            return _clarify(
                "instruction",
                f"the instruction is {len(text)} characters long (at most {MAX_INSTRUCTION}): save long text "
                "with `memql exec` or Memory.encode instead",
                detect_lang(text),
            )
        if lang not in ("auto", "en", "zh"):
            return _clarify("lang", f"lang must be auto, en or zh, not {lang!r}", "en")
        read_as = detect_lang(text) if lang == "auto" else lang
        now = context.now or datetime.now(UTC)
        if now.tzinfo is None:
            now = now.replace(tzinfo=UTC)
        reading = Reading(lang=read_as, now=now, context=context)
        try:
            steps: list[Step] = []
            for clause in split_steps(text.strip(), read_as):
                steps += build(clause, reading, len(steps))
        except Clarify as need:
            return _clarify(need.missing, need.message, read_as, need.step)
        if not steps:
            return _clarify("operation", "; ".join(reading.notes) or "nothing to do", read_as)
        return _finish(steps, read_as, now, reading.notes)


def _finish(steps: list[Step], lang: str, now: datetime, notes: list[str]) -> Plan:
    destructive = any(s.destructive for s in steps)
    irs = [s.ir() for s in steps]
    program: dict[str, Any] = irs[0] if len(irs) == 1 else {"workflow": irs}
    if destructive:  # shown as a dry run until confirmed (Memory.plan / memql plan --yes)
        program["meta"] = {"dry_run": True}
    checked = validate(program, now=now)
    if not checked.valid:
        return Plan(
            program=None,
            confidence=0.0,
            diagnostics=checked.errors,
            planner="rules",
            lang=lang,
            stats={"steps": len(steps)},
        )
    diagnostics = [d for d in checked.warnings if d.rule not in _QUIET]
    for i, step in enumerate(steps):
        where = f"/workflow/{i}" if len(steps) > 1 else ""
        diagnostics += [
            Diagnostic(path=where, rule="plan.assumption", severity="warning", message=note)
            for note in step.assumptions
        ]
    diagnostics += [Diagnostic(path="", rule="plan.skipped", severity="warning", message=n) for n in notes]
    confidence = min(s.confidence for s in steps) * (0.95 ** (len(steps) - 1)) * (0.8 ** len(notes))
    return Plan(
        program=checked.canonical,
        confidence=round(confidence, 3),
        diagnostics=diagnostics,
        planner="rules",
        lang=lang,
        destructive=destructive,
        stats={"steps": len(steps)},
    )


def _clarify(missing: str, message: str, lang: str, step: int | None = None) -> Plan:
    where = f" (step {step + 1})" if step is not None and step > 0 else ""
    return Plan(
        program=None,
        confidence=0.0,
        diagnostics=[
            Diagnostic(
                path="", rule="plan.clarify", severity="error", message=f"missing {missing}{where}: {message}"
            )
        ],
        planner="rules",
        lang=lang,
    )
