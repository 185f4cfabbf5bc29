"""A French or German question telling a combination finds the ruling an English one does (foreign_stories.py)."""

from __future__ import annotations

import pytest

from referee.rulebook import search
from referee.rulebook.foreign import Reader
from referee.rulebook.foreign_stories import STORY_WORDS
from referee.rulebook.search import default_index
from referee.rulebook.stories import _CONCEPT_WORDS


def top(query: str, language: str) -> str | None:
    found = search(query, language=language)
    return found[0].id if found else None


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        # a Bomb and no 0: the Bomb rule, not the bomber's own ruling or two lives lost
        ("fr", "il a posé la bombe, moi j'avais pas de zéro, ça me coûte une vie ?", "bomb"),
        ("de", "er legt die Bombe und ich hab keine Null, verlier ich dann ein Leben?", "bomb"),
        # a Bomb in the team game: the team game's ruling
        ("fr", "mon coéquipier pose la bombe, je dois quand même jeter un zéro moi ?", "teams-bomb"),
        ("de", "mein Partner legt die Bombe, muss ich dann auch eine Null abwerfen?", "teams-bomb"),
        # a wild card held and a bust taken on purpose: the wild card must be played
        (
            "fr",
            "j'ai un Skip mais je préfère perdre une vie exprès pour le garder, c'est permis ?",
            "wild-instead-of-bust",
        ),
        (
            "de",
            "ich hab eine 5 und eine Aussetzen-Karte bei 19, darf ich absichtlich drüber gehen und ein Leben abgeben?",
            "wild-instead-of-bust",
        ),
        # the draw pile used up with cards still to draw
        ("fr", "le talon est épuisé et il faut encore piocher des cartes, on fait quoi ?", "empty-draw-pile"),
        # a rule of the table's own, asked of the app: House rules at this table, not the card's rule
        ("fr", "ma tante voudrait que le +2 fasse piocher 3, on peut le mettre dans l'appli ?", "house-rules"),
        ("de", "Opa will, dass man bei 21 zwei Karten zieht. Kann man das in der App einstellen?", "house-rules"),
        ("de", "wie stelle ich in der App ein, dass der Jüngste beginnt?", "house-rules"),
        # someone went out and two lost their last life with it: out at once, not Sudden Death's ruling
        (
            "de",
            "mein Bruder ist fertig geworden und zwei von uns verlieren gleichzeitig das letzte Leben, wer gewinnt?",
            "several-eliminated-at-once",
        ),
        # a card "too high" is a card over 21, and the busting player keeps it
        ("de", "die Karte war viel zu hoch, ein Leben ist weg, behalte ich sie?", "bust-keeps-card"),
        # all the lives lost and leaving the table: elimination, not a player who quits
        ("fr", "mon oncle a perdu toutes ses vies, il doit quitter la table tout de suite ?", "elimination"),
        # a wild card played on another player's turn because the rules say "at any time": the out-of-turn ruling
        (
            "fr",
            "les cartes spéciales se jouent à tout moment, donc j'ai posé un Skip pendant le tour de ma sœur ?",
            "out-of-turn",
        ),
        # whoever played the Bomb, asking about a 0 of their own: the bomber's ruling, not the Bomb rule
        ("fr", "celui qui a joué la bombe n'a pas de zéro, il perd une vie ?", "bomber-does-not-discard"),
        ("fr", "quand il pose la bombe, doit-il lui-même jeter un zéro ?", "bomber-does-not-discard"),
        # a total and a card said apart, added up: over 21, or a total nobody can bust at
        ("de", "die Summe steht bei 17 und ich lege eine 6, ist das erlaubt?", "over-21"),
        ("fr", "le total est à 17 et je pose un 6, c'est permis ?", "over-21"),
        ("fr", "le total est à 11 et elle dit qu'elle perd une vie, c'est possible ?", "no-bust-at-14"),
    ],
)
def test_a_french_or_german_story_finds_the_ruling_on_its_combination(language: str, query: str, expected: str) -> None:
    assert top(query, language) == expected, query


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        # the box's English names said in a German question: "Pass Me By" is the Pass, "Hand in & Re-deal" the Re-deal
        ("de", "Pass Me By oder eine echte Null, ist das bei der Bombe dasselbe?", "bomb-wild-zero"),
        ("de", "Hand in & Re-deal: wer mischt, und bei wem fängt das Austeilen an?", "redeal-order"),
    ],
)
def test_the_cards_english_names_read_as_the_cards(language: str, query: str, expected: str) -> None:
    assert top(query, language) == expected, query


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        # the number of players said with "only" ("nous ne sommes que deux", "nur noch zwei von uns übrig")
        ("fr", "nous ne sommes que deux avec ma sœur, la carte saute fait quoi ?", "skip-two-players"),
        ("de", "nur noch zwei von uns übrig: was macht der Richtungswechsel?", "reverse-two-players"),
        # sides said rather than named: the team game
        ("de", "können wir mehrere gegen mehrere spielen?", "teams"),
        ("fr", "Peut-on jouer couple contre couple ?", "teams"),
        ("fr", "est-ce qu'on peut jouer par paires ?", "teams"),
    ],
)
def test_the_kind_of_game_said_in_other_words(language: str, query: str, expected: str) -> None:
    assert top(query, language) == expected, query


@pytest.mark.parametrize(
    ("language", "text", "card"),
    [
        ("fr", "le Hand in & Re-deal", "redeal"),
        ("de", "Hand in and Re-deal", "redeal"),
        ("fr", "un Draw 2", "draw2"),
        ("de", "ein Draw 1", "draw1"),
    ],
)
def test_an_english_card_name_is_the_card(language: str, text: str, card: str) -> None:
    assert card in Reader(language).terms(text)


def test_the_story_words_name_concepts_of_the_table() -> None:
    # A concept misspelt in a language's words would never be read.
    for language, words in STORY_WORDS.items():
        assert set(words) <= set(_CONCEPT_WORDS), language


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_story_readings_leave_the_words_matched_alone(language: str) -> None:
    # The story table's concepts are read for the table only: the words the rulebook is matched on stay the same.
    index = default_index(language)
    query = "ma dernière carte était une bombe" if language == "fr" else "meine letzte Karte war eine Bombe"
    assert "lastbomb" not in index.query_tokens(query)
    assert "lastbomb" in index.reader.query_terms(query, None, stories=True)


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        ("fr", "on voudrait un jeu moins long, c'est possible ?", "sudden-death"),
        ("de", "können wir das Spiel irgendwie kürzer machen", "sudden-death"),
        ("fr", "j'ai gardé mon 5 pour plus tard et j'ai perdu une vie, c'est permis ?", "bust-on-purpose"),
        ("de", "ich will meine 4 für später aufheben und verliere lieber ein Leben, geht das?", "bust-on-purpose"),
    ],
)
def test_a_shorter_game_and_a_life_taken_by_choice_in_other_words(language: str, query: str, expected: str) -> None:
    assert top(query, language) == expected


def test_a_turn_said_not_ones_own_asks_when_a_wild_card_may_be_played() -> None:
    # "pas mon tour" asks the Wild cards rule; a card put down during another player's turn is the out-of-turn ruling
    assert top("une carte action, je peux la jouer quand c'est pas mon tour ?", "fr") == "wild-cards"
    assert top("il a posé un saute pendant le tour de sa sœur, c'est permis ?", "fr") == "out-of-turn"


def test_passe_ton_tour_is_the_skip_and_la_carte_passe_the_pass() -> None:
    # The French name of the Skip tells the next player to miss a turn; "passer mon tour" and "la carte passe" are
    # the Pass
    assert top("la carte passe ton tour, elle fait quoi ?", "fr") == "skip"
    assert top("j'ai la carte passe, elle sert à quoi ?", "fr") == "pass-me-by"


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        # Austrian and Bavarian endings without their -e- ("Kartn", "Spü" aside) read as the standard word
        ("de", "wia vü Kartn san im Spü insgesamt?", "deck"),
        # sides named as parties, not as teams
        ("de", "wir sind sechs und wollen in 2 Parteien spielen, wie geht das", "teams"),
        # the Reverse described by its arrows
        ("de", "die Pfeilkarte bei nur zwei Spielern", "reverse-two-players"),
        ("fr", "a deux joueurs la carte aux fleches fait quoi", "reverse-two-players"),
    ],
)
def test_regional_endings_parties_and_the_arrows_card(language: str, query: str, expected: str) -> None:
    assert top(query, language) == expected


def test_a_hyphenated_equals_card_is_the_card() -> None:
    assert "eq21" in Reader("de").terms("die Gleich-21-Kartn")
    assert "karten" in Reader("de").concepts("die Kartn")


def test_a_0_as_the_only_card_left_is_a_last_0() -> None:
    query = "il a posé la bombe, je n'avais qu'un zéro, je l'ai donné, le bombardeur dit que ça ne compte pas"
    assert top(query, "fr") == "zero-answer-last-card"
    assert "lastzero" in Reader("de").terms("ich hab nur noch eine Null", stories=True)


def test_no_card_that_fits_is_not_an_empty_hand() -> None:
    # "plus de carte jouable" is a hand with nothing that fits (a bust), not a hand emptied (going out)
    assert top("elle n'a plus de carte jouable sans dépasser 21, que se passe-t-il ?", "fr") == "bust"
    assert top("ich habe keine Karte mehr, die passt, ohne über 21 zu kommen, was nun?", "de") == "bust"


def test_a_total_past_21_said_in_words_is_one_number() -> None:
    # "vingt-huit", "achtundzwanzig": what a total becomes past 21, not a 20 and an 8
    assert Reader("fr").terms("vingt huit ou dix") == ["28", "10"]
    assert Reader("de").terms("achtundzwanzig oder zehn") == ["28", "10"]


def test_hands_said_not_equal_are_uneven_hands() -> None:
    # "pas égales" is the opposite of the =cards' "égal"
    assert top("redistribution : et si les mains sont pas égales après ?", "fr") == "redeal-unequal-hands"


def test_a_bomb_that_takes_every_last_life_wins_the_game() -> None:
    # "nur noch einem Leben" is a last life, "hab ich gewonnen" a win
    query = "Meine Bombe, die anderen zwei hatten nur noch einem Leben und keine Null, hab ich jetzt gewonnen?"
    assert top(query, "de") == "bomb-eliminates-all"
    assert "lastlife" in Reader("de").terms("er dreht seine letzte ALIVE-Karte um", stories=True)
