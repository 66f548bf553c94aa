"""The property tests' budgets (tests/budgets.py): what each profile runs, and the diagnostic for a profile
that does not exist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent


def _budgets_under(profile: str, *budgets: int) -> list[int]:
    code = f"import budgets; print(*(budgets.examples(n) for n in {budgets!r}))"
    env = {**os.environ, "MEMQL_HYPOTHESIS_PROFILE": profile}
    done = subprocess.run([sys.executable, "-c", code], cwd=TESTS, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return [int(n) for n in done.stdout.split()]


def test_ci_runs_a_quarter_between_the_floor_and_the_ceiling_and_thorough_runs_every_budget():
    assert _budgets_under("ci", 4000, 1200, 1000, 300, 40, 8) == [300, 300, 250, 75, 10, 8]
    assert _budgets_under("", 4000) == [300]  # unset or empty: ci
    assert _budgets_under("thorough", 4000, 300, 40, 8) == [4000, 300, 40, 8]


def test_an_unknown_profile_is_a_usage_error_naming_the_variable_and_the_choices():
    env = {**os.environ, "MEMQL_HYPOTHESIS_PROFILE": "fast"}
    args = [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "--collect-only", "-q"]
    done = subprocess.run(
        [*args, str(TESTS / "test_budgets.py")], cwd=TESTS.parent, env=env, capture_output=True, text=True
    )
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage error
    assert "MEMQL_HYPOTHESIS_PROFILE: must be one of ci, thorough (got 'fast')" in done.stderr
    assert "Traceback" not in done.stderr
