"""A table's event log: every action with its status (active, undone, dropped)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .changes import ChangeRelay
from .rows import Db, EventRow, NewEvent

log = logging.getLogger(__name__)


class EventQueries(ChangeRelay):
    """Queries on the `events` rows."""

    def events(self, db: Db, table_id: int) -> list[EventRow]:
        """Return the table's active and undone events in order (dropped ones are history only)."""
        rows = db.execute(
            "SELECT id, seq, action, status, text, rule, note_rule, device_id, device_player, created_at, status_by,"
            " status_at, sentences FROM events WHERE table_id = ? AND status != 'dropped' ORDER BY seq",
            (table_id,),
        ).fetchall()
        return [EventRow(**dict(row)) for row in rows]

    def append_event(
        self,
        db: Db,
        table_id: int,
        *,
        action: str,
        text: str,
        rule: str | None,
        note_rule: str | None,
        sentences: str | None = None,
        device_id: int | None,
        device_player: str | None,
        created_at: float,
        has_undone: bool = True,
    ) -> int:
        """Record a new action and return its seq; it drops the redo tail (undone events cannot come back).

        `has_undone=False` (the caller knows nothing is undone) skips looking for a redo tail.
        """
        if has_undone:
            db.execute("UPDATE events SET status = 'dropped' WHERE table_id = ? AND status = 'undone'", (table_id,))
        # Two statements rather than INSERT … SELECT MAX: PostgreSQL cannot type parameters in a SELECT list. The
        # caller holds the table's row lock, so no other writer can take the same seq in between.
        last = db.execute("SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE table_id = ?", (table_id,))
        seq = int(last.fetchone()["seq"]) + 1
        db.execute(
            "INSERT INTO events (table_id, seq, action, text, sentences, rule, note_rule, device_id, device_player,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seq, action, text, sentences, rule, note_rule, device_id, device_player, created_at),
        )
        return seq

    def insert_log(self, db: Db, table_id: int, events: Sequence[NewEvent], *, undone: int, created_at: float) -> None:
        """Record a new table's whole log in one batch (an import): seq 1, 2, … in order, entered by no phone, the
        newest `undone` of them undone (with no phone or time said for the Undo)."""
        active = len(events) - undone
        db.executemany(
            "INSERT INTO events (table_id, seq, action, status, text, sentences, rule, note_rule, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    seq,
                    event.action,
                    "active" if seq <= active else "undone",
                    event.text,
                    event.sentences,
                    event.rule,
                    event.note_rule,
                    created_at,
                )
                for seq, event in enumerate(events, start=1)
            ],
        )

    def set_version(self, db: Db, table_id: int, version: int) -> None:
        """Set a new table's version and revision at once (an import counts its actions in one go)."""
        db.execute("UPDATE tables SET version = ?, revision = ? WHERE id = ?", (version, version, table_id))
        self._announce(db, table_id)

    def event_with_status(self, db: Db, table_id: int, status: str, *, newest: bool) -> tuple[int, int]:
        """Return (id, seq) of the newest or oldest event with `status` (the one undo or redo acts on)."""
        order = "DESC" if newest else "ASC"
        row = db.execute(
            f"SELECT id, seq FROM events WHERE table_id = ? AND status = ? ORDER BY seq {order} LIMIT 1",
            (table_id, status),
        ).fetchone()
        return int(row["id"]), int(row["seq"])

    def set_event_status(self, db: Db, event_id: int, status: str) -> None:
        """Mark one event active or undone (undo and redo)."""
        db.execute("UPDATE events SET status = ? WHERE id = ?", (status, event_id))

    def set_status_by(self, db: Db, event_id: int, pressed_by: str | None, at: float) -> None:
        """Record which phone pressed Undo or Redo on an event, and when (shown in the log and on the strip)."""
        db.execute("UPDATE events SET status_by = ?, status_at = ? WHERE id = ?", (pressed_by, at, event_id))
