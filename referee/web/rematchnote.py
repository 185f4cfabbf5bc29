"""What a rematch changed from the game before it, in words: the new table's note until its first card (the
phones' board, the table display, the API's `rematch_note`) and the old table's "A rematch has started" line.

A rematch's table keeps the setup of the game it follows (`TableView.previous_setup`), so what differs is read
from the two setups alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import HOUSE_RULE_SPECS, Setup, Variant, reading_brief
from ..engine.setup import TEAM_NAMES
from ..engine.words import N_, N_plural, Sentence, names_said
from ..rulebook import switch_applies
from ..service.tableview import TableView

# A game's kind in a few words (the home page's labels say more than a sentence about changes needs).
VARIANT_WORDS = {
    Variant.STANDARD: N_("a Standard game (the last player with a life wins)"),
    Variant.SUDDEN_DEATH: N_("a Sudden Death game (it ends as soon as a player loses their last life)"),
    Variant.TEAMS: N_("a team game"),
}
VARIANT_BRIEF = {
    Variant.STANDARD: N_("a Standard game"),
    Variant.SUDDEN_DEATH: N_("a Sudden Death game"),
    Variant.TEAMS: N_("a team game"),
}


def _listed(parts: Sequence[str], joined_by: str) -> Sentence:
    """Changes said one after another ("Cy starts; a team game"), each worded in the phone's language; `joined_by`
    is a marked template of two ("%(first)s; %(next)s"), so a language may set its own punctuation."""
    said = Sentence("%(name)s", name=parts[0])
    for part in parts[1:]:
        said = Sentence(joined_by, first=said, next=part)
    return said


# The full changes are said with semicolons between, the brief ones with commas.
SEMICOLON = N_("%(first)s; %(next)s")
COMMA = "%(first)s, %(next)s"


@dataclass(frozen=True)
class Changes:
    """What a rematch changed from the game before it: each change in full and in brief, each a Sentence (its
    English, and the phone's language where a page words it)."""

    full: tuple[str, ...]
    brief: tuple[str, ...]
    who: tuple[str, ...] = ()
    """Who is not playing and who joins, in full. Not said to be the host's doing: leaving out a player who left
    is what every phone's plain Rematch does."""
    who_brief: tuple[str, ...] = ()

    def note(self) -> Sentence | None:
        """The new table's sentence ("New game. Cy is not playing. Changed by the host: Dee starts; ..."), None if
        nothing changed."""
        if self.who and self.full:
            both = N_("New game. %(who)s. Changed by the host: %(changes)s.")
            return Sentence(both, who=_listed(self.who, SEMICOLON), changes=_listed(self.full, SEMICOLON))
        if self.who:
            return Sentence(N_("New game. %(who)s."), who=_listed(self.who, SEMICOLON))
        if self.full:
            return Sentence(N_("New game. Changed by the host: %(changes)s."), changes=_listed(self.full, SEMICOLON))
        return None

    def started(self) -> Sentence:
        """The old table's line: "A rematch has started without Cy, changed by the host: Dee starts, ..." (or the
        same game)."""
        if self.who_brief and self.brief:
            both = N_("A rematch has started %(who)s, changed by the host: %(changes)s.")
            return Sentence(both, who=_listed(self.who_brief, COMMA), changes=_listed(self.brief, COMMA))
        if self.who_brief:  # "without Bob, with Eve"
            return Sentence(N_("A rematch has started %(who)s."), who=_listed(self.who_brief, COMMA))
        if self.brief:
            host = N_("A rematch has started, changed by the host: %(changes)s.")
            return Sentence(host, changes=_listed(self.brief, COMMA))
        return Sentence(N_("A rematch has started with the same settings."))


def starter(setup: Setup) -> str:
    """Who plays first (a setup stored before the starter was always named starts with the first seat)."""
    return setup.first_player or setup.players[0]


def _teams(setup: Setup) -> Sentence:
    """The teams as a family says them: "Ann and Cy (Team A) against Bob and Dee (Team B)"."""
    sides = [
        Sentence(N_("%(names)s (%(team)s)"), names=names_said(team), team=Sentence(name))
        for name, team in zip(TEAM_NAMES, setup.teams, strict=False)
    ]
    if len(sides) < 2:
        return Sentence("%(name)s", name=sides[0] if sides else "")
    return Sentence(N_("%(first)s against %(second)s"), first=sides[0], second=sides[1])


def team_pairs(setup: Setup) -> set[frozenset[str]]:
    """The teams as sets of players (swapping the teams' names changes nothing)."""
    return {frozenset(team) for team in setup.teams}


def changes(old: Setup, new: Setup) -> Changes:
    """What `new` changes from `old`: who plays, the seats, the starter, the kind of game, the teams, each house
    rule."""
    full: list[str] = []
    brief: list[str] = []
    who: list[str] = []
    who_brief: list[str] = []
    gone = [name for name in old.players if name not in new.players]
    added = [name for name in new.players if name not in old.players]
    if gone:
        not_playing = N_plural("%(names)s is not playing", "%(names)s are not playing")
        who.append(Sentence(not_playing, names=names_said(gone), count=len(gone)))
        who_brief.append(Sentence(N_("without %(names)s"), names=names_said(gone)))
    if added:
        joining = N_plural("%(names)s joins the game", "%(names)s join the game")
        who.append(Sentence(joining, names=names_said(added), count=len(added)))
        who_brief.append(Sentence(N_("with %(names)s"), names=names_said(added)))
    # The app's turn order is the order of the seats: players who sit differently must move to match it.
    stayed = [name for name in new.players if name in old.players]
    if stayed != [name for name in old.players if name in new.players]:
        full.append(Sentence(N_("new seats, in the order of play: %(order)s"), order=", ".join(new.players)))
        brief.append(Sentence(N_("new seats")))
    if starter(new) != starter(old):
        full.append(Sentence(N_("%(name)s starts"), name=starter(new)))
        brief.append(Sentence(N_("%(name)s starts"), name=starter(new)))
    if new.variant is not old.variant:
        game = Sentence(VARIANT_WORDS[new.variant])
        if new.variant is Variant.TEAMS:
            game = Sentence(N_("%(game)s: %(teams)s"), game=game, teams=_teams(new))
        full.append(game)
        brief.append(Sentence(VARIANT_BRIEF[new.variant]))
    elif team_pairs(new) != team_pairs(old):  # the same pairs under swapped names is the same game
        full.append(Sentence(N_("new teams: %(teams)s"), teams=_teams(new)))
        brief.append(Sentence(N_("new teams")))
    old_rules, new_rules = old.house_rules.as_dict(), new.house_rules.as_dict()
    # Only what the new game can meet: a team question changed on the form and left behind when the host went
    # back to Standard (the form then hides it) is no change at that table.
    changed = [
        spec.name
        for spec in HOUSE_RULE_SPECS
        if new_rules[spec.name] != old_rules[spec.name] and switch_applies(spec.name, new.house_rules, new.variant)
    ]
    full.extend(Sentence(reading_brief(name, new_rules[name])) for name in changed)
    if changed:
        brief.append(Sentence(N_plural("a house rule", "%(count)s house rules"), count=len(changed)))
    return Changes(tuple(full), tuple(brief), tuple(who), tuple(who_brief))


def rematch_note(view: TableView) -> Sentence | None:
    """The new table's note ("New game. Changed by the host: ..."), until its first card; None otherwise.

    Only until the first card: after it, the game speaks for itself (and the board stays cheap to draw). An
    Undo of that card brings it back, as the table is then again as the rematch started it.
    """
    if view.previous_setup is None or view.history.active:
        return None
    return changes(view.previous_setup, view.setup).note()
