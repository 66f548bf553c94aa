"""Bench reports on disk: titled sections of text, tables and plots, rendered as HTML and as Markdown.

``Report.write(directory)`` writes

- ``index.html``: one self-contained page (inline CSS, plots inlined as SVG; no script, nothing fetched),
- ``report.md`` with one ``.svg`` file per plot beside it, for Markdown readers (GitHub, editors),
- ``results.json``: the bench's JSON report, exactly what ``--json`` prints.

A section is a list of blocks in reading order: a ``str`` is a paragraph, a ``Table`` a table, and any
plot of memql.bench.plots a figure. Bench-specific pages are built in memql.bench.report_pages.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from memql.bench.plots import BarPlot, Histogram, LinePlot, Plot
from memql.lang.encoding import json_default

FILES = ("index.html", "report.md", "results.json")

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 980px;
       padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
p.subtitle { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 1rem 0; font-size: .92rem; }
th, td { border: 1px solid #ddd; padding: .3rem .6rem; }
th { background: #f5f5f5; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { caption-side: bottom; color: #666; font-size: .85rem; padding-top: .3rem; text-align: left; }
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
nav ul { columns: 2; } footer { margin-top: 3rem; color: #888; font-size: .85rem; }
"""


@dataclass
class Table:
    """Rows of already formatted cells under column names; numbers are right-aligned in HTML."""

    columns: list[str]
    rows: list[list[Any]]
    caption: str = ""

    def __post_init__(self) -> None:
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(f"table row {i} has {len(row)} cells for {len(self.columns)} columns")


Block = str | Table | LinePlot | BarPlot | Histogram


@dataclass
class Section:
    title: str
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block) -> Section:
        self.blocks.extend(blocks)
        return self


@dataclass
class Report:
    title: str
    sections: list[Section] = field(default_factory=list)
    results: Any = None  # the bench's JSON report, written as results.json
    subtitle: str = ""

    def section(self, title: str) -> Section | None:
        """The section with this title (for adding a plot to a page built elsewhere)."""
        return next((s for s in self.sections if s.title == title), None)

    def plot_files(self) -> dict[int, str]:
        """A distinct file name for every plot, by its id(): a slug of its title."""
        names: dict[int, str] = {}
        taken: set[str] = set()
        for section in self.sections:
            for block in section.blocks:
                if isinstance(block, LinePlot | BarPlot | Histogram):
                    stem = _slug(block.title) or "plot"
                    name, n = f"{stem}.svg", 2
                    while name in taken:
                        name, n = f"{stem}-{n}.svg", n + 1
                    taken.add(name)
                    names[id(block)] = name
        return names

    def html(self) -> str:
        out = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(self.title)}</title><style>{_CSS}</style></head><body>",
            f"<h1>{escape(self.title)}</h1>",
        ]
        if self.subtitle:
            out.append(f'<p class="subtitle">{escape(self.subtitle)}</p>')
        if len(self.sections) > 1:
            out.append("<nav><ul>")
            out += [f'<li><a href="#{_slug(s.title)}">{escape(s.title)}</a></li>' for s in self.sections]
            out.append("</ul></nav>")
        for section in self.sections:
            out.append(f'<section id="{_slug(section.title)}"><h2>{escape(section.title)}</h2>')
            for block in section.blocks:
                out.append(_html_block(block))
            out.append("</section>")
        out.append(
            "<footer>Written by memql bench; the numbers are in results.json beside this page.</footer>"
        )
        out.append("</body></html>")
        return "\n".join(out) + "\n"

    def markdown(self) -> str:
        files = self.plot_files()
        out = [f"# {self.title}", ""]
        if self.subtitle:
            out += [f"_{_md_text(self.subtitle)}_", ""]
        for section in self.sections:
            out += [f"## {section.title}", ""]
            for block in section.blocks:
                if isinstance(block, str):
                    out += [_md_text(block), ""]
                elif isinstance(block, Table):
                    out += [*_md_table(block), ""]
                else:
                    out += [f"![{_md_text(block.title)}]({files[id(block)]})", ""]
        out.append("The numbers are in results.json beside this file.")
        return "\n".join(out) + "\n"

    def write(self, directory: str | Path) -> list[Path]:
        """Write the page, the Markdown with its SVG files and results.json into `directory` (created if
        missing; files of an earlier report there are replaced). Returns the paths written."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        plots = {id(b): b for s in self.sections for b in s.blocks if not isinstance(b, str | Table)}
        for key, name in self.plot_files().items():
            written.append(_write(folder / name, plots[key].svg()))
        written.append(_write(folder / "index.html", self.html()))
        written.append(_write(folder / "report.md", self.markdown()))
        results = json.dumps(self.results, ensure_ascii=False, indent=2, default=json_default) + "\n"
        written.append(_write(folder / "results.json", results))
        return written


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")


def _is_number(cell: Any) -> bool:
    if isinstance(cell, int | float):
        return True
    return bool(re.fullmatch(r"[-+]?[\d,.]+\s*(%|×|ms|s)?", str(cell).strip()))


def _html_block(block: Block) -> str:
    if isinstance(block, str):
        return f"<p>{escape(block)}</p>"
    if isinstance(block, Table):
        head = "".join(f"<th>{escape(str(c))}</th>" for c in block.columns)
        rows = [
            "<tr>"
            + "".join(
                f'<td class="num">{escape(str(c))}</td>' if _is_number(c) else f"<td>{escape(str(c))}</td>"
                for c in row
            )
            + "</tr>"
            for row in block.rows
        ]
        caption = f"<caption>{escape(block.caption)}</caption>" if block.caption else ""
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    plot: Plot = block
    return f'<figure class="plot">{plot.svg()}</figure>'


def _md_text(text: str) -> str:
    return text.replace("\n", " ")


def _md_cell(cell: Any) -> str:
    return str(cell).replace("|", "\\|").replace("\n", " ")


def _md_table(table: Table) -> list[str]:
    lines = [
        "| " + " | ".join(_md_cell(c) for c in table.columns) + " |",
        "|" + "|".join("---:" if i else "---" for i in range(len(table.columns))) + "|",
    ]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
    if table.caption:
        lines += ["", f"_{_md_text(table.caption)}_"]
    return lines
