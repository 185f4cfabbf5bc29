"""The table display — huge total, whose turn, direction, lives, last event; watch-only."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import cut_text
from .test_game_over import finish_a_game
from .test_tiebreak_shown import sudden_death_tie

# For each player's row on the display: where the name ends and the hearts begin, and their heights.
ROW_BOXES = """() => [...document.querySelectorAll(".display-lives li")].map(row => {
  const name = row.querySelector(".pname").getBoundingClientRect();
  const hearts = row.querySelector(".lives").getBoundingClientRect();
  return {text: row.textContent, nameBottom: name.bottom, nameHeight: name.height,
          heartsTop: hearts.top, heartsHeight: hearts.height};
})"""


def open_display(server: Server, phones: Phones, code: str, height: int = 600) -> Page:
    """The table display on a tablet on its side (1024 px wide), as a family props one up at the table."""
    display = phones.new()
    display.set_viewport_size({"width": 1024, "height": height})
    display.goto(f"{server.url}/t/{code}/display")
    return display


@pytest.mark.browser
def test_the_table_display_follows_the_game_large_and_never_enters_cards(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    display = open_display(server, phones, code)
    total = display.get_by_label("Running total", exact=True)
    expect(total).to_have_text("0")
    expect(display.locator(".display-total")).to_have_text("Total 0 up to 21")  # in words, not "0 / 21"
    expect(display.locator(".display-turn")).to_have_text("Ann's turn")
    # Nothing to tap but the switch of the spoken calls.
    expect(display.get_by_role("button")).to_have_text(["Speak the calls"])
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
    display = open_display(server, phones, code)
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


@pytest.mark.browser
def test_on_a_tablet_long_names_stay_whole_and_every_player_shows_hearts_under_the_name(
    server: Server, phones: Phones
) -> None:
    table = server.create_table(["Annabelle", "Bartholomew", "Cy", "Dee", "Evangeline", "Maximilian"])
    server.act(table["code"], table["token"], type="play", player="Annabelle", card="6")
    display = open_display(server, phones, table["code"], height=768)
    expect(display.locator(".display-turn")).to_have_text("Bartholomew's turn")
    # "Bartholome / w's turn" and "Round / 1" were broken inside a word on a 1024 px tablet.
    assert cut_text(display, ".display-turn, .display-direction, .display-lives .pname") == []
    # The turn is framed and said, not drawn like a link; every player's hearts sit under the name, as big.
    current = display.locator(".display-lives li[aria-current=true]")
    expect(current).to_have_count(1)
    expect(current.locator(".pname")).to_have_text("Bartholomew")
    # A retrying check: the display may swap in a fresh board as its live stream connects, and a
    # name caught mid-swap is detached and has no computed style at all.
    expect(current.locator(".pname")).to_have_css("text-decoration-line", "none")
    # Measured in one step in the page, so a live swap cannot detach a row between two reads.
    rows = display.evaluate(ROW_BOXES)
    assert len(rows) == 6
    for row in rows:
        assert row["heartsTop"] >= row["nameBottom"] - 2, row["text"]
        assert row["heartsHeight"] >= 0.6 * row["nameHeight"], row["text"]


@pytest.mark.browser
def test_a_changed_rematch_says_what_changed_on_the_display_until_its_first_card(
    server: Server, phones: Phones
) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    finish_a_game(server, code, token)
    second = rematch(server, code, token, first_player="Cy", variant="sudden_death")
    display = open_display(server, phones, second)
    note = display.locator(".display-changed")
    expect(note).to_have_text(
        "New game. Changed by the host: Cy starts; "
        "a Sudden Death game (it ends as soon as a player loses their last life)."
    )
    expect(display.locator(".display-turn")).to_have_text("Cy's turn")
    # In the display's own size (read from across the table, like the direction line), whole on the screen,
    # and no word cut in two.
    expect(note).to_be_in_viewport(ratio=1)
    sizes = display.evaluate(
        "() => ['.display-changed', '.display-direction'].map("
        "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"
    )
    assert sizes[0] >= sizes[1] >= 16, sizes
    assert cut_text(display, ".display-changed") == []
    # The first card: the note goes, live, as it does on the phones.
    server.act(second, token, type="play", player="Cy", card="5")
    expect(display.get_by_label("Running total", exact=True)).to_have_text("5", timeout=3000)
    expect(note).to_have_count(0)


@pytest.mark.browser
def test_a_display_that_lost_the_server_says_so_and_fades_until_it_is_current_again(
    server: Server, phones: Phones
) -> None:
    """Cut off, the display says so and fades, rather than showing "4 / 21, Bob's turn" as if it were the table's."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    display = open_display(server, phones, code)
    total = display.get_by_label("Running total", exact=True)
    server.act(code, token, type="play", player="Ann", card="4")
    expect(total).to_have_text("4", timeout=3000)
    bar = display.get_by_role("status").filter(has_text="Reconnecting")
    expect(bar).to_be_hidden()

    display.context.set_offline(True)
    for player, card in (("Bob", "7"), ("Cy", "5")):
        server.act(code, token, type="play", player=player, card=card)
    expect(bar).to_have_text("Reconnecting… these numbers may be out of date.", timeout=8000)
    expect(display.locator(".display")).to_have_css("opacity", "0.45")
    expect(total).to_have_text("4")  # what it last heard, faded and flagged

    display.context.set_offline(False)
    expect(total).to_have_text("16", timeout=8000)
    expect(bar).to_be_hidden()
    expect(display.locator(".display")).to_have_css("opacity", "1")


@pytest.mark.browser
def test_the_display_follows_its_table_to_the_rematch_and_shows_the_series_at_game_over(
    server: Server, phones: Phones
) -> None:
    """Nobody stands at the display to tap "Go to the new table": a café's screen stayed on the old winner."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    finish_a_game(server, code, token)
    second = rematch(server, code, token)
    finish_a_game(server, second, token)
    display = open_display(server, phones, second)
    expect(display.locator(".display-done")).to_have_text("Ann wins!")
    expect(display.locator(".display-series")).to_have_text("Series after 2 games: Ann 2 – Bob 0 – Cy 0")

    third = rematch(server, second, token)
    expect(display).to_have_url(f"{server.url}/t/{third}/display", timeout=8000)
    expect(display.locator(".display-turn")).to_have_text("Ann's turn")
    expect(display.get_by_label("Running total", exact=True)).to_have_text("0")
    # An old game's display opened later goes straight to the game its table is playing now.
    old = open_display(server, phones, code)
    expect(old).to_have_url(f"{server.url}/t/{third}/display")


def rematch(server: Server, code: str, token: str, **changes: str) -> str:
    """Start the same game again through the API (with the host's `changes`, if any); the new table's code."""
    status, body = server.request("POST", f"/api/v1/tables/{code}/rematch", changes, token=token)
    assert status == 201, body
    return str(body["code"])


@pytest.mark.browser
def test_the_display_names_the_game_and_a_sudden_death_tie_break_fits_the_tablet(
    server: Server, phones: Phones
) -> None:
    """The display says "Sudden Death" after its rematch note goes, and its tie-break fits a 1024×600 tablet (it
    once ran 122 px past it, the "Just now" line cut off at the foot, where nobody scrolls). Only the language switch,
    picked once when the display is set up, may sit below the screen."""
    table = server.create_table(["Ann", "Bob", "Cy"], variant="sudden_death")
    display = open_display(server, phones, table["code"])
    expect(display.locator(".display-direction")).to_have_text("↻ Clockwise · Sudden Death · Round 1")
    standard = open_display(server, phones, server.create_table(["Ann", "Bob"])["code"])
    expect(standard.locator(".display-direction")).to_have_text("↻ Clockwise · Round 1")
    code, _ = sudden_death_tie(server)
    tie = open_display(server, phones, code)
    expect(tie.locator(".display-tiebreak")).to_have_text("Tie-break!")
    overflow = tie.evaluate("() => document.querySelector('main').getBoundingClientRect().bottom - window.innerHeight")
    assert overflow <= 0, overflow
    expect(tie.locator("main .display-lives")).to_be_in_viewport(ratio=1)
