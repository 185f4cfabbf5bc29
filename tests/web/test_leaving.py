"""A player who left mid-game, as the game-over screen and the table display show them."""

from __future__ import annotations

from flask import Flask

from .conftest import Phone, drive
from .test_team_ending import standings_rows


def test_the_standings_place_players_who_left_by_when_they_left_and_say_so(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"])
    drive(app, code, "Dee leaves", "Ann 3", "Bob leaves", "Cy leaves")
    assert app.extensions["referee"].view(code).state.winners == ("Ann",)
    phone.open(f"/t/{code}")
    rows = standings_rows(phone)
    # Cy stayed longest of the three who left, Dee left first; each kept their five lives.
    assert [row[:3] for row in rows[1:]] == [
        ["1", "Ann", "5"],
        ["2", "Cy Left", "5"],
        ["3", "Bob Left", "5"],
        ["4", "Dee Left", "5"],
    ]
    assert "Cy has left the game" in phone.page.by_id("log").text()


def test_the_table_display_marks_a_player_who_left(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Bob leaves")
    phone.open(f"/t/{code}/display")
    rows = {item.find(class_="pname").text(): item for item in phone.page.find(class_="display-lives").find_all("li")}
    assert rows["Bob"].find(class_="badge").text() == "Left"
    assert "out" in rows["Bob"].classes
    assert rows["Ann"].find(class_="badge") is None
