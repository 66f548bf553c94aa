"""`memql bench conversation`: the synthetic conversation generator and the report's invariants."""

from __future__ import annotations

import itertools
import json

from click.testing import CliRunner

from memql.bench.conversation import TOPICS, synthetic_turns
from memql.interfaces.cli import main


def test_the_generator_is_deterministic_and_topics_recur():
    first = list(synthetic_turns(200, seed=1))
    assert first == list(synthetic_turns(200, seed=1)) and first != list(synthetic_turns(200, seed=2))
    topics = [t.topic for t in first]
    hot = {name for name, _, _ in TOPICS[:5]}
    assert sum(t in hot for t in topics) > len(topics) / 2  # a few topics come back again and again
    assert all(b.time > a.time for a, b in itertools.pairwise(first))


def test_the_report_shows_bounded_tiers_evictions_and_promotions_with_their_audit_notes():
    result = CliRunner().invoke(main, ["bench", "conversation", "--turns", "80", "--mtm", "4", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["turns"] == 80 and report["within_capacity"] is True
    assert (
        report["sizes"]["mtm"] <= 4
        and report["sizes"]["stm"] <= 7
        and report["sizes"]["lpm_knowledge"] <= 100
    )
    assert report["evictions"] > 0 and report["promotions"] > 0
    assert report["segments_created"] - report["evictions"] == report["sizes"]["mtm"]
    assert all(e["note"].startswith("tiers: evict coldest MTM segment") for e in report["audit"]["evictions"])
    assert report["audit"]["promotions"] and all("> τ" in p["note"] for p in report["audit"]["promotions"])
    assert report["peak_python_mb"] > 0


def test_a_bad_option_is_a_usage_error():
    result = CliRunner().invoke(main, ["bench", "conversation", "--turns", "0"])
    assert result.exit_code == 2 and "--turns" in result.output
