"""The app's long-lived objects (the referee service, the rate limits on joins, asks and new tables) and how views
reach them.

Views and streams call these accessors rather than importing the app package, so no module imports its caller.
"""

from __future__ import annotations

import threading

from flask import Flask, current_app

from ..service import ASKS_PER_ADDRESS, REQUEST_WAIT_SECONDS, Referee, open_service
from .security import Limiter, RateLimiter, SharedRateLimiter

REFEREE = "referee"
TABLE_LIMIT = "referee.table_limit"
JOIN_LIMIT = "referee.join_limit"
ACTION_LIMIT = "referee.action_limit"
ASK_LIMIT = "referee.ask_limit"
RELAY_STOP = "referee.relay_stop"
IMPORT_SLOT = "referee.import_slot"


def init_app(app: Flask) -> None:
    """Open the store, start the change bus and the rate limits, as the app's settings say."""
    config = app.config
    shared = bool(config["CROSS_PROCESS_UPDATES"])
    referee = open_service(
        config["DATABASE_URL"],
        shared=shared,
        max_actions=int(config["MAX_ACTIONS_PER_TABLE"]),
    )
    store = referee.store
    # Each request's database connection goes back to the pool when the request ends.
    app.teardown_appcontext(lambda _error: store.release())
    app.extensions[REFEREE] = referee
    stop = threading.Event()
    app.extensions[RELAY_STOP] = stop
    app.extensions[IMPORT_SLOT] = threading.BoundedSemaphore(1)
    if shared:
        # Changes committed by other server processes reach this process's streams through the database.
        threading.Thread(target=referee.hear_other_processes, args=(stop,), name="referee-relay", daemon=True).start()
    limits = (
        (TABLE_LIMIT, "TABLES_PER_MINUTE"),
        (JOIN_LIMIT, "JOINS_PER_MINUTE"),
        (ACTION_LIMIT, "TOKEN_ACTIONS_PER_MINUTE"),
    )
    for name, setting in limits:
        limit = int(config[setting])
        # Processes sharing the database count together (in it); one process alone counts in memory, for free.
        app.extensions[name] = SharedRateLimiter(store, name, limit, 60.0) if shared else RateLimiter(limit, 60.0)
    # Requests to play from one address at one table, over as long as a request waits (service.ASKS_PER_ADDRESS).
    window = float(REQUEST_WAIT_SECONDS)
    app.extensions[ASK_LIMIT] = (
        SharedRateLimiter(store, ASK_LIMIT, ASKS_PER_ADDRESS, window)
        if shared
        else RateLimiter(ASKS_PER_ADDRESS, window)
    )


def get_referee() -> Referee:
    """Return the service of the running app."""
    referee = current_app.extensions[REFEREE]
    assert isinstance(referee, Referee)
    return referee


def _limiter(name: str) -> Limiter:
    limiter: Limiter = current_app.extensions[name]
    return limiter


def table_limit() -> Limiter:
    """Return the per-address limit on new tables."""
    return _limiter(TABLE_LIMIT)


def join_limit() -> Limiter:
    """Return the per-address limit on join attempts."""
    return _limiter(JOIN_LIMIT)


def ask_limit() -> Limiter:
    """Return the per-address limit on requests to play at one table (its key: the address and the table's code)."""
    return _limiter(ASK_LIMIT)


def action_limit() -> Limiter:
    """Return the per-table limit on actions sent with the table's API token."""
    return _limiter(ACTION_LIMIT)


def import_slot() -> threading.BoundedSemaphore:
    """Return the one place this process has for an import in progress (one replays up to 10,000 actions)."""
    slot: threading.BoundedSemaphore = current_app.extensions[IMPORT_SLOT]
    return slot


def shutdown(app: Flask) -> None:
    """Stop hearing other processes and close the app's database connections (the server ends its streams)."""
    app.extensions[RELAY_STOP].set()
    app.extensions[REFEREE].store.close()
