"""Requests to be a player through the API: a phone that typed the code asks (a page form);
the table's token lists the requests and allows or refuses them, with error codes for what it cannot do."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from conftest import Api
from flask import Flask
from flask.testing import FlaskClient

from .test_devices import auth, devices, join, tap


def ask(app: Flask, code: str, player: str, phone: FlaskClient | None = None) -> FlaskClient:
    """A phone opens the table by its code and taps "Ask to be PLAYER"; return the phone."""
    phone = phone or app.test_client()
    page = phone.get(f"/t/{code}").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    assert f"Ask to be {player}" in page
    assert phone.post(f"/t/{code}/ask", data={"csrf": csrf.group(1), "player": player}).status_code == 303
    return phone


def requests_of(api: Api) -> list[dict[str, Any]]:
    response = api.client.get(f"/api/v1/tables/{api.code}/join-requests", headers=auth(api))
    assert response.status_code == 200, response.get_json()
    return list(response.get_json()["requests"])


def answer(api: Api, request_id: int, verb: str, token: str | None = None) -> tuple[int, dict[str, Any]]:
    response = api.client.post(f"/api/v1/tables/{api.code}/join-requests/{request_id}/{verb}", headers=auth(api, token))
    return response.status_code, response.get_json()


def test_the_token_lists_and_allows_a_request_and_the_phone_becomes_the_player(api: Api, app: Flask) -> None:
    api.create(["Ann", "Bob", "Dee"])
    asker = ask(app, api.code, "Dee")
    assert tap(asker, api.code) == 403  # watching until the host says yes
    listed = requests_of(api)
    assert [(r["player"], r["status"]) for r in listed] == [("Dee", "pending")]
    status, body = answer(api, listed[0]["id"], "allow")
    assert (status, body) == (200, {"id": listed[0]["id"], "player": "Dee", "status": "allowed"})
    assert [(d["player"], d["role"], d["label"]) for d in devices(api)] == [("Dee", "player", "Dee's phone")]
    assert "You&#39;re Dee" in asker.get(f"/t/{api.code}").get_data(as_text=True)
    assert tap(asker, api.code) == 200


def test_a_refused_request_leaves_the_phone_watching(api: Api, app: Flask) -> None:
    api.create(["Ann", "Bob"])
    asker = ask(app, api.code, "Bob")
    request_id = requests_of(api)[0]["id"]
    assert answer(api, request_id, "refuse") == (200, {"id": request_id, "player": "Bob", "status": "refused"})
    assert devices(api) == []
    assert tap(asker, api.code) == 403
    assert "The host said no" in asker.get(f"/t/{api.code}").get_data(as_text=True)


def test_answering_twice_or_a_request_that_is_not_there_is_refused_with_a_code(api: Api, app: Flask) -> None:
    api.create(["Ann", "Bob"])
    ask(app, api.code, "Bob")
    request_id = requests_of(api)[0]["id"]
    assert answer(api, request_id, "allow")[0] == 200
    status, body = answer(api, request_id, "refuse")
    assert (status, body["error"]["code"]) == (422, "not_pending")
    assert body["error"]["message"] == "That request to be Bob was already allowed."
    for missing in (request_id + 1, 0, 2**70):
        status, body = answer(api, missing, "allow")
        assert (status, body["error"]["code"]) == (404, "no_request")
    assert [r["status"] for r in requests_of(api)] == ["allowed"]
    assert [d["player"] for d in devices(api)] == ["Bob"]


def test_a_request_for_a_seat_another_phone_took_is_closed(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob"])
    ask(app, api.code, "Bob")
    join(app, created["join_url"], "player:Bob")  # another phone picks Bob through the join link
    request_id = requests_of(api)[0]["id"]
    assert requests_of(api)[0]["status"] == "taken"
    status, body = answer(api, request_id, "allow")
    assert (status, body["error"]["code"]) == (422, "not_pending")
    assert "another phone took the seat" in body["error"]["message"]
    assert [d["player"] for d in devices(api)] == ["Bob"]


def test_removing_a_phone_withdraws_its_request(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob"])
    watcher = join(app, created["join_url"], "watch")
    ask(app, api.code, "Ann", phone=watcher)
    watcher_id = devices(api)[0]["id"]
    assert api.client.delete(f"/api/v1/tables/{api.code}/devices/{watcher_id}", headers=auth(api)).status_code == 200
    assert [r["status"] for r in requests_of(api)] == ["cancelled"]


def test_a_request_nobody_answered_for_half_an_hour_is_closed(api: Api, app: Flask) -> None:
    api.create(["Ann", "Bob"])
    asker = ask(app, api.code, "Bob")
    request_id = requests_of(api)[0]["id"]
    app.extensions["referee"].clock = lambda: time.time() + 31 * 60
    # Contract v1's statuses: an expired request reads as closed like a withdrawn one.
    assert [(r["id"], r["status"]) for r in requests_of(api)] == [(request_id, "cancelled")]
    status, body = answer(api, request_id, "allow")
    assert (status, body["error"]["code"]) == (422, "not_pending")
    assert body["error"]["message"] == (
        "That request to be Bob waited over 30 minutes and was closed: that phone can ask again."
    )
    assert devices(api) == []
    assert tap(asker, api.code) == 403


@pytest.mark.parametrize(("method", "path"), [("GET", "/join-requests"), ("POST", "/join-requests/1/allow")])
def test_requests_need_this_tables_token(api: Api, app: Flask, method: str, path: str) -> None:
    api.create(["Ann", "Bob"])
    ask(app, api.code, "Bob")
    url = f"/api/v1/tables/{api.code}{path}"
    answers = [
        api.client.open(url, method=method),
        api.client.open(url, method=method, headers=auth(api, "wrong")),
        api.client.open(f"/api/v1/tables/NOSUCH{path}", method=method, headers=auth(api)),
    ]
    assert [(a.status_code, a.get_json()["error"]["code"]) for a in answers] == [
        (401, "no_token"),
        (403, "bad_token"),
        (404, "no_table"),
    ]
    assert [r["status"] for r in requests_of(api)] == ["pending"]


def test_a_phone_that_picks_a_seat_by_the_link_withdraws_its_request(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob", "Dee"])
    asker = ask(app, api.code, "Dee")
    request_id = requests_of(api)[0]["id"]
    # The same browser then opens the join link and picks Bob: its request for Dee is moot.
    path = "/" + created["join_url"].split("/", 3)[3]
    csrf = re.search(r'name="csrf" value="([^"]+)"', asker.get(path).get_data(as_text=True))
    assert csrf is not None
    assert asker.post(path, data={"csrf": csrf.group(1), "who": "player:Bob"}).status_code == 303
    assert [r["status"] for r in requests_of(api)] == ["cancelled"]
    status, body = answer(api, request_id, "allow")
    assert (status, body["error"]["code"]) == (422, "not_pending")
    assert [(d["player"], d["role"]) for d in devices(api)] == [("Bob", "player")]


def test_a_watcher_that_rejoins_by_the_link_withdraws_its_request_and_the_host_hears(api: Api, app: Flask) -> None:
    created = api.create(["Ann", "Bob"])
    watcher = join(app, created["join_url"], "watch")
    ask(app, api.code, "Bob", phone=watcher)
    revision = app.extensions["referee"].view(api.code).revision
    path = "/" + created["join_url"].split("/", 3)[3]
    csrf = re.search(r'name="csrf" value="([^"]+)"', watcher.get(path).get_data(as_text=True))
    assert csrf is not None
    assert watcher.post(path, data={"csrf": csrf.group(1), "who": "watch"}).status_code == 303
    assert [r["status"] for r in requests_of(api)] == ["cancelled"]
    # The revision moved, so every host phone's list drops the request live.
    assert app.extensions["referee"].view(api.code).revision == revision + 1
