"""The words of the spoken calls (pages/calls.py): each board and each redraw of the table display carries the call
for its table version, which static/js/speech.js says out loud when "Speak the calls" is on."""

from __future__ import annotations

from flask import Flask

from .conftest import Phone, drive


def display_call(phone: Phone, code: str) -> str:
    """The call the table display's live region carries."""
    phone.open(f"/t/{code}/display/live")
    grid = phone.page.find("div", class_="display-grid")
    assert grid is not None
    return str(grid["data-call"])


def board_call(phone: Phone) -> str:
    """The call this phone's board carries."""
    return str(phone.page.by_id("board")["data-call"])


def test_a_team_game_calls_the_teams_lives(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], variant="teams")  # Ann and Cy are Team A
    drive(app, code, "Ann 7", "Bob 7", "Cy 1", "Dee bust")  # Dee can't play at 15: Team B loses a life
    assert display_call(phone, code) == "Team B loses a life. 0, Ann's turn."


def test_an_undo_is_called_with_where_the_table_stands_again(phone: Phone, app: Flask) -> None:
    phone.start(["Ann", "Bob", "Cy"])
    phone.press("7", htmx=True)
    assert board_call(phone) == "7, Bob's turn."
    phone.press("2", htmx=True)
    phone.press("Undo", htmx=True)
    assert board_call(phone) == "Undone by Host. 7, Bob's turn."
