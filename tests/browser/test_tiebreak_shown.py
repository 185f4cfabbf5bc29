"""While a tie-break lasts, the table display and the phones say so (who is tied, how it
is settled), whatever the newest log line is: a hand Fix entered meanwhile used to leave the display on a huge
"0 / 21" with no turn and no headline, as if frozen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import join, wait_live


def sudden_death_tie(server: Server) -> tuple[str, str]:
    """Sudden Death: Ann's Bombs cost Cy a life five times (Bob answers each with a 0): Ann and Bob tie on 5."""
    table = server.create_table(["Ann", "Bob", "Cy"], variant="sudden_death")
    code, token = table["code"], table["token"]
    for _ in range(4):
        server.act(code, token, type="play", player="Ann", card="bomb", zeros=["Bob"])
        server.act(code, token, type="play", player="Bob", card="0")
        server.act(code, token, type="play", player="Cy", card="0")
    server.act(code, token, type="play", player="Ann", card="bomb", zeros=["Bob"])
    assert server.state(code)["status"] == "tiebreak"
    return code, token


def both_teams_out(server: Server) -> tuple[str, str, str]:
    """Teams (Ann, Cy, Eve against Bob, Dee, Fay): Bob's unanswered Bombs empty both teams at once."""
    table = server.create_table(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], variant="teams")
    code, token = table["code"], table["token"]
    for _ in range(4):  # each costs Team A one life (Cy) and Team B one (Dee)
        for player, card, zeros in (("Ann", "0", []), ("Bob", "bomb", ["Ann", "Eve", "Fay"])):
            server.act(code, token, type="play", player=player, card=card, zeros=zeros)
        for player in ("Cy", "Dee", "Eve", "Fay"):
            server.act(code, token, type="play", player=player, card="0")
    server.act(code, token, type="play", player="Ann", card="0")
    server.act(code, token, type="play", player="Bob", card="bomb", zeros=[])
    assert server.state(code)["status"] == "tiebreak"
    return code, token, table["join_url"]


def one_bracket(name: str) -> re.Pattern[str]:
    """A tie-break label: the name and the card count, in one pair of brackets."""
    return re.compile(rf"^{name} \(\d+ cards?\)\s*$")


def open_display(phones: Phones, server: Server, code: str) -> Page:
    display = phones.new()
    display.set_viewport_size({"width": 360, "height": 740})
    display.goto(f"{server.url}/t/{code}/display")
    wait_live(display)
    return display


@pytest.mark.browser
def test_the_display_shows_a_sudden_death_tie_break_even_after_a_hand_fix(server: Server, phones: Phones) -> None:
    code, token = sudden_death_tie(server)
    display = open_display(phones, server, code)
    headline = display.locator(".display-tiebreak")
    expect(headline).to_have_text("Tie-break!")
    expect(display.locator(".display-turn")).to_have_text("Ann and Bob are tied")
    expect(display.locator(".display-how")).to_contain_text("adds up the number cards left in their hand")
    expect(display.locator(".display-how")).to_contain_text("Lowest total wins.")
    # No total to watch while nobody plays: the 0 that looked frozen is gone.
    expect(display.get_by_label("Running total", exact=True)).to_have_count(0)
    # The tied players are framed, the player who is out is not.
    tied = display.locator(".display-lives li.tied .pname")
    expect(tied).to_have_text(["Ann", "Bob"])
    # A hand Fix during the tie-break: its line comes in below, and the tie-break stays on the screen.
    server.act(code, token, type="hand", player="Ann", cards=3)
    expect(display.locator(".display-last")).to_contain_text("Hand fixed: Ann holds 3 cards.", timeout=5000)
    expect(headline).to_have_text("Tie-break!")
    expect(display.locator(".display-turn")).to_have_text("Ann and Bob are tied")
    # Read from across the table: the headline is on the screen without scrolling, and large.
    expect(headline).to_be_in_viewport(ratio=1)
    height = headline.evaluate("line => line.getBoundingClientRect().height")
    assert height >= 740 / 20, height
    # Settled: the display says who won, as for any game over.
    server.act(code, token, type="tiebreak", values={"Ann": 9, "Bob": 2})
    expect(display.locator(".display-done")).to_have_text("Bob wins!", timeout=5000)
    expect(headline).to_have_count(0)


@pytest.mark.browser
def test_a_team_tie_break_shows_on_the_display_and_on_every_phone_after_a_fix(server: Server, phones: Phones) -> None:
    code, token, join_url = both_teams_out(server)
    display = open_display(phones, server, code)
    ann, watcher = phones.new(), phones.new()
    join(ann, server.local(join_url), "Ann")
    join(watcher, server.local(join_url), "Just watching")
    for phone in (ann, watcher):
        wait_live(phone)
    server.act(code, token, type="hand", player="Ann", cards=3)
    expect(display.locator(".display-last")).to_contain_text("Hand fixed: Ann holds 3 cards.", timeout=5000)
    expect(display.locator(".display-tiebreak")).to_have_text("Tie-break!")
    expect(display.locator(".display-turn")).to_have_text("Both teams are out")
    expect(display.locator(".display-how")).to_contain_text("The team with the lower total wins.")
    for phone in (ann, watcher):
        expect(phone.locator(".just-happened")).to_contain_text("Hand fixed: Ann holds 3 cards.", timeout=5000)
        banner = phone.locator("#banner .tiebreak")
        expect(banner).to_contain_text("Both teams are out at once: tie-break!")
        expect(banner).to_contain_text("Team A (Ann, Cy and Eve) and Team B (Bob, Dee and Fay) are both out.")
    # Ann's phone enters the totals per team: each team's players under its name, each with their card count
    # in one pair of brackets ("Ann (3 cards)", not "Ann (Team A) (3 cards)").
    form = ann.locator("#banner form.tiebreak-form")
    groups = form.get_by_role("group")
    expect(groups).to_have_count(2)
    team_a = form.get_by_role("group", name="Team A")
    expect(team_a.locator("label")).to_have_text([one_bracket(name) for name in ("Ann", "Cy", "Eve")])
    expect(team_a.locator("label").first).to_have_text(re.compile(r"^Ann \(3 cards\)\s*$"))
    team_b = form.get_by_role("group", name="Team B")
    expect(team_b.locator("label")).to_have_text([one_bracket(name) for name in ("Bob", "Dee", "Fay")])
    expect(team_a.get_by_role("spinbutton", name="Ann (3 cards)")).to_be_visible()
