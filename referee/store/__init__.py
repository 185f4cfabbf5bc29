"""All SQL in one place: tables (setup + version), their event logs, the devices that joined, join requests, shared
rate limits, and how server processes tell each other of changes.

Two databases: SQLite (the default, a file, no service needed) and PostgreSQL (`DATABASE_URL=postgresql://…`,
driver in the `postgres` extra). The SQL is written once with `?` placeholders; a `Dialect` (dialects.py) says what
differs: how to connect, how a write transaction starts, how rows are locked, where the schema version is kept.
One module per family of rows (tables.py, events.py, devices.py, requests.py, ratelimits.py), each a set of
queries that `Store` puts together over one pool of connections (pool.py).
"""

from __future__ import annotations

from .devices import DeviceQueries
from .dialects import (
    OutcomeUnknown,
    database_label,
    database_path,
    driver_errors,
    is_postgres,
    one_line,
    storage_errors,
)
from .events import EventQueries
from .ratelimits import RateQueries
from .requests import RequestQueries
from .rows import Db, DeviceRow, EventRow, JoinRequestRow, NewEvent, PhoneSeat, TableRow
from .schema import SCHEMA_VERSION
from .tables import TableQueries

__all__ = [
    "SCHEMA_VERSION",
    "Db",
    "DeviceRow",
    "EventRow",
    "JoinRequestRow",
    "NewEvent",
    "OutcomeUnknown",
    "PhoneSeat",
    "Store",
    "TableRow",
    "database_label",
    "database_path",
    "driver_errors",
    "is_postgres",
    "one_line",
    "storage_errors",
]


class Store(TableQueries, EventQueries, DeviceQueries, RequestQueries, RateQueries):
    """The database holding every table: every family of rows' queries over one pool of connections."""
