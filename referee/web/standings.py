"""Game over: places, lives left, rounds won, a chart of lives round by round (SVG drawn here), the series tally."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass

from ..engine import EventKind, Status, Team, apply, new_game
from ..service.tableview import TableView

# Chart geometry (SVG user units; the picture scales to the phone's width).
WIDTH, HEIGHT, LEFT, TOP, BOTTOM, RIGHT = 320, 180, 28, 10, 26, 10
# Line colours that stay apart in light and dark mode and for the common colour blindnesses (Okabe–Ito).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    place: int
    name: str
    lives: int
    rounds_won: int
    team: str | None = None
    """The player's team (teams variant): teammates share their team's place and lives."""
    left: bool = False
    """They left the game before it ended (their lives are the ones they had then)."""
    gone_in: int | None = None
    """The round in which they were knocked out or left; None if they were in at the end. It tells apart two
    players with the same lives and places (who lasted longer places higher: _places)."""


@dataclass(frozen=True)
class Line:
    """One player's lives round by round, as an SVG polyline."""

    name: str
    points: str
    colour: str
    dash: str
    label_y: float


@dataclass(frozen=True)
class Standings:
    """Everything the game-over screen shows."""

    rows: tuple[Standing, ...]
    most_rounds: tuple[tuple[str, ...], int] | None
    """Who won the most rounds (all of them when tied) and how many each; None when no round was won."""
    lines: tuple[Line, ...]
    rounds: int
    series: tuple[SeriesScore, ...]
    by_lasting: bool = False
    """Players with the same lives place apart (who lasted longer places higher): the screen says why. Never in a
    team game, whose places the teams' results and lives give."""


GONE = (EventKind.ELIMINATED, EventKind.LEFT)


@dataclass(frozen=True)
class Replayed:
    """What the standings need from a game played over again."""

    lives: list[dict[str, int]]
    """Lives at the start of each round, and at the end."""
    won: Counter[str]
    """Rounds won."""
    gone: list[list[str]]
    """Who was knocked out or left, in order (those gone at the same card together)."""
    gone_in: dict[str, int]
    """The round in which each of them was knocked out or left."""


# Keyed by the table's code as well as its id: the cache outlives one database (tests, an import into a
# fresh file), where id 1 at version 40 can be another table with other players.
_cache: dict[tuple[str, int, int], Replayed] = {}
_cache_lock = threading.Lock()


def _replayed(view: TableView) -> Replayed:
    """The game played over again: lives round by round, rounds won, who was knocked out or left and when."""
    key = (view.code, view.id, view.version)
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    state = new_game(view.setup)
    replayed = Replayed([{player.name: player.lives for player in state.players}], Counter(), [], {})
    for action in view.history.active:
        before = state.round
        state = apply(state, action)
        replayed.won.update(event.player for event in state.events if event.kind is EventKind.WENT_OUT and event.player)
        # A player who left places by when they left, as one knocked out then would: they lasted until then.
        out = [event.player for event in state.events if event.kind in GONE and event.player]
        if out:
            replayed.gone.append(out)
            replayed.gone_in.update(dict.fromkeys(out, before))
        if state.round != before:
            replayed.lives.append({player.name: player.lives for player in state.players})
    replayed.lives.append({player.name: player.lives for player in state.players})
    with _cache_lock:
        if len(_cache) > 200:
            _cache.clear()
        _cache[key] = replayed
    return replayed


def _team_places(view: TableView) -> dict[str, int]:
    """Teams game: a team's players share its place; the winning team (or teams) first, then by lives left."""
    state = view.state

    def rank(team: Team) -> tuple[bool, int]:
        return team.name not in state.winners, -team.lives

    places: dict[str, int] = {}
    for team in state.teams:
        place = 1 + sum(1 for other in state.teams if rank(other) < rank(team))
        for seat in team.seats:
            places[state.players[seat].name] = place
    return places


def _places(view: TableView, gone: list[list[str]]) -> dict[str, int]:
    """Winners first; then who lasted longer; players out with the same card share a place."""
    if view.state.teams:
        return _team_places(view)
    places = {name: 1 for name in view.state.winners}
    place = len(places) + 1
    # Sudden Death ends with several players still in: they outlasted everyone who is out, more lives first
    # (a tie-break's losers next to the winner), equal lives sharing a place.
    still_in = [player for player in view.state.players if not player.out and player.name not in places]
    for lives in sorted({player.lives for player in still_in}, reverse=True):
        group = [player.name for player in still_in if player.lives == lives]
        for name in group:
            places[name] = place
        place += len(group)
    for group in reversed(gone):
        for name in group:
            places.setdefault(name, place)
        place += len(group)
    for player in view.state.players:
        places.setdefault(player.name, place)
    return places


def _lines(history: list[dict[str, int]], names: list[str]) -> tuple[Line, ...]:
    steps = max(len(history) - 1, 1)
    x_of = [LEFT + (WIDTH - LEFT - RIGHT) * index / steps for index in range(len(history))]

    def y_of(lives: int) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (5 - lives) / 5

    lines = []
    for index, name in enumerate(names):
        points = " ".join(f"{x:.1f},{y_of(point[name]):.1f}" for x, point in zip(x_of, history, strict=True))
        colour, dash = COLOURS[index % len(COLOURS)], DASHES[index % len(DASHES)]
        lines.append(Line(name, points, colour, dash, y_of(history[-1][name])))
    return tuple(lines)


@dataclass(frozen=True)
class SeriesScore:
    """One player's wins over a series, and how many of its games they played."""

    name: str
    wins: int
    played: int
    games: int

    def __str__(self) -> str:
        """As the tally says it: "Ann 2", or "Eve 0 (played 1 of 3)" for a player who missed games."""
        # Without it Eve's 0 after one game reads as three lost games (rematches add and drop players).
        missed = "" if self.played == self.games else f" (played {self.played} of {self.games})"
        return f"{self.name} {self.wins}{missed}"


def series_tally(games: list[TableView]) -> tuple[SeriesScore, ...]:
    """Wins per player over the finished games of a series, most first ("Ann 2 – Bob 1 – Cy 0")."""
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    finished = [game for game in games if game.state.status is Status.FINISHED]
    for game in finished:
        # Everyone who played is named, with 0 if need be: left out, a player asked "did I not play?" (play
        # test 6a).
        played.update(player.name for player in game.state.players)
        # A team's win counts for each of its players: the teams (and which pair is "Team A") may change
        # from one rematch to the next, so a tally of team names could add up different pairs.
        for winner in game.state.winners:
            wins.update(game.state.players_of(winner))
    scores = (SeriesScore(name, wins[name], count, len(finished)) for name, count in played.items())
    return tuple(sorted(scores, key=lambda score: (-score.wins, score.name)))


def standings(view: TableView, games: list[TableView]) -> Standings:
    """The game-over screen of a finished table (`games`: the series it ends, itself included)."""
    replayed = _replayed(view)
    history, won = replayed.lives, replayed.won
    places = _places(view, replayed.gone)
    teams = view.state.teams
    rows = tuple(
        sorted(
            (
                Standing(
                    places[p.name],
                    p.name,
                    p.lives,
                    won[p.name],
                    None if p.team is None else teams[p.team].name,
                    p.left,
                    replayed.gone_in.get(p.name),
                )
                for p in view.state.players
            ),
            key=lambda row: (row.place, row.team or "", -row.lives, row.name),
        )
    )
    names = [player.name for player in view.state.players]
    if teams:
        # Teammates share their team's lives: one line per team, not two lines drawn on top of each other.
        players = view.state.players
        names = [f"{team.name} ({' and '.join(players[seat].name for seat in team.seats)})" for team in teams]
        first = {name: players[team.seats[0]].name for name, team in zip(names, teams, strict=True)}
        history = [{name: point[first[name]] for name in names} for point in history]
    # Teams place by their result and lives alone (_team_places): lasting longer only orders players of their own.
    lasting = not teams and len({(row.lives, row.place) for row in rows}) > len({row.lives for row in rows})
    return Standings(
        rows, _most_rounds(won, view), _lines(history, names), len(history) - 1, series_tally(games), lasting
    )


def _most_rounds(won: Counter[str], view: TableView) -> tuple[tuple[str, ...], int] | None:
    """Who won the most rounds, in seat order (a tie names everyone in it, not whoever the counter met first)."""
    most = max(won.values(), default=0)
    if most == 0:
        return None
    return tuple(player.name for player in view.state.players if won[player.name] == most), most
