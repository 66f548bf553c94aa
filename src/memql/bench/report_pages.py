"""The report page of each bench (`memql bench ... --report DIR`), built from its JSON report alone, so a
saved results.json can be drawn again: ``locomo_page``, ``locomo_context_page`` (``--budget``),
``perf_page``, ``text2mem_page``.

Each returns a memql.bench.report.Report; a caller may add sections or plots before writing it, e.g.
``page.section(LOCOMO_RECALL).add(LinePlot(...))``.
"""

from __future__ import annotations

from typing import Any

from memql.bench.plots import BarPlot, Histogram, LinePlot, cdf
from memql.bench.report import Report, Section, Table

LOCOMO_RECALL = "Evidence recall@k"
LOCOMO_LATENCY = "Query latency"


def _fraction(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


# --- LoCoMo ---------------------------------------------------------------------------------------------


def locomo_page(report: dict[str, Any]) -> Report:
    ks = sorted(int(k) for k in report["recall"])
    settings = f"mode {report.get('mode', 'flat')}, {report.get('conversations', 0)} conversations"
    if report.get("overrides"):
        settings += ", overrides " + ", ".join(f"{k}={v}" for k, v in report["overrides"].items())
    page = Report("LoCoMo evidence recall", results=report, subtitle=settings)

    series: dict[str, list[tuple[float, float]]] = {}
    rows = []
    for category, block in report["by_category"].items():
        name = f"{category} {block['name']}"
        series[name] = [(k, block["recall"][str(k)]) for k in ks]
        rows.append([name, block["n"], *(_fraction(block["recall"][str(k)]) for k in ks)])
    series["1-4 (headline)"] = [(k, report["recall"][str(k)]) for k in ks]
    rows.append(
        ["1-4 (headline)", report["headline_questions"], *(_fraction(report["recall"][str(k)]) for k in ks)]
    )
    recall = Section(LOCOMO_RECALL)
    recall.add(
        "Share of each question's evidence turns among the top k retrieved turns, averaged per category; "
        "the headline averages categories 1-4 (5, adversarial, is shown beside it).",
        LinePlot("LoCoMo evidence recall@k", series, x_label="k", y_label="recall", y_min=0.0, y_max=1.0),
        Table(["category", "questions", *(f"@{k}" for k in ks)], rows),
    )
    page.sections.append(recall)

    latency = Section(LOCOMO_LATENCY)
    query_ms = report["query_ms"]
    latency.add(
        f"Retrieve per question: p50 {_ms(query_ms['p50'])} ms, p95 {_ms(query_ms['p95'])} ms; ingest "
        f"{report.get('ingest_records_per_s', 0):,.0f} records/s ({report.get('records', 0)} turns)."
    )
    samples = report.get("query_latencies_ms")
    if samples:
        latency.add(
            Histogram("LoCoMo query latency", {"Retrieve": samples}, x_label="ms", y_label="questions")
        )
    page.sections.append(latency)

    page.sections.append(
        Section(
            "Evidence ids",
            [
                f"{report.get('evidence_items', 0)} evidence ids read, {report.get('evidence_fixed', 0)} "
                f"normalised, {report.get('evidence_unmappable', 0)} unmappable (counted as misses); "
                f"{report.get('no_evidence', 0)} questions without evidence (not in the means)."
            ],
        )
    )
    return page


LOCOMO_CONTEXT_CURVE = "Evidence recall against context tokens"


def locomo_context_page(report: dict[str, Any]) -> Report:
    """`memql bench locomo --budget ...`: recall of assembled contexts against their size, per strategy."""
    settings = (
        f"{report['setting']}, mode {report['mode']}, headline budget {report['budget']} tokens, "
        f"{report.get('conversations', 0)} conversations"
    )
    page = Report("LoCoMo context evidence recall", results=report, subtitle=settings)
    curve = Section(LOCOMO_CONTEXT_CURVE)
    runs = [report, *([report["llm_assisted"]] if "llm_assisted" in report else [])]
    series = {
        f"{mode} ({run['setting']})": [(p["context_tokens"], p["recall"]) for p in points]
        for run in runs
        for mode, points in run["curve"].items()
    }
    curve.add(
        "Share of each question's evidence turns present in the assembled context, over categories 1-4, "
        "against the mean context size in tokens; one point per budget.",
        LinePlot("Recall vs context tokens", series, x_label="context tokens", y_label="recall", y_min=0.0),
        Table(
            ["strategy", "budget", "recall", "mean tokens"],
            [
                [name, p["budget"], _fraction(p["recall"]), f"{p['context_tokens']:.0f}"]
                for run in runs
                for name, points in run["curve"].items()
                for p in points
            ],
        ),
    )
    page.sections.append(curve)
    by_category = Section(f"By category at {report['budget']} tokens ({report['mode']})")
    rows = [
        [f"{c} {b['name']}", b["n"], _fraction(b["recall"]), f"{b['context_tokens']:.0f}"]
        for c, b in report["by_category"].items()
    ]
    rows.append(["1-4 (headline)", report["headline_questions"], _fraction(report["recall"]), ""])
    by_category.add(Table(["category", "questions", "recall", "mean tokens"], rows))
    calls = report["llm_calls"]
    by_category.add(
        f"LLM calls: {calls['write_per_turn']} per turn (write), {calls['read_per_question']} per question "
        f"(read); ingest {report['ingest_s']:.1f} s; query p50 {_ms(report['query_ms']['p50'])} ms."
    )
    page.sections.append(by_category)
    return page


# --- perf -----------------------------------------------------------------------------------------------


def perf_page(report: dict[str, Any]) -> Report:
    machine = report.get("machine", {})
    page = Report(
        f"memql bench perf ({report.get('backend', 'sqlite')})",
        results=report,
        subtitle=f"Python {machine.get('python', '?')}, SQLite {machine.get('sqlite', '?')}, "
        f"{machine.get('cpus', '?')} CPUs; {report.get('settings', {}).get('queries', '?')} queries per read",
    )
    encode = Section("Encode throughput")
    rows = [
        [label, row["ops"], f"{row['memql_ops_s']:,.0f}", f"{row['raw_ops_s']:,.0f}", f"{row['ratio']:.2f}×"]
        for key, label in (
            ("per_op", "1 op per transaction"),
            ("batched", "100 ops per transaction"),
            ("bulk", "bulk write (encode_many), 1 transaction"),
        )
        if (row := report.get("encode", {}).get(key))
    ]
    encode.add(Table(["mode", "ops", "memql ops/s", "raw SQLite ops/s", "memql/raw"], rows))
    page.sections.append(encode)

    retrieve = report.get("retrieve", {})
    section = Section("Retrieve latency by store size")
    section.add("10 rows per read; memql beside raw SQLite doing the same read in the same run.")
    for kind, label in (("search", "search"), ("filter", "tag filter")):
        series: dict[str, list[tuple[float, float]]] = {}
        for who in ("memql", "raw"):
            for p in ("p50", "p95"):
                series[f"{who} {p}"] = [(int(size), b[kind][f"{who}_{p}_ms"]) for size, b in retrieve.items()]
        section.add(
            LinePlot(
                f"Retrieve ({label}) latency", series, x_label="records", y_label="ms", x_log=True, y_min=0.0
            )
        )
    section.add(
        Table(
            ["records", "read", "memql p50", "memql p95", "raw p50", "raw p95", "same top"],
            [
                [
                    f"{int(size):,}",
                    label,
                    _ms(b[kind]["memql_p50_ms"]),
                    _ms(b[kind]["memql_p95_ms"]),
                    _ms(b[kind]["raw_p50_ms"]),
                    _ms(b[kind]["raw_p95_ms"]),
                    f"{b[kind]['same_top']:.0%}",
                ]
                for size, b in retrieve.items()
                for kind, label in (("search", "search"), ("filter", "tag filter"))
            ],
            caption="milliseconds",
        )
    )
    if retrieve:
        size, largest = list(retrieve.items())[-1]
        curves = {
            f"{who} {label}": cdf([v for v in largest[kind][f"{who}_latencies_ms"] if v > 0])
            for kind, label in (("search", "search"), ("filter", "tag filter"))
            for who in ("memql", "raw")
            if largest[kind].get(f"{who}_latencies_ms")
        }
        if curves:  # a CDF on a log axis: memql and raw SQLite differ by an order of magnitude
            section.add(
                LinePlot(
                    f"Retrieve latency distribution at {int(size):,} records",
                    curves,
                    x_label="ms (log scale)",
                    y_label="share of queries at or below",
                    x_log=True,
                    y_min=0.0,
                    y_max=1.0,
                    markers=False,
                )
            )
    page.sections.append(section)
    if report.get("retrieve_hybrid"):
        page.sections.append(_hybrid_section(report))
    return page


def _hybrid_section(report: dict[str, Any]) -> Section:
    blocks = report["retrieve_hybrid"]
    ann = report.get("dense", {}).get("settings", {}).get("ann_index", "hnsw")
    section = Section("Hybrid Retrieve (BM25 + dense)")
    section.add(f"k = 10, query embedding excluded; {ann} vector index beside exact vector search.")
    series: dict[str, list[tuple[float, float]]] = {}
    for prefix, name in (("hnsw", ann), ("exact", "exact"), ("lexical", "lexical side")):
        for p in ("p50", "p95"):
            points = [
                (int(size), b[f"{prefix}_{p}_ms"])
                for size, b in blocks.items()
                if b.get(f"{prefix}_{p}_ms") is not None
            ]
            if points:
                series[f"{name} {p}"] = points
    section.add(
        LinePlot("Hybrid Retrieve latency", series, x_label="records", y_label="ms", x_log=True, y_min=0.0)
    )
    section.add(
        Table(
            ["records", f"{ann} p50 / p95 ms", "exact p50 / p95 ms", f"{ann} recall@10"],
            [
                [
                    f"{int(size):,}",
                    f"{_ms(b.get('hnsw_p50_ms'))} / {_ms(b.get('hnsw_p95_ms'))}",
                    f"{_ms(b.get('exact_p50_ms'))} / {_ms(b.get('exact_p95_ms'))}",
                    _fraction(b.get("recall_at_10")),
                ]
                for size, b in blocks.items()
            ],
        )
    )
    compared = {size: b["baseline"] for size, b in blocks.items() if b.get("baseline")}
    if compared:
        section.add(
            "Beside a hand-written hybrid search (plain sqlite3 + numpy: exact cosine, FTS5 BM25, reciprocal"
            " rank fusion, the rows' text) on the same texts and vectors, queries alternating."
        )
        section.add(
            Table(
                [
                    "records",
                    "memql p50 / p95 ms",
                    "baseline p50 / p95 ms",
                    "× p50",
                    "CPU ms memql / baseline",
                ],
                [
                    [
                        f"{int(size):,}",
                        f"{_ms(c['memql_p50_ms'])} / {_ms(c['memql_p95_ms'])}",
                        f"{_ms(c['raw_p50_ms'])} / {_ms(c['raw_p95_ms'])}",
                        f"{c['ratio_p50']:.2f}",
                        f"{_ms(c['memql_cpu_p50_ms'])} / {_ms(c['raw_cpu_p50_ms'])}",
                    ]
                    for size, c in compared.items()
                ],
            )
        )
    return section


# --- Text2Mem -------------------------------------------------------------------------------------------

_GROUPS = (
    ("by_file", "By file"),
    ("by_lang", "By language"),
    ("by_structure", "By structure"),
    ("by_instruction", "By instruction type"),
)


def text2mem_page(report: dict[str, Any]) -> Report:
    page = Report(
        f"Text2Mem Bench (planner: {report['planner']})",
        results=report,
        subtitle=f"{report['n']} samples; ESR: the program executed, EMR: its assertions and ranking hold",
    )
    valid = report["valid"]
    headline = Section("Headline")
    headline.add(
        Table(
            ["samples", "n", "ESR", "EMR"],
            [
                ["all", report["n"], f"{report['esr']:.1%}", f"{report['emr']:.1%}"],
                [
                    f"valid (gold not defective; {valid['excluded']} excluded)",
                    valid["n"],
                    f"{valid['esr']:.1%}",
                    f"{valid['emr']:.1%}",
                ],
            ],
        )
    )
    page.sections.append(headline)

    verbs = report["by_op"]
    by_verb = Section("By verb")
    by_verb.add(
        BarPlot(
            "ESR and EMR per verb",
            list(verbs),
            {"ESR": [row["esr"] for row in verbs.values()], "EMR": [row["emr"] for row in verbs.values()]},
            y_label="share of samples",
            y_max=1.0,
        ),
        _rate_table("verb", verbs),
    )
    page.sections.append(by_verb)
    for key, title in _GROUPS:
        if report.get(key):
            page.sections.append(
                Section(title, [_rate_table(title.removeprefix("By ").lower(), report[key])])
            )

    failures = report.get("failures", [])
    section = Section("Failures")
    section.add(f"{len(failures)} samples did not match.")
    if failures:
        section.add(
            Table(
                ["sample", "stage", "reason", "known defect"],
                [[f["id"], f["stage"], f["reason"], f.get("known_defect", "")] for f in failures],
            )
        )
    page.sections.append(section)
    return page


def _rate_table(label: str, groups: dict[str, dict[str, Any]]) -> Table:
    sma = any("sma_lev" in row for row in groups.values())
    columns = [label, "n", "ESR", "EMR"] + (["SMA-Lev", "SMA-Cos"] if sma else [])
    rows = []
    for name, row in groups.items():
        cells = [name, row["n"], f"{row['esr']:.1%}", f"{row['emr']:.1%}"]
        if sma:
            cells += [_fraction(row.get("sma_lev")), _fraction(row.get("sma_cos"))]
        rows.append(cells)
    return Table(columns, rows)
