"""Small, dependency-free SVG charts for bench reports: line charts, grouped bar charts, histograms.

Each chart is pure data with an ``svg()`` method returning one standalone ``<svg>`` element (no script,
no external font or stylesheet), so it can be inlined in HTML or saved as a ``.svg`` file for Markdown.
Every drawn point, bar and bin carries ``data-*`` attributes with its series and values: the picture can
be checked by parsing it, and a reader's tools can pull the numbers back out.

    LinePlot("Recall@k", {"BM25": [(1, 0.2), (10, 0.57)]}, x_label="k", y_label="recall").svg()
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

WIDTH, HEIGHT = 780, 380
LEFT, RIGHT, TOP, BOTTOM = 64, 560, 40, 320  # the plot area; the legend sits right of it
PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values (steps of 1, 2, 2.5 or 5 times a power of ten) covering [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError("axis bounds must be finite numbers")
    if hi <= lo:
        lo, hi = (lo - 0.5, hi + 0.5) if lo == hi else (hi, lo)
    raw = (hi - lo) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = math.floor(lo / step + 1e-9) * step
    ticks = [start]
    while ticks[-1] < hi - 1e-9 * step:
        ticks.append(start + len(ticks) * step)
    return [round(t, 10) for t in ticks]


def log_ticks(lo: float, hi: float) -> list[float]:
    """Powers of ten covering [lo, hi] (both > 0)."""
    if lo <= 0:
        raise ValueError("a logarithmic axis needs positive values")
    return [10.0**e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)] or [lo]


def format_number(value: float) -> str:
    """A tick label: 10k, 1M, 0.25, 12."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size and (value / size) == round(value / size, 1):
            return f"{value / size:g}{suffix}"
    return f"{value:.4g}"


@dataclass
class _Axis:
    lo: float
    hi: float
    ticks: list[float]
    log: bool = False

    @classmethod
    def fit(
        cls, values: Sequence[float], log: bool = False, lo: float | None = None, hi: float | None = None
    ):
        values = [v for v in values if math.isfinite(v)] or [0.0, 1.0]
        low = min(values) if lo is None else lo
        high = max(values) if hi is None else hi
        if log:
            ticks = log_ticks(low, max(high, low))
            return cls(ticks[0], ticks[-1] if ticks[-1] > ticks[0] else ticks[0] * 10, ticks, True)
        ticks = nice_ticks(low, high)
        return cls(ticks[0], ticks[-1], ticks)

    def share(self, value: float) -> float:
        """Where `value` falls between the axis ends, 0..1."""
        if self.log:
            lo, hi, value = math.log10(self.lo), math.log10(self.hi), math.log10(max(value, 1e-300))
        else:
            lo, hi = self.lo, self.hi
        return (value - lo) / (hi - lo) if hi != lo else 0.5


def _x(axis: _Axis, value: float) -> float:
    return round(LEFT + axis.share(value) * (RIGHT - LEFT), 2)


def _y(axis: _Axis, value: float) -> float:
    return round(BOTTOM - axis.share(value) * (BOTTOM - TOP), 2)


def _open(title: str, kind: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="memql-plot" data-kind="{kind}" '
        f'aria-label={quoteattr(title)} font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">'
        f"{escape(title)}</text>",
    ]


def _y_axis(out: list[str], axis: _Axis, label: str) -> None:
    for tick in axis.ticks:
        y = _y(axis, tick)
        out.append(f'<line class="grid" x1="{LEFT}" x2="{RIGHT}" y1="{y}" y2="{y}" stroke="#e5e5e5"/>')
        out.append(
            f'<text class="tick" x="{LEFT - 6}" y="{y + 4}" text-anchor="end">{format_number(tick)}</text>'
        )
    out.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{BOTTOM}" stroke="#333"/>')
    if label:
        out.append(
            f'<text class="axis-label" x="16" y="{(TOP + BOTTOM) / 2}" text-anchor="middle" '
            f'transform="rotate(-90 16 {(TOP + BOTTOM) / 2})">{escape(label)}</text>'
        )


def _x_ticks(out: list[str], axis: _Axis) -> None:
    for tick in axis.ticks:
        x, label = _x(axis, tick), format_number(tick)
        out.append(f'<line x1="{x}" x2="{x}" y1="{BOTTOM}" y2="{BOTTOM + 4}" stroke="#333"/>')
        out.append(f'<text class="tick" x="{x}" y="{BOTTOM + 18}" text-anchor="middle">{label}</text>')


def _x_label(out: list[str], label: str) -> None:
    out.append(f'<line x1="{LEFT}" x2="{RIGHT}" y1="{BOTTOM}" y2="{BOTTOM}" stroke="#333"/>')
    if label:
        out.append(
            f'<text class="axis-label" x="{(LEFT + RIGHT) / 2}" y="{HEIGHT - 12}" text-anchor="middle">'
            f"{escape(label)}</text>"
        )


def _legend(out: list[str], names: Sequence[str]) -> None:
    for i, name in enumerate(names):
        y = TOP + 6 + i * 20
        colour = PALETTE[i % len(PALETTE)]
        out.append(
            f'<g class="legend-item" data-series={quoteattr(name)}>'
            f'<rect x="{RIGHT + 16}" y="{y - 9}" width="12" height="12" fill="{colour}"/>'
            f'<text x="{RIGHT + 34}" y="{y + 1}">{escape(name)}</text></g>'
        )


def _empty(out: list[str]) -> None:
    out.append(
        f'<text class="empty" x="{(LEFT + RIGHT) / 2}" y="{(TOP + BOTTOM) / 2}" text-anchor="middle" '
        f'fill="#777">no data</text>'
    )


@dataclass
class LinePlot:
    """Several series of (x, y) points, each drawn as a line with a marker per point."""

    title: str
    series: dict[str, list[tuple[float, float]]]
    x_label: str = ""
    y_label: str = ""
    x_log: bool = False  # e.g. store sizes 10k, 100k, 1M
    y_min: float | None = None  # fixed ends, e.g. 0 and 1 for a recall
    y_max: float | None = None
    markers: bool = True  # a circle per point; off for dense curves such as a CDF

    def svg(self) -> str:
        out = _open(self.title, "line")
        points = [p for pts in self.series.values() for p in pts]
        xs = _Axis.fit([x for x, _ in points], log=self.x_log)
        ys = _Axis.fit([y for _, y in points], lo=self.y_min, hi=self.y_max)
        _y_axis(out, ys, self.y_label)
        _x_ticks(out, xs)
        _x_label(out, self.x_label)
        if not points:
            _empty(out)
        for i, (name, pts) in enumerate(self.series.items()):
            colour = PALETTE[i % len(PALETTE)]
            ordered = sorted(pts)
            coords = " ".join(f"{_x(xs, x)},{_y(ys, y)}" for x, y in ordered)
            out.append(f'<g class="series" data-series={quoteattr(name)}>')
            out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"/>')
            for x, y in ordered if self.markers else ():
                out.append(
                    f'<circle class="point" cx="{_x(xs, x)}" cy="{_y(ys, y)}" r="3.5" fill="{colour}" '
                    f'data-x="{x:.10g}" data-y="{y:.10g}">'
                    f"<title>{escape(name)}: {x:g}, {y:g}</title></circle>"
                )
            out.append("</g>")
        _legend(out, list(self.series))
        return "\n".join([*out, "</svg>"]) + "\n"


@dataclass
class BarPlot:
    """Grouped bars: one group per category, one bar per series in each group."""

    title: str
    categories: list[str]
    series: dict[str, list[float]]  # one value per category, in the categories' order
    y_label: str = ""
    y_max: float | None = None

    def __post_init__(self) -> None:
        for name, values in self.series.items():
            if len(values) != len(self.categories):
                raise ValueError(
                    f"series {name!r} has {len(values)} values for {len(self.categories)} categories"
                )

    def svg(self) -> str:
        out = _open(self.title, "bar")
        values = [v for vs in self.series.values() for v in vs]
        ys = _Axis.fit([0.0, *values], lo=0.0, hi=self.y_max)
        _y_axis(out, ys, self.y_label)
        _x_label(out, "")
        if not values:
            _empty(out)
        group = (RIGHT - LEFT) / max(len(self.categories), 1)
        width = group * 0.8 / max(len(self.series), 1)
        crowded = group < 7 * max((len(c) for c in self.categories), default=0)  # ~7 px per character
        for c, category in enumerate(self.categories):
            centre, y = LEFT + group * (c + 0.5), BOTTOM + 16
            # labels wider than their group are slanted so neighbours do not overlap
            place = (
                f'text-anchor="end" transform="rotate(-30 {centre:.2f} {y})"'
                if crowded
                else 'text-anchor="middle"'
            )
            out.append(
                f'<text class="tick category" x="{centre:.2f}" y="{y}" {place}>{escape(category)}</text>'
            )
        for i, (name, vs) in enumerate(self.series.items()):
            colour = PALETTE[i % len(PALETTE)]
            out.append(f'<g class="series" data-series={quoteattr(name)}>')
            for c, (category, value) in enumerate(zip(self.categories, vs, strict=True)):
                x = LEFT + group * c + group * 0.1 + width * i
                top = _y(ys, value)
                out.append(
                    f'<rect class="bar" x="{x:.2f}" y="{top}" width="{width:.2f}" '
                    f'height="{BOTTOM - top:.2f}" '
                    f'fill="{colour}" data-category={quoteattr(category)} data-value="{value:.10g}">'
                    f"<title>{escape(name)}, {escape(category)}: {value:g}</title></rect>"
                )
            out.append("</g>")
        _legend(out, list(self.series))
        return "\n".join([*out, "</svg>"]) + "\n"


@dataclass
class Histogram:
    """How values spread: shared bins over all series, each series' counts drawn as translucent bars."""

    title: str
    samples: dict[str, list[float]]
    x_label: str = ""
    y_label: str = "count"
    bins: int = 24

    def binned(self) -> tuple[list[float], dict[str, list[int]]]:
        """The bin edges, and per series how many values fall in each bin (the last includes its upper
        edge); no edges when there are no values."""
        values = [v for vs in self.samples.values() for v in vs if math.isfinite(v)]
        if not values:
            return [], {name: [] for name in self.samples}
        lo, hi = min(values), max(values)
        if hi == lo:
            lo, hi = lo - 0.5, hi + 0.5
        step = (hi - lo) / self.bins
        edges = [lo + step * i for i in range(self.bins + 1)]
        out: dict[str, list[int]] = {}
        for name, vs in self.samples.items():
            counts = [0] * self.bins
            for v in vs:
                if math.isfinite(v):
                    counts[min(int((v - lo) / step), self.bins - 1)] += 1
            out[name] = counts
        return edges, out

    def svg(self) -> str:
        out = _open(self.title, "histogram")
        edges, counts = self.binned()
        if not edges:
            _y_axis(out, _Axis.fit([0.0, 1.0]), self.y_label)
            _x_label(out, self.x_label)
            _empty(out)
            _legend(out, list(self.samples))
            return "\n".join([*out, "</svg>"]) + "\n"
        xs = _Axis(edges[0], edges[-1], nice_ticks(edges[0], edges[-1]))
        xs.ticks = [t for t in xs.ticks if xs.lo <= t <= xs.hi]
        ys = _Axis.fit([0.0, *(c for cs in counts.values() for c in cs)], lo=0.0)
        _y_axis(out, ys, self.y_label)
        _x_ticks(out, xs)
        _x_label(out, self.x_label)
        for i, (name, cs) in enumerate(counts.items()):
            colour = PALETTE[i % len(PALETTE)]
            out.append(f'<g class="series" data-series={quoteattr(name)} data-n="{sum(cs)}">')
            for b, count in enumerate(cs):
                left, right = _x(xs, edges[b]), _x(xs, edges[b + 1])
                top = _y(ys, count)
                out.append(
                    f'<rect class="bin" x="{left}" y="{top}" width="{max(right - left - 1, 0.5):.2f}" '
                    f'height="{BOTTOM - top:.2f}" fill="{colour}" fill-opacity="0.55" '
                    f'data-lo="{edges[b]:.10g}" data-hi="{edges[b + 1]:.10g}" data-count="{count}">'
                    f"<title>{escape(name)}: {count} in [{edges[b]:.4g}, {edges[b + 1]:.4g})</title></rect>"
                )
            out.append("</g>")
        _legend(out, list(self.samples))
        return "\n".join([*out, "</svg>"]) + "\n"


def cdf(values: Sequence[float]) -> list[tuple[float, float]]:
    """The empirical distribution function of `values` as (value, share at or below it) points, for a
    LinePlot (one point per distinct value)."""
    ordered = sorted(v for v in values if math.isfinite(v))
    points: dict[float, float] = {}
    for i, v in enumerate(ordered, start=1):
        points[v] = i / len(ordered)
    return list(points.items())


Plot = LinePlot | BarPlot | Histogram
