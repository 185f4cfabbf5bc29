"""All SQL in one place: tables (setup + version), their event logs, and the devices that joined."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

# The schema as a list of steps: step N takes a database from version N-1 to N (PRAGMA user_version). A new
# database runs them all; an existing one runs those it lacks, at start-up. A step that has shipped is never
# edited: a change is a new step. Step 1 is the schema as first released (before versions were recorded,
# which is why it says IF NOT EXISTS: a database of that time is at version 0 but already has it).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE IF NOT EXISTS tables (
            id INTEGER PRIMARY KEY,
            code TEXT NOT NULL UNIQUE,
            setup TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            join_secret TEXT NOT NULL,
            entry TEXT NOT NULL DEFAULT 'joined',
            version INTEGER NOT NULL DEFAULT 0,
            revision INTEGER NOT NULL DEFAULT 0,
            rematch_code TEXT,
            created_at REAL NOT NULL,
            creator_address TEXT
        )""",
        """CREATE TABLE IF NOT EXISTS events (
            id INTEGER PRIMARY KEY,
            table_id INTEGER NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'dropped')),
            text TEXT NOT NULL,
            rule TEXT,
            note_rule TEXT,
            device_id INTEGER,
            device_player TEXT,
            created_at REAL NOT NULL,
            UNIQUE (table_id, seq)
        )""",
        """CREATE TABLE IF NOT EXISTS devices (
            id INTEGER PRIMARY KEY,
            table_id INTEGER NOT NULL REFERENCES tables(id),
            token_hash TEXT NOT NULL,
            label TEXT NOT NULL,
            player TEXT,
            role TEXT NOT NULL CHECK (role IN ('host', 'player', 'watcher')),
            revoked INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            last_seen REAL NOT NULL,
            address TEXT,
            UNIQUE (table_id, token_hash)
        )""",
        "CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, seq)",
        "CREATE INDEX IF NOT EXISTS devices_by_table ON devices (table_id)",
        "CREATE INDEX IF NOT EXISTS tables_by_creator ON tables (creator_address, created_at)",
    ),
    # 2: players' addresses and a "last seen" time were written but never read: keep no personal data
    # the referee does not use (docs/security.md).
    (
        "DROP INDEX IF EXISTS tables_by_creator",
        "ALTER TABLE tables DROP COLUMN creator_address",
        "ALTER TABLE devices DROP COLUMN address",
        "ALTER TABLE devices DROP COLUMN last_seen",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


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


def database_path(url: str) -> str:
    """Return the SQLite path in a `sqlite:///PATH` URL; refuse any other kind of URL."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        raise ValueError(f"DATABASE_URL must look like sqlite:///PATH, not {url!r}")
    return url[len(prefix) :]


class Store:
    """A SQLite database holding every table, WAL mode; connections are pooled and lent to one thread at a time.

    A thread keeps the connection it borrowed until `release()` (the app calls it when each request ends).
    Pooling rather than one connection per thread matters because the server runs 200+ threads (one per live
    stream, each reading now and then): when every thread kept its own connection, about 160 KB each, 200
    played tables took the server past 100 MB (docs/performance.md).
    """

    POOL_SIZE = 32

    def __init__(self, url: str):
        self.path = database_path(url)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._write_lock = threading.Lock()
        self._pool: list[sqlite3.Connection] = []
        self._pool_lock = threading.Lock()
        self.migrate()
        self.release()

    def schema_version(self) -> int:
        """Return the schema version the database is at."""
        return int(self.read().execute("PRAGMA user_version").fetchone()[0])

    def migrate(self) -> None:
        """Bring the database to SCHEMA_VERSION, one step per transaction (safe if two processes start at once)."""
        for target, statements in enumerate(MIGRATIONS, start=1):
            with self.transaction() as db:
                if int(db.execute("PRAGMA user_version").fetchone()[0]) >= target:
                    continue
                for statement in statements:
                    db.execute(statement)
                # PRAGMA takes no parameters; `target` is an int from enumerate.
                db.execute(f"PRAGMA user_version = {target}")

    def _open(self) -> sqlite3.Connection:
        # check_same_thread=False: a pooled connection moves between threads, but one thread uses it at a time.
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        # WAL lets readers work while one writer commits; NORMAL sync keeps every committed
        # transaction across a killed process (only a power cut may lose the newest ones).
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=10000")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            with self._pool_lock:
                db = self._pool.pop() if self._pool else None
            if db is None:
                db = self._open()
            self._local.db = db
        return db

    def release(self) -> None:
        """Give this thread's connection back to the pool (at the end of each request)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            return
        self._local.db = None
        if db.in_transaction:
            db.rollback()  # never lend out a connection in the middle of a transaction
        with self._pool_lock:
            if len(self._pool) < self.POOL_SIZE:
                self._pool.append(db)
                return
        db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Run a write transaction that holds the write lock from the start (no lost updates)."""
        db = self._connection()
        # One writer at a time within the process, queued on a lock: left to SQLite, waiting writers
        # sleep in growing steps (up to 100 ms each) and 16 concurrent taps had a p99 near one second
        # (docs/performance.md). The busy timeout still covers writers in other processes.
        with self._write_lock:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def read(self) -> sqlite3.Connection:
        """Return this thread's connection for reads outside a transaction."""
        return self._connection()

    # --- tables ---

    def insert_table(
        self,
        db: sqlite3.Connection,
        *,
        code: str,
        setup: str,
        token_hash: str,
        join_secret: str,
        entry: str,
        created_at: float,
    ) -> int:
        """Store a new table and return its id."""
        cursor = db.execute(
            "INSERT INTO tables (code, setup, token_hash, join_secret, entry, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (code, setup, token_hash, join_secret, entry, created_at),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def code_exists(self, db: sqlite3.Connection, code: str) -> bool:
        """Return True if a table already uses `code`."""
        return db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() is not None

    def table(self, db: sqlite3.Connection, code: str) -> TableRow | None:
        """Return the table with `code`, or None."""
        row = db.execute(
            "SELECT id, code, setup, token_hash, join_secret, entry, version, revision, rematch_code, created_at"
            " FROM tables WHERE code = ?",
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
        return None if row is None else (int(row[0]), int(row[1]))

    def bump_version(self, db: sqlite3.Connection, table_id: int) -> None:
        """Count one more accepted action: version and revision both go up by one."""
        db.execute("UPDATE tables SET version = version + 1, revision = revision + 1 WHERE id = ?", (table_id,))

    def bump_revision(self, db: sqlite3.Connection, table_id: int) -> int:
        """Count a change that is not an action (devices, settings, rematch); return the new revision."""
        db.execute("UPDATE tables SET revision = revision + 1 WHERE id = ?", (table_id,))
        return int(db.execute("SELECT revision FROM tables WHERE id = ?", (table_id,)).fetchone()[0])

    def set_entry(self, db: sqlite3.Connection, table_id: int, entry: str) -> None:
        """Set who may enter cards: 'joined' devices or the 'host' only."""
        db.execute("UPDATE tables SET entry = ? WHERE id = ?", (entry, table_id))

    def set_join_secret(self, db: sqlite3.Connection, table_id: int, join_secret: str) -> None:
        """Replace the secret in the table's join link (the old link stops letting phones join)."""
        db.execute("UPDATE tables SET join_secret = ? WHERE id = ?", (join_secret, table_id))

    def set_rematch(self, db: sqlite3.Connection, table_id: int, rematch_code: str) -> None:
        """Point a finished table at its rematch."""
        db.execute("UPDATE tables SET rematch_code = ? WHERE id = ?", (rematch_code, table_id))

    # --- the event log ---

    def events(self, db: sqlite3.Connection, table_id: int) -> list[EventRow]:
        """Return the table's active and undone events in order (dropped ones are history only)."""
        rows = db.execute(
            "SELECT id, seq, action, status, text, rule, note_rule, device_id, device_player, created_at"
            " FROM events WHERE table_id = ? AND status != 'dropped' ORDER BY seq",
            (table_id,),
        ).fetchall()
        return [EventRow(**dict(row)) for row in rows]

    def append_event(
        self,
        db: sqlite3.Connection,
        table_id: int,
        *,
        action: str,
        text: str,
        rule: str | None,
        note_rule: str | None,
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
        row = db.execute(
            "INSERT INTO events (table_id, seq, action, text, rule, note_rule, device_id, device_player, created_at)"
            " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM events WHERE table_id = ? RETURNING seq",
            (table_id, action, text, rule, note_rule, device_id, device_player, created_at, table_id),
        ).fetchone()
        return int(row[0])

    def event_with_status(self, db: sqlite3.Connection, table_id: int, status: str, *, newest: bool) -> tuple[int, int]:
        """Return (id, seq) of the newest or oldest event with `status` (the one undo or redo acts on)."""
        order = "DESC" if newest else "ASC"
        row = db.execute(
            f"SELECT id, seq FROM events WHERE table_id = ? AND status = ? ORDER BY seq {order} LIMIT 1",
            (table_id, status),
        ).fetchone()
        return int(row[0]), int(row[1])

    def set_event_status(self, db: sqlite3.Connection, event_id: int, status: str) -> None:
        """Mark one event active or undone (undo and redo)."""
        db.execute("UPDATE events SET status = ? WHERE id = ?", (status, event_id))

    # --- devices ---

    def add_device(
        self,
        db: sqlite3.Connection,
        table_id: int,
        *,
        token_hash: str,
        label: str,
        player: str | None,
        role: str,
        now: float,
    ) -> int:
        """Remember a device that joined a table and return its id."""
        cursor = db.execute(
            "INSERT INTO devices (table_id, token_hash, label, player, role, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, token_hash, label, player, role, now),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

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

    def update_device(
        self, db: sqlite3.Connection, device_id: int, *, player: str | None, role: str, label: str
    ) -> None:
        """Change which player a device speaks for, and the label the host sees."""
        db.execute("UPDATE devices SET player = ?, role = ?, label = ? WHERE id = ?", (player, role, label, device_id))

    def copy_devices(self, db: sqlite3.Connection, from_table: int, to_table: int, now: float) -> None:
        """Give a table the same devices as another (a rematch: every phone follows as the same player)."""
        db.execute(
            "INSERT INTO devices (table_id, token_hash, label, player, role, revoked, created_at)"
            " SELECT ?, token_hash, label, player, role, revoked, ? FROM devices WHERE table_id = ?",
            (to_table, now, from_table),
        )

    def revoke_device(self, db: sqlite3.Connection, table_id: int, device_id: int) -> bool:
        """Revoke a device of this table; return False if there is no such device."""
        cursor = db.execute(
            "UPDATE devices SET revoked = 1 WHERE id = ? AND table_id = ? AND role != 'host'", (device_id, table_id)
        )
        return cursor.rowcount == 1
