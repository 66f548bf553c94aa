"""`memql bench locomo`: LoCoMo evidence recall@k per category, ingest rate and query latency."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from memql.interfaces.cli.bench_cmds import (
    bench_group,
    positive_ints,
    prepare_report_dir,
    report_option,
    save_report,
)
from memql.interfaces.cli.common import emit_json, wants_json
from memql.interfaces.cli.progress import progress_bars


def _override(name: str, help_text: str):
    """A search override in [0, 1] passed to every Retrieve (unset: the engine's default)."""
    return click.option(f"--{name}", type=click.FloatRange(0, 1), default=None, help=help_text)


@bench_group.command("locomo")
@click.option(
    "--data",
    "data",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="LoCoMo JSON (a list of conversations; default: ../shared/data/locomo-dev.json).",
)
@click.option(
    "--k",
    "ks",
    default="1,5,10,20",
    show_default=True,
    callback=positive_ints("cut-offs", "1,5,10,20"),
    help="Recall cut-offs.",
)
@click.option(
    "--mode",
    default="flat",
    show_default=True,
    callback=lambda _ctx, _param, value: _modes(value),
    help="flat: one record per turn, one Retrieve per question. With --budget, the conversation "
    "strategies to assemble contexts with: flat, tiers, ladder, hybrid (several: comma-separated).",
)
@click.option(
    "--budget",
    "budgets",
    default=None,
    metavar="N[,N2...]",
    callback=positive_ints("token budgets", "500,1000,2000"),
    help="Assemble a context of at most N tokens per question through the conversation API and report "
    "its evidence recall (several budgets: a recall/token curve).",
)
@click.option(
    "--extractor",
    "extractors",
    default="none",
    show_default=True,
    callback=lambda _ctx, _param, value: _extractors(value),
    help="With --budget: the offline fact extraction each mode's conversations form with: none, rules, or "
    "both (none,rules), each reported as its own run (mode+rules) with its ingest turns/s.",
)
@click.option(
    "--llm",
    "use_llm",
    is_flag=True,
    help="With --budget: also run with the LLM of $MEMQL_LLM_BASE_URL/$MEMQL_LLM_MODEL, reported apart "
    "(llm_assisted).",
)
@_override(
    "alpha", "Dense vs lexical balance passed to every Retrieve (overrides.alpha; default: the engine's)."
)
@_override("recency", "Recency shaping strength for every Retrieve (overrides.recency; 0: off).")
@_override("heat", "Heat shaping strength for every Retrieve (overrides.heat; 0: off).")
@_override("mmr", "MMR diversity lambda for every Retrieve (overrides.mmr; default: off).")
@click.option(
    "--limit-conversations", type=click.IntRange(1), default=None, help="Use only the first N conversations."
)
@click.option(
    "--db",
    metavar="URL",
    default=None,
    help="A postgresql:// URL: each conversation runs in a fresh schema there, dropped afterwards "
    "(default: a SQLite store in memory).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@report_option
def bench_locomo_command(
    data: Path | None,
    ks: list[int],
    mode: list[str],
    budgets: list[int] | None,
    extractors: list[str],
    use_llm: bool,
    alpha: float | None,
    recency: float | None,
    heat: float | None,
    mmr: float | None,
    limit_conversations: int | None,
    db: str | None,
    as_json: bool,
    report_dir: Path | None,
) -> None:
    """Evidence recall@k: each turn one record carrying its dia_id, one Retrieve per question."""
    from memql.bench import locomo
    from memql.bench.corpus import default_shared_dir

    if data is None:
        data = default_shared_dir() / "data" / "locomo-dev.json"
        if not data.is_file():
            click.echo(f"memql: no data at {data}; pass --data FILE", err=True)
            sys.exit(2)
    prepare_report_dir(report_dir)
    if budgets is not None:
        _run_contexts(data, mode, budgets, extractors, use_llm, limit_conversations, db, as_json, report_dir)
        return
    if mode != ["flat"] or use_llm or extractors != ["none"]:
        click.echo(
            "memql: recall@k runs mode flat without an LLM or extraction; give --budget for the others",
            err=True,
        )
        sys.exit(2)
    bars = ExitStack()  # closed in `finally`: the bars end before any output
    progress = bars.enter_context(progress_bars(lines=True))
    try:
        report = locomo.run(
            data,
            ks,
            mode="flat",
            limit_conversations=limit_conversations,
            overrides=_overrides(alpha=alpha, recency=recency, heat=heat, mmr=mmr),
            progress=progress,
            db=db,
        )
    except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError) as exc:
        click.echo(f"memql: {data} is not LoCoMo data: {exc!r}", err=True)
        sys.exit(2)
    except (ValueError, OSError) as exc:  # an unusable --db
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    finally:
        bars.close()
    if wants_json(as_json):
        emit_json(report)
    else:
        _print(report, ks)
    if report_dir is not None:  # written after the output, so a failure to write it loses no results
        from memql.bench.report_pages import locomo_page

        save_report(report_dir, locomo_page(report))


def _modes(value: str) -> list[str]:
    from memql.bench.locomo_context import MODES

    modes = list(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))
    unknown = [m for m in modes if m not in MODES]
    if not modes or unknown:
        raise click.BadParameter(f"choose from {', '.join(MODES)} (comma-separated), not {value!r}")
    return modes


def _extractors(value: str) -> list[str]:
    chosen = list(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))
    if not chosen or any(x not in ("none", "rules") for x in chosen):
        raise click.BadParameter(f"choose from none, rules (comma-separated), not {value!r}")
    return chosen


def _run_contexts(
    data: Path,
    modes: list[str],
    budgets: list[int],
    extractors: list[str],
    use_llm: bool,
    limit_conversations: int | None,
    db: str | None,
    as_json: bool,
    report_dir: Path | None,
) -> None:
    from memql.bench import locomo_context
    from memql.cognition.conversation.records import ConversationError
    from memql.services.llm import LLMConfigError, llm_from_env

    llm = None
    if use_llm:
        try:
            llm = llm_from_env()
        except LLMConfigError as exc:
            click.echo(f"memql: {exc}", err=True)
            sys.exit(2)
        if llm is None:
            click.echo("memql: --llm needs MEMQL_LLM_BASE_URL and MEMQL_LLM_MODEL", err=True)
            sys.exit(2)
    bars = ExitStack()  # closed in `finally`: the bars end before any output
    progress = bars.enter_context(progress_bars(lines=True))
    try:
        report = locomo_context.run(
            data,
            modes,
            budgets,
            extractors=[None if x == "none" else x for x in extractors],
            limit_conversations=limit_conversations,
            llm=llm,
            progress=progress,
            db=db,
        )
    except ConversationError as exc:  # e.g. a strategy absent from this installation
        for d in exc.diagnostics:
            click.echo(f"memql: {d}", err=True)
        sys.exit(2)
    except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError) as exc:
        click.echo(f"memql: {data} is not LoCoMo data: {exc!r}", err=True)
        sys.exit(2)
    except (ValueError, OSError) as exc:
        click.echo(f"memql: {exc}", err=True)
        sys.exit(2)
    finally:
        bars.close()
    if wants_json(as_json):
        emit_json(report)
    else:
        _print_contexts(report)
        if "llm_assisted" in report:
            _print_contexts(report["llm_assisted"])
    if report_dir is not None:  # written after the output, so a failure to write it loses no results
        from memql.bench.report_pages import locomo_context_page

        save_report(report_dir, locomo_context_page(report))


def _print_contexts(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(
        title=f"LoCoMo context evidence recall ({report['setting']}, {report['mode']}, "
        f"budget {report['budget']} tokens, {report['conversations']} conversations)"
    )
    for column in ("category", "questions", "recall", "tokens"):
        table.add_column(column, justify="left" if column == "category" else "right")
    for category, block in report["by_category"].items():
        table.add_row(
            f"{category} {block['name']}",
            str(block["n"]),
            f"{block['recall']:.3f}",
            f"{block['context_tokens']:.0f}",
        )
    table.add_row(
        "[bold]1-4[/bold]",
        str(report["headline_questions"]),
        f"[bold]{report['recall']:.3f}[/bold]",
        f"{report['context_tokens']:.0f}",
    )
    console.print(table)
    for mode, points in report["curve"].items():
        console.print(
            f"{mode}: "
            + ", ".join(f"{p['budget']} → {p['recall']:.3f} ({p['context_tokens']:.0f} tok)" for p in points)
        )
    calls = report["llm_calls"]
    console.print(
        f"LLM calls: {calls['write_per_turn']} per turn (write), {calls['read_per_question']} per question "
        f"(read); ingest {report['ingest_s']:.1f} s ({report['ingest_turns_per_s']:.0f} turns/s); "
        f"query p50 {report['query_ms']['p50']:.1f} ms"
    )


def _overrides(**values: float | None) -> dict[str, float] | None:
    given = {name: value for name, value in values.items() if value is not None}
    return given or None


def _print(report: dict[str, Any], ks: list[int]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(
        title=f"LoCoMo evidence recall@k ({report['mode']}, {report['conversations']} conversations)"
    )
    table.add_column("category")
    table.add_column("questions", justify="right")
    for k in ks:
        table.add_column(f"@{k}", justify="right")
    for category, block in report["by_category"].items():
        table.add_row(
            f"{category} {block['name']}", str(block["n"]), *(f"{block['recall'][str(k)]:.3f}" for k in ks)
        )
    table.add_row(
        "[bold]1-4[/bold]",
        str(report["headline_questions"]),
        *(f"[bold]{report['recall'][str(k)]:.3f}[/bold]" for k in ks),
    )
    console.print(table)
    console.print(
        f"evidence ids: {report['evidence_items']} read, {report['evidence_fixed']} normalised, "
        f"{report['evidence_unmappable']} unmappable (counted as misses); "
        f"{report['no_evidence']} questions without evidence (not in the means)"
    )
    console.print(
        f"ingest {report['ingest_records_per_s']:,.0f} records/s ({report['records']} turns); "
        f"query p50 {report['query_ms']['p50']:.2f} ms, p95 {report['query_ms']['p95']:.2f} ms"
    )
