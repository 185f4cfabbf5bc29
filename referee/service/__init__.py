"""The use cases every face shares (pages, the JSON API, the live stream), one module per thing a person does.

tables.py makes a table, play.py enters what happens at it, seats.py looks after the phones at it, requests.py
answers phones that ask to play, rematch.py starts the next game, and access.py decides who may do each of
these. `Referee` puts them together over one store and one change bus. Refusals are typed errors (errors.py)
that know nothing of HTTP.
"""

from __future__ import annotations

from ..store import DeviceRow, JoinRequestRow, OutcomeUnknown, Store, one_line, storage_errors
from .access import (
    Access,
    Actor,
    Operator,
    Permissions,
    Phone,
    TokenHolder,
    is_host_phone,
    permissions,
    refusal_for,
    watch_reason,
)
from .base import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ENTRY_MODES,
    HOST_LABEL,
    MAX_ACTIONS,
    moved_note,
    new_device_key,
    no_table_message,
    normalise_code,
)
from .bus import Bus
from .play import Playing
from .rematch import Rematches, left_the_game, rematch_players, returning_seats
from .requests import ASKS_PER_ADDRESS, REQUEST_WAIT_SECONDS, JoinRequests
from .seats import Holder, Seating, Seats, held_question
from .tables import Tables

__all__ = [
    "Actor",
    "Operator",
    "OutcomeUnknown",
    "Permissions",
    "Phone",
    "TokenHolder",
    "is_host_phone",
    "permissions",
    "refusal_for",
    "watch_reason",
    "ASKS_PER_ADDRESS",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "DeviceRow",
    "ENTRY_MODES",
    "HOST_LABEL",
    "Holder",
    "JoinRequestRow",
    "MAX_ACTIONS",
    "REQUEST_WAIT_SECONDS",
    "Referee",
    "Seating",
    "held_question",
    "left_the_game",
    "moved_note",
    "new_device_key",
    "no_table_message",
    "normalise_code",
    "one_line",
    "open_service",
    "rematch_players",
    "returning_seats",
    "storage_errors",
]


class Referee(Tables, Playing, Rematches, JoinRequests, Seats, Access):
    """The service: every face (pages, API, streams) goes through these methods."""


def open_service(database_url: str, *, shared: bool, max_actions: int) -> Referee:
    """Open the database (running the schema steps it lacks) and a change bus; return the service over them.

    `shared`: other server processes use this database too, and hear of every change through it.
    """
    return Referee(Store(database_url, shared=shared), Bus(), max_actions=max_actions)
