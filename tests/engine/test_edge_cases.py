"""Whole-sequence scenarios for the 52 numbered edge cases of RULES-NOTES.md (test_edge_NN_…)."""

from __future__ import annotations

import pytest

from referee.engine import CLOCKWISE, COUNTERCLOCKWISE, Card, InvalidSetup, Status, make_setup, new_game

from .conftest import Table

FOUR = "Ann Bob Cy Dee"


def numbers_that_fit(t: Table) -> set[str]:
    return {value for value in t.allowed() if value.isdigit()}


# 1–9: =21, exactly 21 and busting -------------------------------------------------------------


def test_edge_01_eq21_as_the_first_card_of_a_round() -> None:
    # how-to FAQ author: "I see no reason why you couldn't play it as the first card."
    t = Table().do("Ann eq21")
    assert (t.total, t.turn, t.round) == (21, "Bob", 1)
    assert t.line == "Ann played =21: total 21. Bob's turn."
    assert numbers_that_fit(t) == {"0"}
    assert t.legal().can_bust
    # The first card of a later round too.
    t.go_out("Cy").do("Ann eq21")
    assert (t.round, t.total, t.turn) == (2, 21, "Bob")


def test_edge_02_eq21_when_the_total_is_already_21() -> None:
    # 1994 rules: "=21 ... Can be played when the score is already 21, when it has no effect, but avoids a penalty."
    t = Table().do("Ann 7", "Bob 7", "Cy 7", "Ann eq21")
    assert (t.total, t.turn) == (21, "Bob")
    assert t.lives() == {"Ann": 5, "Bob": 5, "Cy": 5}
    assert t.hand("Ann") == 8


def test_edge_03_a_number_that_makes_exactly_21() -> None:
    # how-to: "you don't want the total to go past 21" — reaching 21 exactly is fine.
    t = Table().do("Ann 7", "Bob 7", "Cy 4")
    assert "3" in t.allowed() and "4" not in t.allowed()
    t.do("Ann 3")
    assert (t.total, t.turn) == (21, "Bob")
    assert t.lives() == {"Ann": 5, "Bob": 5, "Cy": 5}
    assert t.events == ["played"]


def test_edge_04_a_player_holding_a_0_can_never_bust() -> None:
    # RULES-NOTES: "A 0 always fits, so a player holding a 0 can never bust"; the referee always offers the 0.
    t = Table().do("Ann eq21")
    option = next(option for option in t.legal().cards if option.card is Card.N0)
    assert option.allowed and not option.busts
    t.do("Bob 0")
    assert (t.total, t.turn, t.life("Bob")) == (21, "Cy", 5)
    # Even where an over-21 card counts as a bust, the 0 does not.
    t = Table(over_21="bust").do("Ann eq21", "Bob 0")
    assert (t.total, t.life("Bob"), t.hand("Bob")) == (21, 5, 9)


def test_edge_05_voluntary_bust_while_holding_a_playable_card() -> None:
    # 1994 rules: you do not play a number that goes above 21 (refused). The referee cannot see hands, so it
    # takes "Can't play" on trust once a bust is possible (interpretation).
    t = Table().do("Ann 7", "Bob 7", "Cy 1")
    assert t.refuse("Ann 7", "does_not_fit").message == "That 7 makes 22: play another card, or tap Can't play."
    t.do("Ann bust")
    assert (t.life("Ann"), t.total, t.turn) == (4, 0, "Bob")
    # modern text: "If you play a card that takes the total over 21, you lose one of your Lives!" — so the
    # over_21=bust table may lay the 7 on purpose.
    t = Table(over_21="bust").do("Ann 7", "Bob 7", "Cy 1", "Ann 7")
    assert (t.life("Ann"), t.hand("Ann"), t.total, t.turn) == (4, 9, 0, "Bob")


def test_edge_06_wild_cards_stay_playable_when_a_bust_is_possible() -> None:
    # how-to: you only skip playing "if the only cards in your hand are number cards" that go over 21; the
    # referee offers every wild card next to "Can't play" and trusts the player (interpretation).
    t = Table().do("Ann 7", "Bob 7", "Cy 7")
    wilds = {card.value for card in Card if not card.is_number}
    assert wilds <= t.allowed()
    assert numbers_that_fit(t) == {"0"}
    assert t.legal().can_bust
    t.do("Ann skip")
    assert (t.total, t.turn) == (21, "Cy")


def test_edge_07_after_a_bust_the_total_is_0_and_the_next_player_goes() -> None:
    # 1994 rules: "The running total is reset to 0, and the next player starts play again."
    t = Table(FOUR).do("Ann reverse", "Dee eq21", "Cy bust")
    assert (t.total, t.turn, t.direction) == (0, "Bob", COUNTERCLOCKWISE)
    assert t.lives() == {"Ann": 5, "Bob": 5, "Cy": 4, "Dee": 5}
    assert t.line == "Cy can't play: the total goes back to 0. Cy loses a life (4 lives left). Bob's turn."


def test_edge_08_a_bust_with_the_last_card_is_not_going_out() -> None:
    # how-to FAQ author: "the player wouldn't be able to play their last card ... the other players wouldn't
    # have to turn over one of their Alive cards."
    t = Table().do("Ann eq21").set_hand("Bob", 1).do("Bob bust 5")
    assert (t.round, t.hand("Bob"), t.turn) == (1, 1, "Cy")
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 5}
    # modern text reading: the card is laid, then returned, so Bob still holds it.
    t = Table(over_21="bust").do("Ann eq21").set_hand("Bob", 1).do("Bob 5")
    assert (t.round, t.hand("Bob"), t.turn, t.total) == (1, 1, "Cy", 0)
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 5}
    assert "went_out" not in t.events


def test_edge_09_the_busting_player_keeps_the_card() -> None:
    # 1994 rules: "you do not play the card"; modern text: "The card is then returned to you."
    for rule in ("refuse", "bust"):
        t = Table(over_21=rule).do("Ann 7", "Bob 7", "Cy 7")
        step = "Ann bust 4" if rule == "refuse" else "Ann 4"
        hand, discards = t.hand("Ann"), t.discard_pile
        t.do(step)
        assert (t.hand("Ann"), t.discard_pile) == (hand, discards)


# 10–12: a wild card as the last card --------------------------------------------------------------


@pytest.mark.parametrize("card", ["skip", "reverse", "pass", "draw1", "draw2", "eq21", "eq10", "eq0"])
def test_edge_10_a_wild_card_as_last_card_ends_the_round_without_its_effect(card: str) -> None:
    # 1994 rules: "If it is your last card, the hand is over. All the other players flip over an ALIVE card."
    # interpretation: the card's own effect does not carry into the new round.
    t = Table(FOUR, new_round_direction="keep").do("Ann 5").set_hand("Bob", 1).do(f"Bob {card}")
    assert t.lives() == {"Ann": 4, "Bob": 5, "Cy": 4, "Dee": 4}
    assert (t.round, t.dealer, t.turn, t.direction, t.total) == (2, "Bob", "Cy", CLOCKWISE, 0)
    assert t.hands() == dict.fromkeys(FOUR.split(), 10)
    assert t.draw_pile == 37
    assert "drew" not in t.events and "skipped" not in t.events and "reversed" not in t.events
    assert "It was the last card, so its effect does not count." in t.line


def test_edge_11_bomb_as_last_card() -> None:
    # how-to FAQ author (bomb_last_card=both, default): answer the Bomb, then lose a life for the round.
    t = Table(FOUR).set_hand("Ann", 1).do("Ann bomb Bob")
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 3, "Dee": 3}
    assert (t.round, t.dealer, t.turn) == (2, "Ann", "Bob")
    assert "The Bomb was answered, and it was Ann's last card: now the round ends." in t.line
    # Cy and Dee lose a life each for the Bomb and for the round, and the log names both causes.
    assert "Cy: no 0 (−1), round over (−1): 3 lives left. Dee: no 0 (−1), round over (−1): 3 lives left." in t.line
    assert "Bob: round over (−1): 4 lives left." in t.line
    # Nobody had a 0: the log must not say the Bomb was answered.
    t = Table(FOUR).set_hand("Ann", 1).do("Ann bomb")
    assert "Nobody had a 0, and it was Ann's last card: now the round ends." in t.line
    assert "answered" not in t.line
    # interpretation (round_only): nobody answers, everyone else loses exactly one life.
    t = Table(FOUR, bomb_last_card="round_only").set_hand("Ann", 1).do("Ann bomb")
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 4, "Dee": 4}
    assert "At this table a Bomb as last card is not answered." in t.line


def test_edge_12_redeal_as_last_card_ends_the_round_without_a_redeal() -> None:
    # 1994 rules: "If this card is the last card played from a player's hand the round is over."
    t = Table().set_hand("Bob", 20).set_hand("Ann", 1).do("Ann redeal")
    assert "redealt" not in t.events
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 4}
    assert (t.round, t.dealer, t.turn) == (2, "Ann", "Bob")
    assert t.hands() == {"Ann": 10, "Bob": 10, "Cy": 10}


# 13–22: the Bomb ----------------------------------------------------------------------------------


def test_edge_13_one_0_per_bomb() -> None:
    # 1994 rules: "all other players must immediately discard a 0" — one 0 each, not all of them.
    t = Table()
    assert t.refuse("Ann bomb Bob Bob", "bad_zeros").message == "Each player discards one 0 to a Bomb, not more."
    t.do("Ann bomb Bob")
    assert t.hands() == {"Ann": 9, "Bob": 9, "Cy": 10}


def test_edge_14_a_player_not_named_as_discarding_a_0_takes_the_life() -> None:
    # 1994 rules: players "must" discard a 0. interpretation: the referee cannot see hands; whoever the table
    # does not name as discarding a 0 is taken to have none and loses a life.
    t = Table()
    assert t.legal().bomb_answerers == ("Bob", "Cy")
    t.do("Ann bomb Bob")
    assert t.lives() == {"Ann": 5, "Bob": 5, "Cy": 4}
    assert t.hand("Cy") == 10
    assert "No 0 from Cy. Cy loses a life (4 lives left)." in t.line


def test_edge_15_eq0_pass_and_reverse_cannot_answer_a_bomb() -> None:
    # 1994 rules: "Other WILD cards with a value of 0 cannot be substituted." Only a Bomb takes answers, and a
    # player with only =0 / Pass Me By / Reverse is not named, so loses a life and keeps those cards.
    t = Table()
    for step in ("Ann eq0 Bob", "Ann pass Bob", "Ann reverse Bob"):
        assert t.refuse(step, "bad_zeros").message == "Only a Bomb is answered with 0s."
    t.do("Ann bomb")
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 4}
    assert t.hands() == {"Ann": 9, "Bob": 10, "Cy": 10}
    t.do("Bob eq0")  # Bob's =0 is still his to play on his own turn
    assert (t.total, t.turn) == (0, "Cy")


@pytest.mark.parametrize("zeros", ["", "Bob Cy"])
def test_edge_16_the_total_after_a_bomb_is_always_0(zeros: str) -> None:
    # how-to FAQ author: "it automatically resets the running total to zero no matter what players are able to
    # play a 0 card."
    t = Table().do("Ann 7", "Bob 7", "Cy 7", f"Ann bomb {zeros}".strip())
    assert (t.total, t.turn) == (0, "Bob")
    assert t.line.startswith("Ann played Bomb: total 0.")


def test_edge_17_the_player_after_the_bomber_plays_next() -> None:
    # how-to FAQ author: "playing the 0 cards ... does not count as those players turns ... the player after
    # the one who played the Bomb card takes the next turn."
    t = Table(FOUR).do("Ann reverse", "Dee bomb Cy Bob Ann")
    assert (t.turn, t.direction, t.total) == ("Cy", COUNTERCLOCKWISE, 0)
    assert t.hands() == {"Ann": 8, "Bob": 9, "Cy": 9, "Dee": 9}
    assert t.line == "Dee played Bomb: total 0. Cy, Bob and Ann discarded a 0. Cy's turn."


def test_edge_18_the_bomber_does_not_discard_a_0() -> None:
    # 1994 rules: "all other players must immediately discard a 0"; the bomber is not one of them.
    t = Table()
    assert t.refuse("Ann bomb Ann Bob", "bad_zeros").message.startswith("Ann can't answer this Bomb")
    t.do("Ann bomb Bob Cy")
    assert (t.hand("Ann"), t.life("Ann"), t.discard_pile) == (9, 5, 3)


def test_edge_19_a_0_answered_to_a_bomb_empties_a_hand() -> None:
    # 1994 rules (zero_answer_last_card=goes_out, default): "flip ... if you still have a card or cards when a
    # player gets rid of their last card": the answerer has gone out and deals the next round.
    t = Table(FOUR).set_hand("Cy", 1).do("Ann bomb Cy")
    assert t.lives() == {"Ann": 4, "Bob": 3, "Cy": 5, "Dee": 3}
    assert (t.round, t.dealer, t.turn) == (2, "Cy", "Dee")
    assert "That 0 was Cy's last card, so Cy has gone out." in t.line


@pytest.mark.parametrize(("pile", "round_", "cy_hand"), [("reshuffle", 1, 1), ("stop", 2, 10)])
def test_edge_19_draws_one_reading_draws_unless_no_card_can_be_drawn(pile: str, round_: int, cy_hand: int) -> None:
    # interpretation (zero_answer_last_card=draws_one): answering is not a turn, so Cy draws one and plays on;
    # with no card to draw at all she has gone out after all (never stuck with an empty hand).
    t = Table(zero_answer_last_card="draws_one", empty_draw_pile=pile).set_hand("Bob", 57).set_hand("Cy", 1)
    assert t.draw_pile == 0
    t.do("Ann bomb Cy")
    assert (t.round, t.hand("Cy")) == (round_, cy_hand)
    if pile == "reshuffle":
        assert t.turn == "Bob"
        assert "That 0 was Cy's last card: Cy draws one and plays on." in t.line
    else:
        assert t.dealer == "Cy"
        assert t.lives() == {"Ann": 4, "Bob": 3, "Cy": 5}


def test_edge_20_two_answering_players_empty_their_hands_at_once() -> None:
    # interpretation: both have gone out; the round ends once, the first of them after the bomber deals, and
    # only players still holding cards lose a life.
    t = Table(FOUR).set_hand("Bob", 1).set_hand("Dee", 1).do("Ann bomb Bob Dee")
    assert t.lives() == {"Ann": 4, "Bob": 5, "Cy": 3, "Dee": 5}
    assert (t.round, t.dealer, t.turn) == (2, "Bob", "Cy")
    # draws_one reading: each draws one card and play goes on after the bomber.
    t = Table(FOUR, zero_answer_last_card="draws_one").set_hand("Bob", 1).set_hand("Dee", 1)
    pile = t.draw_pile
    t.do("Ann bomb Bob Dee")
    assert (t.round, t.turn, t.hand("Bob"), t.hand("Dee"), t.draw_pile) == (1, "Bob", 1, 1, pile - 2)


def test_edge_21_a_bomb_that_eliminates_everyone_but_the_bomber() -> None:
    # 1994 rules: eliminated at the fifth life lost; "The last player left ... is the winner."
    t = Table()
    for _ in range(4):
        t.go_out("Ann")
    assert t.lives() == {"Ann": 5, "Bob": 1, "Cy": 1}
    t.to_turn("Ann").do("Ann bomb")
    assert t.out() == ["Bob", "Cy"]
    assert (t.status, t.winners, t.turn) == (Status.FINISHED, ("Ann",), None)
    assert t.line.endswith("Bob is out of the game. Cy is out of the game. Ann wins!")
    t.refuse("Ann 3", "game_over")


def test_edge_22_a_team_bomb_hits_the_bombers_teammates_too() -> None:
    # 1994 rules: "all other players"; "your team might flip several ALIVE cards" (bomb_teammates=all_others).
    t = Table(FOUR, "teams")  # Team A: Ann, Cy; Team B: Bob, Dee
    assert t.legal().bomb_answerers == ("Bob", "Cy", "Dee")
    t.do("Ann bomb Bob Dee")
    assert [team.lives for team in t.state.teams] == [4, 5]
    assert "No 0 from Cy. Team A loses a life (4 lives left)." in t.line
    # interpretation (opponents_only): only the other team answers.
    t = Table(FOUR, "teams", bomb_teammates="opponents_only")
    t.refuse("Ann bomb Cy", "bad_zeros")
    t.do("Ann bomb Bob")
    assert [team.lives for team in t.state.teams] == [5, 4]
    assert t.hand("Cy") == 10
    # Nobody on Team B has a 0: two lives gone from one set, said once and counted.
    t = Table(FOUR, "teams", bomb_teammates="opponents_only").do("Ann bomb")
    assert [team.lives for team in t.state.teams] == [5, 3]
    assert "No 0 from Bob and Dee. Team B loses 2 lives (3 lives left)." in t.line
    assert "Team B loses a life" not in t.line


# 23–25: drawing --------------------------------------------------------------------------------


def test_edge_23_the_draw_pile_runs_out_during_a_draw_2() -> None:
    # interpretation (empty_draw_pile=reshuffle, default; the texts are silent): turn the discard pile but its
    # top card over as the new draw pile and carry on drawing.
    t = Table().set_hand("Cy", 54)
    assert t.draw_pile == 3
    t.do("Ann 1", "Bob 1", "Cy 1", "Ann draw2")
    assert t.hands() == {"Ann": 8, "Bob": 11, "Cy": 55}
    assert (t.draw_pile, t.discard_pile) == (2, 1)
    assert t.line == (
        "Ann played Draw 2. Everyone else draws 2. The draw pile ran out, so the discard pile except its top "
        "card was turned over as the new draw pile (3 cards). Bob's turn."
    )
    # interpretation (stop): nobody draws any more this round.
    t = Table(empty_draw_pile="stop").set_hand("Cy", 54).do("Ann 1", "Bob 1", "Cy 1", "Ann draw2")
    assert t.hands() == {"Ann": 8, "Bob": 11, "Cy": 54}
    assert (t.draw_pile, t.discard_pile) == (0, 4)
    assert t.line == (
        "Ann played Draw 2. Bob draws 2; Cy draws only 1. The draw pile is empty, so no more cards are "
        "drawn. Bob's turn."
    )
    t.do("Bob draw1")
    assert (
        t.line == "Bob played Draw 1. Nobody could draw. The draw pile is empty, so no more cards are drawn. Cy's turn."
    )


def test_edge_24_a_short_draw_pile_is_drawn_in_turn_order_from_the_next_player() -> None:
    # interpretation: players draw one after the other in the direction of play, starting after the drawer.
    t = Table(empty_draw_pile="stop").set_hand("Bob", 54).do("Ann reverse", "Cy pass", "Bob pass")
    assert (t.draw_pile, t.direction, t.turn) == (3, COUNTERCLOCKWISE, "Ann")
    t.do("Ann draw2")
    assert t.hands() == {"Ann": 8, "Bob": 54, "Cy": 11}


def test_edge_25_draw_cards_with_two_players() -> None:
    # 1994 rules: "All other players must pick up 2 cards" — the one other player; no extra turn.
    t = Table("Ann Bob").do("Ann draw2")
    assert (t.hands(), t.draw_pile, t.turn) == ({"Ann": 9, "Bob": 12}, 55, "Bob")
    t.do("Bob draw1")
    assert (t.hands(), t.draw_pile, t.turn) == ({"Ann": 10, "Bob": 11}, 54, "Ann")


# 26–33: Skip, Reverse, Pass ---------------------------------------------------------------------


def test_edge_26_skip_passes_over_an_eliminated_seat() -> None:
    # 1994 rules: "The next player is ignored"; interpretation: the next *active* player (eliminated players
    # are passed over for turns).
    t = Table(FOUR).lose_life("Bob", 5)
    assert t.out() == ["Bob"]
    t.to_turn("Ann").do("Ann skip")
    assert t.turn == "Dee"
    assert t.line == "Ann played Skip. Cy misses a turn. Dee's turn."


def test_edge_27_skip_with_two_players_again_and_again() -> None:
    # 1994 rules: "If played with only two players, the player of the card would get an immediate new turn."
    t = Table("Ann Bob").do("Ann skip", "Ann skip", "Ann skip")
    assert (t.turn, t.hands()) == ("Ann", {"Ann": 7, "Bob": 10})
    t.do("Ann 5")
    assert t.turn == "Bob"
    # The same once a third player has been eliminated ("when only 2 players are left").
    t = Table().lose_life("Cy", 5).to_turn("Ann").do("Ann skip", "Ann skip")
    assert t.turn == "Ann"


def test_edge_28_skip_with_three_players() -> None:
    # 1994 rules: "The next player is ignored and play proceeds to the following player."
    t = Table().do("Ann skip")
    assert t.turn == "Cy"
    t.do("Cy skip")
    assert t.turn == "Bob"
    t.do("Bob skip")
    assert t.turn == "Ann"
    assert t.hands() == {"Ann": 9, "Bob": 9, "Cy": 9}


def test_edge_29_reverse_with_three_players() -> None:
    # 1994 rules: "REVERSE: Play now proceeds in an opposite direction."
    t = Table().do("Ann reverse")
    assert (t.turn, t.direction) == ("Cy", COUNTERCLOCKWISE)
    t.do("Cy 1")
    assert t.turn == "Bob"
    t.do("Bob reverse")
    assert (t.turn, t.direction) == ("Cy", CLOCKWISE)


def test_edge_30_reverse_with_two_players_acts_as_pass_me_by() -> None:
    # 1994 rules: "If played when only 2 players are left, it is treated as a PASS ME BY card."
    t = Table("Ann Bob").do("Ann reverse")
    assert (t.turn, t.direction) == ("Bob", CLOCKWISE)
    assert t.line == "Ann played Reverse. With two players, Reverse acts as Pass Me By. Bob's turn."
    # Also once the table is down to two (here while play runs counterclockwise).
    t = Table().do("Ann reverse").lose_life("Bob", 5)
    assert t.direction == COUNTERCLOCKWISE
    current = t.turn
    assert current is not None
    t.do(f"{current} reverse")
    assert t.direction == COUNTERCLOCKWISE
    assert t.turn == ({"Ann", "Cy"} - {current}).pop()


def test_edge_31_two_players_cannot_chain_pass_and_reverse_to_go_out_alone() -> None:
    # how-to FAQ author: Pass Me By and Reverse with two players let the other player take a turn.
    t = Table("Ann Bob").set_hand("Ann", 4).do("Ann pass")
    assert t.turn == "Bob"
    t.refuse("Ann reverse", "not_your_turn")
    t.do("Bob 1", "Ann reverse", "Bob 1", "Ann pass", "Bob 1", "Ann 0")
    assert (t.round, t.dealer) == (2, "Ann")
    assert t.life("Bob") == 4


def test_edge_32_pass_me_by_and_a_0_both_add_nothing_but_only_the_0_answers_a_bomb() -> None:
    # 1994 rules: Pass Me By "Counts as 0 to the running total"; Bomb: "Other WILD cards with a value of 0
    # cannot be substituted."
    t = Table().do("Ann 7", "Bob 7", "Cy 4", "Ann pass")
    assert (t.total, t.turn) == (18, "Bob")
    t.do("Bob 0")
    assert (t.total, t.turn) == (18, "Cy")
    t.refuse("Cy pass Ann", "bad_zeros")
    t.do("Cy bomb Ann")
    assert t.hands() == {"Ann": 7, "Bob": 8, "Cy": 8}
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 5}


@pytest.mark.parametrize(("card", "next_player"), [("skip", "Bob"), ("reverse", "Cy"), ("pass", "Ann")])
def test_edge_33_skip_reverse_and_pass_at_21(card: str, next_player: str) -> None:
    # 1994 rules: WILD cards "can be played at any time, not just when the total reaches 21".
    t = Table(FOUR).do("Ann 7", "Bob 7", "Cy 7")
    assert (t.turn, t.total) == ("Dee", 21)
    assert card in t.allowed()
    t.do(f"Dee {card}")
    assert (t.total, t.turn) == (21, next_player)
    assert numbers_that_fit(t) == {"0"}
    t.do(f"{next_player} bust")
    assert t.life(next_player) == 4


# 34–38: Hand in & Re-deal -------------------------------------------------------------------------


def test_edge_34_the_redealer_deals_starting_on_their_left() -> None:
    # 1994 rules: "He should start dealing to his left" (redeal_deal_from=left), even while play runs
    # counterclockwise; modern text (direction): "dealt again in the current direction of play".
    for deal_from, extra in (("left", "Ann"), ("direction", "Cy")):
        t = Table(FOUR, redeal_deal_from=deal_from).do("Ann 1", "Bob reverse", "Ann pass")
        t.set_hand("Cy", 11).do("Dee redeal")  # 8 + 9 + 11 + 9 = 37 cards, one extra for the first dealt
        assert t.hands() == {name: 10 if name == extra else 9 for name in FOUR.split()}
        assert (t.dealer, t.total) == ("Dee", 0)


def test_edge_35_unequal_hands_after_a_redeal_are_bad_luck() -> None:
    # 1994 rules: "If new hands are unequal, bad luck." They differ by at most one card.
    t = Table(FOUR).set_hand("Bob", 3).do("Ann 5", "Bob draw2").set_hand("Ann", 9)  # Ann 9, Bob 2, Cy 12, Dee 12
    t.do("Cy redeal")  # 9 + 2 + 11 + 12 = 34 cards from Cy's left: Dee, Ann get 9; Bob, Cy get 8
    assert t.hands() == {"Ann": 9, "Bob": 8, "Cy": 8, "Dee": 9}
    assert (t.total, t.turn) == (0, "Dee")


def test_edge_36_who_plays_after_a_redeal_and_the_direction_stays() -> None:
    # how-to: "Play will then continue normally" (after_redeal=continue): the next player in the direction.
    t = Table(FOUR).do("Ann reverse", "Dee pass", "Cy redeal")
    assert (t.turn, t.direction) == ("Bob", COUNTERCLOCKWISE)
    # 1994 rules (after_redeal=left): "After a deal of any sort, play always starts to the left"; the
    # direction of play itself does not change (interpretation).
    t = Table(FOUR, after_redeal="left").do("Ann reverse", "Dee pass", "Cy redeal")
    assert (t.turn, t.direction) == ("Dee", COUNTERCLOCKWISE)
    t.do("Dee 1")
    assert t.turn == "Cy"


def test_edge_37_redeal_with_two_players() -> None:
    # 1994 rules: the redealer starts dealing to his left — with two players, the other player.
    t = Table("Ann Bob").do("Ann redeal")  # 9 + 10 = 19 cards
    assert t.hands() == {"Ann": 9, "Bob": 10}
    assert (t.turn, t.total, t.dealer) == ("Bob", 0, "Ann")
    t.do("Bob draw1", "Ann 3", "Bob redeal")  # 9 + 8 = 17 cards: Ann, on Bob's left, gets the odd one
    assert t.hands() == {"Ann": 9, "Bob": 8}


def test_edge_38_a_redeal_never_leaves_an_active_player_without_cards() -> None:
    # interpretation: everyone still in holds at least one card, so the gathered cards cover one each; an
    # eliminated player is left out of the deal.
    t = Table(FOUR).lose_life("Dee", 5)
    t.to_turn("Ann").set_hand("Ann", 2).set_hand("Bob", 1).set_hand("Cy", 1).do("Ann redeal")
    assert t.hands() == {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": 0}
    assert t.turn == "Bob"


# 39–45: rounds and elimination -------------------------------------------------------------------


def test_edge_39_new_round_dealer_first_player_and_direction() -> None:
    # 1994 rules: "The winner of the previous hand shuffles and deals"; "Play proceeds clockwise, starting
    # left of the dealer"; "After a deal of any sort, play always starts to the left".
    t = Table(FOUR).do("Ann reverse", "Dee 7", "Cy 7")
    assert t.turn == "Bob"
    t.go_out("Bob")
    assert (t.round, t.dealer, t.turn, t.direction, t.total) == (2, "Bob", "Cy", CLOCKWISE, 0)
    assert (t.draw_pile, t.discard_pile) == (37, 0)
    # With a player eliminated, only the players still in are dealt.
    t.lose_life("Dee", 4)
    assert t.out() == ["Dee"]
    t.go_out("Cy")
    assert t.hands() == {"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 0}
    assert (t.round, t.dealer, t.turn, t.draw_pile) == (3, "Cy", "Ann", 47)


def test_edge_40_others_lose_exactly_one_life_however_many_cards_they_hold() -> None:
    # 1994 rules: "all other players must flip an ALIVE card" — one card each.
    t = Table().set_hand("Bob", 30).set_hand("Cy", 2).go_out("Ann")
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 4}


def test_edge_41_a_round_end_that_eliminates_several_players_at_once() -> None:
    # 1994 rules: eliminated "immediately"; several may lose their last life to the same round end.
    t = Table(FOUR).go_out("Dee")
    for _ in range(3):
        t.go_out("Ann")
    assert t.lives() == {"Ann": 4, "Bob": 1, "Cy": 1, "Dee": 2}
    t.go_out("Ann")
    assert t.out() == ["Bob", "Cy"]
    assert t.lives() == {"Ann": 4, "Bob": 0, "Cy": 0, "Dee": 1}
    assert t.status is Status.PLAYING
    assert (t.round, t.dealer, t.turn, t.draw_pile) == (6, "Ann", "Dee", 57)
    assert t.hands() == {"Ann": 10, "Bob": 0, "Cy": 0, "Dee": 10}
    assert "Bob is out of the game. Cy is out of the game. Two players left:" in t.line
    t.do("Dee skip")
    assert t.turn == "Dee"
    t.check_replay()


def test_edge_42_the_current_player_eliminated_by_their_own_bust() -> None:
    # 1994 rules: a bust flips an ALIVE card; at the last one the player is out at once; the next player goes.
    t = Table().lose_life("Bob", 4).to_turn("Ann").do("Ann eq21", "Bob bust")
    assert t.out() == ["Bob"]
    assert (t.turn, t.total, t.status) == ("Cy", 0, Status.PLAYING)
    assert t.line == (
        "Bob can't play: the total goes back to 0. Bob loses a life (0 lives left). Bob is out of the game. "
        "Two players left: Reverse now acts as Pass Me By and Skip gives another turn. Cy's turn."
    )
    # With two players, that bust ends the game.
    t = Table("Ann Bob").lose_life("Ann", 4).to_turn("Bob").do("Bob eq21", "Ann bust")
    assert (t.status, t.winners) == (Status.FINISHED, ("Bob",))


def test_edge_43_an_eliminated_players_cards_are_discarded() -> None:
    # 1994 rules: "you must immediately discard any playing cards you might still hold."
    t = Table().lose_life("Cy", 4).set_hand("Cy", 7)
    discards = t.discard_pile
    t.lose_life("Cy")
    assert (t.hand("Cy"), t.discard_pile) == (0, discards + 2 + 7)  # two =21s on the way, then Cy's 7 cards
    t.to_turn("Ann").do("Ann draw2")
    assert t.hand("Cy") == 0
    t.do("Bob redeal")
    assert t.hand("Cy") == 0
    t.go_out("Ann")
    assert t.hands() == {"Ann": 10, "Bob": 10, "Cy": 0}


def test_edge_44_eliminated_in_the_middle_of_a_bomb() -> None:
    # 1994 rules: out at once, cards discarded; how-to FAQ author: the player after the bomber goes next —
    # passing over the player the Bomb just eliminated.
    t = Table(FOUR).lose_life("Bob", 4).to_turn("Ann").set_hand("Bob", 6)
    t.do("Ann bomb Cy")
    assert t.out() == ["Bob"]
    assert t.lives() == {"Ann": 5, "Bob": 0, "Cy": 5, "Dee": 4}
    assert (t.turn, t.total, t.hand("Bob")) == ("Cy", 0, 0)
    assert (
        t.refuse("Cy bomb Bob", "bad_zeros").message
        == "Bob can't answer this Bomb: only the other players still in can."
    )
    # A last-card Bomb (bomb_last_card=both): the eliminated player is not charged again for the round end.
    t = Table(FOUR).lose_life("Bob", 4).to_turn("Ann").set_hand("Ann", 1).do("Ann bomb Cy")
    assert t.lives() == {"Ann": 5, "Bob": 0, "Cy": 4, "Dee": 3}
    assert (t.round, t.dealer, t.turn) == (2, "Ann", "Cy")


def test_edge_45_a_game_started_with_two_players_uses_the_two_player_rules() -> None:
    # 1994 rules: Reverse "when only 2 players are left" acts as Pass Me By; Skip gives another turn. A game
    # of two has two players left from the start.
    t = Table("Ann Bob").do("Ann skip")
    assert t.turn == "Ann" and "skip_again" in t.events
    t.do("Ann reverse")
    assert (t.turn, t.direction) == ("Bob", CLOCKWISE)
    assert "reverse_as_pass" in t.events


# 46–48: Sudden Death ----------------------------------------------------------------------------


def test_edge_46_sudden_death_two_players_reach_zero_at_once() -> None:
    # 1994 rules, Sudden Death: "As soon as one player flips all ALIVE cards, the game ends. The player with
    # the most ALIVE cards remaining is the winner."
    t = Table("Ann Bob Cy", "sudden_death")
    for _ in range(5):
        t.go_out("Ann")
    assert t.lives() == {"Ann": 5, "Bob": 0, "Cy": 0}
    assert t.out() == ["Bob", "Cy"]
    assert (t.status, t.winners, t.round) == (Status.FINISHED, ("Ann",), 5)
    assert t.line.endswith("Bob is out of the game. Cy is out of the game. Ann wins!")


@pytest.mark.parametrize(("bob", "winners"), [(2, ("Ann",)), (0, ("Ann", "Bob"))])
def test_edge_47_sudden_death_tie_when_someone_just_went_out(bob: int, winners: tuple[str, ...]) -> None:
    # 1994 rules: the tied players add up the number cards in their hands, lowest wins; interpretation: the
    # player who just went out holds nothing, so counts 0.
    t = Table("Ann Bob Cy", "sudden_death").go_out("Bob").lose_life("Ann").lose_life("Bob").lose_life("Cy", 3)
    assert t.lives() == {"Ann": 3, "Bob": 4, "Cy": 1}
    t.go_out("Ann")
    assert t.lives() == {"Ann": 3, "Bob": 3, "Cy": 0}
    assert (t.status, t.hand("Ann")) == (Status.TIEBREAK, 0)
    assert t.legal().tiebreak == ("Bob",)
    assert t.line.endswith("Sudden Death tie: Ann and Bob add up the number cards in their hands; lowest wins.")
    t.do(f"tiebreak Bob={bob}")
    assert (t.status, t.winners) == (Status.FINISHED, winners)
    t.check_replay()


def test_edge_47_sudden_death_tie_with_every_tied_hand_empty_settles_itself() -> None:
    # interpretation: two empty hands both count 0, so nobody needs to enter anything: a shared win.
    t = Table("Ann Bob Cy", "sudden_death").lose_life("Cy", 4).to_turn("Ann").set_hand("Ann", 1).set_hand("Bob", 1)
    t.do("Ann bomb Bob")
    assert (t.status, t.winners) == (Status.FINISHED, ("Ann", "Bob"))
    assert t.line.endswith("Ann and Bob share the win!")


@pytest.mark.parametrize(
    ("rule", "ann_cards", "winners"),
    [("shared", 3, ("Ann", "Bob")), ("fewest_cards", 3, ("Ann",)), ("fewest_cards", 5, ("Ann", "Bob"))],
)
def test_edge_48_still_tied_after_the_tiebreak(rule: str, ann_cards: int, winners: tuple[str, ...]) -> None:
    # interpretation (tiebreak_tie): the texts stop at "lowest total wins"; shared (default) or fewest cards.
    t = Table("Ann Bob Cy", "sudden_death", tiebreak_tie=rule).lose_life("Cy", 5)
    t.set_hand("Ann", ann_cards).set_hand("Bob", 5)
    t.do("tiebreak Ann=6 Bob=6")
    assert (t.status, t.winners) == (Status.FINISHED, winners)


# 49–52: Teams ---------------------------------------------------------------------------------


def test_edge_49_teams_with_five_players() -> None:
    # 1994 rules: "FOR 4 TO 6 PLAYERS ... Team members sit alternately"; with five, one pair of teammates must
    # sit together (3 v 2).
    t = Table("Ann Bob Cy Dee Eve", "teams")
    assert t.setup.teams == (("Ann", "Cy", "Eve"), ("Bob", "Dee"))
    t = Table("Ann Bob Cy Dee Eve", "teams", teams=[["Bob", "Dee"], ["Ann", "Cy", "Eve"]])
    assert [team.seats for team in t.state.teams] == [(1, 3), (0, 2, 4)]
    t.go_out("Bob")
    assert [team.lives for team in t.state.teams] == [5, 4]
    t.go_out("Eve")
    assert [team.lives for team in t.state.teams] == [4, 4]
    assert (t.dealer, t.turn) == ("Eve", "Ann")


def test_edge_50_teams_a_player_going_out_costs_the_other_team_exactly_one_life() -> None:
    # 1994 rules: "When any player plays his last card, the opposing team loses only one life."
    t = Table("Ann Bob Cy Dee Eve Fay", "teams").set_hand("Dee", 25).go_out("Ann")
    assert [team.lives for team in t.state.teams] == [5, 4]
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 5, "Dee": 4, "Eve": 5, "Fay": 4}
    assert (t.round, t.dealer, t.turn) == (2, "Ann", "Bob")
    assert t.line.endswith(
        "Ann has no cards left: round over. Team B loses a life (4 lives left). Round 2: Ann deals. Bob's turn."
    )


def test_edge_51_teams_a_bust_costs_the_players_team_one_life() -> None:
    # 1994 rules: each team shares one set of ALIVE cards, so a bust flips the team's card.
    t = Table(FOUR, "teams").do("Ann eq21", "Bob bust")
    assert [team.lives for team in t.state.teams] == [5, 4]
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 5, "Dee": 4}
    assert (t.turn, t.total) == ("Cy", 0)
    assert t.line == "Bob can't play: the total goes back to 0. Team B loses a life (4 lives left). Cy's turn."


def test_edge_52_teams_two_player_rules_never_apply() -> None:
    # 1994 rules: the two-player Reverse/Skip rules are for "only 2 players left"; in teams nobody is eliminated
    # alone, so the table never gets there: Skip skips and Reverse reverses to the end.
    t = Table(FOUR, "teams").lose_life("Bob", 4)
    assert [team.lives for team in t.state.teams] == [5, 1]
    assert t.out() == []
    t.to_turn("Ann").do("Ann skip")
    assert t.turn == "Cy" and "skip_again" not in t.events
    t.do("Cy reverse")
    assert (t.turn, t.direction) == ("Bob", COUNTERCLOCKWISE)
    t.lose_life("Dee")
    assert (t.status, t.winners) == (Status.FINISHED, ("Team A",))
    assert t.out() == []
    assert "two_left" not in [event.kind for event in t.state.events]


def test_two_spellings_of_one_accented_name_are_one_player() -> None:
    """Two spellings of "José" (one letter, or e plus a combining accent) are one player: as two, the referee once
    said "It's José's turn, not José's."."""
    composed, decomposed = "Jos\u00e9", "Jose\u0301"
    with pytest.raises(InvalidSetup) as refused:
        make_setup([composed, decomposed, "Ann"])
    assert refused.value.code == "duplicate_name"
    setup = make_setup([decomposed, "Ann"])
    assert setup.players[0] == composed  # stored one way, shown the same on every phone
    state = new_game(setup)
    assert state.seat_of(decomposed) == state.seat_of(composed) == 0
    assert setup.player_named(" jose\u0301 ") == composed


def test_a_name_may_hold_an_emoji_made_of_joined_emoji_but_no_other_hidden_character() -> None:
    """A name may hold "👩‍🍳 Mum" (a woman, an invisible joiner, a frying pan): not refused as hidden characters."""
    for name in (
        "\U0001f469\u200d\U0001f373 Mum",
        "\U0001f3f3\ufe0f\u200d\U0001f308 Flag",
        "\U0001f469\U0001f3fd\u200d\U0001f373",
    ):
        assert make_setup([name, "Bob"]).players[0] == name
    for hidden in ("A\u200dnn", "Ann\u200d", "\U0001f469\u200d Mum"):  # the joiner where it hides or joins nothing
        with pytest.raises(InvalidSetup) as refused:
            make_setup([hidden, "Bob"])
        assert refused.value.code == "bad_name"
