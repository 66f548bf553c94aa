"""The LLM planner: an OpenAI-compatible model writes the plan; memql's validator decides whether it is one.

For an instruction the planner sends one conversation: a system prompt explaining the verbs and the
rules, few-shot examples picked from the shipped library by relevance (memql.cognition.planner.examples),
then the instruction with the store context (now, tags in use, recent ids, types). The reply is
constrained by the language's JSON Schema, wrapped as ``{"workflow": [IR, ...], "clarification"?}``
(memql.cognition.planner.llm_prompt). The reply is validated like any program
(memql.cognition.planner.programs); when it does not validate, its diagnostics go back to the model and it
answers again — at most ``max_repairs`` times. Nothing here raises for a bad model or a bad server: every
failure is a Plan without a program and a diagnostic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from memql.cognition.planner.base import Lang, Plan, PlanContext
from memql.cognition.planner.examples import Example, ExampleLibrary
from memql.cognition.planner.llm_prompt import (
    SYSTEM_PROMPT,
    clarification_text,
    detect_lang,
    read_reply,
    render_reply,
    render_request,
    repair_request,
    reply_schema,
)
from memql.cognition.planner.programs import check_steps, step_pointer
from memql.lang.diagnostics import Diagnostic
from memql.ports.clock import Clock, SystemClock
from memql.ports.models import LLM, ChatMessage, ChatRequest
from memql.services.llm import LLMConfigError, LLMError, llm_from_env

FIRST_ROUND_CONFIDENCE = 0.8  # a model's plan that validated at once: likely, never certain
REPAIR_FACTOR = 0.7  # each repair round multiplies the confidence by this
DEFAULT_EXAMPLES = 8
DEFAULT_MAX_TOKENS = 2048  # bounds the cost of a runaway reply; plans are a few hundred tokens


class LLMPlanner:
    """Plans with an OpenAI-compatible model (see the module docstring).

    ``llm`` defaults to the one configured in the environment (:func:`memql.services.llm.llm_from_env`);
    with none, :meth:`plan` returns a Plan with the diagnostic ``plan.no_llm``. ``examples`` is an
    :class:`ExampleLibrary` or a list of :class:`Example` (default: the shipped library); ``k_examples``
    of them are shown per instruction. ``clock`` supplies "now" when the PlanContext has none.
    """

    name = "llm"

    def __init__(
        self,
        llm: LLM | None = None,
        examples: ExampleLibrary | Sequence[Example] | None = None,
        max_repairs: int = 2,
        *,
        k_examples: int = DEFAULT_EXAMPLES,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        clock: Clock | None = None,
    ) -> None:
        if max_repairs < 0:
            raise ValueError(f"max_repairs must not be negative, got {max_repairs}")
        self._config_error: str | None = None
        if llm is None:
            try:
                llm = llm_from_env()
            except LLMConfigError as exc:
                self._config_error = str(exc)
        self.llm = llm
        if examples is None:
            examples = ExampleLibrary.default()
        elif not isinstance(examples, ExampleLibrary):
            examples = ExampleLibrary(examples)
        self.examples = examples
        self.max_repairs = int(max_repairs)
        self.k_examples = int(k_examples)
        self.max_tokens = int(max_tokens)
        self.clock: Clock = clock or SystemClock()

    def plan(self, text: str, *, lang: Lang = "auto", context: PlanContext | None = None) -> Plan:
        read_as = detect_lang(text) if lang == "auto" else lang
        if not text or not text.strip():
            return _failed(
                read_as, "plan.clarify", "the instruction is empty: say what to do with which memories"
            )
        if self.llm is None:
            why = self._config_error or (
                "no LLM is configured: set MEMQL_LLM_BASE_URL and MEMQL_LLM_MODEL (see docs/llm.md), "
                "or use the rules planner"
            )
            return _failed(read_as, "plan.no_llm", why)
        now = context.now if context is not None and context.now is not None else self.clock.now()
        context = replace(context or PlanContext(), now=now)
        shown = self.examples.select(text, read_as, self.k_examples)
        messages = self._conversation(text, read_as, context, shown)
        start = _usage(self.llm)
        stats: dict[str, Any] = {"examples": [e.id for e in shown]}
        rounds = 0
        try:
            while True:
                rounds += 1
                answer = self.llm.chat(
                    ChatRequest(
                        messages=list(messages),
                        json_schema=reply_schema(),
                        max_tokens=self.max_tokens,
                        temperature=0.0,
                        metadata={"schema_name": "memql_plan"},
                    )
                )
                plan, problems, diagnostics = self._read(answer, now, read_as)
                if plan is not None:
                    repairs = rounds - 1
                    if plan.program is not None:
                        plan.confidence = round(FIRST_ROUND_CONFIDENCE * REPAIR_FACTOR**repairs, 3)
                    plan.stats = {**stats, **plan.stats, **self._spent(start, rounds)}
                    return plan
                if rounds > self.max_repairs:
                    break
                messages += [ChatMessage("assistant", answer), ChatMessage("user", repair_request(problems))]
        except LLMError as exc:
            failed = _failed(
                read_as, "plan.llm_error", f"the LLM could not be reached or answered badly: {exc}"
            )
            failed.stats = {**stats, **self._spent(start, rounds), "status": exc.status}
            return failed
        gave_up = Diagnostic(
            path="",
            rule="plan.invalid_reply",
            severity="error",
            message=f"the model's plan did not validate after {rounds} round(s); its last problems are above",
        )
        failed = _failed(read_as, "plan.invalid_reply", "", diagnostics=[*diagnostics, gave_up])
        failed.stats = {**stats, **self._spent(start, rounds)}
        return failed

    # -- one conversation --------------------------------------------------------------------------------

    def _conversation(
        self, text: str, lang: str, context: PlanContext, shown: list[Example]
    ) -> list[ChatMessage]:
        messages = [ChatMessage("system", SYSTEM_PROMPT)]
        for example in reversed(shown):  # the most relevant example ends up next to the instruction
            messages.append(
                ChatMessage("user", render_request(example.nl, example.lang, example.plan_context()))
            )
            messages.append(ChatMessage("assistant", render_reply(example.reply)))
        messages.append(ChatMessage("user", render_request(text, lang, context)))
        return messages

    def _read(self, answer: str, now: datetime, lang: str) -> tuple[Plan | None, list[str], list[Diagnostic]]:
        """A final Plan (a valid program, or a clarification); or the problems to send back to the model and
        the diagnostics that report them if no round succeeds."""
        reply = read_reply(answer)
        if reply.clarification is not None:
            missing, question = clarification_text(reply.clarification)
            what = ", ".join(missing) or "details"
            message = f"{question} (missing: {what})" if question else f"the instruction is missing: {what}"
            plan = _failed(lang, "plan.clarify", message)
            plan.stats = {"missing": missing}
            return plan, [], []
        if reply.steps is None:
            diags = [
                Diagnostic(path="", rule="plan.invalid_reply", severity="error", message=p)
                for p in reply.problems
            ]
            return None, reply.problems, diags
        result, destructive = check_steps(reply.steps, now)
        if result.valid:
            plan = Plan(
                program=result.canonical,
                confidence=FIRST_ROUND_CONFIDENCE,
                diagnostics=list(result.warnings),
                planner="llm",
                lang=lang,
                destructive=destructive,
            )
            return plan, [], []
        steps = len(reply.steps)
        errors = [d.model_copy(update={"path": step_pointer(d.path, steps)}) for d in result.errors]
        problems = [f"{d.path or '/'}: {d.message} [{d.rule}]" for d in errors]
        return None, problems, errors

    def _spent(self, start: tuple[int, int, int], rounds: int) -> dict[str, Any]:
        calls, prompt, completion = (now - then for now, then in zip(_usage(self.llm), start, strict=True))
        return {
            "calls": calls,
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "tokens": prompt + completion,
            "rounds": rounds,
            "repairs": max(rounds - 1, 0),
        }


def _usage(llm: LLM | None) -> tuple[int, int, int]:
    if llm is None:
        return 0, 0, 0
    return llm.usage.calls, llm.usage.prompt_tokens, llm.usage.completion_tokens


def _failed(lang: str, rule: str, message: str, *, diagnostics: list[Diagnostic] | None = None) -> Plan:
    if diagnostics is None:
        diagnostics = [Diagnostic(path="", rule=rule, severity="error", message=message)]
    return Plan(program=None, confidence=0.0, diagnostics=diagnostics, planner="llm", lang=lang)
