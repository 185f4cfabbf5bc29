"""Rulings where what the app said and what it did could differ, each under every reading of its switch."""

from __future__ import annotations

import pytest

from referee.engine import CLOCKWISE, COUNTERCLOCKWISE, Status

from .conftest import Table

FOUR = "Ann Bob Cy Dee"
SIX = "Ann Bob Cy Dee Eve Fay"


# --- 1. A 0 that empties a hand on a Bomb --------------------------------------------------------------


def test_a_last_0_on_a_bomb_ends_the_round_and_the_bomber_pays_like_everyone_holding_cards() -> None:
    # 1994 rules: everyone still holding cards when a player gets rid of their last card flips one;
    # the bomber still holds cards, so the bomber loses a life too (zero_answer_last_card=goes_out).
    t = Table(FOUR).set_hand("Cy", 1).do("Ann bomb Bob Cy")
    assert t.lives() == {"Ann": 4, "Bob": 4, "Cy": 5, "Dee": 3}
    assert (t.round, t.dealer, t.turn) == (2, "Cy", "Dee")
    # Every life lost names its cause, and Dee's two lives are told apart.
    assert "Dee: no 0 (−1), round over (−1): 3 lives left." in t.line
    assert "Ann: round over (−1): 4 lives left." in t.line
    assert "Bob: round over (−1): 4 lives left." in t.line
    assert "That 0 was Cy's last card, so Cy has gone out. Cy has no cards left: round over." in t.line


def test_a_last_0_on_a_bomb_under_draws_one_costs_the_bomber_nothing() -> None:
    # interpretation (zero_answer_last_card=draws_one): answering is not a turn; Cy draws and plays on.
    t = Table(FOUR, zero_answer_last_card="draws_one").set_hand("Cy", 1).do("Ann bomb Bob Cy")
    assert t.lives() == {"Ann": 5, "Bob": 5, "Cy": 5, "Dee": 4}
    assert (t.round, t.hand("Cy"), t.turn) == (1, 1, "Bob")
    assert "Dee loses a life (4 lives left)." in t.line  # one cause: the plain sentence


def test_two_players_who_empty_their_hands_on_one_bomb_are_both_named_and_the_round_ends_once() -> None:
    t = Table(FOUR).set_hand("Bob", 1).set_hand("Cy", 1).do("Ann bomb Bob Cy")
    assert t.lives() == {"Ann": 4, "Bob": 5, "Cy": 5, "Dee": 3}
    assert (t.round, t.dealer) == (2, "Bob")
    assert "Those 0s were the last cards of Bob and Cy, so they have all gone out." in t.line
    assert "Bob and Cy have no cards left: round over (once)." in t.line


# --- 2. Teams: one Bomb takes both teams to 0 -------------------------------------------------------------


def both_teams_on_one_life(**house_rules: str) -> Table:
    """Five players (Team A: Ann, Cy, Eve; Team B: Bob, Dee), both teams on one life, Eve to play.

    With five, Eve and Ann are teammates side by side, so the first player Eve's Bomb charges is her own
    teammate: turn order and "the bomber's team wins" give different winners.
    """
    t = Table("Ann Bob Cy Dee Eve", "teams", **house_rules)
    t.lose_life("Ann", 4).lose_life("Bob", 4)
    assert [team.lives for team in t.state.teams] == [1, 1]
    return t.to_turn("Eve")


def test_teams_both_out_together_is_settled_like_a_sudden_death_tie() -> None:
    t = both_teams_on_one_life()
    t.do("Eve bomb")
    # Every team's loss is in the log: nobody is spared because their team "already lost".
    assert "No 0 from Ann, Bob, Cy and Dee." in t.line
    # Each team's loss said once, and no more lives than it had ("loses 2 lives" from 1 reads as a wrong sum).
    assert "Team A loses a life (0 lives left). Team B loses a life (0 lives left)." in t.line
    assert "both teams are out at once, so a tie-break decides" in t.line
    assert "Sudden Death" not in t.line  # a team game: nothing here is about Sudden Death
    assert t.status is Status.TIEBREAK and [team.lives for team in t.state.teams] == [0, 0]
    # The tie-break adds up each team's hands: Team A 1 + 2 + 1 = 4, Team B 3 + 2 = 5, lower wins.
    t.do("tiebreak Ann=1 Bob=3 Cy=2 Dee=2 Eve=1")
    assert t.winners == ("Team A",)
    t2 = both_teams_on_one_life().do("Eve bomb", "tiebreak Ann=4 Bob=3 Cy=2 Dee=2 Eve=1")
    assert t2.winners == ("Team B",)


def test_teams_both_out_with_equal_tiebreak_totals_is_a_shared_win_naming_both_teams() -> None:
    # Team A 1 + 2 + 2 = 5, Team B 3 + 2 = 5: tied, and by default the tied share the win.
    t = both_teams_on_one_life().do("Eve bomb", "tiebreak Ann=1 Bob=3 Cy=2 Dee=2 Eve=2")
    assert (t.status, t.winners) == (Status.FINISHED, ("Team A", "Team B"))
    assert t.line.endswith("Team A (Ann, Cy and Eve) and Team B (Bob and Dee) share the win!")


def test_teams_both_out_bomber_team_wins_and_keeps_its_last_life() -> None:
    t = both_teams_on_one_life(teams_both_out="bomber_team").do("Eve bomb")
    assert (t.status, t.winners) == (Status.FINISHED, ("Team A",))
    # The other team's lives are taken first and the game ends there: the winners are not shown with none.
    assert [team.lives for team in t.state.teams] == [1, 0]
    assert "Team B loses a life (0 lives left)." in t.line
    assert "Team A loses" not in t.line
    assert "at this table the bomber's team (Team A) wins, so its own lives are not taken" in t.line
    assert t.line.endswith("Team A (Ann, Cy and Eve) wins!")


def test_teams_both_out_turn_order_lets_the_first_team_charged_lose_and_stops_there() -> None:
    # Eve's Bomb charges Ann (Team A) first, so Team A reaches 0 first and Team B wins, keeping its last life.
    t = both_teams_on_one_life(teams_both_out="turn_order").do("Eve bomb")
    assert (t.status, t.winners) == (Status.FINISHED, ("Team B",))
    assert [team.lives for team in t.state.teams] == [0, 1]
    assert "Team B loses" not in t.line
    assert "lives are taken in turn order, and Ann's took Team A's last life first, so Team A loses" in t.line
    assert t.line.endswith("Team B (Bob and Dee) wins!")


def test_a_team_out_alone_is_not_told_as_both_teams_out() -> None:
    # Team B has two lives: Eve's Bomb costs it one and Team A its last; nothing was spared, nothing to explain.
    for reading in ("turn_order", "bomber_team", "together"):
        t = Table("Ann Bob Cy Dee Eve", "teams", teams_both_out=reading)
        t.lose_life("Ann", 4).lose_life("Bob", 3)
        t.to_turn("Eve").do("Eve bomb Bob")
        assert (t.status, t.winners) == (Status.FINISHED, ("Team B",)), reading
        assert "both teams" not in t.line, reading


# --- A Bomb that ends the round: its lives and the round end's are one event ----------------------------------


def test_sudden_death_a_bomb_as_last_card_charges_the_round_end_before_anyone_wins() -> None:
    # Ann 2, Bob 1, Cy 3 lives. Ann's last card is a Bomb: Cy answers, Bob has no 0 (out), and the round end
    # costs Cy a life too, so Ann and Cy are tied on 2: a tie-break, not "Cy wins!".
    t = Table("Ann Bob Cy", "sudden_death").lose_life("Ann", 3).lose_life("Bob", 4)
    assert t.lives() == {"Ann": 2, "Bob": 1, "Cy": 5}
    t.lose_life("Cy", 2)
    t.to_turn("Ann").set_hand("Ann", 1).do("Ann bomb Cy")
    assert t.lives() == {"Ann": 2, "Bob": 0, "Cy": 2}
    assert t.status is Status.TIEBREAK and set(t.state.tied) == {0, 2}
    assert "it was Ann's last card: now the round ends. Ann has no cards left: round over." in t.line
    assert "Bob: no 0 (−1)" in t.line and "Cy: round over (−1)" in t.line
    assert "Sudden Death tie: Ann and Cy add up" in t.line
    # Ann's hand is empty, so it counts 0: Cy must hold nothing at all to share it.
    t.do("tiebreak Cy=4")
    assert t.winners == ("Ann",)


def test_sudden_death_a_zero_that_empties_a_hand_on_a_bomb_charges_the_bomber_with_the_others() -> None:
    # Ann 3, Bob 2, Cy 1. Bob answers Ann's Bomb with his last card; Cy has no 0 and is out; Bob has gone out,
    # so Ann (still holding cards) loses a life in the same event: Ann and Bob tied on 2.
    t = Table("Ann Bob Cy", "sudden_death").lose_life("Ann", 2).lose_life("Bob", 3).lose_life("Cy", 4)
    assert t.lives() == {"Ann": 3, "Bob": 2, "Cy": 1}
    t.to_turn("Ann").set_hand("Bob", 1).do("Ann bomb Bob")
    assert t.lives() == {"Ann": 2, "Bob": 2, "Cy": 0}
    assert t.status is Status.TIEBREAK
    assert "That 0 was Bob's last card, so Bob has gone out." in t.line
    assert t.line.index("That 0 was Bob's last card") < t.line.index("Cy is out of the game")


def test_teams_a_bomb_as_last_card_that_empties_both_teams_with_the_round_end_is_a_tie() -> None:
    # Four players (Team A: Ann, Cy; Team B: Bob, Dee); Team A 1 life, Team B 2. Ann's last card is a Bomb; only
    # Dee answers. Cy's missing 0 costs Team A its last life, Bob's costs Team B one, and Ann going out costs
    # Team B its last: both teams out at once, settled by the tie-break (the default reading).
    t = Table("Ann Bob Cy Dee", "teams").lose_life("Ann", 4).lose_life("Bob", 3)
    assert [team.lives for team in t.state.teams] == [1, 2]
    t.to_turn("Ann").set_hand("Ann", 1).do("Ann bomb Dee")
    assert [team.lives for team in t.state.teams] == [0, 0]
    assert "Team B: no 0 (Bob) (−1), round over (−1): 0 lives left. Team A: no 0 (Cy) (−1): 0 lives left." in t.line
    assert t.status is Status.TIEBREAK
    assert "both teams are out at once, so a tie-break decides" in t.line


def test_standard_a_bomb_that_ends_the_game_says_nothing_of_two_players_left() -> None:
    # Ann 5, Bob 1, Cy 1: Ann's last card is a Bomb, Cy answers, Bob has no 0, the round end costs Cy his last.
    t = Table("Ann Bob Cy").lose_life("Bob", 4).lose_life("Cy", 4)
    t.to_turn("Ann").set_hand("Ann", 1).do("Ann bomb Cy")
    assert (t.status, t.winners) == (Status.FINISHED, ("Ann",))
    assert "Two players left" not in t.line
    # Every life before anyone is out: "Bob is out" never comes before the life that put him out.
    assert t.line.index("Bob: no 0 (−1)") < t.line.index("Bob is out of the game")


# --- 3. The reshuffle fallback leaves the last players short ----------------------------------------------


def test_reshuffle_that_cannot_cover_a_draw_2_leaves_the_last_in_turn_order_short() -> None:
    # 6 players: 17 cards to draw from. Ann's Draw 2 takes 10; Bob's needs 10 more but only 7 are left,
    # and the discard pile under its top card gives 1 more. Cy, Dee, Eve and Fay draw first: Ann goes short.
    t = Table(SIX).do("Ann draw2", "Bob draw2")
    assert t.hands() == {"Ann": 9, "Bob": 11, "Cy": 14, "Dee": 14, "Eve": 14, "Fay": 14}
    assert t.line == (
        "Bob played Draw 2. Cy, Dee, Eve and Fay draw 2; Ann gets none. "
        "The draw pile ran out, so the discard pile except its top card was turned over as the new draw pile "
        "(1 card). Then nothing was left to draw: the discard pile was down to its top card. Cy's turn."
    )


def test_stop_reading_leaves_the_short_players_short_straight_away() -> None:
    t = Table(SIX, empty_draw_pile="stop").do("Ann draw2", "Bob draw2")
    assert t.hands() == {"Ann": 9, "Bob": 11, "Cy": 14, "Dee": 14, "Eve": 14, "Fay": 13}
    assert "Cy, Dee and Eve draw 2; Fay draws only 1; Ann gets none." in t.line


# --- 4. Who plays after a Re-deal when play runs counterclockwise -----------------------------------------


@pytest.mark.parametrize(
    ("reading", "next_up", "direction", "after_next"),
    [
        ("continue", "Cy", COUNTERCLOCKWISE, "Bob"),
        ("left", "Ann", COUNTERCLOCKWISE, "Dee"),  # the redealer plays again at once
        ("left_clockwise", "Ann", CLOCKWISE, "Bob"),
    ],
)
def test_after_redeal_readings(reading: str, next_up: str, direction: int, after_next: str) -> None:
    t = Table(FOUR, after_redeal=reading).do("Ann reverse", "Dee redeal")
    assert (t.turn, t.direction) == (next_up, direction)
    t.do(f"{next_up} pass")
    assert t.turn == after_next


def test_left_clockwise_says_play_turns_clockwise() -> None:
    t = Table(FOUR, after_redeal="left_clockwise").do("Ann reverse", "Dee redeal")
    assert "After a deal, play starts on the dealer's left and goes clockwise: Ann." in t.line


def test_left_says_play_starts_on_the_left_and_keeps_going_counterclockwise() -> None:
    t = Table(FOUR, after_redeal="left").do("Ann reverse", "Dee redeal")
    assert "After a deal, play starts on the dealer's left with Ann, and goes on counterclockwise." in t.line


# --- 5. Reverse: the player on your other side, not "the one who went before you" ---------------------------


def test_reverse_after_a_skip_goes_to_the_seat_on_the_other_side() -> None:
    # Ann skips Bob; Cy reverses. The player before Cy was Ann, but play turns to Cy's other side: Bob.
    t = Table(FOUR).do("Ann skip", "Cy reverse")
    assert t.turn == "Bob"


# --- 6. Log and refusal wording -----------------------------------------------------------------------------


def test_a_correction_for_an_eliminated_player_says_they_hold_no_cards() -> None:
    t = Table().lose_life("Cy", 5)
    assert "Cy" in t.out()
    refused = t.refuse("Cy holds 3", "player_out")
    assert refused.message == "Cy is out of the game and holds no cards, so there is nothing to correct."


def test_already_holds_one_card_is_singular() -> None:
    t = Table().do("Ann holds 1")
    assert t.refuse("Ann holds 1", "bad_hand").message == "Ann already holds 1 card."


# --- A tie-break's result says why ------------------------------------------------------------------------


def test_a_tie_break_settled_by_fewest_cards_says_both_totals_were_equal_and_who_held_fewer() -> None:
    t = Table("Ann Bob Cy", "sudden_death", tiebreak_tie="fewest_cards").do("Ann holds 3")
    t.lose_life("Cy", 5)
    t.do("tiebreak Ann=4 Bob=4")
    assert t.winners in {("Ann",), ("Bob",)}
    winner, other = t.winners[0], "Bob" if t.winners == ("Ann",) else "Ann"
    assert f"Ann and Bob both add up to 4; {winner} holds fewer cards ({t.hand(winner)} against {t.hand(other)})." in (
        t.line
    )


def test_a_shared_tie_break_and_a_plain_one_say_no_more_than_they_need() -> None:
    shared = Table("Ann Bob Cy", "sudden_death").lose_life("Cy", 5).do("tiebreak Ann=4 Bob=4")
    assert shared.line == "Tie-break totals: Ann 4, Bob 4. Ann and Bob both add up to 4. Ann and Bob share the win!"
    plain = Table("Ann Bob Cy", "sudden_death").lose_life("Cy", 5).do("tiebreak Ann=4 Bob=7")
    assert plain.line == "Tie-break totals: Ann 4, Bob 7. Ann wins!"


def test_a_team_tie_break_gives_each_teams_sum() -> None:
    t = both_teams_on_one_life().do("Eve bomb", "tiebreak Ann=1 Bob=3 Cy=2 Dee=2 Eve=1")
    assert "Team totals: Team A 4, Team B 5. Team A (Ann, Cy and Eve) wins!" in t.line
    even = both_teams_on_one_life().do("Eve bomb", "tiebreak Ann=1 Bob=3 Cy=2 Dee=2 Eve=2")
    assert "Team totals: Team A 5, Team B 5: equal. Team A (Ann, Cy and Eve) and Team B (Bob and Dee) share" in (
        even.line
    )
