"""The 77 playing cards of 5 Alive, and everything a card means: its value or the total it sets,
its name, how many the box holds, its rulebook entry, and the order of the wild-card pad."""

from __future__ import annotations

from enum import Enum

from .words import N_


class Card(Enum):
    """One kind of playing card; the value is the API name ("0"…"7", "draw1", …)."""

    N0 = "0"
    N1 = "1"
    N2 = "2"
    N3 = "3"
    N4 = "4"
    N5 = "5"
    N6 = "6"
    N7 = "7"
    DRAW1 = "draw1"
    DRAW2 = "draw2"
    PASS = "pass"
    REVERSE = "reverse"
    SKIP = "skip"
    EQ21 = "eq21"
    EQ10 = "eq10"
    EQ0 = "eq0"
    REDEAL = "redeal"
    BOMB = "bomb"

    # A card is the one object of its kind, so it is hashed by identity, in C. Enum's own hash is a Python call
    # (it hashes the name), and drawing a board looks cards up in dicts about two hundred times.
    __hash__ = object.__hash__

    @property
    def number(self) -> int | None:
        """The value a number card adds to the total, or None for a wild card."""
        return NUMBER_VALUES.get(self)

    @property
    def is_number(self) -> bool:
        """True for the number cards 0–7."""
        return self in NUMBER_VALUES

    @property
    def sets_total_to(self) -> int | None:
        """The running total right after this card, whatever it was before; None if the card adds to it.

        =21, =10 and =0 set the total; a Bomb and a Re-deal reset it to 0 (1994 rules). The other wild
        cards count as 0, which adds nothing (RULES-NOTES: "counts as 0" is not a reset).
        """
        return SETS_TOTAL.get(self)

    @property
    def rule(self) -> str:
        """The id of the rulebook entry that explains this card."""
        return CARD_RULES[self]

    @property
    def label(self) -> str:
        """The name printed on the button and in the log ("7", "Draw 2", "=21")."""
        return LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Return the card named by its API name; raise ValueError for anything else."""
        return cls(text)


NUMBER_VALUES: dict[Card, int] = {
    Card.N0: 0,
    Card.N1: 1,
    Card.N2: 2,
    Card.N3: 3,
    Card.N4: 4,
    Card.N5: 5,
    Card.N6: 6,
    Card.N7: 7,
}

# The wild cards' names are marked for the catalogs: a sentence that names a card says it in the phone's language.
LABELS: dict[Card, str] = {
    **{card: str(value) for card, value in NUMBER_VALUES.items()},
    Card.DRAW1: N_("Draw 1"),
    Card.DRAW2: N_("Draw 2"),
    Card.PASS: N_("Pass Me By"),
    Card.REVERSE: N_("Reverse"),
    Card.SKIP: N_("Skip"),
    Card.EQ21: "=21",
    Card.EQ10: "=10",
    Card.EQ0: "=0",
    Card.REDEAL: N_("Re-deal"),
    Card.BOMB: N_("Bomb"),
}

TARGET = 21
"""The highest total allowed; exactly 21 is fine (all three texts)."""

SETS_TOTAL: dict[Card, int] = {
    Card.EQ21: TARGET,
    Card.EQ10: 10,
    Card.EQ0: 0,
    Card.BOMB: 0,
    Card.REDEAL: 0,
}

WILD_CARDS: tuple[Card, ...] = (
    Card.DRAW1,
    Card.DRAW2,
    Card.PASS,
    Card.REVERSE,
    Card.SKIP,
    Card.EQ21,
    Card.EQ10,
    Card.EQ0,
    Card.REDEAL,
    Card.BOMB,
)
"""The wild cards in the order the card pad shows them."""

CARD_RULES: dict[Card, str] = {
    **{card: "number-cards" for card in NUMBER_VALUES},
    Card.DRAW1: "draw-cards",
    Card.DRAW2: "draw-cards",
    Card.PASS: "pass-me-by",
    Card.REVERSE: "reverse",
    Card.SKIP: "skip",
    Card.EQ21: "equals-cards",
    Card.EQ10: "equals-cards",
    Card.EQ0: "equals-cards",
    Card.REDEAL: "redeal",
    Card.BOMB: "bomb",
}

# How many of each card the box holds. The number cards are certain (1994 rules, contents list);
# the 1994 copy lost the Bomb and Reverse digits, so those two are inferred from the 77-card total
# (RULES-NOTES.md). The referee never refuses a card for being played "too often": decks differ.
DECK_COUNTS: dict[Card, int] = {
    Card.N0: 8,
    Card.N1: 8,
    Card.N2: 8,
    Card.N3: 8,
    Card.N4: 8,
    Card.N5: 4,
    Card.N6: 2,
    Card.N7: 1,
    Card.DRAW1: 2,
    Card.DRAW2: 2,
    Card.PASS: 4,
    Card.REVERSE: 4,
    Card.SKIP: 6,
    Card.EQ21: 5,
    Card.EQ10: 2,
    Card.EQ0: 3,
    Card.REDEAL: 1,
    Card.BOMB: 1,
}

DECK_SIZE = 77
HAND_SIZE = 10
LIVES = 5
LARGEST_NUMBER = 7
# A bust needs a card that does not fit; with 7 the largest card, nothing busts at 14 or less.
LOWEST_BUST_TOTAL = TARGET - LARGEST_NUMBER + 1

# Number cards from the largest down, for the highest possible tie-break value of a hand.
_NUMBERS_HIGH_FIRST: tuple[int, ...] = tuple(
    value for card, value in sorted(NUMBER_VALUES.items(), key=lambda item: -item[1]) for _ in range(DECK_COUNTS[card])
)


def highest_hand_value(cards: int) -> int:
    """Return the largest sum of number cards a hand of `cards` cards could hold."""
    return sum(_NUMBERS_HIGH_FIRST[:cards])
