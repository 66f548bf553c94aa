"""What the docs and schemas say a default is, checked against the code that applies it."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from memql.cognition.profile.promotion import PromotionConfig
from memql.engine.verbs import read as engine_read
from memql.lang import validate
from memql.lang.ops.read import DEFAULT_INCLUDE, RetrieveArgs

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_retrieve_include_default_is_the_one_the_engine_applies_and_the_schema_names():
    assert engine_read.DEFAULT_INCLUDE is DEFAULT_INCLUDE
    described = RetrieveArgs.model_json_schema()["properties"]["include"]["description"]
    assert described.endswith(f"(default: {', '.join(DEFAULT_INCLUDE)})")


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def test_promotion_defaults_in_docs_profile_are_the_config_defaults():
    page = (DOCS / "profile.md").read_text()
    section = page[page.index("## Promotion of episodes") :]
    checked = set()
    for f in fields(PromotionConfig):
        if isinstance(f.default, bool):
            continue
        row = re.search(rf"`{f.name}`[^\n]*\|\s*([\d.,]+)\s*\|\s*$", section, re.M)  # a table row
        prose = re.search(rf"`{f.name}` \(([\d.,]+)\)", section)  # "the newest `scan_limit` (10,000)"
        found = row or prose
        assert found is not None, f"{f.name} is not documented with its default"
        assert _number(found.group(1)) == f.default, f.name
        checked.add(f.name)
    assert {"min_confidence", "min_uses", "min_similar", "scan_limit", "neighbours"} <= checked


@pytest.mark.parametrize(
    "category, accepted",
    [
        ("a2p:preferences.travel", True),  # a standard name with a sub-category
        ("ext:spotify:music.playlists", True),  # ext:<vendor>:<name>
        ("a2p:hobbies", False),  # not one of the ten standard names
        ("ext:spotify", False),  # no name after the vendor
        ("custom/notes", False),  # neither namespace
    ],
)
def test_the_category_rule_docs_profile_states(category, accepted):
    row = next(
        line for line in (DOCS / "profile.md").read_text().splitlines() if line.startswith("| `category`")
    )
    assert "ten standard `a2p:` names or `ext:<vendor>:<name>`" in row
    checked = validate({"op": "Encode", "args": {"payload": {"text": "x"}, "category": category}})
    assert checked.valid is accepted, [d.message for d in checked.diagnostics]
