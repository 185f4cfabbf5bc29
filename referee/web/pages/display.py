"""Table display: a phone or tablet propped in the middle of the table shows the game large, watch-only."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...engine import EventKind, Status
from ...service.errors import ServiceError
from ...service.tableview import TableView
from ..extensions import get_referee
from ..http import navigate
from ..i18n import worded
from ..rematchnote import rematch_note
from ..standings import series_tally
from .calls import call_language, spoken_call
from .common import service_error_page
from .summary import strip, tiebreak_note

bp = Blueprint("display", __name__)
bp.register_error_handler(ServiceError, service_error_page)


def _context(view: TableView) -> dict[str, object]:
    # No device: the display never enters cards and never shows a phone's own cues.
    state = view.state
    latest = strip(view, None)
    tiebreak = tiebreak_note(state)
    return {
        "view": view,
        "state": state,
        "strip": latest,
        "call": spoken_call(view, latest, tiebreak),
        "call_language": call_language(),
        "rematch_note": None if (note := rematch_note(view)) is None else worded(note),
        "tiebreak": tiebreak,
        "started_tiebreak": any(event.kind is EventKind.TIEBREAK for event in state.events),
        **_series(view),
    }


def _series(view: TableView) -> dict[str, object]:
    """At game over, the series so far ("Ann 2 – Bob 1 – Cy 0"), as the phones' standings show it."""
    if view.state.status is not Status.FINISHED:
        return {}
    games = get_referee().series(view)
    return {"series": series_tally(games), "series_games": len(games)}


@bp.get("/t/<code>/display")
def page(code: str) -> BaseResponse | str:
    """The table display: huge total, whose turn, direction, lives, last event (no pad, whoever opens it)."""
    view = get_referee().view(code)
    # The display follows its table into a rematch: nobody stands at it to tap "Go to the new table".
    playing = view.rematch_code or view.code
    if playing != code:
        return redirect(url_for("display.page", code=playing))
    return render_template("display.html", **_context(view))


@bp.get("/t/<code>/display/live")
def live(code: str) -> BaseResponse | str:
    """The display's live region (refreshed when the table's stream says something changed)."""
    view = get_referee().view(code)
    if view.rematch_code is not None:
        return navigate(url_for("display.page", code=view.rematch_code))
    return render_template("_display.html", **_context(view))
