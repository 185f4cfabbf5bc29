"""A finished game, out of the app: as a spreadsheet (CSV: the standings, then one row per action) and as a link
that logs the play in BG Stats, the play-logging app many families use.

The link follows BG Stats' documented format for pushing a play from another app
(https://app.bgstatsapp.com/createPlay.html?data=… with the play as JSON): the game's name, the date and length,
and each player with their place, lives left as their score, and the winner. The app opens it (or the page says
how to get the app), and asks before it saves anything.
"""

from __future__ import annotations

import csv
import io
import json
import time
from urllib.parse import quote

from ..engine import Status
from ..service.tableview import TableView
from .standings import Standings, standings

BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html?data="
GAME_NAME = "5 Alive"
SOURCE_NAME = "5 Alive Referee"


def _round_of_each_action(view: TableView) -> list[int]:
    """The round each action of the log was played in (the action that deals a round ends the one before)."""
    dealt = dict(view.history.rounds or ())
    rounds, current = [], 1
    for index in range(len(view.log)):
        rounds.append(current)
        current = dealt.get(index, current)
    return rounds


def _utc(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds))


def result(view: TableView) -> Standings:
    """The finished game's standings (places, lives left, rounds won)."""
    return standings(view, [view])


def play_csv(view: TableView) -> str:
    """The game as CSV: the standings (a finished game's), a blank line, then one row per action of the log."""
    out = io.StringIO()
    writer = csv.writer(out)
    if view.state.status is Status.FINISHED:
        writer.writerow(["Place", "Player", "Lives left", "Rounds won", "Team", "Left the game"])
        for row in result(view).rows:
            writer.writerow([row.place, row.name, row.lives, row.rounds_won, row.team or "", "yes" if row.left else ""])
        writer.writerow([])
    writer.writerow(["Action", "Round", "What happened", "Entered by", "Time (UTC)", "Undone"])
    for number, (entry, round_number) in enumerate(zip(view.log, _round_of_each_action(view), strict=True), start=1):
        writer.writerow(
            [
                number,
                round_number,
                entry.text,
                entry.entered_by or "",
                _utc(entry.changed_at) if entry.changed_at else "",
                "yes" if entry.undone else "",
            ]
        )
    return out.getvalue()


def bgstats_play(view: TableView) -> dict[str, object]:
    """The finished game as the play BG Stats imports: players with place, lives left (score) and the winner."""
    times = [entry.changed_at for entry in view.log if entry.changed_at]
    started, ended = (min(times), max(times)) if times else (0.0, 0.0)
    rows = result(view).rows
    return {
        "sourceName": SOURCE_NAME,
        "game": {"name": GAME_NAME, "highestWins": True, "noPoints": False, "sourceGameId": "five-alive"},
        "playDate": _utc(ended),
        "durationMin": max(1, round((ended - started) / 60)),
        "players": [
            {
                "name": row.name,
                "rank": row.place,
                "score": row.lives,
                "winner": row.place == 1,
                "startPlayer": row.name == view.setup.first_player,
            }
            for row in rows
        ],
    }


def bgstats_link(view: TableView) -> str:
    """The link that opens BG Stats' "import this play" dialog with the finished game."""
    data = json.dumps(bgstats_play(view), ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_URL + quote(data, safe="")
