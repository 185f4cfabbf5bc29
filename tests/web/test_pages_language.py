"""The pages around the game in the phone's language: starting a table, joining it, the lobby and the host's page."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from conftest import Api
from flask import Flask
from flask.testing import FlaskClient

from .conftest import Node, Phone


def french_phone(app: Flask) -> Phone:
    """A phone whose browser asks for French on every request (Accept-Language), as a phone set to French does."""
    client: FlaskClient = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr-FR,fr;q=0.9,en;q=0.5"
    return Phone(client)


def german_phone(app: Flask) -> Phone:
    """A phone whose browser asks for English, switched to German with the switch at the foot of the page."""
    client: FlaskClient = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en-GB,en;q=0.9"
    phone = Phone(client)
    assert phone.open("/language/de?next=/").status_code == 303
    return phone


def lang(phone: Phone) -> str | None:
    """The language the open page says it is in (`<html lang>`)."""
    html = phone.page.find("html")
    assert html is not None
    return html.get("lang")


def texts(page: Node) -> str:
    """Everything a reader sees on the page, as one string."""
    return page.text()


def labels(page: Node) -> list[str]:
    """The text of every <label> and <legend> on the page."""
    return [node.text() for node in page.iter() if node.tag in ("label", "legend", "summary")]


def start_table(phone: Phone, names: list[str], start_button: str) -> str:
    """Fill the home page's form with `names` and tap its start button (named in the phone's language); return the
    lobby's path."""
    phone.open("/")
    form = phone.page.by_id("setup")
    response = phone.submit(form, phone.button(start_button), name=names, team=["A", "B", "A"][: len(names)])
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    path = urlsplit(response.headers["Location"]).path
    assert path.endswith("/lobby"), path
    phone.open(path)
    return path


def test_a_french_phone_reads_the_start_a_table_form_in_french(app: Flask) -> None:
    phone = french_phone(app)
    phone.open("/")
    assert lang(phone) == "fr"
    shown = texts(phone.page)
    assert "Ouvrir une table" in shown
    assert "Saisissez les joueurs dans l'ordre des places" in shown
    assert "+ Ajouter un joueur" in phone.page.buttons()
    assert "Commencer la partie" in phone.page.buttons()
    assert "Retirer le joueur 2" in phone.page.buttons()
    found = labels(phone.page)
    assert "Joueurs (2 à 6)" in found
    assert "Nom du joueur 1" in found
    assert "Mort subite : finit dès qu'un joueur perd sa dernière vie" in found
    # The house rules: each question and its readings, the usual one marked so.
    assert "Qui peut saisir les cartes ?" in found
    assert "Une nouvelle manche commence : dans quel sens joue-t-on ?" in found
    options = [node.text() for node in phone.page.iter() if node.tag == "option"]
    usual = "Toujours à nouveau dans le sens des aiguilles d'une montre, en commençant à gauche du nouveau donneur."
    assert f"{usual} (habituel)" in options
    assert "Équipe A" in options
    # The words of the English form are gone from it.
    for english in ("Start a table", "Add a player", "House rules", "Who may enter cards?", "clockwise"):
        assert english not in shown, english


def test_the_german_pick_gives_the_form_in_german_whatever_the_browser_asks(app: Flask) -> None:
    phone = german_phone(app)
    phone.open("/")
    assert lang(phone) == "de"
    shown = texts(phone.page)
    assert "Einen Tisch starten" in shown
    assert {"+ Spieler hinzufügen", "Spiel starten", "Tisch öffnen"} <= set(phone.page.buttons())
    found = labels(phone.page)
    assert "Wer darf Karten eintragen?" in found
    assert "Hausregeln (die üblichen sind schon gewählt)" in found
    assert "Standard: Wer als Letzter noch ein Leben hat, gewinnt" in found
    assert phone.page.by_id("watch-code").get("placeholder") == "z. B. K7MP2X"
    assert "Start a table" not in shown and "House rules" not in shown


def test_a_french_phone_starts_a_table_and_another_joins_it_all_in_french(app: Flask) -> None:
    host = french_phone(app)
    lobby = start_table(host, ["Ann", "Bob"], "Commencer la partie")
    assert lang(host) == "fr"
    shown = texts(host.page)
    assert "Rassembler les téléphones" in shown
    assert "Qui est là" in shown
    assert "attend un téléphone" in shown
    assert "Lequel êtes-vous ?" in shown
    assert {"Je suis Ann", "Je suis Bob", "Je compte seulement les points"} <= set(host.page.buttons())
    link = host.page.find("a", class_="join-link")
    assert link is not None
    # The host says it is Ann, in French, and the lobby says so.
    assert host.press("Je suis Ann").status_code == 303
    host.open(lobby)
    assert "Ce téléphone est celui de Ann (et de l'hôte)." in texts(host.page)

    guest = french_phone(app)
    assert guest.open(urlsplit(link["href"]).path).status_code == 200
    assert lang(guest) == "fr"
    shown = texts(guest.page)
    assert "Qui êtes-vous ?" in shown
    assert "Touchez votre nom" in shown
    assert {"Je regarde seulement", "Je compte les points (sans jouer)"} <= set(guest.page.buttons())
    assert "Ann — sur un autre téléphone" in guest.page.buttons()
    response = guest.press("Bob")
    assert response.status_code == 303
    assert urlsplit(response.headers["Location"]).path == lobby.removesuffix("/lobby")

    host.open(lobby)
    shown = texts(host.page)
    assert "Ann est là" in shown and "Bob est là" in shown
    assert "Tout le monde est là — commencer" in shown


def test_a_german_host_reads_the_lobby_and_its_own_table_page_in_german(app: Flask) -> None:
    host = german_phone(app)
    lobby = start_table(host, ["Ann", "Bob", "Cy"], "Spiel starten")
    shown = texts(host.page)
    assert lang(host) == "de"
    assert "Handys sammeln" in shown and "Wer ist da" in shown and "Tischcode" in shown
    assert "Ohne Warten starten" in shown
    assert "Spieler ohne Handy können trotzdem mitspielen" in shown
    host.open(lobby.removesuffix("/lobby") + "/me")
    shown = texts(host.page)
    assert "Das ist dein Tisch" in shown
    assert "Zum Tisch" in shown
    assert "Gather the phones" not in shown and "Which one is you?" not in shown


def test_a_german_phone_reads_the_rules_panels_headings_buttons_and_labels_in_german(app: Flask, api: Api) -> None:
    api.create(["Ann", "Bob"], house_rules={"over_21": "bust"})
    phone = german_phone(app)
    phone.open(f"/rules?table={api.code}")
    assert lang(phone) == "de"
    shown = texts(phone.page)
    assert phone.page.find("h1").text() == "Regeln von 5 Alive"  # type: ignore[union-attr]
    assert "Einen Streit klären" in labels(phone.page)
    assert "Fragen" in phone.page.buttons()
    assert phone.page.by_id("rules-q").get("placeholder") == "z. B. darf eine Bombe die letzte Karte sein?"
    assert f"Zurück zu Tisch {api.code}" in shown
    assert f"Hausregeln an Tisch {api.code}" in shown
    # The table's house rules: the question and both readings in German.
    assert "Was passiert, wenn jemand eine Zahlenkarte spielt, mit der die Summe über 21 kommt?" in shown
    assert "Dieser Tisch: Die Karte darf gelegt werden, aber man kommt über 21" in shown
    assert "Andere Lesart: Die Karte darf nicht gespielt werden." in shown
    assert "Quelle: " in shown
    for english in ("Settle an argument", "House rules at table", "This table:", "Other reading:", "Source:"):
        assert english not in shown, english

    phone.open(f"/rules/bust?table={api.code}")
    shown = texts(phone.page)
    assert "Hausregel: Was passiert, wenn jemand eine Zahlenkarte spielt" in shown
    assert "Üblich:" in shown and "Andere Lesart — dieser Tisch:" in shown
    assert "Alle Regeln" in shown and "All rules" not in shown

    answer = phone.client.get("/rules/search?q=zzzz+qqqq", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Keine Antwort gefunden für „zzzz qqqq“." in answer


def test_the_whole_log_and_the_error_page_read_in_french_and_the_offline_page_in_german(app: Flask) -> None:
    phone = french_phone(app)
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.open(f"/t/{code}/log")
    shown = texts(phone.page)
    assert lang(phone) == "fr"
    assert f"Tout le journal de la table {code}" in shown
    assert "Ce qui s'est passé" in shown and "Retour à la table" in shown
    assert "Rien pour l'instant. Ann joue en premier ; Cy a distribué." in shown
    assert "What happened" not in shown and "Nothing yet" not in shown

    assert phone.open("/t/QQQQQQ").status_code == 404
    assert "Aller à la page d'accueil" in texts(phone.page)

    german = german_phone(app)
    german.open("/offline.html")
    assert lang(german) == "de"
    shown = texts(german.page)
    assert "Tisch nicht erreichbar — bist du im selben WLAN?" in shown
    assert "Jetzt noch mal versuchen" in german.page.buttons()
    assert "Can't reach" not in shown


def test_the_hosts_list_of_phones_names_them_in_the_hosts_language(app: Flask) -> None:
    host = german_phone(app)
    start_table(host, ["Ann", "Bob"], "Spiel starten")
    lobby = host.url
    link = host.page.find("a", class_="join-link")
    assert link is not None
    guest, watcher = french_phone(app), french_phone(app)
    for phone, who in ((guest, "Bob"), (watcher, "Je regarde seulement")):
        phone.open(urlsplit(link["href"]).path)
        assert phone.press(who).status_code == 303
    host.open(lobby.removesuffix("/lobby"))
    rows = [row.text() for row in host.page.by_id("join").find_all("li")]
    assert [row.split(" ·")[0] for row in rows] == ["Gastgeber (dieses Handy)", "Handy von Bob", "Schaut zu"]
    assert all("beigetreten um" in row for row in rows)
    remove = next(name for name in host.page.buttons() if name.endswith(" entfernen") and "Handy von Bob" in name)
    assert remove.startswith("Handy von Bob, beigetreten um ")
    host.follow(host.press(remove))
    assert "Handy von Bob entfernt: Es kann keine Karten mehr eintragen." in texts(host.page)
    assert any(
        name.startswith("Handy von Bob, beigetreten um") for name in host.page.buttons() if "zurückholen" in name
    )


SAID_IN_ATTRIBUTES = ("aria-label", "placeholder", "title", "alt")


def words_read(page: Node) -> list[str]:
    """What a reader (or a screen reader) meets on the page, as words: its text and the attributes said aloud."""
    said = [page.text()]
    said += [node.attrs[name] for node in page.iter() for name in SAID_IN_ATTRIBUTES if node.attrs.get(name)]
    return " ".join(said).split()


def trigrams(words: list[str]) -> set[tuple[str, str, str]]:
    """Every run of three words in a row."""
    return {(a, b, c) for a, b, c in zip(words, words[1:], words[2:], strict=False)}


def host_and_guest(app: Flask, language: str) -> tuple[Phone, Phone, str]:
    """A table started by a phone reading `language`, with a second phone of that language seated as Bob."""
    clients = [app.test_client(), app.test_client()]
    for client in clients:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    host, guest = Phone(clients[0]), Phone(clients[1])
    code = host.start(["Ann", "Bob", "Cy"])
    link = host.page.find("a", class_="join-link")
    assert link is not None
    guest.open(urlsplit(link["href"]).path)
    return host, guest, code


@pytest.mark.parametrize("language", ["fr", "de"])
def test_no_english_run_of_three_words_is_left_on_the_pages_around_the_game(app: Flask, language: str) -> None:
    english_host, english_guest, english_code = host_and_guest(app, "en")
    host, guest, code = host_and_guest(app, language)
    # The guest's "Who are you?", then the host's pages, each next to the same page read in English.
    pairs = [(english_guest, guest, "")]
    for path in ("/", "/t/{code}/lobby", "/t/{code}/me", "/t/{code}/log", "/t/NOSUCH", "/offline.html"):
        english_host.open(path.format(code=english_code))
        host.open(path.format(code=code))
        pairs.append((english_host, host, path))
    for english, translated, path in pairs:
        left = trigrams(words_read(english.page)) & trigrams(words_read(translated.page))
        # Names, codes, the app's name and the language switch are the same in every language.
        same = {"Ann", "Bob", "Cy", "5", "Alive", "Referee", "·", "English", "Français", "Deutsch"}
        left = {run for run in left if not set(run) & same}
        assert left == set(), (path, sorted(left)[:5])
