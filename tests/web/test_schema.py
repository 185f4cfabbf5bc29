"""The database records its schema version, and a database made by an older release is upgraded losing nothing."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from flask import Flask

from referee import create_app
from referee.store import SCHEMA_VERSION
from referee.web.extensions import shutdown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _app(database: Path) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{database}"})


def _columns(database: Path, table: str) -> set[str]:
    with sqlite3.connect(database) as db:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def test_a_new_database_is_at_the_current_schema_version(tmp_path: Path) -> None:
    database = tmp_path / "new.sqlite3"
    shutdown(_app(database))
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_database_from_before_schema_versions_is_upgraded_and_keeps_every_table(tmp_path: Path) -> None:
    facts = json.loads((FIXTURES / "schema-0.json").read_text())
    database = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "schema-0.sqlite3", database)
    assert "creator_address" in _columns(database, "tables")

    app = _app(database)
    client = app.test_client()
    table = facts["api_table"]
    state = client.get(f"/api/v1/tables/{table['code']}").get_json()
    assert (state["version"], state["total"], state["current"]) == (table["version"], table["total"], table["current"])
    assert state["can_redo"] is True  # the undone Skip is still there to redo
    # The old token still opens the table, and play goes on where it stopped.
    answer = client.post(
        f"/api/v1/tables/{table['code']}/actions",
        json={"type": "play", "player": "Ann", "card": "2"},
        headers={"Authorization": f"Bearer {table['token']}"},
    )
    assert answer.status_code == 200 and answer.get_json()["total"] == 17
    assert client.get(f"/t/{facts['form_table']['code']}").status_code == 200
    shutdown(app)

    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    # Addresses were only ever written, never read: the upgrade drops them.
    assert "creator_address" not in _columns(database, "tables")
    assert not {"address", "last_seen"} & _columns(database, "devices")


def test_starting_twice_on_an_upgraded_database_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "schema-0.sqlite3", database)
    for _ in range(2):
        shutdown(_app(database))
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 2
