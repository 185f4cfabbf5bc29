"""Security: who may change a table, unguessable codes and secrets kept out of logs, CSRF, cookies, headers.

docs/security.md maps each point of the threat model (a stranger on the same Wi-Fi, a mischievous
player, a leaked link) to the tests here.
"""

from __future__ import annotations

import collections
import html
import logging
import re
import string
from pathlib import Path
from typing import Any

import pytest
from conftest import finish_game
from flask import Flask
from flask.testing import FlaskClient

from referee.service import CODE_ALPHABET, CODE_LENGTH, Operator
from tools.harness import Browser, Client, LiveServer

from .helpers import csrf_from, join_link, make_app, snapshot, start_table_by_form

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """An app on a temporary database with production error handling, limits out of the way."""
    return make_app(tmp_path, TABLES_PER_MINUTE=10**6, JOINS_PER_MINUTE=10**6)


def joined_phone(app: Flask, host: FlaskClient, code: str, who: str) -> FlaskClient:
    """A second phone that opened the join link and picked `who` (player:NAME, score or watch)."""
    phone = app.test_client()
    link = join_link(host, code)
    csrf = csrf_from(phone.get(link).get_data(as_text=True))
    assert phone.post(link, data={"csrf": csrf, "who": who}).status_code == 303
    return phone


def tap(client: FlaskClient, code: str, card: str = "1") -> int:
    """Tap a card on the table page as htmx would (the phone's own CSRF token and the version it shows)."""
    page = client.get(f"/t/{code}").get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', page)
    player = re.search(r'name="player" value="([^"]+)"', page)
    csrf = csrf_from(page)
    form = {
        "csrf": csrf,
        "kind": "play",
        "player": player.group(1) if player else "Ann",
        "card": card,
        "version": version.group(1) if version else "0",
    }
    return client.post(f"/t/{code}/act", data=form, headers={"HX-Request": "true"}).status_code


# --- only the join secret or the API token changes a table -------------------------------------------------


def test_api_actions_need_this_tables_token(app: Flask) -> None:
    client = app.test_client()
    mine = client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}).get_json()
    other = client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}).get_json()
    before = snapshot(app)
    action = {"type": "play", "player": "Ann", "card": "1"}
    path = f"/api/v1/tables/{mine['code']}/actions"
    assert client.post(path, json=action).status_code == 401
    assert client.post(path, json=action, headers={"Authorization": "Bearer "}).status_code == 401
    assert client.post(path, json=action, headers={"Authorization": f"Basic {mine['token']}"}).status_code == 401
    assert client.post(path, json=action, headers={"Authorization": "Bearer guess"}).status_code == 403
    assert client.post(path, json=action, headers={"Authorization": f"Bearer {other['token']}"}).status_code == 403
    assert client.post(f"{path}?token={mine['token']}", json=action).status_code == 401
    assert snapshot(app) == before
    assert client.post(path, json=action, headers={"Authorization": f"Bearer {mine['token']}"}).status_code == 200


def test_a_phone_without_the_join_secret_only_watches(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob", "Cy"])
    stranger = app.test_client()  # typed the table code (or guessed it)
    page = stranger.get(f"/t/{code}").get_data(as_text=True)
    assert 'name="card"' not in page  # no card pad for a watcher
    assert "/j/" not in page  # and no join link to copy
    assert stranger.get(f"/t/{code}/qr.svg").status_code == 403
    before = snapshot(app)
    assert tap(stranger, code) == 403
    # A plain form post (no htmx) is refused too; the page only says why.
    csrf = csrf_from(page)
    stranger.post(f"/t/{code}/act", data={"csrf": csrf, "kind": "undo"})
    stranger.post(f"/t/{code}/rematch", data={"csrf": csrf})
    stranger.post(f"/t/{code}/entry", data={"csrf": csrf, "entry": "joined"})
    stranger.post(f"/t/{code}/devices/1/revoke", data={"csrf": csrf})
    assert snapshot(app) == before
    # It may ask to be a player, but cannot answer its own request: only a host phone (or the token) can.
    assert stranger.post(f"/t/{code}/ask", data={"csrf": csrf, "player": "Cy"}).status_code == 303
    asked = app.extensions["referee"].join_requests(code)
    assert [r.player for r in asked] == ["Cy"]
    csrf = csrf_from(stranger.get(f"/t/{code}").get_data(as_text=True))  # asking gave it a new cookie
    assert stranger.post(f"/t/{code}/requests/{asked[0].id}/allow", data={"csrf": csrf}).status_code == 403
    assert tap(stranger, code) == 403
    assert [r.status for r in app.extensions["referee"].join_requests(code)] == ["pending"]


def test_a_wrong_or_foreign_join_secret_gets_a_clear_refusal(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob"])
    other_host = app.test_client()
    other_code = start_table_by_form(other_host, ["Cy", "Dee"])
    foreign_secret = join_link(other_host, other_code).rsplit("/", 1)[-1]
    phone = app.test_client()
    before = snapshot(app)
    for secret in ("guess", foreign_secret, join_link(host, code).rsplit("/", 1)[-1][:-1]):
        page = phone.get(f"/j/{code}/{secret}")
        assert page.status_code == 403
        assert "doesn't work" in html.unescape(page.get_data(as_text=True))
        csrf = csrf_from(phone.get("/").get_data(as_text=True))
        assert phone.post(f"/j/{code}/{secret}", data={"csrf": csrf, "who": "player:Bob"}).status_code == 403
    assert snapshot(app) == before
    assert tap(phone, code) == 403


def test_joined_players_enter_cards_watchers_and_revoked_phones_do_not(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob", "Cy"])
    bob = joined_phone(app, host, code, "player:Bob")
    watcher = joined_phone(app, host, code, "watch")
    assert tap(bob, code) == 200
    before = snapshot(app)
    assert tap(watcher, code) == 403
    assert snapshot(app) == before
    # The host removes Bob's phone: it can no longer enter anything.
    bob_device = next(row for row in snapshot(app)["devices"] if row[4] == "Bob")
    csrf = csrf_from(host.get(f"/t/{code}").get_data(as_text=True))
    assert host.post(f"/t/{code}/devices/{bob_device[0]}/revoke", data={"csrf": csrf}).status_code == 303
    before = snapshot(app)
    assert tap(bob, code) == 403
    assert snapshot(app) == before
    # "Only the host" mode: joined players watch until the host allows them again.
    carol = joined_phone(app, host, code, "player:Cy")
    assert host.post(f"/t/{code}/entry", data={"csrf": csrf, "entry": "host"}).status_code == 303
    before = snapshot(app)
    assert tap(carol, code) == 403
    assert snapshot(app) == before
    assert tap(host, code) == 200


def test_only_the_host_manages_phones(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob", "Cy"])
    bob = joined_phone(app, host, code, "player:Bob")
    joined_phone(app, host, code, "player:Cy")
    cy_device = next(row for row in snapshot(app)["devices"] if row[4] == "Cy")
    csrf = csrf_from(bob.get(f"/t/{code}").get_data(as_text=True))
    before = snapshot(app)
    assert bob.post(f"/t/{code}/devices/{cy_device[0]}/revoke", data={"csrf": csrf}).status_code == 403
    assert bob.post(f"/t/{code}/entry", data={"csrf": csrf, "entry": "host"}).status_code == 403
    # Nor say it is the host's player: refused in words (on the table it goes back to), nothing changes.
    assert bob.post(f"/t/{code}/me", data={"csrf": csrf, "who": "player:Ann"}).status_code == 303
    assert "Only the phone that started this table" in bob.get(f"/t/{code}").get_data(as_text=True)
    assert snapshot(app) == before


# --- codes and secrets -----------------------------------------------------------------------------------


def test_codes_and_secrets_are_unguessable(app: Flask) -> None:
    client = app.test_client()
    created = [client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}).get_json() for _ in range(300)]
    codes = [body["code"] for body in created]
    tokens = [body["token"] for body in created]
    secrets = [body["join_url"].rstrip("/").rsplit("/", 1)[-1] for body in created]
    assert len(set(codes)) == len(set(tokens)) == len(set(secrets)) == 300
    # Codes: 6 characters from 31 that cannot be misread (no 0/O, 1/I/L): 31^6 ≈ 8.9e8, only for watching.
    assert CODE_LENGTH == 6 and len(CODE_ALPHABET) == 31
    assert not set("01OIL") & set(CODE_ALPHABET)
    assert all(len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) for code in codes)
    # Every symbol turns up about equally often (a loose check against a broken generator).
    counts = collections.Counter("".join(codes))
    expected = 300 * CODE_LENGTH / len(CODE_ALPHABET)
    assert len(counts) == len(CODE_ALPHABET)
    assert all(expected / 3 < count < expected * 3 for count in counts.values()), counts
    urlsafe = set(string.ascii_letters + string.digits + "-_")
    # Join secrets: 16 random bytes (128 bits); API tokens: 24 (192 bits); base64url text.
    assert all(len(secret) >= 22 and set(secret) <= urlsafe for secret in secrets)
    assert all(len(token) >= 32 and set(token) <= urlsafe for token in tokens)
    assert not set(secrets) & set(tokens)
    # Tokens are kept only as hashes: a stolen database file does not hold them.
    dump = repr(snapshot(app))
    assert not any(token in dump for token in tokens)


def test_device_keys_are_random_and_stored_hashed(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob"])
    phones = [joined_phone(app, host, code, "watch") for _ in range(5)]
    cookies = [phone.get_cookie("referee") for phone in [host, *phones]]
    assert all(cookie is not None for cookie in cookies)
    values = {cookie.value for cookie in cookies if cookie is not None}
    assert len(values) == 6
    dump = repr(snapshot(app))
    with app.test_request_context():
        serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        keys = [serializer.loads(value)["device"] for value in values]
    assert len(set(keys)) == 6 and all(len(key) >= 32 for key in keys)
    assert not any(key in dump for key in keys)


def test_secrets_never_reach_the_server_output(live_server: LiveServer) -> None:
    seen: list[str] = []
    with Client(live_server.port) as client:
        created = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob", "Cy"]}).json()
        seen += [created["code"], created["token"], created["join_url"].rsplit("/", 1)[-1]]
        path = f"/api/v1/tables/{created['code']}/actions"
        assert client.json("POST", path, {"type": "play", "player": "Ann", "card": "3"}, created["token"]).status == 200
        assert client.json("POST", path, {"type": "play", "player": "Zed", "card": "3"}, created["token"]).status == 400
        assert client.json("POST", path, {"type": "undo"}, "wrong-token").status == 403
        malformed = {"Authorization": f"Bearer {created['token']}", "Content-Type": "application/json"}
        assert client.request("POST", path, b"{not json", malformed).status == 400
        assert client.request("GET", f"/j/{created['code']}/wrong-secret").status == 403
        assert client.request("GET", "/t/NOSUCH").status == 404
    host = Browser(live_server.port)
    csrf = csrf_from(host.request("GET", "/").text())
    started = host.request("POST", "/", [("csrf", csrf), ("name", "Dee"), ("name", "Eve"), ("op", "start")])
    code = started.headers["location"].removesuffix("/lobby").rsplit("/", 1)[-1]
    page = host.request("GET", f"/t/{code}").text()
    link = re.search(r"(/j/[A-Z0-9]+/[A-Za-z0-9_-]+)", page)
    assert link is not None
    phone = Browser(live_server.port, source="127.0.0.2")
    token = csrf_from(phone.request("GET", link.group(1)).text())
    assert phone.request("POST", link.group(1), [("csrf", token), ("who", "player:Eve")]).status == 303
    seen += [code, link.group(1).rsplit("/", 1)[-1], *host.cookies.values(), *phone.cookies.values()]
    host.close()
    phone.close()
    live_server.stop()
    output = live_server.output()
    assert output  # the server did print its address and QR code
    for secret in seen:
        assert secret not in output


def test_error_logs_redact_codes_secrets_and_tokens(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob"])
    link = join_link(host, code)
    referee = app.extensions["referee"]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    referee.check_join_secret = broken  # an unexpected error on the join page: Flask logs it with its URL
    with caplog.at_level(logging.ERROR):
        response = app.test_client().get(link, headers={"Authorization": "Bearer abcdef123456"})
    assert response.status_code == 500
    assert "Exception on /j/<code>/<secret> [GET]" in caplog.text
    secret = link.rsplit("/", 1)[-1]
    assert secret not in caplog.text and code not in caplog.text and "abcdef123456" not in caplog.text


# --- CSRF ----------------------------------------------------------------------------------------------


def form_posts(app: Flask) -> set[str]:
    """Every endpoint that takes a browser form post (the API uses tokens, not cookies)."""
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or set()) and not rule.endpoint.startswith(("api.", "static"))
    }


def test_every_form_post_needs_the_csrf_token(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob", "Cy"])
    finisher = app.test_client()
    finished = start_table_by_form(finisher, ["Ann", "Bob"])
    finish_game(app, finished)
    bob = joined_phone(app, host, code, "player:Bob")
    # A watcher the host removed: the one to bring back (removing it replaces the join link).
    joined_phone(app, host, code, "watch")
    removed_device = max(row[0] for row in snapshot(app)["devices"])
    app.extensions["referee"].revoke(code, removed_device, actor=Operator())
    link = join_link(host, code)
    newcomer = app.test_client()
    newcomer.get(link)  # has a session, so a token exists; it just does not send it
    bob_device = next(row for row in snapshot(app)["devices"] if row[4] == "Bob")[0]
    # Phones that typed the code: one will ask, one has a request to withdraw, one a request for the host to allow.
    asker, withdrawer, waiting = app.test_client(), app.test_client(), app.test_client()
    asker.environ_base["REMOTE_ADDR"] = "192.168.1.77"  # a phone of its own: one address makes two requests
    asker.get(f"/t/{code}")  # has a session, so a token exists; it just does not send it
    for phone in (withdrawer, waiting):
        csrf = csrf_from(phone.get(f"/t/{code}").get_data(as_text=True))
        assert phone.post(f"/t/{code}/ask", data={"csrf": csrf, "player": "Ann"}).status_code == 303
    request_id = app.extensions["referee"].join_requests(code)[-1].id
    page = host.get(f"/t/{code}").get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', page)
    assert version is not None
    posts: dict[str, tuple[FlaskClient, str, dict[str, Any]]] = {
        "home.start": (host, "/", {"name": ["Ann", "Bob"], "op": "start"}),
        "table.act": (host, f"/t/{code}/act", {"kind": "play", "player": "Ann", "card": "1", "version": "0"}),
        "rematch.start": (finisher, f"/t/{finished}/rematch", {}),
        "joining.answer": (newcomer, link, {"who": "player:Cy"}),
        "joinpanel.revoke": (host, f"/t/{code}/devices/{bob_device}/revoke", {}),
        "joinpanel.restore": (host, f"/t/{code}/devices/{removed_device}/restore", {}),
        "joinpanel.entry": (host, f"/t/{code}/entry", {"entry": "host"}),
        "joinpanel.new_link": (host, f"/t/{code}/join-link", {}),
        "asking.ask": (asker, f"/t/{code}/ask", {"player": "Ann"}),
        "asking.cancel": (withdrawer, f"/t/{code}/ask/cancel", {}),
        "asking.answer": (host, f"/t/{code}/requests/{request_id}/allow", {}),
        "whoami.choose": (host, f"/t/{code}/me", {"who": "score"}),
    }
    # A new form route must be added here: this test is the list of what CSRF protects.
    assert form_posts(app) == set(posts)
    for endpoint, (client, path, form) in posts.items():
        for forged in ({}, {"csrf": "forged"}, {"csrf": csrf_from(bob.get(f"/t/{code}").get_data(as_text=True))}):
            before = snapshot(app)
            response = client.post(path, data={**form, **forged})
            # A plain post is sent back to its page with the reason (303); htmx and others get 400/403.
            assert response.status_code in (303, 400, 403), (endpoint, forged, response.status_code)
            assert snapshot(app) == before, (endpoint, forged)
            # htmx sends the token in a header: a wrong header is refused the same way.
            response = client.post(path, data=form, headers={"HX-Request": "true", "X-CSRF-Token": "forged"})
            assert snapshot(app) == before, (endpoint, "header")
    # The same posts with the right token do change the table: the refusals above were about CSRF.
    # (Starting a table last: it makes the host's phone the host of the new table only.)
    for endpoint, (client, path, form) in sorted(posts.items(), key=lambda item: item[0] == "home.start"):
        before = snapshot(app)
        token = csrf_from(client.get("/").get_data(as_text=True))
        response = client.post(path, data={**form, "csrf": token})
        assert response.status_code in (200, 303), (endpoint, response.status_code)
        assert snapshot(app) != before, endpoint


# --- cookies and headers ------------------------------------------------------------------------------------


def test_cookies_are_httponly_and_samesite(app: Flask) -> None:
    host = app.test_client()
    cookies: list[str] = []
    cookies += host.get("/").headers.getlist("Set-Cookie")
    csrf = csrf_from(host.get("/").get_data(as_text=True))
    started = host.post("/", data={"csrf": csrf, "name": ["Ann", "Bob"], "op": "start"})
    cookies += started.headers.getlist("Set-Cookie")
    code = str(started.headers["Location"]).removesuffix("/lobby").rsplit("/", 1)[-1]
    phone = app.test_client()
    link = join_link(host, code)
    joining = phone.get(link)
    cookies += joining.headers.getlist("Set-Cookie")
    token = csrf_from(joining.get_data(as_text=True))
    cookies += phone.post(link, data={"csrf": token, "who": "player:Bob"}).headers.getlist("Set-Cookie")
    assert len(cookies) >= 3
    for cookie in cookies:
        attributes = {part.strip().split("=")[0].lower(): part for part in cookie.split(";")}
        assert "httponly" in attributes, cookie
        assert attributes.get("samesite", "").split("=")[-1].strip() in ("Lax", "Strict"), cookie
        assert attributes.get("path", "").endswith("=/"), cookie


def assert_security_headers(headers: Any, what: str) -> None:
    policy = headers.get("Content-Security-Policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives.get("script-src") == ["'self'"], (what, policy)
    assert directives.get("frame-ancestors") == ["'none'"], (what, policy)
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, (what, policy)
    assert directives.get("object-src") == ["'none'"], (what, policy)
    assert headers.get("X-Content-Type-Options") == "nosniff", what
    assert headers.get("Referrer-Policy") == "no-referrer", what
    assert headers.get("X-Frame-Options") == "DENY", what


# The headers that guard a page and mean nothing on a file the page loads (referee/web/security.py, FILE_HEADERS).
PAGE_ONLY = ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy")


def assert_file_headers(headers: Any, what: str) -> None:
    """A stylesheet, script, icon or manifest: its type believed as declared, and nothing of a page's."""
    assert headers.get("X-Content-Type-Options") == "nosniff", what
    assert not [name for name in PAGE_ONLY if name in headers], what


def test_security_headers_on_pages_api_static_and_errors(app: Flask) -> None:
    """Every page, partial, API answer, error and the live stream carries all four headers; the files a page loads
    carry nosniff and their cache headers. The policy, framing and referrer rules act on the page that loads a file
    (its scripts run under the page's policy), so on a file they would only add 310 bytes to each of the five files
    of a phone's first load (docs/security.md)."""
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob"])
    api = host.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}).get_json()
    link = join_link(host, code)
    urls = [
        "/",
        f"/t/{code}",
        f"/t/{code}/board",
        f"/t/{code}/qr.svg",
        link,
        f"/j/{code}/wrong",
        "/rules",
        "/rules/search?q=bomb",
        "/watch?code=NOPE",
        "/t/NOSUCH",
        "/no/such/page",
        "/healthz",
        "/api/v1/openapi.json",
        f"/api/v1/tables/{api['code']}",
        "/api/v1/tables/NOSUCH",
        "/api/v1/rules?q=skip",
        "/static/no-such-file.css",  # a 404 page, wherever it is asked for
        "/sw.js",  # a service worker runs under the policy sent with its own script
    ]
    for url in urls:
        for encoding in ("identity", "gzip"):
            response = host.get(url, headers={"Accept-Encoding": encoding})
            assert response.status_code < 500, url
            assert_security_headers(response.headers, url)
            response.close()
    page = host.get(f"/t/{code}").get_data(as_text=True)
    files = [html.unescape(url) for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', page)]
    assert len(files) >= 5, files  # the stylesheet, the icons and the scripts
    for url in [*files, "/static/app.css", "/static/vendor/htmx-2.0.11.min.js", "/manifest.webmanifest"]:
        for encoding in ("identity", "gzip"):
            response = host.get(url, headers={"Accept-Encoding": encoding})
            assert response.status_code == 200, url
            assert_file_headers(response.headers, url)
            response.close()
    assert_security_headers(
        host.post("/api/v1/tables", data=b"nope", content_type="application/json").headers, "API 400"
    )
    assert_security_headers(host.put("/api/v1/tables").headers, "API 405")
    stream = host.get(f"/t/{code}/events")
    assert_security_headers(stream.headers, "live stream")
    stream.close()


def test_security_headers_from_the_real_server(live_server: LiveServer) -> None:
    with Client(live_server.port) as client:
        for path in ("/", "/api/v1/openapi.json", "/t/X"):
            reply = client.request("GET", path, headers={"Accept-Encoding": "gzip"})
            assert_security_headers(
                {name.title(): value for name, value in reply.headers.items()} | _exact(reply.headers), path
            )
        for path in ("/static/app.js", "/static/vendor/htmx-2.0.11.min.js"):
            reply = client.request("GET", path, headers={"Accept-Encoding": "gzip"})
            assert_file_headers(_exact(reply.headers), path)
            assert reply.headers.get("content-encoding") == "gzip"
            # The browser's next load revalidates and gets a 304, headers and all.
            again = client.request(
                "GET", path, headers={"Accept-Encoding": "gzip", "If-None-Match": reply.headers["etag"]}
            )
            assert again.status == 304
            assert_file_headers(_exact(again.headers), path + " (304)")


def test_pages_that_carry_the_join_link_are_never_stored(live_server: LiveServer) -> None:
    """The join link is the table's key: no browser cache or proxy keeps a page that shows it."""
    host = Browser(live_server.port)
    csrf = csrf_from(host.request("GET", "/").text())
    started = host.request("POST", "/", [("csrf", csrf), ("name", "Dee"), ("name", "Eve"), ("op", "start")])
    lobby = started.headers["location"]
    code = lobby.removesuffix("/lobby").rsplit("/", 1)[-1]
    pages = {
        "lobby": host.request("GET", lobby),
        "table": host.request("GET", f"/t/{code}"),
        "board": host.request("GET", f"/t/{code}/board", htmx=True),
    }
    link = re.search(r"(/j/[A-Z0-9]+/[A-Za-z0-9_-]+)", pages["table"].text())
    assert link is not None
    phone = Browser(live_server.port, source="127.0.0.2")
    pages["join"] = phone.request("GET", link.group(1))
    host.close()
    phone.close()
    for name, page in pages.items():
        assert page.status == 200, name
        assert page.headers.get("cache-control") == "no-store", name


def _exact(headers: dict[str, str]) -> dict[str, str]:
    names = {
        "content-security-policy": "Content-Security-Policy",
        "x-content-type-options": "X-Content-Type-Options",
        "referrer-policy": "Referrer-Policy",
        "x-frame-options": "X-Frame-Options",
    }
    return {names[name]: value for name, value in headers.items() if name in names}


def test_no_inline_script_or_event_handlers_in_templates() -> None:
    # script-src 'self' without 'unsafe-inline' would block them anyway: make sure nothing relies on them.
    for template in sorted((ROOT / "templates").glob("*.html")):
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, (template.name, tag)
        assert not re.search(r"\son[a-z]+\s*=", text), template.name
        assert "javascript:" not in text.lower(), template.name


# --- removal keeps a phone out; a new key at each join (no session fixation) --------------------------------


def revoke(app: Flask, host: FlaskClient, code: str, player: str) -> None:
    """The host removes the phone that speaks for `player`, from the host's panel."""
    device = next(row for row in snapshot(app)["devices"] if row[4] == player)
    csrf = csrf_from(host.get(f"/t/{code}").get_data(as_text=True))
    assert host.post(f"/t/{code}/devices/{device[0]}/revoke", data={"csrf": csrf}).status_code == 303


def test_a_removed_phone_cannot_rejoin_from_the_old_link(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob", "Cy"])
    old_link = join_link(host, code)
    bob = joined_phone(app, host, code, "player:Bob")
    cy = joined_phone(app, host, code, "player:Cy")
    revoke(app, host, code, "Bob")
    assert tap(bob, code) == 403
    # Bob clears his cookies and opens the join link from his browser's history.
    fresh = app.test_client()
    before = snapshot(app)
    assert fresh.get(old_link).status_code == 403
    csrf = csrf_from(fresh.get("/").get_data(as_text=True))
    assert fresh.post(old_link, data={"csrf": csrf, "who": "player:Bob"}).status_code == 403
    assert tap(fresh, code) == 403
    assert snapshot(app) == before
    # The host's page shows the new link at once; phones still at the table stay in.
    new_link = join_link(host, code)
    assert new_link != old_link
    assert tap(cy, code) == 200


def session_cookie(client: FlaskClient) -> str:
    """The value of this browser's session cookie."""
    cookie = client.get_cookie("referee")
    assert cookie is not None
    return cookie.value


def test_joining_gives_the_phone_a_new_cookie_so_a_planted_one_is_worthless(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob", "Cy"])
    # The planter gets a cookie holding a device key (by starting a table of its own) ...
    planter = app.test_client()
    start_table_by_form(planter, ["Dee", "Eve"])
    planted = session_cookie(planter)
    # ... and plants it in the victim's browser (a sibling site, or a moment with the victim's phone).
    victim = app.test_client()
    victim.set_cookie("referee", planted)
    link = join_link(host, code)
    csrf = csrf_from(victim.get(link).get_data(as_text=True))
    assert victim.post(link, data={"csrf": csrf, "who": "player:Bob"}).status_code == 303
    assert session_cookie(victim) != planted
    before = snapshot(app)
    assert tap(planter, code) == 403  # the planted cookie does not act as Bob
    assert snapshot(app) == before
    assert tap(victim, code) == 200


def test_a_phone_keeps_its_place_at_other_tables_when_it_gets_a_new_key(app: Flask) -> None:
    phone = app.test_client()
    first = start_table_by_form(phone, ["Ann", "Bob"])
    other_host = app.test_client()
    other = start_table_by_form(other_host, ["Cy", "Dee"])
    link = join_link(other_host, other)
    before_join = session_cookie(phone)
    csrf = csrf_from(phone.get(link).get_data(as_text=True))
    assert phone.post(link, data={"csrf": csrf, "who": "player:Dee"}).status_code == 303
    after_join = session_cookie(phone)
    second = start_table_by_form(phone, ["Eve", "Fay"])
    assert len({before_join, after_join, session_cookie(phone)}) == 3
    # Still the host of the first table (it shows the join link), a player at the other, host of the new one.
    assert join_link(phone, first).startswith(f"/j/{first}/")
    assert join_link(phone, second).startswith(f"/j/{second}/")
    assert tap(phone, first) == 200
    assert tap(phone, other) == 200
    assert tap(phone, second) == 200


def test_opening_a_join_link_counts_towards_the_join_limit(tmp_path: Path) -> None:
    app = make_app(tmp_path, JOINS_PER_MINUTE=3)
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob"])
    link = join_link(host, code)
    guesser = app.test_client()
    # Wrong secrets and the right one alike: every attempt counts, a brake on guessing.
    statuses = [guesser.get(path).status_code for path in (f"/j/{code}/guess1", f"/j/{code}/guess2", link, link)]
    assert statuses == [403, 403, 200, 429]
    assert "wait a minute" in html.unescape(guesser.get(link).get_data(as_text=True))


@pytest.mark.sqlite
def test_a_database_others_can_read_gets_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    loose = tmp_path / "old.sqlite3"
    loose.touch(mode=0o644)
    loose.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="referee.store"):
        make_app(tmp_path, DATABASE_URL=f"sqlite:///{loose}")
    assert "can be read by other users of this machine: chmod 600 it" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="referee.store"):
        make_app(tmp_path / "new")
    assert (tmp_path / "new" / "referee.sqlite3").stat().st_mode & 0o077 == 0
    assert "chmod 600" not in caplog.text


def test_removing_a_made_up_phone_number_is_a_clear_404(app: Flask) -> None:
    host = app.test_client()
    code = start_table_by_form(host, ["Ann", "Bob"])
    csrf = csrf_from(host.get(f"/t/{code}").get_data(as_text=True))
    before = snapshot(app)
    for device_id in ("999", "9223372036854775808"):  # the second is beyond the database's integers
        response = host.post(f"/t/{code}/devices/{device_id}/revoke", data={"csrf": csrf})
        assert response.status_code == 404
        assert "not at this table" in html.unescape(response.get_data(as_text=True))
    assert snapshot(app) == before
