"""An accepted action is committed before the answer: a restarted app, or a replay of the log, agrees."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from conftest import Api
from flask import Flask

from referee import create_app
from referee.service.codec import state_json
from referee.store import database_path

pytestmark = pytest.mark.sqlite


def restarted(app: Flask) -> Flask:
    """A second app on the same database, as after a restart (even kill -9: nothing is flushed on exit)."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": app.config["SECRET_KEY"],
            "DATABASE_URL": app.config["DATABASE_URL"],
        }
    )


def play_some(api: Api) -> dict[str, Any]:
    """A short game with every kind of action, an undo and a redo."""
    api.create(["Ann", "Bob", "Cy"], house_rules={"new_round_direction": "keep"})
    api.play("Ann", "7")
    api.play("Bob", "reverse")
    api.play("Ann", "bomb", zeros=["Cy"])
    api.act(type="hand", player="Ann", cards=2)
    api.play("Cy", "7")
    api.play("Bob", "7")
    api.play("Ann", "1")
    api.act(type="bust", player="Cy")
    api.act(type="undo")
    api.act(type="redo")
    api.act(type="undo")
    return api.state()


def test_a_restarted_app_shows_the_same_state(app: Flask, api: Api) -> None:
    state = play_some(api)
    assert state["version"] == 11
    again = restarted(app)
    try:
        response = again.test_client().get(f"/api/v1/tables/{api.code}")
        assert response.status_code == 200
        assert response.get_json() == state
        # The restarted app goes on from there, with the same token.
        after = again.test_client().post(
            f"/api/v1/tables/{api.code}/actions",
            json={"type": "redo", "expected_version": 11},
            headers={"Authorization": f"Bearer {api.token}"},
        )
        assert after.status_code == 200
        assert after.get_json()["version"] == 12
    finally:
        again.extensions["referee"].bus.close_all()
    # …and the first app sees the second one's action too.
    assert api.state()["version"] == 12


def test_each_action_is_in_the_database_when_the_answer_arrives(app: Flask, api: Api) -> None:
    api.create(["Ann", "Bob"])
    path = database_path(app.config["DATABASE_URL"])
    for expected, card in enumerate(["3", "4", "5"], start=1):
        state = api.play("Ann" if expected % 2 else "Bob", card)
        # A separate connection sees only committed data.
        with sqlite3.connect(path) as db:
            version = db.execute("SELECT version FROM tables WHERE code = ?", (api.code,)).fetchone()[0]
            events = db.execute(
                "SELECT COUNT(*) FROM events JOIN tables ON tables.id = events.table_id WHERE code = ?", (api.code,)
            ).fetchone()[0]
        db.close()
        assert version == state["version"] == expected
        assert events == expected


def test_the_database_uses_wal(app: Flask, api: Api) -> None:
    api.create(["Ann", "Bob"])
    with sqlite3.connect(database_path(app.config["DATABASE_URL"])) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_replaying_the_log_equals_the_cached_state(app: Flask, api: Api) -> None:
    state = play_some(api)
    referee = app.extensions["referee"]
    view = referee.view(api.code)
    replayed = referee.replay_check(api.code)
    assert replayed == view.state
    assert state_json(api.code, view.version, replayed, can_undo=True, can_redo=True) == state


def test_a_refused_action_leaves_nothing_in_the_log(app: Flask, api: Api) -> None:
    api.create(["Ann", "Bob"])
    api.play("Bob", "7", expect=422)
    api.play("Ann", "7", expected_version=4, expect=409)
    with sqlite3.connect(database_path(app.config["DATABASE_URL"])) as db:
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0
        assert db.execute("SELECT version FROM tables").fetchone()[0] == 0
    db.close()
