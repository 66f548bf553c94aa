"""A lock governs writes, never reads (issue 16, item 5b): a deny list that names Retrieve or Summarize
is refused with a diagnostic when the Lock is validated — not accepted and silently ignored — and
nothing is locked; a read-only lock that allows reads (the official incident example) still runs.
Runs on every backend."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("reads", [["Retrieve"], ["Summarize"], ["Update", "Retrieve", "Summarize"]])
def test_a_deny_list_naming_a_read_is_refused_and_locks_nothing(m, db, reads):
    m.encode("SEV-1 timeline", tags=["incident"])
    refused = m.lock("1", reason="legal hold", policy={"deny": reads})
    assert not refused.success
    (diagnostic,) = refused.diagnostics
    assert diagnostic.rule == "lock.read_deny" and diagnostic.path == "/args/policy/deny"
    assert all(op in diagnostic.message for op in reads if op != "Update")
    assert "read_perm_level" in diagnostic.message  # where reads are governed
    assert db.record(m, "1").lock_mode is None
    assert [h["op"] for h in m.history("1")] == ["Encode"]


def test_the_official_incident_lock_still_runs_and_reads_stay_open(m, memory):
    m.encode("SEV-1 timeline", tags=["incident"])
    done = m.lock(
        "1",
        reason="timeline kept as it was",
        policy={"allow": ["Retrieve", "Summarize"], "deny": ["Update", "Delete"], "reviewers": ["sre_lead"]},
    )
    assert done.success
    other = memory(actor="bob", share=m)
    assert other.retrieve(ids=["1"]).data["count"] == 1
    assert other.update("1", text="rewritten").diagnostics[0].rule == "governance.locked"
