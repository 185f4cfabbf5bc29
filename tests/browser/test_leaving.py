"""A player gets up and leaves mid-game; the host takes them out from their Fix; Undo takes it back."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Server
from .table import hand, newest_log, row, start_from_home, tap, turn


@pytest.mark.browser
def test_the_host_takes_out_a_player_who_left_and_can_undo_it(server: Server, page: Page) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    code = start_from_home(page, server.url, ["Ann", "Bob", "Cy", "Dee"])
    tap(page, "3")
    cy = row(page, "Cy")
    cy.get_by_label("Fix Cy's hand size, or say Cy has left").click()
    leave = cy.get_by_role("button", name="Cy has left the game")
    expect(leave).to_be_visible()
    box = leave.bounding_box()
    assert box is not None and box["height"] >= 44, "a button a big finger can hit"
    expect(cy.get_by_text("Undo brings Cy back.")).to_be_visible()
    tap(page, leave)
    expect(cy.locator(".pname")).to_contain_text("Left")
    expect(hand(page, "Cy")).to_have_text("0 cards")
    expect(cy.get_by_label("Fix Cy's hand size, or say Cy has left")).to_have_count(0)
    expect(newest_log(page)).to_contain_text("Cy has left the game: their 10 cards go on the discard pile.")
    expect(turn(page)).to_have_text("Bob's turn")
    expect(page.locator("#status .next")).to_have_text("then Dee")
    # Focus did not fall to the page's top with the Fix that is gone: the next tap is in reach of a keyboard.
    assert page.evaluate("document.activeElement !== document.body")
    players = {player["name"]: player for player in server.state(code)["players"]}
    assert players["Cy"]["left"] and players["Cy"]["out"]

    tap(page, "Undo")
    expect(hand(page, "Cy")).to_have_text("10 cards")
    expect(cy.locator(".pname")).not_to_contain_text("Left")
    expect(page.locator("#strip")).to_contain_text("Cy leaving the game")
