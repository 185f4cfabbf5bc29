"""The rules search reads a card described rather than named in French and German, Swiss and Austrian spellings, a
Draw card described in English without its number, and a grandparent's or a learner's English.

Every phrasing here is this file's own, not a set's: each checks a way of reading, not one question.
"""

from __future__ import annotations

import pytest

from referee.rulebook import search
from referee.rulebook.descriptions import name_described_cards as name_english_description
from referee.rulebook.foreign import Reader, fold, regional_spelling
from referee.rulebook.foreign_descriptions import name_described_cards
from referee.rulebook.search import default_index
from referee.rulebook.synonyms import player_words
from referee.rulebook.text import terms


def top(query: str, language: str, count: int = 1) -> list[str]:
    return [result.id for result in search(query, language=language)[:count]]


@pytest.mark.parametrize(
    ("language", "said", "card"),
    [
        ("fr", "la carte où l'on voit un pétard avec sa mèche", "bomb"),
        ("fr", "une carte marquée d'une main levée", "skip"),
        ("fr", "la carte qui fait prendre deux cartes au suivant", "draw2"),
        ("fr", "une carte qui fait tourner le jeu dans l'autre sens", "reverse"),
        ("fr", "une carte qui fait ramasser toutes les mains pour les redistribuer", "redeal"),
        ("fr", "une carte avec le signe égal et un dix", "eq10"),
        ("de", "die Karte mit der schwarzen Kugel und der Lunte", "bomb"),
        ("de", "die Karte, mit der die Richtung wechselt", "reverse"),
        ("de", "die Karte, durch die alle ihre Karten abgeben und neu gemischt wird", "redeal"),
        ("de", "eine Karte mit dem Gleichheitszeichen und der Zehn", "eq10"),
        ("de", "eine Karte, mit der der Nächste zwei Karten vom Stapel ziehen muss", "draw2"),
    ],
)
def test_a_french_or_german_card_described_by_its_picture_or_effect_is_named(
    language: str, said: str, card: str
) -> None:
    folded = fold(said, language)
    named = name_described_cards(folded, language)
    # The card's term is added to the description, whose own words still count.
    assert card in named.split()
    assert named.replace(f" {card} ", " ").split() == folded.split()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "les cartes de vie avec des coeurs"),  # several cards: the life cards, no one card described
        ("fr", "une carte qui reste dans ma main"),  # nothing a card shows or does
        ("de", "wenn einer seine letzte Karte legt und das ist eine Bombe"),  # a card named, not described
        ("de", "die Karte mit dem Pfeil und der Bombe"),  # two cards as much as each other: no guess
    ],
)
def test_a_french_or_german_text_that_describes_no_one_card_stays(language: str, said: str) -> None:
    folded = fold(said, language)
    assert name_described_cards(folded, language) == folded


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        ("fr", "Il y a une carte dessinée avec deux flèches en rond : à deux joueurs, elle sert à quoi ?",
         "reverse-two-players"),
        ("de", "Die Karte, auf der zwei Pfeile im Kreis laufen: was macht die zu zweit?", "reverse-two-players"),
        ("fr", "quelqu'un a posé la carte avec le pétard et la mèche, que doit-on faire ?", "bomb"),
        ("de", "Darf ich die Karte mit dem Gleichheitszeichen und der 21 legen, wenn schon 21 erreicht sind?",
         "wild-at-21"),
    ],
)  # fmt: skip
def test_a_described_card_finds_its_ruling_in_french_and_german(language: str, query: str, expected: str) -> None:
    assert top(query, language) == [expected]


@pytest.mark.parametrize(
    ("typed", "standard"),
    [
        ("charte", "karte"),  # ch- for k-
        ("laar", "leer"),  # "läär" folded: aa for ee
        ("mached", "machen"),  # the Swiss plural verb
        ("rundi", "runde"),  # -i for -e
        ("nachschti", "nachste"),  # -scht- for -st-, then -i for -e
        ("natel", "natel"),  # no sound change makes a known word: left for the typo fixer
    ],
)
def test_a_swiss_or_austrian_spelling_is_read_as_the_standard_word(typed: str, standard: str) -> None:
    known = {"karte", "leer", "machen", "runde", "nachste", "nachst"}.__contains__
    assert regional_spelling(typed, known) == standard


def test_a_known_word_keeps_its_spelling() -> None:
    # "spiele" is standard German (I play): only a word the rulebook does not know is read as regional.
    assert regional_spelling("ich spiele", {"spiele", "spielen"}.__contains__) == "ich spiele"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("de Stapel isch läär, was mached mir?", "empty-draw-pile"),
        ("Chasch mer säge, wer git nach de Rundi?", "new-round"),
    ],
)
def test_a_swiss_question_finds_its_rule(query: str, expected: str) -> None:
    assert top(query, "de") == [expected]


def test_an_english_draw_card_described_without_its_number_is_a_draw_card() -> None:
    said = "the card that makes everyone else take more cards from the pile"
    assert name_english_description(said).split() == ["the", "draw", "card"]
    # with its number, the number tells which
    assert name_english_description("the card that makes you take two cards from the pile").split() == [
        "the",
        "+2",
        "card",
    ]
    assert top("what is the card that makes everyone else take more cards from the pile for?", "en") == ["draw-cards"]


def test_a_descriptions_opening_word_is_not_fixed_into_another() -> None:
    # "bearing" opens a description ("the card bearing a picture of a bomb"); fixed into "hearing" it opened none.
    assert default_index().speller.fix("the card bearing a bomb") == "the card bearing a bomb"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # a long evening is a long game: the shorter game
        ("is there a way so the game doesn't go on the whole evening", "sudden-death"),
        # "precisely", "bang on" are exactly; a life given up or surrendered is a life lost
        ("the total has come to precisely 21, must I give up one of my hearts?", "exactly-21"),
        ("if the sum is bang on 21 do I have to surrender a life", "exactly-21"),
    ],
)
def test_a_polite_or_roundabout_english_question_finds_its_rule(query: str, expected: str) -> None:
    assert top(query, "en") == [expected]


def test_how_much_cards_asks_how_many() -> None:
    assert "deckcount" in terms(player_words("how much cards are in the game"), query=True)


def test_how_many_are_at_a_french_table_is_a_number_of_players() -> None:
    reader = Reader("fr")
    assert reader.terms("nous serons 9 autour de la table")[:2] == ["9", "joueur"]
    assert "joueur" not in reader.terms("nous sommes à 18")  # a total, not a table of 18
    assert top("Nous serons neuf pour le réveillon, combien de personnes peuvent jouer ?", "fr") == ["how-many-players"]


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        # out of the game said as "hors jeu", "hors de la partie": the eliminated player's rulings
        ("fr", "quand quelqu'un est mis hors jeu, il garde ses cartes ?", "eliminated-player-cards"),
        ("fr", "un joueur hors de la partie peut-il encore poser des cartes ?", "eliminated-player-cards"),
        # who starts, asked formally: "la personne la plus âgée entame le jeu"
        ("fr", "Est-il exact que la personne la plus âgée entame le jeu ?", "first-player"),
    ],
)
def test_a_french_formal_phrasing_finds_its_ruling(language: str, query: str, expected: str) -> None:
    assert top(query, language) == [expected]


def test_fellow_players_count_as_players_and_are_not_fixed_into_a_verb() -> None:
    # "Mitspielern" is not "mitspielen" (to join in): "zwei Mitspielern" is the two-player game
    reader = Reader("de")
    assert "2player" in reader.query_terms("bei nur zwei Mitspielern", default_index("de").speller)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Ich spiele mit den Enkeln das Kartenspiel mit den fünf Lebenskarten. Was bewirkt die Bombe?", "bomb"),
        ("Wir spielen das Spiel mit fünf Herzen, was macht die Karte mit dem Pfeil?", "reverse"),
    ],
)
def test_the_game_told_by_its_five_lives_is_its_name_not_a_question_about_lives(query: str, expected: str) -> None:
    assert top(query, "de") == [expected]
    # five lives said of a player are still lives
    assert {"5", "leb"} <= set(Reader("de").terms("jeder hat 5 Lebenskarten"))


@pytest.mark.parametrize(
    "query",
    [
        "If I only have cards that go over 21, do I lose a life?",
        "all my cards would take it past 21, what now",
    ],
)
def test_a_hand_of_only_cards_that_go_over_is_the_high_cards_ruling(query: str) -> None:
    assert top(query, "en") == ["only-high-cards"]
