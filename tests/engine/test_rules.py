"""One test (or a small parametrized group) per rule the engine must know."""

from __future__ import annotations

import pytest

from referee.engine import (
    CLOCKWISE,
    COUNTERCLOCKWISE,
    DECK_COUNTS,
    DECK_SIZE,
    HOUSE_RULE_SPECS,
    SPECS_BY_NAME,
    Bust,
    Card,
    EngineError,
    History,
    HouseRules,
    InvalidSetup,
    Play,
    Refused,
    SetHand,
    Status,
    TieBreak,
    Variant,
    apply,
    check,
    make_setup,
    new_game,
    refusal,
    replay,
)

from .conftest import Table

# --- 1. Setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "draw_pile"), [(2, 57), (3, 47), (4, 37), (5, 27), (6, 17)])
def test_setup_deals_ten_cards_each_and_leaves_the_rest_as_draw_pile(players: int, draw_pile: int) -> None:
    # 1994 rules: "Deal out 10 cards to each player. Place the remainder of the deck face-down";
    # RULES-NOTES: the draw pile holds 77 − 10 × players (57, 47, 37, 27, 17).
    names = " ".join(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:players])
    t = Table(names)
    assert t.hands() == dict.fromkeys(names.split(), 10)
    assert t.lives() == dict.fromkeys(names.split(), 5)
    assert t.draw_pile == draw_pile
    assert t.discard_pile == 0
    assert (t.total, t.round, t.direction, t.status) == (0, 1, CLOCKWISE, Status.PLAYING)


def test_the_deck_holds_77_playing_cards() -> None:
    # 1994 rules, contents: 47 number cards; RULES-NOTES: 77 playing cards in all (Bomb and Reverse inferred).
    assert sum(DECK_COUNTS.values()) == DECK_SIZE == 77
    assert sum(count for card, count in DECK_COUNTS.items() if card.is_number) == 47
    assert [Card.parse(str(n)).number for n in range(8)] == list(range(8))
    assert Card.SKIP.number is None and not Card.EQ0.is_number


@pytest.mark.parametrize("count", [0, 1, 7])
def test_setup_refuses_fewer_than_two_or_more_than_six_players(count: int) -> None:
    # 1994 rules / how-to: 5 Alive is for 2 to 6 players (the box holds 6 sets of ALIVE cards).
    with pytest.raises(InvalidSetup) as caught:
        make_setup([f"P{n}" for n in range(count)])
    assert caught.value.code == "bad_player_count"
    assert f"you named {count}" in caught.value.message


def test_setup_refuses_names_equal_ignoring_case() -> None:
    # interpretation: names are unique ignoring case, so the log never confuses two players.
    with pytest.raises(InvalidSetup) as caught:
        make_setup(["Ann", "Bob", "ann"])
    assert caught.value.code == "duplicate_name"
    assert caught.value.message == "Two players are called ann: add an initial so everyone can tell them apart."


def test_setup_names_are_1_to_24_visible_characters() -> None:
    # interpretation: names have 1–24 visible characters; spaces are tidied.
    assert make_setup(["A" * 24, "  Bob   Jones "]).players == ("A" * 24, "Bob Jones")
    # A combining accent is part of the letter before it, not a character of its own (stored composed: é).
    assert make_setup(["e\u0301" * 24, "Bob"]).players[0] == "\u00e9" * 24
    assert make_setup(["q\u0301" * 24, "Bob"]).players[0] == "q\u0301" * 24  # no composed form: kept as typed
    for bad in ["A" * 25, "", "   ", "Ann\u200b", "Bo\x07b", 7]:
        with pytest.raises(InvalidSetup) as caught:
            make_setup([bad, "Cy"])
        assert caught.value.code == "bad_name"
        assert caught.value.field == "players"


def test_setup_refuses_an_unknown_variant_and_teams_outside_the_team_game() -> None:
    # 1994 rules: the standard game, the Sudden Death ending and Team play are the three ways to play.
    assert make_setup(["Ann", "Bob"], "sudden_death").variant is Variant.SUDDEN_DEATH
    with pytest.raises(InvalidSetup) as caught:
        make_setup(["Ann", "Bob"], "speed")
    assert caught.value.code == "bad_variant"
    with pytest.raises(InvalidSetup) as caught:
        make_setup(["Ann", "Bob", "Cy", "Dee"], "standard", [["Ann", "Cy"], ["Bob", "Dee"]])
    assert caught.value.code == "bad_teams"


def test_first_player_defaults_to_the_first_listed_and_the_dealer_sits_before_them() -> None:
    # modern text: "The first player in the list always goes first"; 1994 rules: play starts left of the dealer.
    t = Table("Ann Bob Cy Dee")
    assert (t.turn, t.dealer) == ("Ann", "Dee")
    t = Table("Ann Bob Cy Dee", first="cy")
    assert (t.turn, t.dealer) == ("Cy", "Bob")
    assert t.setup.first_player == "Cy"
    with pytest.raises(InvalidSetup) as caught:
        make_setup(["Ann", "Bob"], first_player="Zed")
    assert caught.value.code == "bad_first_player"


def test_actions_may_name_players_in_any_case() -> None:
    # interpretation: names are unique ignoring case, so "ann" can only mean Ann.
    t = Table().do("ann 7", "BOB bomb cy")
    assert t.lines == [
        "Ann played 7: total 7. Bob's turn.",
        "Bob played Bomb: total 0. Cy discarded a 0. No 0 from Ann. Ann loses a life (4 lives left). Cy's turn.",
    ]


# --- 2. Cards ---------------------------------------------------------------------------------


def test_number_cards_add_their_value_and_exactly_21_is_fine() -> None:
    # 1994 rules: "If it is a number card, add it to the running total"; how-to: the total must not pass 21.
    t = Table().do("Ann 7", "Bob 6", "Cy 5", "Ann 3")
    assert t.total == 21
    assert t.line == "Ann played 3: total 21. Bob's turn."
    assert t.hands() == {"Ann": 8, "Bob": 9, "Cy": 9}
    assert t.discard_pile == 4


def test_a_number_card_that_goes_above_21_is_refused() -> None:
    # how-to: "You cannot play a number card if it would put the total above 21" (over_21=refuse, default).
    t = Table().do("Ann 7", "Bob 6", "Cy 5")
    refused = t.refuse("Ann 4", "does_not_fit")
    assert refused.message == "That 4 makes 22: play another card, or tap Can't play."
    assert refused.rule == "over-21"
    t.do("Ann 0")
    assert t.total == 18


@pytest.mark.parametrize(("card", "count"), [("draw1", 1), ("draw2", 2)])
def test_draw_cards_make_every_other_active_player_draw(card: str, count: int) -> None:
    # 1994 rules: "DRAW 1/2: All other players must pick up 1/2 card(s) from the face-down deck."
    t = Table("Ann Bob Cy Dee").do("Ann 5", f"Bob {card}")
    assert t.hands() == {"Ann": 9 + count, "Bob": 9, "Cy": 10 + count, "Dee": 10 + count}
    assert t.draw_pile == 37 - 3 * count
    assert (t.total, t.turn) == (5, "Cy")
    assert t.line == f"Bob played Draw {count}. Everyone else draws {count}. Cy's turn."


def test_with_two_players_a_draw_card_names_the_one_who_draws() -> None:
    # "Everyone else" read oddly with a single opponent.
    t = Table("Ann Bob").do("Ann 5", "Bob draw2")
    assert t.line == "Bob played Draw 2. Ann draws 2. Ann's turn."


def test_pass_me_by_hands_the_turn_to_the_next_player() -> None:
    # 1994 rules: "PASS ME BY: Play passes to next player in the rotation. Counts as 0 to the running total."
    t = Table().do("Ann 6", "Bob pass")
    assert (t.total, t.turn, t.direction) == (6, "Cy", CLOCKWISE)


def test_reverse_flips_the_direction() -> None:
    # 1994 rules: "REVERSE: Play now proceeds in an opposite direction."
    t = Table("Ann Bob Cy Dee").do("Ann 2", "Bob reverse")
    assert (t.total, t.turn, t.direction) == (2, "Ann", COUNTERCLOCKWISE)
    assert t.line == "Bob played Reverse. Play now goes counterclockwise. Ann's turn."
    t.do("Ann 1")
    assert t.turn == "Dee"


def test_reverse_with_two_active_players_acts_as_pass_me_by() -> None:
    # 1994 rules: "If played when only 2 players are left, it is treated as a PASS ME BY card."
    t = Table("Ann Bob").do("Ann reverse")
    assert (t.turn, t.direction) == ("Bob", CLOCKWISE)
    assert "reverse_as_pass" in t.events


def test_skip_makes_the_next_active_player_miss_a_turn() -> None:
    # 1994 rules: "SKIP: The next player is ignored and play proceeds to the following player."
    t = Table("Ann Bob Cy Dee").do("Ann skip")
    assert t.turn == "Cy"
    assert t.line == "Ann played Skip. Bob misses a turn. Cy's turn."


def test_skip_with_two_players_gives_the_player_another_turn() -> None:
    # 1994 rules: "If played with only two players, the player of the card would get an immediate new turn."
    t = Table("Ann Bob").do("Ann skip")
    assert t.turn == "Ann"
    assert t.line == "Ann played Skip. With two players, Ann plays again. Ann's turn."


@pytest.mark.parametrize(("card", "total"), [("eq21", 21), ("eq10", 10), ("eq0", 0)])
def test_equals_cards_set_the_total(card: str, total: int) -> None:
    # 1994 rules: "=21: No matter what the total was, it is now 21", "=10 ... now 10", "=0 ... now 0".
    t = Table().do("Ann 7", "Bob 7", f"Cy {card}")
    assert (t.total, t.turn) == (total, "Ann")


def test_eq21_is_allowed_at_21_and_as_the_first_card() -> None:
    # 1994 rules: "=21 ... Can be played when the score is already 21"; how-to FAQ: yes as the first card.
    t = Table().do("Ann eq21", "Bob eq21")
    assert (t.total, t.turn) == (21, "Cy")


def test_redeal_gathers_every_hand_and_deals_it_from_the_left() -> None:
    # 1994 rules: "HAND IN & RE-DEAL ... He should start dealing to his left. If new hands are unequal,
    # bad luck. Play continues as normal, but the running total is reset to 0."
    t = Table("Ann Bob Cy Dee").do("Ann 5", "Bob draw1")
    t.set_hand("Cy", 4)  # hands: Ann 10, Bob 9, Cy 4, Dee 11
    t.do("Cy redeal")  # Cy's card leaves first: 10 + 9 + 3 + 11 = 33 cards, Dee first
    assert t.hands() == {"Ann": 8, "Bob": 8, "Cy": 8, "Dee": 9}
    assert (t.total, t.turn, t.dealer) == (0, "Dee", "Cy")
    assert t.line == "Cy played Re-deal: total 0. Cy gathers all 33 cards in hand and deals them out again. Dee's turn."


def test_bomb_makes_every_other_player_discard_a_zero_or_lose_a_life() -> None:
    # 1994 rules: "BOMB: all other players must immediately discard a 0. If they can't they must flip an
    # ALIVE card. Running total resets to 0." how-to FAQ author: the 0s are not turns; the bomber's next plays.
    t = Table("Ann Bob Cy Dee").do("Ann 7", "Bob bomb Cy")
    assert t.hands() == {"Ann": 9, "Bob": 9, "Cy": 9, "Dee": 10}
    assert t.lives() == {"Ann": 4, "Bob": 5, "Cy": 5, "Dee": 4}
    assert (t.total, t.turn) == (0, "Cy")
    assert t.discard_pile == 3
    assert t.line == (
        "Bob played Bomb: total 0. Cy discarded a 0. No 0 from Dee and Ann. "
        "Dee loses a life (4 lives left). Ann loses a life (4 lives left). Cy's turn."
    )


# --- 3. Bust ----------------------------------------------------------------------------------


def test_a_bust_keeps_the_card_costs_a_life_and_resets_the_total() -> None:
    # 1994 rules: "If you can only take the total above 21, then you do not play the card, but must flip over
    # an ALIVE card. The running total is reset to 0, and the next player starts play again."
    t = Table().do("Ann 7", "Bob 7", "Cy 7", "Ann bust")
    assert (t.total, t.turn) == (0, "Bob")
    assert t.lives() == {"Ann": 4, "Bob": 5, "Cy": 5}
    assert t.hand("Ann") == 9  # only her 7 left her hand
    assert t.line == "Ann can't play: the total goes back to 0. Ann loses a life (4 lives left). Bob's turn."


@pytest.mark.parametrize(("total", "allowed"), [(0, False), (14, False), (15, True), (21, True)])
def test_a_bust_is_refused_while_even_a_7_fits(total: int, allowed: bool) -> None:
    # interpretation of "if you can only take the total above 21": the largest card is 7, so nobody can
    # bust at 14 or less; the referee refuses and says why.
    t = Table("Ann Bob")
    if total:
        t.do("Ann eq10" if total < 15 else "Ann eq21")
        if total == 14:
            t.do("Bob 4", "Ann pass")
        elif total == 15:
            t.do("Bob eq10", "Ann 5")
    assert t.total == total
    assert t.turn is not None
    if allowed:
        t.do(f"{t.turn} bust")
        assert t.total == 0
    else:
        refused = t.refuse(f"{t.turn} bust", "bust_impossible")
        assert refused.message == f"Nobody can go over 21 from {total}: even a 7 fits. Play a card."


# --- 4. Going out and the new round -------------------------------------------------------------


def test_going_out_costs_every_other_player_one_life_and_deals_a_new_round() -> None:
    # 1994 rules: "If a player plays his last card all other players must flip an ALIVE card ... The winner
    # of the previous hand shuffles and deals out the new hand"; "play proceeds clockwise, starting left of
    # the dealer".
    t = Table("Ann Bob Cy Dee").do("Ann reverse", "Dee 3")
    t.set_hand("Cy", 1).do("Cy 2")
    assert t.lives() == {"Ann": 4, "Bob": 4, "Cy": 5, "Dee": 4}
    assert t.hands() == dict.fromkeys(["Ann", "Bob", "Cy", "Dee"], 10)
    assert (t.round, t.total, t.direction, t.dealer, t.turn) == (2, 0, CLOCKWISE, "Cy", "Dee")
    assert (t.draw_pile, t.discard_pile) == (37, 0)
    assert t.line == (
        "Cy played 2: total 5. Cy has no cards left: round over. Bob loses a life (4 lives left). "
        "Ann loses a life (4 lives left). Dee loses a life (4 lives left). Round 2: Cy deals. Dee's turn."
    )


def test_a_bomb_as_last_card_is_answered_before_the_round_ends() -> None:
    # how-to FAQ author (Eric Mortensen): answer the Bomb first, then everyone loses a life for the round.
    t = Table().set_hand("Ann", 1).do("Ann bomb Bob")
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 3}
    assert (t.round, t.dealer, t.turn) == (2, "Ann", "Bob")


def test_a_bust_naming_a_card_that_fits_is_refused() -> None:
    # 1994 rules: you flip a life only if you "can only take the total above 21"; a card that fits is played.
    t = Table().do("Ann 7", "Bob 7", "Cy 1")
    refused = t.refuse("Ann bust 3", "card_fits")
    assert refused.message == "3 can be played at 15: play it instead of going bust."
    t.refuse("Ann bust skip", "card_fits")
    t.do("Ann bust 7")
    assert (t.total, t.lives()["Ann"]) == (0, 4)
    assert t.line.startswith("Ann can't play (a 7 would go over 21)")


def test_a_bust_with_the_last_card_is_not_going_out() -> None:
    # how-to FAQ author: "Since the player was unable to play the card, the other players wouldn't have to
    # turn over one of their Alive cards."
    t = Table().do("Ann eq21").set_hand("Bob", 1).do("Bob bust 3")
    assert t.hand("Bob") == 1
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 5}
    assert (t.round, t.turn) == (1, "Cy")


# --- 5. Elimination ---------------------------------------------------------------------------


def test_a_player_at_zero_lives_is_out_at_once_and_passed_over() -> None:
    # 1994 rules: "If all your ALIVE cards are turned over, you are eliminated, and you must immediately
    # discard any playing cards you might still hold."
    t = Table("Ann Bob Cy Dee").lose_life("Bob", 5)
    assert t.out() == ["Bob"]
    assert t.hand("Bob") == 0 and t.life("Bob") == 0
    assert t.line.endswith("Bob loses a life (0 lives left). Bob is out of the game. Cy's turn.")
    # Passed over for turns, draws and Bombs.
    t.to_turn("Ann").do("Ann draw1")
    assert t.hand("Bob") == 0 and t.turn == "Cy"
    t.do("Cy pass", "Dee pass", "Ann bomb Cy Dee")
    assert t.life("Bob") == 0 and t.turn == "Cy"
    t.refuse("Bob 3", "player_out")


def test_the_last_player_with_a_life_wins() -> None:
    # 1994 rules: "The last player left with an ALIVE card face up is the winner."
    t = Table("Ann Bob").lose_life("Bob", 5)
    assert (t.status, t.winners, t.turn) == (Status.FINISHED, ("Ann",), None)
    assert t.line.endswith("Bob is out of the game. Ann wins!")


def test_several_players_can_be_eliminated_at_once() -> None:
    # 1994 rules: everyone holding cards when a player goes out flips a card; several may run out together.
    t = Table()
    for _ in range(5):
        t.go_out("Ann")
    assert t.out() == ["Bob", "Cy"]
    assert (t.status, t.winners) == (Status.FINISHED, ("Ann",))


# --- 6. Sudden Death --------------------------------------------------------------------------


def test_sudden_death_ends_when_anyone_loses_their_last_life_and_most_lives_wins() -> None:
    # 1994 rules, Sudden Death: "As soon as one player flips all ALIVE cards, the game ends. The player with
    # the most ALIVE cards remaining is the winner."
    t = Table("Ann Bob Cy", "sudden_death").lose_life("Bob").lose_life("Cy", 5)
    assert t.lives() == {"Ann": 5, "Bob": 4, "Cy": 0}
    assert (t.status, t.winners, t.turn) == (Status.FINISHED, ("Ann",), None)


def test_sudden_death_tie_is_broken_by_the_lowest_total_of_number_cards() -> None:
    # 1994 rules: "If there is a tie, the tied players add the total value of the number cards remaining in
    # their hand. The player with the lowest total wins."
    t = Table("Ann Bob Cy", "sudden_death").lose_life("Cy", 5)
    assert (t.status, t.state.tied, t.turn) == (Status.TIEBREAK, (0, 1), None)
    assert t.legal().tiebreak == ("Ann", "Bob")
    t.refuse("Ann 3", "tiebreak_pending")
    t.do("tiebreak Ann=12 Bob=9")
    assert (t.status, t.winners) == (Status.FINISHED, ("Bob",))
    assert t.line == "Tie-break totals: Ann 12, Bob 9. Bob wins!"


# --- 7. Teams ---------------------------------------------------------------------------------


def test_teams_share_five_lives_and_seats_alternate_by_default() -> None:
    # 1994 rules, Team play: "Team members sit alternately ... Each team uses only one set of ALIVE cards."
    t = Table("Ann Bob Cy Dee Eve", "teams")
    assert [(team.name, team.seats, team.lives) for team in t.state.teams] == [
        ("Team A", (0, 2, 4), 5),
        ("Team B", (1, 3), 5),
    ]
    t.lose_life("Ann")
    assert t.lives() == {"Ann": 4, "Bob": 5, "Cy": 4, "Dee": 5, "Eve": 4}
    assert t.line.endswith("Team A loses a life (4 lives left). Bob's turn.")


@pytest.mark.parametrize("count", [2, 3, 7])
def test_teams_need_four_to_six_players(count: int) -> None:
    # 1994 rules: "ALTERNATIVE TEAM PLAY — FOR 4 TO 6 PLAYERS."
    with pytest.raises(InvalidSetup) as caught:
        make_setup([f"P{n}" for n in range(count)], "teams")
    assert caught.value.code == "bad_player_count"


@pytest.mark.parametrize(
    ("players", "teams", "suggested"),
    [
        ("Ann Bob Cy Dee", [["Ann", "Bob"], ["Cy", "Dee"]], "Ann, Cy, Bob, Dee"),
        ("Ann Bob Cy Dee Eve", [["Ann", "Bob"], ["Cy", "Dee", "Eve"]], "Cy, Ann, Dee, Bob, Eve"),
        ("Ann Bob Cy Dee Eve Fay", [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]], "Ann, Dee, Bob, Eve, Cy, Fay"),
    ],
)
def test_a_seating_that_does_not_alternate_is_refused_with_a_suggested_order(
    players: str, teams: list[list[str]], suggested: str
) -> None:
    # 1994 rules: "Team members sit alternately around the table"; another order is refused with a suggestion.
    with pytest.raises(InvalidSetup) as caught:
        make_setup(players.split(), "teams", teams)
    assert caught.value.code == "teams_not_alternating"
    assert caught.value.message == f"Team mates should not sit side by side. Try this seat order: {suggested}."
    # The suggested order is itself accepted.
    assert make_setup(suggested.split(", "), "teams", teams).teams == tuple(tuple(team) for team in teams)


@pytest.mark.parametrize(
    "teams",
    [
        [["Ann", "Cy"]],
        [["Ann", "Cy"], ["Bob"]],
        [["Ann", "Cy"], ["Bob", "Dee", "Zed"]],
        [["Ann", "Cy", "Ann"], ["Bob", "Dee"]],
        [["Ann", "Bob", "Cy"], ["Dee"]],
    ],
)
def test_teams_must_cover_every_player_once_in_two_even_teams(teams: list[list[str]]) -> None:
    # 1994 rules: "DIVIDE INTO 2 TEAMS"; interpretation: every player on exactly one of two even teams.
    with pytest.raises(InvalidSetup) as caught:
        make_setup(["Ann", "Bob", "Cy", "Dee"], "teams", teams)
    assert caught.value.code == "bad_teams"


def test_an_empty_team_is_named_in_the_refusal() -> None:
    # Everyone put in Team A: the sentence says which team to fill, not just that each needs a player.
    with pytest.raises(InvalidSetup) as caught:
        make_setup(["Ann", "Bob", "Cy", "Dee"], "teams", [["Ann", "Bob", "Cy", "Dee"], []])
    assert (caught.value.code, caught.value.message) == ("bad_teams", "Put at least one player in Team B.")


def test_a_team_bomb_hits_teammates_and_can_cost_several_lives() -> None:
    # 1994 rules: "when playing the BOMB, your team might flip several ALIVE cards, if the player(s) don't
    # have a 0"; a Bomb hits "all other players".
    t = Table("Ann Bob Cy Dee", "teams").do("Ann bomb")
    assert [team.lives for team in t.state.teams] == [4, 3]


def test_teams_going_out_costs_the_other_team_one_life_and_a_team_at_zero_loses() -> None:
    # 1994 rules: "When any player plays his last card, the opposing team loses only one life. Play continues
    # as normal until a team flips all ALIVE cards."
    t = Table("Ann Bob Cy Dee", "teams")
    for _ in range(4):
        t.go_out("Cy")
    assert [team.lives for team in t.state.teams] == [5, 1]
    assert t.out() == []
    t.go_out("Ann")
    assert (t.status, t.winners) == (Status.FINISHED, ("Team A",))
    assert t.line.endswith("Team B loses a life (0 lives left). Team A (Ann and Cy) wins!")


# --- 8. House rules ----------------------------------------------------------------------------


def test_house_rules_have_named_switches_with_documented_defaults() -> None:
    # Every disputed point is a named switch with a default, both readings and their sources.
    defaults = {
        "over_21": "refuse",
        "bomb_last_card": "both",
        "zero_answer_last_card": "goes_out",
        "redeal_deal_from": "left",
        "after_redeal": "continue",
        "empty_draw_pile": "reshuffle",
        "new_round_direction": "clockwise",
        "bomb_teammates": "all_others",
        "teams_both_out": "together",
        "tiebreak_tie": "shared",
    }
    assert HouseRules().as_dict() == defaults
    assert len(HOUSE_RULE_SPECS) >= 8
    for spec in HOUSE_RULE_SPECS:
        assert spec.default == defaults[spec.name]
        assert len(spec.values) >= 2
        for reading in spec.readings:
            assert reading.summary and reading.source
    assert SPECS_BY_NAME["over_21"].reading("bust").source.startswith("modern text")


def test_house_rules_refuse_unknown_switches_and_values() -> None:
    # interpretation: a typo in a house rule must not silently fall back to the default.
    with pytest.raises(InvalidSetup) as caught:
        make_setup(["Ann", "Bob"], house_rules={"over_22": "refuse"})
    assert caught.value.code == "unknown_house_rule"
    with pytest.raises(InvalidSetup) as caught:
        make_setup(["Ann", "Bob"], house_rules={"over_21": "maybe"})
    assert caught.value.code == "bad_house_rule"
    assert caught.value.message == "House rule over_21 can be 'refuse' or 'bust', not 'maybe'."


def test_over_21_refuse_keeps_the_card_out_of_play() -> None:
    # 1994 rules: "If this would take the total above 21, instead of playing it, you must flip over an ALIVE card."
    t = Table(over_21="refuse").do("Ann 7", "Bob 7", "Cy 7")
    t.refuse("Ann 1", "does_not_fit")
    assert not next(option for option in t.legal().cards if option.card is Card.N1).allowed


def test_over_21_bust_lets_the_card_be_laid_and_returned_as_a_bust() -> None:
    # modern text: "If you play a card that takes the total over 21, you lose one of your Lives! The card is
    # then returned to you. The running total resets to zero."
    t = Table(over_21="bust").do("Ann 7", "Bob 7", "Cy 7", "Ann 1")
    assert t.hand("Ann") == 9  # the 1 came back: only the 7 left her hand
    assert t.lives() == {"Ann": 4, "Bob": 5, "Cy": 5}
    assert (t.total, t.turn, t.discard_pile) == (0, "Bob", 3)
    assert t.line == (
        "Ann played 1: that makes 22, over 21, so it goes back to Ann. It counts as a bust: the total goes back to 0. "
        "Ann loses a life (4 lives left). Bob's turn."
    )
    # Naming the card with Can't play at a refuse table still reads as not playing it.
    t = Table().do("Ann 7", "Bob 7", "Cy 7", "Ann bust 1")
    assert t.line.startswith("Ann can't play (a 1 would go over 21): the total goes back to 0.")


@pytest.mark.parametrize(
    ("value", "lives", "round_"), [("both", {"Bob": 4, "Cy": 3}, 2), ("round_only", {"Bob": 4, "Cy": 4}, 2)]
)
def test_bomb_last_card_switch(value: str, lives: dict[str, int], round_: int) -> None:
    # both: how-to FAQ author answers the Bomb, then ends the round; round_only: interpretation, the last
    # card only ends the hand.
    t = Table(bomb_last_card=value).set_hand("Ann", 1)
    if value == "round_only":
        refused = t.refuse("Ann bomb Bob", "bomb_not_answered")
        assert refused.rule == "bomb-last-card"
        t.do("Ann bomb")
    else:
        t.do("Ann bomb Bob")
    assert {name: t.life(name) for name in ("Bob", "Cy")} == lives
    assert (t.round, t.dealer) == (round_, "Ann")


@pytest.mark.parametrize(("value", "round_", "turn"), [("goes_out", 2, "Cy"), ("draws_one", 1, "Bob")])
def test_zero_answer_last_card_switch(value: str, round_: int, turn: str) -> None:
    # goes_out: 1994 rules flip "if you still have a card or cards when a player gets rid of their last
    # card"; draws_one: interpretation, answering is not a turn, so they draw one and play on.
    t = Table(zero_answer_last_card=value).set_hand("Bob", 1).do("Ann bomb Bob Cy")
    assert t.round == round_
    assert t.turn == turn
    if value == "goes_out":
        assert t.lives() == {"Ann": 4, "Bob": 5, "Cy": 4}
        assert t.dealer == "Bob"
    else:
        assert t.lives() == {"Ann": 5, "Bob": 5, "Cy": 5}
        assert t.hand("Bob") == 1
        assert "drew_after_answer" in t.events


@pytest.mark.parametrize(
    ("value", "hands"), [("left", {"Ann": 9, "Bob": 9, "Cy": 10}), ("direction", {"Ann": 10, "Bob": 9, "Cy": 9})]
)
def test_redeal_deal_from_switch(value: str, hands: dict[str, int]) -> None:
    # left: 1994 rules "He should start dealing to his left"; direction: modern text "dealt again in the
    # current direction of play". Play goes counterclockwise, so the first (extra) card goes to Bob's left
    # (Cy) or to the next player in the direction of play (Ann).
    t = Table(redeal_deal_from=value).do("Ann reverse")
    assert t.turn == "Cy"
    t.set_hand("Ann", 10).do("Cy pass", "Bob redeal")  # 10 + 9 + 9 = 28 cards after the Re-deal left Bob
    assert t.hands() == hands


@pytest.mark.parametrize(("value", "turn"), [("continue", "Ann"), ("left", "Cy")])
def test_after_redeal_switch(value: str, turn: str) -> None:
    # continue: how-to "play will then continue normally"; left: 1994 rules "After a deal of any sort, play
    # always starts to the left".
    t = Table(after_redeal=value).do("Ann reverse", "Cy pass", "Bob redeal")
    assert (t.turn, t.direction) == (turn, COUNTERCLOCKWISE)


@pytest.mark.parametrize(
    ("value", "bob", "draw_pile", "events"), [("reshuffle", 2, 3, "reshuffled"), ("stop", 1, 0, "draw_pile_empty")]
)
def test_empty_draw_pile_switch(value: str, bob: int, draw_pile: int, events: str) -> None:
    # reshuffle: interpretation (common card-game practice); stop: interpretation; all three texts are silent.
    t = Table("Ann Bob", empty_draw_pile=value).set_hand("Bob", 66)
    assert t.draw_pile == 1
    t.do("Ann 1", "Bob 1", "Ann 1", "Bob 1", "Ann draw2")
    assert t.hand("Bob") == 64 + bob
    assert t.draw_pile == draw_pile
    assert events in t.events


@pytest.mark.parametrize(
    ("value", "direction", "turn"), [("clockwise", CLOCKWISE, "Bob"), ("keep", COUNTERCLOCKWISE, "Dee")]
)
def test_new_round_direction_switch(value: str, direction: int, turn: str) -> None:
    # clockwise: 1994 rules "Play proceeds clockwise, starting left of the dealer"; keep: interpretation.
    t = Table("Ann Bob Cy Dee", new_round_direction=value).do("Ann reverse", "Dee pass", "Cy pass", "Bob pass")
    t.go_out("Ann")
    assert (t.round, t.dealer, t.direction, t.turn) == (2, "Ann", direction, turn)


@pytest.mark.parametrize(("value", "lives"), [("all_others", [4, 3]), ("opponents_only", [5, 3])])
def test_bomb_teammates_switch(value: str, lives: list[int]) -> None:
    # all_others: 1994 rules "all other players"; opponents_only: interpretation (a friendlier team game).
    t = Table("Ann Bob Cy Dee", "teams", bomb_teammates=value)
    answerers = ("Bob", "Cy", "Dee") if value == "all_others" else ("Bob", "Dee")
    assert t.legal().bomb_answerers == answerers
    t.do("Ann bomb")
    assert [team.lives for team in t.state.teams] == lives


@pytest.mark.parametrize(("value", "winners"), [("shared", ("Ann", "Bob")), ("fewest_cards", ("Bob",))])
def test_tiebreak_tie_switch(value: str, winners: tuple[str, ...]) -> None:
    # shared: interpretation (the texts stop at "lowest total wins"); fewest_cards: interpretation.
    t = Table("Ann Bob Cy", "sudden_death", tiebreak_tie=value).lose_life("Cy", 4)
    t.set_hand("Bob", 3).lose_life("Cy")
    assert t.status is Status.TIEBREAK
    t.do("tiebreak Ann=4 Bob=4")
    assert t.winners == winners


# --- 9. Hand sizes ----------------------------------------------------------------------------


def test_hand_sizes_follow_plays_draws_bombs_redeals_and_eliminations() -> None:
    # The referee tracks every hand so it notices going out by itself.
    t = Table("Ann Bob Cy")
    t.do("Ann draw2")
    assert (t.hands(), t.draw_pile) == ({"Ann": 9, "Bob": 12, "Cy": 12}, 43)
    t.do("Bob bomb Ann")
    assert t.hands() == {"Ann": 8, "Bob": 11, "Cy": 12}
    t.do("Cy redeal")
    assert t.hands() == {"Ann": 10, "Bob": 10, "Cy": 10}
    t.lose_life("Cy", 4)
    assert t.out() == ["Cy"] and t.hand("Cy") == 0
    assert sum(t.hands().values()) + t.draw_pile + t.discard_pile == 77


def test_a_hand_correction_sets_one_hand_and_is_not_a_turn() -> None:
    # interpretation: the table fixes a miscount; the deck still adds up to 77.
    t = Table().do("Ann 4")
    t.do("Cy holds 12")
    assert (t.hand("Cy"), t.draw_pile, t.turn, t.total) == (12, 45, "Bob", 4)
    assert t.line == "Hand fixed: Cy holds 12 cards. Bob's turn."
    t.do("Cy holds 3")
    assert (t.hand("Cy"), t.discard_pile) == (3, 10)
    # The referee then notices Cy going out by itself.
    t.do("Bob 1", "Cy holds 1", "Cy 2")
    assert t.round == 2 and t.dealer == "Cy"


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (
            0,
            "A player still in the round holds at least one card. "
            "If Bob went out, enter the card they played last instead.",
        ),
        (68, "Bob can hold at most 57 cards: the rest are in other hands."),
        (10, "Bob already holds 10 cards."),
    ],
)
def test_a_hand_correction_refuses_impossible_counts(cards: int, message: str) -> None:
    # interpretation: a hand is at least one card in play and at most what is not in other hands.
    t = Table()
    refused = t.refuse(f"Bob holds {cards}", "bad_hand")
    assert refused.message == message
    with pytest.raises(Refused) as caught:
        apply(t.state, SetHand("Bob", True))
    assert caught.value.code == "bad_hand"


# --- 10. Undo and redo -------------------------------------------------------------------------


def test_undo_restores_the_previous_state_and_redo_reapplies() -> None:
    # Every accepted action is recorded; undo restores exactly the previous state.
    t = Table().do("Ann 7", "Bob skip")
    after_seven = replay(t.setup, t.history.active[:1])
    history = t.history.undo()
    assert history.state() == after_seven
    assert history.can_redo and history.can_undo
    assert history.redo().state() == t.state
    assert history.undo().state() == new_game(t.setup)


def test_a_new_action_clears_the_redo_tail() -> None:
    # A new action clears the redo tail.
    t = Table().do("Ann 7", "Bob skip")
    history = t.history.undo()
    history, state = history.record(Play("Bob", Card.N5))
    assert history.actions == (Play("Ann", Card.N7), Play("Bob", Card.N5))
    assert not history.can_redo
    assert (state.total, state.current) == (12, 2)


def test_replaying_the_record_gives_the_same_state() -> None:
    # Replaying the record from the setup gives the same state.
    t = Table("Ann Bob Cy Dee").do("Ann draw1", "Bob bomb Cy", "Cy redeal", "Dee 7", "Ann holds 2")
    t.go_out("Bob").lose_life("Dee", 2)
    t.check_replay()


def test_undo_and_redo_with_nothing_to_take_back_are_refused() -> None:
    # interpretation: the buttons say why they do nothing.
    history = History(make_setup(["Ann", "Bob"]))
    for method, code in ((history.undo, "nothing_to_undo"), (history.redo, "nothing_to_redo")):
        with pytest.raises(Refused) as caught:
            method()
        assert caught.value.code == code
        assert caught.value.message.startswith("There is nothing to")


def test_undo_takes_back_a_round_end() -> None:
    # Undo restores exactly the previous state, lives and round included.
    t = Table().set_hand("Ann", 1)
    before = t.state
    t.do("Ann 1")
    assert t.round == 2
    assert t.history.undo().state() == before


# --- 11. Refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "code", "message"),
    [
        ("Bob 3", "not_your_turn", "It's Ann's turn, not Bob's."),
        ("Zed 3", "unknown_player", "Nobody called Zed is playing at this table."),
        ("Ann bust", "bust_impossible", "Nobody can go over 21 from 0: even a 7 fits. Play a card."),
        ("Ann skip Bob", "bad_zeros", "Only a Bomb is answered with 0s."),
        ("Ann bomb Bob Bob", "bad_zeros", "Each player discards one 0 to a Bomb, not more."),
        ("Ann bomb Ann", "bad_zeros", "Ann can't answer this Bomb: only the other players still in can."),
        ("Ann bomb Zed", "bad_zeros", "Zed can't answer this Bomb: only the other players still in can."),
        ("tiebreak Ann=1", "no_tiebreak", "There is no tie-break to settle now."),
    ],
)
def test_refusals_carry_a_code_and_a_sentence_and_change_nothing(step: str, code: str, message: str) -> None:
    # One exception type with a machine code and a sentence a player understands.
    t = Table()
    refused = t.refuse(step, code)
    assert isinstance(refused, EngineError)
    assert refused.message == message == str(refused)


def test_refusal_reports_without_raising_and_check_raises() -> None:
    # The UI can ask why an action would be refused before offering it.
    state = new_game(make_setup(["Ann", "Bob"]))
    assert refusal(state, Play("Ann", Card.N7)) is None
    refused = refusal(state, Play("Bob", Card.N7))
    assert refused is not None and refused.code == "not_your_turn"
    with pytest.raises(Refused):
        check(state, Bust("Ann"))


def test_a_finished_game_refuses_every_action() -> None:
    # 1994 rules: the game ends with a winner; a finished game accepts no more plays.
    t = Table("Ann Bob").lose_life("Bob", 5)
    for step in ("Ann 3", "Ann holds 3", "tiebreak Ann=0", "Bob bust"):
        refused = t.refuse(step, "game_over")
        assert refused.message == "The game is over: Ann won. Start a rematch to play again."


def test_tiebreak_refusals_name_the_tied_players() -> None:
    # 1994 rules: the tied players add up the number cards in their hands; interpretation: a hand of n cards
    # cannot add up to more than its n highest number cards.
    t = Table("Ann Bob Cy", "sudden_death").lose_life("Cy", 5).set_hand("Ann", 2)
    assert t.refuse("tiebreak Ann=3", "bad_tiebreak").message == "Enter the total of the number cards in Bob's hand."
    assert t.refuse("tiebreak Ann=3 Cy=1 Bob=2", "bad_tiebreak").message == "Only Ann and Bob are in the tie-break."
    assert t.refuse("tiebreak Ann=14 Bob=2", "bad_tiebreak").message == "Ann's 2 cards can add up to between 0 and 13."
    assert t.refuse("tiebreak Ann=1 Ann=2 Bob=2", "bad_tiebreak").message == "Give each tied player's total once."
    with pytest.raises(Refused):
        apply(t.state, TieBreak((("Ann", -1), ("Bob", 0))))


# --- 12. Legal actions ------------------------------------------------------------------------


def test_legal_actions_grey_out_numbers_that_do_not_fit_and_say_why() -> None:
    # 1994 rules: numbers that take the total above 21 cannot be played.
    t = Table().do("Ann 7", "Bob 7", "Cy 3")
    legal = t.legal()
    assert legal.player == "Ann"
    assert t.allowed() == {c.value for c in Card} - {"5", "6", "7"}
    reasons = {option.card.value: option.reason for option in legal.cards if not option.allowed}
    assert reasons["5"] == "That 5 makes 22: play another card, or tap Can't play."
    assert (legal.can_bust, legal.bust_reason) == (True, None)
    assert legal.bomb_answerers == ("Bob", "Cy")


def test_legal_actions_say_when_a_bust_is_impossible() -> None:
    # interpretation: nobody can bust at 14 or less (the largest card is 7).
    legal = Table().do("Ann 7", "Bob 7").legal()
    assert all(option.allowed for option in legal.cards)
    assert legal.can_bust is False
    assert legal.bust_reason == "Nobody can go over 21 from 14: even a 7 fits. Play a card."


def test_legal_actions_mark_cards_that_would_bust_under_over_21_bust() -> None:
    # modern text: the card may be laid, but counts as a bust.
    legal = Table(over_21="bust").do("Ann 7", "Bob 7", "Cy 3").legal()
    busts = {option.card.value for option in legal.cards if option.busts}
    assert busts == {"5", "6", "7"}
    assert all(option.allowed for option in legal.cards)


def test_legal_actions_when_the_game_is_over_or_in_tiebreak() -> None:
    # Nothing can be played once the game is over; the tie-break asks for hand totals.
    t = Table("Ann Bob").lose_life("Bob", 5)
    legal = t.legal()
    assert legal.player is None and not legal.can_bust
    assert {option.reason for option in legal.cards} == {"The game is over."}
    t = Table("Ann Bob Cy", "sudden_death").lose_life("Cy", 5)
    legal = t.legal()
    assert legal.tiebreak == ("Ann", "Bob")
    assert legal.bust_reason == "Settle the tie-break first."


def test_legal_actions_show_no_bomb_answerers_when_a_last_card_bomb_is_not_answered() -> None:
    # house rule bomb_last_card=round_only: a last-card Bomb only ends the round.
    t = Table(bomb_last_card="round_only")
    assert t.legal().bomb_answerers == ("Bob", "Cy")
    t.set_hand("Ann", 1)
    assert t.legal().bomb_answerers == ()


# --- one home per idea ---------------------------------------------------------------------------


def test_turn_order_passes_over_seats_that_are_out() -> None:
    from referee.engine import next_seat, seats_after

    out = (False, True, False, False)  # seat 1 is out of the game
    assert next_seat(out, 0, CLOCKWISE) == 2
    assert next_seat(out, 2, COUNTERCLOCKWISE) == 0
    assert seats_after(out, 0, CLOCKWISE) == (2, 3)
    assert seats_after(out, 0, COUNTERCLOCKWISE) == (3, 2)
    # Alone at the table, the next player is yourself (nobody else to pass to).
    assert next_seat((False, True), 0, CLOCKWISE) == 0
    assert seats_after((False, True), 0, CLOCKWISE) == ()


def test_card_meanings_live_with_the_card() -> None:
    from referee.engine import WILD_CARDS

    assert [card.sets_total_to for card in (Card.EQ21, Card.EQ10, Card.EQ0, Card.BOMB, Card.REDEAL)] == [
        21,
        10,
        0,
        0,
        0,
    ]
    assert Card.PASS.sets_total_to is None and Card.N7.sets_total_to is None
    assert set(WILD_CARDS) == {card for card in Card if not card.is_number} and len(WILD_CARDS) == 10
    # The engine plays each card by its meaning: =10 at 20 makes 10, whatever the total was.
    t = Table().do("Ann eq21", "Bob eq10")
    assert t.total == 10
    assert t.state.events[0].rule == Card.EQ10.rule == "equals-cards"
