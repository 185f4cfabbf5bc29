"""POST /api/v1/tables: the 201 body, initial state, and every way a new table can be refused."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import Api
from flask.testing import FlaskClient

from referee.engine import HOUSE_RULE_SPECS

# The fields v1 promised every client, written out on purpose rather than read from the code or the schema: neither
# may drop one (test_openapi.py checks the schema requires them; the schema and the code list the same fields).
V1_STATE_FIELDS = {
    "code",
    "version",
    "status",
    "variant",
    "house_rules",
    "round",
    "total",
    "direction",
    "current",
    "dealer",
    "players",
    "teams",
    "draw_pile",
    "winners",
}
DEFAULT_RULES = {spec.name: spec.default for spec in HOUSE_RULE_SPECS}


FOUR = ["Ann", "Bob", "Cy", "Dee"]


def refused(client: FlaskClient, body: Any, status: int = 400) -> dict[str, Any]:
    """POST a table that must be refused; check the error shape; return the error object."""
    response = client.post("/api/v1/tables", json=body)
    assert response.status_code == status, response.get_json()
    payload = response.get_json()
    assert set(payload) == {"error"}
    error = payload["error"]
    assert set(error) == {"code", "message"}
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    return dict(error)


def test_created_body_has_code_token_join_url_and_initial_state(api: Api) -> None:
    body = api.create(["Ann", "Bob", "Cy"])
    assert set(body) == {"code", "token", "join_url", "state"}
    assert body["code"] and body["token"] and body["token"] != body["code"]
    assert body["join_url"].startswith("http")
    assert f"/j/{body['code']}/" in body["join_url"]
    state = body["state"]
    assert set(state) >= V1_STATE_FIELDS
    assert state["code"] == body["code"]
    assert state["version"] == 0
    assert state["status"] == "playing"
    assert state["variant"] == "standard"
    assert state["house_rules"] == DEFAULT_RULES
    assert state["round"] == 1
    assert state["total"] == 0
    assert state["direction"] == "clockwise"
    assert state["current"] == "Ann"
    assert state["dealer"] == "Cy"  # the seat before the first player
    assert state["players"] == [
        {"name": name, "lives": 5, "hand": 10, "out": False, "left": False, "team": None}
        for name in ("Ann", "Bob", "Cy")
    ]
    assert state["teams"] == []
    assert state["draw_pile"] == 77 - 30
    assert state["winners"] == []


def test_created_state_is_what_get_returns(api: Api, client: FlaskClient) -> None:
    body = api.create()
    response = client.get(f"/api/v1/tables/{body['code']}")
    assert response.status_code == 200
    assert response.get_json() == body["state"]
    assert client.post("/api/v1/tables", json={"players": ["A", "B"]}).headers["Location"].startswith("/api/v1/")


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_draw_pile_is_77_less_ten_per_player(api: Api, count: int) -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"][:count]
    state = api.create(names)["state"]
    assert state["draw_pile"] == 77 - 10 * count
    assert [player["name"] for player in state["players"]] == names


def test_first_player_and_dealer_before_them(api: Api) -> None:
    state = api.create(["Ann", "Bob", "Cy", "Dee"], first_player="Cy")["state"]
    assert state["current"] == "Cy"
    assert state["dealer"] == "Bob"
    state = api.create(["Ann", "Bob", "Cy", "Dee"], first_player="ann")["state"]
    assert (state["current"], state["dealer"]) == ("Ann", "Dee")


def test_variant_and_house_rules_are_echoed(api: Api) -> None:
    state = api.create(["Ann", "Bob"], variant="sudden_death", house_rules={"over_21": "bust"})["state"]
    assert state["variant"] == "sudden_death"
    assert state["house_rules"] == {**DEFAULT_RULES, "over_21": "bust"}
    assert state["teams"] == []


def test_teams_variant_has_team_state(api: Api) -> None:
    state = api.create(
        ["Ann", "Bob", "Cy", "Dee"], variant="teams", teams=[["Ann", "Cy"], ["Bob", "Dee"]], first_player="Bob"
    )["state"]
    assert state["variant"] == "teams"
    assert state["teams"] == [
        {"name": "Team A", "players": ["Ann", "Cy"], "lives": 5},
        {"name": "Team B", "players": ["Bob", "Dee"], "lives": 5},
    ]
    assert [(p["name"], p["team"], p["lives"]) for p in state["players"]] == [
        ("Ann", "Team A", 5),
        ("Bob", "Team B", 5),
        ("Cy", "Team A", 5),
        ("Dee", "Team B", 5),
    ]
    assert (state["current"], state["dealer"]) == ("Bob", "Ann")


def test_teams_default_to_alternate_seats(api: Api) -> None:
    state = api.create(["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"], variant="teams")["state"]
    assert [team["players"] for team in state["teams"]] == [["Ann", "Cy", "Eve"], ["Bob", "Dee", "Flo"]]


def test_names_are_tidied(api: Api) -> None:
    state = api.create(["  Ann   Lee ", "Bob"])["state"]
    assert [player["name"] for player in state["players"]] == ["Ann Lee", "Bob"]


def test_each_table_gets_its_own_code_and_token(api: Api, client: FlaskClient) -> None:
    first = api.create()
    second = client.post("/api/v1/tables", json={"players": ["Ann", "Bob", "Cy"]}).get_json()
    assert first["code"] != second["code"]
    assert first["token"] != second["token"]
    # Codes avoid look-alike characters so they can be read aloud and typed.
    for code in (first["code"], second["code"]):
        assert not set(code) & set("0O1IL")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["Ann"]}, "bad_player_count"),
        ({"players": []}, "bad_player_count"),
        ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "bad_player_count"),
        ({"players": ["Ann", "Bob", "ann"]}, "duplicate_name"),
        ({"players": ["Ann", "Bob", " BOB "]}, "duplicate_name"),
        ({"players": ["Ann", ""]}, "bad_name"),
        ({"players": ["Ann", "   "]}, "bad_name"),
        ({"players": ["Ann", 7]}, "bad_name"),
        ({"players": ["Ann", None]}, "bad_name"),
        ({"players": ["Ann", "x" * 25]}, "bad_name"),
        ({"players": ["Ann", "Bo\u200bb"]}, "bad_name"),
        ({"players": ["Ann", "Bo\x07b"]}, "bad_name"),
        ({"players": ["Ann", "Ann\u034f"]}, "bad_name"),  # an invisible joiner: two Anns that look the same
        ({"players": ["Ann", "\u3164"]}, "bad_name"),  # a Hangul filler alone: a blank name
        ({"players": ["ANN", "\uff21\uff2e\uff2e"]}, "duplicate_name"),  # full-width ANN is ANN
        ({"players": ["Ann", "\u0410nn"]}, "look_alike_name"),  # a Cyrillic A
        ({"players": "Ann, Bob"}, "bad_players"),
        ({"players": {"Ann": 1, "Bob": 2}}, "bad_players"),
        ({"players": None}, "bad_players"),
        ({}, "bad_players"),
        ({"players": ["Ann", "Bob"], "variant": "poker"}, "bad_variant"),
        ({"players": ["Ann", "Bob"], "variant": 3}, "bad_field"),
        # Left out, a field takes its default; sent empty or null, it is no value of its kind (the OpenAPI document).
        ({"players": ["Ann", "Bob"], "variant": ""}, "bad_variant"),
        ({"players": ["Ann", "Bob"], "variant": None}, "bad_field"),
        ({"players": ["Ann", "Bob"], "entry": ""}, "bad_entry"),
        ({"players": ["Ann", "Bob"], "entry": None}, "bad_field"),
        ({"players": ["Ann", "Bob"], "first_player": None}, "bad_field"),
        ({"players": ["Ann", "Bob"], "house_rules": None}, "bad_field"),
        ({"players": ["Ann", "Bob"], "first_player": "Zed"}, "bad_first_player"),
        ({"players": ["Ann", "Bob"], "first_player": 1}, "bad_field"),
        ({"players": ["Ann", "Bob"], "first_player": ""}, "bad_first_player"),
        ({"players": ["Ann", "Bob"], "first_player": "  "}, "bad_first_player"),
        ({"players": ["Ann", "Bob"], "house_rules": {"over_9000": "yes"}}, "unknown_house_rule"),
        ({"players": ["Ann", "Bob"], "house_rules": {"over_21": "sometimes"}}, "bad_house_rule"),
        ({"players": ["Ann", "Bob"], "house_rules": {"over_21": 1}}, "bad_house_rule"),
        ({"players": ["Ann", "Bob"], "house_rules": ["over_21"]}, "bad_field"),
        ({"players": ["Ann", "Bob"], "colour": "red"}, "bad_field"),
        ({"players": ["Ann", "Bob"], "teams": [["Ann"], ["Bob"]]}, "bad_teams"),
        ({"players": ["Ann", "Bob", "Cy"], "variant": "teams"}, "bad_player_count"),
        ({"players": FOUR, "variant": "teams", "teams": [["Ann", "Cy"]]}, "bad_teams"),
        ({"players": FOUR, "variant": "teams", "teams": "Ann Cy"}, "bad_field"),
        ({"players": FOUR, "variant": "teams", "teams": [["Ann", "Zed"], ["Bob", "Dee"]]}, "bad_teams"),
        ({"players": FOUR, "variant": "teams", "teams": [["Ann", "Cy"], ["Bob", "Ann"]]}, "bad_teams"),
        ({"players": FOUR, "variant": "teams", "teams": [["Ann", "Cy"], ["Bob"]]}, "bad_teams"),
        ({"players": FOUR, "variant": "teams", "teams": [["Ann"], ["Bob", "Cy", "Dee"]]}, "bad_teams"),
        ({"players": ["Ann", "Bob"], "entry": "everyone"}, "bad_entry"),
    ],
)
def test_bad_tables_are_refused_with_400(client: FlaskClient, body: Any, code: str) -> None:
    error = refused(client, body)
    assert error["code"] == code


def test_duplicate_names_message_names_the_player(client: FlaskClient) -> None:
    error = refused(client, {"players": ["Ann", "Bob", "ANN"]})
    assert "ANN" in error["message"] or "Ann" in error["message"]


def test_player_count_message_says_how_many(client: FlaskClient) -> None:
    assert "2 to 6" in refused(client, {"players": ["Ann"]})["message"]


def test_teams_not_alternating_suggests_a_seat_order(client: FlaskClient) -> None:
    error = refused(
        client,
        {"players": FOUR, "variant": "teams", "teams": [["Ann", "Bob"], ["Cy", "Dee"]]},
    )
    assert error["code"] == "teams_not_alternating"
    assert "Ann, Cy, Bob, Dee" in error["message"]


def test_five_players_may_have_one_pair_of_neighbouring_teammates(api: Api, client: FlaskClient) -> None:
    state = api.create(
        ["Ann", "Bob", "Cy", "Dee", "Eve"], variant="teams", teams=[["Ann", "Cy", "Eve"], ["Bob", "Dee"]]
    )["state"]
    assert [team["players"] for team in state["teams"]] == [["Ann", "Cy", "Eve"], ["Bob", "Dee"]]
    error = refused(
        client,
        {
            "players": ["Ann", "Bob", "Cy", "Dee", "Eve"],
            "variant": "teams",
            "teams": [["Ann", "Bob", "Cy"], ["Dee", "Eve"]],
        },
    )
    assert error["code"] == "teams_not_alternating"


@pytest.mark.parametrize("raw", [b"", b"not json", b"{", b"[" * 20000, b"\xff\xfe", b"null", b"[]", b'"Ann"', b"7"])
def test_non_json_or_non_object_bodies_are_400(client: FlaskClient, raw: bytes) -> None:
    response = client.post("/api/v1/tables", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_json"


def test_refused_tables_are_not_created(api: Api, client: FlaskClient) -> None:
    refused(client, {"players": ["Ann", "ann"]})
    body = api.create(["Ann", "Bob"])
    # The only table in the database is the good one: its code is the first handed out.
    database = client.application.extensions["referee"].store
    count = database.read().execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    assert count == 1
    assert body["state"]["version"] == 0


def test_the_token_replaces_a_leaked_join_link(api: Api, client: FlaskClient) -> None:
    created = api.create(["Ann", "Bob"])
    old = urlsplit(created["join_url"]).path
    assert client.get(old).status_code == 200
    refused = [
        client.post(f"/api/v1/tables/{api.code}/join-link"),
        client.post(f"/api/v1/tables/{api.code}/join-link", headers={"Authorization": "Bearer wrong"}),
        client.post("/api/v1/tables/NOSUCH/join-link", headers={"Authorization": f"Bearer {api.token}"}),
    ]
    assert [(r.status_code, r.get_json()["error"]["code"]) for r in refused] == [
        (401, "no_token"),
        (403, "bad_token"),
        (404, "no_table"),
    ]
    assert client.get(old).status_code == 200  # refused requests changed nothing

    response = client.post(f"/api/v1/tables/{api.code}/join-link", headers={"Authorization": f"Bearer {api.token}"})
    assert response.status_code == 200
    new = urlsplit(response.get_json()["join_url"]).path
    assert new != old and new.startswith(f"/j/{api.code}/")
    assert client.get(old).status_code == 403
    assert client.get(new).status_code == 200
    assert api.state()["version"] == 0  # the game itself is untouched
