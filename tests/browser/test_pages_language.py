"""Phones set to French start a table and join it, reading every step in French, live seats included."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Phones, Server
from .table import LOBBY_URL, TABLE_URL, wait_live


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
