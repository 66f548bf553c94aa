"""The dashboard in a real browser: Debian's chromium, driven by Playwright, against the server's own app
(`memql.interfaces.rest.create_app`, what `memql serve` runs) behind a real uvicorn on 127.0.0.1, signed in
with a real API key — sign in, search, approve a proposal, see the approval in the record's history; every
page on a 390 px wide phone without sideways scrolling. Screenshots of the pages go to
build/dashboard-screenshots/<backend>/ (ignored by git).

Skipped — never passed — when Playwright or /usr/bin/chromium is missing."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memql.interfaces.apikeys import create_key
from memql.interfaces.rest.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[3] / "build" / "dashboard-screenshots"
CHROMIUM_ARGS = [
    *("--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"),
    *("--disable-sync", "--no-first-run"),
]


@pytest.fixture
def mira_key(site, clock) -> str:
    """A real API key for mira (tenant "t", a user), stored hashed in the site's store."""
    return create_key(site.mira.store, tenant="t", actor="mira", role="user", now=clock.now()).secret


@pytest.fixture
def served(site, clock, mira_key) -> Iterator[str]:
    """The REST server's app (dashboard at /) over the site's store, behind a real uvicorn in a thread,
    on a free port of 127.0.0.1."""
    import uvicorn

    app = create_app(site.mira.store, embedder=None, clock=clock)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # a bound for a loaded machine
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def browser():
    """One headless chromium for this module's tests (each test has a context of its own: its own cookies,
    storage and pages, as in a new browser); starting it costs seconds of CPU."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, served):
    context = browser.new_context(base_url=served, viewport={"width": 1200, "height": 900})
    try:
        # nothing but the served app: a request anywhere else fails the test
        outside: list[str] = []
        context.route(
            lambda url: not url.startswith(served),
            lambda route: (outside.append(route.request.url), route.abort()),
        )
        yield context.new_page()
        assert outside == [], f"the dashboard fetched from elsewhere: {outside}"
    finally:
        context.close()


def shot(page, backend: str, name: str) -> None:
    folder = SCREENSHOTS / backend
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_sign_in_search_approve_and_see_it_in_history(page, site, backend, mira_key):
    site.mira.encode("Standup moves to 9:30", tags=["team"])
    site.mira.encode("Q2 budget draft: 1.2M", tags=["budget"])
    site.mira.encode(structured={"subject": "passport", "attribute": "deadline", "value": "June 1"})
    site.helper.encode("Mira prefers morning meetings", tags=["preferences"])  # a proposal (id 4)

    page.goto("/")
    assert page.url.endswith("/login")  # no key yet
    shot(page, backend, "login")
    page.fill("#key", mira_key)
    page.click("button[type=submit]")
    page.wait_for_url("**/")
    assert page.locator("header .who").inner_text() == "mira @ t"
    assert page.locator("table.rows tbody tr").count() == 3
    shot(page, backend, "memories")

    page.fill("input[name=q]", "standup")
    page.click("form.search button[type=submit]")
    page.wait_for_url("**/?q=standup*")
    hits = page.locator("table.rows tbody tr")
    assert hits.count() == 1 and "Standup moves to 9:30" in hits.first.inner_text()
    shot(page, backend, "search")

    page.click("nav >> text=Proposals")
    proposal = page.locator("#proposal-4")
    assert "Mira prefers morning meetings" in proposal.inner_text()
    assert "helper" in proposal.locator(".agent").inner_text()
    shot(page, backend, "proposals")
    proposal.locator("button", has_text="Approve").first.click()
    page.wait_for_url("**/proposals?done=approve")
    assert page.locator(".notice").inner_text() == "Proposal approved."
    assert page.locator("li.proposal").count() == 0

    page.goto("/memories/4")
    events = page.locator("ol.timeline > li")
    assert events.count() == 2
    last = events.nth(1)
    assert last.locator(".proposal").inner_text() == "approved"
    assert last.locator(".actor").inner_text() == "mira"
    assert events.nth(0).locator(".proposal").inner_text() == "proposed"
    shot(page, backend, "record")
    assert [h["proposal"] for h in site.mira.history("4")] == ["proposed", "approved"]  # the store agrees

    page.goto("/facts?subject=passport&attribute=deadline")
    assert "June 1" in page.locator("table.rows").inner_text()
    shot(page, backend, "facts")


def test_a_refused_delete_shows_the_engines_diagnostic(page, site, backend, mira_key):
    site.mira.encode("Q2 budget draft: 1.2M")
    page.goto("/login")
    page.fill("#key", mira_key)
    page.click("button[type=submit]")
    page.goto("/memories/1")
    page.fill("input[name=reason]", "board review")
    page.click("button:has-text('Lock')")
    page.wait_for_url("**/memories/1?done=lock")
    assert "read_only — board review" in page.locator("dd.lock").inner_text()
    page.once("dialog", lambda dialog: dialog.accept())  # "Delete memory 1? ..."
    page.click("button:has-text('Delete')")
    page.wait_for_url("**/memories/1?refused=*")  # back on the page it came from
    assert "governance.locked" in page.locator(".diagnostics").inner_text()
    shot(page, backend, "refused")
    assert site.mira.retrieve(ids=["1"], include=["status"]).data["rows"] == [{"status": "active"}]


PHONE = {"width": 390, "height": 844}
INSTANT = re.compile(r"^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}(:\d{2})? UTC$")  # "2 Mar 2026, 09:00 UTC"


def fits(page) -> None:
    """The page does not scroll sideways: its content is no wider than the viewport."""
    scroll, client = page.evaluate(
        "[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    )
    assert scroll <= client, f"{page.url}: {scroll} px of content in a {client} px wide viewport"


def test_every_page_fits_a_390_px_phone(page, site, backend, mira_key):
    long = "Quarterly planning notes: " + " ".join(f"item-{i}-with-a-long-unbroken-name" for i in range(12))
    site.mira.encode(long, tags=["planning", "quarterly", "long-tag-name-for-layout"], type="note")
    site.mira.encode("Standup moves to 9:30", tags=["team"])
    site.mira.encode(structured={"subject": "passport", "attribute": "deadline", "value": "June 1"})
    site.helper.encode("Mira prefers morning meetings", tags=["preferences"])  # a proposal (id 4)
    site.mira.lock("1", reason="board review of the quarterly planning notes")
    site.mira.expire("2", ttl="P7D", on_expire="archive")
    page.set_viewport_size(PHONE)

    page.goto("/login")
    fits(page)
    shot(page, backend, "390-login")
    page.fill("#key", mira_key)
    page.click("button[type=submit]")
    page.wait_for_url("**/")
    fits(page)
    shot(page, backend, "390-memories")
    times = page.locator("table.rows tbody time")
    assert times.count() == 3
    for i in range(3):  # an instant for people, its ISO form for machines
        assert INSTANT.match(times.nth(i).inner_text()), times.nth(i).inner_text()
        assert times.nth(i).get_attribute("datetime").endswith("Z")

    for name, path in [
        ("390-search", "/?q=standup"),
        ("390-proposals", "/proposals"),
        ("390-record", "/memories/1"),
        ("390-facts", "/facts?subject=passport&attribute=deadline"),
    ]:
        page.goto(path)
        fits(page)
        shot(page, backend, name)
    page.goto("/memories/1")
    assert all(INSTANT.match(t) for t in page.locator("ol.timeline time").all_inner_texts())

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('Delete')")  # record 1 is locked: refused, back on its page
    page.wait_for_url("**/memories/1?refused=*")
    assert "governance.locked" in page.locator(".diagnostics").inner_text()
    fits(page)
    shot(page, backend, "390-refused")
