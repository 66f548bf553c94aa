"""Reading the dashboard's pages in tests: the diagnostics, warnings and rows its templates mark up."""

from __future__ import annotations

import html
import re

_FINDING = re.compile(r'<code class="rule">([^<]+)</code> at <code class="path">([^<]*)</code>')


def _section(page: str, name: str) -> str:
    found = re.search(rf'<section class="{name}"[^>]*>(.*?)</section>', page, re.S)
    return found.group(1) if found else ""


def refusals(page: str) -> list[tuple[str, str]]:
    """(rule, path) of each diagnostic the page shows as refusing the request."""
    return [(rule, html.unescape(path)) for rule, path in _FINDING.findall(_section(page, "diagnostics"))]


def warnings(page: str) -> list[tuple[str, str]]:
    return [(rule, html.unescape(path)) for rule, path in _FINDING.findall(_section(page, "warnings"))]


def row_ids(page: str) -> list[str]:
    """The record ids of a result table, in order."""
    body = re.search(r'<table class="rows[^"]*">.*?<tbody>(.*?)</tbody>', page, re.S)
    return re.findall(r'<tr>\s*<td><a href="/memories/([^"]+)">', body.group(1)) if body else []


def proposal_ids(page: str) -> list[str]:
    return re.findall(r'<li class="proposal" id="proposal-([^"]+)">', page)


def timeline(page: str) -> list[tuple[str, str, str]]:
    """(op, change, proposal step or "") of each history event, oldest first."""
    events = re.findall(r'<li class="event event-[^"]+">(.*?)</li>', _section(page, "history"), re.S)
    out = []
    for event in events:
        op = re.search(r'<strong class="op">([^<]+)</strong>', event).group(1)
        change = re.search(r'<span class="change">([^<]+)</span>', event).group(1)
        step = re.search(r'<span class="proposal">([^<]+)</span>', event)
        out.append((op, change, step.group(1) if step else ""))
    return out


def lineage(page: str) -> list[tuple[str, str]]:
    """(label, other record id) of each lineage link."""
    return re.findall(
        r'<li class="link-[^"]+">([^<]+?) <a href="/memories/([^"]+)">', _section(page, "lineage")
    )
