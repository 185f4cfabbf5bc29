"""Asking to play: a phone that typed the code asks to be a player; every host phone allows or refuses.

Watching stays the default: a phone only gets a seat once a host phone allows it, and then it is in the same
state as a phone that picked that seat through the join link. Asks and answers are plain form posts (they work
without JavaScript); the live board and the lobby's seat list re-render both sides as the table's revision moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...engine.words import N_, N_plural, Sentence
from ...service import (
    ASKS_PER_ADDRESS,
    REQUEST_WAIT_SECONDS,
    DeviceRow,
    JoinRequestRow,
    Phone,
    new_device_key,
    permissions,
)
from ...service.errors import ServiceError
from ...service.tableview import TableView
from ..extensions import ask_limit, get_referee, join_limit
from ..http import HTTP_ERROR_SENTENCES
from ..i18n import worded
from ..security import csrf_ok
from .common import STALE_PAGE, adopt_device_key, client_address, current_device, current_key, service_error_page

bp = Blueprint("asking", __name__)
# Flash category of the host's confirmation: a calm status line at the top of the page (as pages/table.py's).
QUIET = "quiet"
bp.register_error_handler(ServiceError, service_error_page)


@dataclass(frozen=True)
class AskPanel:
    """What a phone without a seat may ask for: the free seats, and how its last request went."""

    free: tuple[str, ...]
    request: JoinRequestRow | None
    host_only: bool
    refused_just_now: bool = False
    """The host said no less than a minute ago: the phone is told when it may ask again."""

    @property
    def waiting(self) -> bool:
        """True while this phone's request waits for the host."""
        return self.request is not None and self.request.status == "pending"

    @property
    def wait_minutes(self) -> int:
        """How long a request waits for the host before it is closed."""
        return REQUEST_WAIT_SECONDS // 60


def ask_panel(view: TableView, device: DeviceRow | None) -> AskPanel | None:
    """The "Ask to be Dee" panel for a phone without a seat (None for seated, host or removed phones)."""
    if not permissions(view, device).asks_to_play:
        return None
    referee = get_referee()
    mine = referee.my_request(view, current_key())
    free = tuple(referee.free_seats(view))
    if not free and (mine is None or mine.status != "pending"):
        return None
    return AskPanel(free, mine, view.entry == "host", referee.refused_recently(mine))


def asking_context(view: TableView, device: DeviceRow | None) -> dict[str, Any]:
    """The board's part about requests: the asker's panel, or the requests a host phone must answer (read through
    the service's check of who may see them, as the API reads them)."""
    if permissions(view, device).answers_requests:
        return {"ask": None, "requests": get_referee().requests_for_host(view, Phone(device), pending_only=True)}
    return {"ask": ask_panel(view, device), "requests": []}


def _back(code: str) -> BaseResponse:
    """Back to the page the form was on: the lobby (host), else the table."""
    if request.form.get("back") == "lobby":
        return redirect(url_for("lobby.page", code=code), 303)
    return redirect(url_for("table.page", code=code), 303)


@bp.post("/t/<code>/ask")
def ask(code: str) -> BaseResponse:
    """Ask the host to let this phone be the player it picked."""
    view = get_referee().view(code)
    if not csrf_ok():
        flash(worded(STALE_PAGE), "error")
        return _back(view.code)
    if not join_limit().allow(client_address()):
        flash(worded(HTTP_ERROR_SENTENCES[429]), "error")
        return _back(view.code)
    player = request.form.get("player", "")
    # Each request a phone makes counts towards its address's share of the table's places; asking again for the
    # seat its request already waits for (a double tap) makes no new one, so it counts nothing.
    mine = get_referee().my_request(view, current_key())
    again = mine is not None and mine.status == "pending" and view.setup.player_named(player) == mine.player
    limit, key = ask_limit(), f"{client_address()} {view.code}"
    if not again and not limit.allow(key):
        flash(worded(_too_many_asks(limit.retry_after(key))), "error")
        return _back(view.code)
    new_key = new_device_key()
    try:
        get_referee().ask_to_join(view.code, player, new_key, previous_key=current_key())
    except ServiceError as error:
        if not again:
            limit.release(key)  # no request was made: it takes none of the address's share
        flash(worded(error.message), "error")
        return _back(view.code)
    # A new cookie, as at every join: one planted in this browser beforehand cannot become the player.
    adopt_device_key(new_key)
    return _back(view.code)


def _too_many_asks(seconds: int) -> Sentence:
    """Why a phone may not ask now: phones on its connection have asked as often as one connection may."""
    minutes = max(1, math.ceil(seconds / 60))
    too_many = N_plural(
        "%(asks)s phones on this connection have already asked to play at this table. Scan the QR code on the "
        "host's phone to join, or ask again in a minute.",
        "%(asks)s phones on this connection have already asked to play at this table. Scan the QR code on the "
        "host's phone to join, or ask again in %(count)s minutes.",
    )
    return Sentence(too_many, asks=ASKS_PER_ADDRESS, count=minutes)


@bp.post("/t/<code>/ask/cancel")
def cancel(code: str) -> BaseResponse:
    """Withdraw this phone's request."""
    view = get_referee().view(code)
    if not csrf_ok():
        flash(worded(STALE_PAGE), "error")
        return _back(view.code)
    try:
        get_referee().cancel_request(view.code, current_key())
    except ServiceError as error:
        flash(worded(error.message), "error")
    return _back(view.code)


@bp.post("/t/<code>/requests/<int:request_id>/<any(allow, refuse):answer>")
def answer(code: str, request_id: int, answer: str) -> BaseResponse:
    """Allow or refuse a phone's request (host phones only)."""
    view = get_referee().view(code)
    if not csrf_ok():
        abort(403)
    phone = Phone(current_device(view))
    get_referee().require_host(view, phone)  # a phone that is not the host's gets the 403 page, not a flash
    try:
        done = get_referee().answer_request(view.code, request_id, allow=answer == "allow", actor=phone)
    except ServiceError as error:
        flash(worded(error.message), "error")
        return _back(view.code)
    if done.status == "allowed":
        flash(worded(Sentence(N_("Allowed: that phone is %(name)s's now."), name=done.player)), QUIET)
    else:
        refused = N_("Refused: the phone that asked to be %(name)s keeps watching, and is told so.")
        flash(worded(Sentence(refused, name=done.player)), QUIET)
    return _back(view.code)
