"""`memql bench state`: the data loader, the history-aware scoring rule, the flat baseline, the CLI, and the
shipped state-v1 set. The extraction-mode tests run once `Memory.conversation` takes `extractor=`."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from memql.bench import sets
from memql.bench.state import evaluate, outside_history, score_context
from memql.bench.state_data import StateDataError, load_items, parse_line
from memql.interfaces.cli import main
from memql.memory import Memory

ROOT = Path(__file__).resolve().parents[2]
HAS_EXTRACTOR = "extractor" in inspect.signature(Memory.conversation).parameters
needs_extractor = pytest.mark.skipif(
    not HAS_EXTRACTOR, reason="Memory.conversation has no extractor parameter yet (issue 17 formation)"
)


def _item(**changes):
    item = {
        "id": "t-1",
        "construct": "correction",
        "lang": "en",
        "split": "dev",
        "sessions": [
            {
                "time": "2026-03-02T09:00:00Z",
                "turns": [
                    {"speaker": "Mira", "text": "My passport renewal deadline is July 15."},
                    {"speaker": "assistant", "text": "Noted."},
                ],
            },
            {
                "time": "2026-03-20T18:00:00Z",
                "turns": [{"speaker": "Mira", "text": "Correction: the passport deadline is June 30."}],
            },
        ],
        "questions": [
            {
                "q": "When is Mira's passport renewal due?",
                "as_of": None,
                "answer": ["June 30", "2026-06-30"],
                "stale": ["July 15", "2026-07-15"],
                "kind": "current",
            },
            {
                "q": "What was Mira's passport deadline in early March?",
                "as_of": "2026-03-10T00:00:00Z",
                "answer": ["July 15"],
                "stale": ["June 30"],
                "kind": "past",
            },
        ],
    }
    item.update(changes)
    return item


SINGLE_FACT = {
    "id": "t-2",
    "lang": "zh",
    "split": "heldout",
    "sessions": [
        {
            "time": "2026-05-06T02:00:00Z",
            "turns": [
                {"speaker": "小林", "text": "我住在杭州。"},
                {"speaker": "assistant", "text": "好的。"},
            ],
        }
    ],
    "questions": [{"q": "小林住在哪里？", "as_of": None, "answer": ["杭州"], "stale": [], "kind": "current"}],
}


def _write(tmp_path: Path, *items) -> Path:
    path = tmp_path / "state.jsonl"
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    return path


# --- the loader -------------------------------------------------------------------------------


def test_loader_reads_good_lines_and_finds_the_user(tmp_path: Path) -> None:
    items = load_items(_write(tmp_path, _item(), SINGLE_FACT))
    assert [i.id for i in items] == ["t-1", "t-2"]
    assert items[0].user == "Mira" and items[1].user == "小林"
    assert items[0].questions[1].as_of.isoformat() == "2026-03-10T00:00:00+00:00"
    assert items[1].split == "heldout"


def test_split_is_optional_for_items_from_elsewhere() -> None:
    raw = _item()
    del raw["split"]
    assert parse_line(json.dumps(raw)).split is None


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"lang": "fr"}, "/lang"),
        ({"sessions": []}, "/sessions"),
        ({"questions": [{"q": "x", "answer": ["a"], "kind": "now"}]}, "/questions/0/kind"),
        ({"questions": [{"q": "x", "answer": [], "kind": "current"}]}, "/questions/0/answer"),
    ],
)
def test_a_bad_field_is_named_with_its_line(tmp_path: Path, change: dict, where: str) -> None:
    path = _write(tmp_path, SINGLE_FACT, _item(**change))
    with pytest.raises(StateDataError) as caught:
        load_items(path)
    message = str(caught.value)
    assert f"{path}:2 (item 't-1'): {where}" in message


def test_loader_rules_beyond_types(tmp_path: Path) -> None:
    past_without_as_of = _item()
    past_without_as_of["questions"][1]["as_of"] = None
    with pytest.raises(StateDataError, match="'past' question needs as_of"):
        parse_line(json.dumps(past_without_as_of))
    overlapping = _item()
    overlapping["questions"][0]["stale"] = ["June 30 2026"]
    with pytest.raises(StateDataError, match="overlap"):
        parse_line(json.dumps(overlapping))
    naive = _item()
    naive["sessions"][0]["time"] = "2026-03-02T09:00:00"
    with pytest.raises(StateDataError, match="timezone"):
        parse_line(json.dumps(naive))
    reversed_sessions = _item(sessions=list(reversed(_item()["sessions"])))
    with pytest.raises(StateDataError, match="time order"):
        parse_line(json.dumps(reversed_sessions))
    only_assistant = _item()
    assistant_turn = {"speaker": "assistant", "text": "hi"}
    only_assistant["sessions"] = [{"time": "2026-03-02T09:00:00Z", "turns": [assistant_turn]}]
    with pytest.raises(StateDataError, match="other than 'assistant'"):
        parse_line(json.dumps(only_assistant))
    with pytest.raises(StateDataError, match=r"<data>:1: not JSON"):
        parse_line("{nope")
    with pytest.raises(StateDataError, match=r"already used on line 1"):
        load_items(_write(tmp_path, SINGLE_FACT, SINGLE_FACT))


# --- the scoring rule ------------------------------------------------------------------------


def test_right_needs_an_answer_and_no_stale_value() -> None:
    assert score_context("passport deadline: June 30", ["june 30"], ["July 15"])
    assert not score_context("passport deadline: June 1", ["June 30"], ["July 15"])
    assert not score_context("deadline June 30\nearlier: July 15", ["June 30"], ["July 15"])


def test_a_stale_value_inside_a_history_label_is_allowed() -> None:
    labelled = "passport deadline: June 30 [M3]\n  until 2026-03-20: July 15 [M1]"
    assert score_context(labelled, ["June 30"], ["July 15"])
    inline = "passport deadline: June 30 (until 2026-03-20T18:30:00Z: July 15)"
    assert score_context(inline, ["June 30"], ["July 15"])
    assert score_context("deadline: June 30\nHistory: July 15, then June 30", ["June 30"], ["July 15"])
    assert score_context("截止日期：6月30日\n历史：7月15日", ["6月30日"], ["7月15日"])
    # the label covers what follows it on its line, not what precedes it nor the next line
    assert not score_context("July 15, until 2026-03-20: June 30", ["June 30"], ["July 15"])
    assert not score_context("until 2026-03-20: x\nJuly 15", ["x"], ["July 15"])
    # only an ISO date makes "until" a label: words in a message do not
    assert not score_context("June 30. Keep it until Friday: July 15", ["June 30"], ["July 15"])


def test_outside_history_cuts_each_line_at_its_label() -> None:
    text = "a until 2026-03-20: b\nc\nhistory: d"
    assert outside_history(text) == "a \nc\n"


# --- the flat baseline -------------------------------------------------------------------------


def test_baseline_on_a_fixture_the_test_owns(tmp_path: Path) -> None:
    items = load_items(_write(tmp_path, _item(), SINGLE_FACT))
    report = evaluate(items, extractor=None, embedder="none")
    # flat shows both passport messages (stale July 15 outside history: wrong both times); the single fact
    # is right
    assert report["n"] == 3
    assert report["accuracy"] == pytest.approx(1 / 3, abs=1e-4)
    assert report["baseline_flat"] == report["accuracy"]
    assert report["by_kind"] == {"current": 0.5, "past": 0.0}
    assert report["by_lang"] == {"en": 0.0, "zh": 1.0}
    assert report["by_split"] == {"dev": 0.0, "heldout": 1.0}
    assert report["by_construct"] == {"correction": 0.0, "unknown": 1.0}
    assert report["by_split_kind"] == {"dev": {"current": 0.0, "past": 0.0}, "heldout": {"current": 1.0}}
    assert {w["id"] for w in report["wrong"]} == {"t-1"} and "context" not in report["wrong"][0]


def test_a_third_speaker_and_a_tight_budget(tmp_path: Path) -> None:
    item = _item()
    item["sessions"][0]["turns"].append({"speaker": "Ana", "text": "Hi, I'm Mira's sister."})
    # 5 tokens fit no message: the answer is absent, so the question is wrong, not an error
    report = evaluate(load_items(_write(tmp_path, item)), extractor=None, embedder="none", budget=5)
    assert report["accuracy"] == 0.0 and report["budget"] == 5


# --- the CLI ---------------------------------------------------------------------------------


def test_cli_json_shape(tmp_path: Path) -> None:
    path = _write(tmp_path, _item(), SINGLE_FACT)
    args = ["bench", "state", "--data", str(path), "--extractor", "none", "--embedder", "none", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {"accuracy", "by_kind", "by_lang", "by_split", "n", "baseline_flat"} <= set(report)
    assert report["n"] == 3 and report["extractor"] == "none"
    only_heldout = CliRunner().invoke(main, [*args, "--split", "heldout"])
    assert json.loads(only_heldout.stdout)["n"] == 1
    with_contexts = json.loads(CliRunner().invoke(main, [*args, "--contexts"]).stdout)
    # the miss shows what flat gave: both deadlines, the stale one outside any history label
    assert "July 15" in with_contexts["wrong"][0]["context"]


def test_cli_bad_data_is_a_diagnostic(tmp_path: Path) -> None:
    path = _write(tmp_path, _item(lang="fr"))
    result = CliRunner().invoke(main, ["bench", "state", "--data", str(path), "--extractor", "none"])
    assert result.exit_code == 2
    assert f"{path}:1 (item 't-1'): /lang" in result.output
    assert "Traceback" not in result.output
    unknown = CliRunner().invoke(main, ["bench", "state", "--data", "state-v9"])
    assert unknown.exit_code == 2 and "state-v1" in unknown.output


# --- the shipped set -------------------------------------------------------------------------


def test_state_v1_is_shipped_balanced_and_split() -> None:
    items = load_items(sets.path("state-v1"))
    assert len(items) >= 120
    langs = Counter(i.lang for i in items)
    assert abs(langs["en"] - langs["zh"]) <= 4
    for lang in ("en", "zh"):
        splits = Counter(i.split for i in items if i.lang == lang)
        assert set(splits) == {"dev", "heldout"} and abs(splits["dev"] - splits["heldout"]) <= 4
    kinds = Counter(q.kind for i in items for q in i.questions)
    assert kinds["past"] >= 40 and kinds["current"] >= 120
    raw = [json.loads(line) for line in sets.path("state-v1").read_text(encoding="utf-8").splitlines()]
    constructs = {(r["lang"], r["construct"], r["split"]) for r in raw}
    for lang in ("en", "zh"):
        for construct in ("change", "correction", "third-party", "other-subject", "twice", "relative"):
            assert {(lang, construct, "dev"), (lang, construct, "heldout")} <= constructs


def test_state_v1_is_what_its_generator_writes() -> None:
    cmd = [sys.executable, "-m", "benchmarks.state_set", "--check", str(sets.path("state-v1"))]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# --- the extraction mode (runs once the formation interface exists) --------------------------


@needs_extractor
def test_rules_extraction_answers_current_and_past(tmp_path: Path) -> None:
    items = load_items(_write(tmp_path, _item(), SINGLE_FACT))
    report = evaluate(items, extractor="rules", embedder="none")
    assert report["extractor"] == "rules"
    assert report["by_kind"] == {"current": 1.0, "past": 1.0}
    assert report["baseline_flat"] == pytest.approx(1 / 3, abs=1e-4)  # the same run's flat baseline


@needs_extractor
def test_cli_rules_json_shape(tmp_path: Path) -> None:
    path = _write(tmp_path, _item())
    result = CliRunner().invoke(main, ["bench", "state", "--data", str(path), "--embedder", "none", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["extractor"] == "rules" and report["n"] == 2
    assert report["baseline"]["accuracy"] == report["baseline_flat"] == 0.0
