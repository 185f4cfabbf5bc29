"""How server processes sharing a database tell each other of changes: NOTIFY, or a polled table on SQLite."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from .dialects import PostgresDialect, _PostgresConnection, one_line
from .pool import Connections
from .rows import Db

log = logging.getLogger(__name__)


# How processes sharing a database tell each other of changes (Store.announce and Store.listen).
CHANGES_CHANNEL = "referee_changes"


CHANGES_POLL = 0.1


CHANGES_KEPT = 10_000


class ChangeRelay(Connections):
    """Telling other server processes of a change after its commit, and hearing theirs."""

    def _announce(self, db: Db, table_id: int) -> None:
        """Tell other processes sharing the database that the table has a new revision (when it commits)."""
        if not self.shared:
            return
        if isinstance(self.dialect, PostgresDialect):
            # NOTIFY is delivered only if and when the transaction commits: "publish after the commit" for free.
            db.execute(
                "SELECT pg_notify(?, code || ' ' || revision) FROM tables WHERE id = ?", (CHANGES_CHANNEL, table_id)
            )
        else:
            db.execute(
                "INSERT INTO changes (code, revision) SELECT code, revision FROM tables WHERE id = ?", (table_id,)
            )

    def listen(
        self, deliver: Callable[[str, int], None], stop: threading.Event, heard_again: Callable[[], None]
    ) -> None:
        """Call `deliver(code, revision)` for every change any process commits, until `stop` is set.

        PostgreSQL: LISTEN on a connection of its own. SQLite: read the changes table every CHANGES_POLL seconds.
        Runs on a thread of its own; a lost connection is opened again after a pause, and then `heard_again()` is
        called: a change committed while nobody listened was never heard, so every stream must look again.
        """
        lost = False

        def connected() -> None:
            nonlocal lost
            if lost:
                lost = False
                log.warning("hears other processes' changes again")
                heard_again()

        while not stop.is_set():
            try:
                if isinstance(self.dialect, PostgresDialect):
                    self._listen_postgres(deliver, stop, connected)
                else:
                    self._poll_changes(deliver, stop, connected)
            except Exception as error:  # a database restart must not end live updates for good
                if not lost:  # one line per outage, not a traceback a second
                    log.warning(
                        "lost the connection that hears other processes' changes (%s); retrying", one_line(error)
                    )
                lost = True
                stop.wait(1.0)

    def _listen_postgres(
        self, deliver: Callable[[str, int], None], stop: threading.Event, connected: Callable[[], None]
    ) -> None:
        db = self.dialect.connect()
        try:
            assert isinstance(db, _PostgresConnection)
            db.execute(f"LISTEN {CHANGES_CHANNEL}")
            connected()
            while not stop.is_set():
                for notice in db.connection.notifies(timeout=CHANGES_POLL):
                    code, _, revision = notice.payload.partition(" ")
                    deliver(code, int(revision))
        finally:
            self.dialect.close(db)

    def _poll_changes(
        self, deliver: Callable[[str, int], None], stop: threading.Event, connected: Callable[[], None]
    ) -> None:
        db = self.dialect.connect()
        try:
            row = db.execute("SELECT COALESCE(MAX(id), 0) AS id FROM changes").fetchone()
            seen = int(row["id"])
            connected()
            polls = 0
            while not stop.wait(CHANGES_POLL):
                for change in db.execute(
                    "SELECT id, code, revision FROM changes WHERE id > ? ORDER BY id", (seen,)
                ).fetchall():
                    seen = int(change["id"])
                    deliver(str(change["code"]), int(change["revision"]))
                polls += 1
                if polls % 600 == 0:
                    # Every minute or so: forget changes every process has long since read.
                    db.execute("DELETE FROM changes WHERE id < ?", (seen - CHANGES_KEPT,))
        finally:
            self.dialect.close(db)
