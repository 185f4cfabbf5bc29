"""The rules panel in the phone's language: a French or German phone reads the entries, the search answers, the
chips, the sources and the "Why?" links in its own words, while an English phone beside it reads English."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import rulebook

from .conftest import Phone, parse

FIXTURE_WORDS = Path(__file__).resolve().parents[1] / "fixtures" / "rulebook_words"
"""A few entries in French and German (the real files are referee/translations/<language>/rulebook.json)."""


@pytest.fixture(autouse=True)
def fixture_words() -> Iterator[None]:
    rulebook.read_translations_from(FIXTURE_WORDS)
    yield
    rulebook.read_translations_from(None)


def phone_in(app: Flask, language: str) -> Phone:
    """A phone whose browser asks for `language` on every request (Accept-Language)."""
    client: FlaskClient = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = {"fr": "fr-FR,fr;q=0.9", "de": "de-DE,de;q=0.9"}.get(language, "en")
    return Phone(client)


def test_a_french_phones_rules_page_shows_the_french_entries(app: Flask, phone: Phone) -> None:
    french = phone_in(app, "fr")
    assert french.open("/rules").status_code == 200
    bomb = french.page.by_id("bomb")
    assert bomb.find("h3").text() == "La Bombe"  # type: ignore[union-attr]
    assert "Pas de 0 : une vie perdue ; le total à 0." in bomb.text()
    assert "Source : règles de 1994" in bomb.text()
    headings = [node.text() for node in french.page.find_all("h2")]
    assert "La Bombe" in headings and "Les cartes joker" in headings
    # The phone beside it, in English, reads English.
    phone.open("/rules")
    assert phone.page.by_id("bomb").find("h3").text() == "Bomb"  # type: ignore[union-attr]


def test_a_german_phone_opens_a_ruling_in_german(app: Flask) -> None:
    german = phone_in(app, "de")
    assert german.open("/rules/skip").status_code == 200
    assert german.page.find("h1").text() == "Aussetzen"  # type: ignore[union-attr]
    assert "Mit Aussetzen wird der nächste Spieler übersprungen." in german.page.text()


def test_a_french_phone_searches_in_french_with_or_without_accents(app: Flask) -> None:
    french = phone_in(app, "fr")
    for query in ("réponse à la bombe sans zéro", "reponse a la bombe sans zero"):
        response = french.client.get("/rules/search", query_string={"q": query}, headers={"HX-Request": "true"})
        first = parse(response.get_data(as_text=True)).find("article", class_="rule-result")
        assert first is not None
        assert first.find("h3").text() == "La Bombe"  # type: ignore[union-attr]


def test_a_french_phones_chips_ask_in_french(app: Flask) -> None:
    french = phone_in(app, "fr")
    french.open("/rules")
    chips = {chip.text(): chip["href"] for chip in french.page.find_all("a", class_="chip")}
    assert "Bombe, pas de 0" in chips
    assert "q=La+Bombe" in chips["Bombe, pas de 0"]


def test_a_french_phone_reads_this_tables_choice_in_french(app: Flask, phone: Phone) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    french = phone_in(app, "fr")
    french.open(f"/rules/bomb-last-card?table={code}")
    assert "À cette table : la Bombe coûte les deux vies." in french.page.text()


def test_why_links_name_the_ruling_in_the_phones_language(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.open(f"/t/{code}?sheet=bomb")
    phone.press("Confirm", within=phone.page.by_id("bomb-sheet"), zeros=["Bob", "Cy"])
    phone.open(f"/t/{code}")  # the English phone draws the log's lines first
    english = [link["aria-label"] for link in phone.page.by_id("log").find_all("a", class_="why")]
    assert "Why? (Bomb)" in english
    french = phone_in(app, "fr")
    french.open(f"/t/{code}")
    labels = [link["aria-label"] for link in french.page.by_id("log").find_all("a", class_="why")]
    assert "Pourquoi\u202f? (La Bombe)" in labels  # a narrow no-break space (docs/translations.md)


def test_a_french_ruling_s_sources_are_spaced_the_french_way(app: Flask) -> None:
    """ "Source : règles de 1994 ; FAQ du guide" with narrow no-break spaces (docs/translations.md, French
    typography), not an English "; " between the French names."""
    french = phone_in(app, "fr")
    assert french.open("/rules/how-many-players").status_code == 200
    source = french.page.find("p", class_="rule-source")
    assert source is not None
    written = "".join(child for child in source.children if isinstance(child, str))
    assert written == "Source\u202f: FAQ du guide\u202f; règles de 1994"
