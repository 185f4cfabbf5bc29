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
    height = total.evaluate("total => total.getBoundingClientRect().height")
    assert height >= 600 / 5, height


@pytest.mark.browser
def test_a_team_games_display_shows_each_teams_lives_large_and_live(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy", "Dee"], variant="teams")  # seats alternate: Ann and Cy
    code, token = table["code"], table["token"]
    display = phones.new()
    display.set_viewport_size({"width": 1024, "height": 600})  # a tablet on its side
    display.goto(f"{server.url}/t/{code}/display")
    rows = display.locator(".display-lives > li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Team A (Ann, Cy)")
    expect(rows.nth(1)).to_contain_text("Team B (Bob, Dee)")
    team_b = rows.nth(1).get_by_role("img")
    expect(team_b).to_have_accessible_name("5 of 5 lives left")
    for player, card in (("Ann", "7"), ("Bob", "7"), ("Cy", "1")):
        server.act(code, token, type="play", player=player, card=card)
    server.act(code, token, type="bust", player="Dee")  # Dee can't play at 15: Team B loses a life
    expect(team_b).to_have_accessible_name("4 of 5 lives left", timeout=3000)
    expect(display.locator(".display-last")).to_contain_text("Team B loses a life (4 lives left)")
    # Read from across the room: each team's row is at least a twentieth of the screen's height, and both
    # rows are on the screen without scrolling.
    # Measured in one step in the page (and retried by expect): a live refresh may swap the rows in between.
    for index in range(2):
        expect(rows.nth(index)).to_be_in_viewport(ratio=1)
        height = rows.nth(index).locator(".pname").evaluate("name => name.getBoundingClientRect().height")
        assert height >= 600 / 20, height
