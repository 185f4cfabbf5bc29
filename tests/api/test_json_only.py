"""A body the API reads must be sent as JSON: a web page can make a visitor's browser send a form or text/plain to
any site without asking (a "simple" cross-site request), never JSON, so no page a player visits can start or
import tables from the player's browser (docs/security.md). Writes without a body work as they did."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Api, finish_game
from flask import Flask
from flask.testing import FlaskClient
from reliability.helpers import snapshot

from .test_devices import auth, devices, join

# What a browser may send cross-site without asking the server first, and a few near misses.
NOT_JSON = [
    None,
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/jsonp",
    "application/json; profile=x",
]


def body_writes(api: Api) -> list[tuple[str, str, dict[str, Any]]]:
    """Every API operation that reads a body: (method, path, a body it would accept)."""
    exported = api.client.get(f"/api/v1/tables/{api.code}/export", headers=auth(api)).get_json()
    return [
        ("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}),
        ("POST", f"/api/v1/tables/{api.code}/actions", {"type": "hand", "player": "Ann", "cards": 4}),
        ("PUT", f"/api/v1/tables/{api.code}/entry", {"entry": "host"}),
        ("POST", f"/api/v1/tables/{api.code}/rematch", {"first_player": "Bob"}),
        ("POST", "/api/v1/tables/import", exported),
    ]


@pytest.mark.parametrize("content_type", NOT_JSON)
def test_a_body_not_sent_as_json_is_a_415_and_changes_nothing(
    api: Api, app: Flask, client: FlaskClient, content_type: str | None
) -> None:
    api.create(["Ann", "Bob"])
    finish_game(app, api.code)  # so that the rematch would be made if its body were read
    before = snapshot(app)
    for method, path, body in body_writes(api):
        headers = {**auth(api), **({"Content-Type": content_type} if content_type else {})}
        response = client.open(path, method=method, data=json.dumps(body), headers=headers)
        assert response.status_code == 415, (path, response.get_json())
        assert response.get_json() == {
            "error": {
                "code": "unsupported_media_type",
                "message": "Send the body as JSON, with the header Content-Type: application/json.",
            }
        }
    assert snapshot(app) == before


def test_json_with_a_charset_is_read(api: Api, app: Flask, client: FlaskClient) -> None:
    api.create(["Ann", "Bob"])
    finish_game(app, api.code)
    expected = {"/api/v1/tables": 201, "/actions": 422, "/entry": 200, "/rematch": 201, "/import": 201}
    for method, path, body in body_writes(api):
        response = client.open(
            path,
            method=method,
            data=json.dumps(body).encode(),
            headers={**auth(api), "Content-Type": "application/json; charset=utf-8"},
        )
        # The hand correction reaches the rules, which refuse it: the game is over.
        wanted = next(status for end, status in expected.items() if path.endswith(end))
        assert response.status_code == wanted, (path, response.get_json())


def test_writes_without_a_body_need_no_content_type(api: Api, app: Flask, client: FlaskClient) -> None:
    created = api.create(["Ann", "Bob"])
    join(app, created["join_url"], "player:Bob")
    phone = devices(api)[-1]["id"]
    # A client that sends no body and no Content-Type, or a form's type with nothing in it, as curl -X POST may.
    for content_type in (None, "application/x-www-form-urlencoded"):
        headers = {**auth(api), **({"Content-Type": content_type} if content_type else {})}
        assert client.post(f"/api/v1/tables/{api.code}/join-link", headers=headers).status_code == 200
        assert client.delete(f"/api/v1/tables/{api.code}/devices/{phone}", headers=headers).status_code == 200
        assert client.post(f"/api/v1/tables/{api.code}/devices/{phone}/restore", headers=headers).status_code == 200
    finish_game(app, api.code)
    rematch = client.post(f"/api/v1/tables/{api.code}/rematch", headers=auth(api))
    assert rematch.status_code == 201, rematch.get_json()
