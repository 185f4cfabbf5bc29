"""On a phone's turn the cards are in reach: whose turn sits beside the total, not under it, so the pad starts
on the first screen (with whose turn under the total, a 320 × 568 phone showed not one card at "Your turn!")."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import card, cut_text, join

# After this card and its news ("Just now: Mia played Bomb: …, Grandma Rose loses a life …"), it is Dad's turn.
BOMB_ROUND = (("Grandma Rose", "3", ()), ("Dad", "reverse", ()), ("Grandma Rose", "2", ()), ("Mia", "bomb", ("Dad",)))


def dads_phone_on_his_turn(server: Server, phones: Phones, width: int, height: int, dad: str = "Dad") -> Page:
    table = server.create_table(["Grandma Rose", dad, "Mia"])
    code, token = table["code"], table["token"]

    def named(name: str) -> str:
        return dad if name == "Dad" else name

    for player, played, zeros in BOMB_ROUND:
        server.act(code, token, type="play", player=named(player), card=played, zeros=[named(z) for z in zeros])
    page = phones.new()
    page.set_viewport_size({"width": width, "height": height})
    join(page, server.local(table["join_url"]), dad)
    expect(page.locator(".your-turn-cue")).to_have_text("Your turn!")
    return page


def on_screen(page: Page, selector: str) -> list[bool]:
    """For each element matching `selector`: is it whole on the first screen, without scrolling?"""
    boxes = page.evaluate(
        "selector => [...document.querySelectorAll(selector)].map(e => e.getBoundingClientRect().bottom)", selector
    )
    return [bottom <= page.viewport_size["height"] for bottom in boxes]  # type: ignore[index]


@pytest.mark.browser
def test_on_a_360_px_phone_every_number_card_is_on_the_first_screen(server: Server, phones: Phones) -> None:
    page = dads_phone_on_his_turn(server, phones, 360, 740)
    total, turn = page.locator(".total-box").bounding_box(), page.locator(".turn-box").bounding_box()
    assert total is not None and turn is not None
    assert turn["x"] >= total["x"] + total["width"], "whose turn is under the total, not beside it"
    assert all(on_screen(page, "#pad .card.num")), "a number card is below the first screen"


@pytest.mark.browser
def test_on_a_320_px_phone_the_first_row_of_cards_is_on_the_first_screen(server: Server, phones: Phones) -> None:
    page = dads_phone_on_his_turn(server, phones, 320, 568)
    assert on_screen(page, "#pad .card.num")[:4] == [True] * 4, "the 0-3 row is below the first screen"
    assert cut_text(page, "#status p, #status .total-box") == []


@pytest.mark.browser
def test_a_name_too_long_to_sit_beside_the_total_puts_the_turn_under_it_whole(server: Server, phones: Phones) -> None:
    # 24 letters, the longest name a table takes: it once broke as "Wolfeschlegel / steinhausen's turn".
    page = dads_phone_on_his_turn(server, phones, 360, 740, dad="Wolfeschlegelsteinhausen")
    expect(page.locator(".turn")).to_have_text("Wolfeschlegelsteinhausen's turn")
    assert cut_text(page, "#status p") == []


@pytest.mark.browser
def test_on_a_small_phone_the_total_is_beside_the_cards_after_a_tap(server: Server, phones: Phones) -> None:
    """At 320×568 the big total stays in view beside the cards: once it had scrolled away by the second row of
    cards, and a player checking "did my tap count?" scrolled back up after every tap."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.seated(server, table, "Ann")
    ann.set_viewport_size({"width": 320, "height": 568})
    ann.get_by_role("button", name="7 makes 7").scroll_into_view_if_needed()
    ann.get_by_role("button", name="7 makes 7").click()
    title = ann.locator("#pad-title")
    expect(title).to_contain_text("Bob plays…")
    expect(title.locator(".pad-total")).to_have_text("Total 7")
    expect(title).to_be_in_viewport()
    # The form keeps its short name for a screen reader, which hears the total from the live total itself.
    expect(ann.get_by_role("form", name="Bob plays… (you're entering it for Bob)", exact=True)).to_be_visible()


@pytest.mark.browser
def test_the_bomb_sheets_buttons_stay_on_a_landscape_phone_with_six_players(server: Server, phones: Phones) -> None:
    """On a phone on its side Confirm and Cancel stay at the sheet's foot while the names scroll: otherwise only two
    names show and Confirm is below, with no sign the sheet scrolls."""
    table = server.create_table(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"])
    ann = phones.seated(server, table, "Ann")
    ann.set_viewport_size({"width": 740, "height": 360})
    card(ann, "Bomb").click()
    sheet = ann.get_by_role("dialog", name="Who put down a 0?")
    expect(sheet).to_be_visible()
    expect(sheet.get_by_role("button", name="Confirm")).to_be_in_viewport(ratio=1)
    expect(sheet.get_by_role("link", name="Cancel")).to_be_in_viewport(ratio=1)
    # The last name is reached by scrolling the sheet, and ticking it keeps the buttons in place.
    sheet.get_by_label("Fay").check()
    expect(sheet.get_by_role("button", name="Confirm")).to_be_in_viewport(ratio=1)


@pytest.mark.browser
def test_with_large_text_a_two_digit_total_keeps_the_number_cards_side_by_side(server: Server, phones: Phones) -> None:
    """On a 320 px phone with text at 150 %, a two-digit total must not put the cards in one column (the pad's
    "Total 19" floating beside them and taking the room), which once left Undo some 850 px below the screen."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    for player, played in (("Ann", "7"), ("Bob", "5")):
        server.act(table["code"], table["token"], type="play", player=player, card=played)
    # Ann's phone enters Cy's card: the pad's title is the long one, "Cy plays… (you're entering it for Cy)".
    ann = phones.seated(server, table, "Ann")
    ann.set_viewport_size({"width": 320, "height": 568})
    ann.evaluate("document.documentElement.style.fontSize = '150%'")
    expect(ann.locator("#pad-title .pad-total")).to_have_text("Total 12")
    first, second = (ann.locator(f"#card-{value}").bounding_box() for value in ("0", "1"))
    assert first is not None and second is not None
    assert second["y"] == first["y"] and second["x"] > first["x"], "the number cards stand in one column"


@pytest.mark.browser
def test_the_bomb_sheet_says_beside_confirm_who_loses_a_life(server: Server, phones: Phones) -> None:
    """With a phone's text at 200 %, Confirm stays in sight at the sheet's foot while the names to tick may scroll
    out of it: beside Confirm it says who loses a life, so nobody confirms a Bomb that costs names never seen."""
    table = server.create_table(["Ann", "Bob", "Cy", "Dee"])
    ann = phones.seated(server, table, "Ann")
    ann.set_viewport_size({"width": 320, "height": 568})
    ann.evaluate("document.documentElement.style.fontSize = '200%'")
    card(ann, "Bomb").click()
    sheet = ann.get_by_role("dialog", name="Who put down a 0?")
    summary = sheet.locator(".sheet-summary")
    expect(summary).to_have_text("Losing a life: Bob, Cy and Dee.")
    expect(summary).to_be_in_viewport(ratio=1)
    expect(sheet.get_by_role("button", name="Confirm")).to_be_in_viewport(ratio=1)
    sheet.get_by_label("Cy").check()
    expect(summary).to_have_text("Losing a life: Bob and Dee.")
    sheet.get_by_label("Bob").check()
    sheet.get_by_label("Dee").check()
    expect(summary).to_have_text("Nobody loses a life.")
