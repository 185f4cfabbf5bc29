"""The app's long-lived objects (the referee service, the join and new-table rate limits) and how views reach them.

Views and streams call these accessors rather than importing the app package, so no module imports its caller.
"""

from __future__ import annotations

import threading

from flask import Flask, current_app

from .live import Bus
from .security import RateLimiter
from .service import Referee
from .store import Store

REFEREE = "referee"
TABLE_LIMIT = "referee.table_limit"
JOIN_LIMIT = "referee.join_limit"
ACTION_LIMIT = "referee.action_limit"
RELAY_STOP = "referee.relay_stop"


def init_app(app: Flask) -> None:
    """Open the store, start the change bus and the rate limits, as the app's settings say."""
    config = app.config
    shared = bool(config["CROSS_PROCESS_UPDATES"])
    store = Store(config["DATABASE_URL"], shared=shared)
    # Each request's database connection goes back to the pool when the request ends.
    app.teardown_appcontext(lambda _error: store.release())
    bus = Bus(max_listeners=int(config["MAX_STREAMS"]))
    app.extensions[REFEREE] = Referee(store, bus, max_actions=int(config["MAX_ACTIONS_PER_TABLE"]))
    stop = threading.Event()
    app.extensions[RELAY_STOP] = stop
    if shared:
        # Changes committed by other server processes reach this process's streams through the database.
        threading.Thread(
            target=store.listen, args=(bus.publish, stop, bus.wake_all), name="referee-relay", daemon=True
        ).start()
    app.extensions[TABLE_LIMIT] = RateLimiter(int(config["TABLES_PER_MINUTE"]), 60.0)
    app.extensions[JOIN_LIMIT] = RateLimiter(int(config["JOINS_PER_MINUTE"]), 60.0)
    app.extensions[ACTION_LIMIT] = RateLimiter(int(config["TOKEN_ACTIONS_PER_MINUTE"]), 60.0)


def get_referee() -> Referee:
    """Return the service of the running app."""
    referee = current_app.extensions[REFEREE]
    assert isinstance(referee, Referee)
    return referee


def _limiter(name: str) -> RateLimiter:
    limiter = current_app.extensions[name]
    assert isinstance(limiter, RateLimiter)
    return limiter


def table_limit() -> RateLimiter:
    """Return the per-address limit on new tables."""
    return _limiter(TABLE_LIMIT)


def join_limit() -> RateLimiter:
    """Return the per-address limit on join attempts."""
    return _limiter(JOIN_LIMIT)


def action_limit() -> RateLimiter:
    """Return the per-table limit on actions sent with the table's API token."""
    return _limiter(ACTION_LIMIT)


def shutdown(app: Flask) -> None:
    """End the app's streams, stop hearing other processes, close its database connections."""
    app.extensions[REFEREE].bus.close_all()
    app.extensions[RELAY_STOP].set()
    app.extensions[REFEREE].store.close()
