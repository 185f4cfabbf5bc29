"""What every use case shares: codes and secrets, the labels a phone carries, a table read once per version."""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..engine import Action, GameState, History, Setup, key_rule, narration, unusual_rule
from ..engine.words import N_, Sentence
from ..store import Db, DeviceRow, EventRow, NewEvent, Store, TableRow
from . import codec
from .bus import Bus
from .errors import NotFound
from .lines import sentences_to_json
from .tableview import Created, LogEntry, TableView

# Table codes avoid look-alikes (no 0/O, 1/I/L) so they can be read aloud and typed on a phone.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


CODE_LENGTH = 6


ENTRY_MODES = ("joined", "host")


# A table's log holds at most this many actions (undone ones included). A real game is a few hundred; the cap
# keeps one runaway script from making a table's every page and undo slow for everyone (docs/scaling.md).
MAX_ACTIONS = 10_000


def hash_secret(secret: str) -> str:
    """Return the stored form of a secret (tokens are never stored as they are)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_device_key() -> str:
    """Return a fresh random key identifying one browser (kept in an HttpOnly cookie)."""
    return secrets.token_urlsafe(24)


def normalise_code(code: str) -> str:
    """Return a typed table code in its stored form (upper case, no spaces or dashes)."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def no_table_message(code: str) -> Sentence:
    """The sentence for a code that names no table: the code as typed, but only what can be shown of it."""
    shown = "".join(ch for ch in code[:12] if ch.isprintable()).strip()
    if not shown:
        return Sentence(N_("There is no table with that code. Check the code and try again."))
    return Sentence(N_("There is no table “%(code)s”. Check the code and try again."), code=shown)


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


def new_event(before: GameState, action: Action, after: GameState) -> NewEvent:
    """What the log records of `action`, taken from `before` to `after`: its line and the rulings behind it."""
    sentences = narration(before, action, after)
    return NewEvent(
        action=codec.action_to_json(action),
        text=" ".join(sentences),
        sentences=sentences_to_json(sentences),
        rule=key_rule(after.events),
        note_rule=unusual_rule(after.events),
    )


def moved_label(device: DeviceRow) -> str:
    """The label of a phone whose seat (or host role) moved to another phone: it only watches from then on."""
    if device.player is None:
        return HOST_MOVED_LABEL  # a phone without a seat is taken over only when it is the host's
    label = f"{device.player}{MOVED_SUFFIX}"
    return label + WAS_HOST_SUFFIX if device.role == "host" else label


def moved_note(device: DeviceRow | None, players: Sequence[str]) -> Sentence | None:
    """What a phone whose seat moved to another phone is told; None for every other phone."""
    if device is None or device.revoked or device.role != "watcher":
        return None
    if device.label == HOST_MOVED_LABEL:
        return Sentence(N_("The host is on another phone now: this phone only watches."))
    was_host = device.label.endswith(WAS_HOST_SUFFIX)
    label = device.label.removesuffix(WAS_HOST_SUFFIX) if was_host else device.label
    name = label.removesuffix(MOVED_SUFFIX)
    if name == label or name not in players:
        return None  # an ordinary watcher ("Watching")
    if was_host:
        return Sentence(
            N_("%(name)s is on another phone now, and that phone is the host: this phone only watches."), name=name
        )
    return Sentence(N_("%(name)s is on another phone now: this phone only watches."), name=name)


class ServiceBase:
    """The store, the change bus, the clock, and a table's view, cached per version."""

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

    def hear_other_processes(self, stop: threading.Event) -> None:
        """Pass changes other server processes commit to this process's listeners, until `stop` is set."""
        self.store.listen(self.bus.publish, stop, self.bus.wake_all)

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
            sentences=event.sentences,
        )

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
