"""Requests to be a player, from phones that typed the code, and the host's answers."""

from __future__ import annotations

import logging

from .pool import Connections
from .rows import Db, JoinRequestRow

log = logging.getLogger(__name__)


class RequestQueries(Connections):
    """Queries on the `join_requests` rows."""

    _REQUEST_COLUMNS = "SELECT id, table_id, player, status, created_at, answered_at FROM join_requests"

    def add_join_request(self, db: Db, table_id: int, *, token_hash: str, player: str, now: float) -> int:
        """Store a pending request from the phone with this key hash; return its id."""
        row = db.execute(
            "INSERT INTO join_requests (table_id, token_hash, player, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            (table_id, token_hash, player, now),
        ).fetchone()
        return int(row["id"])

    def pending_request_of(self, db: Db, table_id: int, token_hash: str) -> JoinRequestRow | None:
        """Return this phone's pending request at the table, if it has one."""
        row = db.execute(
            self._REQUEST_COLUMNS + " WHERE table_id = ? AND token_hash = ? AND status = 'pending'",
            (table_id, token_hash),
        ).fetchone()
        return None if row is None else JoinRequestRow(**dict(row))

    def latest_request_of(self, table_id: int, token_hash: str, db: Db | None = None) -> JoinRequestRow | None:
        """Return this phone's newest request at the table (pending or answered), if any; in `db`'s transaction
        if given."""
        row = (
            (db or self.read())
            .execute(
                self._REQUEST_COLUMNS + " WHERE table_id = ? AND token_hash = ? ORDER BY id DESC LIMIT 1",
                (table_id, token_hash),
            )
            .fetchone()
        )
        return None if row is None else JoinRequestRow(**dict(row))

    def join_request(self, db: Db, table_id: int, request_id: int) -> tuple[JoinRequestRow, str] | None:
        """Return a request of this table and the key hash of the phone that made it, or None."""
        row = db.execute(
            "SELECT id, table_id, player, status, created_at, answered_at, token_hash FROM join_requests"
            " WHERE id = ? AND table_id = ?",
            (request_id, table_id),
        ).fetchone()
        if row is None:
            return None
        fields = dict(row)
        token_hash = str(fields.pop("token_hash"))
        return JoinRequestRow(**fields), token_hash

    def join_requests(self, table_id: int, *, pending_only: bool) -> list[JoinRequestRow]:
        """Return the table's requests, oldest first (only the pending ones if asked)."""
        where = " WHERE table_id = ?" + (" AND status = 'pending'" if pending_only else "")
        rows = self.read().execute(self._REQUEST_COLUMNS + where + " ORDER BY id", (table_id,)).fetchall()
        return [JoinRequestRow(**dict(row)) for row in rows]

    def count_pending_requests(self, db: Db, table_id: int, *, since: float) -> int:
        """How many requests made at `since` or later wait for the host's answer at this table."""
        row = db.execute(
            "SELECT COUNT(*) AS n FROM join_requests WHERE table_id = ? AND status = 'pending' AND created_at >= ?",
            (table_id, since),
        ).fetchone()
        return int(row["n"])

    def withdraw_request(self, db: Db, request_id: int) -> None:
        """Mark a request withdrawn by the phone that made it."""
        db.execute("UPDATE join_requests SET status = 'cancelled' WHERE id = ?", (request_id,))

    def answer_request(self, db: Db, request_id: int, *, allowed: bool, now: float) -> None:
        """Record the host's answer to a request, and when it was given."""
        db.execute(
            "UPDATE join_requests SET status = ?, answered_at = ? WHERE id = ?",
            ("allowed" if allowed else "refused", now, request_id),
        )

    def reaim_request(self, db: Db, request_id: int, *, player: str, asked_at: float) -> None:
        """Point a pending request at another seat (or the same one) and restart its wait: a new ask."""
        db.execute(
            "UPDATE join_requests SET player = ?, created_at = ? WHERE id = ? AND status = 'pending'",
            (player, asked_at, request_id),
        )

    def close_requests_for_seat(self, db: Db, table_id: int, player: str) -> None:
        """Mark the pending requests for a seat that a phone just took as 'taken' (their askers are told)."""
        db.execute(
            "UPDATE join_requests SET status = 'taken' WHERE table_id = ? AND player = ? AND status = 'pending'",
            (table_id, player),
        )

    def cancel_requests_of_key(self, db: Db, table_id: int, token_hash: str) -> bool:
        """Withdraw the pending requests of the phone with this key hash; True if it had one."""
        cursor = db.execute(
            "UPDATE join_requests SET status = 'cancelled'"
            " WHERE table_id = ? AND token_hash = ? AND status = 'pending'",
            (table_id, token_hash),
        )
        return cursor.rowcount > 0

    def cancel_requests_of_device(self, db: Db, table_id: int, device_id: int) -> None:
        """Withdraw the pending requests of a phone the host removed."""
        db.execute(
            "UPDATE join_requests SET status = 'cancelled' WHERE table_id = ? AND status = 'pending'"
            " AND token_hash = (SELECT token_hash FROM devices WHERE id = ? AND table_id = ?)",
            (table_id, device_id, table_id),
        )
