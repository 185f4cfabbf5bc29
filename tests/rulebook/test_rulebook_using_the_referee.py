"""Questions about using the app itself (one phone, names, an old mistake, the calls, the language, a slow player)
find the "Using the referee" entry that says what the app really does, in English, French and German."""

from __future__ import annotations

import pytest

from referee import rulebook
from referee.rulebook import entry, search

# Phrasings of this file's own, not the entries' questions: each must find its entry first.
ASKED = [
    ("en", "we have only got the one mobile between five of us", "one-phone"),
    ("en", "can i put in every card myself while the others just play", "one-phone"),
    ("en", "does each player need their own phone", "one-phone"),
    ("en", "I spelled Chloe's name wrong at the start", "change-players"),
    ("en", "my uncle arrived late, can he play the next game", "change-players"),
    ("en", "how can we add my uncle to the player list", "change-players"),
    ("en", "how do we fix a card from much earlier in the game", "earlier-mistake"),
    ("en", "a wrong card went in long before the last one", "earlier-mistake"),
    ("en", "does the phone talk", "speak-and-display"),
    ("en", "can a tablet in the middle show the game", "speak-and-display"),
    ("en", "can the app be in german for my aunt", "app-language"),
    ("en", "how to switch the app to french", "app-language"),
    ("en", "my sister takes ages every turn, is there a limit", "slow-player"),
    ("en", "can you time each go", "slow-player"),
    ("fr", "on n a qu un portable pour cinq", "one-phone"),
    ("fr", "est ce que chaque joueur doit avoir son telephone", "one-phone"),
    ("fr", "j ai fait une faute dans le prénom de chloé", "change-players"),
    ("fr", "mon oncle arrive en retard il peut jouer la partie suivante", "change-players"),
    ("fr", "on a saisi la mauvaise carte il y a cinq tours", "earlier-mistake"),
    ("fr", "l erreur remonte à plusieurs cartes comment revenir si loin", "earlier-mistake"),
    ("fr", "le telephone peut parler ?", "speak-and-display"),
    ("fr", "une tablette au milieu peut montrer la partie ?", "speak-and-display"),
    ("fr", "mettre l appli en allemand pour ma tante", "app-language"),
    ("fr", "ma soeur met des heures a chaque tour, il y a une limite ?", "slow-player"),
    ("de", "wir haben nur ein handy für fünf leute", "one-phone"),
    ("de", "muss jeder spieler ein eigenes handy haben", "one-phone"),
    ("de", "ich hab den namen von chloe falsch getippt", "change-players"),
    ("de", "mein onkel kommt später, kann er das nächste spiel mitspielen", "change-players"),
    ("de", "wir haben vor fünf zügen die falsche karte eingegeben", "earlier-mistake"),
    ("de", "der fehler ist mehrere karten her wie kommen wir so weit zurück", "earlier-mistake"),
    ("de", "kann das handy sprechen", "speak-and-display"),
    ("de", "kann ein tablet in der mitte das spiel zeigen", "speak-and-display"),
    ("de", "app auf französisch für meine tante", "app-language"),
    ("de", "meine schwester braucht jedes mal ewig, gibt es ein limit", "slow-player"),
]


@pytest.mark.parametrize(("language", "query", "expected"), ASKED)
def test_a_question_about_using_the_app_finds_what_the_app_does(language: str, query: str, expected: str) -> None:
    rulebook.read_translations_from(None)
    assert search(query, language=language)[0].id == expected


@pytest.mark.parametrize("entry_id", sorted({expected for _, _, expected in ASKED}))
def test_each_app_entry_is_in_the_using_the_referee_section_and_cites_this_referee(entry_id: str) -> None:
    item = entry(entry_id)
    assert item.section == "Using the referee"
    assert item.source == "interpretation by this referee"
