"""The join panel (the join link and its QR code, on the host's and the players' phones) and the host's
side of it: the list of phones, removing one and bringing it back, a new join link, who may enter cards.

Who may do each is decided by the service (referee/service/access.py); these views draw from its Permissions
and pass the phone to its use cases."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from flask import Blueprint, Response, abort, flash, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...engine.words import N_, Sentence
from ...service import DeviceRow, Permissions, Phone, permissions
from ...service.errors import Illegal, ServiceError
from ...service.tableview import TableView
from ..extensions import get_referee
from ..i18n import worded
from ..links import join_url
from ..qr import qr_code_svg
from ..security import csrf_ok
from .common import current_device, service_error_page
from .labels import label_said
from .whoami import HostChoice, host_choice

bp = Blueprint("joinpanel", __name__)
bp.register_error_handler(ServiceError, service_error_page)


# What the host's panel says once "Who may enter cards?" is saved (referee.service.ENTRY_MODES).
ENTRY_SAVED = {
    "joined": N_("Saved: every phone that joined may enter cards now."),
    "host": N_("Saved: only this phone enters cards now; the other phones follow the game."),
}


@dataclass
class JoinPanel:
    """What the join panel shows the host's and players' phones: the link, its QR code, and for the host the phones."""

    view: TableView
    is_host: bool
    devices: list[DeviceRow]
    choice: HostChoice | None = None
    """For the host: which player its phone is (it may change it here)."""
    may: Permissions | None = None
    """What the host's phone may do with each phone in its list (service.permissions)."""
    this_phone: int | None = None
    """The reading phone's id: its own row says so."""

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

    @cached_property
    def rows(self) -> list[PhoneRow]:
        """The host's list of phones, each row told apart from the others (a dead phone and its new one)."""
        return phone_rows(self.devices, self.view.setup.players, self.may, self.this_phone)

    @property
    def tag(self) -> str:
        """What the panel shows, in 8 hex digits: a live update re-sends the panel only when this changes."""
        shown = [self.view.join_secret]
        if self.is_host:
            shown += [self.view.entry, *(f"{d.id}:{d.label}:{d.revoked}" for d in self.devices)]
        return hashlib.sha256("\n".join(shown).encode()).hexdigest()[:8]


@dataclass(frozen=True)
class PhoneRow:
    """One row of "Phones at this table": the phone, when it joined, and what tells it from a row alike."""

    device: DeviceRow
    label: str
    """The phone's label, in the reading phone's language."""
    joined: str
    """When it joined, as the server's clock read it ("20:14")."""
    nth: int = 1
    """2, 3… for a row that would read like an earlier one (same label, same minute)."""
    removable: bool = False
    """The reading phone may remove this one (a Remove button); a removed one has Bring back instead."""
    mine: bool = False
    """This row is the reading phone's own ("(this phone)")."""

    @property
    def when(self) -> str:
        """The words after the label: "joined 20:14", numbered if an earlier row reads the same."""
        joined = worded(Sentence(N_("joined %(time)s"), time=self.joined))
        return joined + (f" ({self.nth})" if self.nth > 1 else "")

    @property
    def name(self) -> str:
        """The row's words, unlike every other row's ("Bob's phone, joined 20:14"): its Remove button's name."""
        return f"{self.label}, {self.when}"


def phone_rows(
    devices: list[DeviceRow], players: Sequence[str] = (), may: Permissions | None = None, mine: int | None = None
) -> list[PhoneRow]:
    """Rows for the host's list, oldest first, each with what the reading phone (`may`, its id `mine`) may do with
    it; two rows alike (same label, same minute) are numbered."""
    rows: list[PhoneRow] = []
    seen: dict[tuple[str, str], int] = {}
    for device in devices:
        joined = time.strftime("%H:%M", time.localtime(device.created_at))
        alike = (device.label, joined)
        seen[alike] = seen.get(alike, 0) + 1
        removable = may is not None and may.removes(device)
        said = label_said(device.label, players)
        rows.append(PhoneRow(device, said, joined, seen[alike], removable=removable, mine=device.id == mine))
    return rows


def join_panel(view: TableView, device: DeviceRow | None) -> JoinPanel | None:
    """The join panel for the host's and the players' phones; None for the others (service.permissions)."""
    may = permissions(view, device)
    if not may.shares_link:
        return None
    if not may.is_host:
        return JoinPanel(view, False, [])
    devices = get_referee().phones(view, Phone(device))
    choice = host_choice(view, device, devices)
    return JoinPanel(view, True, devices, choice, may=may, this_phone=None if device is None else device.id)


@bp.get("/t/<code>/qr.svg")
def qr_svg(code: str) -> Response:
    """Draw the join link as an SVG QR code (only for the phones that show the join panel)."""
    view = get_referee().view(code)
    panel = join_panel(view, current_device(view))
    if panel is None:
        abort(403)
    response = Response(qr_code_svg(panel.link), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=300"
    return response


def _host_view(code: str) -> tuple[TableView, Phone]:
    """Return the table and this phone if the form carries the CSRF token (403 otherwise); the service decides
    whether the phone is the host's."""
    view = get_referee().view(code)
    if not csrf_ok():
        abort(403)
    return view, Phone(current_device(view))


def _back_to_join_panel(view: TableView) -> BaseResponse:
    return redirect(url_for("table.page", code=view.code) + "#join", 303)


@bp.post("/t/<code>/devices/<int:device_id>/revoke")
def revoke(code: str, device_id: int) -> BaseResponse:
    """Remove a phone from the table (host only)."""
    view, phone = _host_view(code)
    removed = get_referee().revoke(view.code, device_id, actor=phone)
    said = N_(
        "Removed %(phone)s: it can no longer enter cards. The join link and QR code changed too, so it "
        "cannot join again; phones still here stay. A mistake? Tap Bring back beside it."
    )
    flash(worded(Sentence(said, phone=label_said(removed.label, view.setup.players))), "info")
    return _back_to_join_panel(view)


@bp.post("/t/<code>/devices/<int:device_id>/restore")
def restore(code: str, device_id: int) -> BaseResponse:
    """Bring a removed phone back to the table (host only): one tap undoes a mistaken Remove."""
    view, phone = _host_view(code)
    get_referee().require_host(view, phone)  # a phone that is not the host's gets the 403 page, not the panel
    try:
        back = get_referee().restore(view.code, device_id, actor=phone)
    except Illegal as refused:
        # Said in the panel, where the host's eyes are (the page comes back scrolled to it), like its confirmations.
        flash(worded(refused.message), "info")
        return _back_to_join_panel(view)
    flash(
        worded(Sentence(N_("%(phone)s is back at the table."), phone=label_said(back.label, view.setup.players))),
        "info",
    )
    return _back_to_join_panel(view)


@bp.post("/t/<code>/join-link")
def new_link(code: str) -> BaseResponse:
    """Replace the join link and QR code, for when they reached people who should not join (host only)."""
    view, phone = _host_view(code)
    get_referee().new_join_link(view.code, actor=phone)
    made = N_("New join link made. The old QR code and link no longer let phones join; phones already here stay.")
    flash(worded(made), "info")
    return _back_to_join_panel(view)


@bp.post("/t/<code>/entry")
def entry(code: str) -> BaseResponse:
    """Choose who may enter cards: every joined phone, or the host only (host only)."""
    view, phone = _host_view(code)
    chosen = request.form.get("entry", "joined")
    get_referee().set_entry(view.code, chosen, actor=phone)
    # Said like the panel's other controls: saving it changes the list, and a change nobody is told of looks lost.
    flash(worded(ENTRY_SAVED[chosen]), "info")
    return _back_to_join_panel(view)
