"""The htmx pages: home (start a table), the table page and its live regions, joining by QR link."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from io import BytesIO
from typing import Any, cast

import qrcode
import qrcode.image.svg
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from . import get_referee, rulebook
from .codec import Command, Redo, Undo
from .engine import (
    HOUSE_RULE_SPECS,
    SPECS_BY_NAME,
    Bust,
    Card,
    HouseRules,
    Play,
    SetHand,
    Status,
    TieBreak,
    Variant,
    highest_hand_value,
    legal_actions,
)
from .netaddr import lan_address, phone_url
from .security import CSRF_FIELD, RateLimiter, csrf_ok, csrf_token
from .service import ServiceError, TableView, new_device_key, normalise_code
from .store import DeviceRow

bp = Blueprint("web", __name__)

MAX_SEATS = 6
WILD_CARDS = (
    Card.DRAW1,
    Card.DRAW2,
    Card.PASS,
    Card.REVERSE,
    Card.SKIP,
    Card.EQ21,
    Card.EQ10,
    Card.EQ0,
    Card.REDEAL,
    Card.BOMB,
)


@bp.app_context_processor
def _template_helpers() -> dict[str, Any]:
    return {"csrf_token": csrf_token, "csrf_field": CSRF_FIELD}


def is_htmx() -> bool:
    """True when htmx asked for a fragment rather than a whole page."""
    return request.headers.get("HX-Request") == "true"


def device_key() -> str:
    """Return this browser's device key (in the signed, HttpOnly session cookie), creating it."""
    key = session.get("device")
    if not isinstance(key, str):
        key = new_device_key()
        session["device"] = key
        session.permanent = True
    return key


def _go_to(target: str) -> BaseResponse:
    """Send the browser to another page: a 303 for plain forms, HX-Redirect for htmx.

    htmx's XMLHttpRequest would follow a 303 silently and swap the whole next page into the
    form, so htmx requests get an empty answer that tells htmx to navigate instead.
    """
    if is_htmx():
        response = Response(status=204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, 303)


def _address() -> str:
    return request.remote_addr or "?"


@bp.errorhandler(ServiceError)
def _service_error(error: ServiceError) -> tuple[str, int]:
    return render_template("error.html", title="Can't do that", message=error.message), error.status


# --- home: start a table ---------------------------------------------------------------------


@dataclass
class SetupForm:
    """The start-a-table form as typed, kept between edits (add, remove, move a player)."""

    names: list[str] = field(default_factory=lambda: ["", "", ""])
    teams: list[str] = field(default_factory=lambda: ["A", "B", "A"])
    first: int = 0
    variant: str = "standard"
    entry: str = "joined"
    house_rules: dict[str, str] = field(default_factory=lambda: {spec.name: spec.default for spec in HOUSE_RULE_SPECS})
    errors: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_request(cls) -> SetupForm:
        """Read the form from the posted fields."""
        names = request.form.getlist("name")[:MAX_SEATS] or [""]
        teams = request.form.getlist("team")[: len(names)]
        teams += ["A" if index % 2 == 0 else "B" for index in range(len(teams), len(names))]
        try:
            first = int(request.form.get("first", "0"))
        except ValueError:
            first = 0
        chosen = {
            spec.name: request.form.get(f"hr_{spec.name}", spec.default)
            for spec in HOUSE_RULE_SPECS
            if request.form.get(f"hr_{spec.name}", spec.default) in spec.values
        }
        return cls(
            names=names,
            teams=[team if team in ("A", "B") else "A" for team in teams],
            first=first if 0 <= first < len(names) else 0,
            variant=request.form.get("variant", "standard"),
            entry=request.form.get("entry", "joined"),
            house_rules={**cls().house_rules, **chosen},
        )

    def edit(self, op: str) -> None:
        """Apply an edit button: add, remove-N, up-N, down-N."""
        kind, _, index_text = op.partition("-")
        index = int(index_text) if index_text.isdigit() else -1
        pairs = list(zip(self.names, self.teams, strict=True))
        first_name = self.names[self.first] if self.first < len(self.names) else None
        if kind == "add" and len(pairs) < MAX_SEATS:
            pairs.append(("", "A" if len(pairs) % 2 == 0 else "B"))
        elif kind == "remove" and 0 <= index < len(pairs) and len(pairs) > 1:
            pairs.pop(index)
        elif kind == "up" and 0 < index < len(pairs):
            pairs[index - 1], pairs[index] = pairs[index], pairs[index - 1]
        elif kind == "down" and 0 <= index < len(pairs) - 1:
            pairs[index + 1], pairs[index] = pairs[index], pairs[index + 1]
        self.names = [name for name, _ in pairs]
        self.teams = [team for _, team in pairs]
        self.first = self.names.index(first_name) if first_name in self.names else 0

    def named(self) -> list[tuple[str, str, bool]]:
        """The rows that have a name: (name, team, starts)."""
        return [
            (name, team, index == self.first)
            for index, (name, team) in enumerate(zip(self.names, self.teams, strict=True))
            if name.strip()
        ]


def _render_home(form: SetupForm, status: int = 200) -> tuple[str, int]:
    return render_template(
        "home.html",
        form=form,
        specs=HOUSE_RULE_SPECS,
        max_seats=MAX_SEATS,
        variants=[(variant.value, _VARIANT_LABELS[variant]) for variant in Variant],
    ), status


_VARIANT_LABELS = {
    Variant.STANDARD: "Standard: last player with a life wins",
    Variant.SUDDEN_DEATH: "Sudden Death: ends when the first player is out",
    Variant.TEAMS: "Teams: two teams share five lives each (4–6 players)",
}


@bp.get("/")
def home() -> tuple[str, int]:
    """Show the start-a-table form."""
    return _render_home(SetupForm())


@bp.post("/")
def start_table() -> BaseResponse | tuple[str, int]:
    """Edit the form (add, remove, move a player) or start the table it describes."""
    form = SetupForm.from_request()
    op = request.form.get("op", "start")
    if not csrf_ok():
        form.errors["form"] = "This form was open too long. Check it and tap Start again."
        return _render_home(form, 400)
    if op != "start":
        form.edit(op)
        return _render_home(form)
    limiter = current_app.extensions["referee.table_limit"]
    assert isinstance(limiter, RateLimiter)
    # Only tables actually made count towards the limit: a form sent back to fix a name is taken back.
    if not limiter.allow(_address()):
        form.errors["form"] = "Too many new tables from this phone: wait a minute."
        return _render_home(form, 429)
    rows = form.named()
    teams = None
    if form.variant == Variant.TEAMS.value:
        teams = [[name for name, team, _ in rows if team == side] for side in ("A", "B")]
    first = next((name for name, _, starts in rows if starts), None)
    try:
        created = get_referee().create_table(
            [name for name, _, _ in rows],
            variant=form.variant,
            teams=teams,
            first_player=first,
            house_rules=form.house_rules,
            entry=form.entry,
            # The same browser key as at any other table: starting a second table from this phone
            # must not cost it its place at the first one.
            host_key=device_key(),
            address=_address(),
        )
    except ServiceError as error:
        limiter.release(_address())
        field_name = {"bad_teams": "teams", "teams_not_alternating": "teams", "bad_first_player": "players"}.get(
            error.code, "players" if "name" in error.code or "player" in error.code else "form"
        )
        if error.code in ("bad_variant",):
            field_name = "variant"
        if error.code in ("unknown_house_rule", "bad_house_rule"):
            field_name = "house_rules"
        form.errors[field_name] = error.message
        return _render_home(form, 400)
    return _go_to(url_for("web.table", code=created.view.code))


@bp.get("/watch")
def watch() -> BaseResponse | tuple[str, int]:
    """Open a table by its typed code, watch-only."""
    code = normalise_code(request.args.get("code", ""))
    if not code:
        return redirect(url_for("web.home"))
    get_referee().view(code)
    return redirect(url_for("web.table", code=code))


# --- the table page and its regions --------------------------------------------------------------


def _device(view: TableView) -> DeviceRow | None:
    key = session.get("device")
    return get_referee().device(view.code, key if isinstance(key, str) else None)


def _board_context(
    view: TableView, device: DeviceRow | None, *, full_page: bool = False, **extra: Any
) -> dict[str, Any]:
    state = view.state
    legal = legal_actions(state)
    current = state.current
    next_player = None
    if current is not None and state.status is Status.PLAYING:
        following = state.next_active(current)
        next_player = state.players[following].name if following != current else None
    numbers = [option for option in legal.cards if option.card.is_number]
    wilds = {option.card: option for option in legal.cards if not option.card.is_number}
    # Messages left by a form post for the page it redirects to. Only the full page takes them: a live
    # refresh racing the redirect would otherwise take (and drop) the host's confirmation.
    join = _join_context(view, device)
    flashed = cast(list[tuple[str, str]], get_flashed_messages(with_categories=True)) if full_page else []
    errors = extra.pop("errors", None) or [message for category, message in flashed if category == "error"]
    # Confirmations after a host's form post (a phone removed, a new join link), shown once.
    notices = [message for category, message in flashed if category == "info"]
    return {
        "view": view,
        "state": state,
        "legal": legal,
        "numbers": numbers,
        "wilds": [wilds[card] for card in WILD_CARDS],
        "next_player": next_player,
        "device": device,
        "may_enter": get_referee().may_enter(view, device),
        "errors": errors,
        "notices": notices,
        "join": join,
        "join_tag": join.tag if join else None,
        "log": list(reversed(view.log)),
        "Status": Status,
        "Card": Card,
        "highest_hand_value": highest_hand_value,
        "last_events": {event.kind for event in state.events},
        **extra,
    }


@bp.get("/t/<code>")
def table(code: str) -> BaseResponse | str:
    """Show the table: total, turn, card pad, players, log."""
    view = get_referee().view(code)
    if view.code != code:
        return redirect(url_for("web.table", code=view.code))
    device = _device(view)
    context = _board_context(view, device, full_page=True, open_sheet=request.args.get("sheet"))
    return render_template("table.html", **context)


@bp.get("/t/<code>/board")
def board(code: str) -> Response | str:
    """Return the live regions; answer 204 when the page already shows this revision."""
    referee = get_referee()
    numbers = referee.revision(code)
    if numbers is None:
        abort(404)
    since = request.args.get("since", "")
    device = None
    if since == str(numbers[1]):
        return Response(status=204)
    view = referee.view(code)
    device = _device(view)
    context = _board_context(view, device)
    # The join panel sits outside the board: send it along (htmx swaps it by id) when what this phone
    # shows is out of date: a new join link, a phone that joined or was removed, the right to see it.
    context["join_changed"] = _join_changed(context["join_tag"])
    return render_template("_board.html", **context)


@dataclass
class JoinPanel:
    """What the join panel shows a phone that may enter cards: the link, its QR code, and for the host the phones."""

    view: TableView
    is_host: bool
    devices: list[DeviceRow]

    @property
    def code(self) -> str:
        """The table code."""
        return self.view.code

    @cached_property
    def link(self) -> str:
        """The join link, on an address other phones can reach (built only when the panel is drawn)."""
        url = url_for("web.join", code=self.view.code, secret=self.view.join_secret, _external=True)
        return phone_url(url, lan_address())

    @property
    def qr_tag(self) -> str:
        """Part of the QR image's URL, so a new join link is never hidden by the phone's cached picture."""
        return hashlib.sha256(self.view.join_secret.encode()).hexdigest()[:8]

    @property
    def tag(self) -> str:
        """What the panel shows, in 8 hex digits: a live update re-sends the panel only when this changes."""
        shown = [self.view.join_secret]
        if self.is_host:
            shown += [self.view.entry, *(f"{d.id}:{d.label}:{d.revoked}" for d in self.devices)]
        return hashlib.sha256("\n".join(shown).encode()).hexdigest()[:8]


def _join_context(view: TableView, device: DeviceRow | None) -> JoinPanel | None:
    """The join panel for phones that may enter cards; None for the others."""
    if not get_referee().may_enter(view, device):
        return None
    is_host = device is not None and device.role == "host"
    return JoinPanel(view, is_host, get_referee().devices(view.code) if is_host else [])


def _join_changed(join_tag: str | None) -> bool:
    """True if the page that sent this htmx request shows another join panel than `join_tag` (it says which)."""
    return is_htmx() and (request.values.get("join") or None) != join_tag


def _respond(
    view: TableView, device: DeviceRow | None, error: ServiceError | None = None
) -> BaseResponse | tuple[str, int]:
    """After a form post: htmx gets the board back; a plain browser is redirected to the page."""
    if is_htmx():
        status = 200 if error is None else error.status
        errors = [] if error is None else [error.message]
        context = _board_context(view, device, errors=errors)
        # A tap's answer brings the panel too when it is out of date, or the page's next refresh (a 204
        # at the same revision) would never bring it.
        context["join_changed"] = _join_changed(context["join_tag"])
        return render_template("_board.html", **context), status
    if error is not None:
        flash(error.message, "error")
    return redirect(url_for("web.table", code=view.code), 303)


def _command_from_form(view: TableView) -> Command | str:
    """Build the engine action the posted form describes, or return why it is malformed."""
    form = request.form
    kind = form.get("kind", "play")
    player = form.get("player", "")
    if kind == "play":
        try:
            card = Card(form.get("card", ""))
        except ValueError:
            return "Pick a card."
        return Play(player, card, tuple(form.getlist("zeros")))
    if kind == "bust":
        return Bust(player)
    if kind == "hand":
        try:
            cards = int(form.get("cards", ""))
        except ValueError:
            return "Type the number of cards as digits."
        return SetHand(player, cards)
    if kind == "tiebreak":
        values = []
        for name in view.state.players:
            raw = form.get(f"tb_{name.name}")
            if raw is None or raw == "":
                continue
            try:
                values.append((name.name, int(raw)))
            except ValueError:
                return "Type each total as digits."
        return TieBreak(tuple(values))
    if kind == "undo":
        return Undo()
    if kind == "redo":
        return Redo()
    return "Unknown action."


@bp.post("/t/<code>/act")
def act(code: str) -> BaseResponse | tuple[str, int]:
    """Enter a card, a bust, a hand correction, a tie-break, an undo or a redo."""
    referee = get_referee()
    view = referee.view(code)
    device = _device(view)
    if not csrf_ok():
        return _respond(
            view, device, ServiceError(400, "csrf", "This page was stale: it has been refreshed. Tap again.")
        )
    if not referee.may_enter(view, device):
        return _respond(
            view, device, ServiceError(403, "watch_only", "This phone is only watching: it can't enter cards.")
        )
    command = _command_from_form(view)
    if isinstance(command, str):
        return _respond(view, device, ServiceError(400, "bad_form", command))
    if (
        isinstance(command, Play)
        and command.card is Card.BOMB
        and not request.form.get("bomb_confirmed")
        and legal_actions(view.state).bomb_answerers
    ):
        # Without JavaScript the Bomb button first opens the "Who discarded a 0?" sheet.
        return redirect(url_for("web.table", code=view.code, sheet="bomb") + "#bomb-sheet", 303)
    try:
        version = int(request.form.get("version", ""))
    except ValueError:
        version = None
    try:
        view = referee.act(
            view.code,
            command,
            expected_version=version,
            entered_by=None if device is None else device.label,
            device=device,
        )
    except ServiceError as error:
        return _respond(error.view or view, device, error)
    return _respond(view, device)


@bp.post("/t/<code>/rematch")
def rematch(code: str) -> BaseResponse | tuple[str, int]:
    """Start a rematch with the same players and settings."""
    referee = get_referee()
    view = referee.view(code)
    device = _device(view)
    if not csrf_ok() or not referee.may_enter(view, device):
        return _respond(view, device, ServiceError(403, "watch_only", "Only a phone at the table can start a rematch."))
    if view.state.status is not Status.FINISHED:
        return _respond(view, device, ServiceError(422, "not_finished", "Finish this game before a rematch."))
    new_code = referee.rematch(view.code, address=_address())
    return _go_to(url_for("web.table", code=new_code))


# --- joining by QR link ----------------------------------------------------------------------------


@bp.get("/j/<code>/<secret>")
def join(code: str, secret: str) -> str | tuple[str, int]:
    """Ask "Who are you?" on a phone that opened the join link."""
    try:
        view = get_referee().check_join_secret(code, secret)
    except ServiceError as error:
        title = "No such table" if error.status == 404 else "This link doesn't work"
        message = (
            error.message
            if error.status == 404
            else (
                "This join link is wrong or was replaced. Ask the host to show the QR code again, "
                "or type the table code to watch."
            )
        )
        return render_template("error.html", title=title, message=message), error.status
    device = _device(view)
    return render_template("join.html", view=view, secret=secret, device=device)


@bp.post("/j/<code>/<secret>")
def join_post(code: str, secret: str) -> BaseResponse | tuple[str, int]:
    """Remember this phone at the table as the player it picked (or as a watcher)."""
    limiter = current_app.extensions["referee.join_limit"]
    assert isinstance(limiter, RateLimiter)
    if not csrf_ok():
        return render_template("error.html", title="Try again", message="The page was stale. Open the link again."), 400
    if not limiter.allow(_address()):
        return render_template(
            "error.html", title="Slow down", message="Too many joins from this phone: wait a minute."
        ), 429
    # "player:NAME", "score" or "watch": a prefix, so no player name can clash with the other two.
    choice = request.form.get("who", "")
    watching = choice == "watch"
    player = None if choice in ("watch", "score") else choice.removeprefix("player:")
    if not choice or (player is not None and not player.strip()):
        return render_template("error.html", title="Try again", message="Pick who you are, or Just watching."), 400
    try:
        get_referee().join(code, secret, device_key(), player=player, watching=watching, address=_address())
    except ServiceError as error:
        title = "Removed from the table" if error.code == "revoked" else "This link doesn't work"
        return render_template("error.html", title=title, message=error.message), error.status
    return redirect(url_for("web.table", code=normalise_code(code)), 303)


@bp.get("/t/<code>/qr.svg")
def qr_svg(code: str) -> Response:
    """Draw the join link as an SVG QR code (only for phones that may enter cards)."""
    view = get_referee().view(code)
    context = _join_context(view, _device(view))
    if context is None:
        abort(403)
    image = qrcode.make(context.link, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buffer = BytesIO()
    image.save(buffer)
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=300"
    return response


def _host_view(code: str) -> TableView:
    """Return the table if this phone is its host and the form carries the CSRF token; 403 otherwise."""
    view = get_referee().view(code)
    device = _device(view)
    if not csrf_ok() or device is None or device.role != "host":
        abort(403)
    return view


def _back_to_join_panel(view: TableView) -> BaseResponse:
    return redirect(url_for("web.table", code=view.code) + "#join", 303)


@bp.post("/t/<code>/devices/<int:device_id>/revoke")
def revoke(code: str, device_id: int) -> BaseResponse:
    """Remove a phone from the table (host only)."""
    view = _host_view(code)
    get_referee().revoke(view.code, device_id)
    flash("That phone can no longer enter cards.", "info")
    return _back_to_join_panel(view)


@bp.post("/t/<code>/join-link")
def new_join_link(code: str) -> BaseResponse:
    """Replace the join link and QR code, for when they reached people who should not join (host only)."""
    view = _host_view(code)
    get_referee().new_join_link(view.code)
    flash("New join link made. The old QR code and link no longer let phones join; phones already here stay.", "info")
    return _back_to_join_panel(view)


@bp.post("/t/<code>/entry")
def entry(code: str) -> BaseResponse:
    """Choose who may enter cards: every joined phone, or the host only (host only)."""
    view = _host_view(code)
    get_referee().set_entry(view.code, request.form.get("entry", "joined"))
    return _back_to_join_panel(view)


# --- the rules panel -------------------------------------------------------------------------------


def _table_rules(code: str | None) -> tuple[TableView | None, HouseRules | None]:
    """The table whose house rules should colour the answers, if the page came from one."""
    if not code:
        return None, None
    try:
        view = get_referee().view(code)
    except ServiceError:
        return None, None
    return view, view.setup.house_rules


@bp.app_template_global()
def rule_title(entry_id: str) -> str:
    """Return the title of a rulebook entry, for "Why?" links."""
    found = rulebook.entry(entry_id)
    return found.title if found is not None else entry_id


@bp.get("/rules")
def rules() -> str:
    """The whole rules panel: search, every rule and FAQ entry, and this table's house rules."""
    view, house_rules = _table_rules(request.args.get("table"))
    query = request.args.get("q", "")[:200]
    results = rulebook.search(query, house_rules) if query.strip() else []
    return render_template(
        "rules.html",
        query=query,
        results=results,
        sections=rulebook.by_section(),
        table_view=view,
        house_rules=house_rules,
        specs=HOUSE_RULE_SPECS,
        notes={item.id: rulebook.table_note(item, house_rules) for item in rulebook.entries()},
    )


@bp.get("/rules/search")
def rules_results() -> str:
    """The answers to a typed question, as a fragment for the search box (htmx, as you type)."""
    view, house_rules = _table_rules(request.args.get("table"))
    query = request.args.get("q", "")[:200]
    # Five answers fit a phone screen; the full /rules page shows all ten.
    results = rulebook.search(query, house_rules, limit=5) if query.strip() else []
    return render_template("_rules_results.html", query=query, results=results, table_view=view)


@bp.get("/rules/<entry_id>")
def rule(entry_id: str) -> tuple[str, int] | str:
    """One ruling in full: answer, reasoning, source, and what this table chose."""
    found = rulebook.entry(entry_id)
    if found is None:
        return render_template("error.html", title="No such rule", message="That rule is not in the rulebook."), 404
    view, house_rules = _table_rules(request.args.get("table"))
    return render_template(
        "rule.html",
        item=found,
        table_view=view,
        note=rulebook.table_note(found, house_rules),
        spec=SPECS_BY_NAME.get(found.house_rule or ""),
        house_rules=house_rules,
    )
