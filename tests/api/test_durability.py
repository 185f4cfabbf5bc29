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
from referee.web.extensions import shutdown

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
        shutdown(again)
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


class LostAtCommit:
    """A connection whose database goes away as a COMMIT is sent, the way a restarting PostgreSQL ends sessions:
    the COMMIT takes place first (`commits`) or not, and the driver reports an error either way."""

    def __init__(self, connection: Any, *, commits: bool) -> None:
        self.connection = connection
        self.commits = commits
        self.lost = False

    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        if sql == "COMMIT" and not self.lost:
            self.lost = True
            if self.commits:
                self.connection.execute(sql)
            else:
                self.connection.execute("ROLLBACK")
            raise sqlite3.OperationalError("terminating connection due to administrator command")
        return self.connection.execute(sql, parameters)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


@pytest.mark.parametrize("commits", [True, False])
def test_a_tap_whose_commit_answer_was_lost_is_told_what_really_happened(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch, commits: bool
) -> None:
    """A PostgreSQL restart can commit a tap and end the session before saying so: the tap used to be answered
    "Nothing was changed" although it was in (an API client that sent it again entered the card twice)."""
    api.create(["Ann", "Bob"])
    api.play("Ann", "3")
    store = app.extensions["referee"].store
    real_connection = store._connection  # the test breaks its own store's connection
    broken: list[LostAtCommit] = []

    def connection() -> Any:
        db = real_connection()
        if not broken:
            broken.append(LostAtCommit(db, commits=commits))
        return broken[0] if not broken[0].lost else db

    monkeypatch.setattr(store, "_connection", connection)
    monkeypatch.setattr(store.dialect, "lost", lambda db: isinstance(db, LostAtCommit) and db.lost)
    response = api.client.post(
        f"/api/v1/tables/{api.code}/actions",
        json={"type": "play", "player": "Bob", "card": "4", "expected_version": 1},
        headers={"Authorization": f"Bearer {api.token}"},
    )
    monkeypatch.undo()
    state = api.state()
    if commits:
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["total"] == 7 and state["version"] == 2
    else:
        assert response.status_code == 503
        assert response.get_json()["error"]["code"] == "storage_unavailable"
        assert "Nothing was changed" in response.get_json()["error"]["message"]
        assert state["total"] == 3 and state["version"] == 1


def test_a_tap_whose_outcome_cannot_be_told_says_so_not_that_nothing_changed(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database went away at the COMMIT and is still out of reach: neither "saved" nor "nothing was changed"."""
    api.create(["Ann", "Bob"])
    store = app.extensions["referee"].store
    real_connection, real_table = store._connection, store.table  # the test breaks its own store
    broken: list[LostAtCommit] = []

    def connection() -> Any:
        db = real_connection()
        if not broken:
            broken.append(LostAtCommit(db, commits=True))
        return broken[0] if not broken[0].lost else db

    def table(db: Any, code: str, *, lock: bool = False) -> Any:
        if broken and broken[0].lost:
            raise sqlite3.OperationalError("the database system is starting up")
        return real_table(db, code, lock=lock)

    monkeypatch.setattr(store, "_connection", connection)
    monkeypatch.setattr(store, "table", table)
    monkeypatch.setattr(store.dialect, "lost", lambda db: isinstance(db, LostAtCommit) and db.lost)
    response = api.client.post(
        f"/api/v1/tables/{api.code}/actions",
        json={"type": "play", "player": "Ann", "card": "4"},
        headers={"Authorization": f"Bearer {api.token}"},
    )
    assert response.status_code == 503 and response.headers["Retry-After"]
    error = response.get_json()["error"]
    assert error["code"] == "outcome_unknown"
    assert "cannot tell whether it was saved" in error["message"] and "Nothing was changed" not in error["message"]
