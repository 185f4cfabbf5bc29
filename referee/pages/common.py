"""What every page shares: this browser's device key (renewed at each join) and device, its address, error pages."""

from __future__ import annotations

from flask import render_template, request, session
from werkzeug.exceptions import HTTPException

from ..errors import ServiceError
from ..extensions import get_referee
from ..http_status import http_error_sentence, http_status
from ..security import new_csrf_token
from ..store import DeviceRow
from ..tableview import TableView


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
    new_csrf_token()


def current_device(view: TableView) -> DeviceRow | None:
    """Return this browser's device at the table, if it joined (never creates a key)."""
    return get_referee().device(view, current_key())


def client_address() -> str:
    """Return the address the request came from (the proxy's client when a trusted proxy says so)."""
    return request.remote_addr or "?"


def error_page(title: str, message: str, status: int) -> tuple[str, int]:
    """Render the error page with a title and a sentence a player understands."""
    return render_template("error.html", title=title, message=message), status


# Headings for refusals that have a better one than "Can't do that" (by error code).
_SERVICE_TITLES = {"no_table": "No such table"}


def service_error_page(error: ServiceError) -> tuple[str, int]:
    """Show a service refusal that reached a page on its own (no table to show it on)."""
    return error_page(_SERVICE_TITLES.get(error.code, "Can't do that"), error.message, http_status(error))


_TITLES = {404: "Page not found", 405: "Can't do that here", 413: "Too much", 429: "Slow down"}


def http_error_page(error: HTTPException) -> tuple[str, int]:
    """Show an HTTP error (unknown page, wrong method, too large) as an HTML page."""
    status = error.code or 500
    return error_page(_TITLES.get(status, "Can't do that"), http_error_sentence(error), status)
