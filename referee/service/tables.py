"""Making a table: from the home page or the API, or from an exported game."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from ..engine import Action, EngineError, GameState, History, RefusedAt, Setup, make_setup
from ..engine.words import N_
from ..store import NewEvent
from .base import ENTRY_MODES, ServiceBase, hash_secret, new_event
from .errors import IllegalEntry, Invalid
from .tableview import Created


class Tables(ServiceBase):
    """Making tables."""

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
            raise Invalid("bad_entry", N_("Who may enter cards must be 'joined' or 'host'."), field="entry")
        return self._insert(setup, entry=entry, host_key=host_key, previous_key=previous_key)

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
