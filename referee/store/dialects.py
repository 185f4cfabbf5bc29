"""What differs between SQLite and PostgreSQL: connecting, starting a write, locking rows, the schema version."""

from __future__ import annotations

import logging
import os
import select
import sqlite3
import stat
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .rows import Cursor, Db
from .schema import MIGRATIONS, POSTGRES_MIGRATIONS

log = logging.getLogger(__name__)


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


class OutcomeUnknown(Exception):
    """The database went away while a COMMIT was on its way: the write may or may not have been saved.

    PostgreSQL, restarting, may commit a transaction and end the session before it says so: the driver then
    reports an error for a COMMIT that took place, and "nothing was changed" would be untrue.
    """


def storage_errors() -> tuple[type[Exception], ...]:
    """The errors that mean the database cannot be used just now (full, read-only, unreachable), or went away
    just as it saved something (OutcomeUnknown)."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - depends on the installed extras
        return (sqlite3.OperationalError, OutcomeUnknown)
    return (sqlite3.OperationalError, psycopg.OperationalError, OutcomeUnknown)


def one_line(error: BaseException) -> str:
    """A driver's message on one line, for the log (PostgreSQL's run to several: "server closed the connection
    unexpectedly / This probably means…"), so each failure is one line there."""
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
        pass /readyz and then fail players' requests: it is found at start-up instead."""
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
