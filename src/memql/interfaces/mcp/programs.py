"""Tools beyond the single verbs: natural-language planning, whole programs, typed facts and a record's
audit history, conversation context — each a shell over the Python API (`Memory.plan`, `execute`, `facts`,
`history`, `conversation(...).context`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field

from memql.engine.result import ExecutionResult
from memql.interfaces.mcp.framing import answer, diagnostic, refusal
from memql.interfaces.mcp.params import Ids, RecordId, Time
from memql.interfaces.mcp.sdk import CallToolResult
from memql.interfaces.mcp.session import Session, conversation_answer, failed

Subject = Annotated[str, Field(min_length=1, max_length=512, description="whom or what the fact is about")]


def program_tools(session: Session) -> list[Callable[..., CallToolResult]]:
    """The planning, program, fact and history tools, bound to `session`'s Memory."""

    def memory_plan(
        text: Annotated[
            str,
            Field(min_length=1, max_length=10_000, description="the instruction, in English or Chinese"),
        ],
        lang: Literal["auto", "en", "zh"] = "auto",
        planner: Annotated[
            Literal["rules", "llm"],
            Field(description="rules: offline and deterministic; llm: the model configured on the server"),
        ] = "rules",
        execute: Annotated[bool, Field(description="run the plan (default: only show it)")] = False,
        confirm: Annotated[
            bool, Field(description="run a destructive plan (any delete, all records, a lock change)")
        ] = False,
    ) -> CallToolResult:
        """Turn a natural-language memory instruction ("remember that ...", "forget the drafts from last
        week") into a memql program, and optionally run it. Use it when the user's request maps to
        several steps or you are unsure which verb fits; check `program` before executing. Returns the
        plan outcome: program, confidence, destructive, diagnostics, and with execute: executed and
        result (an ExecutionResult). Refused (isError): an instruction that needs clarifying
        (plan.clarify), a refused run (the result's diagnostics), or a destructive plan without
        confirm=true (plan.needs_confirmation: it ran as a dry run only; ask the user, then call again
        with confirm=true).
        """
        try:
            outcome = session.call(
                lambda m: m.plan(text, lang=lang, planner=planner, execute=execute, confirm=confirm)
            )
        except (ImportError, RuntimeError, ValueError) as exc:  # e.g. the LLM planner without a model
            return refusal(
                [diagnostic("/planner", "plan.no_llm", f"planner {planner} is not available: {exc}")]
            )
        except Exception as exc:
            return failed(exc, "memql plan failed")
        errors = [d for d in outcome.diagnostics if d.severity == "error"]
        if outcome.result is not None:
            errors += outcome.result.diagnostics
        return answer(outcome.to_json(), refused=not outcome.ok, diagnostics=errors)

    def memory_execute(
        program: Annotated[
            dict[str, Any] | list[dict[str, Any]],
            Field(
                description="one IR {op, target, args, meta} or a workflow ([IR, ...] or {workflow: [...]}); "
                "the language's JSON Schema is `memql schema`"
            ),
        ],
        dry_run: Annotated[bool, Field(description="show every change, commit nothing")] = False,
    ) -> Annotated[CallToolResult, ExecutionResult]:
        """Run a memql program exactly as written: one Text2Mem IR, or a workflow whose steps run in one
        transaction (a step may target the records an earlier one touched: target.from_step). Use it for
        what the single-verb tools cannot say in one call. Returns the ExecutionResult (workflows: steps,
        and failed_step when one failed). Refused (isError): the diagnostics give the field (a JSON
        pointer into the program), a stable rule id and a message; nothing was committed.
        """
        return session.run(lambda m: m.execute(program, dry_run=dry_run))

    def memory_facts(
        subject: Subject,
        attribute: Annotated[
            str | None,
            Field(min_length=1, max_length=512, description="one attribute (required for history)"),
        ] = None,
        history: Annotated[
            bool, Field(description="every value the attribute has held, oldest first")
        ] = False,
        as_of: Annotated[Time | None, Field(description="world time: what was true then")] = None,
        recorded_at: Annotated[Time | None, Field(description="record time: what memql knew then")] = None,
    ) -> CallToolResult:
        """Read typed facts (subject, attribute -> value over time, stored by memory_encode with a
        structured {subject, attribute, value}): the current value of each of the subject's attributes
        (or of one), the value at a world time (as_of), as known at a record time (recorded_at), or with
        history=true every value the attribute has held with its validity window and source. Returns
        {success, facts: [{id, subject, attribute, value, valid_from, valid_to, source, recorded_at}]}; an
        unknown subject gives an empty list. Refused (isError): a malformed time (time.invalid) or a
        history without an attribute (field.required).
        """
        if history and attribute is None:
            return refusal([diagnostic("/attribute", "field.required", "history needs an attribute")])
        if history and as_of is not None:
            return refusal(
                [
                    diagnostic(
                        "/as_of", "field.invalid", "history lists every world time; as_of does not apply"
                    )
                ]
            )

        def read(m):
            if history:
                return m.facts.history(subject, attribute, recorded_at=recorded_at)
            return m.facts.get(subject, attribute, as_of=as_of, recorded_at=recorded_at)

        return session.run(read, "memql facts failed")

    def memory_history(
        ids: Annotated[Ids | None, Field(description="the records whose history to read")] = None,
        record_id: Annotated[
            RecordId | None, Field(description="one record (the older spelling of ids)")
        ] = None,
    ) -> CallToolResult:
        """Memories' audit history, oldest first: every change with when, who (actor), which op, each
        field before and after, and notes (reclassification, consolidation, proposal steps). Use it to
        explain where a memory came from or why it changed. Returns {success, records: [{record_id,
        events}]} (with record_id: also its record_id and events); an id that does not exist or that
        this session may not read is left out with the warning target.not_found. Refused (isError,
        target.not_found): none of them can be read; field.required: neither ids nor record_id.
        """
        if ids is None and record_id is None:
            return refusal([diagnostic("/ids", "field.required", "give ids (a list of record ids)")])
        path, wanted = ("/ids", list(ids or [])) if record_id is None else ("/record_id", [record_id])
        if ids is not None and record_id is not None:
            wanted = list(dict.fromkeys([*ids, record_id]))
        try:
            found = session.call(lambda m: [(rid, m.history(rid)) for rid in dict.fromkeys(wanted)])
        except Exception as exc:
            return failed(exc, "memql history failed")
        records = [{"record_id": rid, "events": events} for rid, events in found if events]
        missing = [rid for rid, events in found if not events]
        unreadable = [
            diagnostic(path, "target.not_found", f"no record {rid} this session may read") for rid in missing
        ]
        single = {"record_id": record_id} if record_id is not None and ids is None else {}
        if not records:
            return refusal(unreadable, **single, **({"events": []} if single else {}), records=[])
        body: dict[str, Any] = {"success": True, **single, "records": records}
        if single:
            body["events"] = records[0]["events"]
        if unreadable:  # a partial read: the others are answered, these named (as the verbs do)
            body["warnings"] = [d.model_dump() | {"severity": "warning"} for d in unreadable]
        return answer(body, refused=False)

    def memory_context(
        query: Annotated[
            str, Field(min_length=1, max_length=10_000, description="what the agent needs to know")
        ],
        user: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=256,
                description="who the agent talks to (default: the server's actor, when it is a user)",
            ),
        ] = None,
        agent: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=256,
                description="the agent's name (default: the server's actor, when it is an agent)",
            ),
        ] = None,
        conversation: Annotated[
            str | None,
            Field(min_length=1, max_length=512, description="conversation id (default user/agent)"),
        ] = None,
        budget_tokens: Annotated[
            int, Field(ge=1, le=100_000, description="most tokens the context may have")
        ] = 2000,
        strategy: Annotated[
            Literal["flat", "tiers", "ladder", "hybrid"] | None,
            Field(description="how the context is assembled (default: the conversation's own)"),
        ] = None,
        as_of: Annotated[
            Time | None,
            Field(description="world time: the facts true then lead, and only what was said by then"),
        ] = None,
    ) -> CallToolResult:
        """Assemble what a conversation's memory holds about `query`, within `budget_tokens`, ready to
        put in your prompt. Use it before answering a question that depends on earlier turns of a
        conversation memql stores (messages added with the Python API, `memql chat` or a bench). What
        leads: the conversation's typed facts that match the query (formed from its messages by an
        extractor), each at its value true now (or at `as_of`) and cited to the turn that said it; a
        value that was true before appears only on a line labelled "until <date>:" (history, not the
        answer); then the strategy's pieces, with any line stating a no-longer-true value labelled the
        same way. Returns {query, strategy, budget_tokens, tokens, text, pieces: [{text, memory_ids,
        source_ids, level}], memory_ids, source_ids}: every piece cites the memories and the source turns
        it came from (level "fact" and "fact_history" for the leading facts). Refused (isError): an
        empty query (field.empty), a malformed as_of (time.invalid), a strategy this installation or
        conversation does not have (conversation.strategy_unavailable / conversation.strategy_inactive),
        a conversation the server's identity is not part of (conversation.participant, naming /user or
        /agent: a server acts only for the --actor it was started as; an admin for anyone).
        """
        from memql.cognition.conversation.served import served_context

        def assemble(m):
            return served_context(
                m.executor,
                query,
                user=user,
                agent=agent,
                conversation=conversation,
                budget_tokens=budget_tokens,
                strategy=strategy,
                as_of=as_of,
            )

        return conversation_answer(session, assemble, "memql context failed")

    return [memory_plan, memory_execute, memory_facts, memory_history, memory_context]
