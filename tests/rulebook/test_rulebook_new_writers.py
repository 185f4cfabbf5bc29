"""The rules search reads writers it was not tuned on: a card told by its picture or its effect, a formal or a
dictated question, a real word that is no typo.

Every phrasing here is this file's own, not a development set's: each checks a way of reading, not one question.
"""

from __future__ import annotations

import pytest

from referee.rulebook import search
from referee.rulebook.descriptions import described_card, name_described_cards
from referee.rulebook.search import default_index
from referee.rulebook.text import terms


def top(query: str, count: int = 1) -> list[str]:
    return [result.id for result in search(query)[:count]]


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("the card with a little hand on it that stops the next player", "the skip card the next player"),
        ("the card that makes the person after you pick up 2 more", "the +2 card more"),
        ("the card with the black bomb and a fuse", "the bomb card"),
        ("the card that collects everyone's hands", "the redeal card"),
        ("the card with the equals sign and 21 on it", "the =21 card on it"),
        ("the one that lets you off your turn", "the pass me by card your turn"),
        # a description ends with its clause: the rest of the question stays
        ("when the card showing a raised hand is played, who is next", "when the skip card is played, who is next"),
        ("the card with the equals sign and 10 whenever you like", "the =10 card whenever you like"),
    ],
)
def test_a_card_described_by_its_picture_or_its_effect_is_named(said: str, meant: str) -> None:
    assert name_described_cards(said).split() == meant.split()


@pytest.mark.parametrize(
    "said",
    [
        "the card that was played last",  # nothing a card shows or does
        "the one that played the bomb",  # a person, the bomber
        "the card with a hand held up and a bomb on it",  # two cards as much as each other: no guess
    ],
)
def test_a_description_that_names_no_one_card_stays(said: str) -> None:
    assert name_described_cards(said) == said


def test_the_card_with_the_most_of_its_cues_is_the_one_described() -> None:
    description = " a hand held up so the next player misses their turn"
    assert described_card(description) == ("skip", len(description))
    assert described_card(" a picture on it") is None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what happens when someone lays the card with the little raised hand and there are only two of us", "skip"),
        ("the card that gathers all our hands in came out as her last card, does the round end", "redeal-last-card"),
        ("can i put down the card that makes the next player pick up two when the total is 21", "wild-at-21"),
    ],
)
def test_a_described_card_finds_the_card_and_the_case(query: str, expected: str) -> None:
    assert expected in top(query, 2)


def test_the_described_words_are_not_fixed_into_others_first() -> None:
    # The typo fixer runs first and knows the cues' words: "black" is not "back", "fuse" not "use".
    assert default_index().speller.fix("the card with the black bomb and a fuse") == (
        "the card with the black bomb and a fuse"
    )


def test_a_players_own_turn_is_not_out_of_turn() -> None:
    # "on his turn", "on their turn" is the player's own turn far more often than someone else's; "on someone else's
    # turn" and "not his turn" still say out of turn.
    assert "outofturn" not in terms("can anyone lose a life on their turn", query=True)
    assert "outofturn" not in terms("he went over on his turn", query=True)
    assert "outofturn" in terms("he played on someone elses turn", query=True)
    assert "outofturn" in terms("it was not his turn", query=True)


def test_the_total_going_back_to_zero_is_no_0_card() -> None:
    # "the total goes back to 0" speaks of the total, not of a 0 card (which a player holding one cannot bust with).
    assert "0" not in terms("does the total go back to zero", query=True)
    assert top("so after somebody goes over 21 and flips a life what is the total, does it go back to zero", 2)[0] in {
        "after-bust",
        "running-total",
    }


def test_keeping_hold_of_the_card_after_a_bust() -> None:
    assert "keepcard" in terms("i could not play, do i keep hold of it?", query=True)
    # a bare "keep it" is as often a wild card saved
    assert "keepcard" not in terms("i have a reverse but i want to take the hit and keep it", query=True)


def test_a_word_that_only_looks_like_a_rule_word_is_not_one() -> None:
    # "quite" is not "quit" (leaving the game) with its e taken off
    assert "quit" not in terms("is that quite right", query=True)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # who plays with whom: teams
        ("can we play husbands against wives", "teams"),
        # the total said as the British "tally"
        ("what tally can nobody go bust at", "no-bust-at-14"),
        # a game that ends sooner: Sudden Death
        ("the games take ages, can we finish sooner", "sudden-death"),
        ("our games last too long for the kids", "sudden-death"),
        # someone away from the table for a while
        ("the turn order when grandma nipped out to the loo", "player-leaves"),
        ("my wife had to take a call halfway through, what happens to her go", "player-leaves"),
        # every life gone, told by the count of the cards turned over
        ("she has all her five gone, can she keep playing her cards", "elimination"),
        ("all my 5 are turned, am i done", "elimination"),
        # a number of lives, or a number card, that the game does not have; the lives by their colours
        ("we each got 4 hearts, is that the normal number", "lives"),
        ("how many coloured cards does each of us get", "lives"),
        ("my nephew played a 9 on 10, is that ok", "number-cards"),
        ("he says he has an 8, how much is it worth", "number-cards"),
    ],
)
def test_a_thing_said_in_words_the_rulebook_never_uses_finds_its_rule(query: str, expected: str) -> None:
    assert top(query) == [expected]


def test_going_out_is_not_leaving_and_lives_left_are_no_count_of_lives() -> None:
    # "went out" is the last card played, not a player who popped out; "3 lives left" is a state, not a starting count
    assert top("went out on a skip, does the skip still count") == ["last-card-wild-effect"]
    assert "many" not in terms("we both have 3 lives left who wins", query=True)


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # a family word is nobody's rule: "father-in-law" is not "low", "great-granddaughter" not "treat"
        ("my father-in-law and my great-granddaughter", set()),
        # "went over" is over 21: a bust told without the number
        ("she went over on her turn", {"over", "21"}),
        # "12 or lower" is a total at most 12, not a card that lowers the total
        ("can you bust if the total is 12 or lower", {"less"}),
        # cutting in on someone else's turn
        ("can i interrupt with a skip", {"outofturn"}),
        ("she butted in with a reverse", {"outofturn"}),
        # a 0 that is the last card, said either way round
        ("the bomb came and this zero was my last card", {"lastzero"}),
        # out of the game, not out of cards
        ("am i finished altogether", {"eliminate"}),
        ("so that is me done for then", {"eliminate"}),
        # a life turned over, however the cards are counted
        ("i turned over another of my alive cards", {"lose", "life"}),
    ],
)
def test_a_phrase_is_read_for_what_it_says_in_this_game(said: str, read: set[str]) -> None:
    found = set(default_index().query_tokens(said))
    assert read <= found, found
    if not read:
        assert not found & {"low", "treat", "lower"}, found


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("with the total at 13 or lower, can a player lose a life on their turn", "no-bust-at-14"),
        ("my daughter went over and that was her last heart, who plays next", "eliminated-by-own-bust"),
    ],
)
def test_a_phrase_read_for_this_game_finds_its_rule(query: str, expected: str) -> None:
    assert top(query) == [expected]


def test_a_paragraphs_many_words_do_not_hand_the_posterior_to_one_entry() -> None:
    # The naive Bayes posterior of a paragraph's thirty terms went all to one entry (The running total, for its
    # "total" words) and outweighed the story; a long question's posterior is now softened in proportion to its length.
    paragraph = (
        "It was my turn with the total at 19. I played a Pass Me By, and my brother says that counts as a 0 so the "
        "total goes back to nothing. I say it stays at 19. Which of us has read the rules properly?"
    )
    assert top(paragraph) == ["bomb-wild-zero"]


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("he picks up too cards", {"draw2"}),  # "two", as a phone hears it
        ("is plus to allowed at 21, plus to", {"draw2"}),
        ("flip one of my a live cards", {"life"}),  # ALIVE, dictated as two words
        ("the zeros dont do anyfing", {"0"}),  # "anything", said with an f for "th"
    ],
)
def test_dictated_and_spoken_spellings_are_read(said: str, read: set[str]) -> None:
    found = set(default_index().query_tokens(said))
    assert read <= found, found
    assert "anyf" not in found and "too" not in found and "live" not in found


def test_a_spoken_th_is_tried_only_when_no_typo_fits() -> None:
    # "ofer" is a slip for "over" (f and v sound alike), not "other" with a "th"
    assert default_index().speller.fix("ofer 21 with nuffing") == "over 21 with nuffing"
    assert default_index().speller.fix("they dont do anyfing wiv it") == "they dont do anything with it"


def test_a_card_flipped_after_going_over_is_no_card_played() -> None:
    # "flips a card" after going over is a life lost: the story of a card laid over 21 (the over-21 rule) needs a card
    # played or a number, not the word "card", so the question about what comes after a bust finds its ruling.
    assert top("after he goes over 21 and flips a card, who goes and what is the total") == ["after-bust"]
