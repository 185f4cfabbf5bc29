"""The host's phone says who it is: one of the players (it keeps every host right) or only the scorekeeper.

Asked in the lobby ("Which one is you?"), changed from the host's panel on the table, and shown on a page of
its own when the host opens its own join link or types its own code (never a silent no-op). The service
(`Referee.set_host_player`) refuses a seat another phone holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, flash, get_flashed_messages, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..errors import ServiceError
from ..extensions import get_referee
from ..htmx import navigate
from ..security import csrf_ok
from ..service import HOST_LABEL
from ..store import DeviceRow
from ..tableview import TableView
from .common import current_device, current_key, service_error_page

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
    """Players another phone is theirs: the host removes that phone first to be one of them."""


def host_choice(view: TableView, device: DeviceRow | None) -> HostChoice | None:
    """The host's phone's answer and its choices; None for every other phone."""
    if device is None or device.revoked or device.role != "host":
        return None
    others = get_referee().devices(view)
    held = {d.player for d in others if d.player and not d.revoked and d.id != device.id}
    names = [name for name in view.setup.players if name != device.player]
    return HostChoice(
        player=device.player,
        said=device.player is not None or device.label != HOST_LABEL,
        free=tuple(name for name in names if name not in held),
        held=tuple(name for name in names if name in held),
    )


def _back(code: str, back: str) -> BaseResponse:
    """Back to the page the form was on (a 303, or HX-Redirect for htmx)."""
    if back == "lobby":
        return navigate(url_for("lobby.page", code=code))
    if back == "me":
        return navigate(url_for("whoami.page", code=code))
    return navigate(url_for("table.page", code=code) + "#join")


@bp.get("/t/<code>/me")
def page(code: str) -> BaseResponse | str:
    """Tell the host's phone it is this table's host and ask which player it is; other phones go to the table."""
    view = get_referee().view(code)
    choice = host_choice(view, current_device(view))
    if choice is None:
        return redirect(url_for("table.page", code=view.code))
    if view.code != code:  # typed in lower case, say
        return redirect(url_for("whoami.page", code=view.code))
    messages = get_flashed_messages(with_categories=True)
    return render_template("whoami.html", view=view, choice=choice, back="me", messages=messages)


@bp.post("/t/<code>/me")
def choose(code: str) -> BaseResponse:
    """Make the host's phone the player it picked ("player:NAME"), or only the scorekeeper ("score")."""
    view = get_referee().view(code)
    back = request.form.get("back", "table")
    back = back if back in BACKS else "table"
    if not csrf_ok():
        flash("This page was stale: it has been refreshed. Tap again.", "error")
        return _back(view.code, back)
    take_host_answer(view.code, request.form.get("who", ""))
    return _back(view.code, back)


def take_host_answer(code: str, choice: str) -> None:
    """Make the host's phone "player:NAME"'s or only the scorekeeper ("score"); flash what happened, in words."""
    if choice == "watch":
        message = "This phone started the table, so it is the host: it can't only watch."
        flash(f"{message} Tap your name, or I'm only keeping score.", "error")
        return
    if choice != "score" and not choice.startswith("player:"):
        flash("Tap your name, or I'm only keeping score.", "error")
        return
    player = None if choice == "score" else choice.removeprefix("player:")
    try:
        done = get_referee().set_host_player(code, current_key(), player)
    except ServiceError as error:
        flash(error.message, "error")
        return
    said = f"This phone is {done.player}'s now" if done.player else "This phone only keeps score now"
    flash(f"{said}; it is still the host.", "info")
