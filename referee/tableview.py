"""What a page or the API shows of a table at one version: its state, history and log, and its settings."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .engine import GameState, History, Legal, Setup, legal_actions


@dataclass(frozen=True)
class LogEntry:
    """One line of the table's log, with the ruling behind it and who entered it."""

    seq: int
    text: str
    rule: str | None
    note_rule: str | None
    undone: bool
    entered_by: str | None
    status_by: str | None = None
    """The phone that pressed Undo (if undone) or Redo (if put back) on this entry."""
    changed_at: float = 0.0
    """When this entry was last changed: entered, or Undo or Redo pressed on it."""
    status_changed: bool = False
    """True once Undo has been pressed on this entry (its newest change was an Undo or a Redo)."""


def newest_change_key(entry: LogEntry) -> tuple[float, bool, int]:
    """What orders the log's changes in time: when, then an Undo or Redo after the entering, then entry order."""
    # Equal times (a coarse clock): an Undo or Redo comes after the entering, a later entry after an earlier.
    return (entry.changed_at, entry.status_changed, entry.seq)


def undone_or_redone_last(log: tuple[LogEntry, ...]) -> LogEntry | None:
    """The entry undone or put back, if the log's newest change was an Undo or a Redo (else None)."""
    # The log is its active entries, then its undone ones (a new action drops those: Store.append_event). So the
    # newest change is one of three entries, however long the game: the last one (just entered), the first undone
    # one (an Undo) or the last active one (a Redo). Every tap and refresh asks this once per version.
    active = len(log)
    while active and log[active - 1].undone:
        active -= 1
    candidates = [log[index] for index in {len(log) - 1, active - 1, active} if 0 <= index < len(log)]
    newest = max(candidates, key=newest_change_key, default=None)
    return newest if newest is not None and newest.status_changed else None


@dataclass(frozen=True)
class TableView:
    """Everything a page or the API shows of a table at one version."""

    id: int
    code: str
    version: int
    revision: int
    setup: Setup
    state: GameState
    history: History
    log: tuple[LogEntry, ...]
    entry: str
    rematch_code: str | None
    join_secret: str
    previous_setup: Setup | None = None
    """A rematch: the setup of the game it follows (to say what the host changed); None for a first game."""

    @property
    def can_undo(self) -> bool:
        """True when there is an action to take back (none once a rematch follows the game: its result stands)."""
        return self.history.can_undo and self.rematch_code is None

    @property
    def can_redo(self) -> bool:
        """True when an undone action can be put back (none once a rematch follows the game)."""
        return self.history.can_redo and self.rematch_code is None

    # Cached: a view is kept between requests (service.Referee._remember) and drawn for every phone that
    # refreshes; these look through the log or ask the engine about every card, so once per version is enough.
    @cached_property
    def legal(self) -> Legal:
        """The moves open to the table at this version (engine.legal_actions)."""
        return legal_actions(self.state)

    @cached_property
    def last_undo_or_redo(self) -> LogEntry | None:
        """The entry undone or put back, if the table's newest change was an Undo or a Redo (else None)."""
        return undone_or_redone_last(self.log)


@dataclass(frozen=True)
class Created:
    """A new table and the secrets only its creator receives."""

    view: TableView
    token: str
