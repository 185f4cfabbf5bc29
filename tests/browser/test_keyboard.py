"""A keyboard user keeps their place on the board: after a card, Undo, Redo or a hand fix the answer replaces the
whole board, and focus comes back to the same control (or the nearest one), not to the top of the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import Phones, Server
from .table import card, expect_version, row, start_from_home, tap, total, version


def press_enter(page: Page, control: Locator) -> None:
    """Focus `control`, press Enter, and wait until the new board is in and takes keys again."""
    before = version(page)
    control.focus()
    expect(control).to_be_focused()
    page.keyboard.press("Enter")
    expect_version(page, before + 1)
    # A changed pad ignores presses for a moment (static/js/onetap.js: the second half of a double tap).
    expect(page.locator("#board:not([data-settling])")).to_be_attached()


def focused(page: Page) -> str:
    """The focused element, for a failure message: its tag and text."""
    return str(page.evaluate("(document.activeElement.tagName + ' ' + document.activeElement.textContent).trim()"))


@pytest.mark.browser
def test_enter_on_a_card_leaves_focus_on_the_pad(server: Server, page: Page) -> None:
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    press_enter(page, card(page, "7"))
    expect(total(page)).to_have_text("7")
    expect(card(page, "7")).to_be_focused()  # the same card, on the new board
    press_enter(page, card(page, "7"))
    expect(total(page)).to_have_text("14")
    expect(card(page, "7")).to_be_focused()
    press_enter(page, card(page, "6"))
    expect(total(page)).to_have_text("20")
    # 6 would go over 21 now (its button is disabled): the pad's first card that can be played has focus,
    # and the next Tab goes on along the pad, not to the top of the page.
    expect(card(page, "0")).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.value") == "1", focused(page)


@pytest.mark.browser
def test_undo_redo_and_a_hand_fix_keep_focus_on_their_control(server: Server, page: Page) -> None:
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    press_enter(page, card(page, "7"))
    press_enter(page, card(page, "3"))
    press_enter(page, card(page, "Undo"))
    expect(total(page)).to_have_text("7")
    expect(card(page, "Undo")).to_be_focused()
    press_enter(page, card(page, "Undo"))
    expect(total(page)).to_have_text("0")
    # Nothing left to undo: its button is disabled, Redo (now enabled) is the nearest control.
    expect(card(page, "Undo")).to_be_disabled()
    expect(card(page, "Redo")).to_be_focused()
    press_enter(page, card(page, "Redo"))
    expect(total(page)).to_have_text("7")
    expect(card(page, "Redo")).to_be_focused()
    press_enter(page, card(page, "Redo"))
    expect(total(page)).to_have_text("10")
    expect(card(page, "Undo")).to_be_focused()  # nothing left to redo: back to Undo

    # A hand fix typed in and saved with Enter: the new board's "Fix" is closed, and it has focus.
    fix = row(page, "Cy").locator("summary")
    fix.focus()
    page.keyboard.press("Enter")
    field = row(page, "Cy").get_by_role("spinbutton")
    expect(field).to_be_visible()
    field.fill("4")  # the cursor is in the field
    before = version(page)
    page.keyboard.press("Enter")
    expect_version(page, before + 1)
    expect(row(page, "Cy").locator(".hand")).to_have_text("4 cards")
    expect(row(page, "Cy").locator("summary")).to_be_focused()


@pytest.mark.browser
def test_the_bomb_sheet_by_keyboard_returns_focus_to_the_bomb(server: Server, page: Page) -> None:
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    press_enter(page, card(page, "5"))
    bomb = card(page, "Bomb")
    bomb.focus()
    page.keyboard.press("Enter")  # opens "Who put down a 0?"
    sheet = page.get_by_role("dialog", name="Who put down a 0?")
    expect(sheet).to_be_visible()
    page.keyboard.press("Space")  # the sheet's first box (Cy) has focus: ticked
    expect(sheet.get_by_role("checkbox", name="Cy")).to_be_checked()
    before = version(page)
    sheet.get_by_role("button", name="Confirm").focus()
    page.keyboard.press("Enter")
    expect_version(page, before + 1)
    expect(total(page)).to_have_text("0")
    expect(card(page, "Bomb")).to_be_focused()


@pytest.mark.browser
def test_a_screen_reader_hears_each_card_once_from_a_region_that_stays(server: Server, phones: Phones) -> None:
    """The board's live regions stay through each swap: were they replaced, another phone's card would never be read."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    bob = phones.seated(server, table, "Bob")
    announce = bob.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(announce).to_have_text("")  # nothing read out on arrival: the page itself is read
    bob.evaluate("document.getElementById('announce').dataset.kept = 'yes'")
    server.act(code, token, type="play", player="Ann", card="6")  # another phone's card
    expect(announce).to_have_text("Just now: Ann played 6: total 6. Bob's turn. Your turn!")
    # The cards are a form named for whose card they enter, said when a screen reader reaches them.
    expect(bob.get_by_role("form", name="Bob plays…").get_by_role("button", name="5 makes 11")).to_be_visible()
    tap(bob, "5")  # this phone's own card
    expect(announce).to_have_text("Just now: Bob played 5: total 11. Cy's turn.")
    expect(bob.locator("#announce[data-kept=yes]")).to_have_count(1)  # the same element throughout
    assert bob.locator("#board #announce").count() == 0


@pytest.mark.browser
def test_the_news_is_read_without_its_why_link(server: Server, phones: Phones) -> None:
    """An unusual turn's news, read out, must not end in a bare "Why?" (its link's word)."""
    table = server.create_table(["Ann", "Bob"])
    code, token = table["code"], table["token"]
    bob = phones.seated(server, table, "Bob")
    server.act(code, token, type="play", player="Ann", card="skip")  # with two players, Ann plays again
    expect(bob.locator("#strip .why")).to_have_text("Why?")
    expect(bob.locator("#announce")).to_have_text(
        "Just now: Ann played Skip. With two players, Ann plays again. Ann's turn."
    )


@pytest.mark.browser
def test_the_card_that_ends_the_game_leaves_the_keyboard_on_the_rematch(server: Server, phones: Phones) -> None:
    """Focus lands on the rematch, not on Undo, which comes after it in the page (as it once did)."""
    table = server.create_table(["Ann", "Bob"])
    code, token = table["code"], table["token"]
    for _ in range(4):  # each Bomb nobody answers costs Bob a life
        server.act(code, token, type="play", player="Ann", card="bomb", zeros=[])
        server.act(code, token, type="play", player="Bob", card="0")
    ann = phones.seated(server, table, "Ann")
    expect(ann.locator("#board:not([data-settling])")).to_be_attached()
    bomb = card(ann, "Bomb")
    bomb.focus()
    ann.keyboard.press("Enter")  # opens the sheet
    sheet = ann.get_by_role("dialog", name="Who put down a 0?")
    press_enter(ann, sheet.get_by_role("button", name="Confirm"))  # Bob had no 0: his last life
    expect(ann.locator(".banner.winner")).to_contain_text("Ann wins!")
    expect(ann.get_by_role("button", name="Rematch with the same players")).to_be_focused()
