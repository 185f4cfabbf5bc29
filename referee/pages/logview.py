"""The table's log as phones show it: newest first, a heading above each round's lines, only the recent part on
the board."""

from __future__ import annotations

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


@dataclass(frozen=True)
class LogLine:
    """One log entry as shown, and the round whose heading stands above it (the round's newest line), if any."""

    entry: LogEntry
    heads_round: int | None


def log_lines(view: TableView, limit: int | None = RECENT) -> tuple[list[LogLine], int]:
    """The newest `limit` entries (all if None), newest first; and how many entries the log holds.

    Each round's heading stands above its newest line, so it labels the lines under it: the card that ended
    round N - 1 (and dealt round N) sits under round N - 1's heading, and the board's window always shows the
    heading of every round it shows a line of.
    """
    first = 0 if limit is None else max(len(view.log) - limit, 0)
    # The rounds come from the engine's NEW_ROUND events, not from the log's wording (rewording a sentence
    # cannot lose a separator); the history keeps them as its actions are applied, so no replay is needed here.
    opened = view.history.rounds_from(first)
    # Walking from the newest line: the undone lines (always the newest) were played in the round the table
    # is in now, their deals never happened; an active line that dealt round N was played in round N - 1
    # (the engine deals rounds one after another).
    playing, headed = view.state.round, None
    lines = []
    for index in range(len(view.log) - 1, first - 1, -1):
        entry = view.log[index]
        dealt = None if entry.undone else opened.get(index)
        if dealt is not None:
            playing = dealt - 1
        lines.append(LogLine(entry, None if playing == headed else playing))
        headed = playing
    return lines, len(view.log)


@bp.get("/t/<code>/log")
def full_log(code: str) -> str:
    """The whole log of a table, on a page of its own."""
    view = get_referee().view(code)
    lines, count = log_lines(view, None)
    return render_template("log.html", view=view, log=lines, log_count=count, full_log=True, state=view.state)
