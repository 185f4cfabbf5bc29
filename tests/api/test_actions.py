"""POST /api/v1/tables/{code}/actions: every action type, versions, and every refusal with its status."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Api
from flask.testing import FlaskClient


def player(state: dict[str, Any], name: str) -> dict[str, Any]:
    """Return one player's entry of a State."""
    return next(entry for entry in state["players"] if entry["name"] == name)


def expect_error(api: Api, status: int, code: str | None = None, **action: Any) -> dict[str, Any]:
    """Send an action that must be refused; check status, error shape and that nothing changed."""
    before = api.state()
    body = api.act(expect=status, **action)
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    assert api.state() == before
    return body


@pytest.fixture
def table(api: Api) -> Api:
    """A standard three-player table: Ann, Bob, Cy; Ann starts."""
    api.create(["Ann", "Bob", "Cy"])
    return api


def test_get_state(table: Api, client: FlaskClient) -> None:
    response = client.get(f"/api/v1/tables/{table.code}")
    assert response.status_code == 200
    # The state changes with every card: no browser or proxy may answer with an old one.
    assert response.headers["Cache-Control"] == "no-store"
    assert response.mimetype == "application/json"
    assert response.get_json() == table.created["state"]


def test_get_state_accepts_a_lower_case_code(table: Api, client: FlaskClient) -> None:
    response = client.get(f"/api/v1/tables/{table.code.lower()}")
    assert response.status_code == 200
    assert response.get_json()["code"] == table.code


def test_play_number_cards_adds_up_and_passes_the_turn(table: Api) -> None:
    state = table.play("Ann", "7")
    assert (state["total"], state["current"], state["version"]) == (7, "Bob", 1)
    assert player(state, "Ann")["hand"] == 9
    state = table.play("Bob", "0")
    assert (state["total"], state["current"], state["version"]) == (7, "Cy", 2)
    assert table.state() == state


def test_wild_cards(table: Api) -> None:
    state = table.play("Ann", "eq21")
    assert (state["total"], state["current"]) == (21, "Bob")
    state = table.play("Bob", "eq10")
    assert (state["total"], state["current"]) == (10, "Cy")
    state = table.play("Cy", "reverse")
    assert (state["direction"], state["current"]) == ("counterclockwise", "Bob")
    state = table.play("Bob", "skip")
    assert state["current"] == "Cy"  # Ann misses a turn
    state = table.play("Cy", "pass")
    assert (state["total"], state["current"]) == (10, "Bob")
    state = table.play("Bob", "draw2")
    assert [player(state, name)["hand"] for name in ("Ann", "Bob", "Cy")] == [11, 7, 10]
    assert state["draw_pile"] == 47 - 4
    state = table.play("Ann", "draw1")
    assert [player(state, name)["hand"] for name in ("Ann", "Bob", "Cy")] == [10, 8, 11]
    state = table.play("Cy", "eq0")
    assert state["total"] == 0
    in_hands = sum(p["hand"] for p in state["players"]) - 1
    state = table.play("Bob", "redeal")
    assert state["total"] == 0
    # Every card in hand is dealt out again, the redealer last (1994 rules: from the left).
    assert [player(state, name)["hand"] for name in ("Cy", "Ann", "Bob")] == [9, 9, 9]
    assert sum(p["hand"] for p in state["players"]) == in_hands
    assert state["version"] == 9


def test_bomb_with_zeros(table: Api) -> None:
    table.play("Ann", "5")
    state = table.play("Bob", "bomb", zeros=["Cy"])
    assert state["total"] == 0
    assert state["current"] == "Cy"
    assert [(p["name"], p["lives"], p["hand"]) for p in state["players"]] == [
        ("Ann", 4, 9),
        ("Bob", 5, 9),
        ("Cy", 5, 9),
    ]


def test_bomb_without_zeros_costs_every_other_player_a_life(table: Api) -> None:
    state = table.play("Ann", "bomb")
    assert [p["lives"] for p in state["players"]] == [5, 4, 4]


def test_bomb_zeros_must_be_other_active_players(table: Api) -> None:
    expect_error(table, 422, "bad_zeros", type="play", player="Ann", card="bomb", zeros=["Ann"])
    expect_error(table, 422, "bad_zeros", type="play", player="Ann", card="bomb", zeros=["Bob", "bob"])
    expect_error(table, 400, type="play", player="Ann", card="7", zeros=["Bob"])
    expect_error(table, 400, "bad_field", type="play", player="Ann", card="bomb", zeros="Bob")


def test_bust_at_15_or_more(table: Api) -> None:
    table.play("Ann", "7")
    table.play("Bob", "7")
    table.play("Cy", "1")
    state = table.act(type="bust", player="Ann")
    assert state["total"] == 0
    assert player(state, "Ann")["lives"] == 4
    assert player(state, "Ann")["hand"] == 9  # keeps the cards
    assert state["current"] == "Bob"
    assert state["version"] == 4


def test_bust_is_impossible_at_14_or_less(table: Api) -> None:
    expect_error(table, 422, "bust_impossible", type="bust", player="Ann")
    table.play("Ann", "7")
    table.play("Bob", "7")
    body = expect_error(table, 422, "bust_impossible", type="bust", player="Cy")
    assert "14" in body["error"]["message"]


def test_hand_correction_is_not_a_turn(table: Api) -> None:
    state = table.act(type="hand", player="Bob", cards=12)
    assert player(state, "Bob")["hand"] == 12
    assert state["draw_pile"] == 45
    assert state["current"] == "Ann"
    assert state["version"] == 1
    expect_error(table, 422, "bad_hand", type="hand", player="Bob", cards=0)
    expect_error(table, 422, "bad_hand", type="hand", player="Bob", cards=12)
    expect_error(table, 422, "bad_hand", type="hand", player="Bob", cards=500)
    expect_error(table, 400, "bad_field", type="hand", player="Bob", cards=-1)
    expect_error(table, 400, "bad_field", type="hand", player="Bob", cards="3")
    expect_error(table, 400, "bad_field", type="hand", player="Bob", cards=True)
    expect_error(table, 400, "bad_field", type="hand", player="Bob", cards=2.5)


def test_undo_and_redo_count_as_versions(table: Api) -> None:
    first = table.play("Ann", "7")
    second = table.play("Bob", "3")
    undone = table.act(type="undo")
    assert undone["version"] == 3
    assert {k: v for k, v in undone.items() if k not in ("version", "can_redo")} == {
        k: v for k, v in first.items() if k not in ("version", "can_redo")
    }
    assert undone["can_redo"] is True
    redone = table.act(type="redo")
    assert redone["version"] == 4
    assert {k: v for k, v in redone.items() if k != "version"} == {k: v for k, v in second.items() if k != "version"}
    expect_error(table, 422, "nothing_to_redo", type="redo")


def test_a_new_action_drops_the_redo_tail(table: Api) -> None:
    table.play("Ann", "7")
    table.act(type="undo")
    state = table.play("Ann", "2")
    assert (state["total"], state["version"], state["can_redo"]) == (2, 3, False)
    expect_error(table, 422, "nothing_to_redo", type="redo")


def test_nothing_to_undo_or_redo_on_a_new_table(table: Api) -> None:
    expect_error(table, 422, "nothing_to_undo", type="undo")
    expect_error(table, 422, "nothing_to_redo", type="redo")
    assert table.state()["version"] == 0


def test_version_rises_by_one_per_accepted_action_only(table: Api) -> None:
    versions = [table.created["state"]["version"]]
    versions.append(table.play("Ann", "7")["version"])
    table.play("Ann", "7", expect=422)
    versions.append(table.act(type="hand", player="Cy", cards=9)["version"])
    versions.append(table.act(type="undo")["version"])
    versions.append(table.act(type="redo")["version"])
    table.act(expect=400, type="dance")
    versions.append(table.play("Bob", "1")["version"])
    assert versions == [0, 1, 2, 3, 4, 5]


def test_expected_version_current_is_accepted(table: Api) -> None:
    state = table.play("Ann", "7", expected_version=0)
    assert state["version"] == 1
    assert table.play("Bob", "7", expected_version=1)["version"] == 2


def test_stale_expected_version_is_409_with_fresh_state(table: Api) -> None:
    table.play("Ann", "7")
    before = table.state()
    body = table.play("Bob", "7", expect=409, expected_version=0)
    assert body["error"]["code"] == "stale_version"
    assert body["error"]["message"]
    assert body["state"] == before
    assert table.state() == before


def test_two_clients_tapping_the_same_card_count_it_once(table: Api) -> None:
    table.play("Ann", "7", expected_version=0)
    table.play("Ann", "7", expect=409, expected_version=0)
    assert table.state()["total"] == 7


def test_an_action_sent_again_is_told_it_is_already_in_not_that_someone_else_was_first(table: Api) -> None:
    """A client resending its own action after a dropped answer is told it is in, not "Someone else entered a card
    just before you", which left it unable to tell whether its action counted."""
    table.play("Ann", "7", expected_version=0)
    body = table.play("Ann", "7", expect=409, expected_version=0)
    assert body["error"] == {"code": "already_entered", "message": "Ann's 7 is already in."}
    assert body["state"]["version"] == 1 and body["state"]["total"] == 7
    table.play("Bob", "7", expected_version=1)
    table.play("Cy", "2", expected_version=2)  # 16: Ann may go bust
    table.act(type="bust", player="Ann", expected_version=3)
    body = table.act(expect=409, type="bust", player="Ann", expected_version=3)
    assert body["error"]["message"] == "Ann's bust is already in."
    table.act(type="hand", player="Cy", cards=3, expected_version=4)
    body = table.act(expect=409, type="hand", player="Cy", cards=3, expected_version=4)
    assert body["error"]["message"] == "Cy's hand of 3 cards is already in."
    table.act(type="undo", expected_version=5)
    body = table.act(expect=409, type="undo", expected_version=5)
    assert body["error"] == {"code": "already_entered", "message": "That Undo is already done."}
    table.act(type="redo", expected_version=6)
    body = table.act(expect=409, type="redo", expected_version=6)
    assert body["error"]["message"] == "That Redo is already done."
    assert table.state()["version"] == 7
    # Another action, or the same one from an older version, is still someone else's change first.
    body = table.play("Bob", "5", expect=409, expected_version=6)
    assert body["error"]["code"] == "stale_version"
    body = table.play("Ann", "7", expect=409, expected_version=0)
    assert body["error"]["code"] == "stale_version"
    assert table.state()["version"] == 7


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "play", "player": "Bob", "card": "7"}, "not_your_turn"),
        ({"type": "play", "player": "Cy", "card": "bomb"}, "not_your_turn"),
        ({"type": "bust", "player": "Bob"}, "not_your_turn"),
    ],
)
def test_not_your_turn_is_422(table: Api, action: dict[str, Any], code: str) -> None:
    body = expect_error(table, 422, code, **action)
    assert "Ann" in body["error"]["message"]


def test_a_number_that_does_not_fit_is_422(table: Api) -> None:
    table.play("Ann", "7")
    table.play("Bob", "7")
    table.play("Cy", "5")
    body = expect_error(table, 422, "does_not_fit", type="play", player="Ann", card="3")
    assert "22" in body["error"]["message"]
    assert table.play("Ann", "2")["total"] == 21


def test_over_21_bust_house_rule_accepts_the_card_as_a_bust(api: Api) -> None:
    api.create(["Ann", "Bob"], house_rules={"over_21": "bust"})
    api.play("Ann", "7")
    api.play("Bob", "7")
    api.play("Ann", "7")
    state = api.play("Bob", "1")
    assert state["total"] == 0
    assert player(state, "Bob")["lives"] == 4
    assert player(state, "Bob")["hand"] == 9  # the card went back to the hand


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "player": "Ann", "card": "8"},
        {"type": "play", "player": "Ann", "card": 7},
        {"type": "play", "player": "Ann", "card": "Bomb"},
        {"type": "play", "player": "Ann", "card": None},
        {"type": "play", "player": "Ann"},
        {"type": "play", "player": 1, "card": "7"},
        {"type": "play", "player": "", "card": "7"},
        {"type": "play", "player": "Zed", "card": "7"},
        {"type": "play", "player": "Ann", "card": "7", "colour": "red"},
        {"type": "play", "player": "Ann", "card": "7", "expected_version": "0"},
        {"type": "play", "player": "Ann", "card": "7", "expected_version": True},
        {"type": "bust"},
        {"type": "hand", "player": "Ann"},
        {"type": "tiebreak", "values": [1, 2]},
        {"type": "tiebreak", "values": {"Ann": "3"}},
        {"type": "tiebreak", "values": {"Ann": False}},
        {"type": "undo", "player": "Ann"},
        {"type": "Play", "player": "Ann", "card": "7"},
        {"type": "discard"},
        {"type": None},
        {"card": "7"},
        {},
    ],
)
def test_malformed_actions_are_400(table: Api, action: dict[str, Any]) -> None:
    expect_error(table, 400, **action)


@pytest.mark.parametrize("raw", [b"", b"play 7", b"{'type': 'undo'}", b"[", b"[]", b'"undo"', b"3", b"\x80"])
def test_non_json_actions_are_400(table: Api, client: FlaskClient, raw: bytes) -> None:
    response = client.post(
        f"/api/v1/tables/{table.code}/actions",
        data=raw,
        content_type="application/json",
        headers={"Authorization": f"Bearer {table.token}"},
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_json"
    assert table.state()["version"] == 0


def test_unknown_card_message_lists_the_cards(table: Api) -> None:
    body = expect_error(table, 400, "bad_card", type="play", player="Ann", card="joker")
    assert "draw1" in body["error"]["message"] and "bomb" in body["error"]["message"]


def test_no_token_is_401(table: Api, client: FlaskClient) -> None:
    response = client.post(f"/api/v1/tables/{table.code}/actions", json={"type": "play", "player": "Ann", "card": "7"})
    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "no_token"
    for header in ("Bearer ", "Basic abc", table.token):
        response = client.post(
            f"/api/v1/tables/{table.code}/actions",
            json={"type": "play", "player": "Ann", "card": "7"},
            headers={"Authorization": header},
        )
        assert response.status_code == 401, header
    assert table.state()["version"] == 0


def test_wrong_token_is_403(table: Api, client: FlaskClient, api: Api) -> None:
    other = client.post("/api/v1/tables", json={"players": ["Dee", "Eve"]}).get_json()
    for token in ("nope", other["token"], table.token + "x"):
        response = client.post(
            f"/api/v1/tables/{table.code}/actions",
            json={"type": "play", "player": "Ann", "card": "7"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 403
        assert set(response.get_json()["error"]) == {"code", "message"}
    assert table.state()["version"] == 0


def test_token_scheme_is_case_insensitive(table: Api, client: FlaskClient) -> None:
    response = client.post(
        f"/api/v1/tables/{table.code}/actions",
        json={"type": "play", "player": "Ann", "card": "7"},
        headers={"Authorization": f"bearer {table.token}"},
    )
    assert response.status_code == 200


def test_unknown_table_is_404(client: FlaskClient, table: Api) -> None:
    response = client.get("/api/v1/tables/ZZZZZZ")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"]
    response = client.post(
        "/api/v1/tables/ZZZZZZ/actions",
        json={"type": "undo"},
        headers={"Authorization": f"Bearer {table.token}"},
    )
    assert response.status_code == 404
    assert set(response.get_json()["error"]) == {"code", "message"}
    response = client.get("/api/v1/nowhere")
    assert response.status_code == 404
    assert response.get_json()["error"] == {
        "code": "not_found",
        "message": "There is nothing at this address. Check it, or start again from the home page.",
    }


def test_wrong_method_is_a_json_405(client: FlaskClient) -> None:
    response = client.delete("/api/v1/tables")
    assert response.status_code == 405
    assert response.get_json()["error"] == {
        "code": "method_not_allowed",
        "message": "That can't be done at this address.",
    }


def finish_two_player_game(api: Api) -> dict[str, Any]:
    """Ann bombs Bob out of a two-player game (Bob never has a 0)."""
    api.create(["Ann", "Bob"])
    state: dict[str, Any] = {}
    for _ in range(4):
        api.play("Ann", "bomb")
        api.play("Bob", "1")
    state = api.play("Ann", "bomb")
    return state


def test_winner_and_game_finished(api: Api) -> None:
    state = finish_two_player_game(api)
    assert state["status"] == "finished"
    assert state["winners"] == ["Ann"]
    assert state["current"] is None
    assert player(state, "Bob") == {"name": "Bob", "lives": 0, "hand": 0, "out": True, "left": False, "team": None}
    body = expect_error(api, 422, "game_over", type="play", player="Ann", card="1")
    assert "Ann" in body["error"]["message"]
    expect_error(api, 422, "game_over", type="bust", player="Bob")
    expect_error(api, 422, "game_over", type="hand", player="Ann", cards=3)


def test_round_ends_when_a_hand_is_empty(table: Api) -> None:
    table.act(type="hand", player="Ann", cards=1)
    state = table.play("Ann", "3")
    assert state["round"] == 2
    assert [(p["lives"], p["hand"]) for p in state["players"]] == [(5, 10), (4, 10), (4, 10)]
    assert state["dealer"] == "Ann"
    assert state["current"] == "Bob"
    assert (state["total"], state["draw_pile"]) == (0, 47)


def test_teams_share_lives(api: Api) -> None:
    api.create(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    state = api.play("Ann", "bomb", zeros=["Bob", "Cy"])
    # Dee (Team B) had no 0: Team B loses a life, shown on both of its players.
    assert state["teams"][1]["lives"] == 4
    assert [p["lives"] for p in state["players"]] == [5, 4, 5, 4]


def sudden_death_tie(api: Api) -> dict[str, Any]:
    """Drive a Sudden Death game until Cy is out while Ann and Bob both still have five lives."""
    api.create(["Ann", "Bob", "Cy"], variant="sudden_death")
    for _ in range(4):
        api.play("Ann", "bomb", zeros=["Bob"])
        api.play("Bob", "0")
        api.play("Cy", "0")
    return api.play("Ann", "bomb", zeros=["Bob"])


def test_sudden_death_tie_then_tiebreak(api: Api) -> None:
    state = sudden_death_tie(api)
    assert state["status"] == "tiebreak"
    assert state["current"] is None
    assert state["winners"] == []
    assert sorted(state["tied"]) == ["Ann", "Bob"]
    hands = {p["name"]: p["hand"] for p in state["players"]}
    assert hands == {"Ann": 5, "Bob": 1, "Cy": 0}
    expect_error(api, 422, "tiebreak_pending", type="play", player="Bob", card="1")
    expect_error(api, 422, "bad_tiebreak", type="tiebreak", values={"Ann": 3})
    expect_error(api, 422, "bad_tiebreak", type="tiebreak", values={"Ann": 3, "Cy": 0, "Bob": 2})
    expect_error(api, 422, "bad_tiebreak", type="tiebreak", values={"Ann": 3, "Bob": 99})
    version = state["version"]
    state = api.act(type="tiebreak", values={"Ann": 12, "Bob": 4})
    assert state["status"] == "finished"
    assert state["winners"] == ["Bob"]
    assert state["version"] == version + 1
    expect_error(api, 422, "game_over", type="tiebreak", values={"Ann": 1, "Bob": 4})


def test_tiebreak_tie_is_shared_by_default(api: Api) -> None:
    sudden_death_tie(api)
    state = api.act(type="tiebreak", values={"Ann": 4, "Bob": 4})
    assert sorted(state["winners"]) == ["Ann", "Bob"]


def test_tiebreak_outside_a_tie_is_422(table: Api) -> None:
    expect_error(table, 422, "no_tiebreak", type="tiebreak", values={"Ann": 1})


def test_undo_after_the_game_ended_reopens_it(api: Api) -> None:
    finish_two_player_game(api)
    state = api.act(type="undo")
    assert state["status"] == "playing"
    assert state["winners"] == []
    assert player(state, "Bob")["lives"] == 1


def test_a_negative_expected_version_is_malformed_not_stale(api: Api) -> None:
    """`expected_version: -1` is a 400, not 409 stale_version: a version is never negative (schema minimum 0)."""
    api.create()
    body = api.act(expect=400, type="play", player="Ann", card="5", expected_version=-1)
    assert body["error"]["code"] == "bad_field" and "0 or more" in body["error"]["message"]
    assert api.state()["version"] == 0


def test_a_player_leaves_the_game_and_undo_brings_them_back(table: Api) -> None:
    table.play("Ann", "4")
    state = table.act(type="leave", player="cy")
    cy = player(state, "Cy")
    assert (cy["out"], cy["left"], cy["hand"], cy["lives"]) == (True, True, 0, 5)
    assert (state["current"], state["total"], state["version"]) == ("Bob", 4, 2)
    expect_error(table, 422, "player_out", type="leave", player="Cy")
    expect_error(table, 400, "bad_field", type="leave", player="Cy", cards=3)
    state = table.act(type="undo")
    assert (player(state, "Cy")["out"], player(state, "Cy")["left"], player(state, "Cy")["hand"]) == (False, False, 10)


def test_the_last_player_left_at_the_table_wins(table: Api) -> None:
    table.act(type="leave", player="Bob")
    state = table.act(type="leave", player="Ann")
    assert (state["status"], state["winners"], state["current"]) == ("finished", ["Cy"], None)
