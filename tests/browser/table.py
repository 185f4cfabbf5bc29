"""What a player sees and taps on the table page, in the words of the page (accessible names)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

TABLE_URL = re.compile(r"/t/[A-Z0-9]+$")
LOBBY_URL = re.compile(r"/t/[A-Z0-9]+/lobby$")


def start_in_lobby(page: Page, base_url: str, names: list[str]) -> str:
    """Type the players on the home page, tap "Start the table", stay in the lobby; return the table code."""
    page.goto(base_url + "/")
    for index, name in enumerate(names):
        field = page.locator(f"#name-{index}")
        if not field.count():
            page.get_by_role("button", name="+ Add a player").click()
            expect(field).to_be_attached()
            # The new row has the cursor (it used to jump back to player 1, where the next name could land).
            expect(field).to_be_focused()
        field.fill(name)
    for index, name in enumerate(names):  # adding a row keeps what was typed
        expect(page.locator(f"#name-{index}")).to_have_value(name)
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(LOBBY_URL)  # the host gathers the phones first
    return page.url.split("/t/")[1].split("/")[0]


def start_from_home(page: Page, base_url: str, names: list[str]) -> str:
    """Start a table from the home page and go straight on from the lobby to the table; return the code."""
    code = start_in_lobby(page, base_url, names)
    page.get_by_role("link", name="Start without waiting").click()
    page.wait_for_url(TABLE_URL)
    return code


def total(page: Page) -> Locator:
    return page.get_by_label("Running total", exact=True)


def card(page: Page, name: str) -> Locator:
    """A button of the card pad (or Undo, Redo, Can't play) by the start of its accessible name.

    A number card's name says what it does ("7 makes 14", "7 goes bust"): "7" finds it, not "17" or "=7".
    """
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(name)}(?: |$)"))


def tap_offline(page: Page, value: str) -> None:
    """Take the phone off the network and tap a number card: the tap cannot reach the table."""
    page.context.set_offline(True)
    card(page, value).click()


def back_online(page: Page) -> None:
    """Bring the phone back on the network and wait until it no longer says it is offline."""
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_be_hidden(timeout=10_000)


def turn(page: Page) -> Locator:
    """ "Bob's turn"."""
    return page.locator("#status .turn")


def row(page: Page, name: str) -> Locator:
    """A player's row: name, lives, hand size, Fix."""
    return page.locator("#players li.player").filter(has=page.locator(".pname", has_text=re.compile(rf"^\s*{name}\b")))


def lives(page: Page, name: str) -> Locator:
    return row(page, name).locator(".lives")


def hand(page: Page, name: str) -> Locator:
    return row(page, name).locator(".hand")


def newest_log(page: Page) -> Locator:
    """The newest line under "What happened"."""
    return page.locator("#log ol.log > li:not(.round-separator)").first


def version(page: Page) -> int:
    """The table version the board shows (+1 per accepted action)."""
    return int(page.locator("#board").get_attribute("data-version") or "-1")


def expect_version(page: Page, expected: int, timeout: float = 5000) -> None:
    expect(page.locator("#board")).to_have_attribute("data-version", str(expected), timeout=timeout)


def tap(page: Page, target: str | Locator) -> None:
    """Tap a button (by accessible name, or a locator) and wait until the board shows the next version."""
    before = version(page)
    (card(page, target) if isinstance(target, str) else target).click()
    expect_version(page, before + 1)


def choose(page: Page, link: str, who: str) -> None:
    """Open a join link and tap `who` among the names, in whatever language the page speaks (`join` also checks the
    English question)."""
    page.goto(link)
    page.get_by_role("button", name=who, exact=True).click()
    page.wait_for_url(TABLE_URL)


def join(page: Page, link: str, who: str) -> str:
    """Open a join link and answer "Who are you?"; return the table code."""
    page.goto(link)
    expect(page.get_by_role("heading", name="Who are you?")).to_be_visible()
    page.get_by_role("button", name=who, exact=True).click()
    page.wait_for_url(TABLE_URL)
    return page.url.rsplit("/", 1)[1]


def wait_live(page: Page, opened: int = 1, timeout: float = 10_000) -> None:
    """Wait until the page's live stream has opened (at least `opened` times).

    Polled from here with `evaluate` (run through the DevTools protocol): `wait_for_function` would
    eval its predicate inside the page, which the app's Content-Security-Policy rightly forbids.
    """
    pump_until(
        page,
        lambda: page.evaluate("window.__sse ? window.__sse.open : 0") >= opened,
        f"the live stream opened {opened} time(s)",
        timeout / 1000,
    )


def pump_until(page: Page, condition: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    """Let the browser's events run (route and response handlers) until `condition` holds, or fail saying `what`.

    Every wait on a handler has a deadline: a click that never reached the page must fail the test, not hang it.
    """
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not seen within {seconds:.0f} s"
        page.wait_for_timeout(10)


def mark_page(page: Page) -> None:
    """Leave a mark in the page's JavaScript world: a reload would wipe it."""
    page.evaluate("window.__sameDocument = true")


def still_same_page(page: Page) -> bool:
    return bool(page.evaluate("window.__sameDocument === true"))


# The elements matching a selector that a player would read as cut: outside the screen, wider inside than their
# box, or with a word broken over two lines ("Rever / se", "Bartholome / w": a range over one word then has
# a box on each line). Each is named by its text.
CUT_TEXT = """([selector, hyphens]) => [...document.querySelectorAll(selector)].filter(element => {
  const box = element.getBoundingClientRect();
  const screen = document.documentElement.clientWidth;
  if (box.left < 0 || box.right > screen || element.scrollWidth > element.clientWidth) return true;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.data.matchAll(hyphens ? /[^\\s-]+-?/g : /\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      if (range.getClientRects().length > 1) return true;
    }
  }
  return false;
}).map(element => element.textContent.trim().replace(/\\s+/g, ' '))"""


def cut_text(page: Page, selector: str, *, hyphens: bool = False) -> list[str]:
    """The texts of the elements matching `selector` that are cut off or have a word broken inside (with `hyphens`,
    a break just after a hyphen is fine: "Annabelle- / Marie")."""
    found = page.evaluate(CUT_TEXT, [selector, hyphens])
    assert isinstance(found, list)
    return [str(text) for text in found]


def expect_new_table(page: Page, old_code: str, timeout: float = 5000) -> str:
    """Wait until `page` is at a table other than `old_code` (its rematch); return that table's code.

    Watches the address rather than waiting for a navigation: the host's phone is sent to the new table twice at
    once (the rematch form's answer and its live refresh), and the first navigation is cut short by the second.
    """
    expect(page).to_have_url(re.compile(rf"/t/(?!{old_code}$)[A-Z0-9]+$"), timeout=timeout)
    return page.url.rsplit("/", 1)[1]
