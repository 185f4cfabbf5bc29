"""Every ruling's page read in French or German: its examples, what each reading of a house rule rests on and where
it comes from, in the phone's words, with no run of English left (the rules panel in every language)."""

from __future__ import annotations

import re

import pytest
from english_runs import runs_in
from flask import Flask

from referee import rulebook
from referee.engine import HOUSE_RULE_SPECS

from .conftest import parse

# The players of the examples and the one person a source names: names are never translated.
NAMES = {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Eric", "Mortensen"}


def _read(app: Flask, path: str, language: str) -> list[str]:
    """The page's text and the attributes said aloud, each apart, as a phone in `language` gets it."""
    html = app.test_client().get(path, headers={"Accept-Language": language}).get_data(as_text=True)
    page = parse(html)
    said = [page.text()]
    for node in page.iter():
        said += [node.attrs[name] for name in ("aria-label", "title", "alt", "placeholder") if name in node.attrs]
    return said


@pytest.mark.parametrize("language", ["fr", "de"])
def test_every_rulings_page_leaves_no_english_examples_and_sources_included(app: Flask, language: str) -> None:
    entries = rulebook.entries(language)
    assert any(entry.examples for entry in entries)
    # Each ruling's own page, and the rules page that shows every ruling with its examples.
    paths = [f"/rules/{entry.id}" for entry in entries] + ["/rules"]
    left = {path: runs for path in paths if (runs := runs_in(_read(app, path, language), NAMES))}
    assert left == {}


def _words(app: Flask, path: str, language: str) -> str:
    """The page's text with every space alike (French writes a narrow no-break space before ";" and ":")."""
    return re.sub(r"\s+", " ", " ".join(_read(app, path, language)))


def test_an_example_is_told_in_french_with_its_own_plural_forms_and_the_refusal_in_french(app: Flask) -> None:
    text = _words(app, "/rules/bomb", "fr")
    assert "Ann, Bob, Cy et Dee jouent. Ann joue un 7 ; puis Bob joue la Bombe ; Cy défausse un 0. Résultat :" in text
    assert "Ann a 4 vies, Cy 5 et Dee 4 ; Cy a 9 cartes ; le total est de 0 ; c'est au tour de Cy." in text
    text = _words(app, "/rules/over-21", "fr")
    assert "Résultat : l'arbitre la refuse : “Ce 1 fait 22" in text


# A quotation inside a quotation takes the other marks: French « … “…” … » or “… « … » …”, never « … « … » … ».
SAME_MARKS_NESTED = {"fr": re.compile(r"«[^»]*«"), "de": re.compile(r"»[^«]*»|„[^“]*„")}


@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_refusal_quoted_in_an_example_keeps_its_own_quotation_marks_apart(app: Flask, language: str) -> None:
    nested = {
        entry.id: found.group(0)
        for entry in rulebook.entries(language)
        if (found := SAME_MARKS_NESTED[language].search(_words(app, f"/rules/{entry.id}", language)))
    }
    assert nested == {}


def test_what_each_reading_of_a_house_rule_rests_on_is_said_in_german(app: Flask) -> None:
    text = _words(app, "/rules/over-21", "de")
    assert "(Regeln von 1994 („die Karte wird nicht gespielt“); Anleitung + FAQ)" in text
    assert "(moderner Text („die Karte geht dann an euch zurück“))" in text
    # Every switch's ruling shows both readings, each with what it rests on: none in English.
    for spec in HOUSE_RULE_SPECS:
        text = _words(app, f"/rules/{spec.rule}", "de")
        assert "Andere Lesart: " in text, spec.rule
        assert not [reading.source for reading in spec.readings if reading.source in text], spec.rule
