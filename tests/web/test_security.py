"""Headers each kind of response carries, the session cookie, and the request size limit."""

from __future__ import annotations

import html
import time

import pytest
from conftest import Api
from flask.testing import FlaskClient

from .conftest import Phone
from .test_join import host_join_link


@pytest.mark.parametrize("path", ["/", "/rules", "/api/v1/openapi.json", "/t/NOSUCH", "/static/no-such-file.css"])
def test_security_headers(client: FlaskClient, path: str) -> None:
    with client.get(path) as response:
        policy = response.headers["Content-Security-Policy"]
        directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
        assert directives["script-src"] == ["'self'"]
        assert directives["frame-ancestors"] == ["'none'"]
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] in ("no-referrer", "same-origin", "strict-origin")


def test_a_stylesheet_carries_nosniff_and_its_cache_headers_not_the_page_policy(client: FlaskClient) -> None:
    """The page's policy, framing and referrer rules guard the page that loads a file, never the file (a script
    runs under its page's policy); on each of the five files of a phone's first load they would cost 310 bytes.
    What a file needs is to be taken for the type it says it is, and kept for a year at its versioned URL."""
    page = client.get("/").get_data(as_text=True)
    stylesheet = html.unescape(page.split('rel="stylesheet" href="', 1)[1].split('"', 1)[0])
    with client.get(stylesheet) as response:
        assert response.status_code == 200
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        for page_only in ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy"):
            assert page_only not in response.headers


def test_security_headers_on_the_table_page_and_api(api: Api, client: FlaskClient) -> None:
    api.create(["Ann", "Bob"])
    for response in (
        client.get(f"/t/{api.code}"),
        client.get(f"/api/v1/tables/{api.code}"),
        client.post(f"/api/v1/tables/{api.code}/actions", json={"type": "undo"}),
    ):
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_only_the_front_page_and_the_rules_may_be_listed_by_search_engines(phone: Phone) -> None:
    """A join link pasted somewhere public must not become a search result, nor a table's pages."""
    code = phone.start(["Ann", "Bob"])
    listed = ["/", "/rules", "/rules/bomb"]
    private = [f"/t/{code}", f"/t/{code}/display", f"/t/{code}/log", host_join_link(phone), "/rules/search?q=bomb"]
    private += [f"/api/v1/tables/{code}", "/t/NOSUCH"]
    for path in listed:
        assert "X-Robots-Tag" not in phone.client.get(path).headers, path
    for path in private:
        assert phone.client.get(path).headers["X-Robots-Tag"] == "noindex, nofollow", path


def test_session_cookie_is_httponly_and_samesite(phone: Phone) -> None:
    response = phone.open("/")
    cookies = [value for name, value in response.headers.items() if name.lower() == "set-cookie"]
    session = next(cookie for cookie in cookies if cookie.startswith("referee="))
    attributes = {part.strip().split("=")[0].lower(): part.strip() for part in session.split(";")}
    assert "httponly" in attributes
    assert attributes["samesite"].lower() in ("samesite=lax", "samesite=strict")


def test_device_cookie_after_joining_is_httponly(api: Api, phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    phone.open("/j/" + body["join_url"].split("/j/", 1)[1])
    response = phone.press("Bob")
    cookies = [value for name, value in response.headers.items() if name.lower() == "set-cookie"]
    assert cookies and all("HttpOnly" in cookie for cookie in cookies)


def test_pages_load_nothing_from_outside(phone: Phone) -> None:
    phone.open("/")
    for node in phone.page.iter():
        for attribute in ("src", "href"):
            value = node.get(attribute) or ""
            assert not value.startswith(("http:", "https:", "//")), value
    scripts = [node["src"] for node in phone.page.find_all("script")]
    assert any("htmx-2.0." in src for src in scripts)
    assert all(node.get("src") for node in phone.page.find_all("script"))  # no inline scripts


def test_a_body_over_64_kb_is_413(api: Api, phone: Phone) -> None:
    big = "x" * (65 * 1024)
    response = phone.client.post("/api/v1/tables", data=big, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"
    api.create(["Ann", "Bob"])
    response = api.client.post(
        f"/api/v1/tables/{api.code}/actions",
        data=big,
        content_type="application/json",
        headers={"Authorization": f"Bearer {api.token}"},
    )
    assert response.status_code == 413
    assert api.state()["version"] == 0
    phone.open("/")
    response = phone.client.post("/", data={"name": [big], "csrf": phone.csrf, "op": "start"})
    assert response.status_code == 413


def test_api_rate_limits_new_tables_per_address(client: FlaskClient) -> None:
    limit = client.application.config["TABLES_PER_MINUTE"]
    statuses = [client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}).status_code for _ in range(limit + 1)]
    assert statuses[:limit] == [201] * limit
    assert statuses[-1] == 429
    other = client.post(
        "/api/v1/tables", json={"players": ["Ann", "Bob"]}, environ_base={"REMOTE_ADDR": "192.168.1.50"}
    )
    assert other.status_code == 201


def _is_host(phone: Phone, code: str) -> bool:
    """True if the table page lets this phone enter cards (it knows the phone as the host's)."""
    phone.open(f"/t/{code}")
    return phone.page.find("form", id="pad-form") is not None


def test_a_changed_session_cookie_is_refused_even_after_the_real_one_was_accepted(phone: Phone) -> None:
    code = phone.start(["Ann", "Bob"])
    assert _is_host(phone, code)  # the real cookie has been checked, and the server remembers it
    cookie = phone.client.get_cookie("referee")
    assert cookie is not None
    payload, _, signature = cookie.value.partition(".")
    changed = payload[:-1] + ("A" if payload[-1] != "A" else "B")
    phone.client.set_cookie("referee", f"{changed}.{signature}")
    assert not _is_host(phone, code)
    phone.client.set_cookie("referee", cookie.value)
    assert _is_host(phone, code)


def test_a_remembered_session_cookie_still_expires(phone: Phone, monkeypatch: pytest.MonkeyPatch) -> None:
    code = phone.start(["Ann", "Bob"])
    assert _is_host(phone, code)
    lifetime = phone.client.application.permanent_session_lifetime.total_seconds()
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + lifetime + 60)
    assert not _is_host(phone, code)
