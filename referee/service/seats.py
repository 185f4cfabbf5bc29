"""Phones at a table: joining by the link, taking a seat over, the host's phone, removing and bringing one back,
the join link, and who may enter cards."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..engine import name_key
from ..engine.words import N_, Sentence
from ..store import Db, DeviceRow, TableRow
from . import codec
from .access import REMOVED_PHONE, Access, Actor, is_host_phone
from .base import ENTRY_MODES, HOST_SCORING_LABEL, WATCHING_LABEL, hash_secret, moved_label, moved_note
from .errors import Conflict, Forbidden, Illegal, Invalid, NotFound
from .tableview import TableView


def held_question(holder: DeviceRow) -> Sentence:
    """The question a phone answers before it takes over the seat (or the host role) of `holder`."""
    if holder.player is None:
        return Sentence(N_("The host is on another phone. Is this the host's new phone?"))
    return Sentence(N_("%(name)s is on another phone. Is this %(name)s's new phone?"), name=holder.player)


def taken_meanwhile(holder: DeviceRow) -> Sentence:
    """What a phone is told when another phone took the seat (or the host) it was about to take, since it was asked."""
    if holder.player is None:
        return Sentence(
            N_(
                "Someone else's phone took the host over a moment ago; this phone is not the host. "
                "If it really is, say so again below."
            )
        )
    return Sentence(
        N_(
            "Someone else's phone took %(name)s's seat a moment ago; this phone is not %(name)s's. "
            "If it really is, say so again below."
        ),
        name=holder.player,
    )


BAD_JOIN_SECRET = N_("This join link is not valid for this table.")


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

    @property
    def hosts(self) -> bool:
        """True if the phone is the host's now (it took over the host, or the seat of the host's phone)."""
        return is_host_phone(self.device)


@dataclass(frozen=True)
class Holder:
    """The other phone that holds the seat (or the host's role) a phone picked: the phone a join would take it from."""

    device: DeviceRow
    brings_host: bool
    """Taking it over makes the phone the host too: it holds the host's role, or the seat of the host's phone, which
    carries the host (Seats.join)."""


class Seating:
    """Who holds which seat at a table, as any phone there may know it ("Who are you?", the lobby's ticks): the
    faces ask it, and never tell the host's phone from another themselves. Removed phones hold nothing."""

    def __init__(self, devices: Iterable[DeviceRow]) -> None:
        self._present = [device for device in devices if not device.revoked]

    def _others(self, other_than: DeviceRow | None) -> list[DeviceRow]:
        return [device for device in self._present if other_than is None or device.id != other_than.id]

    def held(self, *, other_than: DeviceRow | None = None) -> frozenset[str]:
        """The players whose seat a phone holds (a phone other than `other_than`)."""
        return frozenset(device.player for device in self._others(other_than) if device.player)

    def holder(
        self, player: str | None = None, *, host: bool = False, other_than: DeviceRow | None = None
    ) -> Holder | None:
        """The phone other than `other_than` that holds `player`'s seat (the name as typed, any case), or, with
        `host`, the host's role of a host's phone that keeps score (a host playing a seat is taken over by its
        seat); None if no phone does."""
        others = self._others(other_than)
        if host:
            found = next((d for d in others if is_host_phone(d) and d.player is None), None)
        else:
            name = name_key((player or "").strip())
            found = next((d for d in others if name and name_key(d.player or "") == name), None)
        return None if found is None else Holder(found, is_host_phone(found))

    def followers(self) -> int:
        """How many phones follow the table without a seat and are not the host's: watchers, scorekeepers."""
        return sum(1 for device in self._present if not device.player and not is_host_phone(device))


class Seats(Access):
    """The phones at a table and the seats they hold."""

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
            raise Forbidden("bad_join_secret", BAD_JOIN_SECRET)
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
            raise Forbidden("revoked", REMOVED_PHONE)
        if existing is not None and existing.role == "host":
            # The host's phone says who it is through set_host_player (the pages send it there); never
            # let its own join link turn it into a guest, nor ignore the tap without a word.
            raise Illegal("is_host", N_("This phone started the table: it is the host. Say who you are in the lobby."))

    def _holder(
        self, db: Db, row: TableRow, existing: DeviceRow | None, name: str | None, host: bool
    ) -> DeviceRow | None:
        """The other phone whose seat (or, with `host`, whose host role) this phone would take; None if free."""
        mine = None if existing is None else existing.id
        if not host:
            return None if name is None else self.store.seat_holder(db, row.id, name, other_than=mine)
        holder = self.store.host_device(db, row.id)
        if holder is None:
            raise Illegal("no_host_phone", N_("This table has no host's phone to take over: pick who you are here."))
        if holder.player is not None:
            raise Illegal(
                "host_plays", N_("The host's phone is %(name)s's: to take it over, pick %(name)s."), name=holder.player
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
                raise Invalid("unknown_player", N_("Pick one of the players, or Just watching."), field="who")
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
                raise Invalid("unknown_player", N_("Pick one of the players, or I'm only keeping score."), field="who")
        label = HOST_SCORING_LABEL if name is None else f"{name}'s phone"
        with self.store.transaction() as db:
            self.store.table(db, row.code, lock=True)
            device = self.store.device_in(db, row.id, hash_secret(device_key)) if device_key else None
            if device is None or device.revoked or device.role != "host":
                # A phone whose host role moved did start the table: tell it what happened instead.
                players = codec.setup_from_json(row.setup).players
                said = moved_note(device, players) or N_(
                    "Only the phone that started this table can say who it is here."
                )
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
            raise Forbidden("bad_join_secret", BAD_JOIN_SECRET)
        return self._view(row, None)

    def devices(self, table: TableView | str) -> list[DeviceRow]:
        """Return the devices that joined the table (a view or a code)."""
        return self.store.devices(self._table_id(table))

    def seating(self, table: TableView | str) -> Seating:
        """Who holds which seat at the table (a view or a code), as any phone there may know it."""
        return Seating(self.devices(table))

    def phones(self, table: TableView | str, actor: Actor) -> list[DeviceRow]:
        """The host's list of the phones at the table (a view or a code; removed ones too): for the host's phone or
        the token."""
        view = self._view_of(table)
        self.require_host(view, actor)
        return self.devices(view)

    def revoke(self, code: str, device_id: int, *, actor: Actor) -> DeviceRow:
        """Remove a device from the table and replace the join link (the host's own device cannot be removed);
        return the device as it was (its label says which phone went).

        A new link in the same step: otherwise the removed phone clears its cookies and rejoins from the link
        in its history. Phones still at the table stay; the host's QR code follows live.
        """
        row = self._row(code)
        self.require_host(self._view(row, None), actor)
        with self.store.transaction() as db:
            device = self._device_at(db, row, device_id)
            if device.role == "host":
                raise Forbidden("host_device", N_("The host's own phone cannot be removed."))
            if device.revoked:
                # Removed already (a retry, a second tap): the link handed out since then stays valid.
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
            raise NotFound("no_device", N_("That phone is not at this table."))
        return device

    def restore(self, code: str, device_id: int, *, actor: Actor) -> DeviceRow:
        """Bring a removed device back to the table (one tap undoes a mistaken Remove); return it as it is now.

        The join link made by the removal stays: phones that joined with it are at the table now. A phone
        whose seat another phone took meanwhile stays removed: two phones never speak for one player.
        """
        row = self._row(code)
        self.require_host(self._view(row, None), actor)
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
                    N_("Another phone is %(name)s's now, so %(phone)s stays removed."),
                    name=device.player,
                    # Its label, worded in the reader's language as the host's list says it: a phone with a
                    # player is always that player's ("Bob's phone", _seat and requests.py).
                    phone=Sentence(N_("%(name)s's phone"), name=device.player),
                )
            self.store.restore_device(db, row.id, device_id)
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)
        return replace(device, revoked=False)

    def new_join_link(self, code: str, *, actor: Actor) -> None:
        """Give the table a new join secret: the old link and QR code stop working; joined phones stay."""
        row = self._row(code)
        self.require_host(self._view(row, None), actor)
        with self.store.transaction() as db:
            self.store.set_join_secret(db, row.id, secrets.token_urlsafe(16))
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)

    def set_entry(self, code: str, entry: str, *, actor: Actor) -> None:
        """Choose who may enter cards: every joined phone, or the host only."""
        row = self._row(code)
        self.require_host(self._view(row, None), actor)
        if entry not in ENTRY_MODES:
            raise Invalid("bad_entry", N_("Choose joined phones or the host only."), field="entry")
        with self.store.transaction() as db:
            self.store.set_entry(db, row.id, entry)
            revision = self.store.bump_revision(db, row.id)
        self.bus.publish(row.code, revision)
