"""The record of a table: setup plus accepted actions; undo and redo move a cursor, state is replay."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from .actions import Action
from .errors import EngineError, Refused, RefusedAt
from .events import EventKind
from .game import apply
from .setup import new_game
from .state import GameState, Setup
from .words import N_


def replay(setup: Setup, actions: Iterable[Action]) -> GameState:
    """Return the state after applying `actions` in order to a fresh game from `setup`."""
    state = new_game(setup)
    for action in actions:
        state = apply(state, action)
    return state


# A checkpoint is the state after every this many actions: undo and redo replay from the newest checkpoint
# at or before the cursor, so their cost stays bounded however long the game (docs/performance.md).
CHECKPOINT_EVERY = 50


def round_dealt(state: GameState) -> int | None:
    """The round the action that led to `state` dealt (its NEW_ROUND event), if it dealt one."""
    for event in state.events:
        if event.kind is EventKind.NEW_ROUND and isinstance(event.value, int):
            return event.value
    return None


@dataclass(frozen=True)
class History:
    """Every accepted action and how many of the newest are undone (the redo tail).

    `checkpoints[k]` is the state after the first `(k + 1) * CHECKPOINT_EVERY` actions, and `rounds` the
    (action index, round) of every action that dealt a new round, the undone tail included: derived data, a
    cache of replay (the engine is deterministic), so they take no part in comparisons.
    """

    setup: Setup
    actions: tuple[Action, ...] = ()
    undone: int = 0
    checkpoints: tuple[GameState, ...] = field(default=(), compare=False, repr=False)
    rounds: tuple[tuple[int, int], ...] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # A history made from actions alone (not by rebuild or record) works its rounds out once, here:
        # the log's round separators must never be missing, however the history was made.
        if self.rounds is None:
            states = enumerate(self.states_after(0)) if self.actions else iter(())
            rounds = tuple((index, dealt) for index, state in states if (dealt := round_dealt(state)) is not None)
            object.__setattr__(self, "rounds", rounds)

    @classmethod
    def rebuild(
        cls,
        setup: Setup,
        actions: tuple[Action, ...],
        undone: int = 0,
        *,
        each: Callable[[GameState, Action, GameState], object] | None = None,
    ) -> History:
        """Return the history of `actions` with its checkpoints and rounds, replaying the whole log once.

        `each(before, action, after)` is called at every step of the replay: an import writes its log lines from
        them, so that checking a game and storing it replay it once. An action the rules refuse raises RefusedAt,
        which says its number.
        """
        state = new_game(setup)
        checkpoints = []
        rounds = []
        for count, action in enumerate(actions, start=1):
            try:
                after = apply(state, action)
            except EngineError as refused:
                raise RefusedAt(count, refused) from None
            if each is not None:
                each(state, action, after)
            state = after
            if count % CHECKPOINT_EVERY == 0:
                checkpoints.append(state)
            if (dealt := round_dealt(state)) is not None:
                rounds.append((count - 1, dealt))
        return cls(setup, actions, undone, tuple(checkpoints), tuple(rounds))

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
        """Return the state the active actions lead to (replayed from the newest checkpoint before them)."""
        count = len(self.actions) - self.undone
        usable = min(count // CHECKPOINT_EVERY, len(self.checkpoints))
        state = self.checkpoints[usable - 1] if usable else new_game(self.setup)
        for action in self.actions[usable * CHECKPOINT_EVERY : count]:
            state = apply(state, action)
        return state

    def states_after(self, start: int) -> Iterator[GameState]:
        """Yield the state right after each action from index `start` on, the undone tail included."""
        usable = min(start // CHECKPOINT_EVERY, len(self.checkpoints))
        state = self.checkpoints[usable - 1] if usable else new_game(self.setup)
        for action in self.actions[usable * CHECKPOINT_EVERY : start]:
            state = apply(state, action)
        for action in self.actions[start:]:
            state = apply(state, action)
            yield state

    def rounds_from(self, first: int) -> dict[int, int]:
        """Action index -> the round that action dealt, for the actions from index `first` on (undone ones too)."""
        opened = {}
        for index, dealt in reversed(self.rounds or ()):
            if index < first:
                break
            opened[index] = dealt
        return opened

    def record(self, action: Action, state: GameState | None = None) -> tuple[History, GameState]:
        """Apply `action` (to `state`, if the caller has it) and keep it; a new action drops the redo tail."""
        after = apply(state if state is not None else self.state(), action)
        kept = len(self.active)
        actions = (*self.active, action)
        # Checkpoints and rounds past the cursor belonged to the dropped redo tail.
        checkpoints = self.checkpoints[: kept // CHECKPOINT_EVERY]
        if len(actions) % CHECKPOINT_EVERY == 0 and len(checkpoints) == len(actions) // CHECKPOINT_EVERY - 1:
            checkpoints = (*checkpoints, after)
        rounds = self.rounds or ()
        if self.undone:
            rounds = tuple(pair for pair in rounds if pair[0] < kept)
        if (dealt := round_dealt(after)) is not None:
            rounds = (*rounds, (kept, dealt))
        return History(self.setup, actions, 0, checkpoints, rounds), after

    def undo(self) -> History:
        """Take back the newest active action."""
        if not self.can_undo:
            raise Refused("nothing_to_undo", N_("There is nothing to undo yet."), rule="undo")
        return replace(self, undone=self.undone + 1)

    def redo(self) -> History:
        """Put back the action undone last."""
        if not self.can_redo:
            raise Refused("nothing_to_redo", N_("There is nothing to redo."), rule="undo")
        return replace(self, undone=self.undone - 1)
