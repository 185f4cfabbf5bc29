"""The rematch form without JavaScript (issue 11, point 6): the finished game's settings are its defaults; the host
changes who starts, the game and house rules; a change that does not fit is explained and starts nothing."""

from __future__ import annotations

from conftest import finish_game
from flask import Flask

from referee.engine import Variant

from .conftest import Phone


def chosen(phone: Phone, name: str) -> str:
    """The value a field of the rematch form has before the host touches it."""
    form = phone.page.find("form", class_="rematch-form")
    assert form is not None
    for node in form.iter():
        if node.get("name") != name:
            continue
        if node.tag == "input" and node.get("type") == "radio" and node.has("checked"):
            return node["value"]
        if node.tag == "select":
            return next(option["value"] for option in node.find_all("option") if option.has("selected"))
    raise AssertionError(f"no chosen value for {name}")


def test_the_rematch_form_starts_from_this_game_and_starts_the_changed_game(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], first="1", hr_over_21="bust")
    finish_game(app, code)
    phone.open(f"/t/{code}")
    assert (chosen(phone, "first"), chosen(phone, "variant"), chosen(phone, "hr_over_21")) == ("1", "standard", "bust")
    response = phone.press("Rematch with these changes", first="3", variant="teams", hr_tiebreak_tie="fewest_cards")
    assert response.status_code == 303
    new = app.extensions["referee"].view(response.headers["Location"].removeprefix("/t/"))
    assert (new.setup.first_player, new.setup.variant) == ("Dee", Variant.TEAMS)
    assert new.setup.teams == (("Ann", "Cy"), ("Bob", "Dee"))
    assert (new.setup.house_rules.over_21, new.setup.house_rules.tiebreak_tie) == ("bust", "fewest_cards")


def test_a_change_that_does_not_fit_is_explained_and_starts_nothing(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    response = phone.press("Rematch with these changes", variant="teams")
    phone.follow(response)
    assert "The team game needs 4 to 6 players; you named 3." in phone.page.by_id("banner").text()
    assert app.extensions["referee"].view(code).rematch_code is None
    # The plain button still makes the same game again.
    response = phone.press("Rematch with the same players")
    new = app.extensions["referee"].view(response.headers["Location"].removeprefix("/t/"))
    assert new.setup == app.extensions["referee"].view(code).setup
