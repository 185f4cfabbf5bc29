"""A refusal is said in the language of the phone that is refused: its pick (the `lang` cookie), else its
browser's Accept-Language; the phone beside it reads its own."""

from __future__ import annotations

from flask import Flask

from .conftest import Phone, drive, parse
from .test_join import host_join_link, join

TOO_FAR_FR = "Ce 3 fait 22 : jouez une autre carte, ou touchez « Je ne peux pas jouer »."
TOO_FAR_EN = "That 3 makes 22: play another card, or tap Can't play."


def test_a_refused_tap_on_a_french_phone_is_french_and_the_english_phone_beside_it_reads_english(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    phone.open("/language/fr?next=/")  # the switch: this phone alone reads French from now on
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 7", "Cy 5")
    phone.open(f"/t/{code}")
    pad = phone.page.by_id("pad-form")
    response = phone.submit(pad, phone.card("3"), htmx=True)
    assert response.status_code == 422
    assert phone.page.by_id("banner").text() == TOO_FAR_FR
    assert phone.page.find(aria_label="Total en cours").text() == "19"  # type: ignore[union-attr]
    # Without htmx the refusal comes back as a flash on the table page, in French too.
    phone.follow(phone.submit(pad, phone.card("3")))
    assert TOO_FAR_FR in phone.page.by_id("banner").text()
    assert app.extensions["referee"].view(code).version == 3
    # A phone at the same table whose browser asks for English is refused in English at the same moment.
    join(other_phone, host_join_link(phone), "Ann")
    response = other_phone.submit(other_phone.page.by_id("pad-form"), other_phone.card("3"), htmx=True)
    assert response.status_code == 422
    assert other_phone.page.by_id("banner").text() == TOO_FAR_EN


def test_a_refusal_page_follows_the_browsers_language(app: Flask) -> None:
    browser = app.test_client()
    french = browser.get("/t/QQQQQQ", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert french.status_code == 404
    page = parse(french.get_data(as_text=True)).text()
    assert "Table introuvable" in page and "Il n'y a pas de table « QQQQQQ »." in page
    english = parse(browser.get("/t/QQQQQQ", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)).text()
    assert "No such table" in english and "There is no table “QQQQQQ”." in english
