"""The table's log as phones show it: newest first, a heading above each round's lines, only the recent part on
the board."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..errors import ServiceError
from ..extensions import get_referee
from ..tableview import RECENT_ENTRIES, LogLine, TableView
from .common import service_error_page

bp = Blueprint("logview", __name__)
bp.register_error_handler(ServiceError, service_error_page)


def log_lines(view: TableView, limit: int | None = RECENT_ENTRIES) -> tuple[list[LogLine], int]:
    """The newest `limit` entries (all if None), newest first, with their rounds' headings; and how many entries
    the log holds. The board's window is worked out once per version (TableView.recent_lines): a tap's answer
    compares it with the window the phone showed, and every phone's refresh draws it."""
    lines = view.recent_lines if limit == RECENT_ENTRIES else view.log_window(limit)
    return list(lines), len(view.log)


@bp.get("/t/<code>/log")
def full_log(code: str) -> str:
    """The whole log of a table, on a page of its own."""
    view = get_referee().view(code)
    lines, count = log_lines(view, None)
    return render_template("log.html", view=view, log=lines, log_count=count, full_log=True, state=view.state)
