"""Managing a table's phones with its API token: list them, remove one (which replaces the join link), host-only entry,
and a rematch that answers with the new table's code and token."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import Api, finish_game
from flask import Flask
from flask.testing import FlaskClient


def auth(api: Api, token: str | None = None) -> dict[str, str]:
    """The Authorization header with the table's token (or another)."""
    return {"Authorization": f"Bearer {token or api.token}"}


def join(app: Flask, join_url: str, who: str, **extra: str) -> FlaskClient:
    """A phone that opened the join link and picked `who` (player:NAME, score or watch; `extra`: more fields)."""
    phone = app.test_client()
    path = urlsplit(join_url).path
    page = phone.get(path).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    assert phone.post(path, data={"csrf": csrf.group(1), "who": who, **extra}).status_code == 303
    return phone


def tap(phone: FlaskClient, code: str) -> int:
    """Tap the current player's 1 on the table page as htmx would; return the status."""
    page = phone.get(f"/t/{code}").get_data(as_text=True)
    csrf = re.search(r'"X-CSRF-Token": "([^"]+)"', page) or re.search(r'name="csrf" value="([^"]+)"', page)
    player = re.search(r'name="player" value="([^"]+)"', page)
    version = re.search(r'data-version="(\d+)"', page)
    form = {
        "csrf": csrf.group(1) if csrf else "",
        "kind": "play",
        "player": player.group(1) if player else "Ann",
        "card": "1",
        "version": version.group(1) if version else "0",
    }
    return phone.post(f"/t/{code}/act", data=form, headers={"HX-Request": "true"}).status_code


def devices(api: Api) -> list[dict[str, Any]]:
    """The table's phones, as the API lists them."""
    response = api.client.get(f"/api/v1/tables/{api.code}/devices", headers=auth(api))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert isinstance(body, dict)
    return list(body["devices"])


def test_the_token_lists_the_phones_at_the_table(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob", "Cy"])
    join(app, created["join_url"], "player:Bob")
    join(app, created["join_url"], "watch")
    listed = devices(api)
    seen = [(d["player"], d["role"], d["removed"]) for d in listed]
    assert seen == [("Bob", "player", False), (None, "watcher", False)]
    assert all(isinstance(d["id"], int) and d["label"] for d in listed)


def test_the_token_sees_a_seat_move_to_a_new_phone(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob", "Cy"])
    join(app, created["join_url"], "player:Bob")
    # Bob's phone died: a new one takes his seat over (asked first; the yes names the phone it takes it from).
    old_bob = devices(api)[0]["id"]
    join(app, created["join_url"], "player:Bob", take=str(old_bob))
    listed = devices(api)
    seen = [(d["label"], d["player"], d["role"], d["removed"]) for d in listed]
    assert seen == [("Bob's old phone", None, "watcher", False), ("Bob's phone", "Bob", "player", False)]
    # Told apart by their ids and when they joined, the old one first.
    assert listed[0]["id"] != listed[1]["id"] and listed[0]["joined_at"] <= listed[1]["joined_at"]
    assert all(isinstance(d["joined_at"], float) for d in listed)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/devices", None),
        ("DELETE", "/devices/1", None),
        ("PUT", "/entry", {"entry": "host"}),
        ("POST", "/rematch", None),
    ],
)
def test_phone_management_needs_this_tables_token(api: Api, app: Flask, method: str, path: str, body: Any) -> None:
    created = api.create(["Ann", "Bob"])
    other = api.client.post("/api/v1/tables", json={"players": ["Cy", "Dee"]}).get_json()
    join(app, created["join_url"], "player:Bob")
    url = f"/api/v1/tables/{api.code}{path}"
    answers = [
        api.client.open(url, method=method, json=body),
        api.client.open(url, method=method, json=body, headers=auth(api, "wrong")),
        api.client.open(url, method=method, json=body, headers=auth(api, other["token"])),
        api.client.open(f"/api/v1/tables/NOSUCH{path}", method=method, json=body, headers=auth(api)),
    ]
    assert [(a.status_code, a.get_json()["error"]["code"]) for a in answers] == [
        (401, "no_token"),
        (403, "bad_token"),
        (403, "bad_token"),
        (404, "no_table"),
    ]
    assert devices(api)[0]["removed"] is False
    assert api.client.get(urlsplit(created["join_url"]).path).status_code == 200


def test_removing_a_phone_keeps_it_out_and_replaces_the_join_link(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob", "Cy"])
    old_link = urlsplit(created["join_url"]).path
    bob = join(app, created["join_url"], "player:Bob")
    cy = join(app, created["join_url"], "player:Cy")
    bob_id = next(d["id"] for d in devices(api) if d["player"] == "Bob")
    response = api.client.delete(f"/api/v1/tables/{api.code}/devices/{bob_id}", headers=auth(api))
    assert response.status_code == 200
    new_link = urlsplit(response.get_json()["join_url"]).path
    assert new_link != old_link and new_link.startswith(f"/j/{api.code}/")
    assert [d["removed"] for d in devices(api) if d["player"] == "Bob"] == [True]
    assert tap(bob, api.code) == 403
    # Bob clears his cookies and opens the link from his history: it no longer lets anyone in.
    fresh = app.test_client()
    assert fresh.get(old_link).status_code == 403
    assert tap(fresh, api.code) == 403
    assert api.state()["version"] == 0
    # Cy, still at the table, keeps entering cards; the new link works for newcomers.
    assert tap(cy, api.code) == 200
    assert app.test_client().get(new_link).status_code == 200
    # The same removal sent again (a retry after a lost answer) keeps the link just handed out valid.
    again = api.client.delete(f"/api/v1/tables/{api.code}/devices/{bob_id}", headers=auth(api))
    assert again.status_code == 200 and urlsplit(again.get_json()["join_url"]).path == new_link
    assert app.test_client().get(new_link).status_code == 200


def test_a_removed_phone_is_brought_back_with_its_seat(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob", "Cy"])
    bob = join(app, created["join_url"], "player:Bob")
    bob_id = next(d["id"] for d in devices(api) if d["player"] == "Bob")
    removal = api.client.delete(f"/api/v1/tables/{api.code}/devices/{bob_id}", headers=auth(api))
    new_link = removal.get_json()["join_url"]
    assert tap(bob, api.code) == 403

    response = api.client.post(f"/api/v1/tables/{api.code}/devices/{bob_id}/restore", headers=auth(api))
    assert response.status_code == 200
    assert response.get_json()["removed"] is False and response.get_json()["player"] == "Bob"
    assert [d["removed"] for d in devices(api) if d["player"] == "Bob"] == [False]
    assert tap(bob, api.code) == 200
    # Sent again (a retry after a lost answer): the same answer, nothing else changes.
    again = api.client.post(f"/api/v1/tables/{api.code}/devices/{bob_id}/restore", headers=auth(api))
    assert again.status_code == 200 and again.get_json() == response.get_json()
    # The link the removal made is the table's link still.
    assert api.client.get(urlsplit(new_link).path).status_code == 200


def test_bringing_back_a_phone_whose_seat_was_taken_is_refused(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob", "Cy"])
    join(app, created["join_url"], "player:Bob")
    bob_id = next(d["id"] for d in devices(api) if d["player"] == "Bob")
    new_link = api.client.delete(f"/api/v1/tables/{api.code}/devices/{bob_id}", headers=auth(api)).get_json()
    borrowed = join(app, new_link["join_url"], "player:Bob")
    before = devices(api)

    refused = api.client.post(f"/api/v1/tables/{api.code}/devices/{bob_id}/restore", headers=auth(api))
    assert refused.status_code == 422
    assert refused.get_json()["error"]["code"] == "seat_taken"
    assert refused.get_json()["error"]["message"] == "Another phone is Bob's now, so Bob's phone stays removed."
    assert devices(api) == before
    assert tap(borrowed, api.code) == 200
    unknown = api.client.post(f"/api/v1/tables/{api.code}/devices/999/restore", headers=auth(api))
    assert (unknown.status_code, unknown.get_json()["error"]["code"]) == (404, "no_device")
    no_token = api.client.post(f"/api/v1/tables/{api.code}/devices/{bob_id}/restore")
    assert no_token.status_code == 401


def test_removing_an_unknown_phone_is_a_404_and_changes_nothing(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob"])
    response = api.client.delete(f"/api/v1/tables/{api.code}/devices/999", headers=auth(api))
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "no_device"
    assert api.client.get(urlsplit(created["join_url"]).path).status_code == 200


def test_the_token_switches_to_host_only_entry_and_back(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob"])
    bob = join(app, created["join_url"], "player:Bob")
    url = f"/api/v1/tables/{api.code}/entry"
    response = api.client.put(url, json={"entry": "host"}, headers=auth(api))
    assert response.status_code == 200
    assert response.get_json() == {"entry": "host"}
    assert tap(bob, api.code) == 403
    api.play("Ann", "1")  # the API itself still enters cards
    for bad in ({"entry": "everyone"}, {}, ["host"], {"entry": "host", "extra": 1}):
        refused = api.client.put(url, json=bad, headers=auth(api))
        assert refused.status_code == 400, bad
        assert refused.get_json()["error"]["code"] in ("bad_entry", "bad_json", "bad_field")
    assert api.client.put(url, json={"entry": "joined"}, headers=auth(api)).get_json() == {"entry": "joined"}
    assert tap(bob, api.code) == 200


def test_the_token_starts_a_rematch_with_a_token_of_its_own(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob"])
    early = api.client.post(f"/api/v1/tables/{api.code}/rematch", headers=auth(api))
    assert (early.status_code, early.get_json()["error"]["code"]) == (422, "not_finished")
    bob = join(app, created["join_url"], "player:Bob")
    finish_game(app, api.code)
    response = api.client.post(f"/api/v1/tables/{api.code}/rematch", headers=auth(api))
    assert response.status_code == 201
    body = response.get_json()
    assert body["code"] != api.code and body["state"]["version"] == 0
    assert response.headers["Location"].endswith(f"/api/v1/tables/{body['code']}")
    rematch = Api(api.client)
    rematch.code, rematch.token = body["code"], body["token"]
    assert rematch.play("Ann", "1")["version"] == 1
    assert body["join_url"].startswith("http") and f"/j/{body['code']}/" in body["join_url"]
    assert tap(bob, body["code"]) == 200  # joined phones follow to the rematch
    again = api.client.post(f"/api/v1/tables/{api.code}/rematch", headers=auth(api))
    assert again.status_code == 200
    assert again.get_json()["code"] == body["code"]
    assert again.get_json()["token"] == body["token"]


@pytest.mark.parametrize("device_id", ["0", "9223372036854775808", "99999999999999999999999"])
def test_a_made_up_phone_number_in_the_url_is_a_404(api: Api, device_id: str) -> None:
    api.create(["Ann", "Bob"])
    response = api.client.delete(f"/api/v1/tables/{api.code}/devices/{device_id}", headers=auth(api))
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] in ("no_device", "not_found")
