"""Installing on a phone: Chromium's own installability check passes, and with the server gone the service
worker shows our offline page, which finds the table again by itself once the server is back."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, Playwright, expect

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Server
from .proxy import PrefixProxy
from .table import pump_until

pytestmark = pytest.mark.browser
OFFLINE_TITLE = "Can't reach the table — are you on the same Wi-Fi?"


def wait_for_service_worker(page: Page, timeout: float = 10.0) -> None:
    """Wait until the service worker is installed and controls the page (localhost is a secure context).

    Polled from here: a page whose worker never registers must fail the test, not hang it.
    """
    pump_until(
        page,
        lambda: page.evaluate("navigator.serviceWorker.controller !== null"),
        f"a service worker controlling {page.url}",
        timeout,
    )


def test_chromium_finds_the_app_installable(server: Server, playwright_session: Playwright, tmp_path: Path) -> None:
    # A profile on disk: Chromium never offers to install from an off-the-record context (Playwright's usual one).
    context = playwright_session.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport=PHONE
    )
    try:
        check_installable(server, context.pages[0] if context.pages else context.new_page())
    finally:
        context.close()


def check_installable(server: Server, page: Page) -> None:
    """Open the start page, then ask Chromium (DevTools Protocol) what, if anything, stops installing it."""
    page.goto(server.url + "/")
    wait_for_service_worker(page)
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["short_name"] == "5 Alive"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    session = page.context.new_cdp_session(page)
    found = session.send("Page.getInstallabilityErrors")
    assert found["installabilityErrors"] == []
    icon = page.evaluate("fetch(document.querySelector('link[rel=apple-touch-icon]').href).then(r => r.status)")
    assert icon == 200


def test_the_offline_page_shows_when_the_server_is_down_and_retries_by_itself(server: Server, page: Page) -> None:
    table = server.create_table(["Ann", "Bob"])
    page.goto(server.url + "/")
    wait_for_service_worker(page)
    server.stop()
    page.goto(f"{server.url}/t/{table['code']}")
    expect(page.get_by_role("heading", name=OFFLINE_TITLE)).to_be_visible()
    expect(page.locator("#offline-status")).to_contain_text("Still can't reach it", timeout=10_000)
    # No table state was kept: the offline page is all the phone shows of the table.
    assert "Ann" not in page.content()
    server.start()
    # Nobody touches the phone: the page finds the server again and opens the table.
    expect(page.locator("#offline")).to_have_count(0, timeout=15_000)
    expect(page.get_by_text("Ann").first).to_be_visible()


def test_under_a_path_prefix_the_offline_page_is_whole_and_finds_the_table_again(server: Server, page: Page) -> None:
    # `referee serve` behind a proxy that serves it under /referee/ (and says so in X-Forwarded-Prefix).
    proxy = PrefixProxy(server.port, "/referee")
    proxy.start()
    try:
        table = server.create_table(["Ann", "Bob"])
        page.goto(proxy.url + "/")
        wait_for_service_worker(page)
        proxy.stop()  # the phone loses the server
        page.goto(f"{proxy.url}/t/{table['code']}")
        expect(page.get_by_role("heading", name=OFFLINE_TITLE)).to_be_visible()
        # The app's stylesheet applies (kept under /referee/static/): the top bar is a flex row, not a block.
        expect(page.locator("header.top")).to_have_css("display", "flex")
        # Its script runs and asks /referee/healthz (not /healthz, which is not the app's under this proxy).
        expect(page.locator("#offline-status")).to_contain_text("Still can't reach it", timeout=10_000)
        proxy.start()
        expect(page.locator("#offline")).to_have_count(0, timeout=15_000)
        expect(page.get_by_text("Ann").first).to_be_visible()
        assert page.url == f"{proxy.url}/t/{table['code']}"
    finally:
        proxy.stop()
