"""Phones set to French start a table and join it, reading every step in French, live seats included; the French
and German table page, standings and table display leave no English run of words, and pass axe."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from english_runs import runs_in
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import LOBBY_URL, TABLE_URL, back_online, card, choose, tap_offline, wait_live
from .test_screens import AXE_OPTIONS


@pytest.mark.browser
def test_a_french_phone_starts_a_table_and_a_french_phone_joins_it(server: Server, phones: Phones) -> None:
    host = phones.new(locale="fr-FR")
    host.goto(server.url + "/")
    expect(host.locator("html")).to_have_attribute("lang", "fr")
    expect(host.get_by_role("heading", name="Ouvrir une table", level=1)).to_be_visible()
    host.get_by_label("Nom du joueur 1").fill("Ann")
    host.get_by_label("Nom du joueur 2").fill("Bob")
    host.get_by_role("button", name="Retirer le joueur 3").click()
    expect(host.get_by_label("Nom du joueur 3")).to_have_count(0)
    host.get_by_role("button", name="Commencer la partie").click()

    host.wait_for_url(LOBBY_URL)
    expect(host.get_by_role("heading", name="Rassembler les téléphones", level=1)).to_be_visible()
    expect(host.get_by_role("img", name="QR code pour rejoindre cette table")).to_be_visible()
    seats = host.locator("#seats .seat-ticks li")
    expect(seats.nth(1)).to_contain_text("Bob attend un téléphone")
    link = host.locator("a.join-link").inner_text()
    wait_live(host)

    guest = phones.new(locale="fr-FR")
    guest.goto(server.local(link))
    expect(guest.get_by_role("heading", name="Qui êtes-vous ?")).to_be_visible()
    expect(guest.get_by_role("button", name="Je regarde seulement")).to_be_visible()
    guest.get_by_role("button", name="Bob", exact=True).click()
    guest.wait_for_url(TABLE_URL)

    # The host's lobby ticks Bob's seat live, in French.
    expect(seats.nth(1)).to_contain_text("Bob est là", timeout=5000)
    expect(host.get_by_role("link", name="Commencer sans attendre")).to_be_visible()


@pytest.mark.browser
def test_a_german_phone_asks_the_rules_panel_and_reads_its_chrome_in_german(server: Server, phones: Phones) -> None:
    page = phones.new(locale="de-DE")
    page.goto(server.url + "/rules")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", name="Regeln von 5 Alive", level=1)).to_be_visible()
    search = page.get_by_label("Einen Streit klären")
    expect(search).to_have_attribute("placeholder", "z. B. darf eine Bombe die letzte Karte sein?")
    # The live search's answer (an htmx request of its own) is in German too.
    search.fill("zzzz qqqq")
    expect(page.locator("#rules-results")).to_contain_text("Keine Antwort gefunden für „zzzz qqqq“.")
    search.fill("bomb last card")
    expect(page.locator("#rules-results .rule-source").first).to_contain_text("Quelle: ")


# The page's words as a reader or a screen reader meets them: its text (hidden parts too: they show in time) and
# the attributes said aloud, each apart (a run never crosses from one to the next).
WORDS_READ = """() => {
  const page = document.body.cloneNode(true);
  const said = [page.textContent];
  page.querySelectorAll("[aria-label], [title], [alt], [placeholder]").forEach(node => {
    for (const name of ["aria-label", "title", "alt", "placeholder"]) {
      if (node.hasAttribute(name)) said.push(node.getAttribute(name));
    }
  });
  return said;
}"""


def english_runs(page: Page, names: set[str]) -> list[str]:
    """Every run of three or more common English words on the page (the log, the "Just now" line and the rules
    panel's quick questions included), the players' names apart."""
    return runs_in(page.evaluate(WORDS_READ), names)


def test_the_english_run_finder_finds_english_and_only_english() -> None:
    english = ["You are watching. Tap this if Bob has only cards that would go over 21.", "Won the most rounds:"]
    assert runs_in(english, {"Bob"}) == [
        "You are watching. Tap this if",
        "has only cards that would go over",
        "Won the most rounds:",
    ]
    french = ["Vous regardez. Touchez ici si Bob n'a que des cartes qui feraient dépasser 21.", "Au tour de Ann"]
    german = ["Du schaust zu. Tipp hier, wenn Bob nur Karten hat, mit denen die Summe über 21 kommt.", "Ann ist dran"]
    assert runs_in(french + german, {"Ann", "Bob"}) == []


@pytest.mark.browser
@pytest.mark.parametrize("locale", ["fr-FR", "de-DE"])
def test_the_table_standings_and_display_leave_no_english_and_pass_axe(
    server: Server, phones: Phones, locale: str
) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    bob = phones.seated(server, table, "Bob", locale=locale)
    server.act(code, token, type="play", player="Ann", card="3", zeros=[])
    expect(bob.locator("#total")).to_have_text("3")
    expect(bob.locator("html")).to_have_attribute("lang", locale[:2])
    names = {"Ann", "Bob", "Cy"}
    assert english_runs(bob, names) == []
    # Another phone's card fades the pad for a moment (static/js/onetap.js); axe reads the page at rest.
    expect(bob.locator("#board:not([data-settling])")).to_be_attached()
    for scheme in ("light", "dark"):
        bob.emulate_media(color_scheme=scheme)
        violations = Axe().run(bob, options=AXE_OPTIONS).response["violations"]
        assert [
            (scheme, violation["id"], [node["html"][:300] for node in violation["nodes"]][:3])
            for violation in violations
        ] == []

    display = phones.new(locale=locale)
    display.goto(f"{server.url}/t/{code}/display")
    expect(display.locator("#display output")).to_have_text("3")
    assert english_runs(display, names) == []

    # To the end: each player in turn plays their last card (a 0), which ends the round, until one is left.
    while (state := server.state(code))["status"] == "playing":
        server.act(code, token, type="hand", player=state["current"], cards=1)
        server.act(code, token, type="play", player=state["current"], card="0", zeros=[])
    expect(bob.locator("#standings")).to_be_visible()
    assert english_runs(bob, names) == []
    expect(display.locator(".display-done")).to_be_visible()
    assert english_runs(display, names) == []


@pytest.mark.browser
def test_a_french_phone_s_scripts_speak_french_the_bomb_sheet_and_the_turn_sound(
    server: Server, phones: Phones
) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.new(locale="fr-FR")
    choose(ann, server.local(table["join_url"]), "Ann")
    # static/js/turn.js names its switch with the page's words, and says the new setting in them.
    sound = ann.get_by_role("button", name="Son « À vous » : désactivé")
    expect(sound).to_be_visible()
    sound.click()
    expect(ann.get_by_role("button", name="Son « À vous » : activé")).to_have_attribute("aria-pressed", "true")
    # static/js/bomb.js says again at each tick who loses a life, in French.
    ann.get_by_role("button", name="Bombe", exact=True).click()
    sheet = ann.get_by_role("dialog", name="Qui a posé un 0 ?")
    expect(sheet).to_be_visible()
    summary = sheet.locator(".sheet-summary")
    expect(summary).to_have_text("Perd une vie : Bob et Cy.")
    sheet.get_by_label("Bob").check()
    expect(summary).to_have_text("Perd une vie : Cy.")
    sheet.get_by_label("Cy").check()
    expect(summary).to_have_text("Personne ne perd de vie.")


@pytest.mark.browser
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "de-DE"])
def test_the_header_is_one_line_and_every_card_name_fits_its_button_in_each_language(
    server: Server, phones: Phones, locale: str
) -> None:
    """On a 390 px phone the header stays one line (two lines pushed the pad's last row off the screen) and no card's
    name runs out of its button: German's "Richtungswechsel" and French "Redistribution" break where they may."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.new(locale=locale)
    choose(ann, server.local(table["join_url"]), "Ann")
    expect(ann.locator("html")).to_have_attribute("lang", locale[:2])
    header = ann.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= 48, header
    cut = ann.evaluate(
        "() => [...document.querySelectorAll('#board button.card')]"
        ".filter(button => button.scrollWidth > button.clientWidth).map(button => button.textContent.trim())"
    )
    assert cut == []
    reverse = {"en": "Reverse", "fr": "Inversion", "de": "Richtungswechsel"}[locale[:2]]
    expect(ann.get_by_role("button", name=reverse, exact=True)).to_be_visible()


@pytest.mark.browser
def test_a_german_phone_s_notes_about_a_tap_start_every_sentence_with_a_capital(server: Server, phones: Phones) -> None:
    """German starts a whole sentence with a capital, after a colon too; the tap's words ("die Karte 5 von Ann") go
    inside a sentence, so a note the scripts write never starts one with them (static/js/notentered.js)."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    ann = phones.seated(server, table, "Ann", locale="de-DE")
    # The answer never comes back (a proxy's 502).
    ann.route("**/act", lambda route: route.fulfill(status=502, content_type="text/plain", body="Bad gateway"))
    card(ann, "5").click()
    expect(ann.get_by_role("alert")).to_have_text(
        "Keine Antwort vom Tisch: Vielleicht ist die Karte 5 von Ann nicht eingetragen. Prüf die Summe und tipp dann "
        "bei Bedarf noch mal."
    )
    ann.unroute("**/act")
    # Tapped offline, and said again once the phone is back.
    note = ann.locator("#banner .not-entered")
    tap_offline(ann, "5")
    expect(note).to_contain_text("Nicht eingetragen: Dieses Handy ist offline, deshalb hat die Karte 5 von Ann")
    back_online(ann)
    expect(note).to_have_text(
        "Wieder online, aber die Karte 5 von Ann wurde nicht eingetragen: Tipp sie noch mal, wenn sie noch zählt."
    )
    # Tapped offline while Ann's real card goes in from another phone: the table has moved on.
    tap_offline(ann, "5")
    expect(note).to_contain_text("Nicht eingetragen: Dieses Handy ist offline")
    server.act(code, token, type="play", player="Ann", card="2", zeros=[])
    ann.context.set_offline(False)
    expect(ann.locator("#total")).to_have_text("2")
    expect(note).to_have_text(
        "Wieder online. Am Tisch ging es schon weiter (jetzt ist Bob dran): Deshalb wurde die Karte 5 von Ann nicht "
        "eingetragen. Prüf nach und tipp noch mal, wenn sie noch zählt."
    )


@pytest.mark.browser
def test_a_french_phone_s_note_after_a_tap_made_offline_does_not_start_a_sentence_with_the_tap(
    server: Server, phones: Phones
) -> None:
    """French starts a sentence with a capital too: "De nouveau en ligne. la carte 5 de Ann …" was one without."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.seated(server, table, "Ann", locale="fr-FR")
    note = ann.locator("#banner .not-entered")
    tap_offline(ann, "5")
    expect(note).to_contain_text("Pas saisi : ce téléphone est hors ligne, donc la carte 5 de Ann")
    back_online(ann)
    expect(note).to_have_text(
        "De nouveau en ligne, mais la carte 5 de Ann n'a pas été saisie : touchez-la à nouveau si elle compte encore."
    )
