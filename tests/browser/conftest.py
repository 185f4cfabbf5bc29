"""Browser fixtures: the real server (`referee serve`) in a subprocess, and Debian's chromium at phone size.

Nothing here downloads a browser: Playwright drives /usr/bin/chromium. When it is missing the tests fail
loudly (CI installs it with apt-get), they never skip.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tools.harness import CHROMIUM, CHROMIUM_ARGS, LiveServer

from .table import choose, join, wait_live

PHONE = {"width": 390, "height": 844}
STARTUP_SECONDS = 20.0
# Counts the live stream's opens, errors and "changed" messages so tests can wait for a page to be listening, or to
# have heard of a change (test-only; read from the EventSource itself, as static/js/sync.js does).
WATCH_STREAM = """
window.__sse = {open: 0, error: 0, messages: 0};
var __sources = new WeakSet();
document.addEventListener("htmx:sseOpen", function (event) {
  window.__sse.open += 1;
  var source = event.detail && event.detail.source;
  if (source && !__sources.has(source)) {
    __sources.add(source);
    source.addEventListener("changed", function () { window.__sse.messages += 1; });
  }
});
document.addEventListener("htmx:sseError", function () { window.__sse.error += 1; });
"""


class Server(LiveServer):
    """`referee serve` (the shared harness) plus JSON API shortcuts to set up states quickly."""

    # --- the JSON API, to set up states quickly -----------------------------------------------

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """Send a JSON request; return (status, decoded body)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def create_table(self, players: list[str], **fields: Any) -> dict[str, Any]:
        status, body = self.request("POST", "/api/v1/tables", {"players": players, **fields})
        assert status == 201, body
        assert isinstance(body, dict)
        return body

    def act(self, code: str, token: str, **action: Any) -> dict[str, Any]:
        status, body = self.request("POST", f"/api/v1/tables/{code}/actions", action, token=token)
        assert status == 200, body
        assert isinstance(body, dict)
        return body

    def state(self, code: str) -> dict[str, Any]:
        status, body = self.request("GET", f"/api/v1/tables/{code}")
        assert status == 200, body
        assert isinstance(body, dict)
        return body

    def local(self, link: str) -> str:
        """Point a link the page shows (maybe the machine's LAN address) at this test server."""
        parts = urlsplit(link)
        return urlunsplit(("http", f"127.0.0.1:{self.port}", parts.path, parts.query, parts.fragment))


@contextmanager
def serving(tmp_path: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """The production server (`referee serve`) on a free port with a temporary database, and settings in `env`."""
    running = Server(tmp_path / "referee.sqlite3", env=env)
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """The production server (`referee serve`) on a free port with a temporary database."""
    with serving(tmp_path) as running:
        yield running


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_session: Playwright) -> Iterator[Browser]:
    """Debian's chromium, headless. Missing chromium is a failure, not a skip."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run these tests")
    launched = playwright_session.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield launched
    finally:
        launched.close()


class Phones:
    """Opens phone-size browser contexts (each one a separate phone with its own cookies); closes them all."""

    def __init__(self, browser: Browser):
        self.browser = browser
        self.contexts: list[BrowserContext] = []

    def new(self, **options: Any) -> Page:
        context = self.browser.new_context(viewport=PHONE, **options)
        context.set_default_timeout(10_000)
        context.add_init_script(WATCH_STREAM)
        self.contexts.append(context)
        return context.new_page()

    def seated(self, server: Server, table: dict[str, Any], who: str, locale: str | None = None) -> Page:
        """A new phone joined to `table` through its link as `who` (a player, or "Keeping score (not playing)"),
        its live stream open; with a `locale`, a phone whose browser asks for that language."""
        if locale is None:
            page = self.new()
            join(page, server.local(table["join_url"]), who)
        else:
            page = self.new(locale=locale)
            choose(page, server.local(table["join_url"]), who)
        wait_live(page)
        return page

    def close(self) -> None:
        for context in self.contexts:
            # A test that held a request in a route handler (a slow Wi-Fi) and then failed must not leave the close
            # waiting on that handler: drop every route without waiting for handlers still running.
            for page in context.pages:
                page.unroute_all(behavior="ignoreErrors")
            context.unroute_all(behavior="ignoreErrors")
            context.close()


@pytest.fixture
def phones(browser: Browser) -> Iterator[Phones]:
    """A factory of phones: `phones.new()` returns a page in a fresh 390×844 context."""
    factory = Phones(browser)
    try:
        yield factory
    finally:
        factory.close()


@pytest.fixture
def page(phones: Phones) -> Page:
    """One phone."""
    return phones.new()
