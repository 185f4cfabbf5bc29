"""Starting a table: the home page's form (players in seat order, variant, house rules) and watching by code."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...engine import HOUSE_RULE_SPECS, Setup, Variant
from ...engine.setup import MAX_NAME_LENGTH
from ...engine.words import N_
from ...service import new_device_key, normalise_code, permissions
from ...service.errors import Invalid, ServiceError
from ..extensions import get_referee, table_limit
from ..http import navigate
from ..i18n import worded
from ..security import csrf_ok
from .common import TOO_MANY_TABLES, adopt_device_key, client_address, current_device, current_key, service_error_page

bp = Blueprint("home", __name__)
bp.register_error_handler(ServiceError, service_error_page)

MAX_SEATS = 6
VARIANT_LABELS = {
    Variant.STANDARD: N_("Standard: last player with a life wins"),
    Variant.SUDDEN_DEATH: N_("Sudden Death: ends as soon as a player loses their last life"),
    Variant.TEAMS: N_("Teams: two teams share five lives each (4–6 players)"),
}
# Which part of the form a refused setup points at (the engine names its field; the form groups some).
FORM_FIELDS = {"first_player": "players", "entry": "form"}


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
    def from_request(cls, players: list[str] | None = None) -> SetupForm:
        """Read the form from the posted fields (a rematch's form sends no names: it gives its `players`)."""
        names = list(players) if players is not None else request.form.getlist("name")[:MAX_SEATS] or [""]
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

    @classmethod
    def from_setup(cls, setup: Setup) -> SetupForm:
        """The form as a finished game was set up (a rematch's defaults)."""
        names = list(setup.players)
        if setup.teams:
            teams = ["A" if name in setup.teams[0] else "B" for name in names]
        else:
            teams = ["A" if index % 2 == 0 else "B" for index in range(len(names))]
        return cls(
            names=names,
            teams=teams,
            first=names.index(setup.first_player) if setup.first_player in names else 0,
            variant=setup.variant.value,
            house_rules=setup.house_rules.as_dict(),
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

    def teams_by_side(self) -> list[list[str]] | None:
        """The two teams' names for the team game, else None."""
        if self.variant != Variant.TEAMS.value:
            return None
        rows = self.named()
        return [[name for name, team, _ in rows if team == side] for side in ("A", "B")]

    def first_player(self) -> str | None:
        """The name of the player picked to start, if that row has a name."""
        return next((name for name, _, starts in self.named() if starts), None)

    def refused(self, error: Invalid) -> None:
        """Show a refused setup beside the part of the form it is about."""
        field_name = error.field or "form"
        self.errors[FORM_FIELDS.get(field_name, field_name)] = worded(error.message)


def variant_choices() -> list[tuple[str, str]]:
    """The variants a form offers: (value, label in this request's language)."""
    return [(variant.value, worded(VARIANT_LABELS[variant])) for variant in Variant]


def _render_home(form: SetupForm, status: int = 200) -> tuple[str, int]:
    return render_template(
        "home.html",
        form=form,
        specs=HOUSE_RULE_SPECS,
        max_seats=MAX_SEATS,
        max_name_length=MAX_NAME_LENGTH,
        variants=variant_choices(),
    ), status


@bp.get("/")
def index() -> tuple[str, int]:
    """Show the start-a-table form."""
    return _render_home(SetupForm())


@bp.post("/")
def start() -> BaseResponse | tuple[str, int]:
    """Edit the form (add, remove, move a player) or start the table it describes."""
    form = SetupForm.from_request()
    op = request.form.get("op", "start")
    if not csrf_ok():
        form.errors["form"] = worded(N_("This form was open too long. Check it and tap Start again."))
        return _render_home(form, 400)
    if op != "start":
        form.edit(op)
        return _render_home(form)
    limiter, address = table_limit(), client_address()
    # Only tables actually made count towards the limit: a form sent back to fix a name is taken back.
    if not limiter.allow(address):
        form.errors["form"] = worded(TOO_MANY_TABLES)
        return _render_home(form, 429)
    new_key = new_device_key()
    try:
        created = get_referee().create_table(
            [name for name, _, _ in form.named()],
            variant=form.variant,
            teams=form.teams_by_side(),
            first_player=form.first_player(),
            house_rules=form.house_rules,
            entry=form.entry,
            # A new key for this browser (no session fixation); its places at other tables move to it.
            host_key=new_key,
            previous_key=current_key(),
        )
    except Invalid as error:
        limiter.release(address)
        form.refused(error)
        return _render_home(form, 400)
    adopt_device_key(new_key)
    # The host gathers the phones first (pages/lobby.py); play may start without waiting.
    return navigate(url_for("lobby.page", code=created.view.code))


@bp.get("/watch")
def watch() -> BaseResponse:
    """Open a table by its typed code, watch-only (its host's phone is told it is the host)."""
    code = normalise_code(request.args.get("code", ""))
    if not code:
        return redirect(url_for("home.index"))
    view = get_referee().view(code)
    device = current_device(view)
    if permissions(view, device).is_host:
        # The host typed its own table's code: say so, and let it say which player it is (pages/whoami.py).
        return redirect(url_for("whoami.page", code=view.code))
    return redirect(url_for("table.page", code=code))
