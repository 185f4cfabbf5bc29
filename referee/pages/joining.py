"""Joining a table and the host's panel: the join link and its QR code, "Who are you?", removing phones.

Who may enter cards is decided by the service (`Referee.may_enter`); these views only show the link to phones
that may, and let the host (the phone that started the table) manage the others.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from io import BytesIO

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..errors import Forbidden, NotFound, ServiceError
from ..extensions import get_referee, join_limit
from ..http_status import http_status
from ..netaddr import ALL_INTERFACES, lan_address, link_for_phones
from ..security import csrf_ok
from ..service import new_device_key, normalise_code
from ..store import DeviceRow
from ..tableview import TableView
from .common import adopt_device_key, client_address, current_device, current_key, error_page, service_error_page
from .whoami import HostChoice, host_choice, take_host_answer

bp = Blueprint("joining", __name__)
bp.register_error_handler(ServiceError, service_error_page)


def join_url(view: TableView) -> str:
    """Return the link a phone opens to join the table, on an address other phones can reach."""
    url = url_for("joining.ask", code=view.code, secret=view.join_secret, _external=True)
    config = current_app.config
    listen_host = config.get("LISTEN_HOST")
    lan = lan_address() if listen_host is None or listen_host in ALL_INTERFACES else None
    return link_for_phones(url, listen_host=listen_host, public_url=config.get("PUBLIC_URL") or None, lan=lan)


@dataclass
class JoinPanel:
    """What the join panel shows a phone that may enter cards: the link, its QR code, and for the host the phones."""

    view: TableView
    is_host: bool
    devices: list[DeviceRow]
    choice: HostChoice | None = None
    """For the host: which player its phone is (it may change it here)."""

    @property
    def code(self) -> str:
        """The table code."""
        return self.view.code

    @cached_property
    def link(self) -> str:
        """The join link (built only when the panel is drawn)."""
        return join_url(self.view)

    @property
    def qr_tag(self) -> str:
        """Part of the QR image's URL, so a new join link is never hidden by the phone's cached picture."""
        return hashlib.sha256(self.view.join_secret.encode()).hexdigest()[:8]

    @property
    def tag(self) -> str:
        """What the panel shows, in 8 hex digits: a live update re-sends the panel only when this changes."""
        shown = [self.view.join_secret]
        if self.is_host:
            shown += [self.view.entry, *(f"{d.id}:{d.label}:{d.revoked}" for d in self.devices)]
        return hashlib.sha256("\n".join(shown).encode()).hexdigest()[:8]


def join_panel(view: TableView, device: DeviceRow | None) -> JoinPanel | None:
    """The join panel for phones that may enter cards; None for the others."""
    if not get_referee().may_enter(view, device):
        return None
    is_host = device is not None and device.role == "host"
    if not is_host:
        return JoinPanel(view, False, [])
    return JoinPanel(view, True, get_referee().devices(view), host_choice(view, device))


@bp.get("/j/<code>/<secret>")
def ask(code: str, secret: str) -> BaseResponse | str | tuple[str, int]:
    """Ask "Who are you?" on a phone that opened the join link."""
    # Opening the link counts as an attempt too: a right or wrong secret, it is a brake on guessing.
    if not join_limit().allow(client_address()):
        return error_page("Slow down", "Too many joins from this phone: wait a minute.", 429)
    try:
        view = get_referee().check_join_secret(code, secret)
    except NotFound as error:
        return error_page("No such table", error.message, http_status(error))
    except Forbidden as error:
        message = (
            "This join link is wrong or was replaced. Ask the host to show the QR code again, "
            "or type the table code to watch."
        )
        return error_page("This link doesn't work", message, http_status(error))
    device = current_device(view)
    if device is not None and device.role == "host" and not device.revoked:
        # The host opened its own link: it is already here; it may say which player it is (pages/whoami.py).
        return redirect(url_for("whoami.page", code=view.code))
    return render_template("join.html", view=view, secret=secret, device=device)


@bp.post("/j/<code>/<secret>")
def answer(code: str, secret: str) -> BaseResponse | tuple[str, int]:
    """Remember this phone at the table as the player it picked (or as a watcher)."""
    if not csrf_ok():
        return error_page("Try again", "The page was stale. Open the link again.", 400)
    if not join_limit().allow(client_address()):
        return error_page("Slow down", "Too many joins from this phone: wait a minute.", 429)
    # "player:NAME", "score" or "watch": a prefix, so no player name can clash with the other two.
    choice = request.form.get("who", "")
    watching = choice == "watch"
    player = None if choice in ("watch", "score") else choice.removeprefix("player:")
    if not choice or (player is not None and not player.strip()):
        return error_page("Try again", "Pick who you are, or Just watching.", 400)
    if _host_answer(code, secret, choice):
        return redirect(url_for("whoami.page", code=normalise_code(code)), 303)
    new_key = new_device_key()
    try:
        get_referee().join(code, secret, new_key, player=player, watching=watching, previous_key=current_key())
    except ServiceError as error:
        title = "Removed from the table" if error.code == "revoked" else "This link doesn't work"
        return error_page(title, error.message, http_status(error))
    # A new cookie at every join: one planted in this browser beforehand can no longer act as this phone.
    adopt_device_key(new_key)
    return redirect(url_for("table.page", code=normalise_code(code)), 303)


def _host_answer(code: str, secret: str, choice: str) -> bool:
    """If the host's phone answered "Who are you?" on its own link, take its answer as the host's; True if so.

    Its answer is said on the page it is sent to (pages/whoami.py): a tap here is never silently ignored.
    """
    try:
        view = get_referee().check_join_secret(code, secret)
    except ServiceError:
        return False  # join() says what is wrong with the link
    device = current_device(view)
    if device is None or device.role != "host" or device.revoked:
        return False
    take_host_answer(view.code, choice)
    return True


@bp.get("/t/<code>/qr.svg")
def qr_svg(code: str) -> Response:
    """Draw the join link as an SVG QR code (only for phones that may enter cards)."""
    view = get_referee().view(code)
    panel = join_panel(view, current_device(view))
    if panel is None:
        abort(403)
    image = qrcode.make(panel.link, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buffer = BytesIO()
    image.save(buffer)
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=300"
    return response


# --- the host's panel ---------------------------------------------------------------------------------


def _host_view(code: str) -> TableView:
    """Return the table if this phone is its host and the form carries the CSRF token; 403 otherwise."""
    view = get_referee().view(code)
    device = current_device(view)
    if not csrf_ok() or device is None or device.role != "host":
        abort(403)
    return view


def _back_to_join_panel(view: TableView) -> BaseResponse:
    return redirect(url_for("table.page", code=view.code) + "#join", 303)


@bp.post("/t/<code>/devices/<int:device_id>/revoke")
def revoke(code: str, device_id: int) -> BaseResponse:
    """Remove a phone from the table (host only)."""
    view = _host_view(code)
    get_referee().revoke(view.code, device_id)
    flash(
        "That phone can no longer enter cards. The join link and QR code changed too, so it cannot join again; "
        "phones still here stay.",
        "info",
    )
    return _back_to_join_panel(view)


@bp.post("/t/<code>/join-link")
def new_link(code: str) -> BaseResponse:
    """Replace the join link and QR code, for when they reached people who should not join (host only)."""
    view = _host_view(code)
    get_referee().new_join_link(view.code)
    flash("New join link made. The old QR code and link no longer let phones join; phones already here stay.", "info")
    return _back_to_join_panel(view)


@bp.post("/t/<code>/entry")
def entry(code: str) -> BaseResponse:
    """Choose who may enter cards: every joined phone, or the host only (host only)."""
    view = _host_view(code)
    get_referee().set_entry(view.code, request.form.get("entry", "joined"))
    return _back_to_join_panel(view)
