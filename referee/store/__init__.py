"""All SQL in one place: tables (setup + version), their event logs, the devices that joined, schema versions.

Two databases: SQLite (the default, a file, no service needed) and PostgreSQL (`DATABASE_URL=postgresql://…`,
driver in the `postgres` extra). The SQL is written once with `?` placeholders; a `Dialect` says what differs:
how to connect, how a write transaction starts, how rows are locked, where the schema version is kept.
"""

from __future__ import annotations

import os
import select
import sqlite3
import stat
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from ..web.redaction import redacted_logger

log = redacted_logger(__name__)

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
    # 3: changes that server processes sharing one SQLite file tell each other about (Store.announce).
    (
        """CREATE TABLE IF NOT EXISTS changes (
            id INTEGER PRIMARY KEY,
            code TEXT NOT NULL,
            revision INTEGER NOT NULL
        )""",
    ),
    # 4: the log names the phone that pressed Undo or Redo, not only the one that entered the card.
    ("ALTER TABLE events ADD COLUMN status_by TEXT",),
    # 5: a phone that typed the code asks to be a player; the host allows or refuses (Referee.ask_to_join).
    (
        """CREATE TABLE IF NOT EXISTS join_requests (
            id INTEGER PRIMARY KEY,
            table_id INTEGER NOT NULL REFERENCES tables(id),
            token_hash TEXT NOT NULL,
            player TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'allowed', 'refused', 'cancelled', 'taken')),
            created_at REAL NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS join_requests_by_table ON join_requests (table_id, status)",
    ),
    # 6: when Undo or Redo was last pressed on an event, so phones can say the table's newest change was an undo.
    ("ALTER TABLE events ADD COLUMN status_at REAL",),
    # 7: a rematch keeps the setup of the game it follows, so its board can say what the host changed; and a
    # game's previous one is found by index (Store.rematch_of, read for every finished board's series tally).
    (
        "ALTER TABLE tables ADD COLUMN previous_setup TEXT",
        "CREATE INDEX IF NOT EXISTS tables_by_rematch ON tables (rematch_code)",
    ),
    # 8: when the host answered a request, so a phone the host refused waits a minute before asking again.
    ("ALTER TABLE join_requests ADD COLUMN answered_at REAL",),
    # 9: rate limits that server processes sharing the database count together (Store.count_rate_event).
    (
        "CREATE TABLE IF NOT EXISTS rate_events (id INTEGER PRIMARY KEY, limiter TEXT NOT NULL, key TEXT NOT NULL,"
        " at REAL NOT NULL)",
        "CREATE INDEX IF NOT EXISTS rate_events_by_key ON rate_events (limiter, key, at)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
# How processes sharing a database tell each other of changes (Store.announce and Store.listen).
CHANGES_CHANNEL = "referee_changes"
CHANGES_POLL = 0.1
CHANGES_KEPT = 10_000

# PostgreSQL support came with schema version 2, so no PostgreSQL database was ever at version 1: its step 1
# makes today's shape at once and step 2 has nothing left to do. The steps stay numbered alike so that one
# SCHEMA_VERSION describes both; from step 3 on, each step is written for both databases.
POSTGRES_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE IF NOT EXISTS tables (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            code TEXT NOT NULL UNIQUE,
            setup TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            join_secret TEXT NOT NULL,
            entry TEXT NOT NULL DEFAULT 'joined',
            version INTEGER NOT NULL DEFAULT 0,
            revision INTEGER NOT NULL DEFAULT 0,
            rematch_code TEXT,
            created_at DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS events (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            table_id BIGINT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'dropped')),
            text TEXT NOT NULL,
            rule TEXT,
            note_rule TEXT,
            device_id BIGINT,
            device_player TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            UNIQUE (table_id, seq)
        )""",
        """CREATE TABLE IF NOT EXISTS devices (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            table_id BIGINT NOT NULL REFERENCES tables(id),
            token_hash TEXT NOT NULL,
            label TEXT NOT NULL,
            player TEXT,
            role TEXT NOT NULL CHECK (role IN ('host', 'player', 'watcher')),
            revoked INTEGER NOT NULL DEFAULT 0,
            created_at DOUBLE PRECISION NOT NULL,
            UNIQUE (table_id, token_hash)
        )""",
        "CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, seq)",
        "CREATE INDEX IF NOT EXISTS devices_by_table ON devices (table_id)",
    ),
    (),
    (),  # 3: PostgreSQL processes tell each other with NOTIFY (Store.announce), no table needed
    ("ALTER TABLE events ADD COLUMN status_by TEXT",),
    (
        """CREATE TABLE IF NOT EXISTS join_requests (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            table_id BIGINT NOT NULL REFERENCES tables(id),
            token_hash TEXT NOT NULL,
            player TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'allowed', 'refused', 'cancelled', 'taken')),
            created_at DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS join_requests_by_table ON join_requests (table_id, status)",
    ),
    ("ALTER TABLE events ADD COLUMN status_at DOUBLE PRECISION",),
    (
        "ALTER TABLE tables ADD COLUMN previous_setup TEXT",
        "CREATE INDEX IF NOT EXISTS tables_by_rematch ON tables (rematch_code)",
    ),
    ("ALTER TABLE join_requests ADD COLUMN answered_at DOUBLE PRECISION",),
    (
        "CREATE TABLE IF NOT EXISTS rate_events (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
        " limiter TEXT NOT NULL, key TEXT NOT NULL, at DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX IF NOT EXISTS rate_events_by_key ON rate_events (limiter, key, at)",
    ),
)
assert len(POSTGRES_MIGRATIONS) == SCHEMA_VERSION, "every schema step needs its PostgreSQL form"


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


@dataclass(frozen=True)
class NewEvent:
    """An action to record in a table's log: the action as JSON, its log line, and the rulings behind it."""

    action: str
    text: str
    rule: str | None
    note_rule: str | None


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


def database_path(url: str) -> str:
    """Return the SQLite path in a `sqlite:///PATH` URL; refuse any other kind of URL."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        raise ValueError(f"DATABASE_URL must look like sqlite:///PATH or postgresql://..., not {url[:40]!r}")
    return url[len(prefix) :]


def database_label(url: str) -> str:
    """Where a DATABASE_URL points, for people (a file's path, or a PostgreSQL host and name; never a password)."""
    if is_postgres(url):
        parts = urlsplit(url)
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{parts.hostname or ''}{port}{parts.path}"
    return database_path(url)


def storage_errors() -> tuple[type[Exception], ...]:
    """The drivers' errors that mean the database cannot be used just now (full, read-only, unreachable)."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - depends on the installed extras
        return (sqlite3.OperationalError,)
    return (sqlite3.OperationalError, psycopg.OperationalError)


def one_line(error: BaseException) -> str:
    """A driver's message on one line, for the log (PostgreSQL's run to several: "server closed the connection
    unexpectedly / This probably means…"), so each failure is one line there (play test 9c)."""
    return " / ".join(line.strip() for line in str(error).splitlines() if line.strip()) or type(error).__name__


def driver_errors() -> tuple[type[Exception], ...]:
    """Every error the database drivers raise (opening a database at start-up: a missing right is one line too)."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - depends on the installed extras
        return (sqlite3.Error,)
    return (sqlite3.Error, psycopg.Error)


def is_postgres(url: str) -> bool:
    """True for a PostgreSQL URL (postgresql://… or postgres://…)."""
    return url.startswith(("postgresql://", "postgres://"))


class Dialect(ABC):
    """What differs between the databases: connecting, starting a write, locking a row, the schema version."""

    name = "?"
    # Appended to a SELECT that reads a row the transaction is about to change.
    lock_row = ""
    migrations: tuple[tuple[str, ...], ...] = ()

    @abstractmethod
    def connect(self) -> Db:
        """Open a new connection in autocommit mode (transactions are begun explicitly)."""

    def begin(self, db: Db) -> None:
        """Start a write transaction."""
        db.execute("BEGIN")

    @abstractmethod
    def in_transaction(self, db: Db) -> bool:
        """True if `db` is inside a transaction (it must not go back to the pool so)."""

    @abstractmethod
    def schema_version(self, db: Db) -> int:
        """Return the schema version the database records."""

    @abstractmethod
    def set_schema_version(self, db: Db, version: int) -> None:
        """Record the schema version (inside the migration's transaction)."""

    def close(self, db: Db) -> None:
        """Close a connection."""
        getattr(db, "close")()  # noqa: B009 (both drivers' connections have close(); Db only lists what SQL needs)

    def lost(self, db: Db) -> bool:
        """True if `db` can no longer be used (its server went away): it is closed, never lent out again."""
        return False

    def missing_right(self, db: Db) -> str | None:
        """What the database user may not do that the referee needs ("DELETE on rate_events"), or None."""
        return None


def create_private_file(path: Path) -> None:
    """Create the database file readable by this user only, unless it exists (then warn if others may read it).

    It holds join secrets: SQLite would create it 0644 (less the umask). Made empty with O_EXCL and 0600 from
    the first byte (no moment when it is readable, no race with a second process), it is a valid empty
    database, and SQLite gives its -wal and -shm files the database file's permissions.
    """
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            log.warning("%s can be read by other users of this machine: chmod 600 it", path)


class SqliteDialect(Dialect):
    """A SQLite file in WAL mode: readers never wait for the writer; one writer at a time."""

    name = "sqlite"
    migrations = MIGRATIONS

    def __init__(self, path: str):
        self.path = path
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            create_private_file(Path(path))

    def connect(self) -> Db:
        """Open the file with the settings every connection needs."""
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

    def begin(self, db: Db) -> None:
        """Take the write lock at once, so no two writers read the same version (no lost updates)."""
        db.execute("BEGIN IMMEDIATE")

    def in_transaction(self, db: Db) -> bool:
        """Ask the sqlite3 connection."""
        return bool(getattr(db, "in_transaction", False))

    def schema_version(self, db: Db) -> int:
        """SQLite keeps it in the file header (PRAGMA user_version)."""
        return int(db.execute("PRAGMA user_version").fetchone()[0])

    def set_schema_version(self, db: Db, version: int) -> None:
        """PRAGMA takes no parameters; `version` is an int the code chose."""
        db.execute(f"PRAGMA user_version = {int(version)}")


class _PostgresRow(tuple[Any, ...]):
    """A row readable by position and by column name, as sqlite3.Row is."""

    names: tuple[str, ...] = ()

    def keys(self) -> tuple[str, ...]:
        """The column names (so that dict(row) works)."""
        return self.names

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self.names.index(key))
        return super().__getitem__(key)


class _PostgresConnection:
    """A psycopg connection that takes the store's `?` placeholders (psycopg's own are `%s`)."""

    def __init__(self, connection: Any):
        self.connection = connection
        self._translated: dict[str, str] = {}

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        """Run one statement with `?` placeholders."""
        translated = self._translated.get(sql)
        if translated is None:
            translated = self._translated[sql] = sql.replace("%", "%%").replace("?", "%s")
        cursor: Cursor = self.connection.execute(translated, tuple(parameters) or None)
        return cursor

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        """Run one statement with `?` placeholders for each set of parameters (psycopg batches them)."""
        with self.connection.cursor() as cursor:
            cursor.executemany(sql.replace("%", "%%").replace("?", "%s"), parameters)

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()


class PostgresDialect(Dialect):
    """PostgreSQL through psycopg 3: row locks instead of one writer at a time, for many server processes."""

    name = "postgresql"
    lock_row = " FOR UPDATE"
    migrations = POSTGRES_MIGRATIONS
    # Any fixed number: only the referee's migrations take this advisory lock.
    MIGRATION_LOCK = 5_417_001

    def __init__(self, url: str):
        try:
            import psycopg
        except ImportError:  # pragma: no cover - depends on the installed extras
            raise RuntimeError(
                "DATABASE_URL names PostgreSQL, but its driver is not installed: "
                "pip install 'five-alive-referee[postgres]'"
            ) from None
        self.psycopg = psycopg
        self.url = url

    @staticmethod
    def _rows(cursor: Any) -> Any:
        names = tuple(column.name for column in cursor.description or ())

        def make(values: Sequence[Any]) -> _PostgresRow:
            row = _PostgresRow(values)
            row.names = names
            return row

        return make

    def connect(self) -> Db:
        """Open a connection in autocommit mode with rows like sqlite3.Row."""
        connection = self.psycopg.connect(self.url, autocommit=True, row_factory=self._rows)
        return _PostgresConnection(connection)

    def lost(self, db: Db) -> bool:
        """Closed or broken, or the server has spoken on an idle connection: a restarting or stopping server says
        goodbye and closes the socket, and waiting for the next query to find out would fail that request."""
        assert isinstance(db, _PostgresConnection)
        connection = db.connection
        if connection.closed or connection.broken:
            return True
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return True
        return bool(readable)

    # Every table the schema steps make, and what the server does to its rows.
    TABLES = ("tables", "events", "devices", "join_requests", "rate_events", "schema_version")
    RIGHTS = ("SELECT", "INSERT", "UPDATE", "DELETE")

    def missing_right(self, db: Db) -> str | None:
        """A user with only some rights (a least-privilege role not granted the table an upgrade made) would start,
        pass /readyz and then fail players' requests (play test 9c): it is found at start-up instead."""
        for table in self.TABLES:
            for right in self.RIGHTS:
                # One right a call: given a list, has_table_privilege is true if any of them is held.
                held = db.execute("SELECT has_table_privilege(?, ?) AS held", (table, right)).fetchone()["held"]
                if not held:
                    return f"{right} on {table}"
        return None

    def in_transaction(self, db: Db) -> bool:
        """Ask libpq whether the connection is idle."""
        assert isinstance(db, _PostgresConnection)
        status = db.connection.info.transaction_status
        return bool(status != self.psycopg.pq.TransactionStatus.IDLE)

    @staticmethod
    def _has_version_table(db: Db) -> bool:
        # Looked up before any CREATE: a database user with no right to create tables (a hosted service's usual
        # least privilege, once the schema is made) must still start and answer /readyz.
        return db.execute("SELECT to_regclass('schema_version') AS found").fetchone()["found"] is not None

    def schema_version(self, db: Db) -> int:
        """PostgreSQL keeps it in a one-row table of its own (0 before the first migration made it)."""
        if not self._has_version_table(db):
            return 0
        row = db.execute("SELECT version FROM schema_version").fetchone()
        return 0 if row is None else int(row[0])

    def set_schema_version(self, db: Db, version: int) -> None:
        """Replace the one row."""
        if not self._has_version_table(db):
            db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("DELETE FROM schema_version")
        db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))

    def begin(self, db: Db) -> None:
        """A plain transaction: rows a writer changes are locked with SELECT … FOR UPDATE."""
        db.execute("BEGIN")


def dialect_for(url: str) -> Dialect:
    """Return the dialect a DATABASE_URL names."""
    if is_postgres(url):
        return PostgresDialect(url)
    return SqliteDialect(database_path(url))


class Store:
    """The database holding every table; connections are pooled and lent to one thread at a time.

    A thread keeps the connection it borrowed until `release()` (the app calls it when each request ends).
    Pooling rather than one connection per thread matters because the server may run many threads: when every
    thread kept its own SQLite connection, about 160 KB each, 200 played tables took the server past 100 MB
    (docs/performance.md).
    """

    POOL_SIZE = 32

    def __init__(self, url: str, *, shared: bool = False):
        """`shared`: other server processes use this database too; tell them of every change (listen())."""
        self.dialect = dialect_for(url)
        self.shared = shared
        self._local = threading.local()
        # SQLite: one writer at a time within the process, queued on a lock: left to SQLite, waiting writers
        # sleep in growing steps (up to 100 ms each) and 16 concurrent taps had a p99 near one second
        # (docs/performance.md). The busy timeout still covers writers in other processes.
        self._write_lock: threading.Lock | None = threading.Lock() if self.dialect.name == "sqlite" else None
        self._pool: list[Db] = []
        self._pool_lock = threading.Lock()
        # Every connection this process opened, lent out or not, so that close() can close them all.
        self._opened: list[Db] = []
        self._pid = os.getpid()
        self.migrate()
        missing = self.dialect.missing_right(self.read())
        self.release()
        if missing is not None:
            raise RuntimeError(
                f"the database user may not {missing}: grant it the rights docs/deploy.md lists (after an upgrade "
                "too: it may add a table)"
            )

    def check_writable(self) -> None:
        """Commit a write that changes nothing (the schema version, rewritten); raise the driver's error if it fails."""
        with self.transaction() as db:
            self.dialect.set_schema_version(db, self.dialect.schema_version(db))

    def backs_up(self) -> bool:
        """True if `backup` can copy this database (SQLite; PostgreSQL has pg_dump)."""
        return isinstance(self.dialect, SqliteDialect)

    def backup(self, target: str) -> None:
        """Copy a SQLite database to the file `target` with SQLite's online backup (consistent while others write)."""
        if not self.backs_up():
            raise RuntimeError("referee backup copies SQLite databases; back PostgreSQL up with pg_dump")
        source = self.read()
        assert isinstance(source, sqlite3.Connection)
        with closing(sqlite3.connect(target)) as copy:
            source.backup(copy)

    def schema_version(self) -> int:
        """Return the schema version the database is at."""
        return self.dialect.schema_version(self.read())

    def migrate(self) -> None:
        """Bring the database to SCHEMA_VERSION, one step per transaction (safe if two processes start at once)."""
        for target, statements in enumerate(self.dialect.migrations, start=1):
            with self.transaction() as db:
                if isinstance(self.dialect, PostgresDialect):
                    db.execute("SELECT pg_advisory_xact_lock(?)", (PostgresDialect.MIGRATION_LOCK,))
                if self.dialect.schema_version(db) >= target:
                    continue
                for statement in statements:
                    db.execute(statement)
                self.dialect.set_schema_version(db, target)

    def _connection(self) -> Db:
        if self._pid != os.getpid():
            # A forked worker must never share its parent's connections: start an empty pool.
            self._pid, self._pool, self._opened, self._local = os.getpid(), [], [], threading.local()
        db: Db | None = getattr(self._local, "db", None)
        if db is None:
            while True:
                with self._pool_lock:
                    db = self._pool.pop() if self._pool else None
                if db is None or not self.dialect.lost(db):
                    break
                self._discard(db)  # the database restarted since: its connections are gone
            if db is None:
                db = self.dialect.connect()
                with self._pool_lock:
                    self._opened.append(db)
            self._local.db = db
        return db

    def release(self) -> None:
        """Give this thread's connection back to the pool (at the end of each request); never raises.

        It runs after the answer is written: an error here would cut the answer short (play test 8b).
        """
        db: Db | None = getattr(self._local, "db", None)
        if db is None:
            return
        self._local.db = None
        lost = self.dialect.lost(db)
        try:
            if not lost and self.dialect.in_transaction(db):
                db.execute("ROLLBACK")  # never lend out a connection in the middle of a transaction
        except storage_errors():
            lost = True  # the database went away mid-request
        if lost:
            self._discard(db)
            return
        with self._pool_lock:
            if len(self._pool) < self.POOL_SIZE:
                self._pool.append(db)
                return
        self._discard(db)

    def _discard(self, db: Db) -> None:
        """Close a connection that will not go back to the pool."""
        with self._pool_lock:
            if db in self._opened:
                self._opened.remove(db)
        try:
            self.dialect.close(db)
        except storage_errors():
            pass

    def close(self) -> None:
        """Close every connection this process opened (shutdown; connections still lent out included)."""
        with self._pool_lock:
            opened, self._opened, self._pool = self._opened, [], []
        self._local = threading.local()
        for db in opened:
            self.dialect.close(db)

    @contextmanager
    def transaction(self) -> Iterator[Db]:
        """Run a write transaction; it commits when the block ends and rolls back if it raises."""
        db = self._connection()
        lock = self._write_lock
        if lock is not None:
            lock.acquire()
        try:
            db = self._begin(db)
            try:
                yield db
            except BaseException:
                try:
                    db.execute("ROLLBACK")
                except storage_errors():
                    pass  # the connection is gone, and the transaction with it: the first error is the one to tell
                raise
            db.execute("COMMIT")
        finally:
            if lock is not None:
                lock.release()

    def _begin(self, db: Db) -> Db:
        """Start a write transaction on `db`, or on a new connection if the database dropped `db` meanwhile.

        A restarting PostgreSQL ends its sessions a moment after saying so: a pooled connection that looked
        alive when it was lent out may fail its BEGIN. Nothing ran on it yet, so the request may go on with a
        fresh connection instead of failing.
        """
        try:
            self.dialect.begin(db)
            return db
        except storage_errors():
            if not self.dialect.lost(db):
                raise
        self._local.db = None
        self._discard(db)
        fresh = self._connection()
        self.dialect.begin(fresh)
        return fresh

    def read(self) -> Db:
        """Return this thread's connection for reads outside a transaction."""
        return self._connection()

    # --- tables ---

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

    # --- telling other server processes ---

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
                if not lost:  # one line per outage, not a traceback a second (play test 8b)
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

    # --- rate limits shared by the processes (security.SharedRateLimiter) ---

    def count_rate_event(self, limiter: str, key: str, *, limit: int, window: float, now: float) -> bool:
        """Count one event for `key` if fewer than `limit` were counted in the last `window` seconds; return False
        (counting nothing) otherwise. One statement: checking and counting cannot be split by another writer's.

        SQLite runs it under the one writer's lock, so the count is exact. PostgreSQL runs it alone (one round trip,
        as an API action pays it every time): requests counted for the same key at the very same instant each see
        the count before the others', so a burst may pass the limit by up to the requests in flight (play test 9c:
        9–10 through a limit of 5, of 40 sent at once to two processes). The limits are brakes, not quotas.
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

    # --- the event log ---

    def events(self, db: Db, table_id: int) -> list[EventRow]:
        """Return the table's active and undone events in order (dropped ones are history only)."""
        rows = db.execute(
            "SELECT id, seq, action, status, text, rule, note_rule, device_id, device_player, created_at, status_by,"
            " status_at FROM events WHERE table_id = ? AND status != 'dropped' ORDER BY seq",
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
            "INSERT INTO events (table_id, seq, action, text, rule, note_rule, device_id, device_player, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seq, action, text, rule, note_rule, device_id, device_player, created_at),
        )
        return seq

    def insert_log(self, db: Db, table_id: int, events: Sequence[NewEvent], *, undone: int, created_at: float) -> None:
        """Record a new table's whole log in one batch (an import): seq 1, 2, … in order, entered by no phone, the
        newest `undone` of them undone (with no phone or time said for the Undo)."""
        active = len(events) - undone
        db.executemany(
            "INSERT INTO events (table_id, seq, action, status, text, rule, note_rule, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    seq,
                    event.action,
                    "active" if seq <= active else "undone",
                    event.text,
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

    # --- devices ---

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

    # --- join requests ---

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
