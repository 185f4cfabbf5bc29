"""The `tables` rows: a table's code, setup, version, revision, join secret and rematch."""

from __future__ import annotations

import logging

from .changes import ChangeRelay
from .rows import Db, TableRow

log = logging.getLogger(__name__)


class TableQueries(ChangeRelay):
    """Queries on the `tables` rows."""

    def insert_table(
        self,
        db: Db,
        *,
        code: str,
        setup: str,
        token_hash: str,
        join_secret: str,
        entry: str,
        created_at: float,
        previous_setup: str | None = None,
    ) -> int:
        """Store a new table and return its id (a rematch with the setup of the game it follows)."""
        row = db.execute(
            "INSERT INTO tables (code, setup, token_hash, join_secret, entry, created_at, previous_setup)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (code, setup, token_hash, join_secret, entry, created_at, previous_setup),
        ).fetchone()
        return int(row["id"])

    def code_exists(self, db: Db, code: str) -> bool:
        """Return True if a table already uses `code`."""
        return db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() is not None

    def table(self, db: Db, code: str, *, lock: bool = False) -> TableRow | None:
        """Return the table with `code`, or None; `lock` holds its row until the transaction ends."""
        row = db.execute(
            "SELECT id, code, setup, token_hash, join_secret, entry, version, revision, rematch_code, created_at,"
            " previous_setup FROM tables WHERE code = ?" + (self.dialect.lock_row if lock else ""),
            (code,),
        ).fetchone()
        return None if row is None else TableRow(**dict(row))

    def revision(self, code: str) -> tuple[int, int] | None:
        """Return the table's (version, revision) without loading anything else (cheap polling)."""
        borrowed = getattr(self._local, "db", None) is None
        row = self.read().execute("SELECT version, revision FROM tables WHERE code = ?", (code,)).fetchone()
        if borrowed:
            # A live stream asks between its waits, outside any request: do not hold a connection meanwhile.
            self.release()
        return None if row is None else (int(row["version"]), int(row["revision"]))

    def bump_version(self, db: Db, table_id: int) -> None:
        """Count one more accepted action: version and revision both go up by one."""
        db.execute("UPDATE tables SET version = version + 1, revision = revision + 1 WHERE id = ?", (table_id,))
        self._announce(db, table_id)

    def bump_revision(self, db: Db, table_id: int) -> int:
        """Count a change that is not an action (devices, settings, rematch); return the new revision."""
        row = db.execute("UPDATE tables SET revision = revision + 1 WHERE id = ? RETURNING revision", (table_id,))
        revision = int(row.fetchone()["revision"])
        self._announce(db, table_id)
        return revision

    def set_entry(self, db: Db, table_id: int, entry: str) -> None:
        """Set who may enter cards: 'joined' devices or the 'host' only."""
        db.execute("UPDATE tables SET entry = ? WHERE id = ?", (entry, table_id))

    def set_join_secret(self, db: Db, table_id: int, join_secret: str) -> None:
        """Replace the secret in the table's join link (the old link stops letting phones join)."""
        db.execute("UPDATE tables SET join_secret = ? WHERE id = ?", (join_secret, table_id))

    def rematch_of(self, code: str) -> str | None:
        """Return the code of the table whose rematch `code` is (the previous game of a series), if any."""
        row = self.read().execute("SELECT code FROM tables WHERE rematch_code = ?", (code,)).fetchone()
        return None if row is None else str(row["code"])

    def setup_of(self, code: str) -> str | None:
        """Return only the setup (JSON) of the table with `code`, if any (no log read, no replay)."""
        row = self.read().execute("SELECT setup FROM tables WHERE code = ?", (code,)).fetchone()
        return None if row is None else str(row["setup"])

    def set_rematch(self, db: Db, table_id: int, rematch_code: str) -> None:
        """Point a finished table at its rematch."""
        db.execute("UPDATE tables SET rematch_code = ? WHERE id = ?", (rematch_code, table_id))
