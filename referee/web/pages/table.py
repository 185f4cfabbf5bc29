"""The table: its page, the live regions htmx refreshes, and the form posts that enter cards and start a rematch.

Every action form posts to one URL (`act`); without JavaScript it answers with a redirect back to the page,
with htmx it answers with the board, including any refusal as a sentence in the banner.
"""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint, abort, flash, get_flashed_messages, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...engine import WILD_CARDS, Bust, Card, Leave, Play, SetHand, Status, TieBreak, highest_hand_value
from ...engine.words import N_, Sentence
from ...service import DeviceRow, Phone, permissions
from ...service.codec import Command, Redo, Undo
from ...service.errors import Conflict, Invalid, ServiceError, Unconfirmed
from ...service.tableview import TableView
from ..extensions import get_referee
from ..http import http_status, is_htmx, navigate, nothing_changed
from ..i18n import worded
from ..playlog import bgstats_link
from ..security import csrf_ok
from ..standings import standings
from .asking import asking_context
from .calls import call_language, spoken_call
from .common import STALE_PAGE, current_device, service_error_page
from .joinpanel import join_panel
from .loglines import LOG_CHANGES, log_changes
from .logview import log_lines
from .markup import ActionForms
from .rematchform import rematch_context
from .rules import asked_question, panel_answers
from .summary import identity, strip, tiebreak_note

bp = Blueprint("table", __name__)
# Flash category of a tap the table had already moved past: said quietly (a status, not an alert).
QUIET = "quiet"
# A version is a count of entries: 18 digits outgrow any game and still fit the database's 64-bit integer.
MAX_VERSION_DIGITS = 18
BAD_VERSION = N_("This tap came with a garbled page version, so nothing was entered: reload the table and tap again.")
bp.register_error_handler(ServiceError, service_error_page)


def _next_player(view: TableView) -> str | None:
    """Who plays after the current player, if someone else (for "then Bob")."""
    state = view.state
    current = state.current
    if current is None or state.status is not Status.PLAYING:
        return None
    following = state.next_active(current)
    return state.players[following].name if following != current else None


def _messages(full_page: bool, errors: list[str] | None) -> tuple[list[str], list[str], list[str]]:
    """The errors, the host's confirmations and the quiet notes to show: passed in, or left by a form post.

    Only the full page takes flashed messages: a live refresh racing the redirect would otherwise take
    (and drop) the host's confirmation.
    """
    flashed = cast(list[tuple[str, str]], get_flashed_messages(with_categories=True)) if full_page else []
    shown_errors = errors or [message for category, message in flashed if category == "error"]
    notices = [message for category, message in flashed if category == "info"]
    return shown_errors, notices, [message for category, message in flashed if category == QUIET]


def board_context(
    view: TableView,
    device: DeviceRow | None,
    *,
    full_page: bool = False,
    kept_join_tag: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Everything the board's partials need to draw the table for this phone.

    `kept_join_tag`: the tag of the join panel the phone shows, known to be current (_kept_join_tag); the board
    keeps it and the table's phones are not read again.
    """
    state = view.state
    legal = view.legal
    wilds = {option.card: option for option in legal.cards if not option.card.is_number}
    join = None if kept_join_tag else join_panel(view, device)
    join_tag = kept_join_tag or (join.tag if join else None)
    lines, log_count = log_lines(view)
    errors, notices, quiet = _messages(full_page, extra.pop("errors", None))
    quiet = extra.pop("quiet", None) or quiet
    may = permissions(view, device)
    latest = strip(view, device)
    tiebreak = tiebreak_note(state)
    return {
        "view": view,
        "state": state,
        "legal": legal,
        "numbers": [option for option in legal.cards if option.card.is_number],
        "wilds": [wilds[card] for card in WILD_CARDS],
        "next_player": _next_player(view),
        "device": device,
        "may_enter": may.enters_cards,
        "may": may,
        # Only a phone that may enter cards has action forms (and only it needs a CSRF token in its session). A
        # board sent to htmx posts its version from its hx-vals (_board_values), not from each form.
        "forms": ActionForms.for_view(view, versioned=full_page) if may.enters_cards else None,
        "errors": errors,
        "notices": notices,
        "quiet": quiet,
        "join": join,
        "join_tag": join_tag,
        "board_values": _board_values(view, join_tag),
        "log": lines,
        "log_count": log_count,
        "Status": Status,
        "Card": Card,
        "highest_hand_value": highest_hand_value,
        "last_events": _last_events(view),
        "me": identity(view, device),
        **_game_over(view),
        **rematch_context(view, device),
        "strip": latest,
        "tiebreak": tiebreak,
        "call": spoken_call(view, latest, tiebreak),
        "call_language": call_language(),
        **asking_context(view, device),
        **extra,
    }


def _board_values(view: TableView, join_tag: str | None) -> dict[str, str | int]:
    """What every htmx request from the board says of the page: its join panel, its revision, and the version it
    shows (a tap's expected version: htmx's hx-vals take the place of a form's own field)."""
    values: dict[str, str | int] = {"join": join_tag} if join_tag else {}
    return values | {"revision": view.revision, "version": view.version}


def _kept_join_tag(view: TableView) -> str | None:
    """The join panel's tag a tap's phone sent, if nothing but that tap changed the table since its board was drawn.

    Everything the panel shows (phones joining or removed, the link, who may enter) bumps the table's revision, and
    an entered tap bumps it by one: at one past the revision the board showed, the panel is the one the phone has.
    Read after the tap, not before: a phone joining in between would otherwise be missed (the tap's answer is at
    a newer revision than the stream announces, so no refresh would bring the panel).
    """
    if request.values.get("revision") != str(view.revision - 1):
        return None
    return request.values.get("join") or None


def _last_events(view: TableView) -> set[str]:
    """What the newest change made happen (for the round's banner); nothing after an Undo, whose state's
    events are an older action's: a round that ended before the undone card is not announced again."""
    changed = view.last_undo_or_redo
    if changed is not None and changed.undone:
        return set()
    return {event.kind for event in view.state.events}


def _game_over(view: TableView) -> dict[str, Any]:
    """The standings of a finished game (and the series it belongs to); nothing while it is played."""
    if view.state.status is not Status.FINISHED:
        return {}
    games = get_referee().series(view)
    return {"standings": standings(view, games), "series_games": len(games), "bgstats_link": bgstats_link(view)}


def join_changed(join_tag: str | None) -> bool:
    """True if the page that sent this htmx request shows another join panel than `join_tag` (it says which)."""
    return is_htmx() and (request.values.get("join") or None) != join_tag


def _render_board(
    view: TableView,
    device: DeviceRow | None,
    errors: list[str] | None = None,
    quiet: list[str] | None = None,
    shown: TableView | None = None,
    kept_join_tag: str | None = None,
    repeat: Unconfirmed | None = None,
) -> str:
    context = board_context(view, device, errors=errors, quiet=quiet, kept_join_tag=kept_join_tag, repeat=repeat)
    # The join panel sits outside the board: send it along (htmx swaps it by id) when what this phone
    # shows is out of date: a new join link, a phone that joined or was removed, the right to see it.
    context["join_changed"] = join_changed(context["join_tag"])
    if shown is not None:
        # The phone shows the log of `shown`: it keeps that, and gets only what changed (the whole log would make
        # a tap's answer grow with the game).
        context["log_changes"] = log_changes(log_lines(shown)[0], context["log"], view.code, view.setup.players)
    return render_template("_board.html", **context)


@bp.get("/t/<code>")
def page(code: str) -> BaseResponse | str:
    """Show the table: total, turn, card pad, players, log."""
    view = get_referee().view(code)
    if view.code != code:
        return redirect(url_for("table.page", code=view.code))
    context = board_context(view, current_device(view), full_page=True, open_sheet=request.args.get("sheet"))
    # Back from a ruling opened in the rules panel: the question and its answers, where they were.
    rules_query = asked_question()
    return render_template(
        "table.html", rules_query=rules_query, rules_results=panel_answers(view, rules_query), **context
    )


@bp.get("/t/<code>/board")
def board(code: str) -> BaseResponse | str:
    """Return the live regions; answer 204 when the page already shows this revision."""
    referee = get_referee()
    numbers = referee.revision(code)
    if numbers is None:
        abort(404)
    if request.args.get("since", "") == str(numbers[1]):
        return nothing_changed()
    view = referee.view(code)
    if view.rematch_code is not None and is_htmx():
        # Every phone follows the rematch by itself, as the table display does: its live refresh takes it to the
        # new table, where it keeps its seat, or keeps watching, as "Go to the new table" would (service/rematch.py).
        return navigate(url_for("table.page", code=view.rematch_code))
    return _render_board(view, current_device(view))


def respond(
    view: TableView,
    device: DeviceRow | None,
    error: ServiceError | None = None,
    *,
    quiet: str | None = None,
    shown: TableView | None = None,
    kept_join_tag: str | None = None,
) -> BaseResponse | tuple[str, int]:
    """After a form post: htmx gets the board back (with the refusal, if any); a plain browser is redirected.

    `quiet` replaces the refusal's sentence with a calm note (the table had already moved past the tap).
    `shown` is the table as the phone showed it before the post, when known: its log is only brought up to date.
    `kept_join_tag`: the join panel the phone shows is current (_kept_join_tag).
    Both sentences are said in the phone's language.
    """
    if is_htmx():
        status = 200 if error is None else http_status(error)
        errors = [] if error is None or quiet else [worded(error.message)]
        calm = [worded(quiet)] if quiet else None
        board = _render_board(view, device, errors=errors, quiet=calm, shown=shown, kept_join_tag=kept_join_tag)
        return board, status
    if quiet:
        flash(worded(quiet), QUIET)
    elif error is not None:
        flash(worded(error.message), "error")
    return redirect(url_for("table.page", code=view.code), 303)


def ask_first(view: TableView, device: DeviceRow | None, question: Unconfirmed) -> tuple[str, int]:
    """Nothing was entered: the board (or, without JavaScript, the page) asks whether the repeated card counts.

    A 409, as for any tap that entered nothing: of phones tapping at once, only the one whose card went in gets a 200.
    """
    status = http_status(question)
    if is_htmx():
        return _render_board(view, device, repeat=question), status
    context = board_context(view, device, full_page=True, repeat=question)
    return render_template("table.html", rules_query=None, rules_results=None, **context), status


def moved_on_message(view: TableView, command: Command) -> Sentence:
    """Quiet words for a tap made on a version the table has left, another phone's change first."""
    if isinstance(command, Play):
        card = Sentence(command.card.label)
        now = view.state.current_player
        if now is not None and view.state.status is Status.PLAYING:
            moved = N_(
                "The table moved on (%(current)s's turn now): %(name)s's %(card)s was not entered. "
                "Check, then tap again if it still counts."
            )
            return Sentence(moved, current=now.name, name=command.player, card=card)
        moved = N_("The table moved on: %(name)s's %(card)s was not entered. Check, then tap again if it still counts.")
        return Sentence(moved, name=command.player, card=card)
    return Sentence(
        N_("The table moved on just before your tap: nothing was entered. Check it, then tap again if needed.")
    )


def _tiebreak_values(view: TableView) -> TieBreak:
    values = []
    for player in view.state.players:
        raw = request.form.get(f"tb_{player.name}")
        if raw is None or raw == "":
            continue
        try:
            values.append((player.name, int(raw)))
        except ValueError:
            raise Invalid("bad_form", N_("Type each total as digits."), field=f"tb_{player.name}") from None
    return TieBreak(tuple(values))


def _command_from_form(view: TableView) -> Command:
    """Build the engine action the posted form describes; raise Invalid if it is malformed."""
    form = request.form
    kind = form.get("kind", "play")
    player = form.get("player", "")
    match kind:
        case "play":
            try:
                card = Card(form.get("card", ""))
            except ValueError:
                raise Invalid("bad_form", N_("Pick a card."), field="card") from None
            return Play(player, card, tuple(form.getlist("zeros")))
        case "bust":
            return Bust(player)
        case "hand":
            try:
                return SetHand(player, int(form.get("cards", "")))
            except ValueError:
                raise Invalid("bad_form", N_("Type the number of cards as digits."), field="cards") from None
        case "leave":
            return Leave(player)
        case "tiebreak":
            return _tiebreak_values(view)
        case "undo":
            return Undo()
        case "redo":
            return Redo()
    raise Invalid("bad_form", N_("Unknown action."), field="kind")


def _posted_version() -> int | None:
    """The version the phone saw; None for a post without one (the API's way: no stale check asked for).

    A version that is there but not a whole number is refused rather than ignored: ignoring it would enter
    the tap with no check that the phone was up to date, which is the check the field exists for.
    """
    raw = request.form.get("version")
    if raw is None:
        return None
    # isascii: str.isdigit also accepts digits like "²" that int() refuses; int() also refuses over 4300 digits.
    if raw.isascii() and raw.isdigit() and len(raw) <= MAX_VERSION_DIGITS:
        return int(raw)
    raise Invalid("bad_form", BAD_VERSION, field="version")


def _needs_bomb_sheet(view: TableView, command: Command) -> bool:
    """Without JavaScript the Bomb button first opens the "Who put down a 0?" sheet."""
    return (
        isinstance(command, Play)
        and command.card is Card.BOMB
        and not request.form.get("bomb_confirmed")
        and bool(view.legal.bomb_answerers)
    )


@bp.post("/t/<code>/act")
def act(code: str) -> BaseResponse | tuple[str, int]:
    """Enter a card, a bust, a hand correction, a tie-break, an undo or a redo."""
    referee = get_referee()
    view = referee.view(code)
    device = current_device(view)
    try:
        if not csrf_ok():
            raise Invalid("csrf", STALE_PAGE)
        expected_version = _posted_version()
        command = _command_from_form(view)
        if _needs_bomb_sheet(view, command):
            return redirect(url_for("table.page", code=view.code, sheet="bomb") + "#bomb-sheet", 303)
        # What the phone shows is known when it posted the version read just now, and its script makes a log's
        # changes in place when it says so (a page whose script predates that does not: it gets the whole board).
        known = expected_version == view.version and request.values.get("log") == LOG_CHANGES
        shown = view if known else None
        # "Yes" to the question a repeated card asks (templates/_board.html, block banner).
        again = request.form.get("again") == "yes"
        view = referee.act(
            view.code, command, actor=Phone(device), expected_version=expected_version, repeat_confirmed=again
        )
    except Unconfirmed as question:
        return ask_first(question.view or view, device, question)
    except Conflict as error:
        fresh = error.view or view
        # A double tap's second post is told its card is in (service.already_in); any other, what moved on.
        quiet = error.message if error.code == "already_entered" else moved_on_message(fresh, command)
        return respond(fresh, device, error, quiet=quiet)
    except ServiceError as error:
        return respond(error.view or view, device, error)
    return respond(view, device, shown=shown, kept_join_tag=_kept_join_tag(view))
