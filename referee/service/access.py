"""Who may do what: the one place that decides it, for every face (an API token, a phone's role, the entry mode).

Every use case that changes a table takes the actor asking for it: a `Phone` (a browser, by its device at the
table), a `TokenHolder` (an API client, by the token it sent) or the `Operator` (whoever runs the server, from its
command line). It refuses with `Forbidden` or `NeedsCredentials`, in a sentence; the faces only word the refusal
and draw their buttons from `Permissions`.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import TypeGuard

from ..engine.words import N_, Sentence
from ..store import DeviceRow
from .base import ServiceBase, hash_secret, moved_note, normalise_code
from .errors import Forbidden, NeedsCredentials
from .tableview import TableView


@dataclass(frozen=True)
class Phone:
    """A browser, by its device at the table (None: it never joined this table)."""

    device: DeviceRow | None


@dataclass(frozen=True)
class TokenHolder:
    """An API client, by the bearer token it sent (None: it sent none)."""

    token: str | None


@dataclass(frozen=True)
class Operator:
    """Whoever runs the server, acting from its command line or a script of its own: may do anything."""


Actor = Phone | TokenHolder | Operator

# What a phone is told when it may not do something, unless its seat or host role moved (then it is told that).
ONLY_THE_HOST = N_("Only the host's phone can do that.")
ONLY_WATCHING = N_("This phone is only watching: it can't enter cards.")
ONLY_AT_THE_TABLE = N_("Only a phone at the table can start a rematch.")
ONLY_THE_HOST_CHANGES = N_(
    "Only the host's phone can change who plays, who starts, the game or the house rules. "
    "Tap the Rematch button for the same game, or ask the host."
)
REMOVED = N_(
    "The host removed this phone from the table: it can follow the game, but not enter cards. If that was "
    "a mistake, the host can bring it back."
)
# What a removed phone is told when it tries to join again or to ask for a seat.
REMOVED_PHONE = N_("The host removed this phone from the table.")
HOST_ONLY_ENTRY = N_("Only the host's phone enters cards at this table: this phone follows the game.")
NO_TOKEN = N_("Send the table's token: Authorization: Bearer TOKEN.")


def is_host_phone(device: DeviceRow | None) -> TypeGuard[DeviceRow]:
    """True if `device` is the table's host phone (and was not removed)."""
    return device is not None and not device.revoked and device.role == "host"


def may_enter(view: TableView, device: DeviceRow | None) -> bool:
    """True if this device may enter cards at the table: the host's phone, and players' phones unless host-only."""
    if device is None or device.revoked:
        return False
    if device.role == "host":
        return True
    return device.role == "player" and view.entry == "joined"


def may_share_link(device: DeviceRow | None) -> bool:
    """True if this device may show the join link: the host's phone and the players' phones, whoever enters cards.

    At a table where only the host's phone enters cards, the players' phones show it too: if the host's phone
    dies, the host goes on from a borrowed phone by scanning a player's QR code.
    """
    return device is not None and not device.revoked and device.role in ("host", "player")


def may_ask(device: DeviceRow | None) -> bool:
    """True if this device may ask the host for a seat: a browser that never joined, or a phone with no seat that
    is not the host's and was not removed (JoinRequests.ask_to_join refuses the others, each in its sentence)."""
    return device is None or (not device.revoked and device.role != "host" and not device.player)


def watch_reason(view: TableView, device: DeviceRow | None) -> Sentence | None:
    """Why this joined phone follows the game without entering cards (removed, or host-only entry); None for a
    phone that is simply watching. The board says it where the cards would be, and a tap from an old pad is told
    the same: a seated player must not be told it is "only watching"."""
    if device is None:
        return None
    if device.revoked:
        return Sentence(REMOVED)
    if device.role == "player" and view.entry == "host":
        return Sentence(HOST_ONLY_ENTRY)
    return None


def refusal_for(view: TableView, device: DeviceRow | None, sentence: str) -> Sentence:
    """`sentence`, or, for a phone whose seat or host role moved to another phone, why it only watches now.

    The old phone (found again after its battery died, say) may still show a form from before: it is told what
    happened, not that it never could ("Ann is on another phone now, and that phone is the host: ...").
    """
    return moved_note(device, view.setup.players) or Sentence(sentence)


@dataclass(frozen=True)
class Permissions:
    """What one phone may do at a table: the faces draw their buttons and panels from it."""

    enters_cards: bool
    is_host: bool
    shares_link: bool
    changes_rematch: bool
    """Only the host's phone changes a rematch's settings, as only it set the table up."""
    watch_reason: Sentence | None
    asks_to_play: bool
    """A phone without a seat (not the host's, not removed) may ask the host for one."""
    answers_requests: bool
    """Only the host's phone sees the phones' requests to play and answers them (JoinRequests.requests_for_host)."""

    def removes(self, device: DeviceRow) -> bool:
        """True if this phone may remove `device` from the table: the host's phone, any phone still at the table
        but its own (Seats.revoke refuses the host's own phone)."""
        return self.is_host and device.role != "host" and not device.revoked


def permissions(view: TableView, device: DeviceRow | None) -> Permissions:
    """What `device` may do at the table `view`."""
    host = is_host_phone(device)
    return Permissions(
        enters_cards=may_enter(view, device),
        is_host=host,
        shares_link=may_share_link(device),
        changes_rematch=host,
        watch_reason=watch_reason(view, device),
        asks_to_play=may_ask(device),
        answers_requests=host,
    )


class Access(ServiceBase):
    """Checking the actor of each use case against the table."""

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
            raise NeedsCredentials("no_token", NO_TOKEN)
        if not hmac.compare_digest(hash_secret(token), token_hash):
            raise Forbidden("bad_token", N_("That token does not open this table."))

    def device(self, table: TableView | str, device_key: str | None) -> DeviceRow | None:
        """Return this browser's device at the table (a view or a code), if it joined."""
        if not device_key:
            return None
        return self.store.device_by_token(self._table_id(table), hash_secret(device_key))

    def require_entry(self, view: TableView, actor: Actor) -> None:
        """Refuse unless `actor` may enter cards (and undo them) at the table."""
        match actor:
            case Phone(device=device) if not may_enter(view, device):
                sentence = watch_reason(view, device) or ONLY_WATCHING
                raise Forbidden("watch_only", refusal_for(view, device, sentence), view=view)
            case TokenHolder(token=token):
                self.check_token(view.code, token)

    def require_host(self, view: TableView, actor: Actor) -> None:
        """Refuse unless `actor` is the table's host phone or holds the table's token."""
        match actor:
            case Phone(device=device) if not is_host_phone(device):
                raise Forbidden("host_only", refusal_for(view, device, ONLY_THE_HOST))
            case TokenHolder(token=token):
                self.check_token(view.code, token)

    def require_rematch(self, view: TableView, actor: Actor, *, changes: bool) -> None:
        """Refuse unless `actor` may start the rematch: a phone that enters cards (only the host's phone with
        `changes` to the setup), or the table's token."""
        match actor:
            case Phone(device=device) if not may_enter(view, device):
                raise Forbidden("watch_only", refusal_for(view, device, ONLY_AT_THE_TABLE), view=view)
            case Phone(device=device) if changes and not is_host_phone(device):
                raise Forbidden("host_only", ONLY_THE_HOST_CHANGES, view=view)
            case TokenHolder(token=token):
                self.check_token(view.code, token)

    def require_reader(self, view: TableView, actor: Actor) -> None:
        """Refuse unless `actor` may read the whole game (an export): a phone at the table, or the table's token."""
        match actor:
            case Phone(device=device) if device is None or device.revoked:
                raise NeedsCredentials("no_token", NO_TOKEN)
            case TokenHolder(token=token):
                self.check_token(view.code, token)
