"""The standings say why two players with the same lives place apart: who lasted longer, and the round each went."""

from __future__ import annotations

from flask import Flask

from .conftest import Phone, drive
from .test_team_ending import standings_rows


def cy_out_in_round_1_ann_in_round_2(app: Flask, code: str) -> None:
    """Play Ann, Bob and Cy's table to Bob's win: Cy out of lives in round 1, Ann in round 2."""
    # Round 1: Ann's Bombs, Bob answering each with a 0, put Cy out; then Bob goes out, and Ann loses a life.
    for _ in range(4):
        drive(app, code, "Ann bomb Bob", "Bob 0", "Cy 0")
    drive(app, code, "Ann bomb Bob", "Bob 3")
    # Round 2: Bob's Bombs put Ann out. Bob wins.
    drive(app, code, "Ann 0")
    for _ in range(3):
        drive(app, code, "Bob bomb", "Ann 0")
    drive(app, code, "Bob bomb")


def test_players_out_of_lives_show_the_round_they_went_out_in(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    cy_out_in_round_1_ann_in_round_2(app, code)
    assert app.extensions["referee"].view(code).state.winners == ("Bob",)
    phone.open(f"/t/{code}")
    rows = standings_rows(phone)
    # Both have no lives left: the table says who lasted longer rather than leave the order a puzzle.
    assert [row[:3] for row in rows[1:]] == [
        ["1", "Bob", "5"],
        ["2", "Ann", "0 · out in round 2"],
        ["3", "Cy", "0 · out in round 1"],
    ]
    note = phone.page.by_id("standings").find(class_="by-lasting")
    assert note is not None and note.text() == "Same lives, different places: whoever lasted longer places higher."


def test_no_note_on_lasting_when_lives_alone_tell_the_places(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    for _ in range(4):
        drive(app, code, "Ann bomb", "Bob 0")
    drive(app, code, "Ann bomb")
    phone.open(f"/t/{code}")
    assert [row[:3] for row in standings_rows(phone)[1:]] == [["1", "Ann", "5"], ["2", "Bob", "0 · out in round 1"]]
    assert phone.page.by_id("standings").find(class_="by-lasting") is None


def test_game_over_offers_the_game_as_a_spreadsheet_and_a_bgstats_link(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    for _ in range(4):
        drive(app, code, "Ann bomb", "Bob 0")
    drive(app, code, "Ann bomb")
    phone.open(f"/t/{code}")
    links = {link.text(): link["href"] for link in phone.page.by_id("standings").find_all("a")}
    assert links["Download the game (CSV)"] == f"/t/{code}/play.csv"
    assert links["Log this play in BG Stats"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    sheet = phone.client.get(f"/t/{code}/play.csv")
    assert sheet.status_code == 200 and sheet.mimetype == "text/csv"
    assert sheet.get_data(as_text=True).startswith("Place,Player,Lives left,Rounds won,Team,Left the game")
