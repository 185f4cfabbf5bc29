"""A table's log has a documented cap, and one token cannot flood a table with actions."""

from __future__ import annotations

from typing import Any

from conftest import Api
from flask import Flask

from referee import create_app
from referee.web.extensions import shutdown


def _app(tmp_path: Any, **settings: Any) -> Flask:
    return create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", **settings}
    )


def test_a_full_log_refuses_new_cards_with_a_sentence_but_still_allows_undo(tmp_path: Any) -> None:
    app = _app(tmp_path, MAX_ACTIONS_PER_TABLE=3)
    api = Api(app.test_client())
    api.create(["Ann", "Bob"])
    for player, card in (("Ann", "1"), ("Bob", "1"), ("Ann", "1")):
        api.play(player, card)
    refused = api.play("Bob", "1", expect=422)
    assert refused["error"]["code"] == "log_full"
    assert "rematch" in refused["error"]["message"]
    assert api.state()["total"] == 3  # nothing was entered
    assert api.act(type="undo")["total"] == 2
    assert api.play("Ann", "2")["total"] == 4  # the undone card's place is free again
    shutdown(app)


def test_a_token_sending_too_many_actions_is_asked_to_wait(tmp_path: Any) -> None:
    app = _app(tmp_path, TOKEN_ACTIONS_PER_MINUTE=4)
    api = Api(app.test_client())
    api.create(["Ann", "Bob"])
    for player in ("Ann", "Bob", "Ann", "Bob"):
        api.play(player, "1")
    refused = api.client.post(
        f"/api/v1/tables/{api.code}/actions",
        json={"type": "play", "player": "Ann", "card": "1"},
        headers={"Authorization": f"Bearer {api.token}"},
    )
    assert refused.status_code == 429
    # When the first of the four leaves the sliding minute: about 60 s, not a guess that sends the client back
    # to be refused again (a fixed "5" would be refused eleven times over).
    assert 55 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.get_json()["error"]["code"] == "too_many"
    # The sentence gives the same wait, never "wait a moment" beside 60 seconds.
    wait = refused.headers["Retry-After"]
    assert refused.get_json()["error"]["message"] == (
        f"Too many actions for this table: send it again in {wait} seconds (Retry-After)."
    )
    assert api.state()["total"] == 4
    shutdown(app)
