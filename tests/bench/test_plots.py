"""memql.bench.plots: every chart is well-formed SVG whose series, points, bars and bins say (in data-*
attributes, and by position) exactly what was plotted."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from memql.bench.plots import BarPlot, Histogram, LinePlot, cdf, format_number, log_ticks, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == f"{SVG}svg"
    return root


def series(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-series"): g for g in root.iter(f"{SVG}g") if g.get("class") == "series"}


def test_a_line_plot_draws_every_series_and_point_in_x_order():
    plot = LinePlot(
        "Recall <by> k & category",
        {"1 multi-hop": [(10, 0.5), (1, 0.2), (5, 0.4)], "1-4 (headline)": [(1, 0.3), (20, 0.9)]},
        x_label="k",
        y_label="recall",
        y_min=0.0,
        y_max=1.0,
    )
    root = parse(plot.svg())
    assert root.find(f"{SVG}title").text == "Recall <by> k & category"
    drawn = series(root)
    assert list(drawn) == ["1 multi-hop", "1-4 (headline)"]
    points = [
        (float(c.get("data-x")), float(c.get("data-y"))) for c in drawn["1 multi-hop"].iter(f"{SVG}circle")
    ]
    assert points == [(1, 0.2), (5, 0.4), (10, 0.5)]
    # the polyline goes left to right, higher values drawn higher (smaller y)
    coords = [
        tuple(map(float, p.split(",")))
        for p in drawn["1 multi-hop"].find(f"{SVG}polyline").get("points").split()
    ]
    assert [x for x, _ in coords] == sorted(x for x, _ in coords)
    assert coords[0][1] > coords[-1][1]
    legend = [g.get("data-series") for g in root.iter(f"{SVG}g") if g.get("class") == "legend-item"]
    assert legend == ["1 multi-hop", "1-4 (headline)"]
    labels = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "axis-label"}
    assert labels == {"k", "recall"}


def test_fixed_y_ends_put_zero_at_the_axis_and_one_at_the_top():
    root = parse(LinePlot("r", {"a": [(1, 0.0), (2, 1.0)]}, y_min=0.0, y_max=1.0).svg())
    ys = [float(c.get("cy")) for c in root.iter(f"{SVG}circle")]
    ticks = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "tick"]
    assert ys[0] > ys[1]
    assert ticks[:6] == ["0", "0.2", "0.4", "0.6", "0.8", "1"]


def test_a_log_x_axis_spaces_decades_evenly():
    root = parse(
        LinePlot("sizes", {"p50": [(10_000, 1.0), (100_000, 2.0), (1_000_000, 3.0)]}, x_log=True).svg()
    )
    xs = [float(c.get("cx")) for c in root.iter(f"{SVG}circle")]
    assert xs[1] - xs[0] == pytest.approx(xs[2] - xs[1])
    ticks = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "tick"]
    assert {"10k", "100k", "1M"} <= set(ticks)


def test_a_dense_curve_without_markers_keeps_its_polyline():
    root = parse(LinePlot("cdf", {"q": cdf([3.0, 1.0, 2.0, 2.0])}, markers=False).svg())
    assert not list(root.iter(f"{SVG}circle"))
    assert len(series(root)["q"].find(f"{SVG}polyline").get("points").split()) == 3


def test_cdf_is_the_share_at_or_below_each_distinct_value():
    assert cdf([3.0, 1.0, 2.0, 2.0]) == [(1.0, 0.25), (2.0, 0.75), (3.0, 1.0)]
    assert cdf([]) == []


def test_a_bar_plot_draws_one_bar_per_category_and_series_with_its_value():
    plot = BarPlot("ESR and EMR", ["Encode", "Retrieve"], {"ESR": [1.0, 0.9], "EMR": [0.5, 0.25]}, y_max=1.0)
    root = parse(plot.svg())
    drawn = series(root)
    assert set(drawn) == {"ESR", "EMR"}
    bars = {
        (name, r.get("data-category")): (float(r.get("data-value")), float(r.get("height")))
        for name, g in drawn.items()
        for r in g.iter(f"{SVG}rect")
    }
    assert {k: v for k, (v, _) in bars.items()} == {
        ("ESR", "Encode"): 1.0,
        ("ESR", "Retrieve"): 0.9,
        ("EMR", "Encode"): 0.5,
        ("EMR", "Retrieve"): 0.25,
    }
    # heights are proportional to the values on an axis from 0 to 1
    assert bars[("EMR", "Encode")][1] == pytest.approx(2 * bars[("EMR", "Retrieve")][1], rel=0.01)
    categories = [t.text for t in root.iter(f"{SVG}text") if "category" in (t.get("class") or "")]
    assert categories == ["Encode", "Retrieve"]


def test_a_bar_series_must_match_the_categories():
    with pytest.raises(ValueError, match="series 'ESR' has 1 values for 2 categories"):
        BarPlot("x", ["a", "b"], {"ESR": [1.0]})


def test_a_histogram_counts_every_value_once_in_shared_bins():
    samples = {"memql": [1.0, 2.0, 2.5, 9.0, 10.0], "raw": [0.5, 1.0]}
    plot = Histogram("latency", samples, x_label="ms", bins=4)
    edges, counts = plot.binned()
    assert edges[0] == 0.5 and edges[-1] == 10.0 and len(edges) == 5
    # bins of 2.375 from 0.5: [0.5, 2.875) [2.875, 5.25) [5.25, 7.625) [7.625, 10]
    assert counts == {"memql": [3, 0, 0, 2], "raw": [2, 0, 0, 0]}
    root = parse(plot.svg())
    drawn = series(root)
    assert {name: int(g.get("data-n")) for name, g in drawn.items()} == {"memql": 5, "raw": 2}
    memql = [int(r.get("data-count")) for r in drawn["memql"].iter(f"{SVG}rect")]
    assert memql == [3, 0, 0, 2]


def test_empty_charts_are_still_valid_svg_that_say_so():
    for plot in (LinePlot("e", {}), Histogram("e", {"q": []}), BarPlot("e", [], {})):
        root = parse(plot.svg())
        assert any(t.get("class") == "empty" for t in root.iter(f"{SVG}text"))


def test_ticks_are_round_and_cover_the_range():
    assert nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    ticks = nice_ticks(0.13, 7.9)
    assert ticks[0] <= 0.13 and ticks[-1] >= 7.9 and ticks == [0, 2, 4, 6, 8]
    assert nice_ticks(3, 3)[0] < 3 < nice_ticks(3, 3)[-1]
    assert log_ticks(12_000, 900_000) == [10_000, 100_000, 1_000_000]
    assert [format_number(v) for v in (10_000, 1_500_000, 0.25, 12)] == ["10k", "1.5M", "0.25", "12"]
    with pytest.raises(ValueError):
        nice_ticks(0, float("inf"))


def test_bar_labels_wider_than_their_group_are_slanted():
    few = parse(BarPlot("few", ["Encode", "Label"], {"ESR": [1.0, 1.0]}).svg())
    verbs = ["Encode", "Retrieve", "Summarize", "Update", "Label", "Promote", "Demote", "Merge", "Split"]
    many = parse(BarPlot("many", verbs, {"ESR": [1.0] * len(verbs)}).svg())

    def slanted(root):
        return [t.get("transform") for t in root.iter(f"{SVG}text") if "category" in (t.get("class") or "")]

    assert slanted(few) == [None, None]
    assert all(t and t.startswith("rotate(-30") for t in slanted(many))
