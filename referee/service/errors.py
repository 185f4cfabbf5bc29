"""What the service turns down, as typed errors free of HTTP (the faces map them to statuses).

Like python-chess's `InvalidMoveError` / `IllegalMoveError`: a request that is malformed or names nobody is
`Invalid`; one that is well formed but the rules do not allow now is `Illegal`. Every error carries a machine
`code` and a `message` a player understands; `Invalid` also says which `field` to fix. The message is a
Sentence: its English text, made from an N_-marked template and its parameters, which the face that answers
words in the phone's language (referee/engine/words.py, docs/translations.md).
"""

from __future__ import annotations

from ..engine import Play
from ..engine.words import Param, Sentence, said
from .tableview import TableView


class ServiceError(Exception):
    """A request the referee turns down; `view` is the table as it is now, when there is one.

    `message` is an N_-marked template (or an N_plural pair, with `count`) filled with `params`, or a Sentence
    made already (an engine refusal's, passed on).
    """

    message: Sentence

    def __init__(self, code: str, message: str | tuple[str, str], *, view: TableView | None = None, **params: Param):
        sentence = said(message, params)
        super().__init__(sentence)
        self.code = code
        self.message = sentence
        self.view = view


class NotFound(ServiceError):
    """No such table, or no such phone at it."""


class NeedsCredentials(ServiceError):
    """The request carries no credential at all (no token)."""


class Forbidden(ServiceError):
    """The credential is wrong, or this phone may not do that (watching, removed, not the host)."""


class Conflict(ServiceError):
    """The table moved on since the phone looked (a stale version): nothing was entered."""


class Unconfirmed(ServiceError):
    """A tap that would enter again, for the next player, the card another phone has just entered for this phone's
    player: nothing was entered; the phone asks first. `entered` is that card's action, `asked` the tap's."""

    def __init__(
        self, code: str, message: str, *, entered: Play, asked: Play, view: TableView | None = None, **params: Param
    ):
        super().__init__(code, message, view=view, **params)
        self.entered = entered
        self.asked = asked


class Invalid(ServiceError):
    """Malformed, or names something that does not exist; `field` says which part to fix."""

    def __init__(
        self,
        code: str,
        message: str | tuple[str, str],
        *,
        field: str | None = None,
        view: TableView | None = None,
        **params: Param,
    ):
        super().__init__(code, message, view=view, **params)
        self.field = field


class Illegal(ServiceError):
    """Well formed, but the rules do not allow it now (not your turn, does not fit, game over)."""


class IllegalEntry(Illegal):
    """An action of a game sent whole (an import) that the rules refuse: `number` is its place, counted from 1."""

    def __init__(self, code: str, message: Sentence, *, number: int):
        super().__init__(code, message)
        self.number = number


class TooMany(ServiceError):
    """Over a per-address limit (new tables, joins): nothing was done; wait a minute."""
