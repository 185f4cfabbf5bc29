"""The game's narration in each phone's language: the log, the "Just now" line, the round's and the game's end and
the spoken call, the same card said in English, French and German on three phones at one table at once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import finish_game
from flask import Flask

from referee import create_app
from referee.service import transfer
from referee.web.extensions import shutdown

from .conftest import Node, Phone, drive
from .test_join import host_join_link, join
from .test_pages_language import french_phone, german_phone
from .test_schema import FIXTURES


def log_items(phone: Phone) -> list[str]:
    """The log's lines, newest first, without the rounds' headings."""
    return [item.text() for item in phone.page.by_id("log").find_all("li") if "round-separator" not in item.classes]


def just_now(phone: Phone) -> str:
    """The "what just happened" line at the top of the board."""
    line = phone.page.find("div", class_="just-happened")
    assert line is not None
    return line.text()


def as_written(node: Node) -> str:
    """The text inside as the page writes it, its spaces not collapsed: a narrow no-break space stays itself."""
    return "".join(child if isinstance(child, str) else as_written(child) for child in node.children)


def board_call(phone: Phone) -> tuple[str, str]:
    """The spoken call the board carries, and the language it says it is in."""
    board = phone.page.by_id("board")
    return str(board["data-call"]), str(board["data-call-lang"])


def three_phones(phone: Phone, app: Flask, names: list[str]) -> tuple[str, Phone, Phone]:
    """A table started by an English phone (the host), followed by a French and a German phone."""
    code = phone.start(names)
    return code, french_phone(app), german_phone(app)


def test_each_phone_reads_the_same_card_in_its_own_language(phone: Phone, app: Flask) -> None:
    code, french, german = three_phones(phone, app, ["Ann", "Bob", "Cy"])
    phone.press("7")  # the host enters Ann's card on the English phone
    for reader in (phone, french, german):
        reader.open(f"/t/{code}")
    assert log_items(phone)[0].startswith("Ann played 7: total 7. Bob's turn.")
    assert log_items(french)[0].startswith("Ann a joué 7 : total 7. À Bob de jouer.")
    assert log_items(german)[0].startswith("Ann hat 7 gespielt: Summe 7. Bob ist dran.")
    # The line's label and its words (the colon between them is the page's).
    assert just_now(french).startswith("À l'instant")
    assert "Ann a joué 7 : total 7. À Bob de jouer." in just_now(french)
    assert just_now(german).startswith("Gerade eben")
    assert "Ann hat 7 gespielt: Summe 7. Bob ist dran." in just_now(german)
    # A wild card's name is the one the language's players say (docs/translations.md, the glossary).
    drive(app, code, "Bob draw2")
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert log_items(french)[0].startswith("Bob a joué +2. Tous les autres piochent 2 cartes. À Cy de jouer.")
    assert log_items(german)[0].startswith("Bob hat +2 gespielt. Alle anderen ziehen 2 Karten. Cy ist dran.")
    drive(app, code, "Cy reverse")
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert "Cy a joué Inversion." in log_items(french)[0]
    assert "Cy hat Richtungswechsel gespielt." in log_items(german)[0]
    # The whole log's page too, and the English phone still reads English.
    french.open(f"/t/{code}/log")
    assert "Ann a joué 7 : total 7. À Bob de jouer." in french.page.text()
    phone.open(f"/t/{code}")
    assert log_items(phone)[0].startswith("Cy played Reverse. Play now goes counterclockwise. Bob's turn.")


def test_french_puts_a_narrow_no_break_space_before_the_just_now_line_s_colon_on_the_board_and_display(
    phone: Phone, app: Flask
) -> None:
    """French typography (docs/translations.md): "À l'instant :", the space one that never breaks, as in the line."""
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7")
    french = french_phone(app)
    french.open(f"/t/{code}")
    label = french.page.find("span", class_="just-label")
    assert label is not None and as_written(label) == "À l'instant\u202f:"
    assert "Ann a joué 7\u202f: total 7." in as_written(french.page.by_id("strip"))
    french.open(f"/t/{code}/display")
    last = french.page.find("p", class_="display-last")
    assert last is not None and as_written(last).startswith("À l'instant\u202f: Ann a joué 7\u202f: total 7.")


def test_a_bomb_says_who_lost_lives_with_the_language_s_plurals_and_and(phone: Phone, app: Flask) -> None:
    code, french, german = three_phones(phone, app, ["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob bomb")  # nobody answers: Cy and Ann lose a life each
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert log_items(french)[0].startswith(
        "Bob a joué Bombe : total 0. Pas de 0 de la part de Cy et Ann. Cy perd une vie (4 vies restantes). "
        "Ann perd une vie (4 vies restantes). À Cy de jouer."
    )
    assert log_items(german)[0].startswith(
        "Bob hat Bombe gespielt: Summe 0. Keine 0 von Cy und Ann. Cy verliert ein Leben (noch 4 Leben). "
        "Ann verliert ein Leben (noch 4 Leben). Cy ist dran."
    )
    assert board_call(french) == ("Cy et Ann perdent une vie. 0, à Cy de jouer.", "fr")
    assert board_call(german) == ("Cy und Ann verlieren ein Leben. 0, Cy ist dran.", "de")
    # Two players answer the next Bomb: the verb agrees with both.
    drive(app, code, "Cy bomb Ann Bob")
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert "Ann et Bob ont défaussé un 0." in log_items(french)[0]
    assert "Ann und Bob haben eine 0 abgelegt." in log_items(german)[0]
    # A Fix of one card, then a count in the singular.
    drive(app, code, "Cy holds 1")
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert log_items(french)[0].startswith("Main corrigée : Cy a 1 carte. À Ann de jouer.")
    assert log_items(german)[0].startswith("Hand korrigiert: Cy hat 1 Karte. Ann ist dran.")


def test_the_end_of_a_round_and_an_undo_are_said_in_the_phone_s_language(phone: Phone, app: Flask) -> None:
    code, french, german = three_phones(phone, app, ["Ann", "Bob", "Cy"])
    drive(app, code, "Ann holds 1", "Ann 0")  # Ann's last card: the round ends, Bob and Cy lose a life
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert log_items(french)[0].startswith(
        "Ann a joué 0 : total 0. Ann n'a plus de cartes : fin de la manche. Bob perd une vie (4 vies restantes). "
        "Cy perd une vie (4 vies restantes). Manche 2 : Ann distribue. À Bob de jouer."
    )
    assert log_items(german)[0].startswith(
        "Ann hat 0 gespielt: Summe 0. Ann hat keine Karten mehr: Die Runde ist vorbei. Bob verliert ein Leben "
        "(noch 4 Leben). Cy verliert ein Leben (noch 4 Leben). Runde 2: Ann teilt aus. Bob ist dran."
    )
    assert board_call(german)[0].startswith("Bob und Cy verlieren ein Leben. Runde 2.")
    phone.open(f"/t/{code}")
    phone.press("Undo")
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert just_now(french).startswith("Annulé par l'hôte")  # the phone's label in its language, with its article
    assert "la carte 0 de Ann. De nouveau à Ann de jouer, total 0." in just_now(french)
    assert just_now(german).startswith("Rückgängig gemacht vom Gastgeber")
    assert "die Karte 0 von Ann. Wieder ist Ann dran, Summe 0." in just_now(german)
    assert board_call(german) == ("Rückgängig gemacht vom Gastgeber. 0, Ann ist dran.", "de")
    # The log's undone line: its badge and who undid it, in the phone's language too.
    undone = french.page.by_id("log").find("li", class_="undone")
    assert undone is not None and undone.text().startswith("Annulé Ann a joué 0")
    assert "· annulé par l'hôte" in undone.text()
    phone.open(f"/t/{code}")
    phone.press("Redo")
    german.open(f"/t/{code}")
    assert just_now(german).startswith("Wiederholt vom Gastgeber")
    assert "Ann hat 0 gespielt: Summe 0." in just_now(german)


def test_who_undid_or_redid_a_card_is_said_with_the_language_s_article(phone: Phone, app: Flask) -> None:
    """ "Undone by Bob's phone": German joins the article to "von" ("vom Handy von Bob"), French says it ("par le
    téléphone de Bob"); the label alone stays a label ("Handy von Bob")."""
    code, french, german = three_phones(phone, app, ["Ann", "Bob", "Cy"])
    join(german, host_join_link(phone), "Bob")
    drive(app, code, "Ann 7")
    german.open(f"/t/{code}")
    german.press("Rückgängig")
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert just_now(german).startswith("Rückgängig gemacht vom Handy von Bob:")
    assert just_now(french).startswith("Annulé par le téléphone de Bob :")
    undone = german.page.by_id("log").find("li", class_="undone")
    assert undone is not None and "· rückgängig gemacht vom Handy von Bob" in undone.text()
    german.press("Wiederholen")
    french.open(f"/t/{code}")
    assert just_now(french).startswith("Rétabli par le téléphone de Bob :")
    assert log_items(french)[0].endswith("· rétabli par le téléphone de Bob")


def test_a_second_bomb_s_warning_names_the_card_in_words_that_fit_any_card(phone: Phone, app: Flask) -> None:
    """ "Was that really a Bomb?": French "un Bombe" and German "war das wirklich Bombe?" did not read; the card's
    name follows a word that fits every card ("une carte Bombe", "eine Bombe-Karte")."""
    code, french, german = three_phones(phone, app, ["Ann", "Bob", "Cy"])
    drive(app, code, "Ann bomb Bob Cy", "Bob bomb Ann Cy")
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    assert (
        "Le paquet n'a qu'une carte Bombe, déjà jouée depuis le mélange : était-ce vraiment une carte Bombe ? "
        "Sinon, annulez." in log_items(french)[0]
    )
    assert (
        "Das Kartenspiel hat nur eine Bombe-Karte, schon seit dem Mischen gespielt – war das wirklich eine "
        "Bombe-Karte? Sonst mach es rückgängig." in log_items(german)[0]
    )


def test_the_winner_is_said_in_the_phone_s_language(phone: Phone, app: Flask) -> None:
    code, french, german = three_phones(phone, app, ["Ann", "Bob", "Cy"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    english_headline = phone.page.find("p", class_="headline")
    assert english_headline is not None
    winner = english_headline.text().removeprefix("★").strip().removesuffix(" wins!")
    for reader, said in ((french, f"{winner} gagne\u202f!"), (german, f"{winner} gewinnt!")):
        shown = " ".join(said.split())  # as text() collapses it: the call keeps its narrow no-break space
        headline = reader.page.find("p", class_="headline")
        assert headline is not None and headline.text().endswith(shown)
        assert shown in log_items(reader)[0]
        assert board_call(reader)[0].endswith(said)


def test_lines_stored_before_their_sentences_were_kept_stay_english_beside_new_ones(tmp_path: Path) -> None:
    facts = json.loads((FIXTURES / "schema-0.json").read_text())
    database = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "schema-0.sqlite3", database)
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{database}"})
    try:
        table = facts["api_table"]
        french = french_phone(app)
        french.open(f"/t/{table['code']}")
        old = log_items(french)
        assert old and all(" played " in line or " can't play" in line for line in old), old
        answer = app.test_client().post(
            f"/api/v1/tables/{table['code']}/actions",
            json={"type": "play", "player": "Ann", "card": "2"},
            headers={"Authorization": f"Bearer {table['token']}"},
        )
        assert answer.status_code == 200
        french.open(f"/t/{table['code']}")
        assert log_items(french)[0].startswith("Ann a joué 2 : total 17.")
        # The older lines as they were (the new card dropped the undone one, as a new card always does).
        kept = log_items(french)[1:]
        assert kept and set(kept) <= set(old), (kept, old)
    finally:
        shutdown(app)


def test_a_sudden_death_tie_break_is_explained_and_settled_in_the_phone_s_language(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"], variant="sudden_death")
    french, german = french_phone(app), german_phone(app)
    for _ in range(4):
        drive(app, code, "Ann bomb Bob", "Bob 0", "Cy 0")
    drive(app, code, "Ann bomb Bob")  # Cy loses a last life: Ann and Bob are tied, with all five lives
    french.open(f"/t/{code}")
    german.open(f"/t/{code}")
    banner = german.page.by_id("banner").text()
    assert "Gleichstand im Sudden Death!" in banner
    assert "Ann und Bob sind gleichauf, mit je 5 Leben." in banner
    assert "Die kleinste Summe gewinnt. Bei gleicher Summe wird der Sieg geteilt." in banner
    assert "Égalité en Mort subite !" in french.page.by_id("banner").text()
    assert "Ann et Bob sont à égalité, avec 5 vies chacun." in french.page.by_id("banner").text()
    assert "Égalité en Mort subite : Ann et Bob additionnent les cartes chiffre de leur main" in log_items(french)[0]
    drive(app, code, "tiebreak Ann=9 Bob=2")
    german.open(f"/t/{code}")
    assert log_items(german)[0].startswith("Summen im Stechen: Ann 9, Bob 2. Bob gewinnt!")


def test_the_table_display_says_the_newest_line_in_its_own_language(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 4")
    display = german_phone(app)  # the screen's own pick, apart from the phones'
    assert display.open(f"/language/de?for=display&next=/t/{code}/display").status_code == 303
    display.open(f"/t/{code}/display")
    last = display.page.find("p", class_="display-last")
    assert last is not None and "Bob hat 4 gespielt: Summe 11. Cy ist dran." in last.text()
    grid = display.page.find("div", class_="display-grid")
    assert grid is not None and (grid["data-call"], grid["data-call-lang"]) == ("11, Cy ist dran.", "de")
    drive(app, code, "undo")
    display.open(f"/t/{code}/display")
    last = display.page.find("p", class_="display-last")
    assert last is not None and last.text().startswith("Rückgängig gemacht")
    assert "die Karte 4 von Bob. Wieder ist Bob dran, Summe 7." in last.text()


def token(table: dict[str, str]) -> dict[str, str]:
    """The API's header that shows the table's token."""
    return {"Authorization": f"Bearer {table['token']}"}


def test_an_imported_game_is_narrated_in_each_phone_s_language(app: Flask) -> None:
    client = app.test_client()
    made = client.post("/api/v1/tables", json={"players": ["Ann", "Bob", "Cy"]}).get_json()
    document = client.get(f"/api/v1/tables/{made['code']}/export", headers=token(made))
    body = document.get_json()
    body["actions"] = [
        {"type": "play", "player": "Ann", "card": "7"},
        {"type": "play", "player": "Bob", "card": "skip"},
    ]
    with app.app_context():
        imported = transfer.import_document(app.extensions["referee"], body)
    code = imported.view.code
    german = german_phone(app)
    german.open(f"/t/{code}")
    newest, first = log_items(german)[:2]
    assert newest.startswith("Bob hat Aussetzen gespielt. Cy muss aussetzen. Ann ist dran.")
    assert first.startswith("Ann hat 7 gespielt: Summe 7. Bob ist dran.")
    # The API's export of the log stays English, whoever asks for it.
    headers = {"Accept-Language": "de", "Authorization": f"Bearer {imported.token}"}
    exported = client.get(f"/api/v1/tables/{code}/export.csv", headers=headers)
    assert "Bob played Skip. Cy misses a turn. Ann's turn." in exported.get_data(as_text=True)
