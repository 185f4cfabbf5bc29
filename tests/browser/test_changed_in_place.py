"""A tap's answer changes the board in place (static/js/morph.js): what is still there stays, and the board goes on
asking the server for exactly what it does not show yet."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import expect_version, start_from_home, tap, total, version, wait_live


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


def shown_board(page: Page) -> dict[str, object]:
    """What the board says (its text as read), and its log's items by id with "Show all", as the phone shows them."""
    return {
        "text": page.locator("#board").inner_text(),
        "log": page.locator("#log li").evaluate_all("items => items.map(item => item.id)"),
        "more": page.locator("#log-more").evaluate("more => more.hidden ? '' : more.innerText.trim()"),
    }


@pytest.mark.browser
def test_after_taps_undos_and_a_live_update_the_board_reads_as_a_page_opened_anew(
    server: Server, phones: Phones
) -> None:
    """A tap's answer brings only the log's changes, which the page makes itself (static/js/morph.js); an Undo's
    answer and a live refresh bring the log whole. Past the board's 30 lines, through all of them, the phone shows
    exactly what the same phone sees on a page opened anew."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    for _ in range(27):
        server.act(code, token, type="play", player=server.state(code)["current"], card="0")
    ann = phones.seated(server, table, "Ann")
    fresh = ann.context.new_page()
    steps = ["1", "2", "Undo", "Undo", "Redo", "1", "another phone", "2", "1"]
    for step in steps:
        ann.wait_for_timeout(700)  # the pad rests after each of this phone's own taps (static/js/onetap.js)
        if step == "another phone":
            before = version(ann)
            server.act(code, token, type="play", player=server.state(code)["current"], card="0")
            expect_version(ann, before + 1)
        else:
            tap(ann, step)
        fresh.goto(ann.url)
        assert shown_board(ann) == shown_board(fresh), f"after {step!r}"
    assert shown_board(ann)["more"] == "Show all 32 entries"  # past the board's 30 lines
