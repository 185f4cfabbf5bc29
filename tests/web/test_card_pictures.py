"""Every card has a picture of its own, named in the phone's language (templates/_card.html)."""

from __future__ import annotations

import re

from flask import Flask

from referee.engine import Card

from .conftest import Phone, drive, parse


def pictures(app: Flask, language: str) -> dict[Card, str]:
    """Each card's picture as the board draws it, for a phone that reads `language`."""
    with app.test_request_context("/", headers={"Accept-Language": language}):
        picture = app.jinja_env.get_template("_card.html").module.picture  # type: ignore[attr-defined]
        return {card: str(picture(card)) for card in Card}


def name_of(svg: str) -> str:
    """The name a screen reader reads for a picture."""
    [image] = parse(svg).find_all("svg")
    assert image["role"] == "img"
    return image["aria-label"]


def test_each_card_is_drawn_its_own_way_and_named_for_a_screen_reader(app: Flask) -> None:
    drawn = pictures(app, "en")
    # What the eye sees: the drawing without its name. No two cards alike (=21 is not =10, Draw 1 is not Draw 2).
    looks = {card: re.sub(r' aria-label="[^"]*"', "", svg) for card, svg in drawn.items()}
    assert len(set(looks.values())) == len(Card)
    assert {card: name_of(svg) for card, svg in drawn.items()} == {card: f"Card {card.label}" for card in Card}
    # A number card shows its number, big.
    [number] = parse(drawn[Card.N5]).find_all("text")
    assert number.text() == "5" and int(number["font-size"]) >= 30


def test_a_cards_name_is_said_in_the_phones_language(app: Flask) -> None:
    names = {card: name_of(svg) for card, svg in pictures(app, "fr").items()}
    assert names[Card.BOMB] == "Carte Bombe" and names[Card.DRAW1] == "Carte +1" and names[Card.N0] == "Carte 0"
    names = {card: name_of(svg) for card, svg in pictures(app, "de").items()}
    assert names[Card.REVERSE] == "Karte Richtungswechsel" and names[Card.EQ21] == "Karte =21"


def test_the_strip_draws_the_card_laid_and_none_after_an_undo_or_a_cant_play(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])

    def drawn() -> list[str]:
        phone.open(f"/t/{code}")
        return [svg["aria-label"] for svg in phone.page.by_id("strip").find_all("svg", class_="pic")]

    drive(app, code, "Ann 7")
    assert drawn() == ["Card 7"]
    # Undo takes the 7 back: no card is on the pile for the line to show (its words say what was undone).
    drive(app, code, "undo")
    assert drawn() == []
    drive(app, code, "redo")
    assert drawn() == ["Card 7"]
    # "Can't play" lays no card.
    drive(app, code, "Bob 7", "Cy 7", "Ann bust")
    assert drawn() == []
