"""The host's phone says who it is: one of the players (it keeps every host right) or only the scorekeeper.

Asked in the lobby ("Which one is you?"), changed from the host's panel on the table, and shown on a page of
its own when the host opens its own join link or types its own code (never a silent no-op). A seat another
phone holds is taken over only after the host's phone says yes once, on this page (`Referee.set_host_player`).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, flash, get_flashed_messages, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...engine.words import N_, Sentence
from ...service import HOST_LABEL, DeviceRow, Phone, Seating, permissions
from ...service.errors import ServiceError
from ...service.tableview import TableView
from ..extensions import get_referee
from ..http import navigate
from ..i18n import worded
from ..security import csrf_ok
from .common import STALE_PAGE, asked_holder, current_device, current_key, service_error_page

bp = Blueprint("whoami", __name__)
bp.register_error_handler(ServiceError, service_error_page)

# Where the form goes back to: the page it was on (the lobby, the table's host panel, this page).
BACKS = ("lobby", "table", "me")


@dataclass(frozen=True)
class HostChoice:
    """What the host's phone said it is, and the players it may still pick (no other phone is theirs)."""

    player: str | None
    """The player this phone is, if it said one."""
    said: bool
    """False until the host answered "Which one is you?" (the lobby keeps asking)."""
    free: tuple[str, ...]
    """Players no phone is theirs yet (the host's own player left out): one button each."""
    held: tuple[str, ...]
    """Players another phone is theirs: picking one asks first, then takes the seat over (that phone watches)."""


def host_choice(view: TableView, device: DeviceRow | None, devices: list[DeviceRow] | None = None) -> HostChoice | None:
    """The host's phone's answer and its choices; None for every other phone (service.permissions). `devices`: the
    host's list of the table's phones (Referee.phones), if read."""
    if device is None or not permissions(view, device).is_host:
        return None
    others = get_referee().phones(view, Phone(device)) if devices is None else devices
    held = Seating(others).held(other_than=device)
    names = [name for name in view.setup.players if name != device.player]
    return HostChoice(
        player=device.player,
        said=device.player is not None or device.label != HOST_LABEL,
        free=tuple(name for name in names if name not in held),
        held=tuple(name for name in names if name in held),
    )


def _back_url(code: str, back: str) -> str:
    """The page the form was on: the lobby, this page, or the table's host panel."""
    if back == "lobby":
        return url_for("lobby.page", code=code)
    if back == "me":
        return url_for("whoami.page", code=code)
    return url_for("table.page", code=code) + "#join"


def _back(code: str, back: str) -> BaseResponse:
    """Back to the page the form was on (a 303, or HX-Redirect for htmx)."""
    return navigate(_back_url(code, back))


@bp.get("/t/<code>/me")
def page(code: str) -> BaseResponse | str:
    """Tell the host's phone it is this table's host and ask which player it is; other phones go to the table.

    With `take=NAME` (a seat another phone holds, picked here, in the lobby or on the table), it asks first.
    """
    view = get_referee().view(code)
    device = current_device(view)
    choice = host_choice(view, device)
    if choice is None:
        return redirect(url_for("table.page", code=view.code))
    if view.code != code:  # typed in lower case, say
        return redirect(url_for("whoami.page", code=view.code))
    messages = get_flashed_messages(with_categories=True)
    back = request.args.get("back", "me")
    back = back if back in BACKS else "me"
    take = request.args.get("take")
    # A seat freed meanwhile needs no question; the phone that holds it now is named with the yes.
    held = get_referee().seating(view).holder(take, other_than=device) if take in choice.held else None
    holder = None if held is None else held.device
    return render_template(
        "whoami.html",
        view=view,
        choice=choice,
        back=back,
        messages=messages,
        take=None if holder is None else take,
        holder=holder,
        back_url=_back_url(code, back),
    )


@bp.post("/t/<code>/me")
def choose(code: str) -> BaseResponse:
    """Make the host's phone the player it picked ("player:NAME"), or only the scorekeeper ("score")."""
    view = get_referee().view(code)
    back = request.form.get("back", "table")
    back = back if back in BACKS else "table"
    if not csrf_ok():
        flash(worded(STALE_PAGE), "error")
        return _back(view.code, back)
    held = take_host_answer(view.code, request.form.get("who", ""), take_over=asked_holder())
    if held is not None:
        return navigate(url_for("whoami.page", code=view.code, take=held, back=back))
    return _back(view.code, back)


def take_host_answer(code: str, choice: str, *, take_over: int | None = None) -> str | None:
    """Make the host's phone "player:NAME"'s or only the scorekeeper ("score"); flash what happened, in words.

    Return the player's name if another phone holds that seat and the host's phone has not said yes to taking
    it from that phone (`take_over`, its id) yet: the caller then asks (this page, with `take`).
    """
    if choice == "watch":
        message = N_(
            "This phone started the table, so it is the host: it can't only watch. "
            "Tap your name, or I'm only keeping score."
        )
        flash(worded(message), "error")
        return None
    if choice != "score" and not choice.startswith("player:"):
        flash(worded(N_("Tap your name, or I'm only keeping score.")), "error")
        return None
    player = None if choice == "score" else choice.removeprefix("player:")
    try:
        done = get_referee().set_host_player(code, current_key(), player, take_over=take_over)
    except ServiceError as error:
        if error.code in ("seat_held", "seat_taken_meanwhile") and player is not None:
            if error.code == "seat_taken_meanwhile":
                # Another phone took it since the question: said, then asked again.
                flash(worded(error.message), "error")
            return player.strip()
        flash(worded(error.message), "error")
        return None
    if done.player:
        said = Sentence(N_("This phone is %(name)s's now; it is still the host."), name=done.player)
    else:
        said = Sentence(N_("This phone only keeps score now; it is still the host."))
    flash(worded(said), "info")
    return None
