"""The game's state as frozen values: setup, players, teams and the running position (no rules here)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from enum import Enum

from .cards import Card
from .events import Event
from .house_rules import HouseRules
from .turns import CLOCKWISE, COUNTERCLOCKWISE, next_seat


class Variant(Enum):
    """Which way of winning the table plays."""

    STANDARD = "standard"
    SUDDEN_DEATH = "sudden_death"
    TEAMS = "teams"


class Status(Enum):
    """Where the game stands."""

    PLAYING = "playing"
    TIEBREAK = "tiebreak"
    FINISHED = "finished"


__all__ = ["CLOCKWISE", "COUNTERCLOCKWISE", "Event", "GameState", "Player", "Setup", "Status", "Team", "Variant"]


def name_key(name: str) -> str:
    """What two names must share to be one player: the same letters, whatever their case, however the accents
    were typed ("José" as one letter or as e and a combining accent) and in whatever width or style ("ＡＮＮ" is
    "Ann"): Unicode's compatibility caseless match (The Unicode Standard, 3.13, D146)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", name).casefold()).casefold()
    return unicodedata.normalize("NFKD", folded)


@dataclass(frozen=True)
class Setup:
    """Everything fixed when the table starts; state is a replay of actions from here."""

    players: tuple[str, ...]
    """Names in seat order; clockwise is to the left, the next name in the list."""
    variant: Variant = Variant.STANDARD
    teams: tuple[tuple[str, ...], ...] = ()
    """Two teams of names (teams variant only), else empty."""
    first_player: str = ""
    """Who plays first in round 1; the dealer is the seat before them."""
    house_rules: HouseRules = field(default_factory=HouseRules)

    def player_named(self, typed: str) -> str | None:
        """The player `typed` names (spaces, case and the way accents were typed aside), or None."""
        wanted = name_key(typed.strip())
        return next((name for name in self.players if name_key(name) == wanted), None)


@dataclass(frozen=True)
class Player:
    """One seat at the table."""

    name: str
    lives: int
    """Lives left (in teams, the team's lives are held on the Team and mirrored here)."""
    hand: int
    """Cards in hand, as the referee counts them."""
    out: bool = False
    """Eliminated: passed over for turns, draws, Bombs and re-deals."""
    left: bool = False
    """Out because they left the game, not because they lost their lives (always `out` too)."""
    team: int | None = None
    """Index into GameState.teams, or None outside the teams variant."""


@dataclass(frozen=True)
class Team:
    """A team in the teams variant: its name, seats and shared lives."""

    name: str
    seats: tuple[int, ...]
    lives: int


@dataclass(frozen=True)
class GameState:
    """The whole referee state after some actions; change it only through `apply`."""

    setup: Setup
    players: tuple[Player, ...]
    teams: tuple[Team, ...]
    round: int
    total: int
    direction: int
    current: int | None
    """Seat index of the player whose turn it is, None once the game is over."""
    dealer: int | None
    draw_pile: int
    discard_pile: int
    status: Status = Status.PLAYING
    winners: tuple[str, ...] = ()
    tied: tuple[int, ...] = ()
    """Seats in a Sudden Death tie-break, waiting for their hand values."""
    events: tuple[Event, ...] = ()
    """What the last action made happen."""
    seen: tuple[tuple[Card, int], ...] = ()
    """How many of each card went on the discard pile since the last shuffle (deck sanity warnings)."""
    discard_top: Card | None = None
    """The card on top of the discard pile, when the referee knows it."""

    @property
    def house_rules(self) -> HouseRules:
        """The table's house rules."""
        return self.setup.house_rules

    @property
    def variant(self) -> Variant:
        """The table's variant."""
        return self.setup.variant

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(seat for seat, player in enumerate(self.players) if not player.out)

    @property
    def current_player(self) -> Player | None:
        """The player whose turn it is, if any."""
        return None if self.current is None else self.players[self.current]

    def seat_of(self, name: str) -> int | None:
        """Return the seat of the player called `name` (ignoring case), or None."""
        for seat, player in enumerate(self.players):
            if player.name == name:
                return seat
        folded = name_key(name)
        for seat, player in enumerate(self.players):
            if name_key(player.name) == folded:
                return seat
        return None

    def players_of(self, winner: str) -> tuple[str, ...]:
        """The players a name in `winners` stands for: a team's players, or the player alone."""
        for team in self.teams:
            if team.name == winner:
                return tuple(self.players[seat].name for seat in team.seats)
        return (winner,)

    def next_active(self, seat: int, direction: int | None = None) -> int:
        """Return the next active seat after `seat` in `direction` (default: the current one)."""
        return next_seat(self.out_flags, seat, self.direction if direction is None else direction)

    @property
    def out_flags(self) -> tuple[bool, ...]:
        """For each seat, whether that player is out of the game (what turn order walks over)."""
        return tuple(player.out for player in self.players)

    @property
    def cards_in_play(self) -> int:
        """Hands plus draw pile plus discard pile: always the whole deck."""
        return sum(player.hand for player in self.players) + self.draw_pile + self.discard_pile
