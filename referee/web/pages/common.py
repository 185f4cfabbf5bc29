"""What every page shares: this browser's device key (renewed at each join) and device, its address, error pages."""

from __future__ import annotations

from flask import render_template, request, session
from werkzeug.exceptions import HTTPException

from ...engine.words import N_
from ...service import DeviceRow, new_device_key
from ...service.errors import ServiceError
from ...service.tableview import TableView
from ..extensions import get_referee
from ..http import http_error_sentence, http_status
from ..i18n import worded
from ..security import new_csrf_token

# What a page says when its form's CSRF token is old (the page was open across a new key): it is drawn again.
STALE_PAGE = N_("This page was stale: it has been refreshed. Tap again.")
# What a phone is told past its limit of new tables (a rematch counts too).
TOO_MANY_TABLES = N_("Too many new tables from this phone: wait a minute.")
# The heading of a refusal that has no better one.
CANT_DO_THAT = N_("Can't do that")


def current_key() -> str | None:
    """Return this browser's device key, if it has one (kept in the signed, HttpOnly session cookie)."""
    key = session.get("device")
    return key if isinstance(key, str) else None


def adopt_device_key(key: str) -> None:
    """Give this browser a new device key and CSRF token (after a join or a new table; docs/security.md).

    Both change, so a cookie planted in the browser beforehand knows neither: the planter can neither act as
    this phone nor forge its form posts.
    """
    session["device"] = key
    session.permanent = True
    session.pop(JOIN_KEY, None)  # used once
    new_csrf_token()


# The key this browser's next join through the link gives it, made when "Who are you?" (or its one question) is
# drawn, and kept in the signed, HttpOnly cookie. Every post from that page carries the same cookie, so a double
# tap's two posts join with the same new key: the second finds the seat the first took, instead of making a
# second phone that takes the seat from the first (Referee.join). The key is still new at every join: made
# after any cookie planted in the browser beforehand, and dropped once a join used it.
JOIN_KEY = "join_key"


def offer_join_key() -> None:
    """Make the key a join from the page being drawn will give this browser."""
    session[JOIN_KEY] = new_device_key()


def join_key() -> str:
    """The key a join from the page this browser was shown gives it (a new one if that page made none)."""
    key = session.get(JOIN_KEY)
    return key if isinstance(key, str) and key else new_device_key()


def current_device(view: TableView) -> DeviceRow | None:
    """Return this browser's device at the table, if it joined (never creates a key)."""
    return get_referee().device(view, current_key())


def asked_holder() -> int | None:
    """The phone a "take its seat?" question named (its id, posted with the yes); None without a valid one."""
    sent = request.form.get("take", "")
    return int(sent) if sent.isdigit() and 0 < int(sent) < 2**63 else None


def client_address() -> str:
    """Return the address the request came from (the proxy's client when a trusted proxy says so)."""
    return request.remote_addr or "?"


def error_page(title: str, message: str, status: int) -> tuple[str, int]:
    """Render the error page with a title and a sentence a player understands, both in the phone's language
    (each an N_-marked sentence or a service's Sentence)."""
    return render_template("error.html", title=worded(title), message=worded(message)), status


# Headings for refusals that have a better one than "Can't do that" (by error code).
_SERVICE_TITLES = {"no_table": N_("No such table")}


def service_error_page(error: ServiceError) -> tuple[str, int]:
    """Show a service refusal that reached a page on its own (no table to show it on)."""
    return error_page(_SERVICE_TITLES.get(error.code, CANT_DO_THAT), error.message, http_status(error))


_TITLES = {404: N_("Page not found"), 405: N_("Can't do that here"), 413: N_("Too much"), 429: N_("Slow down")}


def http_error_page(error: HTTPException) -> tuple[str, int]:
    """Show an HTTP error (unknown page, wrong method, too large) as an HTML page."""
    status = error.code or 500
    return error_page(_TITLES.get(status, CANT_DO_THAT), http_error_sentence(error), status)
