"""Table display: a phone or tablet propped in the middle of the table shows the game large, watch-only."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..errors import ServiceError
from ..extensions import get_referee
from ..rematchnote import rematch_note
from ..tableview import TableView
from .common import service_error_page
from .summary import strip, tiebreak_note

bp = Blueprint("display", __name__)
bp.register_error_handler(ServiceError, service_error_page)


def _context(view: TableView) -> dict[str, object]:
    # No device: the display never enters cards and never shows a phone's own cues.
    state = view.state
    return {
        "view": view,
        "state": state,
        "strip": strip(view, None),
        "rematch_note": rematch_note(view),
        "tiebreak": tiebreak_note(state),
    }


@bp.get("/t/<code>/display")
def page(code: str) -> BaseResponse | str:
    """The table display: huge total, whose turn, direction, lives, last event (no pad, whoever opens it)."""
    view = get_referee().view(code)
    if view.code != code:
        return redirect(url_for("display.page", code=view.code))
    return render_template("display.html", **_context(view))


@bp.get("/t/<code>/display/live")
def live(code: str) -> str:
    """The display's live region (refreshed when the table's stream says something changed)."""
    return render_template("_display.html", **_context(get_referee().view(code)))
