"""The Sudden Death ending: players still in when the game ends rank above everyone who is out, by lives left."""

from __future__ import annotations

from flask import Flask

from .conftest import Phone, drive
from .test_team_ending import standings_rows


def bob_on_one_life_cy_on_two(phone: Phone, app: Flask) -> str:
    """Sudden Death, Ann's turn: Ann 5 lives, Bob 1, Cy 2 (Ann's Bombs; Cy answers the last one)."""
    code = phone.start(["Ann", "Bob", "Cy"], variant="sudden_death")
    for _ in range(3):
        drive(app, code, "Ann holds 5", "Bob holds 5", "Cy holds 5", "Ann bomb", "Bob 0", "Cy 0")
    drive(app, code, "Ann holds 5", "Bob holds 5", "Cy holds 5", "Ann bomb Cy", "Bob 0", "Cy 0")
    lives = {player.name: player.lives for player in app.extensions["referee"].view(code).state.players}
    assert lives == {"Ann": 5, "Bob": 1, "Cy": 2}
    return code


def test_sudden_death_standings_put_players_still_in_above_players_out(phone: Phone, app: Flask) -> None:
    code = bob_on_one_life_cy_on_two(phone, app)
    drive(app, code, "Ann holds 1", "Ann 0")  # Ann goes out: Bob loses his last life, Cy one of two
    view = app.extensions["referee"].view(code)
    assert view.state.winners == ("Ann",)
    phone.open(f"/t/{code}")
    rows = standings_rows(phone)
    assert rows[0] == ["Place", "Player", "Lives left", "Rounds won"]
    # Cy is still in with a life: second, above Bob who is out (it used to read "2 Bob 0 · 3 Cy 1").
    assert [row[:3] for row in rows[1:]] == [["1", "Ann", "5"], ["2", "Cy", "1"], ["3", "Bob", "0 · out in round 1"]]
