"""Who may do what: the one place that decides it (an API token, a phone's role, the table's entry mode)."""

from __future__ import annotations

import hmac

from ..store import DeviceRow
from .base import ServiceBase, hash_secret, normalise_code
from .errors import Forbidden, NeedsCredentials
from .tableview import TableView


class Access(ServiceBase):
    """Deciding who may do what at a table."""

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
