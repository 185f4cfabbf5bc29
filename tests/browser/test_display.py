"""Issue 11, point 7: the table display — huge total, whose turn, direction, lives, last event; watch-only."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Phones, Server


@pytest.mark.browser
def test_the_table_display_follows_the_game_large_and_never_enters_cards(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    display = phones.new()
    display.set_viewport_size({"width": 1024, "height": 600})  # a tablet on its side
    display.goto(f"{server.url}/t/{code}/display")
    total = display.get_by_label("Running total", exact=True)
    expect(total).to_have_text("0")
    expect(display.locator(".display-turn")).to_have_text("Ann's turn")
    expect(display.get_by_role("button")).to_have_count(0)  # nothing to tap
    expect(display.locator(".display-direction")).to_contain_text("Clockwise")
    server.act(code, token, type="play", player="Ann", card="6")
    expect(total).to_have_text("6", timeout=3000)
    server.act(code, token, type="play", player="Bob", card="reverse")
    expect(display.locator(".display-direction")).to_contain_text("Counterclockwise", timeout=3000)
    expect(display.locator(".display-last")).to_contain_text("Bob played Reverse")
    expect(display.locator(".display-turn")).to_have_text("Ann's turn")
    # Readable from 1.5 m: the total is at least a fifth of the screen's height.
    box = total.bounding_box()
    assert box is not None and box["height"] >= 600 / 5, box
