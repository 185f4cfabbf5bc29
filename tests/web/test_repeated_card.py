"""A tap that would enter again, for the next player, the card another phone has just entered for this phone's
player is asked about first, also without JavaScript: "Bob's 3 is already in. Enter a 3 for Cy too?"; "No" enters
nothing, "Yes" enters it."""

from __future__ import annotations

from flask import Flask

from .conftest import Phone, drive
from .test_join import host_join_link, join


def bob_taps_3_after_the_host_entered_his(phone: Phone, other_phone: Phone, app: Flask) -> str:
    """The host's phone enters Bob's 3; Bob's own phone, showing Cy's turn since, taps its 3 (no JavaScript)."""
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Bob")
    drive(app, code, "Ann 5")
    phone.open(f"/t/{code}")
    phone.press("3")  # the host's phone, for Bob
    other_phone.open(f"/t/{code}")
    response = other_phone.press("3")
    assert response.status_code == 409  # nothing entered: the page asks
    return code


def test_the_late_tap_is_asked_about_and_no_enters_nothing(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = bob_taps_3_after_the_host_entered_his(phone, other_phone, app)
    question = other_phone.page.find("div", class_="repeat-ask")
    assert question is not None
    words = question.find("p")
    assert words is not None and words.text() == "Bob's 3 is already in. Enter a 3 for Cy too?"
    assert app.extensions["referee"].view(code).state.total == 8  # nothing entered yet
    no = question.find("a")
    assert no is not None and no.text() == "No"
    other_phone.open(no["href"])
    assert app.extensions["referee"].view(code).state.total == 8
    assert other_phone.page.find("div", class_="repeat-ask") is None


def test_yes_enters_the_card_for_the_next_player(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = bob_taps_3_after_the_host_entered_his(phone, other_phone, app)
    response = other_phone.press("Yes, enter Cy's 3")
    assert response.status_code == 303
    view = app.extensions["referee"].view(code)
    assert (view.state.total, view.state.current_player.name) == (11, "Ann")
    assert view.log[-1].text.startswith("Cy played 3")


def test_a_card_of_ones_own_or_an_older_one_is_entered_at_once(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Bob")
    drive(app, code, "Ann 5", "Bob 3")  # by another phone, but Cy's card is not the same
    other_phone.open(f"/t/{code}")
    assert other_phone.press("2").status_code == 303
    assert app.extensions["referee"].view(code).state.total == 10
