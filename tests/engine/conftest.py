"""Shared helpers for the engine's rule and scenario tests: a `Table` that plays short action strings."""

from __future__ import annotations

import pytest

from referee.engine import (
    DECK_SIZE,
    Action,
    Bust,
    Card,
    GameState,
    History,
    Leave,
    Legal,
    Play,
    Player,
    Refused,
    SetHand,
    Status,
    TieBreak,
    describe,
    legal_actions,
    make_setup,
    new_game,
    replay,
)


def parse(step: str) -> Action:
    """Turn a short step into an action.

    "Ann 7", "Ann skip", "Ann eq21"      a card played (Card API names)
    "Ann bomb Bob Cy"                    a Bomb; Bob and Cy discard a 0
    "Ann bust" / "Ann bust 7"            Can't play (optionally naming the card that would not fit)
    "Ann holds 3"                        a hand-size correction
    "Ann leaves"                         Ann leaves the game (gets up from the table)
    "tiebreak Ann=4 Bob=0"               Sudden Death tie-break totals
    """
    words = step.split()
    if words[0] == "tiebreak":
        pairs = tuple((name, int(value)) for name, value in (word.split("=") for word in words[1:]))
        return TieBreak(pairs)
    player, verb, *rest = words
    if verb == "bust":
        return Bust(player, Card.parse(rest[0]) if rest else None)
    if verb == "holds":
        return SetHand(player, int(rest[0]))
    if verb == "leaves":
        return Leave(player)
    card = Card.parse(verb)
    return Play(player, card, tuple(rest))


class Table:
    """A game driven by short step strings, keeping its History and the log line of every step."""

    def __init__(
        self,
        players: str = "Ann Bob Cy",
        variant: str = "standard",
        teams: list[list[str]] | None = None,
        first: str | None = None,
        **house_rules: str,
    ) -> None:
        self.setup = make_setup(players.split(), variant, teams, first, house_rules)
        self.state: GameState = new_game(self.setup)
        self.history = History(self.setup)
        self.lines: list[str] = []

    # -- driving the game --

    def do(self, *steps: str) -> Table:
        """Apply each step through the History; fail the test if one is refused."""
        for step in steps:
            action = parse(step)
            before = self.state
            self.history, self.state = self.history.record(action, before)
            self.lines.append(describe(before, action, self.state))
            assert self.state.cards_in_play == DECK_SIZE, f"cards not conserved after {step!r}"
        return self

    def refuse(self, step: str, code: str) -> Refused:
        """Assert the step is refused with `code` and that nothing changed; return the refusal."""
        before = self.state
        with pytest.raises(Refused) as caught:
            self.history.record(parse(step), before)
        assert caught.value.code == code, caught.value.message
        assert self.state == before
        assert caught.value.message  # a sentence for players, never empty
        return caught.value

    def set_hand(self, name: str, cards: int) -> Table:
        """Correct a hand size (skipped when it already holds that many)."""
        if self.hand(name) != cards:
            self.do(f"{name} holds {cards}")
        return self

    def to_turn(self, name: str) -> Table:
        """Everyone before `name` plays Pass Me By until it is `name`'s turn."""
        for _ in range(20):
            current = self.turn
            assert current is not None
            if current.casefold() == name.casefold():
                return self
            if self.hand(current) < 2:
                self.set_hand(current, 5)
            self.do(f"{current} pass")
        raise AssertionError(f"never reached {name}'s turn")

    def go_out(self, name: str, card: str = "0") -> Table:
        """`name` plays their last card (a 0 unless told) on their turn, ending the round."""
        self.to_turn(name)
        self.set_hand(name, 1)
        return self.do(f"{name} {card}")

    def lose_life(self, name: str, times: int = 1) -> Table:
        """`name` busts `times` times: the others play =21 until `name` faces 21, then Can't play."""
        for _ in range(times):
            for _ in range(20):
                current = self.turn
                assert current is not None
                if current.casefold() == name.casefold() and self.total >= 15:
                    self.do(f"{current} bust")
                    break
                if self.hand(current) < 2:
                    self.set_hand(current, 5)
                self.do(f"{current} eq21")
            else:
                raise AssertionError(f"{name} never faced a bust")
        return self

    # -- what a player sees --

    @property
    def line(self) -> str:
        """The log sentence of the latest step."""
        return self.lines[-1]

    @property
    def total(self) -> int:
        return self.state.total

    @property
    def turn(self) -> str | None:
        player = self.state.current_player
        return None if player is None else player.name

    @property
    def direction(self) -> int:
        return self.state.direction

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def dealer(self) -> str | None:
        return None if self.state.dealer is None else self.state.players[self.state.dealer].name

    @property
    def draw_pile(self) -> int:
        return self.state.draw_pile

    @property
    def discard_pile(self) -> int:
        return self.state.discard_pile

    @property
    def status(self) -> Status:
        return self.state.status

    @property
    def winners(self) -> tuple[str, ...]:
        return self.state.winners

    @property
    def events(self) -> list[str]:
        """The kinds of the events the latest step produced."""
        return [event.kind for event in self.state.events]

    def hand(self, name: str) -> int:
        return self.player(name).hand

    def life(self, name: str) -> int:
        return self.player(name).lives

    def player(self, name: str) -> Player:
        seat = self.state.seat_of(name)
        assert seat is not None
        return self.state.players[seat]

    def hands(self) -> dict[str, int]:
        return {player.name: player.hand for player in self.state.players}

    def lives(self) -> dict[str, int]:
        return {player.name: player.lives for player in self.state.players}

    def out(self) -> list[str]:
        return [player.name for player in self.state.players if player.out]

    def legal(self) -> Legal:
        return legal_actions(self.state)

    def allowed(self) -> set[str]:
        """API names of the cards the current player may play now."""
        return {option.card.value for option in self.legal().cards if option.allowed}

    def check_replay(self) -> None:
        """Replaying the record from the setup gives exactly the current state."""
        assert replay(self.setup, self.history.active) == self.state
        assert self.history.state() == self.state
