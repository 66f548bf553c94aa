"""How many examples a property test generates, by $MEMQL_HYPOTHESIS_PROFILE:

- `ci` (the default): a quarter of each test's written budget (never fewer than 10, or the whole budget when
  it is smaller, and never more than 300), so that `python3 -m pytest` stays within minutes on 2 cores —
  the cap holds the few budgets of thousands (the language's generated and mutated IRs) to what a suite
  run can afford, ~25 s of CPU less; a long run looks further;
- `thorough`: every budget as written (over 12,000 generated IRs through `validate`, hundreds of generated
  stores), for a long run before a release or after a change to what a property test covers.

A test states its full budget, `@settings(max_examples=examples(300), ...)`; a test that states none gets
Hypothesis's default of 100 scaled the same way (the root conftest loads the profile). Both profiles check
the same properties; `thorough` looks further for a counterexample."""

from __future__ import annotations

import os

VARIABLE = "MEMQL_HYPOTHESIS_PROFILE"
SHARES = {"ci": 0.25, "thorough": 1.0}  # the share of each written budget a profile runs
FLOOR = 10
CEILING = 300  # the most examples of one test the ci profile runs

PROFILE = os.environ.get(VARIABLE, "").strip() or "ci"


def profile_error() -> str | None:
    """The diagnostic for an unknown profile name (None when the name is known)."""
    if PROFILE in SHARES:
        return None
    return f"{VARIABLE}: must be one of {', '.join(SHARES)} (got {PROFILE!r})"


def examples(budget: int) -> int:
    """The number of examples to run of a test whose full budget is `budget`."""
    share = SHARES.get(PROFILE, SHARES["ci"])
    scaled = max(min(budget, FLOOR), round(budget * share))
    return scaled if share == 1.0 else min(scaled, CEILING)
