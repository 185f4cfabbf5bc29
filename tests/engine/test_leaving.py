"""A player who gets up and leaves in the middle of a game: out of it, their cards set aside, one Undo away."""

from __future__ import annotations

from referee.engine import DECK_SIZE, HAND_SIZE, Status, key_rule, unusual_rule

from .conftest import Table


def test_a_player_who_leaves_is_out_and_their_cards_go_on_the_discard_pile() -> None:
    t = Table("Ann Bob Cy Dee").do("Ann 3")
    discards = t.discard_pile
    t.do("Cy leaves")
    cy = t.player("Cy")
    assert cy.out and cy.left and cy.hand == 0
    assert cy.lives == 5, "leaving costs no life: it is not a knock-out"
    assert t.discard_pile == discards + HAND_SIZE
    assert (t.turn, t.total) == ("Bob", 3), "someone else leaving does not move the turn or the total"
    assert t.line == "Cy has left the game: their 10 cards go on the discard pile. Bob's turn."
    # The log's line and the "Just now" line link to the rule that says so (each has a "Why?").
    assert key_rule(t.state.events) == unusual_rule(t.state.events) == "player-leaves"


def test_when_the_player_whose_turn_it_is_leaves_the_next_player_goes() -> None:
    t = Table("Ann Bob Cy Dee").do("Ann reverse")  # counterclockwise: Dee's turn
    assert t.turn == "Dee"
    t.do("Dee leaves")
    assert t.turn == "Cy", "the turn passes on in the direction of play"
    assert t.total == 0


def test_the_leaver_is_passed_over_and_dealt_no_cards_in_the_next_round() -> None:
    t = Table("Ann Bob Cy Dee").do("Bob leaves", "Ann 2")
    assert t.turn == "Cy"
    t.go_out("Cy")
    assert t.round == 2
    assert t.hand("Bob") == 0
    assert t.draw_pile == DECK_SIZE - 3 * HAND_SIZE


def test_two_left_after_a_leaver_play_by_the_two_player_rules() -> None:
    t = Table("Ann Bob Cy").do("Cy leaves")
    assert "two_left" in t.events
    assert "Two players left" in t.line
    # What the two who are left need next is how two play: that rule gets the "Why?".
    assert key_rule(t.state.events) == unusual_rule(t.state.events) == "two-players"
    t.do("Ann reverse")
    assert t.turn == "Bob" and "reverse_as_pass" in t.events


def test_the_last_player_at_the_table_wins() -> None:
    t = Table("Ann Bob").do("Ann 4", "Bob leaves")
    assert t.status is Status.FINISHED
    assert t.winners == ("Ann",)
    assert t.line.endswith("Ann wins!")


def test_in_sudden_death_leaving_does_not_end_the_game() -> None:
    # Sudden Death ends when a player loses their last life; someone going home has lost nothing.
    t = Table("Ann Bob Cy", "sudden_death").do("Bob leaves")
    assert t.status is Status.PLAYING
    assert t.turn == "Ann"


def test_a_team_plays_on_without_a_player_who_left_and_loses_when_all_have_left() -> None:
    t = Table("Ann Bob Cy Dee", "teams", [["Ann", "Cy"], ["Bob", "Dee"]]).do("Ann 1", "Bob leaves")
    assert t.status is Status.PLAYING
    assert t.turn == "Cy"
    t.do("Dee leaves")
    assert t.status is Status.FINISHED
    assert t.winners == ("Team A",)


def test_undo_brings_a_leaver_back_with_their_cards() -> None:
    t = Table("Ann Bob Cy").do("Ann 5", "Bob leaves")
    history = t.history.undo()
    state = history.state()
    bob = state.players[1]
    assert not bob.out and not bob.left and bob.hand == HAND_SIZE
    assert state.current_player is not None and state.current_player.name == "Bob"


def test_who_cannot_leave() -> None:
    t = Table("Ann Bob Cy")
    assert "Nobody called Zed" in t.refuse("Zed leaves", "unknown_player").message
    t.do("Cy leaves")
    assert t.refuse("Cy leaves", "player_out").message == "Cy has already left the game."
    assert t.refuse("Cy 3", "player_out").message == "Cy has left the game and can't play."
    assert "has left the game" in t.refuse("Cy holds 3", "player_out").message
    t.do("Bob leaves")
    assert t.refuse("Ann leaves", "game_over").code == "game_over"


def test_a_knocked_out_player_is_already_out() -> None:
    t = Table("Ann Bob Cy").lose_life("Cy", 5)
    assert t.refuse("Cy leaves", "player_out").message == "Cy is already out of the game."


def test_nobody_leaves_during_a_tie_break() -> None:
    t = Table("Ann Bob Cy", "sudden_death").lose_life("Cy", 5)
    assert t.status is Status.TIEBREAK
    t.refuse("Ann leaves", "tiebreak_pending")


def test_sudden_death_is_won_by_a_player_still_in_not_by_one_who_left_with_more_lives() -> None:
    t = Table("Ann Bob Cy Dee", "sudden_death").lose_life("Cy").do("Ann leaves")
    t.lose_life("Bob", 5)  # Bob is out: the game ends; Ann left with 5 lives, Dee is still in with 5
    assert t.status is Status.FINISHED
    assert t.winners == ("Dee",)
