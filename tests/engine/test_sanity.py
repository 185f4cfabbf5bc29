"""Deck sanity checks. Entries no real deck allows since the last shuffle warn, never refuse; Undo clears."""

from __future__ import annotations

import pytest

from referee.engine import CERTAIN_MOST, Card, EventKind, key_rule, unusual_rule, warnings

from .conftest import Table


def test_a_second_7_is_accepted_with_a_warning_in_the_log() -> None:
    # RULES-NOTES: the deck has one 7 (1994 rules, contents list: certain).
    t = Table().do("Ann 7")
    assert warnings(t.state.events) == ()
    t.do("Bob 7")  # accepted: never refused
    assert t.total == 14 and t.turn == "Cy"
    (found,) = warnings(t.state.events)
    assert (found.code, found.card, found.rule) == ("card_count", Card.N7, "card-count-warning")
    assert found.message == (
        "The deck has only one 7, already played since the shuffle — was that really a 7? Undo if not."
    )
    assert found.message in t.line
    # The log's "Why?" link and the "Just now" line's point at the rule the warning rests on.
    assert key_rule(t.state.events) == unusual_rule(t.state.events) == "card-count-warning"


def test_undo_takes_the_entry_and_its_warning_back() -> None:
    t = Table().do("Ann 7", "Bob 7")
    t.history = t.history.undo()
    t.state = t.history.state()
    assert warnings(t.state.events) == () and t.total == 7
    t.do("Bob 6")
    assert warnings(t.state.events) == ()


def test_a_second_bomb_warns() -> None:
    t = Table().do("Ann bomb Bob Cy", "Bob bomb Ann Cy")
    (found,) = warnings(t.state.events)
    assert found.card is Card.BOMB and "only one Bomb" in found.message
    assert t.lives() == {"Ann": 5, "Bob": 5, "Cy": 5}  # the Bomb still did what a Bomb does


def test_two_6s_are_fine_and_a_third_warns() -> None:
    t = Table().do("Ann 6", "Bob 6")
    assert warnings(t.state.events) == ()
    t.do("Cy eq0", "Ann 6")
    assert [w.card for w in warnings(t.state.events)] == [Card.N6]
    assert "only two 6s" in t.line


def test_a_ninth_0_discarded_to_bombs_warns() -> None:
    # Eight 0s in the deck (certain). Four players answer one Bomb with 3 zeros; 0s played count too.
    t = Table("Ann Bob Cy Dee").do("Ann 0", "Bob 0", "Cy 0", "Dee 0", "Ann 0")
    assert warnings(t.state.events) == ()
    t.do("Bob bomb Cy Dee Ann")  # zeros 6, 7, 8: still possible
    assert warnings(t.state.events) == ()
    t.do("Cy 0")
    assert "only eight 0s" in t.line


@pytest.mark.parametrize("card", [Card.REVERSE, Card.SKIP])
def test_uncertain_counts_warn_only_above_the_highest_printing(card: Card) -> None:
    # RULES-NOTES: Reverse x4 / Skip x6 in the 1994 contents, Reverse x6 / Skip x4 in some 2021 versions.
    assert CERTAIN_MOST[card] == 6
    t = Table("Ann Bob Cy Dee")
    for _ in range(6):
        current = t.turn
        assert current is not None
        t.do(f"{current} {card.value}")
        assert warnings(t.state.events) == ()
    current = t.turn
    assert current is not None
    t.do(f"{current} {card.value}")
    assert [w.card for w in warnings(t.state.events)] == [card]


def test_a_new_round_is_a_new_shuffle() -> None:
    t = Table().do("Ann 7").go_out("Bob", "3")
    assert t.round == 2
    t.to_turn("Ann")
    t.do("Ann 7")
    assert warnings(t.state.events) == ()


def test_refilling_the_draw_pile_keeps_only_the_top_card_counted() -> None:
    # Cy holds almost the whole deck; the draw pile empties during Ann's Draw 2 and the discards are reused.
    t = Table().set_hand("Cy", 54).do("Ann 7", "Bob 1", "Cy 1", "Ann draw2")
    assert "reshuffled" in t.events
    t.do("Bob 7")  # the first 7 went back into the draw pile: it can be played again
    assert warnings(t.state.events) == ()


def test_a_correction_that_takes_cards_back_from_the_discard_pile_warns() -> None:
    t = Table().set_hand("Cy", 54)
    assert t.draw_pile == 3
    t.do("Ann 1", "Bob 2")
    t.do("Ann holds 12")  # 3 more from the draw pile: possible
    assert warnings(t.state.events) == ()
    t.do("Bob holds 11")  # 2 more, but the draw pile is empty: only the discard pile has cards
    (found,) = warnings(t.state.events)
    assert found.code == "hand_count" and found.card is None
    assert (
        found.message == "Only 0 cards were left to draw, so Bob can't really hold that many: check the count, or Undo."
    )
    assert t.hand("Bob") == 11  # accepted all the same
    assert EventKind.HAND_COUNT_WARNING in t.events
