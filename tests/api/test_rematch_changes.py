"""A rematch with changes: who starts, the variant, teams and house rules, checked like a new
table's; a refused change leaves no rematch behind; a second call returns the same rematch."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Api, finish_game
from flask import Flask

from .test_devices import auth


def rematch(api: Api, body: Any = None) -> tuple[int, dict[str, Any]]:
    response = api.client.post(f"/api/v1/tables/{api.code}/rematch", json=body, headers=auth(api))
    return response.status_code, response.get_json()


def finished(api: Api, app: Flask, players: list[str], **fields: Any) -> None:
    api.create(players, **fields)
    finish_game(app, api.code)


def test_no_body_keeps_every_setting(api: Api, app: Flask) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    finished(api, app, players, variant="teams", first_player="Bob", house_rules={"over_21": "bust"})
    status, body = rematch(api)
    assert status == 201
    state = body["state"]
    assert (state["variant"], state["current"], state["house_rules"]["over_21"]) == ("teams", "Bob", "bust")
    assert [team["players"] for team in state["teams"]] == [["Ann", "Cy"], ["Bob", "Dee"]]


def test_the_rematch_starts_with_the_changes(api: Api, app: Flask) -> None:
    finished(api, app, ["Ann", "Bob", "Cy", "Dee"], house_rules={"over_21": "bust"})
    changes = {"first_player": "Cy", "variant": "sudden_death", "house_rules": {"empty_draw_pile": "stop"}}
    status, body = rematch(api, changes)
    assert status == 201
    state = body["state"]
    assert (state["variant"], state["current"]) == ("sudden_death", "Cy")
    # House rules given are laid over the finished game's: over_21 stays as it was.
    assert (state["house_rules"]["over_21"], state["house_rules"]["empty_draw_pile"]) == ("bust", "stop")
    assert api.client.get(f"/api/v1/tables/{body['code']}").get_json()["current"] == "Cy"


def test_a_team_rematch_of_a_standard_game_takes_alternate_seats_or_the_teams_given(api: Api, app: Flask) -> None:
    finished(api, app, ["Ann", "Bob", "Cy", "Dee"])
    status, body = rematch(api, {"variant": "teams", "teams": [["Ann", "Bob"], ["Cy", "Dee"]]})
    assert (status, body["error"]["code"]) == (400, "teams_not_alternating")  # team mates side by side
    status, body = rematch(api, {"variant": "teams"})
    assert status == 201
    assert [team["players"] for team in body["state"]["teams"]] == [["Ann", "Cy"], ["Bob", "Dee"]]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"variant": "poker"}, "bad_variant"),
        ({"variant": "teams"}, "bad_player_count"),  # three players cannot play the team game
        ({"first_player": "Zed"}, "bad_first_player"),
        ({"house_rules": {"over_21": "maybe"}}, "bad_house_rule"),
        ({"house_rules": {"nope": "x"}}, "unknown_house_rule"),
        ({"teams": [["Ann"], ["Bob", "Cy"]]}, "bad_teams"),  # teams outside the team game
        ({"players": ["Ann"]}, "bad_player_count"),
        ({"players": ["Ann", "Bob", "ann"]}, "duplicate_name"),
        ({"players": ["Ann", "Bob", "\u0410nn"]}, "look_alike_name"),  # a new player, Ann with a Cyrillic A
        ({"players": ["Ann", "Bob", "Cy\u17b4"]}, "bad_name"),  # an invisible Khmer vowel after a new Cy
        ({"players": "Ann, Bob"}, "bad_players"),
        ({"players": ["Ann", "Bob"], "variant": "teams"}, "bad_player_count"),
        ({"names": ["Ann", "Bob"]}, "bad_field"),
        ({"first_player": 3}, "bad_field"),
        ({"first_player": ""}, "bad_first_player"),
        ({"variant": ""}, "bad_variant"),
        ({"variant": None}, "bad_field"),
        ({"teams": None}, "bad_field"),
        ([1, 2], "bad_json"),
    ],
)
def test_a_refused_change_is_explained_and_leaves_no_rematch(api: Api, app: Flask, changes: Any, code: str) -> None:
    finished(api, app, ["Ann", "Bob", "Cy"])
    status, body = rematch(api, changes)
    assert (status, body["error"]["code"]) == (400, code), body
    assert body["error"]["message"]
    assert app.extensions["referee"].view(api.code).rematch_code is None
    assert rematch(api)[0] == 201  # the table can still start its rematch


def test_a_second_call_returns_the_same_rematch_whatever_it_asks(api: Api, app: Flask) -> None:
    finished(api, app, ["Ann", "Bob", "Cy"])
    status, first = rematch(api, {"first_player": "Cy"})
    assert status == 201
    status, again = rematch(api, {"first_player": "Bob", "variant": "sudden_death"})
    assert status == 200
    assert again["code"] == first["code"]
    assert (again["state"]["current"], again["state"]["variant"]) == ("Cy", "standard")


def test_an_unfinished_game_refuses_a_rematch_with_changes_too(api: Api) -> None:
    api.create(["Ann", "Bob"])
    status, body = rematch(api, {"first_player": "Bob"})
    assert (status, body["error"]["code"]) == (422, "not_finished")


def test_the_state_says_what_the_rematch_changed_until_its_first_card(api: Api, app: Flask) -> None:
    finished(api, app, ["Ann", "Bob", "Cy"])
    first_game = api.state()
    assert first_game["rematch_note"] is None  # a first game changed nothing
    status, body = rematch(api, {"first_player": "Cy", "variant": "sudden_death"})
    assert status == 201
    said = (
        "New game. Changed by the host: Cy starts; "
        "a Sudden Death game (it ends as soon as a player loses their last life)."
    )
    # The creation's answer, a plain read, and a refused action's fresh state all say it, as the phones do.
    assert body["state"]["rematch_note"] == said
    new = body["code"]
    assert api.client.get(f"/api/v1/tables/{new}").get_json()["rematch_note"] == said
    api.code = new
    stale = api.act(expect=409, type="play", player="Cy", card="3", expected_version=7)
    assert stale["state"]["rematch_note"] == said
    # The first card: the game speaks for itself, and the note is gone.
    assert api.play("Cy", "3")["rematch_note"] is None
    assert api.state()["rematch_note"] is None
    # Undone, the table is again as the rematch started it: the note is back (as on the phones' board).
    assert api.act(type="undo")["rematch_note"] == said


def test_a_rematch_with_the_same_settings_has_no_note(api: Api, app: Flask) -> None:
    finished(api, app, ["Ann", "Bob", "Cy"])
    status, body = rematch(api)
    assert status == 201
    assert body["state"]["rematch_note"] is None
    # The document lists the field as optional: v1 clients built before it still match.
    schema = api.client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["State"]
    assert schema["properties"]["rematch_note"]["type"] == ["string", "null"]
    assert "rematch_note" not in schema["required"]


def test_once_its_rematch_has_started_a_finished_game_can_no_longer_be_undone_or_changed(api: Api, app: Flask) -> None:
    """A phone left on the old table must not undo its last card after the rematch has started, play another, and
    change the old game's winner and the series tally, with nobody at the new table any the wiser (it once could)."""
    finished(api, app, ["Ann", "Bob", "Cy"])
    assert api.state()["rematch"] is None
    status, body = rematch(api)
    assert status == 201
    before = api.state()
    assert before["can_undo"] is False
    # A scoreboard reading the old table finds the new one there, without making one itself.
    assert before["rematch"] == body["code"]
    assert body["state"]["rematch"] is None
    stale = {"type": "undo", "expected_version": before["version"] - 3}  # a phone that saw an older board
    for action in ({"type": "undo"}, {"type": "hand", "player": "Ann", "cards": 3}, stale):
        refused = api.act(expect=422, **action)
        assert refused["error"] == {
            "code": "rematch_started",
            "message": "A rematch has started: this game is over for good, and its result stands.",
        }
    assert api.state() == before
