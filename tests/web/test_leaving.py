"""A player who left mid-game, as the game-over screen and the table display show them."""

from __future__ import annotations

from flask import Flask

from .conftest import Phone, drive
from .test_join import host_join_link, join
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
        ["2", "Cy Left", "5 · left in round 1"],
        ["3", "Bob Left", "5 · left in round 1"],
        ["4", "Dee Left", "5 · left in round 1"],
    ]
    # Four players with five lives each, in four places: the screen says why.
    assert "whoever lasted longer places higher" in phone.page.by_id("standings").text()
    assert "Cy has left the game" in phone.page.by_id("log").text()


def test_the_table_display_marks_a_player_who_left(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Bob leaves")
    phone.open(f"/t/{code}/display")
    rows = {item.find(class_="pname").text(): item for item in phone.page.find(class_="display-lives").find_all("li")}
    assert rows["Bob"].find(class_="badge").text() == "Left"
    assert "out" in rows["Bob"].classes
    assert rows["Ann"].find(class_="badge") is None


def test_the_table_display_marks_players_who_left_a_team_and_a_team_gone(phone: Phone, app: Flask) -> None:
    """In a team game the display says who has left and that the losing team is gone (it once looked alive)."""
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    drive(app, code, "Cy leaves")
    phone.open(f"/t/{code}/display")
    teams = phone.page.find(class_="display-lives").find_all("li")
    assert [team.find(class_="members").text() for team in teams] == ["(Ann, Cy Left)", "(Bob, Dee)"]
    drive(app, code, "Bob leaves", "Dee leaves")
    phone.open(f"/t/{code}/display")
    teams = phone.page.find(class_="display-lives").find_all("li")
    assert ["out" in team.classes for team in teams] == [False, True]


def test_the_phone_of_a_player_who_left_says_so(phone: Phone, other_phone: Phone, app: Flask) -> None:
    """Cy's phone says he has left, not only "You're Cy" as it once did."""
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Cy")
    drive(app, code, "Cy leaves")
    other_phone.open(f"/t/{code}")
    note = other_phone.page.find(class_="left-note")
    assert (
        note is not None and note.text() == "You've left this game: this phone still follows it. Undo brings you back."
    )
    phone.open(f"/t/{code}")
    assert phone.page.find(class_="left-note") is None
    drive(app, code, "undo")
    other_phone.open(f"/t/{code}")
    assert other_phone.page.find(class_="left-note") is None


def test_nobody_is_offered_to_leave_during_a_tie_break(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], variant="sudden_death")
    drive(app, code, "Dee leaves")
    for _ in range(5):  # Cy loses his last life: Ann and Bob are tied on five
        drive(app, code, "Ann 1", "Bob eq21", "Cy bust")
    assert app.extensions["referee"].view(code).state.status.value == "tiebreak"
    phone.open(f"/t/{code}")
    assert phone.page.find(class_="leave-form") is None
    assert phone.page.find(class_="fix-hand") is not None, "a hand can still be fixed"
