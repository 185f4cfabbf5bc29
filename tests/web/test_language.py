"""Each phone in its own language: the browser's choice, a pick that one phone remembers, the display's own."""

from __future__ import annotations

import re

from conftest import Api
from flask import Flask


def _lang(html: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', html)
    assert found is not None
    return found.group(1)


def test_a_phone_speaks_its_browsers_language_until_it_picks_one(app: Flask) -> None:
    phone = app.test_client()
    assert _lang(phone.get("/", headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.4"}).get_data(as_text=True)) == "de"
    assert _lang(phone.get("/", headers={"Accept-Language": "fr-CH, fr;q=0.9"}).get_data(as_text=True)) == "fr"
    assert _lang(phone.get("/", headers={"Accept-Language": "es, it;q=0.8"}).get_data(as_text=True)) == "en"
    picked = phone.get("/language/fr?next=/rules", headers={"Accept-Language": "de"})
    assert picked.status_code == 303 and picked.headers["Location"] == "/rules"
    page = phone.get("/rules", headers={"Accept-Language": "de"})
    assert _lang(page.get_data(as_text=True)) == "fr"
    assert {"Accept-Language", "Cookie"} <= set(page.vary)
    # Another phone at the same moment keeps its own language.
    other = app.test_client()
    assert _lang(other.get("/rules", headers={"Accept-Language": "de"}).get_data(as_text=True)) == "de"


def test_the_switch_names_each_language_in_itself_and_marks_the_current_one(app: Flask) -> None:
    html = app.test_client().get("/?x=1", headers={"Accept-Language": "de"}).get_data(as_text=True)
    links = re.findall(
        r'<a href="/language/(\w+)\?next=([^"]+)" lang="\w+" hreflang="\w+"( aria-current="true")?>(\w+)', html
    )
    assert [(code, name, bool(current)) for code, _, current, name in links] == [
        ("en", "English", False),
        ("fr", "Français", False),
        ("de", "Deutsch", True),
    ]
    assert all(back in ("/%3Fx%3D1", "/?x%3D1") for _, back, _, _ in links)
    assert 'aria-label="Sprache"' in html


def test_the_table_display_keeps_a_language_of_its_own(app: Flask, api: Api) -> None:
    api.create(["Ann", "Bob"])
    screen = app.test_client()
    screen.get(f"/language/de?for=display&next=/t/{api.code}/display")
    assert _lang(screen.get(f"/t/{api.code}/display").get_data(as_text=True)) == "de"
    assert _lang(screen.get(f"/t/{api.code}", headers={"Accept-Language": "en"}).get_data(as_text=True)) == "en"


def test_the_switch_goes_back_only_to_a_page_of_this_server(app: Flask) -> None:
    client = app.test_client()
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", ""):
        response = client.get("/language/fr", query_string={"next": target})
        assert response.status_code == 303 and response.headers["Location"] == "/", target
    unknown = client.get("/language/xx?next=/rules")
    assert unknown.status_code == 303 and "lang=" not in unknown.headers.get("Set-Cookie", "")


def test_static_files_do_not_vary_by_language(app: Flask) -> None:
    response = app.test_client().get("/static/app.css")
    assert "Accept-Language" not in response.vary
