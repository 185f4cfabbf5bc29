"""What an Undo says it took back: the action in a few words and whose turn it is again, never the undone line."""

from __future__ import annotations

from referee.engine import Bust, Card, History, Play, SetHand, make_setup, taken_back


def undo_after(*actions: Play | Bust | SetHand) -> tuple[Play | Bust | SetHand, History]:
    """Record `actions` at a table of Ann, Bob and Cy, then take the last one back."""
    history = History(make_setup(["Ann", "Bob", "Cy"]))
    for action in actions:
        history, _ = history.record(action)
    return actions[-1], history.undo()


def test_an_undone_card_names_the_card_and_who_plays_again_at_what_total() -> None:
    action, history = undo_after(Play("Ann", Card.N7), Play("Bob", Card.N4))
    assert taken_back(action, history.state()) == "Bob's 4. Back to Bob's turn, total 7."


def test_an_undone_cant_play_and_an_undone_hand_fix_are_said_in_words() -> None:
    action, history = undo_after(Play("Ann", Card.N7), Play("Bob", Card.N7), Play("Cy", Card.N1), Bust("Ann"))
    assert taken_back(action, history.state()) == "Ann's “Can't play”. Back to Ann's turn, total 15."
    action, history = undo_after(SetHand("Cy", 1))
    assert taken_back(action, history.state()) == "the fix of Cy's hand to 1 card. Back to Ann's turn, total 0."
