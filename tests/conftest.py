"""Shared fixtures: an app on a temporary database, its test client, and a small API helper."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """An app with its own SQLite file, as `referee serve` would run it."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite3'}",
            "STREAM_KEEPALIVE": 0.2,
            "STREAM_MAX_SECONDS": 1.0,
        }
    )
    yield app
    app.extensions["referee"].bus.close_all()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser-like client (keeps cookies)."""
    return app.test_client()


class Api:
    """Drives JSON API v1 like an outside client: create a table, then send actions with its token."""

    def __init__(self, client: FlaskClient):
        self.client = client
        self.code = ""
        self.token = ""
        self.created: dict[str, Any] = {}

    def create(self, players: list[str] | None = None, **fields: Any) -> dict[str, Any]:
        """Create a table and remember its code and token; return the 201 body."""
        response = self.client.post("/api/v1/tables", json={"players": players or ["Ann", "Bob", "Cy"], **fields})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.code, self.token, self.created = body["code"], body["token"], body
        return body

    def act(self, expect: int = 200, **action: Any) -> dict[str, Any]:
        """Send one action with the table's token; assert the status; return the JSON body."""
        response = self.client.post(
            f"/api/v1/tables/{self.code}/actions",
            json=action,
            headers={"Authorization": f"Bearer {self.token}"},
        )
        assert response.status_code == expect, response.get_json()
        body = response.get_json()
        assert isinstance(body, dict)
        return body

    def play(self, player: str, card: str, expect: int = 200, **extra: Any) -> dict[str, Any]:
        """Play one card."""
        return self.act(expect=expect, type="play", player=player, card=card, **extra)

    def state(self) -> dict[str, Any]:
        """Return the table's state."""
        response = self.client.get(f"/api/v1/tables/{self.code}")
        assert response.status_code == 200
        body = response.get_json()
        assert isinstance(body, dict)
        return body


@pytest.fixture
def api(client: FlaskClient) -> Api:
    """A JSON API helper bound to a fresh client."""
    return Api(client)
