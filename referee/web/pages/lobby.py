"""The lobby: after "Start the table" the host gathers the phones (big QR, code, link, seats ticking live).

The lobby is a page, not a phase of the game: play may start without waiting, and the table page links
back here (its header's QR button) for a phone that arrives late.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...service import Seating
from ...service.errors import ServiceError
from ...service.tableview import TableView
from ..extensions import get_referee
from ..http import navigate
from .asking import asking_context
from .common import current_device, service_error_page
from .joinpanel import JoinPanel, join_panel

bp = Blueprint("lobby", __name__)
bp.register_error_handler(ServiceError, service_error_page)


@dataclass(frozen=True)
class Seat:
    """One player's seat in the lobby and whether a phone has picked it."""

    name: str
    taken: bool


@dataclass(frozen=True)
class Seats:
    """The lobby's live list: every player's seat, and how many other phones (scorekeepers, watchers) came."""

    seats: tuple[Seat, ...]
    others: int

    @property
    def everyone_in(self) -> bool:
        """True once every player's seat has a phone."""
        return all(seat.taken for seat in self.seats)


def seats(view: TableView, seating: Seating) -> Seats:
    """Tick each player whose seat a phone picked, the host's included (removed phones do not count)."""
    taken = seating.held()
    return Seats(tuple(Seat(name, name in taken) for name in view.setup.players), seating.followers())


def _lobby(code: str) -> tuple[TableView, JoinPanel | None, dict[str, Any]]:
    """The table, this phone's join panel (None if it may not bring phones in), the live list's context."""
    view = get_referee().view(code)
    device = current_device(view)
    join = join_panel(view, device)
    # The host's join panel has read the table's phones and the host's choice already: not read again.
    host_panel = join if join is not None and join.is_host else None
    live = {
        "lobby": seats(view, Seating(host_panel.devices) if host_panel else get_referee().seating(view)),
        "requests": asking_context(view, device)["requests"] if join else [],
        "back": "lobby",
        "choice": host_panel.choice if host_panel else None,
    }
    return view, join, live


@bp.get("/t/<code>/lobby")
def page(code: str) -> BaseResponse | str:
    """Show the lobby to a phone that may bring others in; any other phone goes to the table."""
    view, join, live = _lobby(code)
    if join is None or view.code != code:
        return redirect(url_for("table.page", code=view.code))
    return render_template("lobby.html", view=view, join=join, **live)


@bp.get("/t/<code>/lobby/seats")
def seat_list(code: str) -> BaseResponse | str:
    """The live list of seats (refreshed when the table's stream says something changed)."""
    view, join, live = _lobby(code)
    if join is None:
        # This phone may no longer bring phones in (its host role moved to a new phone, say): the whole lobby
        # goes, and the table page says why. A redirect would have htmx swap that whole page into the list.
        return navigate(url_for("table.page", code=view.code))
    return render_template("_seats.html", view=view, **live)
