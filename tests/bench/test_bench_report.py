"""Bench reports: the generic Report (HTML + Markdown + SVG + results.json) and `memql bench ... --report DIR`
end to end on the project's small fixtures."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from memql.bench.plots import BarPlot, Histogram, LinePlot
from memql.bench.report import Report, Section, Table
from memql.bench.report_pages import LOCOMO_RECALL, locomo_page
from memql.interfaces.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"


class _Page(HTMLParser):
    """What a browser would see: headings, tags used, external references."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.h2: list[str] = []
        self.external: list[str] = []
        self._in_h2 = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self._in_h2 = tag == "h2"
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.external.append(value)

    def handle_data(self, data):
        if self._in_h2:
            self.h2.append(data)
            self._in_h2 = False


def _sample_report() -> Report:
    curve = LinePlot("Recall | by k", {"bm25": [(1, 0.2), (10, 0.6)]}, x_label="k", y_label="recall")
    return Report(
        "A <bench>",
        [
            Section(
                "Recall", ["Higher is better.", curve, Table(["k", "recall"], [[1, "0.200"], [10, "0.600"]])]
            ),
            Section(
                "Speed", [Histogram("Latency", {"q": [1.0, 2.0, 3.0]}), BarPlot("Bars", ["a"], {"s": [1.0]})]
            ),
            Section("Same title", [LinePlot("Recall | by k", {"x": [(1, 1.0)]})]),
        ],
        results={"recall": {"1": 0.2}, "note": "naïve"},
    )


def test_html_is_one_self_contained_page_with_every_section_and_plot(tmp_path):
    report = _sample_report()
    page = _Page(report.html())
    assert page.h2 == ["Recall", "Speed", "Same title"]
    assert "script" not in page.tags and "link" not in page.tags and "img" not in page.tags
    assert page.external == []  # nothing fetched: the nav links are in-page anchors
    assert page.tags.count("svg") == 4 and page.tags.count("table") == 1
    assert "A &lt;bench&gt;" in report.html()


def test_markdown_links_svg_files_that_write_puts_beside_it(tmp_path):
    report = _sample_report()
    written = {p.name for p in report.write(tmp_path)}
    assert {"index.html", "report.md", "results.json"} <= written
    svgs = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert svgs == ["bars.svg", "latency.svg", "recall-by-k-2.svg", "recall-by-k.svg"]
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Recall" in markdown and "## Speed" in markdown
    linked = [line.split("](")[1].rstrip(")") for line in markdown.splitlines() if line.startswith("![")]
    assert sorted(linked) == svgs
    assert "| k | recall |" in markdown and "| 10 | 0.600 |" in markdown
    for name in svgs:
        ET.fromstring((tmp_path / name).read_text(encoding="utf-8"))
    assert json.loads((tmp_path / "results.json").read_text(encoding="utf-8")) == report.results


def test_a_table_row_must_fit_its_columns():
    with pytest.raises(ValueError, match="row 0 has 1 cells for 2 columns"):
        Table(["a", "b"], [["only one"]])


def test_another_curve_can_be_added_to_a_built_page():
    report = {
        "recall": {"1": 0.5, "10": 0.75},
        "by_category": {"4": {"name": "single-hop", "n": 2, "recall": {"1": 0.5, "10": 0.75}}},
        "headline_questions": 2,
        "query_ms": {"p50": 1.0, "p95": 2.0},
        "query_latencies_ms": [1.0, 2.0],
    }
    page = locomo_page(report)
    page.section(LOCOMO_RECALL).add(
        LinePlot("Recall vs context tokens", {"flat": [(100, 0.2), (400, 0.5)]}, "tokens", "recall")
    )
    assert page.html().count("<svg") == 3
    assert page.section("no such section") is None


def _svg(path: Path) -> ET.Element:
    return ET.fromstring(path.read_text(encoding="utf-8"))


def _series(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-series"): g for g in root.iter(f"{SVG}g") if g.get("class") == "series"}


def test_locomo_report_end_to_end(tmp_path):
    out = tmp_path / "locomo"
    args = ["bench", "locomo", "--data", str(FIXTURES / "locomo-mini.json"), "--k", "1,5,10", "--json"]
    result = CliRunner().invoke(main, [*args, "--report", str(out)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == printed
    assert len(printed["query_latencies_ms"]) == printed["questions"]  # one per question (all have text)
    recall = _series(_svg(out / "locomo-evidence-recall-k.svg"))
    assert "1-4 (headline)" in recall and "4 single-hop" in recall
    headline = [
        (float(c.get("data-x")), float(c.get("data-y")))
        for c in recall["1-4 (headline)"].iter(f"{SVG}circle")
    ]
    assert headline == [(k, printed["recall"][str(int(k))]) for k in (1, 5, 10)]
    latency = _series(_svg(out / "locomo-query-latency.svg"))
    assert int(latency["Retrieve"].get("data-n")) == len(printed["query_latencies_ms"])
    page = _Page((out / "index.html").read_text(encoding="utf-8"))
    assert page.h2 == ["Evidence recall@k", "Query latency", "Evidence ids"]
    assert "script" not in page.tags and page.external == []
    assert "locomo-evidence-recall-k.svg" in (out / "report.md").read_text(encoding="utf-8")


def test_locomo_context_report_draws_the_recall_token_curve(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMQL_EMBEDDER", "none")
    out = tmp_path / "context"
    args = ["bench", "locomo", "--data", str(FIXTURES / "locomo-mini.json"), "--mode", "flat,tiers"]
    result = CliRunner().invoke(main, [*args, "--budget", "60,400", "--json", "--report", str(out)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == printed
    curve = _series(_svg(out / "recall-vs-context-tokens.svg"))
    assert set(curve) == {"flat (offline)", "tiers (offline)"}
    for mode in ("flat", "tiers"):
        points = [
            (float(c.get("data-x")), float(c.get("data-y")))
            for c in curve[f"{mode} (offline)"].iter(f"{SVG}circle")
        ]
        assert points == [(p["context_tokens"], p["recall"]) for p in printed["curve"][mode]]
        assert all(x <= p["budget"] for (x, _), p in zip(points, printed["curve"][mode], strict=True))
    page = _Page((out / "index.html").read_text(encoding="utf-8"))
    assert page.h2[0] == "Evidence recall against context tokens"
    assert "script" not in page.tags and page.external == []


def test_text2mem_report_end_to_end(tmp_path):
    out = tmp_path / "t2m"
    args = [
        "bench",
        "text2mem",
        "--data",
        str(FIXTURES / "text2mem-mini.jsonl"),
        "--json",
        "--report",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == printed
    bars = _series(_svg(out / "esr-and-emr-per-verb.svg"))
    assert set(bars) == {"ESR", "EMR"}
    esr = {r.get("data-category"): float(r.get("data-value")) for r in bars["ESR"].iter(f"{SVG}rect")}
    assert esr == {verb: row["esr"] for verb, row in printed["by_op"].items()}
    page = _Page((out / "index.html").read_text(encoding="utf-8"))
    assert page.h2[:2] == ["Headline", "By verb"] and page.h2[-1] == "Failures"


def test_perf_report_end_to_end(tmp_path):
    out = tmp_path / "perf"
    args = ["bench", "perf", "--sizes", "60,120", "--queries", "6", "--encode-ops", "10", "--no-dense"]
    result = CliRunner().invoke(
        main, [*args, "--db", str(tmp_path / "stores"), "--json", "--report", str(out)]
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == printed
    block = printed["retrieve"]["120"]["search"]
    assert len(block["memql_latencies_ms"]) == len(block["raw_latencies_ms"]) == 6
    lines = _series(_svg(out / "retrieve-search-latency.svg"))
    assert set(lines) == {"memql p50", "memql p95", "raw p50", "raw p95"}
    p95 = [(float(c.get("data-x")), float(c.get("data-y"))) for c in lines["memql p95"].iter(f"{SVG}circle")]
    assert p95 == [(size, printed["retrieve"][str(size)]["search"]["memql_p95_ms"]) for size in (60, 120)]
    distribution = _series(_svg(out / "retrieve-latency-distribution-at-120-records.svg"))
    assert set(distribution) == {"memql search", "raw search", "memql tag filter", "raw tag filter"}
    page = _Page((out / "index.html").read_text(encoding="utf-8"))
    assert page.h2 == ["Encode throughput", "Retrieve latency by store size"]


def test_an_unusable_report_dir_fails_before_the_bench_runs(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "text2mem",
            "--data",
            str(FIXTURES / "text2mem-mini.jsonl"),
            "--report",
            str(blocker / "sub"),
        ],
    )
    assert result.exit_code == 2
    assert "--report" in result.stderr and "Traceback" not in result.output


def test_a_report_that_cannot_be_written_loses_no_results(tmp_path):
    out = tmp_path / "t2m"
    (out / "index.html").mkdir(parents=True)  # where the page should go, a folder stands
    args = [
        "bench",
        "text2mem",
        "--data",
        str(FIXTURES / "text2mem-mini.jsonl"),
        "--json",
        "--report",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert json.loads(result.stdout)["n"] == 10  # the results were printed first
    assert "cannot write the report" in result.stderr and "Traceback" not in result.output
