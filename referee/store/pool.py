"""Connections: a pool lent to one thread at a time, write transactions, the schema steps at start-up."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager

from .dialects import OutcomeUnknown, PostgresDialect, SqliteDialect, dialect_for, one_line, storage_errors
from .rows import Db

log = logging.getLogger(__name__)


class Connections:
    """The database's connections, pooled and lent to one thread at a time, and its write transactions.

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

        It runs after the answer is written: an error here would cut the answer short.
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
            self._commit(db)
        finally:
            if lock is not None:
                lock.release()

    def _commit(self, db: Db) -> None:
        """Commit; if the database went away on the way, say that the outcome is unknown (and drop `db`)."""
        try:
            db.execute("COMMIT")
        except storage_errors() as error:
            if not self.dialect.lost(db):
                raise  # refused before it committed (a full disk): nothing was saved
            self._local.db = None
            self._discard(db)
            raise OutcomeUnknown(one_line(error)) from error

    def _begin(self, db: Db) -> Db:
        """Start a write transaction on `db`, or on a new connection if the database dropped `db` meanwhile.

        A restarting PostgreSQL ends its sessions a moment after saying so: a pooled connection that looked
        alive when it was lent out may fail its BEGIN. Nothing ran on it yet, so the request may go on with a
        fresh connection instead of failing. Fresh, not the pool's next: the pooled ones were opened before the
        restart too, and may still look alive for the same moment (a busy machine made that moment long enough
        for the retry to fail as well).
        """
        try:
            self.dialect.begin(db)
            return db
        except storage_errors():
            if not self.dialect.lost(db):
                raise
        self._local.db = None
        self._discard(db)
        with self._pool_lock:
            idle, self._pool = self._pool, []
        for old in idle:
            self._discard(old)
        fresh = self._connection()
        self.dialect.begin(fresh)
        return fresh

    def read(self) -> Db:
        """Return this thread's connection for reads outside a transaction."""
        return self._connection()
