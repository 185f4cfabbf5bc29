"""Rate limits that server processes sharing the database count together (web.security.SharedRateLimiter)."""

from __future__ import annotations

import logging

from .dialects import PostgresDialect
from .pool import Connections

log = logging.getLogger(__name__)


class RateQueries(Connections):
    """Queries on the `rate_events` rows."""

    def count_rate_event(self, limiter: str, key: str, *, limit: int, window: float, now: float) -> bool:
        """Count one event for `key` if fewer than `limit` were counted in the last `window` seconds; return False
        (counting nothing) otherwise. One statement: checking and counting cannot be split by another writer's.

        SQLite runs it under the one writer's lock, so the count is exact. PostgreSQL runs it alone (one round trip,
        as an API action pays it every time): requests counted for the same key at the very same instant each see
        the count before the others', so a burst may pass the limit by up to the requests in flight (measured: 9–10
        through a limit of 5, of 40 sent at once to two processes). The limits are brakes, not quotas.
        """
        statement = (
            "INSERT INTO rate_events (limiter, key, at) SELECT ?, ?, ? WHERE (SELECT COUNT(*) FROM rate_events"
            " WHERE limiter = ? AND key = ? AND at > ?) < ? RETURNING id"
        )
        parameters = (limiter, key, now, limiter, key, now - window, limit)
        if isinstance(self.dialect, PostgresDialect):
            return self.read().execute(statement, parameters).fetchone() is not None
        with self.transaction() as db:
            return db.execute(statement, parameters).fetchone() is not None

    def rate_event_leaving(self, limiter: str, key: str, *, limit: int, after: float) -> float | None:
        """When the event that must leave the window before `key` may count another was counted (among those
        counted after `after`); None if none must."""
        rows = (
            self.read()
            .execute(
                "SELECT at FROM rate_events WHERE limiter = ? AND key = ? AND at > ? ORDER BY at DESC LIMIT ?",
                (limiter, key, after, limit),
            )
            .fetchall()
        )
        return float(rows[-1]["at"]) if len(rows) >= limit else None

    def take_back_rate_event(self, limiter: str, key: str) -> None:
        """Forget the newest event counted for `key`."""
        with self.transaction() as db:
            db.execute(
                "DELETE FROM rate_events WHERE id = (SELECT id FROM rate_events WHERE limiter = ? AND key = ?"
                " ORDER BY at DESC, id DESC LIMIT 1)",
                (limiter, key),
            )

    def forget_rate_events(self, limiter: str, before: float) -> None:
        """Delete the events `limiter` counted before `before` (they have left its window; other limiters' windows
        may be longer: a half-hour one must not lose its events to a one-minute one's sweep)."""
        with self.transaction() as db:
            db.execute("DELETE FROM rate_events WHERE limiter = ? AND at < ?", (limiter, before))
