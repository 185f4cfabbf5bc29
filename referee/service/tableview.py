"""What a page or the API shows of a table at one version: its state, history and log, and its settings."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..engine import GameState, History, Legal, Setup, legal_actions
from .lines import line_from_json


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
    sentences: str | None = None
    """The line's sentences as stored (JSON), which `said` words in any language; None for a line stored before
    they were kept."""

    def said(self) -> str:
        """The line as a Sentence each phone words in its own language; a line stored before sentences were kept
        (or one that cannot be read back) is its English text."""
        if self.sentences is None:
            return self.text
        try:
            return line_from_json(self.sentences)
        except (ValueError, TypeError, KeyError):
            return self.text


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


# The board shows this many log entries; the rest is one tap away ("Show all"), so the board's size (and a live
# refresh's cost) does not grow with the game. The JSON API keeps the whole log.
RECENT_ENTRIES = 30


@dataclass(frozen=True)
class LogLine:
    """One log entry as shown, and the round whose heading stands above it (the round's newest line), if any."""

    entry: LogEntry
    heads_round: int | None


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
    # A tap's answer also compares the log window the phone showed (the view before the tap) with the new one.
    @cached_property
    def legal(self) -> Legal:
        """The moves open to the table at this version (engine.legal_actions)."""
        return legal_actions(self.state)

    @cached_property
    def recent_lines(self) -> tuple[LogLine, ...]:
        """The board's window of the log (`log_window` of the newest RECENT_ENTRIES)."""
        return self.log_window(RECENT_ENTRIES)

    def log_window(self, limit: int | None) -> tuple[LogLine, ...]:
        """The newest `limit` entries (all if None), newest first, each with the round heading above it, if any."""
        return self.log_lines(0 if limit is None else max(len(self.log) - limit, 0), len(self.log))

    def log_lines(self, first: int, stop: int) -> tuple[LogLine, ...]:
        """The entries from index `first` up to (not including) `stop`, newest first, each with the round heading
        above it, if any; only these are walked, however long the log (a page of the whole log is one slice).

        Each round's heading stands above its newest line, so it labels the lines under it: the card that ended
        round N - 1 (and dealt round N) sits under round N - 1's heading, and the board's window always shows the
        heading of every round it shows a line of. The newest line of a slice always has its heading: a page of
        the log that starts in the middle of a round says which round it is.
        """
        # The rounds come from the engine's NEW_ROUND events, not from the log's wording (rewording a sentence
        # cannot lose a separator); the history keeps them as its actions are applied, so no replay is needed.
        opened = self.history.rounds_from(first)
        # Walking from the newest line: the undone lines (always the newest) were played in the round the table
        # is in now, their deals never happened; an active line that dealt round N was played in round N - 1
        # (the engine deals rounds one after another). So the slice's newest line was played in the round before
        # the first deal after the slice, if any (a table has a few dozen rounds: only their deals are read).
        newer = [index for index in opened if index >= stop and not self.log[index].undone]
        playing = opened[min(newer)] - 1 if newer else self.state.round
        headed, lines = None, []
        for index in range(stop - 1, first - 1, -1):
            entry = self.log[index]
            dealt = None if entry.undone else opened.get(index)
            if dealt is not None:
                playing = dealt - 1
            lines.append(LogLine(entry, None if playing == headed else playing))
            headed = playing
        return tuple(lines)

    @cached_property
    def last_undo_or_redo(self) -> LogEntry | None:
        """The entry undone or put back, if the table's newest change was an Undo or a Redo (else None)."""
        return undone_or_redone_last(self.log)


@dataclass(frozen=True)
class Created:
    """A new table and the secrets only its creator receives."""

    view: TableView
    token: str
