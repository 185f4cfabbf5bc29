"""Playing: a card, a bust, a fixed hand, a player leaving, the tie-break; undo and redo."""

from __future__ import annotations

from dataclasses import replace

from ..engine import Action, Bust, GameState, Leave, Play, Refused, SetHand, replay
from ..engine.words import N_, N_plural, Sentence
from ..store import Db, DeviceRow, OutcomeUnknown, storage_errors
from . import codec
from .access import Access, Actor, Phone, TokenHolder
from .base import new_event, no_table_message, normalise_code
from .codec import Command, Redo, Undo
from .errors import Conflict, Illegal, Invalid, NotFound, Unconfirmed
from .tableview import LogEntry, TableView


def _status_changed(
    log: tuple[LogEntry, ...], seq: int, *, undone: bool, by: str | None, at: float
) -> tuple[LogEntry, ...]:
    """The log with entry `seq` undone or put back by the phone `by` at time `at`."""
    return tuple(
        replace(entry, undone=undone, status_by=by, changed_at=at, status_changed=True) if entry.seq == seq else entry
        for entry in log
    )


def already_in(view: TableView, command: Command, expected_version: int) -> Sentence | None:
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
        return Sentence(N_("That Undo is already done.") if undone else N_("That Redo is already done."))
    active = view.history.active
    if newest is not None or not active or active[-1] != command:
        return None
    return _entered(command)


# How long after another phone entered a player's card that player's own phone is asked before the same card goes
# in again for the next player: a finger that set off for the card before the board changed lands up to a few
# seconds later (taps measured at 1.3 s entered a second card for the next player; the pad rests only 1 s).
REPEAT_ASK_SECONDS = 5.0


def repeated_for_next(
    view: TableView, command: Command, actor: Actor, expected_version: int | None, now: float
) -> Unconfirmed | None:
    """What to ask before `command` goes in, when it would enter again, for the next player, the card another
    phone entered for this phone's own player within REPEAT_ASK_SECONDS, on the table this phone saw last
    (`expected_version` is the newest version); None when it is an ordinary tap."""
    if not isinstance(command, Play) or not isinstance(actor, Phone) or actor.device is None:
        return None
    mine = actor.device.player
    if expected_version != view.version or not mine or command.player == mine:
        return None
    active = view.history.active
    newest = next((entry for entry in reversed(view.log) if not entry.undone), None)
    if view.last_undo_or_redo is not None or not active or newest is None:
        return None
    last = active[-1]
    if not isinstance(last, Play) or last.player != mine or last.card is not command.card:
        return None
    if newest.entered_by == actor.device.label or now - newest.changed_at > REPEAT_ASK_SECONDS:
        return None
    return Unconfirmed(
        "confirm_repeat",
        # English says "an 8" (the card's name as it is read); the other languages need no such choice.
        N_("%(name)s's %(card)s is already in. Enter an %(asked_card)s for %(player)s too?")
        if command.card.label[0] in "8AEIOU"
        else N_("%(name)s's %(card)s is already in. Enter a %(asked_card)s for %(player)s too?"),
        entered=last,
        asked=command,
        view=view,
        name=last.player,
        card=Sentence(last.card.label),
        asked_card=Sentence(command.card.label),
        player=command.player,
    )


def _entered(action: Action) -> Sentence:
    """Say an action is in as a player names it: "Ann's 7", "Bob's bust", "Cy's hand of 3 cards", "The tie-break
    totals"."""
    match action:
        case Play(player=player, card=card):
            return Sentence(N_("%(name)s's %(card)s is already in."), name=player, card=Sentence(card.label))
        case Bust(player=player):
            return Sentence(N_("%(name)s's bust is already in."), name=player)
        case SetHand(player=player, cards=cards):
            hand = N_plural(
                "%(name)s's hand of %(count)s card is already in.", "%(name)s's hand of %(count)s cards is already in."
            )
            return Sentence(hand, name=player, count=cards)
        case Leave(player=player):
            return Sentence(N_("%(name)s leaving the game is already in."), name=player)
    return Sentence(N_("The tie-break totals are already in."))


def _entered_by(actor: Actor) -> tuple[str | None, DeviceRow | None]:
    """Who the log says entered an action (a phone's label, or "API"), and the phone that did."""
    match actor:
        case Phone(device=device) if device is not None:
            return device.label, device
        case TokenHolder():
            return "API", None
    return None, None


class Playing(Access):
    """Entering what happens at the table, and taking it back."""

    def act(
        self,
        code: str,
        command: Command,
        *,
        actor: Actor,
        expected_version: int | None = None,
        repeat_confirmed: bool = False,
    ) -> TableView:
        """Apply one action, undo or redo for `actor`, committed before returning; raise a ServiceError if refused.

        The log names who entered it: the phone's label, or "API" for the table's token. A phone's tap that would
        enter again the card another phone just entered for its player raises Unconfirmed, unless
        `repeat_confirmed` (the phone was asked and said yes).
        """
        code = normalise_code(code)
        applied: list[TableView] = []
        try:
            with self.store.transaction() as db:
                applied.append(self._apply_checked(db, code, command, actor, expected_version, repeat_confirmed))
        except OutcomeUnknown as unknown:
            # The database went away as it committed (PostgreSQL restarting): look whether the action is in.
            saved = self._was_saved(applied[0]) if applied else None
            if saved is None:
                raise
            if not saved:
                raise unknown.__cause__ or unknown from None  # it was not: "nothing was changed" is true
        new_view = applied[0]
        self._remember(new_view)
        # Publish only after the commit, so a listener never sees a version it cannot load.
        self.bus.publish(code, new_view.revision)
        return new_view

    def _was_saved(self, view: TableView) -> bool | None:
        """Whether the change that made `view` was committed: True if the table is now exactly `view`, False if it
        is still as it was just before (each change moves the version and the revision on by one), None if it
        cannot be told (the database is still out of reach, or another change came in between)."""
        try:
            row = self.store.table(self.store.read(), view.code)
        except storage_errors():
            return None
        if row is None:
            return None
        now = (row.version, row.revision)
        if now == (view.version, view.revision):
            return True
        return False if now == (view.version - 1, view.revision - 1) else None

    def _apply_checked(
        self,
        db: Db,
        code: str,
        command: Command,
        actor: Actor,
        expected_version: int | None,
        repeat_confirmed: bool = False,
    ) -> TableView:
        """Check `command` against the table as locked in `db`'s transaction, then apply it; the new view."""
        row = self.store.table(db, code, lock=True)
        if row is None:
            raise NotFound("no_table", no_table_message(code))
        # The cached view is current (same version) unless another process wrote: then it reloads.
        view = self._view(row, None)
        self.require_entry(view, actor)
        if view.rematch_code is not None:
            # The rematch carries the series on from this result: a phone left on the old table must not
            # undo its last card and change the winner behind everyone's back.
            # Said first, whatever version the phone saw: nothing it could check would change that.
            raise Illegal(
                "rematch_started",
                N_("A rematch has started: this game is over for good, and its result stands."),
                view=view,
            )
        if expected_version is not None and expected_version != row.version:
            already = already_in(view, command, expected_version)
            if already is not None:
                raise Conflict("already_entered", already, view=view)
            raise Conflict(
                "stale_version",
                N_(
                    "Someone else entered a card just before you: here is the table as it is now. "
                    "Check it, then tap again if you still need to."
                ),
                view=view,
            )
        if not isinstance(command, Undo | Redo) and len(view.history.active) >= self.max_actions:
            raise Illegal(
                "log_full",
                N_("This table has reached %(most)s entries, the most one table keeps. Start a rematch to play on."),
                view=view,
                most=self.max_actions,
            )
        if not repeat_confirmed:
            repeated = repeated_for_next(view, command, actor, expected_version, self.clock())
            if repeated is not None:
                raise repeated
        try:
            return self._apply(db, view, command, *_entered_by(actor))
        except Refused as refused:
            if refused.code == "unknown_player":  # names nobody: malformed rather than against the rules
                raise Invalid(refused.code, refused.message, field="player", view=view) from None
            raise Illegal(refused.code, refused.message, view=view) from None

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
            case Undo() | Redo():
                # Undo takes back the newest active action; Redo puts back the oldest undone one.
                undo = isinstance(command, Undo)
                history = history.undo() if undo else history.redo()
                was, becomes = ("active", "undone") if undo else ("undone", "active")
                target, seq = self.store.event_with_status(db, view.id, was, newest=undo)
                self.store.set_event_status(db, target, becomes)
                self.store.set_status_by(db, target, entered_by, now)
                log = _status_changed(view.log, seq, undone=undo, by=entered_by, at=now)
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
                    sentences=event.sentences,
                    device_id=None if device is None else device.id,
                    device_player=entered_by,
                    created_at=now,
                    has_undone=view.can_redo,
                )
                # A new action drops the redo tail, as append_event does in the database.
                kept = tuple(entry for entry in view.log if not entry.undone) if view.can_redo else view.log
                entry = LogEntry(
                    seq,
                    event.text,
                    event.rule,
                    event.note_rule,
                    undone=False,
                    entered_by=entered_by,
                    changed_at=now,
                    sentences=event.sentences,
                )
                log = (*kept, entry)
        self.store.bump_version(db, view.id)
        # `view` was read in this same transaction, so both numbers have just gone up by exactly one.
        version, revision = view.version + 1, view.revision + 1
        return replace(view, version=version, revision=revision, state=state, history=history, log=log)

    def replay_check(self, code: str) -> GameState:
        """Return the state rebuilt from the stored log alone (bypassing the cache)."""
        row = self._row(code)
        events = self.store.events(self.store.read(), row.id)
        setup = codec.setup_from_json(row.setup)
        active = [codec.action_from_json(event.action) for event in events if event.status == "active"]
        return replay(setup, active)
