"""The schema as numbered steps, for SQLite and for PostgreSQL: a database runs the steps it lacks at start-up."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


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
    # 10: each log line's sentences (templates and parameters, as JSON), so every phone reads it in its own
    # language; `text` keeps the English for exports, the API and rows written before.
    ("ALTER TABLE events ADD COLUMN sentences TEXT",),
)


SCHEMA_VERSION = len(MIGRATIONS)


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
    ("ALTER TABLE events ADD COLUMN sentences TEXT",),
)
