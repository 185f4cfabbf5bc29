"""What the store hands back: one frozen dataclass per kind of row, and the shape of a connection."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PhoneSeat:
    """Which player a phone speaks for at one table (a rematch reads the series' seats to seat a returning player)."""

    table_id: int
    id: int
    token_hash: str
    player: str | None
    role: str


@dataclass(frozen=True)
class TableRow:
    """A table as stored: its setup (JSON), secrets' forms, version and settings."""

    id: int
    code: str
    setup: str
    token_hash: str
    join_secret: str
    entry: str
    version: int
    revision: int
    rematch_code: str | None
    created_at: float
    previous_setup: str | None = None
    """A rematch: the setup (JSON) of the game it follows; None for a table started afresh."""


@dataclass(frozen=True)
class EventRow:
    """One recorded action of a table's log, with who entered it and whether it is undone."""

    id: int
    seq: int
    action: str
    status: str
    text: str
    rule: str | None
    note_rule: str | None
    device_id: int | None
    device_player: str | None
    created_at: float
    status_by: str | None = None
    """The phone that last pressed Undo (status undone) or Redo (active again) on this event."""
    status_at: float | None = None
    """When Undo or Redo was last pressed on this event (None if never)."""
    sentences: str | None = None
    """The line's sentences as JSON (templates and parameters), to word it in each phone's language; None in rows
    written before they were kept (their English `text` is shown)."""


@dataclass(frozen=True)
class NewEvent:
    """An action to record in a table's log: the action as JSON, its log line, and the rulings behind it."""

    action: str
    text: str
    rule: str | None
    note_rule: str | None
    sentences: str | None = None
    """The line's sentences as JSON (EventRow.sentences)."""


@dataclass(frozen=True)
class DeviceRow:
    """A phone that opened a table: its role, the player it speaks for, and whether it is revoked."""

    id: int
    table_id: int
    label: str
    player: str | None
    role: str
    revoked: bool
    created_at: float


@dataclass(frozen=True)
class JoinRequestRow:
    """A phone's request to be one of the players (it typed the code); the host allows or refuses it."""

    id: int
    table_id: int
    player: str
    status: str
    """pending, allowed, refused, cancelled (by the asker, or its phone was removed) or taken (by another phone);
    the service reads a pending one left unanswered too long as expired (Referee.REQUEST_WAIT_SECONDS)."""
    created_at: float
    """When the phone asked (last re-aimed)."""
    answered_at: float | None = None
    """When the host allowed or refused it (None before, and for requests answered before schema step 8)."""


class Cursor(Protocol):
    """What a query answers: its rows (readable by name and by position) and how many rows it changed."""

    @property
    def rowcount(self) -> int:
        """How many rows the statement changed."""

    def fetchone(self) -> Any:
        """The next row, or None."""

    def fetchall(self) -> list[Any]:
        """Every remaining row."""


class Db(Protocol):
    """A connection as the store's methods use it: `?` placeholders, rows readable by name and position."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor:
        """Run one statement."""

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any:
        """Run one statement once for each set of parameters (one call: a batch, not a round trip each)."""
