"""The dashboard's actions over HTTP, on every backend: each one is the Python API's call (its effect is
read back through Memory), a success redirects (redirect-after-post), and a refusal changes nothing and
shows the engine's diagnostics on the page it came from (a redirect there too, the refusal kept for it)."""

from __future__ import annotations

from datetime import timedelta

from dashboard_html import proposal_ids, refusals, timeline, warnings


def status_of(memory, record_id: str) -> str:
    found = memory.retrieve(filter={"status": "any"}, include=["id", "status"]).data["rows"]
    return {row["id"]: row["status"] for row in found}[record_id]


def row(memory, record_id: str, *fields: str) -> dict:
    return memory.retrieve(ids=[record_id], include=list(fields)).data["rows"][0]


def test_lock_then_a_refused_delete_then_unlock(client, site):
    site.mira.encode("Q2 budget draft")
    locked = client.post(
        "/memories/1/lock", data={"mode": "read_only", "reason": "board"}, follow_redirects=False
    )
    assert locked.status_code == 303 and locked.headers["location"] == "/memories/1?done=lock"
    assert row(site.mira, "1", "lock")["lock"]["reason"] == "board"
    assert "Locked." in client.get(locked.headers["location"]).text

    refused = client.post("/memories/1/delete", follow_redirects=False)
    assert refused.status_code == 303 and refused.headers["location"].startswith("/memories/1?refused=")
    page = client.get(refused.headers["location"])  # back on the record's page, the refusal shown
    assert page.status_code == 200 and refusals(page.text) == [("governance.locked", "/target")]
    assert "record 1 is locked read_only (board): Delete refused" in page.text
    assert refusals(client.get(refused.headers["location"]).text) == []  # shown once: a reload is clean
    assert status_of(site.mira, "1") == "active"

    assert client.post("/memories/1/unlock", follow_redirects=False).status_code == 303
    assert row(site.mira, "1", "lock")["lock"] is None
    assert [op for op, _, _ in timeline(client.get("/memories/1").text)] == ["Encode", "Lock", "Lock"]


def test_a_bad_lock_mode_is_the_languages_diagnostic(client, site):
    site.mira.encode("Q2 budget draft")
    refused = client.post("/memories/1/lock", data={"mode": "forever"})
    assert refused.url.path == "/memories/1" and refusals(refused.text) == [("field.enum", "/args/mode")]
    assert row(site.mira, "1", "lock")["lock"] is None


def test_expire_by_duration_or_time(client, site, t0):
    site.mira.encode("Trip plan")
    site.mira.encode("Parking spot")
    by_duration = client.post(
        "/memories/1/expire", data={"when": "P7D", "on_expire": "archive"}, follow_redirects=False
    )
    assert by_duration.headers["location"] == "/memories/1?done=expire"
    assert row(site.mira, "1", "expire_at", "on_expire") == {
        "expire_at": t0 + timedelta(days=7),
        "on_expire": "archive",
    }
    client.post("/memories/2/expire", data={"when": "2026-04-01T09:00:00Z"})
    assert row(site.mira, "2", "expire_at")["expire_at"].isoformat() == "2026-04-01T09:00:00+00:00"


def test_a_bad_expiry_is_refused_with_its_field(client, site):
    site.mira.encode("Trip plan")
    garbage = client.post("/memories/1/expire", data={"when": "whenever"})
    assert garbage.url.path == "/memories/1" and refusals(garbage.text) == [("time.invalid", "/args/until")]
    blank = client.post("/memories/1/expire", data={"when": " "})
    assert refusals(blank.text) == [("field.required", "/when")]
    policy = client.post("/memories/1/expire", data={"when": "P1D", "on_expire": "explode"})
    assert refusals(policy.text) == [("field.enum", "/args/on_expire")]
    assert row(site.mira, "1", "expire_at")["expire_at"] is None


def test_delete_is_soft_and_restorable(client, site):
    site.mira.encode("Old plan")
    assert (
        client.post("/memories/1/delete", data={"reason": "stale"}, follow_redirects=False).status_code == 303
    )
    assert status_of(site.mira, "1") == "deleted"
    restored = client.post("/memories/1/restore", follow_redirects=False)
    assert restored.headers["location"] == "/memories/1?done=restore"
    assert status_of(site.mira, "1") == "active"
    assert [op for op, _, _ in timeline(client.get("/memories/1").text)] == ["Encode", "Delete", "Restore"]


def test_an_action_on_another_tenants_record_finds_nothing(site, sign_in):
    site.mira.encode("Mira's budget")
    olga = sign_in("key-olga")
    refused = olga.post("/memories/1/delete")
    assert refused.status_code == 404 and "Deleted" not in refused.text
    assert warnings(refused.text) == [("target.not_found", "/target")]  # once, though two calls said it
    assert status_of(site.mira, "1") == "active"
    unknown = olga.post("/proposals/1/approve")
    assert unknown.status_code == 404 and ("target.not_found", "/target") in warnings(unknown.text)


def test_approve_edit_and_reject_proposals(client, site):
    for text in ("Mira prefers morning meetings", "Mira likes tea", "Mira's sister lives in Porto"):
        site.helper.encode(text)
    approved = client.post("/proposals/1/approve", follow_redirects=False)
    assert approved.headers["location"] == "/proposals?done=approve"
    edited = client.post("/proposals/2/edit", data={"text": "Mira likes green tea", "tags": "drinks, prefs"})
    assert edited.url.path == "/proposals" and "Proposal approved with edits." in edited.text
    client.post("/proposals/3/reject")
    assert proposal_ids(client.get("/proposals").text) == []
    assert [h["proposal"] for h in site.mira.history("1")] == ["proposed", "approved"]
    assert [(h["actor"], h["proposal"]) for h in site.mira.history("2")] == [
        ("helper", "proposed"),
        ("mira", "approved with edits"),
    ]
    assert row(site.mira, "2", "text", "tags", "owner") == {
        "text": "Mira likes green tea",
        "tags": ["drinks", "prefs"],
        "owner": "mira",
    }
    assert status_of(site.mira, "3") == "rejected"
    assert timeline(client.get("/memories/2").text)[-1] == ("Update", "update", "approved with edits")


def test_edit_without_changes_is_a_plain_approval(client, site):
    site.helper.encode("Mira likes tea")
    client.post("/proposals/1/edit", data={"text": "Mira likes tea", "tags": ""})
    assert [h["proposal"] for h in site.mira.history("1")] == ["proposed", "approved"]


def test_an_agent_cannot_decide_and_the_page_says_why(site, sign_in):
    site.helper.encode("Mira prefers morning meetings")
    helper = sign_in("key-helper")
    refused = helper.post("/proposals/1/approve", data={"status": "any"}, follow_redirects=False)
    assert refused.status_code == 303 and refused.headers["location"].startswith(
        "/proposals?status=any&refused="
    )
    page = helper.get(refused.headers["location"])  # back on the list it came from (status=any)
    assert refusals(page.text) == [("consent.write", "")]
    assert proposal_ids(page.text) == ["1"]  # the queue, unchanged
    assert status_of(site.mira, "1") == "pending"


def test_a_decided_proposal_cannot_be_decided_again(client, site):
    site.helper.encode("Mira likes tea")
    client.post("/proposals/1/reject")
    again = client.post("/proposals/1/approve")
    assert again.url.path == "/proposals" and refusals(again.text)[0][0] == "proposal.transition"
    assert status_of(site.mira, "1") == "rejected"


def test_a_kept_refusal_is_shown_only_to_the_caller_it_refused(site, sign_in):
    """The token in the redirect names a refusal kept server-side; another caller (another tenant's user)
    following the same link sees nothing of it, and the refused caller still can afterwards."""
    site.mira.encode("Q2 budget draft")
    site.mira.lock("1", reason="board")
    mira = sign_in("key-mira")
    location = mira.post("/memories/1/delete", follow_redirects=False).headers["location"]
    olga = sign_in("key-olga")
    seen_by_olga = olga.get(location)
    assert refusals(seen_by_olga.text) == [] and "locked" not in seen_by_olga.text
    assert refusals(mira.get(location).text) == [("governance.locked", "/target")]
