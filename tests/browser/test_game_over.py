"""Game over shows standings and a chart of lives round by round, on every phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Phones, Server
from .table import join, wait_live


def finish_a_game(server: Server, code: str, token: str) -> None:
    """Two rounds: Ann bombs once and goes out; then her Bombs put Bob and Cy out."""
    server.act(code, token, type="play", player="Ann", card="bomb", zeros=[])
    server.act(code, token, type="play", player="Bob", card="0")
    server.act(code, token, type="play", player="Cy", card="0")
    server.act(code, token, type="hand", player="Ann", cards=1)
    server.act(code, token, type="play", player="Ann", card="7")  # her last card: round 2
    while (state := server.state(code))["status"] == "playing":
        current = state["current"]
        server.act(code, token, type="play", player=current, card="bomb" if current == "Ann" else "0", zeros=[])


@pytest.mark.browser
def test_game_over_shows_standings_and_the_lives_chart(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    ann, watcher = phones.new(), phones.new()
    join(ann, server.local(table["join_url"]), "Ann")
    join(watcher, server.local(table["join_url"]), "Just watching")
    for phone in (ann, watcher):
        wait_live(phone)
    finish_a_game(server, code, token)
    for phone in (ann, watcher):
        standings = phone.get_by_role("region", name="Standings")
        expect(standings).to_be_visible()
        rows = standings.locator("tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.first).to_have_text("1Ann51")
        expect(standings.locator("tbody tr th")).to_have_text(["Ann", "Bob", "Cy"])
        expect(standings).to_contain_text("Won the most rounds: Ann (1 round)")
        chart = standings.get_by_role("img", name="Lives of each player, round by round")
        expect(chart).to_be_visible()
        expect(chart.locator("polyline")).to_have_count(3)
        # Three points per line: the start, the start of round 2, the end.
        assert len((chart.locator("polyline").first.get_attribute("points") or "").split()) == 3
        # No running total or draw pile once the game is over.
        expect(phone.get_by_label("Running total", exact=True)).to_have_count(0)
        expect(phone.locator("#banner .winner")).to_contain_text("Ann wins!")
    # Where the columns show (a small tablet, a phone on its side), the headings wrap between words, never inside one
    # ("Round / s won" at 360 px; narrower screens show a block per player, test_small_screens.py).
    for width, height in ((600, 900), (740, 360)):
        ann.set_viewport_size({"width": width, "height": height})
        assert ann.locator("#standings thead").evaluate("thead => thead.getBoundingClientRect().height") > 20
        assert ann.locator("#standings thead th").evaluate_all(SPLIT_WORDS) == [], width


# Each heading word whose letters sit on more than one line.
SPLIT_WORDS = """cells => cells.flatMap(cell => {
  const text = cell.firstChild, split = [];
  for (const match of text.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    if (new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size > 1) split.push(match[0]);
  }
  return split;
})"""
