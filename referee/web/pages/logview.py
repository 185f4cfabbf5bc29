"""The table's log as phones show it: newest first, a heading above each round's lines, only the recent part on
the board, and the whole log a page of LOG_PAGE_SIZE entries at a time."""

from __future__ import annotations

import math

from flask import Blueprint, Response, render_template, request

from ...engine.words import N_, Sentence
from ...service.errors import ServiceError
from ...service.tableview import RECENT_ENTRIES, LogLine, TableView
from ..extensions import get_referee
from ..i18n import worded
from ..playlog import play_csv as csv_of
from .common import service_error_page

bp = Blueprint("logview", __name__)
bp.register_error_handler(ServiceError, service_error_page)

# Entries on one page of the whole log: a long evening's game is a few hundred, so most logs are one page, and a
# page of a 10,000-entry log (the most a table keeps) stays some 45 KB, drawn in a few milliseconds, where the
# whole log on one page was 2 MB and took 130 ms of the server for every reader (docs/performance.md).
LOG_PAGE_SIZE = 200
# The longest page number read: a longer one is no page of any log (10,000 entries are 50 pages), so it is not parsed.
_MAX_PAGE_DIGITS = 6


def log_lines(view: TableView, limit: int | None = RECENT_ENTRIES) -> tuple[list[LogLine], int]:
    """The newest `limit` entries (all if None), newest first, with their rounds' headings; and how many entries
    the log holds. The board's window is worked out once per version (TableView.recent_lines): a tap's answer
    compares it with the window the phone showed, and every phone's refresh draws it."""
    lines = view.recent_lines if limit == RECENT_ENTRIES else view.log_window(limit)
    return list(lines), len(view.log)


def log_page_count(entries: int) -> int:
    """How many pages the whole log takes (one, even when it is empty)."""
    return max(1, math.ceil(entries / LOG_PAGE_SIZE))


def _asked_page(pages: int) -> int | None:
    """The page the query string asks for (1 without one), or None when it names no page of this log."""
    asked = request.args.get("page", "1")
    if not (asked.isascii() and asked.isdigit()) or len(asked) > _MAX_PAGE_DIGITS:
        return None
    page = int(asked)
    return page if 1 <= page <= pages else None


@bp.get("/t/<code>/log")
def full_log(code: str) -> tuple[str, int]:
    """The whole log of a table, newest first, a page of LOG_PAGE_SIZE entries at a time (?page=2 is older)."""
    view = get_referee().view(code)
    count = len(view.log)
    pages = log_page_count(count)
    page = _asked_page(pages)
    context = {"view": view, "state": view.state, "full_log": True, "log_count": count, "pages": pages}
    if page is None:
        # A made-up or outdated page number (an old link to a log that was undone): said, with the way back.
        if pages == 1:
            missing = worded(N_("There is no such page of this log: it has one page."))
        else:
            numbered = N_("There is no such page of this log: its pages are numbered 1 to %(pages)s.")
            missing = worded(Sentence(numbered, pages=pages))
        return render_template("log.html", log=[], page=None, missing=missing, **context), 404
    stop = count - (page - 1) * LOG_PAGE_SIZE
    first = max(stop - LOG_PAGE_SIZE, 0)
    lines = list(view.log_lines(first, stop))
    shown = {"newest": stop, "oldest": first + 1}
    return render_template("log.html", log=lines, page=page, shown=shown, **context), 200


@bp.get("/t/<code>/play.csv")
def play_csv(code: str) -> Response:
    """The game as a spreadsheet: a finished game's standings, then one row per action (what the log page shows)."""
    view = get_referee().view(code)
    response = Response(csv_of(view), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="5-alive-{view.code}.csv"'
    return response
