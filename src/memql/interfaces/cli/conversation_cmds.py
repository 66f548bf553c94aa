"""`memql context`, `memql chat` and `memql remember`: thin shells over `Memory.conversation` and
`Memory.remember` (docs/conversation.md, docs/formation.md)."""

from __future__ import annotations

import sys
from typing import Any

import click

from memql.interfaces.cli.common import emit_json, main, open_memory, wants_json

STRATEGY_NAMES = ("flat", "tiers", "ladder", "hybrid")


def _conversation_options(command: Any) -> Any:
    for option in reversed(
        [
            click.option(
                "--conversation",
                "conversation_id",
                metavar="ID",
                help="Conversation id (default: USER/AGENT).",
            ),
            click.option(
                "--user",
                default=None,
                help="Who talks to the agent [default: --actor for a user, else user].",
            ),
            click.option(
                "--agent",
                default=None,
                help="The agent's name [default: --actor for an agent, else assistant].",
            ),
            click.option(
                "--strategy",
                type=click.Choice(STRATEGY_NAMES),
                default=None,
                help="How context is assembled [default: the conversation's default, flat].",
            ),
            click.option(
                "--budget",
                type=click.IntRange(1),
                default=2000,
                show_default=True,
                help="Most tokens the context may have.",
            ),
        ]
    ):
        command = option(command)
    return command


def _open(
    memory: Any, user: str | None, agent: str | None, conversation_id: str | None, strategy: str | None
) -> Any:
    from memql.cognition.conversation.records import ConversationError, participants

    user, agent = participants(memory.executor, user, agent)
    try:
        # the conversation's default observers, so every available strategy keeps seeing its messages;
        # --strategy only chooses who assembles the context
        conversation = memory.conversation(user=user, agent=agent, id=conversation_id)
        if strategy:
            conversation.strategy(strategy)  # an absent strategy is a diagnostic before anything is stored
        return conversation
    except ConversationError as exc:
        _fail(exc)


def _fail(exc: Any) -> None:
    for d in getattr(exc, "diagnostics", []) or []:
        click.echo(f"memql: {d}", err=True)
    if not getattr(exc, "diagnostics", None):
        click.echo(f"memql: {exc}", err=True)
    sys.exit(1)


@main.command("context")
@click.argument("query")
@_conversation_options
@click.option(
    "--as-of",
    "as_of",
    metavar="TIME",
    help="World time: the facts true then lead, and only what was said by then (default: now).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def context_command(
    ctx: click.Context,
    query: str,
    conversation_id: str | None,
    user: str | None,
    agent: str | None,
    strategy: str | None,
    budget: int,
    as_of: str | None,
    as_json: bool,
) -> None:
    """The cited context memory assembles for QUERY from a conversation, within --budget tokens: the
    conversation's typed facts that match it lead, at their value true now (or --as-of)."""
    from memql.cognition.conversation.records import ConversationError
    from memql.cognition.conversation.shapes import context_dict

    with open_memory(ctx) as memory:
        conversation = _open(memory, user, agent, conversation_id, strategy)
        try:
            context = conversation.context(query, budget, strategy=strategy, as_of=as_of)
        except ConversationError as exc:
            _fail(exc)
    if wants_json(as_json):
        emit_json(context_dict(context))
        return
    click.echo(context.text)
    click.echo(
        f"— {context.tokens} of {context.budget_tokens} tokens, {len(context.pieces)} pieces, "
        f"strategy {context.strategy}",
        err=True,
    )


@main.command("chat")
@_conversation_options
@click.pass_context
def chat_command(
    ctx: click.Context,
    conversation_id: str | None,
    user: str | None,
    agent: str | None,
    strategy: str | None,
    budget: int,
) -> None:
    """Talk to the agent: each line is stored as a user message and answered with the LLM
    ($MEMQL_LLM_BASE_URL, $MEMQL_LLM_MODEL) from the context memory assembles; the answer is stored too.
    Without an LLM, the context is shown instead of an answer. Commands: /context QUERY, /quit."""
    from memql.cognition.conversation.records import ConversationError
    from memql.services.llm import LLMConfigError, llm_from_env

    try:
        llm = llm_from_env()
    except LLMConfigError as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    with open_memory(ctx) as memory:
        conversation = _open(memory, user, agent, conversation_id, strategy)
        conversation.llm = llm
        if llm is None:
            click.echo("(no LLM configured: replies show the context memory assembles)", err=True)
        while True:
            try:
                line = input(f"{conversation.user}> ") if sys.stdin.isatty() else sys.stdin.readline()
            except (EOFError, KeyboardInterrupt):
                break
            if not line:  # end of input
                break
            line = line.strip()
            if not line:
                continue
            if line in ("/quit", "/exit"):
                break
            try:
                if line.startswith("/context"):
                    query = line[len("/context") :].strip()
                    if not query:
                        click.echo("usage: /context QUERY")
                        continue
                    context = conversation.context(query, budget, strategy=strategy)
                    click.echo(context.text or "(nothing in memory for that)")
                    continue
                if line.startswith("/"):
                    click.echo("commands: /context QUERY, /quit")
                    continue
                response = conversation.respond(line, budget, strategy=strategy)
                # the exchange is stored whole or not at all (after what another writer, a server or
                # another chat, added to the conversation meanwhile: Conversation continues after theirs)
                if response.answer is not None:
                    conversation.add_turn(line, response.answer)
                    click.echo(f"{conversation.agent}> {response.answer}")
                else:
                    conversation.add_message("user", line)
                    click.echo(f"({response.note})")
                    click.echo(response.context.text or "(nothing in memory yet)")
            except ConversationError as exc:
                for d in exc.diagnostics:
                    click.echo(f"memql: {d}", err=True)


@main.command("remember")
@click.argument("said")
@click.option("--speaker", default=None, help="Who said it [default: --actor, else user].")
@click.option("--time", "time_", default=None, metavar="WHEN", help="When it was said (ISO-8601 or words).")
@click.option("--tag", "tags", multiple=True, help="A tag of every memory written (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.pass_context
def remember_command(
    ctx: click.Context,
    said: str,
    speaker: str | None,
    time_: str | None,
    tags: tuple[str, ...],
    as_json: bool,
) -> None:
    """Remember what SPEAKER said (Memory.remember): each typed fact read in SAID is stored as a fact, a
    newer value superseding the one its key held; a message with no fact is kept as said. One line per
    memory: its event (ADD, UPDATE, NONE), id and text. Exits 0 when stored, 1 when refused."""
    with open_memory(ctx) as memory:
        result = memory.remember(said, speaker=speaker, time=time_, tags=list(tags) or None)
    if wants_json(as_json):
        emit_json(result.to_json())
    else:
        for m in result.memories:
            closed = "; ".join(f"{s['id']}: {s['text']}" for s in m.superseded)
            proposed = " (a proposal)" if m.proposal else ""
            click.echo(f"{m.event} {m.id} {m.text}{proposed}" + (f" — supersedes {closed}" if closed else ""))
    if not result.success:
        for d in result.diagnostics:
            click.echo(f"memql: {d}", err=True)
        sys.exit(1)
