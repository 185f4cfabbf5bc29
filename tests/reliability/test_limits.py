"""Limits: oversized bodies get 413; too many new tables or joins from one address get 429.

The defaults must still let one address start 60 tables a minute (a club night, a classroom), and one
address's limit must not touch anyone else's. Forwarded-for headers from ordinary phones do not count.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from conftest import finish_game
from flask import Flask
from flask.testing import FlaskClient

from referee.service import Operator
from referee.web.security import RateLimiter, SharedRateLimiter
from tools.harness import HOST, Client, LiveServer

from .helpers import csrf_from, join_link, make_app, snapshot, start_table_by_form

LIMIT = 64 * 1024
PHONE = {"REMOTE_ADDR": "192.168.1.23"}
OTHER_PHONE = {"REMOTE_ADDR": "192.168.1.24"}


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """An app with the default limits."""
    return make_app(tmp_path)


def api_table(app: Flask) -> tuple[str, str]:
    """Create a table through the API from a machine of its own; return its code and token."""
    body = (
        app.test_client()
        .post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base={"REMOTE_ADDR": "10.9.9.9"})
        .get_json()
    )
    return body["code"], body["token"]


def test_the_default_limits(app: Flask) -> None:
    assert app.config["MAX_CONTENT_LENGTH"] == LIMIT
    assert app.config["TABLES_PER_MINUTE"] >= 60
    assert app.config["JOINS_PER_MINUTE"] >= 60


@pytest.mark.parametrize("path", ["/api/v1/tables", "/api/v1/tables/{code}/actions"])
def test_api_bodies_over_64_kb_get_a_json_413(app: Flask, path: str) -> None:
    code, token = api_table(app)
    before = snapshot(app)
    body = json.dumps({"players": ["Ann", "Bob"], "pad": "x" * LIMIT}).encode()
    response = app.test_client().post(
        path.format(code=code),
        data=body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 413
    assert response.get_json()["error"] == {"code": "too_large", "message": "That was too much to send at once."}
    assert snapshot(app) == before


def test_a_body_just_under_the_limit_is_read(app: Flask) -> None:
    body = json.dumps({"players": ["Ann", "Bob"], "pad": "x" * (LIMIT - 100)}).encode()
    assert len(body) <= LIMIT
    response = app.test_client().post("/api/v1/tables", data=body, content_type="application/json")
    assert response.status_code == 400  # read, then refused for its unknown field, not for its size
    assert response.get_json()["error"]["code"] == "bad_field"


@pytest.mark.parametrize("path", ["/", "/t/{code}/act", "/j/{code}/{secret}"])
def test_form_posts_over_64_kb_get_413(app: Flask, path: str) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob"])
    secret = join_link(host, code).rsplit("/", 1)[-1]
    before = snapshot(app)
    csrf = csrf_from(host.get(f"/t/{code}").get_data(as_text=True))
    response = host.post(
        path.format(code=code, secret=secret),
        data={"csrf": csrf, "kind": "play", "player": "Ann", "card": "1", "name": "x" * LIMIT},
    )
    assert response.status_code == 413
    # In our words, on the app's error page (not the framework's "The data value transmitted exceeds...").
    assert "<p>That was too much to send at once.</p>" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_the_real_server_refuses_huge_bodies_without_reading_them(live_server: LiveServer) -> None:
    # 64 KB + 1: the app's JSON 413.
    with Client(live_server.port) as client:
        reply = client.request(
            "POST", "/api/v1/tables", b"{" + b" " * LIMIT + b"}", {"Content-Type": "application/json"}
        )
        assert reply.status == 413
        assert reply.json()["error"] == {"code": "too_large", "message": "That was too much to send at once."}
    # 100 MB announced, 1 KB sent: refused at once, before the body (waitress would otherwise spool it).
    with socket.create_connection((HOST, live_server.port), timeout=5) as sock:
        sock.sendall(
            b"POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 104857600\r\n\r\n" + b"[" * 1024
        )
        started = time.monotonic()
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
        assert time.monotonic() - started < 3
    with Client(live_server.port) as client:
        assert client.request("GET", "/healthz").status == 200


def test_sixty_tables_a_minute_from_one_address_then_429(app: Flask) -> None:
    client = app.test_client()
    for number in range(60):
        response = client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base=PHONE)
        assert response.status_code == 201, (number, response.get_json())
    before = snapshot(app)
    refused = client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base=PHONE)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too_many"
    # The home form shares the limit; the phone's next table waits too.
    csrf = csrf_from(client.get("/", environ_base=PHONE).get_data(as_text=True))
    form = {"csrf": csrf, "name": ["Ann", "Bob"], "op": "start"}
    assert client.post("/", data=form, environ_base=PHONE).status_code == 429
    # Pretending to be someone else with X-Forwarded-For does not help a phone on the Wi-Fi.
    spoofed = client.post(
        "/api/v1/tables",
        json={"players": ["Ann", "Bob"]},
        environ_base=PHONE,
        headers={"X-Forwarded-For": "10.1.2.3"},
    )
    assert spoofed.status_code == 429
    assert snapshot(app) == before
    # Everyone else is unaffected.
    other = client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base=OTHER_PHONE)
    assert other.status_code == 201


def test_refused_attempts_do_not_count_towards_the_table_limit(app: Flask) -> None:
    # A form sent back for a fix (a missing name, a duplicate) costs the phone nothing.
    client = app.test_client()
    for _ in range(70):
        assert client.post("/api/v1/tables", json={"players": ["Ann"]}, environ_base=PHONE).status_code == 400
    csrf = csrf_from(client.get("/", environ_base=PHONE).get_data(as_text=True))
    for _ in range(5):
        form = {"csrf": csrf, "name": ["Ann", "Ann"], "op": "start"}
        assert client.post("/", data=form, environ_base=PHONE).status_code == 400
    for number in range(60):
        response = client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base=PHONE)
        assert response.status_code == 201, number
    assert client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base=PHONE).status_code == 429


def test_refused_imports_count_towards_the_table_limit(app: Flask) -> None:
    """Checking an import replays its whole game, so a refused one has cost the server as much as a made one: an
    address sending refused imports meets the limit, as one making tables does."""
    client = app.test_client()
    code, token = api_table(app)
    document = client.get(f"/api/v1/tables/{code}/export", headers={"Authorization": f"Bearer {token}"}).get_json()
    document["actions"] = [{"type": "play", "player": "Nobody", "card": "3"}]
    for number in range(60):
        refused = client.post("/api/v1/tables/import", json=document, environ_base=PHONE)
        assert refused.status_code == 400, (number, refused.get_json())
    before = snapshot(app)
    limited = client.post("/api/v1/tables/import", json=document, environ_base=PHONE)
    assert limited.status_code == 429
    assert limited.get_json()["error"]["code"] == "too_many" and 0 < int(limited.headers["Retry-After"]) <= 60
    assert client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base=PHONE).status_code == 429
    assert snapshot(app) == before
    # Another address is unaffected.
    other = client.post("/api/v1/tables/import", json=document, environ_base=OTHER_PHONE)
    assert other.status_code == 400


def test_a_cross_site_form_post_costs_the_address_nothing(app: Flask) -> None:
    """A page that makes its visitors' browsers post forms to the API gets a 415 each time, before anything is
    counted: it cannot use up a player's new tables either."""
    client = app.test_client()
    for path in ("/api/v1/tables", "/api/v1/tables/import"):
        for _ in range(70):
            response = client.post(path, data={"players": "Ann"}, environ_base=PHONE)
            assert response.status_code == 415
    for number in range(60):
        response = client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base=PHONE)
        assert response.status_code == 201, number


@pytest.mark.parametrize("kept", ["in memory", "in the database"])
def test_the_table_limit_is_a_sliding_minute(app: Flask, kept: str) -> None:
    now = [1000.0]
    if kept == "in memory":
        app.extensions["referee.table_limit"] = RateLimiter(60, 60.0, clock=lambda: now[0])
    else:  # as processes sharing the database keep it
        store = app.extensions["referee"].store
        app.extensions["referee.table_limit"] = SharedRateLimiter(store, "tables", 60, 60.0, clock=lambda: now[0])
    client = app.test_client()
    for _ in range(60):
        now[0] += 0.5
        assert client.post("/api/v1/tables", json={"players": ["A", "B"]}, environ_base=PHONE).status_code == 201
    refused = client.post("/api/v1/tables", json={"players": ["A", "B"]}, environ_base=PHONE)
    assert refused.status_code == 429
    # Retry-After says when the oldest creation leaves the minute, and it is true.
    assert refused.headers["Retry-After"] == "31"
    now[0] += 30.6  # the first creations are now more than a minute old
    assert client.post("/api/v1/tables", json={"players": ["A", "B"]}, environ_base=PHONE).status_code == 201


def test_a_local_reverse_proxy_is_still_believed(app: Flask) -> None:
    # Behind nginx on the same machine, each phone's own address (X-Forwarded-For) is what counts.
    client = app.test_client()
    for number in range(61):
        response = client.post(
            "/api/v1/tables",
            json={"players": ["Ann", "Bob"]},
            environ_base={"REMOTE_ADDR": "127.0.0.1"},
            headers={"X-Forwarded-For": f"192.168.1.{100 + number}"},
        )
        assert response.status_code == 201


def test_too_many_joins_from_one_address_get_429(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob", "Cy"])
    link = join_link(host, code)
    phone = app.test_client()
    csrf = csrf_from(phone.get(link, environ_base=PHONE).get_data(as_text=True))  # opening the link is 1 of 60
    for number in range(59):
        response = phone.post(link, data={"csrf": csrf, "who": "watch"}, environ_base=PHONE)
        assert response.status_code == 303, number
        # Each join gives the phone a new CSRF token (and device key): read it as the next page would.
        csrf = csrf_from(phone.get("/", environ_base=PHONE).get_data(as_text=True))
    before = snapshot(app)
    refused = phone.post(link, data={"csrf": csrf, "who": "watch"}, environ_base=PHONE)
    assert refused.status_code == 429
    assert snapshot(app) == before
    # It says when to come back (Retry-After), as the other limits do.
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert phone.get(link, environ_base=PHONE).headers["Retry-After"] == refused.headers["Retry-After"]
    # Another phone still joins.
    other = app.test_client()
    token = csrf_from(other.get(link, environ_base=OTHER_PHONE).get_data(as_text=True))
    assert other.post(link, data={"csrf": token, "who": "player:Bob"}, environ_base=OTHER_PHONE).status_code == 303


def test_rematches_count_towards_the_table_limit(tmp_path: Path) -> None:
    app = make_app(tmp_path, TABLES_PER_MINUTE=2)
    host = app.test_client()
    host.environ_base.update(PHONE)
    code = start_table_by_form(host, ["Ann", "Bob"])  # 1 of 2
    finish_game(app, code)
    csrf = csrf_from(host.get(f"/t/{code}").get_data(as_text=True))
    first = host.post(f"/t/{code}/rematch", data={"csrf": csrf}, headers={"HX-Request": "true"})
    assert "HX-Redirect" in first.headers  # 2 of 2
    rematch = first.headers["HX-Redirect"].rsplit("/", 1)[-1]
    # Tapping Rematch again lands on the same table: it makes nothing, so it costs nothing.
    again = host.post(f"/t/{code}/rematch", data={"csrf": csrf}, headers={"HX-Request": "true"})
    assert again.headers.get("HX-Redirect") == first.headers["HX-Redirect"]
    finish_game(app, rematch)
    before = snapshot(app)
    refused = host.post(f"/t/{rematch}/rematch", data={"csrf": csrf}, headers={"HX-Request": "true"})
    assert refused.status_code == 429
    assert "wait a minute" in refused.get_data(as_text=True)
    assert snapshot(app) == before
    # The API's rematch shares the limit (a table made from another address, rematched from this one).
    made = app.test_client().post("/api/v1/tables", json={"players": ["Cy", "Dee"]}).get_json()
    finish_game(app, made["code"])
    before = snapshot(app)
    response = app.test_client().post(
        f"/api/v1/tables/{made['code']}/rematch",
        headers={"Authorization": f"Bearer {made['token']}"},
        environ_base=PHONE,
    )
    assert response.status_code == 429
    assert response.get_json()["error"]["code"] == "too_many"
    assert snapshot(app) == before


FLOODER = {"REMOTE_ADDR": "203.0.113.9"}
ASKED = "You asked to be"


def ask_from(app: Flask, code: str, player: str, environ: dict[str, str], client: FlaskClient | None = None) -> str:
    """A browser (a new one, with no cookie, unless `client`) opens the table by its code and asks to be `player`;
    return the page it is sent back to."""
    client = client or app.test_client()
    csrf = csrf_from(client.get(f"/t/{code}", environ_base=environ).get_data(as_text=True))
    response = client.post(f"/t/{code}/ask", data={"csrf": csrf, "player": player}, environ_base=environ)
    assert response.status_code == 303
    return client.get(f"/t/{code}", environ_base=environ).get_data(as_text=True)


def waiting(app: Flask, code: str) -> list[str]:
    return [request.player for request in app.extensions["referee"].join_requests(code)]


@pytest.mark.parametrize("kept", ["in memory", "in the database"])
def test_one_address_cannot_fill_the_hosts_list_and_a_real_phone_still_asks(app: Flask, kept: str) -> None:
    """A script with a new cookie for every ask used to fill all twelve places, and refill them as soon as the host
    refused them, while a real phone was told the host had too many requests."""
    now = [1000.0]
    window = 30 * 60.0
    if kept == "in memory":
        app.extensions["referee.ask_limit"] = RateLimiter(2, window, clock=lambda: now[0])
    else:  # as processes sharing the database keep it
        store = app.extensions["referee"].store
        app.extensions["referee.ask_limit"] = SharedRateLimiter(store, "asks", 2, window, clock=lambda: now[0])
    code = start_table_by_form(app.test_client(), ["Ann", "Bob", "Cy"])
    pages = [ask_from(app, code, "Ann", FLOODER) for _ in range(12)]
    assert all(ASKED in page for page in pages[:2])
    refusal = (
        "2 phones on this connection have already asked to play at this table. Scan the QR code on the host&#39;s "
        "phone to join, or ask again in 30 minutes."
    )
    assert all(refusal in page and ASKED not in page for page in pages[2:])
    assert waiting(app, code) == ["Ann", "Ann"]
    # A real phone elsewhere still asks, and the host sees it.
    assert ASKED in ask_from(app, code, "Bob", OTHER_PHONE)
    assert waiting(app, code) == ["Ann", "Ann", "Bob"]
    # The host refuses the script's two: they do not come back while the first asks are within the half hour.
    referee = app.extensions["referee"]
    for request in referee.join_requests(code)[:2]:
        referee.answer_request(code, request.id, allow=False, actor=Operator())
    now[0] += window - 60
    assert refusal.replace("30 minutes", "a minute") in ask_from(app, code, "Ann", FLOODER)
    assert waiting(app, code) == ["Bob"]
    if kept == "in the database":  # another limiter's sweep (a one-minute window) keeps this one's events
        store.forget_rate_events("joins", now[0] + 3600)
        assert ASKED not in ask_from(app, code, "Ann", FLOODER)
    now[0] += 61  # the half hour since the first asks has passed
    assert ASKED in ask_from(app, code, "Ann", FLOODER)
    assert waiting(app, code) == ["Bob", "Ann"]


def test_a_double_tap_and_a_refused_ask_take_none_of_the_addresses_share(app: Flask) -> None:
    code = start_table_by_form(app.test_client(), ["Ann", "Bob", "Cy"])
    phone = app.test_client()
    assert ASKED in ask_from(app, code, "Ann", PHONE, phone)
    assert ASKED in ask_from(app, code, "Ann", PHONE, phone)  # the same ask again: the same request
    assert "Pick one of the players." in ask_from(app, code, "Zed", PHONE)  # refused: no request made
    # So a second phone in the same home still asks.
    assert ASKED in ask_from(app, code, "Bob", PHONE)
    assert waiting(app, code) == ["Ann", "Bob"]


def test_behind_a_local_proxy_each_phone_has_its_own_share_of_asks(app: Flask) -> None:
    code = start_table_by_form(app.test_client(), ["Ann", "Bob", "Cy"])

    def through_proxy(phone: str) -> dict[str, str]:
        return {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": phone}

    for _ in range(3):
        ask_from(app, code, "Ann", through_proxy("198.51.100.7"))
    assert ASKED in ask_from(app, code, "Bob", through_proxy("198.51.100.8"))
    assert waiting(app, code) == ["Ann", "Ann", "Bob"]
