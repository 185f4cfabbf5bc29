"""Use cases shared by the htmx pages and the JSON API: create a table, act, undo, join, rematch."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..engine import (
    Action,
    Bust,
    EngineError,
    GameState,
    History,
    Leave,
    Play,
    Refused,
    RefusedAt,
    SetHand,
    Setup,
    Status,
    describe,
    join_names,
    key_rule,
    make_setup,
    name_key,
    replay,
    unusual_rule,
)
from ..store import Db, DeviceRow, EventRow, JoinRequestRow, NewEvent, PhoneSeat, Store, TableRow
from . import codec
from .bus import Bus
from .codec import Command, Redo, Undo
from .errors import Conflict, Forbidden, Illegal, IllegalEntry, Invalid, NeedsCredentials, NotFound, TooMany
from .tableview import Created, LogEntry, TableView

# Table codes avoid look-alikes (no 0/O, 1/I/L) so they can be read aloud and typed on a phone.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
ENTRY_MODES = ("joined", "host")
# The host's phone's label says what its host told it (Referee.set_host_player): nothing yet (HOST_LABEL, and
# the lobby asks "Which one is you?"), only keeping score, or a player (then "Gran's phone", like any player's
# phone, so the log reads the same whichever phone entered the card). A label rather than a new column: the
# three differ only in what the lobby asks, and a rematch copies labels with the phones, so the answer follows.
HOST_LABEL = "Host"
HOST_SCORING_LABEL = "Host (keeping score)"
WATCHING_LABEL = "Watching"
# A seat is one phone's. A phone that opens the join link may take over a seat another phone holds (a phone
# died, the battery ran out), after saying yes once; the host's seat carries the host with it. The old phone
# then only watches, and its label says whose it was ("Bob's old phone"): the host's list tells the two apart,
# and the old phone is told why it only watches (moved_note). A label again rather than a column: what the
# phone is told follows from it, and a rematch copies it with the phone.
MOVED_SUFFIX = "'s old phone"
WAS_HOST_SUFFIX = " (was the host)"
HOST_MOVED_LABEL = "The host's old phone"
# A table's log holds at most this many actions (undone ones included). A real game is a few hundred; the cap
# keeps one runaway script from making a table's every page and undo slow for everyone (docs/scaling.md).
MAX_ACTIONS = 10_000
# Requests waiting for the host's answer at one table: a real table has at most a few; the cap keeps a
# script from burying the host's phone under them.
MAX_PENDING_REQUESTS = 12
# Requests one address may make at one table while they can still be waiting (a sliding window as long as a
# request waits: pages/asking.py, extensions.ask_limit). A phone needs no cookie to ask, so one address could
# otherwise fill all twelve places with new browsers, and refill them as soon as the host refused them, while a real
# phone was told the host had too many. Two: a household behind one internet connection may ask from two phones; a
# third scans the host's QR code, the usual way in, which this limit does not touch.
ASKS_PER_ADDRESS = 2
# How long a request waits for the host's answer. A host answers between two cards or at the end of a round;
# a request still waiting after half an hour was forgotten (the asker left, or the host's phone slept). It
# then leaves the host's list, stops counting toward MAX_PENDING_REQUESTS, and the asking phone may ask again.
REQUEST_WAIT_SECONDS = 30 * 60
# After the host says no, that phone waits this long before it may ask again: asking again at once (play test 5)
# only nags the host. The wait is per phone key, like the cap above a brake on nagging, not a wall.
ASK_AGAIN_SECONDS = 60
REFUSED_RECENTLY = "The host said no a moment ago. If you still want to play, ask again in a minute."


def hash_secret(secret: str) -> str:
    """Return the stored form of a secret (tokens are never stored as they are)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_device_key() -> str:
    """Return a fresh random key identifying one browser (kept in an HttpOnly cookie)."""
    return secrets.token_urlsafe(24)


def normalise_code(code: str) -> str:
    """Return a typed table code in its stored form (upper case, no spaces or dashes)."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def new_event(before: GameState, action: Action, after: GameState) -> NewEvent:
    """What the log records of `action`, taken from `before` to `after`: its line and the rulings behind it."""
    return NewEvent(
        action=codec.action_to_json(action),
        text=describe(before, action, after),
        rule=key_rule(after.events),
        note_rule=unusual_rule(after.events),
    )


def _status_changed(
    log: tuple[LogEntry, ...], seq: int, *, undone: bool, by: str | None, at: float
) -> tuple[LogEntry, ...]:
    """The log with entry `seq` undone or put back by the phone `by` at time `at`."""
    return tuple(
        replace(entry, undone=undone, status_by=by, changed_at=at, status_changed=True) if entry.seq == seq else entry
        for entry in log
    )


def moved_label(device: DeviceRow) -> str:
    """The label of a phone whose seat (or host role) moved to another phone: it only watches from then on."""
    if device.player is None:
        return HOST_MOVED_LABEL  # a phone without a seat is taken over only when it is the host's
    label = f"{device.player}{MOVED_SUFFIX}"
    return label + WAS_HOST_SUFFIX if device.role == "host" else label


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
    another phone took the seat) or another phone is theirs now (play test 12a: Cy's phone stayed a watcher).
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


def moved_note(device: DeviceRow | None, players: Sequence[str]) -> str | None:
    """What a phone whose seat moved to another phone is told; None for every other phone."""
    if device is None or device.revoked or device.role != "watcher":
        return None
    if device.label == HOST_MOVED_LABEL:
        return "The host is on another phone now: this phone only watches."
    was_host = device.label.endswith(WAS_HOST_SUFFIX)
    label = device.label.removesuffix(WAS_HOST_SUFFIX) if was_host else device.label
    name = label.removesuffix(MOVED_SUFFIX)
    if name == label or name not in players:
        return None  # an ordinary watcher ("Watching")
    if was_host:
        return f"{name} is on another phone now, and that phone is the host: this phone only watches."
    return f"{name} is on another phone now: this phone only watches."


def already_in(view: TableView, command: Command, expected_version: int) -> str | None:
    """What to say when `command` sent from `expected_version` is the table's newest change already: a double tap,
    or an answer lost on the way and the action sent again. It counts once; the sender is told so, not that
    someone else was first. None for any other stale action."""
    if expected_version != view.version - 1:
        return None
    newest = view.last_undo_or_redo
    if isinstance(command, Undo | Redo):
        undone = isinstance(command, Undo)
        if newest is None or newest.undone != undone:
            return None
        return f"That {'Undo' if undone else 'Redo'} is already done."
    active = view.history.active
    if newest is not None or not active or active[-1] != command:
        return None
    return f"{_entered(command)} is already in."


def _entered(action: Action) -> str:
    """An action as a player names it: "Ann's 7", "Bob's bust", "Cy's hand of 3 cards", "The tie-break totals"."""
    match action:
        case Play(player=player, card=card):
            return f"{player}'s {card.label}"
        case Bust(player=player):
            return f"{player}'s bust"
        case SetHand(player=player, cards=cards):
            return f"{player}'s hand of {cards} {'card' if cards == 1 else 'cards'}"
        case Leave(player=player):
            return f"{player} leaving the game"
    return "The tie-break totals"


def held_question(holder: DeviceRow) -> str:
    """The question a phone answers before it takes over the seat (or the host role) of `holder`."""
    if holder.player is None:
        return "The host is on another phone. Is this the host's new phone?"
    return f"{holder.player} is on another phone. Is this {holder.player}'s new phone?"


def taken_meanwhile(holder: DeviceRow) -> str:
    """What a phone is told when another phone took the seat (or the host) it was about to take, since it was asked."""
    if holder.player is None:
        return (
            "Someone else's phone took the host over a moment ago; this phone is not the host. "
            "If it really is, say so again below."
        )
    name = holder.player
    return (
        f"Someone else's phone took {name}'s seat a moment ago; this phone is not {name}'s. "
        "If it really is, say so again below."
    )


def _same_choice(device: DeviceRow, name: str | None, role: str) -> bool:
    """True if `device` already is what a join asks for: `name`'s (its phone or the host's), or that role."""
    if name is not None:
        return device.player == name
    return device.player is None and device.role == role


@dataclass(frozen=True)
class Joined:
    """What a join through the link did: the phone it made or changed, and the phone whose seat it took."""

    device: DeviceRow
    took_over: DeviceRow | None
    """The phone that held the seat (or the host's role) and now only watches; None if nothing was taken."""
    again: bool = False
    """True if this browser had already joined so (a double tap's second post): nothing changed."""


def no_table_message(code: str) -> str:
    """The sentence for a code that names no table: the code as typed, but only what can be shown of it."""
    shown = "".join(ch for ch in code[:12] if ch.isprintable()).strip()
    if not shown:
        return "There is no table with that code. Check the code and try again."
    return f"There is no table “{shown}”. Check the code and try again."


class Referee:
    """The service: every face (pages, API, streams) goes through these methods."""

    def __init__(self, store: Store, bus: Bus, clock: Callable[[], float] = time.time, max_actions: int = MAX_ACTIONS):
        self.store = store
        self.bus = bus
        self.clock = clock
        self.max_actions = max_actions
        self._cache: dict[int, TableView] = {}
        self._cache_lock = threading.Lock()
        # A table's API token never changes, so its hash is kept once read: an API tap then reads the
        # table row once (inside its transaction) instead of twice.
        self._token_hashes: dict[str, str] = {}

    # --- tables ---

    def create_table(
        self,
        players: Sequence[object],
        *,
        variant: str = "standard",
        teams: Sequence[Sequence[object]] | None = None,
        first_player: str | None = None,
        house_rules: Mapping[str, object] | None = None,
        entry: str = "joined",
        host_key: str | None = None,
        previous_key: str | None = None,
    ) -> Created:
        """Validate and store a new table; raise Invalid saying what to fix.

        `host_key` is the device key of the browser that started the table: it becomes the host. It is a new
        key (no session fixation): the browser's devices under `previous_key` move to it, in the same transaction.
        """
        try:
            setup = make_setup(players, variant, teams, first_player, house_rules)
        except EngineError as error:
            raise Invalid(error.code, error.message, field=error.field) from None
        if entry not in ENTRY_MODES:
            raise Invalid("bad_entry", "Who may enter cards must be 'joined' or 'host'.", field="entry")
        return self._insert(setup, entry=entry, host_key=host_key, previous_key=previous_key)

    def _insert(
        self,
        setup: Setup,
        *,
        entry: str,
        host_key: str | None,
        previous_key: str | None = None,
    ) -> Created:
        token = secrets.token_urlsafe(24)
        device_key = host_key
        now = self.clock()
        with self.store.transaction() as db:
            code, table_id = self._insert_row(db, setup, entry, hash_secret(token), now)
            if device_key is not None:
                if previous_key:
                    self.store.rekey_devices(db, hash_secret(previous_key), hash_secret(device_key))
                self.store.add_device(
                    db,
                    table_id,
                    token_hash=hash_secret(device_key),
                    label=HOST_LABEL,
                    player=None,
                    role="host",
                    now=now,
                )
        return Created(view=self.view(code), token=token)

    def import_table(self, setup: Setup, actions: Sequence[Action], *, undone: int, entry: str) -> Created:
        """Store a new table whose log is `actions`, the newest `undone` undone; raise IllegalEntry (nothing stored)
        for the first action the rules refuse.

        The game is replayed once, from the start, before the write lock is taken, and its log is written in one
        batch: recording action by action (a replay from the last checkpoint and a copy of the log each time) and
        writing each event on its own costs 5 s of CPU for a table at its cap and holds the lock for seconds
        (docs/security.md).
        """
        log: list[NewEvent] = []

        def write_down(before: GameState, action: Action, after: GameState) -> None:
            log.append(new_event(before, action, after))

        try:
            history = History.rebuild(setup, tuple(actions), undone, each=write_down)
        except RefusedAt as refused:
            raise IllegalEntry(refused.code, refused.message, number=refused.number) from None
        token = secrets.token_urlsafe(24)
        now = self.clock()
        with self.store.transaction() as db:
            code, table_id = self._insert_row(db, setup, entry, hash_secret(token), now)
            self.store.insert_log(db, table_id, log, undone=undone, created_at=now)
            # The version a table entered by hand would reach: one for each action, and one for each Undo.
            self.store.set_version(db, table_id, len(log) + undone)
        return Created(view=self._view(self._row(code), None, history), token=token)

    def _insert_row(
        self, db: Db, setup: Setup, entry: str, token_hash: str, now: float, *, previous_setup: Setup | None = None
    ) -> tuple[str, int]:
        """Store a new table under a fresh code with a fresh join secret; return (code, id)."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not self.store.code_exists(db, code):
                break
        table_id = self.store.insert_table(
            db,
            code=code,
            setup=codec.setup_to_json(setup),
            token_hash=token_hash,
            join_secret=secrets.token_urlsafe(16),
            entry=entry,
            created_at=now,
            previous_setup=None if previous_setup is None else codec.setup_to_json(previous_setup),
        )
        return code, table_id

    def _table_id(self, table: TableView | str) -> int:
        """The table's id: from a view this request already read (no second read of its row), or by its code."""
        return table.id if isinstance(table, TableView) else self._row(table).id

    def _view_of(self, table: TableView | str) -> TableView:
        """The view this request already read, or the table's view by its code."""
        return table if isinstance(table, TableView) else self.view(table)

    def _row(self, code: str) -> TableRow:
        row = self.store.table(self.store.read(), normalise_code(code))
        if row is None:
            raise NotFound("no_table", no_table_message(code))
        return row

    def view(self, code: str) -> TableView:
        """Return the table at its newest version; raise NotFound if there is none."""
        row = self._row(code)
        return self._view(row, None)

    def revision(self, code: str) -> tuple[int, int] | None:
        """Return the table's (version, revision) cheaply (None if there is no such table)."""
        return self.store.revision(normalise_code(code))

    def _view(self, row: TableRow, events: list[EventRow] | None, history: History | None = None) -> TableView:
        """The table's view at the row's version: cached, or read (with `history`, if the caller has replayed the
        log already, instead of replaying it again)."""
        with self._cache_lock:
            cached = self._cache.get(row.id)
        if cached is not None and cached.version == row.version:
            if cached.revision == row.revision:
                return cached
            return replace(
                cached,
                revision=row.revision,
                rematch_code=row.rematch_code,
                entry=row.entry,
                join_secret=row.join_secret,
            )
        if events is None:
            events = self.store.events(self.store.read(), row.id)
        setup = codec.setup_from_json(row.setup)
        if history is None:
            actions = tuple(codec.action_from_json(event.action) for event in events)
            undone = sum(1 for event in events if event.status == "undone")
            history = History.rebuild(setup, actions, undone)
        view = TableView(
            id=row.id,
            code=row.code,
            version=row.version,
            revision=row.revision,
            setup=setup,
            state=history.state(),
            history=history,
            log=tuple(self._log_entry(event) for event in events),
            entry=row.entry,
            rematch_code=row.rematch_code,
            join_secret=row.join_secret,
            previous_setup=None if row.previous_setup is None else codec.setup_from_json(row.previous_setup),
        )
        self._remember(view)
        return view

    def _remember(self, view: TableView) -> None:
        with self._cache_lock:
            if len(self._cache) > 500:
                self._cache.clear()
            self._cache[view.id] = view

    def _log_entry(self, event: EventRow) -> LogEntry:
        return LogEntry(
            seq=event.seq,
            text=event.text,
            rule=event.rule,
            note_rule=event.note_rule,
            undone=event.status == "undone",
            entered_by=event.device_player,
            status_by=event.status_by,
            changed_at=max(event.created_at, event.status_at or 0.0),
            status_changed=event.status_at is not None,
        )

    # --- acting ---

    def act(
        self,
        code: str,
        command: Command,
        *,
        expected_version: int | None = None,
        entered_by: str | None = None,
        device: DeviceRow | None = None,
    ) -> TableView:
        """Apply one action, undo or redo, committed before returning; raise a ServiceError if refused."""
        code = normalise_code(code)
        with self.store.transaction() as db:
            row = self.store.table(db, code, lock=True)
            if row is None:
                raise NotFound("no_table", no_table_message(code))
            # The cached view is current (same version) unless another process wrote: then it reloads.
            view = self._view(row, None)
            if view.rematch_code is not None:
                # The rematch carries the series on from this result: a phone left on the old table must not
                # undo its last card and change the winner behind everyone's back (play test 8a).
                # Said first, whatever version the phone saw: nothing it could check would change that (9a).
                raise Illegal(
                    "rematch_started",
                    "A rematch has started: this game is over for good, and its result stands.",
                    view=view,
                )
            if expected_version is not None and expected_version != row.version:
                already = already_in(view, command, expected_version)
                if already is not None:
                    raise Conflict("already_entered", already, view=view)
                raise Conflict(
                    "stale_version",
                    "Someone else entered a card just before you: here is the table as it is now. "
                    "Check it, then tap again if you still need to.",
                    view=view,
                )
            if not isinstance(command, Undo | Redo) and len(view.history.active) >= self.max_actions:
                raise Illegal(
                    "log_full",
                    f"This table has reached {self.max_actions:,} entries, the most one table keeps. "
                    "Start a rematch to play on.",
                    view=view,
                )
            try:
                new_view = self._apply(db, view, command, entered_by, device)
            except Refused as refused:
                if refused.code == "unknown_player":  # names nobody: malformed rather than against the rules
                    raise Invalid(refused.code, refused.message, field="player", view=view) from None
                raise Illegal(refused.code, refused.message, view=view) from None
        self._remember(new_view)
        # Publish only after the commit, so a listener never sees a version it cannot load.
        self.bus.publish(code, new_view.revision)
        return new_view

    def _apply(
        self,
        db: Db,
        view: TableView,
        command: Command,
        entered_by: str | None,
        device: DeviceRow | None,
    ) -> TableView:
        # The log is updated in step with the database rather than read back whole: reading every
        # event twice per action made a tap cost grow with the game (docs/performance.md).
        history = view.history
        now = self.clock()
        match command:
            case Undo():
                history = history.undo()
                target, seq = self.store.event_with_status(db, view.id, "active", newest=True)
                self.store.set_event_status(db, target, "undone")
                self.store.set_status_by(db, target, entered_by, now)
                log = _status_changed(view.log, seq, undone=True, by=entered_by, at=now)
                state = history.state()
            case Redo():
                history = history.redo()
                target, seq = self.store.event_with_status(db, view.id, "undone", newest=False)
                self.store.set_event_status(db, target, "active")
                self.store.set_status_by(db, target, entered_by, now)
                log = _status_changed(view.log, seq, undone=False, by=entered_by, at=now)
                state = history.state()
            case _:
                history, state = history.record(command, view.state)
                event = new_event(view.state, command, state)
                seq = self.store.append_event(
                    db,
                    view.id,
                    action=event.action,
                    text=event.text,
                    rule=event.rule,
                    note_rule=event.note_rule,
                    device_id=None if device is None else device.id,
                    device_player=entered_by,
                    created_at=now,
                    has_undone=view.can_redo,
                )
                # A new action drops the redo tail, as append_event does in the database.
                kept = tuple(entry for entry in view.log if not entry.undone) if view.can_redo else view.log
                entry = LogEntry(
                    seq, event.text, event.rule, event.note_rule, undone=False, entered_by=entered_by, changed_at=now
                )
                log = (*kept, entry)
        self.store.bump_version(db, view.id)
        # `view` was read in this same transaction, so both numbers have just gone up by exactly one.
        version, revision = view.version + 1, view.revision + 1
        return replace(view, version=version, revision=revision, state=state, history=history, log=log)

    def rematch(
        self,
        code: str,
        *,
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
        """
        row = self._row(code)
        view = self._view(row, None)
        if view.state.status is not Status.FINISHED:
            raise Illegal("not_finished", "Finish this game before a rematch.", view=view)
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
        # call that lost, and told each of them it had made the rematch (play test 7c).
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
        for the game (play test 12a: "you named 3" to a player who named nobody)."""
        names = rematch_players(view)
        try:
            return self._rematch_setup(view.setup, names, first_player, variant, teams, house_rules)
        except Invalid as error:
            gone = left_the_game(view)
            if error.code != "bad_player_count" or not gone:
                raise
            count = f"{len(names)} player is" if len(names) == 1 else f"{len(names)} players are"
            raise Invalid(
                "bad_player_count",
                f"Without {join_names(gone)} only {count} left, too few for this game: the host can add players "
                "or choose another game under “Change who plays”.",
                field="players",
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

    # --- who may act ---

    def check_token(self, code: str, token: str | None) -> None:
        """Raise NeedsCredentials without a token, Forbidden unless it is the table's API token."""
        code = normalise_code(code)
        token_hash = self._token_hashes.get(code)
        if token_hash is None:
            token_hash = self._row(code).token_hash
            with self._cache_lock:
                if len(self._token_hashes) > 500:
                    self._token_hashes.clear()
                self._token_hashes[code] = token_hash
        if not token:
            raise NeedsCredentials("no_token", "Send the table's token: Authorization: Bearer TOKEN.")
        if not hmac.compare_digest(hash_secret(token), token_hash):
            raise Forbidden("bad_token", "That token does not open this table.")

    def device(self, table: TableView | str, device_key: str | None) -> DeviceRow | None:
        """Return this browser's device at the table (a view or a code), if it joined."""
        if not device_key:
            return None
        return self.store.device_by_token(self._table_id(table), hash_secret(device_key))

    def may_enter(self, view: TableView, device: DeviceRow | None) -> bool:
        """True if this device may enter cards at the table."""
        if device is None or device.revoked:
            return False
        if device.role == "host":
            return True
        return device.role == "player" and view.entry == "joined"

    @staticmethod
    def may_share_link(device: DeviceRow | None) -> bool:
        """True if this device may show the join link: the host's phone and the players' phones, whoever enters cards.

        At a table where only the host's phone enters cards, the players' phones show it too: if the host's phone
        dies, the host goes on from a borrowed phone by scanning a player's QR code (play test 10b).
        """
        return device is not None and not device.revoked and device.role in ("host", "player")

    @staticmethod
    def may_change_rematch(device: DeviceRow | None) -> bool:
        """True if this device may change a rematch's settings: only the host's phone, as only it set the table up.

        (The API's rematch is opened by the table's token, which only the table's creator holds.)
        """
        return device is not None and device.role == "host" and not device.revoked

    def join(
        self,
        code: str,
        secret: str,
        device_key: str,
        *,
        player: str | None,
        watching: bool,
        previous_key: str | None = None,
        host: bool = False,
        take_over: int | None = None,
    ) -> Joined:
        """Register this browser at the table through its join link; say which phone it is and what it took over.

        `device_key` is the browser's new key (a new cookie at every join, so a cookie planted in the browser
        beforehand is worth nothing); its devices under `previous_key` move to it in the same transaction.
        A browser that already joined with `device_key` and the same choice (a double tap) changes nothing.
        A seat another phone holds (or, with `host`, the host's role of a host that keeps score) is refused
        with the code `seat_held` and the question to ask, unless `take_over` names that phone (its id, from
        the question): then it moves to this phone, the host's role with the host's seat, and the old phone
        only watches (`moved_label`). If another phone took it since the question, that is refused (Conflict,
        `seat_taken_meanwhile`) and nothing changes.
        """
        row = self._row(code)
        if not hmac.compare_digest(secret.encode(), row.join_secret.encode()):
            raise Forbidden("bad_join_secret", "This join link is not valid for this table.")
        name, role, label = self._seat(row, player, watching, host)
        key_hash = hash_secret(device_key)
        with self.store.transaction() as db:
            # Locked like every write to the table's seats: a join, an approved request and two phones taking
            # the same seat over are one after the other, so a seat always ends up on exactly one phone.
            self.store.table(db, row.code, lock=True)
            again = self.store.device_in(db, row.id, key_hash)
            if again is not None and not again.revoked and _same_choice(again, name, role):
                return Joined(again, None, again=True)  # this browser's earlier post of the same answer did it
            existing = self.store.device_in(db, row.id, hash_secret(previous_key)) if previous_key else None
            existing = existing or again
            self._check_joiner(existing)
            holder = self._holder(db, row, existing, name, host)
            if holder is not None:
                self._check_take_over(holder, take_over)
                self.store.update_device(db, holder.id, player=None, role="watcher", label=moved_label(holder))
                role = "host" if holder.role == "host" else role
            if previous_key:
                self.store.rekey_devices(db, hash_secret(previous_key), key_hash)
            changed = self._place(db, row, existing, key_hash, (name, role, label)) or holder is not None
            if name is not None and changed:
                # Requests from other phones for this seat are answered: the seat has its phone now.
                self.store.close_requests_for_seat(db, row.id, name)
            # This phone chose through the link: a request it had waiting is moot (and leaves the host's list).
            withdrew = self.store.cancel_requests_of_key(db, row.id, key_hash)
            # The host's list of phones follows live; joining again with the same choice changes nothing.
            revision = self.store.bump_revision(db, row.id) if changed or withdrew else None
        if revision is not None:
            self.bus.publish(row.code, revision)
        device = self.store.device_by_token(row.id, key_hash)
        assert device is not None
        return Joined(device, holder)

    @staticmethod
    def _check_take_over(holder: DeviceRow, take_over: int | None) -> None:
        """Refuse to take `holder`'s seat unless the phone said yes to taking it from `holder` itself."""
        if take_over is None:
            raise Illegal("seat_held", held_question(holder))
        if take_over != holder.id:
            raise Conflict("seat_taken_meanwhile", taken_meanwhile(holder))

    @staticmethod
    def _check_joiner(existing: DeviceRow | None) -> None:
        """Refuse a join from a removed phone, or the host's own (it says who it is in the lobby)."""
        if existing is not None and existing.revoked:
            raise Forbidden("revoked", "The host removed this phone from the table.")
        if existing is not None and existing.role == "host":
            # The host's phone says who it is through set_host_player (the pages send it there); never
            # let its own join link turn it into a guest, nor ignore the tap without a word.
            raise Illegal("is_host", "This phone started the table: it is the host. Say who you are in the lobby.")

    def _holder(
        self, db: Db, row: TableRow, existing: DeviceRow | None, name: str | None, host: bool
    ) -> DeviceRow | None:
        """The other phone whose seat (or, with `host`, whose host role) this phone would take; None if free."""
        mine = None if existing is None else existing.id
        if not host:
            return None if name is None else self.store.seat_holder(db, row.id, name, other_than=mine)
        holder = self.store.host_device(db, row.id)
        if holder is None:
            raise Illegal("no_host_phone", "This table has no host's phone to take over: pick who you are here.")
        if holder.player is not None:
            raise Illegal(
                "host_plays", f"The host's phone is {holder.player}'s: to take it over, pick {holder.player}."
            )
        return holder

    def _place(
        self, db: Db, row: TableRow, existing: DeviceRow | None, key_hash: str, seat: tuple[str | None, str, str]
    ) -> bool:
        """Store this phone as (player, role, label): a new device or a changed one; True if anything changed."""
        name, role, label = seat
        if existing is None:
            now = self.clock()
            self.store.add_device(db, row.id, token_hash=key_hash, label=label, player=name, role=role, now=now)
            return True
        if (existing.player, existing.role, existing.label) == (name, role, label):
            return False
        self.store.update_device(db, existing.id, player=name, role=role, label=label)
        return True

    def _seat(
        self, row: TableRow, player: str | None, watching: bool, host: bool = False
    ) -> tuple[str | None, str, str]:
        """Return (player, role, label) for a phone joining as `player`, watching or as the scorekeeping host.

        Raise Invalid for a player who is not at the table.
        """
        if host:
            return None, "host", HOST_SCORING_LABEL
        setup = codec.setup_from_json(row.setup)
        name: str | None = None
        if player:
            name = setup.player_named(player)
            if name is None:
                raise Invalid("unknown_player", "Pick one of the players, or Just watching.", field="who")
        role = "watcher" if watching else "player"
        label = f"{name}'s phone" if name else (WATCHING_LABEL if watching else "Scorekeeper")
        return name, role, label

    def set_host_player(
        self, code: str, device_key: str | None, player: str | None, *, take_over: int | None = None
    ) -> DeviceRow:
        """Make the host's phone `player`'s (it keeps every host right), or only the scorekeeper's (None).

        A seat another phone holds is refused with the code `seat_held` and the question to ask, unless
        `take_over` names that phone (its id, from the question): then it moves to the host's phone and the
        other phone only watches (never silently). Taken by yet another phone since the question: refused.
        """
        row = self._row(code)
        name = None
        if player is not None:
            name = codec.setup_from_json(row.setup).player_named(player)
            if name is None:
                raise Invalid("unknown_player", "Pick one of the players, or I'm only keeping score.", field="who")
        label = HOST_SCORING_LABEL if name is None else f"{name}'s phone"
        with self.store.transaction() as db:
            self.store.table(db, row.code, lock=True)
            device = self.store.device_in(db, row.id, hash_secret(device_key)) if device_key else None
            if device is None or device.revoked or device.role != "host":
                # A phone whose host role moved did start the table: tell it what happened instead.
                players = codec.setup_from_json(row.setup).players
                said = moved_note(device, players) or "Only the phone that started this table can say who it is here."
                raise Forbidden("not_host", said)
            if (device.player, device.label) == (name, label):
                return device  # the same answer again changes nothing
            holder = None if name is None else self.store.seat_holder(db, row.id, name, other_than=device.id)
            if holder is not None:
                self._check_take_over(holder, take_over)
                self.store.update_device(db, holder.id, player=None, role="watcher", label=moved_label(holder))
            self.store.update_device(db, device.id, player=name, role="host", label=label)
            if name is not None:
                # Requests from other phones for this seat are answered: the seat has its phone now.
                self.store.close_requests_for_seat(db, row.id, name)
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)
        return replace(device, player=name, label=label)

    def check_join_secret(self, code: str, secret: str) -> TableView:
        """Return the table if `secret` is its join secret; raise Forbidden otherwise."""
        row = self._row(code)
        if not hmac.compare_digest(secret.encode(), row.join_secret.encode()):
            raise Forbidden("bad_join_secret", "This join link is not valid for this table.")
        return self._view(row, None)

    def devices(self, table: TableView | str) -> list[DeviceRow]:
        """Return the devices that joined the table (a view or a code)."""
        return self.store.devices(self._table_id(table))

    def revoke(self, code: str, device_id: int) -> DeviceRow:
        """Remove a device from the table and replace the join link (the host's own device cannot be removed);
        return the device as it was (its label says which phone went).

        A new link in the same step: otherwise the removed phone clears its cookies and rejoins from the link
        in its history. Phones still at the table stay; the host's QR code follows live.
        """
        row = self._row(code)
        with self.store.transaction() as db:
            device = self._device_at(db, row, device_id)
            if device.role == "host":
                raise Forbidden("host_device", "The host's own phone cannot be removed.")
            if device.revoked:
                # Removed already (a retry, a second tap): the link handed out since then stays (play test 7c).
                return device
            self.store.cancel_requests_of_device(db, row.id, device_id)
            self.store.revoke_device(db, row.id, device_id)
            self.store.set_join_secret(db, row.id, secrets.token_urlsafe(16))
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)
        return device

    def _device_at(self, db: Db, row: TableRow, device_id: int) -> DeviceRow:
        """The device with this id at the table, read inside `db`'s transaction; NotFound if there is none."""
        # An id beyond the database's integers (made up in the URL) is no phone either.
        device = self.store.device(db, row.id, device_id) if 0 < device_id < 2**63 else None
        if device is None:
            raise NotFound("no_device", "That phone is not at this table.")
        return device

    def restore(self, code: str, device_id: int) -> DeviceRow:
        """Bring a removed device back to the table (one tap undoes a mistaken Remove); return it as it is now.

        The join link made by the removal stays: phones that joined with it are at the table now. A phone
        whose seat another phone took meanwhile stays removed: two phones never speak for one player.
        """
        row = self._row(code)
        with self.store.transaction() as db:
            # Locked like every claim of a seat: a phone joining as the same player waits for this check.
            self.store.table(db, row.code, lock=True)
            device = self._device_at(db, row, device_id)
            if not device.revoked:
                # Back already (a retry, a second tap): nothing to do.
                return device
            if device.player and self.store.seat_taken(db, row.id, device.player):
                raise Illegal(
                    "seat_taken",
                    f"Another phone is {device.player}'s now, so {device.label} stays removed.",
                )
            self.store.restore_device(db, row.id, device_id)
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)
        return replace(device, revoked=False)

    # --- asking to be a player (a phone that typed the code; the host answers) ---

    def free_seats(self, table: TableView | str) -> list[str]:
        """Return the players still in the game whose seat no phone at the table (a view or a code) speaks for, in
        seat order (a player who left has no seat to ask for: play test 11a)."""
        view = self._view_of(table)
        taken = {d.player for d in self.devices(view) if d.player and not d.revoked}
        return [player.name for player in view.state.players if player.name not in taken and not player.left]

    def ask_to_join(self, code: str, player: str, device_key: str, *, previous_key: str | None) -> JoinRequestRow:
        """Ask the host to let this browser be `player`; one pending request per phone (a new ask re-aims it).

        Like joining through the link, the browser gets a new key (`device_key`); its places under
        `previous_key` move to it in the same transaction.
        """
        row = self._row(code)
        name = codec.setup_from_json(row.setup).player_named(player)
        if name is None:
            raise Invalid("unknown_player", "Pick one of the players.", field="player")
        key_hash = hash_secret(device_key)
        with self.store.transaction() as db:
            self.store.table(db, row.code, lock=True)
            device = self.store.device_in(db, row.id, hash_secret(previous_key)) if previous_key else None
            self._check_asker(device)
            if previous_key and self.refused_recently(
                self.store.latest_request_of(row.id, hash_secret(previous_key), db)
            ):
                raise TooMany("refused_recently", REFUSED_RECENTLY)
            if self.store.seat_taken(db, row.id, name):
                raise Illegal("seat_taken", f"{name}'s seat is taken: another phone is {name}. Pick another seat.")
            if previous_key:
                self.store.rekey_devices(db, hash_secret(previous_key), key_hash)
            pending = self.store.pending_request_of(db, row.id, key_hash)
            if pending is not None and pending.player == name and self._as_seen(pending).status == "pending":
                # The same ask again (a double tap): it keeps its place and its time, so asking again cannot keep a
                # request waiting past the window ASKS_PER_ADDRESS counts in.
                request_id = pending.id
            elif pending is not None:
                # A new ask, even after the old one ran out of time: the host sees it as new.
                self.store.reaim_request(db, pending.id, player=name, asked_at=self.clock())
                request_id = pending.id
            else:
                if self.store.count_pending_requests(db, row.id, since=self._oldest_waiting()) >= MAX_PENDING_REQUESTS:
                    raise TooMany("too_many_requests", "The host has many requests to answer: wait a minute.")
                request_id = self.store.add_join_request(db, row.id, token_hash=key_hash, player=name, now=self.clock())
            revision = self.store.bump_revision(db, row.id)
            answer = self.store.join_request(db, row.id, request_id)
        self.bus.publish(row.code, revision)
        assert answer is not None
        return answer[0]

    @staticmethod
    def _check_asker(device: DeviceRow | None, phone: str = "this phone") -> None:
        """Refuse a request from a removed phone, the host's, or one that already has a seat."""
        if device is None:
            return
        if device.revoked:
            raise Forbidden("revoked", f"The host removed {phone} from the table.")
        if device.role == "host":
            raise Illegal("is_host", f"{phone.capitalize()} is the host's: it already enters cards.")
        if device.player:
            raise Illegal("already_seated", f"{phone.capitalize()} is already {device.player}'s.")

    def my_request(self, table: TableView | str, device_key: str | None) -> JoinRequestRow | None:
        """Return this browser's newest request at the table (pending or answered), if it made one."""
        if not device_key:
            return None
        latest = self.store.latest_request_of(self._table_id(table), hash_secret(device_key))
        return None if latest is None else self._as_seen(latest)

    def refused_recently(self, request: JoinRequestRow | None) -> bool:
        """True if `request` is one the host refused less than ASK_AGAIN_SECONDS ago: its phone waits to ask again."""
        if request is None or request.status != "refused" or request.answered_at is None:
            return False
        return self.clock() - request.answered_at < ASK_AGAIN_SECONDS

    def join_requests(self, table: TableView | str, *, pending_only: bool = True) -> list[JoinRequestRow]:
        """Return the table's (a view's or a code's) requests to be a player, oldest first."""
        stored = self.store.join_requests(self._table_id(table), pending_only=pending_only)
        requests = [self._as_seen(item) for item in stored]
        return [item for item in requests if item.status == "pending"] if pending_only else requests

    def _oldest_waiting(self) -> float:
        """When the oldest request that still waits for an answer was made (older ones have expired)."""
        return self.clock() - REQUEST_WAIT_SECONDS

    def _as_seen(self, request: JoinRequestRow) -> JoinRequestRow:
        """The request as phones see it: a pending one older than REQUEST_WAIT_SECONDS has expired."""
        if request.status == "pending" and request.created_at < self._oldest_waiting():
            return replace(request, status="expired")
        return request

    def answer_request(self, code: str, request_id: int, *, allow: bool) -> JoinRequestRow:
        """Allow (the phone becomes that player's, as if it had picked the seat by the join link) or refuse."""
        row = self._row(code)
        if not 0 < request_id < 2**63:
            raise NotFound("no_request", "There is no such request at this table.")
        with self.store.transaction() as db:
            self.store.table(db, row.code, lock=True)
            found = self.store.join_request(db, row.id, request_id)
            if found is None:
                raise NotFound("no_request", "There is no such request at this table.")
            request, key_hash = found
            request = self._as_seen(request)
            if request.status != "pending":
                raise Illegal("not_pending", self._answered_message(request))
            if allow:
                self._seat_asker(db, row, request, key_hash)
            self.store.answer_request(db, request.id, allowed=allow, now=self.clock())
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)
        return replace(request, status="allowed" if allow else "refused")

    @staticmethod
    def _answered_message(request: JoinRequestRow) -> str:
        said = {
            "allowed": "was already allowed",
            "refused": "was already refused",
            "cancelled": "was withdrawn",
            "taken": "is closed: another phone took the seat",
            "expired": f"waited over {REQUEST_WAIT_SECONDS // 60} minutes and was closed: that phone can ask again",
        }[request.status]
        return f"That request to be {request.player} {said}."

    def _seat_asker(self, db: Db, row: TableRow, request: JoinRequestRow, key_hash: str) -> None:
        """Give the asking phone its seat (in the answer's transaction); refuse if the seat was taken meanwhile."""
        name = request.player
        if self.store.seat_taken(db, row.id, name):
            raise Illegal("seat_taken", f"Another phone took {name}'s seat meanwhile.")
        device = self.store.device_in(db, row.id, key_hash)
        self._check_asker(device, "that phone")
        label = f"{name}'s phone"
        if device is None:
            now = self.clock()
            self.store.add_device(db, row.id, token_hash=key_hash, label=label, player=name, role="player", now=now)
        else:
            self.store.update_device(db, device.id, player=name, role="player", label=label)
        self.store.close_requests_for_seat(db, row.id, name)

    def cancel_request(self, code: str, device_key: str | None) -> None:
        """Withdraw this browser's pending request (the host's list follows live)."""
        row = self._row(code)
        with self.store.transaction() as db:
            self.store.table(db, row.code, lock=True)
            pending = self.store.pending_request_of(db, row.id, hash_secret(device_key)) if device_key else None
            if pending is None or self._as_seen(pending).status != "pending":
                raise Illegal("no_pending_request", "This phone has no request waiting for the host.")
            self.store.withdraw_request(db, pending.id)
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)

    def new_join_link(self, code: str) -> None:
        """Give the table a new join secret: the old link and QR code stop working; joined phones stay."""
        row = self._row(code)
        with self.store.transaction() as db:
            self.store.set_join_secret(db, row.id, secrets.token_urlsafe(16))
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)

    def set_entry(self, code: str, entry: str) -> None:
        """Choose who may enter cards: every joined phone, or the host only."""
        if entry not in ENTRY_MODES:
            raise Invalid("bad_entry", "Choose joined phones or the host only.", field="entry")
        row = self._row(code)
        with self.store.transaction() as db:
            self.store.set_entry(db, row.id, entry)
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)

    def replay_check(self, code: str) -> GameState:
        """Return the state rebuilt from the stored log alone (bypassing the cache)."""
        row = self._row(code)
        events = self.store.events(self.store.read(), row.id)
        setup = codec.setup_from_json(row.setup)
        active = [codec.action_from_json(event.action) for event in events if event.status == "active"]
        return replay(setup, active)
