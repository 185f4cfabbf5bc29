"""The actions a table can record, as typed values."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True)
class Play:
    """`player` lays `card` on the discard pile; with a Bomb, `zeros` are those who discarded a 0."""

    player: str
    card: Card
    zeros: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bust:
    """`player` cannot play without going above 21 ("Can't play"); `card` is set when they tried one."""

    player: str
    card: Card | None = None


@dataclass(frozen=True)
class SetHand:
    """A correction: `player` really holds `cards` cards. Not a turn."""

    player: str
    cards: int


@dataclass(frozen=True)
class TieBreak:
    """Sudden Death tie-break: each tied player's total of number cards left in hand."""

    values: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Leave:
    """`player` gets up and leaves the game for good (bedtime, a phone call); their hand is set aside. Not a turn."""

    player: str


Action = Play | Bust | SetHand | TieBreak | Leave
