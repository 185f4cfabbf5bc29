"""A live refresh leaves a phone where its player is reading: scrolled down to the players or the log, the page used
to jump a whole board further down at every card another phone entered: the browser's scroll anchoring kept the
focused card button (of the old board) in place while htmx put the new board in above it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Phones, Server
from .table import card, start_from_home, total, wait_live


@pytest.mark.browser
def test_a_live_refresh_keeps_a_scrolled_phone_where_it_was(server: Server, phones: Phones) -> None:
    page = phones.new()
    code = start_from_home(page, server.url, ["Ann", "Bob", "Cy", "Dee"])
    wait_live(page)
    for number in ("1", "2", "3"):  # this phone's own taps first (its card button keeps the focus)
        card(page, number).click()
        expect(total(page)).not_to_have_text("0")
        page.wait_for_timeout(650)  # after its own tap, a new pad ignores taps for 600 ms (static/js/onetap.js)
    page.evaluate("window.scrollTo(0, 600)")  # down at the players' rows
    before = page.evaluate("window.scrollY")
    assert before == 600
    # The same table's page on a second tab of this phone's browser enters a card: the first tab refreshes live.
    other = page.context.new_page()
    other.goto(f"{server.url}/t/{code}")
    card(other, "1").click()
    expect(total(page)).to_have_text("7")
    page.wait_for_timeout(300)  # a jump comes with the swap itself; leave the browser a moment to show it
    assert page.evaluate("window.scrollY") == before
