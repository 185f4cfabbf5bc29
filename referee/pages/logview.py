"""The table's log as phones show it: newest first, round separators, only the recent part on the board."""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Blueprint, render_template

from ..errors import ServiceError
from ..extensions import get_referee
from ..tableview import LogEntry, TableView
from .common import service_error_page

bp = Blueprint("logview", __name__)
bp.register_error_handler(ServiceError, service_error_page)

# The board shows this many entries; the rest is one tap away ("Show all"), so the board's size (and a
# live refresh's cost) does not grow with the game. The JSON API keeps the whole log.
RECENT = 30
# The engine's narration of a new deal (engine/narrate.py, EventKind.NEW_ROUND): "Round 2: Cy deals."
NEW_ROUND = re.compile(r"\bRound (\d+): ")


@dataclass(frozen=True)
class LogLine:
    """One log entry as shown, with the round it opened (for a separator above it), if any."""

    entry: LogEntry
    opens_round: int | None


def log_lines(view: TableView, limit: int | None = RECENT) -> tuple[list[LogLine], int]:
    """The newest `limit` entries (all if None), newest first; and how many entries the log holds."""
    entries = view.log if limit is None else view.log[-limit:]
    lines = []
    for entry in reversed(entries):
        found = None if entry.undone else NEW_ROUND.search(entry.text)
        lines.append(LogLine(entry, int(found.group(1)) if found else None))
    return lines, len(view.log)


@bp.get("/t/<code>/log")
def full_log(code: str) -> str:
    """The whole log of a table, on a page of its own."""
    view = get_referee().view(code)
    lines, count = log_lines(view, None)
    return render_template("log.html", view=view, log=lines, log_count=count, full_log=True, state=view.state)
