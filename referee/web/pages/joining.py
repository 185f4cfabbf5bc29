"""Joining a table through its link: "Who are you?", taking over a seat another phone holds (asked first), and
the host's phone answering on its own link."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...engine import name_key
from ...engine.words import N_, Sentence
from ...service import DeviceRow, Holder, held_question, normalise_code, permissions
from ...service.errors import Forbidden, NotFound, ServiceError
from ...service.tableview import TableView
from ..extensions import get_referee, join_limit
from ..http import http_status
from ..i18n import worded
from ..security import csrf_ok
from .common import (
    adopt_device_key,
    asked_holder,
    client_address,
    current_device,
    current_key,
    error_page,
    join_key,
    offer_join_key,
    service_error_page,
)
from .whoami import take_host_answer

bp = Blueprint("joining", __name__)
bp.register_error_handler(ServiceError, service_error_page)


@bp.get("/j/<code>/<secret>")
def ask(code: str, secret: str) -> BaseResponse | str | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Ask "Who are you?" on a phone that opened the join link."""
    # Opening the link counts as an attempt too: a right or wrong secret, it is a brake on guessing.
    if not join_limit().allow(client_address()):
        return too_many_joins()
    try:
        view = get_referee().check_join_secret(code, secret)
    except NotFound as error:
        return error_page(NO_SUCH_TABLE, error.message, http_status(error))
    except Forbidden as error:
        message = N_(
            "This join link is wrong or was replaced. Ask the host to show the QR code again, "
            "or type the table code to watch."
        )
        return error_page(LINK_DOES_NOT_WORK, message, http_status(error))
    device = current_device(view)
    if permissions(view, device).is_host:
        # The host opened its own link: it is already here; it may say which player it is (pages/whoami.py).
        return redirect(url_for("whoami.page", code=view.code))
    offer_join_key()
    return render_template("join.html", view=view, secret=secret, who=who_are_you(view, device))


def too_many_joins() -> tuple[str, int, dict[str, str]]:
    """The page past the join limit, with the true Retry-After, so a phone knows when to try again."""
    page, status = error_page(N_("Slow down"), N_("Too many joins from this phone: wait a minute."), 429)
    return page, status, {"Retry-After": str(join_limit().retry_after(client_address()))}


@dataclass(frozen=True)
class WhoAreYou:
    """The choices of "Who are you?": every player, whether another phone holds their seat, the host's role."""

    seats: tuple[tuple[str, bool], ...]
    """(name, held): a held seat is shown as held, and taking it asks first."""
    host_free: bool
    """True if the host's phone keeps score (no seat of its own): a new phone may take the host over."""
    mine: str | None = None
    """The player whose seat this phone holds already, if any: said, so reopening the link does not look like a
    first visit."""


def who_are_you(view: TableView, device: DeviceRow | None) -> WhoAreYou:
    """What "Who are you?" offers this phone (its own seat is not held by "another phone")."""
    seating = get_referee().seating(view)
    held = seating.held(other_than=device)
    return WhoAreYou(
        tuple((name, name in held) for name in view.setup.players),
        seating.holder(host=True, other_than=device) is not None,
        device.player if device is not None and not device.revoked else None,
    )


@dataclass(frozen=True)
class TakeOver:
    """The question asked before a phone takes over a seat (or the host) another phone holds."""

    choice: str
    """What the phone picked ("player:Bob", "host"), sent again with the answer."""
    holder: int
    """The phone that holds it now, sent with the answer: if another phone took it meanwhile, yes is refused."""
    question: str
    yes: str
    hint: str
    refused: str | None = None
    """Why a yes was just refused (another phone took the seat first), said above the question asked again.

    Every sentence in the phone's language."""


def _holder_of(view: TableView, choice: str) -> Holder | None:
    """The other phone that holds the seat (or, for "host", the scorekeeping host's role) this phone picked."""
    seating, mine = get_referee().seating(view), current_device(view)
    if choice == "host":
        return seating.holder(host=True, other_than=mine)
    return seating.holder(choice.removeprefix("player:"), other_than=mine)


def _take_over(view: TableView, choice: str, question: str, refused: str | None = None) -> TakeOver | None:
    """The question for `choice`, with the words of its Yes button and what saying yes does (None: now free); all
    in the phone's language."""
    holder = _holder_of(view, choice)
    if holder is None:
        return None
    said_refused = None if refused is None else worded(refused)
    if choice == "host":
        yes = worded(N_("Yes, this phone is the host now"))
        hint = N_(
            "This phone then keeps score and manages the phones and the join link. "
            "The other phone then only watches, and it is told so."
        )
        return TakeOver(choice, holder.device.id, worded(question), yes, worded(hint), said_refused)
    name = holder.device.player or choice.removeprefix("player:")
    watches = N_("The other phone then only watches, and it is told so.")
    if holder.brings_host:
        # The host's seat carries the host (Referee.join): say so before the phone says yes.
        watches = N_(
            "%(name)s's other phone is the host's: this phone becomes the host too and manages the phones and the "
            "join link. The other phone then only watches, and it is told so."
        )
    yes = worded(Sentence(N_("Yes, I'm %(name)s on this phone"), name=name))
    return TakeOver(choice, holder.device.id, worded(question), yes, worded(Sentence(watches, name=name)), said_refused)


@bp.post("/j/<code>/<secret>")
def answer(code: str, secret: str) -> BaseResponse | str | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Remember this phone at the table as the player it picked (or as a watcher)."""
    # "player:NAME", "score", "watch" or "host": a prefix, so no player name can clash with the others.
    choice = request.form.get("who", "")
    if not csrf_ok():
        # A double tap whose first answer already reached the phone (a new cookie, so the form's token is old):
        # this phone is what it picked, so it goes to the table like the first tap did. Nothing changes here.
        already = _already_so(code, secret, choice)
        return already or error_page(TRY_AGAIN, N_("The page was stale. Open the link again."), 400)
    if not join_limit().allow(client_address()):
        return too_many_joins()
    player = None if choice in OTHER_CHOICES else choice.removeprefix("player:")
    if not choice or (player is not None and not player.strip()):
        return error_page(TRY_AGAIN, N_("Pick who you are, or Just watching."), 400)
    host_page = _host_answer(code, secret, choice)
    if host_page is not None:
        return redirect(host_page, 303)
    new_key = join_key()
    try:
        joined = get_referee().join(
            code,
            secret,
            new_key,
            player=player,
            watching=choice == "watch",
            host=choice == "host",
            previous_key=current_key(),
            take_over=asked_holder(),
        )
    except ServiceError as error:
        asked = _ask_again(code, secret, choice, error)
        if asked is not None:
            return asked
        return error_page(_JOIN_TITLES.get(error.code, LINK_DOES_NOT_WORK), error.message, http_status(error))
    # A new cookie at every join: one planted in this browser beforehand can no longer act as this phone.
    adopt_device_key(new_key)
    if joined.took_over is not None or (joined.again and asked_holder() is not None):
        flash(_took_over_message(joined.device.player, hosts=joined.hosts), "quiet")
    return redirect(url_for("table.page", code=normalise_code(code)), 303)


# The headings of a refused join.
NO_SUCH_TABLE = N_("No such table")
LINK_DOES_NOT_WORK = N_("This link doesn't work")
TRY_AGAIN = N_("Try again")
# Headings of a refused join that are not about the link itself (by error code).
_JOIN_TITLES = {"revoked": N_("Removed from the table"), "seat_taken_meanwhile": N_("Someone else was quicker")}


def _ask_again(code: str, secret: str, choice: str, error: ServiceError) -> tuple[str, int] | None:
    """Ask before a phone takes a held seat (or ask again, after another phone took it first); None otherwise."""
    if error.code not in ("seat_held", "seat_taken_meanwhile"):
        return None
    view = get_referee().view(code)
    refused = error.message if error.code == "seat_taken_meanwhile" else None
    holder = _holder_of(view, choice)
    question = error.message if refused is None or holder is None else held_question(holder.device)
    take = _take_over(view, choice, question, refused)
    if take is None:
        return None  # freed meanwhile (the holder removed): the refusal's page says what happened
    offer_join_key()
    # The question itself is a page like any (200); asked again after a lost race, it says so (409).
    status = 200 if refused is None else http_status(error)
    return render_template("join.html", view=view, secret=secret, take=take), status


def _already_so(code: str, secret: str, choice: str) -> BaseResponse | None:
    """Send this phone to the table if it already is what it picked (a seat, or the host); None otherwise."""
    try:
        view = get_referee().check_join_secret(code, secret)
    except ServiceError:
        return None
    device = current_device(view)
    if device is None or device.revoked:
        return None
    hosts = permissions(view, device).is_host
    if choice == "host":
        already = hosts and device.player is None
    else:
        name = name_key(choice.removeprefix("player:").strip())
        already = choice.startswith("player:") and name_key(device.player or "") == name
    if not already:
        return None
    if asked_holder() is not None:
        flash(_took_over_message(device.player, hosts=hosts), "quiet")
    return redirect(url_for("table.page", code=view.code), 303)


# The choices of "Who are you?" that are not a player's name.
OTHER_CHOICES = ("watch", "score", "host")


def _took_over_message(player: str | None, *, hosts: bool) -> str:
    """What a phone that just took over another phone's seat (or the host) is told, in its language: it is
    `player`'s now, and the host's if `hosts` (as the service says)."""
    if hosts and player:
        took = N_("You're %(name)s, and this phone is the host now. The old phone only watches.")
        return worded(Sentence(took, name=player))
    if hosts:
        return worded(N_("This phone is the host now: it keeps score. The old phone only watches."))
    said = N_("You're %(name)s on this phone now. The old phone only watches.")
    return worded(Sentence(said, name=player or ""))


def _host_answer(code: str, secret: str, choice: str) -> str | None:
    """If the host's phone answered "Who are you?" on its own link, take its answer as the host's.

    Return the page that says what happened (pages/whoami.py), or asks first for a seat another phone holds: a
    tap here is never silently ignored. None for every other phone.
    """
    try:
        view = get_referee().check_join_secret(code, secret)
    except ServiceError:
        return None  # join() says what is wrong with the link
    if not permissions(view, current_device(view)).is_host:
        return None
    held = take_host_answer(view.code, choice)
    return url_for("whoami.page", code=view.code, take=held, back="me" if held else None)


# --- the host's panel ---------------------------------------------------------------------------------
