"""The rules search reads families of questions, each as a way of asking rather than one question: a life said lost
at a total too low to bust, a shorter game asked by the time the table has, when a wild card may be played, a card
described, who begins, how many lives, every life lost, who draws, teams, what a card is for, going out.

Every phrasing here is this file's own, written for the family it checks; the ranking before each family's reading
missed it (the expected entry was not first).
"""

from __future__ import annotations

import pytest

from referee.rulebook import search


def top(query: str) -> str:
    return search(query)[0].id


@pytest.mark.parametrize(
    "query",
    [
        "do i lose a life if the count is 13 and i cant go",
        "we are only on nine, why would she lose a heart",
        "Grandma says I lose a life when it gets to 10 and I have nothing small",
    ],
)
def test_a_life_said_lost_at_a_low_total_finds_that_nobody_busts_at_14(query: str) -> None:
    assert top(query) == "no-bust-at-14"


@pytest.mark.parametrize(
    "query",
    [
        "we're in a bit of a hurry tonight, is there a speedy version",
        "we have got about 5 minutes before the bus, can we play a quick one",
        "can we stop without waiting till only one player is left with lives",
        "can we make the game a bit shorter",
        "the game feels very long with six of us",
    ],
)
def test_a_shorter_game_asked_by_the_time_the_table_has_finds_sudden_death(query: str) -> None:
    assert top(query) == "sudden-death"


@pytest.mark.parametrize(
    "query",
    [
        "when am i able to use the skip card",
        "the =0, can i put it down whenever or only when we are close to 21",
        "when should we be allowed to throw the bomb, only on your go?",
        "is a reverse allowed on my first turn",
    ],
)
def test_when_a_wild_card_may_be_played_finds_the_wild_card_rule(query: str) -> None:
    assert top(query) == "wild-cards"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what does the card with a tiny stick man and an arrow over him do", "skip"),
        ("my nan calls it the arrows one, what does it do", "reverse"),
        ("can the card that makes the sum 21 go down first", "equals-21-first-card"),
        ("the card where you all give your cards in and get new ones, what is that called", "redeal"),
    ],
)
def test_a_card_described_by_its_picture_or_what_it_does_finds_its_rule(query: str, expected: str) -> None:
    assert top(query) == expected


@pytest.mark.parametrize(
    "query",
    [
        "Good evening. Which one of us should begin the game?",
        "which of us starts, we have only just opened the box",
        "who is to start, we are all new to this",
    ],
)
def test_who_begins_asked_formally_finds_who_goes_first(query: str) -> None:
    assert top(query) == "first-player"


@pytest.mark.parametrize(
    "query",
    [
        "how many of the alive cards does each of us receive at the beginning",
        "how many of the heart cards is each player given",
        "what number of lives do we each get before we are out",
    ],
)
def test_how_many_lives_each_player_is_given_finds_the_lives_rule(query: str) -> None:
    assert top(query) == "lives"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("grandpa has flipped all five of his cards, may he carry on or must he leave", "elimination"),
        ("she turned over all of her five cards, is she out of the game now", "elimination"),
        ("once i'm knocked out can i keep my cards", "eliminated-player-cards"),
    ],
)
def test_every_life_lost_told_by_the_cards_turned_finds_elimination(query: str, expected: str) -> None:
    assert top(query) == expected


@pytest.mark.parametrize(
    "query",
    [
        "when someone plays a +2 do we all pick up or only the next player?",
        "is the plus two for everybody, or is it only the next one who draws",
        "my uncle says the plus 2 only makes the next player pick up, is that right",
        "does a draw 1 only hit the next person",
    ],
)
def test_everyone_or_only_the_next_player_on_a_draw_card_finds_the_draw_rule(query: str) -> None:
    assert top(query) == "draw-cards"


@pytest.mark.parametrize(
    "query",
    [
        "the boys and grandad against mum and the girls, how does that work",
        "grandma and me against the twins and dad, how do we play that",
        "we are six, could we go three versus three",
    ],
)
def test_teams_told_by_who_plays_against_whom_find_the_team_game(query: str) -> None:
    assert top(query) == "teams"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what is the point of a pass me by", "pass-me-by"),
        ("my redeal card seems to do nothing, what is it for", "redeal"),
        ("the skip seems to do nothing at all, what is it for", "skip"),
    ],
)
def test_what_a_card_is_for_finds_its_own_rule(query: str, expected: str) -> None:
    assert top(query) == expected


def test_a_player_who_can_do_nothing_is_not_asking_what_a_card_is_for() -> None:
    assert top("i can't do anything, i only have big numbers") == "only-high-cards"


@pytest.mark.parametrize(
    "query",
    [
        "Good evening. One of the children has used every single card in his hand. What now for the rest of us?",
        "one of the kids has played all of her cards, what happens to the rest of us",
    ],
)
def test_going_out_said_as_every_card_used_up_finds_going_out(query: str) -> None:
    assert top(query) == "last-card"


def test_whether_the_player_of_a_redeal_gets_a_new_hand_too_finds_the_redeal_rule() -> None:
    assert top("when you play the hand in card do you hand yours in too") == "redeal"


@pytest.mark.parametrize(
    "query",
    [
        "equals 21 card can i use it when i want",
        "can i put the =10 down on 5",
    ],
)
def test_a_question_naming_only_an_equals_card_finds_the_equals_cards_rule(query: str) -> None:
    # The card's name alone is not the case of one of its rulings (=10 lowering the total, =21 as a round's first card)
    assert top(query) == "equals-cards"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "saving my 6 for later i said i was bust, flipped a heart and the total went back to 0, then who goes",
            "bust-on-purpose",
        ),
        ("can someone turn a heart over of their own accord when they could still go", "bust-on-purpose"),
    ],
)
def test_a_life_taken_by_choice_finds_busting_on_purpose(query: str, expected: str) -> None:
    assert top(query) == expected


def test_a_last_0_given_to_a_bomb_finds_its_ruling_whatever_the_bomber_says() -> None:
    query = "the bomber says i cannot go out on his bomb, but my only card was a 0 and i threw it in"
    assert top(query) == "zero-answer-last-card"


def test_one_of_a_players_hearts_is_no_number_1() -> None:
    # "one of her hearts" is a life of hers, not One life each's "1 life"
    assert top("one of her hearts is now a skull, what happened") == "lives"


def test_losing_the_card_after_going_over_asks_whether_it_is_kept() -> None:
    query = "when you cant go without going over, do you lose the card as well as a life"
    assert top(query) == "bust-keeps-card"
