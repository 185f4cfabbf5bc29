"""What an action made happen: the event kinds (one home for their names) and the Event value.

The log (narrate.py), the "Why?" of the "Just now" line and the table templates all read these. EventKind is a
StrEnum, so a template's `'new_round' in last_events` keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card


class EventKind(StrEnum):
    """One kind of thing that can happen at the table."""

    PLAYED = "played"
    """A card was laid on the discard pile."""
    LAST_CARD_EFFECT_VOID = "last_card_effect_void"
    """A wild card was the player's last card: it ends the round and its own effect does not count."""
    REVERSE_AS_PASS = "reverse_as_pass"
    """With two players left, a Reverse acted as Pass Me By."""
    REVERSED = "reversed"
    """The direction of play changed; `value` is the new direction."""
    SKIP_AGAIN = "skip_again"
    """With two players left, a Skip gave its player another turn."""
    SKIPPED = "skipped"
    """`player` misses this turn because of a Skip."""
    BUST = "bust"
    """`player` could not play without going over 21; `value` is the number card they tried, if named."""
    BOMB_NOT_ANSWERED = "bomb_not_answered"
    """A Bomb as last card only ended the round (house rule bomb_last_card=round_only)."""
    ANSWERED_ZERO = "answered_zero"
    """`player` discarded a 0 to a Bomb."""
    NO_ZERO = "no_zero"
    """`player` had no 0 for a Bomb."""
    BOMB_LAST_CARD = "bomb_last_card"
    """A Bomb that was its player's last card was answered, and now the round ends."""
    DREW_AFTER_ANSWER = "drew_after_answer"
    """`player` emptied their hand with a 0 answered to a Bomb and drew one to play on."""
    ZERO_EMPTIED_HAND = "zero_emptied_hand"
    """`player` emptied their hand with a 0 answered to a Bomb, so they have gone out."""
    REDEALT = "redealt"
    """`player` gathered every hand and dealt them again; `value` is how many cards were dealt."""
    PLAY_STARTS_LEFT = "play_starts_left"
    """After a re-deal, play starts on the dealer's left (house rule after_redeal)."""
    DRAW_PILE_EMPTY = "draw_pile_empty"
    """Someone had to draw, but no card was left to draw."""
    RESHUFFLED = "reshuffled"
    """The discard pile, all but its top card, became the draw pile; `value` is its size."""
    DREW = "drew"
    """`player` drew `value` cards because of a Draw card."""
    HAND_SET = "hand_set"
    """A correction: `player` holds `value` cards."""
    LOST_LIFE = "lost_life"
    """`player` (or their team) lost a life; `value` is the lives left."""
    ELIMINATED = "eliminated"
    """`player` has lost their last life and is out of the game."""
    LEFT = "left"
    """`player` left the game; `value` is how many cards they held, now on the discard pile."""
    BOTH_TEAMS_OUT = "both_teams_out"
    """One Bomb took both teams' last lives; house rule teams_both_out says who wins."""
    TWO_LEFT = "two_left"
    """Only two players are left: the two-player rules apply from now on."""
    TIEBREAK = "tiebreak"
    """Sudden Death ended in a tie: the tied players must add up their hands."""
    TIEBREAK_RESULT = "tiebreak_result"
    """One tied player's (or, in teams, one team's, told by its first player) tie-break total in `value`."""
    GAME_OVER = "game_over"
    """The game has a winner (or winners)."""
    WENT_OUT = "went_out"
    """`player` has no cards left: the round is over."""
    NEW_ROUND = "new_round"
    """Round `value` was dealt by `player`."""
    CARD_COUNT_WARNING = "card_count_warning"
    """More of `card` since the last shuffle than a real deck holds (`value`); a warning, never a refusal."""
    HAND_COUNT_WARNING = "hand_count_warning"
    """A correction gave `player` more cards than were left to draw (`value`); a warning, never a refusal."""


@dataclass(frozen=True)
class Event:
    """One thing an action made happen, for the log and its "Why?" link."""

    kind: EventKind
    player: str | None = None
    value: int | None = None
    rule: str | None = None
    """Id of the rulebook entry that explains it."""
    card: Card | None = None
    """The card a deck warning is about."""
