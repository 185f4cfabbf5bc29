"""The rematch at game over: who may change its settings (the host's phone), the change form as the host sent
it (kept open beside its refusal), and what the host changed, on both tables' boards.

The words of the changes are `referee/web/rematchnote.py`'s (the table display and the API say them too). The old
table reads only the new table's setup (no log, no replay) for its "A rematch has started" line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask import request

from ...engine import (
    HOUSE_RULE_SPECS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIN_TEAM_PLAYERS,
    Setup,
    Status,
    Variant,
    name_key,
)
from ...engine.words import N_, Sentence, names_said
from ...service import DeviceRow, left_the_game, permissions, rematch_players
from ...service.errors import ServiceError
from ...service.tableview import TableView
from ..extensions import get_referee
from ..i18n import worded
from ..rematchnote import changes, rematch_note, starter, team_pairs
from .home import SetupForm, variant_choices

# The fields of the change form: a post carrying any of them asks to change the rematch's settings.
# "who_plays" is always sent with the players' boxes: with every box unticked, none of them is.
CHANGE_FIELDS = ("first", "variant", "team", "name", "who_plays", "add")
# Room for the names of a full table, commas between.
MAX_ADDED = 200
TOO_LATE = N_("The rematch had already started when your changes arrived, so they were not used.")


def is_change_post() -> bool:
    """True if the posted form asks to change the rematch's settings (not the plain "same players" button)."""
    return any(name in request.form for name in CHANGE_FIELDS) or any(name.startswith("hr_") for name in request.form)


@dataclass
class RematchForm(SetupForm):
    """The rematch's change form: a new table's fields over this game's players, with who plays and who joins."""

    plays: list[str] = field(default_factory=list)
    """This game's players who play the rematch (ticked)."""
    added: str = ""
    """New players' names as typed, commas between."""
    new_starts: bool = False
    """The first new player starts (a player typed in is not in the list of this game's players to pick from)."""
    NEW_PLAYER_STARTS: ClassVar[str] = "new"
    """The "Who starts?" value that means the first name typed under "New players"."""

    def new_names(self) -> list[str]:
        """The new players' names, in the order typed."""
        return [name.strip() for name in self.added.split(",") if name.strip()]

    def players(self) -> list[str]:
        """Who plays the rematch: the ticked players in their seats, then the new ones in the order typed."""
        return [name for name in self.names if name in self.plays] + self.new_names()

    def first_player(self) -> str | None:
        """Who was picked to start: one of this game's players, or the first new one (None if none was typed)."""
        if self.new_starts:
            return next(iter(self.new_names()), None)
        return super().first_player()


def posted_form(view: TableView) -> RematchForm:
    """The change form as the host sent it, over this game's players; a field left out keeps this game's value
    (and who plays is everyone still at the table)."""
    setup = view.setup
    base = SetupForm.from_setup(setup)
    posted = SetupForm.from_request(players=base.names)
    sent = request.form
    return RematchForm(
        names=base.names,
        teams=posted.teams if "team" in sent else base.teams,
        first=posted.first if "first" in sent else base.first,
        variant=posted.variant if "variant" in sent else base.variant,
        house_rules={
            name: posted.house_rules[name] if f"hr_{name}" in sent else value
            for name, value in base.house_rules.items()
        },
        plays=[name for name in base.names if name in sent.getlist("plays")]
        if "who_plays" in sent
        else list(rematch_players(view)),
        added=sent.get("add", "")[:MAX_ADDED],
        new_starts=sent.get("first") == RematchForm.NEW_PLAYER_STARTS,
    )


# A rematch with too many or too few players, in the form's words, for 5 Alive and for the team game.
_TOO_MANY = {
    False: N_("That makes %(count)s players, and 5 Alive is for %(least)s to %(most)s: untick or add fewer."),
    True: N_("That makes %(count)s players, and the team game is for %(least)s to %(most)s: untick or add fewer."),
}
_TOO_FEW = {
    False: N_("Only %(names)s would play: 5 Alive needs %(least)s to %(most)s players. Tick or add more."),
    True: N_("Only %(names)s would play: the team game needs %(least)s to %(most)s players. Tick or add more."),
}
_NOBODY = {
    False: N_("Nobody is ticked or added: 5 Alive needs %(least)s to %(most)s players. Tick or add more."),
    True: N_("Nobody is ticked or added: the team game needs %(least)s to %(most)s players. Tick or add more."),
}


def refusal_sentence(form: RematchForm, error: ServiceError) -> str:
    """A refused change in the form's words, in the phone's language: who is ticked or added (never "you named 0"
    to a host who has named nobody, only unticked boxes)."""
    if error.code != "bad_player_count":
        return worded(error.message)
    players = form.players()
    teams = form.variant == Variant.TEAMS.value
    least = MIN_TEAM_PLAYERS if teams else MIN_PLAYERS
    if len(players) > MAX_PLAYERS:
        return worded(Sentence(_TOO_MANY[teams], count=len(players), least=least, most=MAX_PLAYERS))
    if players:
        return worded(Sentence(_TOO_FEW[teams], names=names_said(players), least=least, most=MAX_PLAYERS))
    return worded(Sentence(_NOBODY[teams], least=least, most=MAX_PLAYERS))


def requested(form: RematchForm) -> dict[str, Any]:
    """The service's rematch changes for a change form (who plays, starter, variant, teams, house rules).

    With other players the teams are dealt anew (alternate seats): the form's team choices were for this game's.
    A starter who is not playing is not asked for: the next player round the table starts.
    """
    players = form.players()
    first = form.first_player()
    return {
        "players": players,
        "first_player": first if first in players else None,
        "variant": form.variant,
        "teams": form.teams_by_side() if players == form.names else None,
        "house_rules": form.house_rules,
    }


def asked_for(form: RematchForm, setup: Setup) -> bool:
    """True if `setup` is what the change form asks for (who plays and starts, the game, teams, house rules)."""
    asked = requested(form)
    teams = asked["teams"]
    same_teams = teams is None or {frozenset(team) for team in teams} == team_pairs(setup)
    return (
        [name_key(name) for name in asked["players"]] == [name_key(name) for name in setup.players]
        and asked["first_player"] in (None, starter(setup))
        and form.variant == setup.variant.value
        and same_teams
        and form.house_rules == setup.house_rules.as_dict()
    )


def may_show_form(view: TableView) -> bool:
    """True while a change form has a place on the board: the game is over and no rematch has started."""
    return view.state.status is Status.FINISHED and view.rematch_code is None


def rematch_context(view: TableView, device: DeviceRow | None) -> dict[str, Any]:
    """What the board says about the rematch: the new table's note, the old table's line, the host's form."""
    context: dict[str, Any] = {"rematch_note": None, "rematch_started": None, "rematch_form": None}
    # The rematch's words in the phone's language (the API says them in English).
    note = rematch_note(view)
    context["rematch_note"] = None if note is None else worded(note)
    # Who left the game is not dealt in again by "Rematch" (the button says so: "Rematch without Cy").
    context["rematch_without"] = left_the_game(view)
    referee = get_referee()
    if view.rematch_code is not None:
        new_setup = referee.setup_of(view.rematch_code)
        context["rematch_started"] = None if new_setup is None else worded(changes(view.setup, new_setup).started())
    elif view.state.status is Status.FINISHED and permissions(view, device).changes_rematch:
        # The form starts from this game's settings (pages/home.py's form, the same fields).
        context["rematch_form"] = RematchForm(
            **vars(SetupForm.from_setup(view.setup)), plays=list(rematch_players(view))
        )
        context.update(variants=variant_choices(), specs=HOUSE_RULE_SPECS)
    return context
