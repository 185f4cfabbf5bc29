"""Deck sanity: what a real deck makes impossible since the last shuffle, as warnings (never refusals).

The referee knows the deck (RULES-NOTES: 77 playing cards, the number cards certain, some wild-card counts
uncertain), so it can notice an entry no real deck allows: a second Bomb, a second 7, a ninth 0, or a hand
correction that could only take cards back from the discard pile. It never refuses such an entry, because
a wrong count in the texts or a house deck would then block a real game; it says so once, in the log and
the API's `warnings`, with the rule it rests on, and Undo takes the entry and its warning back.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import DECK_COUNTS, Card
from .events import Event, EventKind
from .words import N_, N_plural, Sentence

RULE = "card-count-warning"

# The most of each card any known printing holds: only more than this is impossible. The 1994 copy lost
# the Reverse and Bomb digits, and several 2021 versions have Reverse x6 / Skip x4 instead of x4 / x6
# (RULES-NOTES), so Reverse and Skip warn only above 6; the Bomb is 1 in every reading of the 77-card total.
CERTAIN_MOST: dict[Card, int] = {**DECK_COUNTS, Card.REVERSE: 6, Card.SKIP: 6}

# A count as a sentence says it ("only two 7s", "no Bombs"): writing, not reading. The rules search's number names
# (referee/rulebook/phrases.py) read a player's words into figures, a job with other words ("nought", "nil"), and the
# engine imports nothing above it.
_WORDS = ("no", "one", N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"), N_("eight"))


@dataclass(frozen=True)
class DeckWarning:
    """One entry a real deck cannot produce: what to check, and the rule behind it."""

    code: str
    """"card_count" (more of a card than the deck holds) or "hand_count" (a hand that cannot be)."""
    message: Sentence
    rule: str
    card: Card | None = None


def over_count(card: Card, seen: int) -> bool:
    """True when `seen` copies of `card` since the last shuffle is more than any real deck holds."""
    return seen > CERTAIN_MOST[card]


def _card_count_message(card: Card, count: int) -> Sentence:
    """ "The deck has only two 7s, all played since the shuffle — was that really a 7? Undo if not." """
    name = Sentence(card.label)
    # "an =21", "a 7": only the wild cards that set the total start with a sound that takes "an".
    an = card.label.startswith("=")
    if count == 1:
        if an:
            template = N_(
                "The deck has only one %(card)s, already played since the shuffle — was that really an %(card)s? "
                "Undo if not."
            )
        else:
            template = N_(
                "The deck has only one %(card)s, already played since the shuffle — was that really a %(card)s? "
                "Undo if not."
            )
        return Sentence(template, card=name)
    if card.is_number:
        template = N_(
            "The deck has only %(number)s %(card)ss, all played since the shuffle — was that really a %(card)s? "
            "Undo if not."
        )
    elif an:
        template = N_(
            "The deck has only %(number)s %(card)s cards, all played since the shuffle — was that really an "
            "%(card)s? Undo if not."
        )
    else:
        template = N_(
            "The deck has only %(number)s %(card)s cards, all played since the shuffle — was that really a "
            "%(card)s? Undo if not."
        )
    return Sentence(template, card=name, number=Sentence(_WORDS[count]))


def warning(event: Event) -> DeckWarning | None:
    """The warning an event carries, or None for an ordinary event."""
    if event.kind is EventKind.CARD_COUNT_WARNING and event.card is not None and event.value is not None:
        return DeckWarning("card_count", _card_count_message(event.card, event.value), RULE, event.card)
    if event.kind is EventKind.HAND_COUNT_WARNING and event.value is not None:
        message = Sentence(
            N_plural(
                "Only %(count)s card was left to draw, so %(name)s can't really hold that many: check the count, "
                "or Undo.",
                "Only %(count)s cards were left to draw, so %(name)s can't really hold that many: check the count, "
                "or Undo.",
            ),
            count=event.value,
            name=event.player or "",
        )
        return DeckWarning("hand_count", message, RULE)
    return None


def warnings(events: tuple[Event, ...]) -> tuple[DeckWarning, ...]:
    """Every deck warning the last action raised, in order."""
    found = (warning(event) for event in events)
    return tuple(item for item in found if item is not None)
