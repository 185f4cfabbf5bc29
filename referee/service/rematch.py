"""The rematch: who plays the next game, who starts, which phones keep their seats, and the series."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..engine import EngineError, Setup, Status, make_setup, name_key
from ..engine.words import N_, N_plural, names_said
from ..store import Db, PhoneSeat
from . import codec
from .access import Access, Actor
from .base import HOST_SCORING_LABEL, WATCHING_LABEL, normalise_code
from .errors import Illegal, Invalid
from .tableview import TableView


def rematch_players(view: TableView) -> tuple[str, ...]:
    """Who plays a rematch unless the host says otherwise: this game's players, less any who left it (a child
    who went to bed is not dealt in again; rulebook entry player-leaves)."""
    return tuple(player.name for player in view.state.players if not player.left)


def returning_seats(
    games: Sequence[tuple[int, Sequence[str]]], seats: Sequence[PhoneSeat], new_id: int, players: Sequence[str]
) -> dict[int, str]:
    """The phones of the rematch `new_id` that get their seat back: device id -> player.

    A phone sits a game out with its player (unseat_devices). When the player plays again (`players`), the
    phone is theirs again, unless the player played a game without it meanwhile (the phone chose to watch, or
    another phone took the seat) or another phone is theirs now; otherwise a returning player's phone would stay a
    watcher.
    `games` are the series' earlier games, oldest first, with their players; `seats` every phone's seat in
    them and in the rematch.
    """
    history: dict[str, dict[int, str | None]] = {}
    for seat in seats:
        history.setdefault(seat.token_hash, {})[seat.table_id] = seat.player
    taken = {seat.player for seat in seats if seat.table_id == new_id and seat.player}
    back: dict[int, str] = {}
    for seat in seats:
        if seat.table_id != new_id or seat.player is not None:
            continue
        had = history[seat.token_hash]
        sat_out: list[Sequence[str]] = []  # the players of the games walked back through, newest first
        for game_id, game_players in reversed(games):
            if game_id not in had:
                break  # the phone joined later than this game
            player = had[game_id]
            if player is not None:
                if player in players and player not in taken and not any(player in seen for seen in sat_out):
                    back[seat.id] = player
                    taken.add(player)
                break
            sat_out.append(game_players)
    return back


def left_the_game(view: TableView) -> tuple[str, ...]:
    """The players who left this game, whom a rematch leaves out unless the host ticks them."""
    return tuple(player.name for player in view.state.players if player.left)


def _as_old_names(players: Sequence[object], old: Sequence[str]) -> Sequence[object]:
    """The rematch's players, a returning player spelt as before in the series ("cy" is Cy): one name in the
    series tally, and their phone keeps its seat (the latest of `old` wins)."""
    if not isinstance(players, list | tuple):
        return players  # not a list of names: make_setup says so
    spelt = {name_key(name): name for name in old}
    return [spelt.get(name_key(name.strip()), name) if isinstance(name, str) else name for name in players]


def _next_starter(old: Setup, players: Sequence[object]) -> str | None:
    """The same starter again; if they are not playing, the next player round the table who is, new players
    sitting after this game's last seat (None: the first seat starts)."""
    seats = [*old.players, *(name for name in players if name not in old.players)]
    first = seats.index(old.first_player) if old.first_player in seats else 0
    for offset in range(len(seats)):
        name = seats[(first + offset) % len(seats)]
        if name in players and isinstance(name, str):
            return name
    return None


class Rematches(Access):
    """Starting the next game of a series."""

    def rematch(
        self,
        code: str,
        *,
        actor: Actor,
        first_player: str | None = None,
        variant: str | None = None,
        teams: Sequence[Sequence[object]] | None = None,
        house_rules: Mapping[str, object] | None = None,
        players: Sequence[object] | None = None,
    ) -> tuple[str, bool]:
        """Start a new table with the same players and API token; every joined phone follows. Return its code,
        and True if this call made it.

        Who plays (by default everyone but those who left the game), who starts, the variant, the teams and house
        rules may change (checked like a new table's; house rules given are laid over the finished game's); what
        is not given stays as it was. A phone whose player is not in the rematch follows it as a watcher. A second
        call (another phone, a second tap) returns the same rematch, whatever it asks, and False.

        Any phone that enters cards may start the same game again; only the host's phone (or the token) changes it.
        """
        row = self._row(code)
        view = self._view(row, None)
        changes = (first_player, variant, teams, house_rules, players)
        self.require_rematch(view, actor, changes=any(change is not None for change in changes))
        if view.state.status is not Status.FINISHED:
            raise Illegal("not_finished", N_("Finish this game before a rematch."), view=view)
        if view.rematch_code:
            return view.rematch_code, False
        # The series' games with their players: a returning player's name as spelt before, and their phone.
        games = [(game.id, game.setup.players) for game in self.series(view)]
        if players is None:
            setup = self._default_rematch_setup(view, first_player, variant, teams, house_rules)
        else:
            known = [name for _, game_players in games for name in game_players]
            names = _as_old_names(players, known)  # the newest game's spelling last: it wins
            setup = self._rematch_setup(view.setup, names, first_player, variant, teams, house_rules)
        now = self.clock()
        # One transaction with the finished table locked first: of calls made at the same moment, one makes the
        # rematch and the others find it. Making the new table before the lock left a stray table behind each
        # call that lost, and told each of them it had made the rematch.
        with self.store.transaction() as db:
            old = self.store.table(db, view.code, lock=True)
            assert old is not None
            if old.rematch_code:
                return old.rematch_code, False
            new_code, new_id = self._insert_row(db, setup, view.entry, row.token_hash, now, previous_setup=view.setup)
            # Phones that joined the old table are at the new one too, as the same players.
            self.store.copy_devices(db, old.id, new_id, now)
            # A phone whose player is not in the rematch follows it as a watcher (the host's stays the host's).
            self.store.unseat_devices(
                db, new_id, setup.players, host_label=HOST_SCORING_LABEL, watcher_label=WATCHING_LABEL
            )
            self._seat_returning_players(db, games, new_id, setup.players)
            self.store.set_rematch(db, old.id, new_code)
            revision = self.store.bump_revision(db, old.id)
        self.bus.publish(view.code, revision)
        return new_code, True

    def _seat_returning_players(
        self, db: Db, games: Sequence[tuple[int, Sequence[str]]], new_id: int, players: Sequence[str]
    ) -> None:
        """Give a player back to the rematch the phone they had before sitting out (returning_seats)."""
        seats = self.store.phone_seats(db, [*(game_id for game_id, _ in games), new_id])
        roles = {seat.id: seat.role for seat in seats if seat.table_id == new_id}
        for device_id, player in returning_seats(games, seats, new_id, players).items():
            # The host's phone stays the host's, its label like the one Referee.set_host_player gives.
            role = "host" if roles[device_id] == "host" else "player"
            self.store.update_device(db, device_id, player=player, role=role, label=f"{player}'s phone")

    def _default_rematch_setup(
        self,
        view: TableView,
        first_player: str | None,
        variant: str | None,
        teams: Sequence[Sequence[object]] | None,
        house_rules: Mapping[str, object] | None,
    ) -> Setup:
        """The rematch of everyone still at the table; refused in words any phone can act on when too few are left
        for the game (never "you named 3" to a player who named nobody)."""
        names = rematch_players(view)
        try:
            return self._rematch_setup(view.setup, names, first_player, variant, teams, house_rules)
        except Invalid as error:
            gone = left_the_game(view)
            if error.code != "bad_player_count" or not gone:
                raise
            raise Invalid(
                "bad_player_count",
                N_plural(
                    "Without %(gone)s only %(count)s player is left, too few for this game: the host can add players "
                    "or choose another game under “Change who plays”.",
                    "Without %(gone)s only %(count)s players are left, too few for this game: the host can add "
                    "players or choose another game under “Change who plays”.",
                ),
                field="players",
                gone=names_said(gone),
                count=len(names),
            ) from None

    @staticmethod
    def _rematch_setup(
        old: Setup,
        players: Sequence[object],
        first_player: str | None,
        variant: str | None,
        teams: Sequence[Sequence[object]] | None,
        house_rules: Mapping[str, object] | None,
    ) -> Setup:
        """The rematch's setup: the finished game's, with the changes asked for; raise Invalid if they don't fit."""
        chosen = variant if variant is not None else old.variant.value
        same_players = tuple(players) == old.players
        if teams is None and chosen == "teams" and old.teams and same_players:
            teams = old.teams  # the same teams again (a new team game takes alternate seats: make_setup)
        try:
            return make_setup(
                players,
                chosen,
                teams,
                first_player if first_player is not None else _next_starter(old, players),
                {**old.house_rules.as_dict(), **(house_rules or {})},
            )
        except EngineError as error:
            raise Invalid(error.code, error.message, field=error.field) from None

    def setup_of(self, code: str) -> Setup | None:
        """Return the setup of the table with `code` alone (no log, no replay), or None if there is none."""
        stored = self.store.setup_of(normalise_code(code))
        return None if stored is None else codec.setup_from_json(stored)

    def series(self, table: TableView | str, limit: int = 50) -> list[TableView]:
        """Return the games of a series, oldest first, ending with this table (rematch after rematch)."""
        games = [self._view_of(table)]
        while len(games) < limit:
            previous = self.store.rematch_of(games[0].code)
            if previous is None:
                break
            games.insert(0, self.view(previous))
        return games
