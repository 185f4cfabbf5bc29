"""A tap's answer changes the board in place (static/js/morph.js): what is still there stays, and the board goes on
asking the server for exactly what it does not show yet."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Server
from .table import start_from_home, tap, total, wait_live


@pytest.mark.browser
def test_a_tap_keeps_the_pads_buttons_and_changes_only_their_words(server: Server, page: Page) -> None:
    """Swapped whole, a cheap phone parsed, wired up and laid out the whole board again on every tap
    (docs/performance.md, browser phase); in place, the tapped button is the same one, with its new words."""
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    page.evaluate("document.getElementById('card-7').seenBefore = true")  # a mark on the element itself
    tap(page, "7")
    assert total(page).inner_text() == "7"
    assert page.evaluate("document.getElementById('card-7').seenBefore === true")
    expect(page.get_by_role("button", name="7 makes 14")).to_have_count(1)


@pytest.mark.browser
def test_after_a_tap_the_board_asks_only_for_what_is_newer_than_it_shows(server: Server, page: Page) -> None:
    """The refresh's URL names the revision the board shows; changed in place, it must follow the new board, or
    every live refresh would fetch the whole board again for nothing."""
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    wait_live(page)
    tap(page, "7")
    page.wait_for_timeout(500)  # the stream's message for this tap, and the refresh it asks for, are over
    with page.expect_response(lambda response: "/board?" in response.url) as answer:
        page.evaluate("window.referee.refreshBoard()")
    assert answer.value.status == 204, answer.value.url
