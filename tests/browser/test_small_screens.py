"""Small phones: the home page's choices keep each radio beside its words; no card's word breaks in the middle, nor
any word of the game-over standings or the Bomb sheet's buttons, with the phone's text at its usual size or at 150 %."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import cut_text, start_from_home


@pytest.mark.browser
@pytest.mark.parametrize("width", [320, 390])
def test_each_game_choice_has_its_radio_beside_the_first_line_of_its_words(
    server: Server, phones: Phones, width: int
) -> None:
    page = phones.new()
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(server.url + "/")
    choices = page.locator("label.choice")
    assert choices.count() == 3
    for index in range(choices.count()):
        label = choices.nth(index)
        radio = label.locator("input[type=radio]").bounding_box()
        words = label.bounding_box()
        assert radio is not None and words is not None
        # Beside, not above: the words start to the right of the radio, and the label is not a radio-high
        # line followed by the words underneath (which made each choice look like two items).
        line = float(page.evaluate("el => parseFloat(getComputedStyle(el).lineHeight) || 24", label.element_handle()))
        assert radio["x"] + radio["width"] <= words["x"] + 40, label.inner_text()
        assert words["height"] <= 3 * line + 20, f"{label.inner_text()!r} is {words['height']} px high"
        first_line_middle = words["y"] + min(words["height"], 2 * line) / 2
        assert abs((radio["y"] + radio["height"] / 2) - first_line_middle) <= line, label.inner_text()


# The words of every button in the pad that are split across two lines (a word is split when the browser
# needs more than one box to draw it).
SPLIT_WORDS = """
() => [...document.querySelectorAll('#pad button')].flatMap(button => {
  const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
  const split = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
      if (lines.size > 1) split.push(match[0]);
    }
  }
  return split;
})
"""


@pytest.mark.browser
def test_no_card_breaks_a_word_in_the_middle_on_a_320_px_phone(server: Server, phones: Phones) -> None:
    page = phones.new()
    page.set_viewport_size({"width": 320, "height": 800})
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    page.wait_for_selector("#pad button")
    assert page.locator("#pad").get_by_role("button", name="Reverse").is_visible()
    assert page.evaluate(SPLIT_WORDS) == []


# The sizes families' phones have: a 320 px phone, and a 360 px one with its text at 150 % (a "large text" setting,
# emulated as in test_screens.py by the page's root font size).
SMALL_SCREENS = [(320, "100%"), (320, "150%"), (360, "150%")]


def show_at(page: Page, width: int, text: str) -> None:
    page.set_viewport_size({"width": width, "height": 640})
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")


@pytest.mark.browser
def test_the_standings_never_break_a_name_or_a_heading_inside_a_word(server: Server, phones: Phones) -> None:
    # "Grandma Rose" read "Grand / ma / Rose" at 320 px, and "Player" and "Rounds won" broke too with larger text.
    table = server.create_table(["Grandma Rose", "Dad", "Mia"])
    code, token = table["code"], table["token"]
    while (state := server.state(code))["status"] == "playing":
        # Grandma Rose's Bombs that nobody answers with a 0 put Dad and Mia out; they play 0 in between.
        current = state["current"]
        card = "bomb" if current == "Grandma Rose" else "0"
        server.act(code, token, type="play", player=current, card=card, zeros=[])
    page = phones.new()
    page.goto(f"{server.url}/t/{code}")
    standings = page.get_by_role("region", name="Standings")
    expect(standings.locator("tbody tr th")).to_have_text(["Grandma Rose", "Dad", "Mia"])
    headings = page.locator("#standings thead")
    for width, text in SMALL_SCREENS:
        show_at(page, width, text)
        # Too narrow for four columns: each number says what it is, and the headings row is out of sight.
        labels = standings.locator("tbody td:last-child").evaluate_all(LABELS)
        assert labels == ['"Rounds won: " / ""'] * 3, f"{width} px, {text} text"
        assert headings.evaluate("thead => thead.getBoundingClientRect().height") <= 1
        assert cut_text(page, "#standings tbody th, #standings tbody td") == [], f"{width} px, {text} text"
    # A landscape phone has room for the columns: the headings show, and no word of theirs breaks either.
    page.set_viewport_size({"width": 740, "height": 360})
    assert headings.evaluate("thead => thead.getBoundingClientRect().height") > 20
    assert cut_text(page, "#standings th, #standings td") == []


# The words the page puts before each cell's text, as the browser has them ('"Rounds won: " / ""': shown, not read out).
LABELS = "cells => cells.map(cell => getComputedStyle(cell, '::before').content)"


@pytest.mark.browser
def test_the_bomb_sheets_cancel_is_one_word_on_a_small_phone_with_large_text(server: Server, phones: Phones) -> None:
    # Confirm took most of the width and Cancel read "Canc / el".
    table = server.create_table(["Grandma Rose", "Dad", "Mia"])
    page = phones.seated(server, table, "Grandma Rose")
    for width, text in SMALL_SCREENS:
        page.reload()
        show_at(page, width, text)
        page.locator("#pad").get_by_role("button", name="Bomb").click()
        sheet = page.get_by_role("dialog", name="Who put down a 0?")
        expect(sheet).to_be_visible()
        expect(sheet.get_by_role("link", name="Cancel")).to_be_visible()
        assert cut_text(page, "#bomb-sheet button, #bomb-sheet a, #bomb-sheet label") == [], f"{width} px, {text} text"


@pytest.mark.browser
def test_a_teams_lives_stay_beside_its_name_and_no_player_is_broken_in_two(server: Server, phones: Phones) -> None:
    # At 150 % text the players in brackets between a team's name and its hearts broke "Grandma Rose, / Mia"
    # and pushed the hearts to a line of their own.
    table = server.create_table(["Grandma Rose", "Dad", "Mia", "Leo"], variant="teams")
    page = phones.seated(server, table, "Dad")
    team = page.locator(".team-lives").first
    expect(team).to_contain_text("Team A")
    for width, text in SMALL_SCREENS:
        show_at(page, width, text)
        # The hearts on the line's first row, where the team's name starts.
        line, hearts = team.bounding_box(), team.locator(".lives").bounding_box()
        assert line is not None and hearts is not None
        assert hearts["y"] - line["y"] < hearts["height"] / 2, f"{width} px, {text} text: the hearts wrapped"
        assert cut_text(page, ".team-lives .member") == [], f"{width} px, {text} text"
    expect(team.locator(".team-members")).to_have_text("Grandma Rose, Mia")
