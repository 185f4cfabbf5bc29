"""The phones that joined a table: their keys (hashed), seats, roles and labels."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .pool import Connections
from .rows import Db, DeviceRow, PhoneSeat

log = logging.getLogger(__name__)


class DeviceQueries(Connections):
    """Queries on the `devices` rows."""

    def add_device(
        self,
        db: Db,
        table_id: int,
        *,
        token_hash: str,
        label: str,
        player: str | None,
        role: str,
        now: float,
    ) -> int:
        """Remember a device that joined a table and return its id."""
        row = db.execute(
            "INSERT INTO devices (table_id, token_hash, label, player, role, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (table_id, token_hash, label, player, role, now),
        ).fetchone()
        return int(row["id"])

    def device_by_token(self, table_id: int, token_hash: str) -> DeviceRow | None:
        """Return the device of this table holding the token with this hash."""
        row = (
            self.read()
            .execute(
                "SELECT id, table_id, label, player, role, revoked, created_at"
                " FROM devices WHERE table_id = ? AND token_hash = ?",
                (table_id, token_hash),
            )
            .fetchone()
        )
        return None if row is None else DeviceRow(**{**dict(row), "revoked": bool(row["revoked"])})

    def device(self, db: Db, table_id: int, device_id: int) -> DeviceRow | None:
        """Return the device with this id at this table, or None."""
        row = db.execute(
            "SELECT id, table_id, label, player, role, revoked, created_at FROM devices WHERE id = ? AND table_id = ?",
            (device_id, table_id),
        ).fetchone()
        return None if row is None else DeviceRow(**{**dict(row), "revoked": bool(row["revoked"])})

    def rekey_devices(self, db: Db, old_hash: str, new_hash: str) -> None:
        """Move a browser's devices and join requests at every table from its old key to its new one."""
        db.execute("UPDATE devices SET token_hash = ? WHERE token_hash = ?", (new_hash, old_hash))
        db.execute("UPDATE join_requests SET token_hash = ? WHERE token_hash = ?", (new_hash, old_hash))

    def devices(self, table_id: int) -> list[DeviceRow]:
        """Return every device that joined the table, oldest first."""
        rows = (
            self.read()
            .execute(
                "SELECT id, table_id, label, player, role, revoked, created_at"
                " FROM devices WHERE table_id = ? ORDER BY id",
                (table_id,),
            )
            .fetchall()
        )
        return [DeviceRow(**{**dict(row), "revoked": bool(row["revoked"])}) for row in rows]

    def update_device(self, db: Db, device_id: int, *, player: str | None, role: str, label: str) -> None:
        """Change which player a device speaks for, and the label the host sees."""
        db.execute("UPDATE devices SET player = ?, role = ?, label = ? WHERE id = ?", (player, role, label, device_id))

    def copy_devices(self, db: Db, from_table: int, to_table: int, now: float) -> None:
        """Give a table the same devices as another (a rematch: every phone follows as the same player)."""
        db.execute(
            "INSERT INTO devices (table_id, token_hash, label, player, role, revoked, created_at)"
            " SELECT ?, token_hash, label, player, role, revoked, ? FROM devices WHERE table_id = ?",
            (to_table, now, from_table),
        )

    def phone_seats(self, db: Db, table_ids: Sequence[int]) -> list[PhoneSeat]:
        """The seat each phone (not removed) has at these tables, read inside `db`'s transaction."""
        marks = ", ".join("?" for _ in table_ids)
        rows = db.execute(
            f"SELECT table_id, id, token_hash, player, role FROM devices WHERE table_id IN ({marks}) AND revoked = 0",
            tuple(table_ids),
        ).fetchall()
        return [PhoneSeat(**dict(row)) for row in rows]

    def unseat_devices(
        self, db: Db, table_id: int, keep: Sequence[str], *, host_label: str, watcher_label: str
    ) -> None:
        """Take the seat from every device of the table whose player is not in `keep`: the host's phone stays the
        host's (labelled `host_label`), any other only watches (labelled `watcher_label`)."""
        marks = ", ".join("?" for _ in keep)
        # Every SET expression reads the row as it was, so both CASEs see the old role.
        db.execute(
            "UPDATE devices SET player = NULL,"
            " label = CASE WHEN role = 'host' THEN ? ELSE ? END,"
            " role = CASE WHEN role = 'host' THEN 'host' ELSE 'watcher' END"
            f" WHERE table_id = ? AND player IS NOT NULL AND player NOT IN ({marks})",
            (host_label, watcher_label, table_id, *keep),
        )

    def revoke_device(self, db: Db, table_id: int, device_id: int) -> bool:
        """Revoke a device of this table; return False if there is no such device."""
        cursor = db.execute(
            "UPDATE devices SET revoked = 1 WHERE id = ? AND table_id = ? AND role != 'host'", (device_id, table_id)
        )
        return cursor.rowcount == 1

    def restore_device(self, db: Db, table_id: int, device_id: int) -> None:
        """Let a removed device of this table back in (the host's "Bring back")."""
        db.execute("UPDATE devices SET revoked = 0 WHERE id = ? AND table_id = ?", (device_id, table_id))

    def device_in(self, db: Db, table_id: int, token_hash: str) -> DeviceRow | None:
        """Return the device of this table holding the token with this hash, read inside `db`'s transaction."""
        row = db.execute(
            "SELECT id, table_id, label, player, role, revoked, created_at"
            " FROM devices WHERE table_id = ? AND token_hash = ?",
            (table_id, token_hash),
        ).fetchone()
        return None if row is None else DeviceRow(**{**dict(row), "revoked": bool(row["revoked"])})

    def seat_holder(self, db: Db, table_id: int, player: str, *, other_than: int | None = None) -> DeviceRow | None:
        """Return the phone still at the table (not removed) that is `player`'s, leaving out the device `other_than`."""
        row = db.execute(
            "SELECT id, table_id, label, player, role, revoked, created_at FROM devices"
            " WHERE table_id = ? AND player = ? AND revoked = 0 AND id != ? ORDER BY id LIMIT 1",
            (table_id, player, -1 if other_than is None else other_than),
        ).fetchone()
        return None if row is None else DeviceRow(**{**dict(row), "revoked": bool(row["revoked"])})

    def host_device(self, db: Db, table_id: int) -> DeviceRow | None:
        """Return the table's host phone (None for a table made through the API, which has none)."""
        row = db.execute(
            "SELECT id, table_id, label, player, role, revoked, created_at FROM devices"
            " WHERE table_id = ? AND role = 'host' AND revoked = 0 ORDER BY id LIMIT 1",
            (table_id,),
        ).fetchone()
        return None if row is None else DeviceRow(**{**dict(row), "revoked": bool(row["revoked"])})

    def seat_taken(self, db: Db, table_id: int, player: str) -> bool:
        """True if a phone still at the table (not removed; the host's too, once it said who it is) is `player`'s."""
        row = db.execute(
            "SELECT 1 FROM devices WHERE table_id = ? AND player = ? AND revoked = 0",
            (table_id, player),
        ).fetchone()
        return row is not None
