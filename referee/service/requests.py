"""Asking to be a player (a phone that typed the code), and the host's answer."""

from __future__ import annotations

from dataclasses import replace

from ..engine.words import N_, N_plural, Sentence
from ..store import Db, DeviceRow, JoinRequestRow, TableRow
from . import codec
from .access import REMOVED_PHONE, Actor
from .base import hash_secret
from .errors import Forbidden, Illegal, Invalid, NotFound, TooMany
from .seats import Seats
from .tableview import TableView

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


# After the host says no, that phone waits this long before it may ask again: asking again at once, and again,
# only nags the host. The wait is per phone key, like the cap above a brake on nagging, not a wall.
ASK_AGAIN_SECONDS = 60


NO_REQUEST = N_("There is no such request at this table.")
REFUSED_RECENTLY = N_("The host said no a moment ago. If you still want to play, ask again in a minute.")


class JoinRequests(Seats):
    """Requests to be a player and the host's answers."""

    def free_seats(self, table: TableView | str) -> list[str]:
        """Return the players still in the game whose seat no phone at the table (a view or a code) speaks for, in
        seat order (a player who left has no seat to ask for)."""
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
            raise Invalid("unknown_player", N_("Pick one of the players."), field="player")
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
                raise Illegal(
                    "seat_taken",
                    N_("%(name)s's seat is taken: another phone is %(name)s. Pick another seat."),
                    name=name,
                )
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
                    raise TooMany("too_many_requests", N_("The host has many requests to answer: wait a minute."))
                request_id = self.store.add_join_request(db, row.id, token_hash=key_hash, player=name, now=self.clock())
            revision = self.store.bump_revision(db, row.id)
            answer = self.store.join_request(db, row.id, request_id)
        self.bus.publish(row.code, revision)
        assert answer is not None
        return answer[0]

    @staticmethod
    def _check_asker(device: DeviceRow | None, *, asking: bool = True) -> None:
        """Refuse a request from a removed phone, the host's, or one that already has a seat (said to the phone
        that asks, or, `asking` False, to the host about that phone)."""
        if device is None:
            return
        if device.revoked:
            raise Forbidden("revoked", REMOVED_PHONE if asking else N_("The host removed that phone from the table."))
        if device.role == "host":
            hosts = N_("This phone is the host's: it already enters cards.")
            raise Illegal("is_host", hosts if asking else N_("That phone is the host's: it already enters cards."))
        if device.player:
            seated = N_("This phone is already %(name)s's.") if asking else N_("That phone is already %(name)s's.")
            raise Illegal("already_seated", seated, name=device.player)

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

    def requests_for_host(
        self, table: TableView | str, actor: Actor, *, pending_only: bool = False
    ) -> list[JoinRequestRow]:
        """The table's (a view's or a code's) requests to be a player, oldest first, answered ones too unless
        `pending_only`: for the host's phone or the token."""
        view = self._view_of(table)
        self.require_host(view, actor)
        return self.join_requests(view, pending_only=pending_only)

    def _oldest_waiting(self) -> float:
        """When the oldest request that still waits for an answer was made (older ones have expired)."""
        return self.clock() - REQUEST_WAIT_SECONDS

    def _as_seen(self, request: JoinRequestRow) -> JoinRequestRow:
        """The request as phones see it: a pending one older than REQUEST_WAIT_SECONDS has expired."""
        if request.status == "pending" and request.created_at < self._oldest_waiting():
            return replace(request, status="expired")
        return request

    def answer_request(self, code: str, request_id: int, *, allow: bool, actor: Actor) -> JoinRequestRow:
        """Allow (the phone becomes that player's, as if it had picked the seat by the join link) or refuse: the
        host's phone or the token."""
        row = self._row(code)
        self.require_host(self._view(row, None), actor)
        if not 0 < request_id < 2**63:
            raise NotFound("no_request", NO_REQUEST)
        with self.store.transaction() as db:
            self.store.table(db, row.code, lock=True)
            found = self.store.join_request(db, row.id, request_id)
            if found is None:
                raise NotFound("no_request", NO_REQUEST)
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
    def _answered_message(request: JoinRequestRow) -> Sentence:
        if request.status == "expired":
            waited = N_plural(
                "That request to be %(name)s waited over %(count)s minute and was closed: that phone can ask again.",
                "That request to be %(name)s waited over %(count)s minutes and was closed: that phone can ask again.",
            )
            return Sentence(waited, name=request.player, count=REQUEST_WAIT_SECONDS // 60)
        said = {
            "allowed": N_("That request to be %(name)s was already allowed."),
            "refused": N_("That request to be %(name)s was already refused."),
            "cancelled": N_("That request to be %(name)s was withdrawn."),
            "taken": N_("That request to be %(name)s is closed: another phone took the seat."),
        }[request.status]
        return Sentence(said, name=request.player)

    def _seat_asker(self, db: Db, row: TableRow, request: JoinRequestRow, key_hash: str) -> None:
        """Give the asking phone its seat (in the answer's transaction); refuse if the seat was taken meanwhile."""
        name = request.player
        if self.store.seat_taken(db, row.id, name):
            raise Illegal("seat_taken", N_("Another phone took %(name)s's seat meanwhile."), name=name)
        device = self.store.device_in(db, row.id, key_hash)
        self._check_asker(device, asking=False)
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
                raise Illegal("no_pending_request", N_("This phone has no request waiting for the host."))
            self.store.withdraw_request(db, pending.id)
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)
