"""The setup's house rules ask only what the chosen game can meet (a family starting a Standard game should not
read questions about teams and tie-breaks that can never come up)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server

TEAM_QUESTIONS = (
    "Teams: does a Bomb hit the bomber's own teammates?",
    "Teams: one Bomb takes both teams' last lives. Who wins?",
)
TIE_QUESTION = "A tie-break (Sudden Death, or both teams out at once) ends level too. Who wins?"
EVERY_GAME = "What happens when someone plays a number card that takes the total above 21?"


def game(page: Page, label: str) -> None:
    page.get_by_role("radio", name=label).check()


@pytest.mark.browser
def test_the_house_rules_ask_only_what_the_chosen_game_can_meet(server: Server, phones: Phones) -> None:
    page = phones.new()
    page.goto(server.url + "/")
    page.get_by_text("House rules").click()
    expect(page.get_by_role("radio", name="Standard")).to_be_checked()
    expect(page.get_by_label(EVERY_GAME)).to_be_visible()
    expect(page.get_by_label(TIE_QUESTION)).to_be_hidden()
    for question in TEAM_QUESTIONS:
        expect(page.get_by_label(question)).to_be_hidden()

    game(page, "Sudden Death")
    expect(page.get_by_label(TIE_QUESTION)).to_be_visible()
    for question in TEAM_QUESTIONS:
        expect(page.get_by_label(question)).to_be_hidden()

    game(page, "Teams")
    expect(page.get_by_label(TIE_QUESTION)).to_be_visible()
    for question in TEAM_QUESTIONS:
        expect(page.get_by_label(question)).to_be_visible()
    expect(page.get_by_label(EVERY_GAME)).to_be_visible()


@pytest.mark.browser
def test_the_hint_to_pick_teams_shows_only_with_the_teams_game(server: Server, phones: Phones) -> None:
    """Under Standard the hint pointed at team pickers that were hidden: a family went looking for them."""
    page = phones.new()
    page.goto(server.url + "/")
    hint = page.get_by_text("Pick each player's team above")
    expect(hint).to_be_hidden()
    game(page, "Sudden Death")
    expect(hint).to_be_hidden()
    game(page, "Teams")
    expect(hint).to_be_visible()
    expect(page.get_by_role("combobox", name="Team of player 1")).to_be_visible()
    game(page, "Standard")
    expect(hint).to_be_hidden()
