"""The pages around the game in the phone's language: starting a table, joining it, the lobby and the host's page."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from conftest import Api, finish_game
from flask import Flask
from flask.testing import FlaskClient

from .conftest import Node, Phone, drive, parse
from .test_standings import cy_out_in_round_1_ann_in_round_2
from .test_team_ending import standings_rows


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
    usual = "Toujours dans le sens des aiguilles d'une montre, en commençant à gauche du nouveau donneur."
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
    assert "Starten, ohne zu warten" in shown
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
    # A label stands alone where a sentence names the phone: German and French would need an article before it.
    remove = next(name for name in host.page.buttons() if name.startswith("Entfernen: Handy von Bob, beigetreten um "))
    host.follow(host.press(remove))
    assert "Entfernt: Handy von Bob. Das Handy kann keine Karten mehr eintragen." in texts(host.page)
    back = next(name for name in host.page.buttons() if name.startswith("Zurückholen: Handy von Bob, beigetreten um "))
    # Bob takes his seat again from another phone: the removed one stays out, said with its German label.
    link = host.page.find("a", class_="join-link")
    assert link is not None
    borrowed = french_phone(app)
    borrowed.open(urlsplit(link["href"]).path)
    assert borrowed.press("Bob").status_code == 303
    host.open(lobby.removesuffix("/lobby"))
    host.follow(host.press(back))
    assert "Handy von Bob: bleibt entfernt, denn ein anderes Handy gehört jetzt Bob." in texts(host.page)


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


# --- the table page, the standings, the rematch form and the table display -----------------------------------------


# What is still English on these pages, and worded per language apart from them: the log's lines, the "Just now"
# line with its "You lost a life!" and the table display's last card (the engine's narration, drawn in their own
# templates' blocks), the phone's "You're Bob" (pages/summary.py, with that narration), and the rules panel's quick
# questions (the rulebook's entries).
NARRATION = {"just-happened", "you-lost", "me", "rules-chips", "display-last"}


def without_narration(page: Node) -> Node:
    """The page without the parts still in English that are worded elsewhere (NARRATION, and the log)."""
    for node in list(page.iter()):
        if node.get("id") == "log" or node.classes & NARRATION:
            assert node.parent is not None
            node.parent.children.remove(node)
    return page


def runs_read(page: Node) -> set[tuple[str, str, str]]:
    """Every run of three words in the page's text, and in each attribute said aloud (not across two attributes:
    an image's alt text is not read on into the next button's label)."""
    said = [page.text()]
    said += [node.attrs[name] for node in page.iter() for name in SAID_IN_ATTRIBUTES if node.attrs.get(name)]
    return set().union(*(trigrams(text.split()) for text in said))


def english_runs(english: Phone, translated: Phone) -> set[tuple[str, str, str]]:
    """Runs of three words the translated page shares with the same page read in English, names aside."""
    left = runs_read(without_narration(english.page)) & runs_read(without_narration(translated.page))
    same = {"Ann", "Bob", "Cy", "5", "Alive", "Referee", "·", "English", "Français", "Deutsch", "=21", "=10", "=0"}
    # German says "Team A" and "in BG Stats" too.
    same |= {"Team", "BG"}
    return {run for run in left if not set(run) & same and not any(word.isdigit() for word in run)}


def names(page: Node) -> list[str]:
    """The accessible names of the page's buttons, summaries and links."""
    return [node.name for node in page.iter() if node.tag in ("button", "summary", "a")]


def test_a_french_host_reads_the_table_mid_game_in_french(app: Flask) -> None:
    host, guest, code = host_and_guest(app, "fr")
    assert guest.press("Bob").status_code == 303
    drive(app, code, "Ann 3", "Bob 4")
    host.open(f"/t/{code}")
    assert lang(host) == "fr"
    shown = texts(host.page)
    assert host.page.find(class_="turn").text() == "Au tour de Cy"  # type: ignore[union-attr]
    assert "puis Ann" in shown and "jusqu'à 21" in shown and "Manche 1 · Pioche" in shown
    assert host.page.find(aria_label="Total en cours").text() == "7"  # type: ignore[union-attr]
    assert host.page.by_id("pad-title").text().startswith("Cy joue…")
    buttons = host.page.buttons()
    # The cards by the glossary's names, each saying what it makes.
    assert {"0 fait 7", "7 fait 14", "+1", "+2", "Passe", "Inversion", "Saute", "Redistribution", "Bombe"} <= set(
        buttons
    )
    assert {"Annuler", "Rétablir", "Enregistrer"} <= set(buttons)
    assert "Cy a quitté la partie" in buttons
    fix = host.page.by_id("fix-0")
    assert fix.name == "Corriger le nombre de cartes de Ann, ou dire que Ann est parti"
    assert fix.text() == "Corriger"
    hand = host.page.find("input", name="cards")
    assert hand is not None and hand["aria-label"] == "Cartes que Ann a en main"
    lives = host.page.find(class_="lives")
    assert lives is not None and lives["aria-label"] == "5 vies sur 5 restantes"
    assert "Écran de la table" in shown and "Annoncer à voix haute" in buttons
    # What static/js writes on this page (a slow tap, a tap that never arrived, the "Your turn" sound) is French too.
    words = host.page.by_id("tap-words")
    assert words["data-tap"] == "la carte %(card)s de %(name)s"
    assert words["data-no-answer"] == (
        "Pas de réponse de la table\u202f: %(tap)s n'est peut-être pas saisie. Vérifiez le total, puis touchez à "
        "nouveau si besoin."
    )
    sound = host.page.find("button", data_sound_toggle=True)
    assert sound is not None and (sound["data-on"], sound["data-off"]) == (
        "Son «\u202fÀ vous\u202f»\u202f: activé",
        "Son «\u202fÀ vous\u202f»\u202f: désactivé",
    )
    assert host.page.by_id("announce")["data-your-turn"] == "À vous\u202f!"
    # Every control keeps a name of its own in French.
    # (Each player's "Save" sits inside a Fix named after the player, in English as in French.)
    said = [name for name in names(host.page) if name and name != "Enregistrer"]
    assert len(said) == len(set(said)), sorted(name for name in said if said.count(name) > 1)

    # Bob's own phone, where the player is Bob: it reads its turn in French too.
    guest.open(f"/t/{code}")
    assert "À vous !" not in texts(guest.page)
    drive(app, code, "Cy 1")
    guest.open(f"/t/{code}")
    assert "À vous !" not in texts(guest.page)  # Ann's turn, not Bob's
    assert guest.page.find(class_="turn").text() == "Au tour de Ann"  # type: ignore[union-attr]


def test_a_german_phone_reads_the_bomb_sheet_and_the_cant_play_button_in_german(app: Flask) -> None:
    phone = german_phone(app)
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 7", "Cy 3")
    phone.open(f"/t/{code}?sheet=bomb")
    buttons = phone.page.buttons()
    assert "Kann nicht spielen" in buttons
    assert "4 macht 21" in buttons and "5 über 21" in buttons
    # Why a card is refused, in German too (its description).
    why = "Mit der 5 wären es 22: Spiel eine andere Karte, oder tippe auf „Kann nicht spielen“."
    assert phone.page.by_id("why-5").text() == why
    assert "Wer hat eine 0 gelegt?" in texts(phone.page)
    summary = phone.page.find(class_="sheet-summary")
    assert summary is not None
    assert summary.text() == "Verliert ein Leben: Bob und Cy."
    # static/js/bomb.js says it again at each tick with the page's own German words.
    assert summary["data-losing"] == "Verliert ein Leben: %(names)s."
    assert summary["data-and"] == "%(names)s und %(last)s"
    assert summary["data-nobody"] == "Niemand verliert ein Leben."
    assert {"Bestätigen", "Rückgängig", "Wiederholen"} <= set(buttons)


def test_a_german_phone_reads_the_standings_and_the_rematch_form_in_german(app: Flask) -> None:
    phone = german_phone(app)
    code = phone.start(["Ann", "Bob", "Cy"])
    cy_out_in_round_1_ann_in_round_2(app, code)
    phone.open(f"/t/{code}")
    standings = phone.page.by_id("standings")
    assert standings.find("h2").text() == "Rangliste"  # type: ignore[union-attr]
    rows = standings_rows(phone)
    assert rows[0] == ["Platz", "Spieler", "Übrige Leben", "Gewonnene Runden"]
    assert [row[:3] for row in rows[1:]] == [
        ["1", "Bob", "5"],
        ["2", "Ann", "0 · ausgeschieden in Runde 2"],
        ["3", "Cy", "0 · ausgeschieden in Runde 1"],
    ]
    cells = standings.find_all("td")
    assert {cell.get("data-label") for cell in cells if cell.has("data-label")} == {"Übrige Leben", "Gewonnene Runden"}
    shown = standings.text()
    assert "Gleiche Leben, verschiedene Plätze: Wer länger durchgehalten hat, steht weiter oben." in shown
    assert "Die meisten Runden gewonnen: Bob (1 Runde)" in shown
    chart = standings.find("svg", class_="lives-chart")
    assert chart is not None
    assert chart.find("title").text() == "Leben jedes Spielers, Runde für Runde"  # type: ignore[union-attr]
    assert chart.find("desc").text() == "Bob endet mit 5 Leben. Ann endet mit 0 Leben. Cy endet mit 0 Leben."  # type: ignore[union-attr]
    assert [text.text() for text in chart.find_all("text")][-2:] == ["Start", "2 Runden"]
    links = {link.text() for link in standings.find_all("a")}
    assert {"Spiel herunterladen (CSV)", "Diese Partie in BG Stats eintragen"} <= links
    assert "Spiel vorbei" in texts(phone.page) and "nach 2 Runden" in texts(phone.page)
    # The host's rematch: the same players in one tap, or the form that changes them.
    buttons = phone.page.buttons()
    assert {"Revanche mit denselben Spielern", "Revanche mit diesen Änderungen"} <= set(buttons)
    form = phone.page.by_id("rematch-changes")
    assert form.find("summary").text() == "Ändern, wer spielt, wer anfängt, das Spiel oder die Hausregeln"  # type: ignore[union-attr]
    assert {"Wer spielt?", "Wer fängt an?", "Spiel"} <= set(labels(form))
    assert "Neue Spieler" in labels(form) and "Der erste neue Spieler" in labels(form)


def test_a_french_table_display_reads_in_french(app: Flask) -> None:
    phone = french_phone(app)
    code = phone.start(["Ann", "Bob", "Cy"], variant="sudden_death")
    drive(app, code, "Ann 3")
    phone.open(f"/t/{code}/display")
    assert lang(phone) == "fr"
    shown = texts(phone.page)
    assert "Au tour de Bob" in shown and "jusqu'à 21" in shown and "Pioche" in shown
    assert "Sens des aiguilles d'une montre · Mort subite · Manche 1" in shown
    assert "Affichage seul : cet écran ne saisit jamais de cartes." in shown
    assert phone.page.by_id("display")["aria-label"] == "La table, en grand"
    lives = phone.page.find(class_="lives")
    assert lives is not None and lives["aria-label"] == "5 vies sur 5 restantes"


@pytest.mark.parametrize("language", ["fr", "de"])
def test_no_english_run_of_three_words_is_left_around_the_game(app: Flask, language: str) -> None:
    english_host, english_guest, english_code = host_and_guest(app, "en")
    host, guest, code = host_and_guest(app, language)
    pairs = []
    # Mid-game, on the host's phone and on a seated player's, then the table display.
    for phone, other, table in ((english_host, english_guest, english_code), (host, guest, code)):
        other.follow(other.press("Bob"))
        drive(app, table, "Ann 3", "Bob 4")
        phone.open(f"/t/{table}")
        other.open(f"/t/{table}")
    pairs += [(english_host, host, "table"), (english_guest, guest, "seated")]
    english_display, display = Phone(app.test_client()), Phone(app.test_client())
    english_display.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    display.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    english_display.open(f"/t/{english_code}/display")
    display.open(f"/t/{code}/display")
    pairs.append((english_display, display, "display"))
    for english, translated, what in pairs:
        assert english_runs(english, translated) == set(), (what, sorted(english_runs(english, translated))[:5])
    # Game over: the standings, the rematch form and the display's result.
    for table in (english_code, code):
        finish_game(app, table)
    for english, translated, what in pairs:
        path = "/display" if what == "display" else ""
        english.open(f"/t/{english_code}{path}")
        translated.open(f"/t/{code}{path}")
        assert english_runs(english, translated) == set(), (what, sorted(english_runs(english, translated))[:5])


def test_the_manifest_and_the_offline_pages_retries_are_in_the_pages_language(app: Flask) -> None:
    phone = french_phone(app)
    phone.open("/")
    link = phone.page.find("link", rel="manifest")
    assert link is not None and link["href"] == "/manifest.webmanifest?lang=fr"
    manifest = phone.client.get(link["href"], headers={"Accept-Language": ""}).get_json()
    assert manifest["lang"] == "fr"
    assert manifest["description"] == "Tient le total, les tours, les vies et les règles d'une vraie partie de 5 Alive."
    assert manifest["name"] == "5 Alive Referee"

    german = german_phone(app)
    german.open("/offline.html")
    status = german.page.by_id("offline-status")
    assert status["data-found"] == "Tisch wiedergefunden – wird geöffnet…"
    tries = "Es wird automatisch weiter versucht…"
    assert status["data-tried-one"] == f"Immer noch nicht erreichbar (%(num)s Versuch). {tries}"
    assert status["data-tried-many"] == f"Immer noch nicht erreichbar (%(num)s Versuche). {tries}"


def test_a_french_phone_without_a_seat_asks_to_play_in_french(app: Flask) -> None:
    host = french_phone(app)
    code = host.start(["Ann", "Bob", "Cy"])
    asker = french_phone(app)
    asker.open(f"/t/{code}")
    shown = texts(asker.page)
    assert "Vous jouez à cette table ?" in shown
    assert "Demander à être Bob" in asker.page.buttons()
    asker.follow(asker.press("Demander à être Bob"))
    shown = texts(asker.page)
    assert "En attente de l'hôte" in shown
    assert "Vous avez demandé à être Bob." in shown
    assert "Annuler ma demande" in asker.page.buttons()


def test_a_german_host_reads_what_the_rematch_changed_in_german(app: Flask) -> None:
    phone = german_phone(app)
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], first="1", hr_over_21="refuse")
    finish_game(app, code)
    phone.open(f"/t/{code}")
    response = phone.press("Revanche mit diesen Änderungen", first="2", hr_over_21="bust", plays=["Ann", "Cy", "Dee"])
    assert response.status_code == 303
    phone.follow(response)
    assert phone.page.by_id("rematch-note").text() == (
        "Neues Spiel. Bob spielt nicht mit. Vom Gastgeber geändert: Cy fängt an; wer über 21 kommt, verliert sofort "
        "ein Leben (die Karte geht zurück auf die Hand)."
    )
    phone.open(f"/t/{code}")
    banner = phone.page.by_id("banner").text()
    assert "Eine Revanche ohne Bob hat begonnen, vom Gastgeber geändert: Cy fängt an, eine Hausregel." in banner
    assert "Zum neuen Tisch" in banner


@pytest.mark.parametrize(
    ("phone_in", "suggested"),
    [
        (
            french_phone,
            {
                "bombe dernière carte": "Une Bombe jouée comme dernière carte",
                "sauter deux joueurs": "Saute à deux joueurs",
            },
        ),
        (
            german_phone,
            {"Bombe letzte Karte": "Eine Bombe als letzte Karte", "zwei Spieler aussetzen": "Aussetzen zu zweit"},
        ),
    ],
)
def test_a_search_that_finds_nothing_suggests_words_in_the_phone_s_language_that_find_answers(
    app: Flask, phone_in: Callable[[Flask], Phone], suggested: dict[str, str]
) -> None:
    """The rulebook answers in French and German: the hint does not say the answers are English, and the words it
    suggests find the rulings they are about."""
    phone = phone_in(app)

    def first_title(query: str) -> str | None:
        answer = phone.client.get("/rules/search", query_string={"q": query}, headers={"HX-Request": "true"})
        found = parse(answer.get_data(as_text=True)).find("article", class_="rule-result")
        heading = found.find("h3") if found is not None else None
        return heading.text() if heading is not None else None

    hint = phone.client.get("/rules/search", query_string={"q": "xqxqxq"}, headers={"HX-Request": "true"})
    said = parse(hint.get_data(as_text=True)).text()
    assert "anglais" not in said and "Englisch" not in said
    for words, title in suggested.items():
        assert words in said
        assert first_title(words) == title
