"""The record of a table: setup plus accepted actions; undo and redo move a cursor, state is replay."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .actions import Action
from .errors import Refused
from .game import apply
from .setup import new_game
from .state import GameState, Setup


def replay(setup: Setup, actions: Iterable[Action]) -> GameState:
    """Return the state after applying `actions` in order to a fresh game from `setup`."""
    state = new_game(setup)
    for action in actions:
        state = apply(state, action)
    return state


@dataclass(frozen=True)
class History:
    """Every accepted action and how many of the newest are undone (the redo tail)."""

    setup: Setup
    actions: tuple[Action, ...] = ()
    undone: int = 0

    @property
    def active(self) -> tuple[Action, ...]:
        """The actions that count: all but the undone tail."""
        return self.actions[: len(self.actions) - self.undone]

    @property
    def can_undo(self) -> bool:
        """True when there is an action to take back."""
        return len(self.actions) > self.undone

    @property
    def can_redo(self) -> bool:
        """True when an undone action can be put back."""
        return self.undone > 0

    def state(self) -> GameState:
        """Return the state the active actions lead to."""
        return replay(self.setup, self.active)

    def record(self, action: Action, state: GameState | None = None) -> tuple[History, GameState]:
        """Apply `action` (to `state`, if the caller has it) and keep it; a new action drops the redo tail."""
        after = apply(state if state is not None else self.state(), action)
        return replace(self, actions=(*self.active, action), undone=0), after

    def undo(self) -> History:
        """Take back the newest active action."""
        if not self.can_undo:
            raise Refused("nothing_to_undo", "There is nothing to undo yet.", rule="undo")
        return replace(self, undone=self.undone + 1)

    def redo(self) -> History:
        """Put back the action undone last."""
        if not self.can_redo:
            raise Refused("nothing_to_redo", "There is nothing to redo.", rule="undo")
        return replace(self, undone=self.undone - 1)
