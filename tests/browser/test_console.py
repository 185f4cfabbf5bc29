"""Normal use logs nothing in the browser's console.

A whole game on three phones, from the home page through the lobby (a phone joining by link, one asking by
code), taps, undo and redo, the Bomb sheet, the QR code, rules searches, a hand correction, the table display,
the whole log, game over and a rematch: no error, no warning, no Content Security Policy violation (the policy
allows no inline style or script, and it stays that strict)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from referee.web.security import CONTENT_SECURITY_POLICY

from .conftest import Phones, Server
from .table import LOBBY_URL, TABLE_URL, card, expect_new_table, expect_version, join, tap, total, wait_live
from .test_asking import ask_for, request_item, watch_by_code

pytestmark = pytest.mark.browser

# Reports every violation of the page's Content-Security-Policy on the console, with what was blocked.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (event) {
  console.error("CSP violation: " + event.violatedDirective + " blocked " + (event.blockedURI || "inline") +
                " at " + event.sourceFile + ":" + event.lineNumber + " " + event.sample);
});
"""


@dataclass
class Console:
    """What the phones' consoles said that a developer would have to look at: errors, warnings, page errors."""

    heard: list[str] = field(default_factory=list)

    def listen(self, page: Page, who: str) -> Page:
        page.context.add_init_script(REPORT_VIOLATIONS)
        # This test is about what the console says, not speed: a whole game under a loaded CI machine once took
        # over the usual 10 s for one step.
        page.set_default_timeout(20_000)
        page.on("console", lambda message: self._console(who, page, message))
        page.on("pageerror", lambda error: self.heard.append(f"{who} on {page.url}: uncaught {error}"))
        return page

    def _console(self, who: str, page: Page, message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            self.heard.append(f"{who} on {page.url}: {message.type}: {message.text}")


@pytest.mark.parametrize("directive", ["style-src", "script-src"])
def test_the_policy_allows_no_inline_style_or_script(directive: str) -> None:
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives[directive] == "'self'"  # no 'unsafe-inline', no hashes, no nonces


def test_the_listener_hears_an_inline_style(server: Server, phones: Phones) -> None:
    """The check below can fail: an inline <style> (what htmx would add without our config) is reported."""
    console = Console()
    page = console.listen(phones.new(), "host")
    page.goto(server.url + "/")
    page.evaluate("document.head.insertAdjacentHTML('beforeend', '<style>.x { color: red }</style>')")
    page.wait_for_timeout(200)
    assert any("style-src" in line for line in console.heard), console.heard


def test_a_whole_game_logs_nothing_in_the_console(server: Server, phones: Phones) -> None:
    console = Console()
    host = console.listen(phones.new(), "host")
    bob = console.listen(phones.new(color_scheme="dark"), "Bob's phone")

    # Home -> lobby; Bob's phone joins and ticks in the lobby; everyone's in.
    host.goto(server.url + "/")
    host.get_by_role("button", name="+ Add a player").click()
    # Before htmx runs, the button is a plain form post that reloads the page with a new row: names typed
    # before that reload would be lost, so wait for the row either way.
    expect(host.locator("#name-3")).to_be_attached()
    for index, name in enumerate(["Ann", "Bob", "Cy"]):
        host.locator(f"#name-{index}").fill(name)
    host.get_by_role("button", name="Start the table").click()
    host.wait_for_url(LOBBY_URL)
    join(bob, server.local(host.locator("a.join-link").get_attribute("href") or ""), "Bob")
    expect(host.locator("#seats")).to_contain_text("Bob has joined")
    # Cy's phone types the code, watches, asks to be Cy; the host allows it from the lobby.
    wait_live(host)
    cy = console.listen(phones.new(), "Cy's phone")
    watch_by_code(cy, server.url, host.url.split("/t/")[1].split("/")[0])
    ask_for(cy, "Cy")
    expect(request_item(host, "Cy")).to_be_visible()
    with host.expect_navigation(url=LOBBY_URL):
        request_item(host, "Cy").get_by_role("button", name="Allow: this phone becomes Cy").click()
    expect(cy.locator("#strip .me")).to_have_text("You're Cy")
    # Ann has no phone yet: the way on is "Start without waiting" (waited for: the list refreshes live).
    start = host.locator("#seats").get_by_role("link", name="Start without waiting")
    expect(start).to_be_visible(timeout=20_000)
    start.click()
    host.wait_for_url(TABLE_URL)
    code = host.url.rsplit("/", 1)[1]
    wait_live(host)
    wait_live(bob)

    # Taps from both phones, undo and redo, the Bomb sheet (cancelled, then confirmed), a hand correction.
    tap(host, "7")
    expect_version(bob, 1)  # the host's card reached Bob's phone before he taps (else `tap` reads a stale version)
    tap(bob, "7")
    expect_version(host, 2)  # Bob's card reached the host's phone before it presses Undo
    tap(host, "Undo")
    tap(host, "Redo")
    tap(host, "1")
    card(host, "Bomb").click()
    sheet = host.get_by_role("dialog", name="Who put down a 0?")
    expect(sheet).to_be_visible()
    sheet.get_by_role("link", name="Cancel").click()
    expect(sheet).to_be_hidden()
    card(host, "Bomb").click()
    sheet.get_by_role("checkbox", name="Bob").check()
    tap(host, sheet.get_by_role("button", name="Confirm"))
    host.get_by_label("Fix Cy's hand size").click()
    host.get_by_label("Cards Cy holds").fill("8")
    tap(host, host.locator("#players").get_by_role("button", name="Save"))
    bob.get_by_role("button", name='"Your turn" sound: off').click()
    bob.get_by_role("button", name='"Your turn" sound: on').click()

    # The QR code full screen, and a rules search from the table.
    host.get_by_role("link", name="QR code").click()
    expect(host.locator("#qr-full")).to_be_visible()
    host.locator("#qr-full").get_by_role("button", name="Close").click()
    host.get_by_label("Settle an argument").fill("can a bomb be your last card")
    expect(host.locator("#rules-results")).not_to_be_empty()

    # The table display follows a tap; the whole log; the rules page and its search.
    display = console.listen(phones.new(), "table display")
    display.goto(f"{server.url}/t/{code}/display")
    tap(host, "2")
    expect(display.get_by_label("Running total", exact=True)).to_have_text(total(host).inner_text())
    host.goto(f"{server.url}/t/{code}/log")
    expect(host.get_by_role("heading", level=1)).to_contain_text("whole log")
    host.goto(server.url + "/rules")
    host.get_by_label("Settle an argument").fill("skip with two players")
    expect(host.locator("#rules-results")).not_to_be_empty()

    # Game over (Ann's Bombs put Bob and Cy out), seen live on every phone; then a rematch that Bob's phone follows.
    host.goto(f"{server.url}/t/{code}")
    wait_live(host, 1)
    for _ in range(40):
        state = server.state(code)
        if state["status"] != "playing":
            break
        if state["current"] == "Ann":
            card(host, "Bomb").click()
            tap(host, host.get_by_role("dialog", name="Who put down a 0?").get_by_role("button", name="Confirm"))
        else:
            tap(host, "0")
    for phone in (host, bob, cy):
        expect(phone.get_by_role("region", name="Standings")).to_be_visible()
    host.get_by_role("button", name="Rematch with the same players").click()
    expect_new_table(host, code)
    expect(bob).to_have_url(host.url, timeout=3000)  # Bob's phone follows the rematch by itself
    expect(total(bob)).to_have_text("0")
    tap(host, "5")
    expect(total(bob)).to_have_text("5")
    assert console.heard == []
