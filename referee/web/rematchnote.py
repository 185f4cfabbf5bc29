"""What a rematch changed from the game before it, in words: the new table's note until its first card (the
phones' board, the table display, the API's `rematch_note`) and the old table's "A rematch has started" line.

A rematch's table keeps the setup of the game it follows (`TableView.previous_setup`), so what differs is read
from the two setups alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import HOUSE_RULE_SPECS, Setup, Variant, join_names, reading_brief
from ..rulebook import switch_applies
from ..service.tableview import TableView

# A game's kind in a few words (the home page's labels say more than a sentence about changes needs).
VARIANT_WORDS = {
    Variant.STANDARD: "a Standard game (the last player with a life wins)",
    Variant.SUDDEN_DEATH: "a Sudden Death game (it ends as soon as a player loses their last life)",
    Variant.TEAMS: "a team game",
}
VARIANT_BRIEF = {
    Variant.STANDARD: "a Standard game",
    Variant.SUDDEN_DEATH: "a Sudden Death game",
    Variant.TEAMS: "a team game",
}


@dataclass(frozen=True)
class Changes:
    """What a rematch changed from the game before it: each change in full and in brief."""

    full: tuple[str, ...]
    brief: tuple[str, ...]
    who: tuple[str, ...] = ()
    """Who is not playing and who joins, in full. Not said to be the host's doing: leaving out a player who left
    is what every phone's plain Rematch does."""
    who_brief: tuple[str, ...] = ()

    def note(self) -> str | None:
        """The new table's sentence ("New game. Cy is not playing. Changed by the host: Dee starts; ..."), None if
        nothing changed."""
        said = ["New game."]
        if self.who:
            said.append("; ".join(self.who) + ".")
        if self.full:
            said.append("Changed by the host: " + "; ".join(self.full) + ".")
        return " ".join(said) if len(said) > 1 else None

    def started(self) -> str:
        """The old table's line: "A rematch has started without Cy, changed by the host: Dee starts, ..." (or the
        same game)."""
        if not self.brief and not self.who_brief:
            return "A rematch has started with the same settings."
        who = " " + ", ".join(self.who_brief) if self.who_brief else ""  # "without Bob, with Eve"
        host = ", changed by the host: " + ", ".join(self.brief) if self.brief else ""
        return f"A rematch has started{who}{host}."


def starter(setup: Setup) -> str:
    """Who plays first (a setup stored before the starter was always named starts with the first seat)."""
    return setup.first_player or setup.players[0]


def _teams(setup: Setup) -> str:
    """The teams as a family says them: "Ann and Cy (Team A) against Bob and Dee (Team B)"."""
    return " against ".join(f"{join_names(team)} (Team {side})" for side, team in zip("AB", setup.teams, strict=False))


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
        who.append(f"{join_names(gone)} {'is' if len(gone) == 1 else 'are'} not playing")
        who_brief.append(f"without {join_names(gone)}")
    if added:
        who.append(f"{join_names(added)} {'joins' if len(added) == 1 else 'join'} the game")
        who_brief.append(f"with {join_names(added)}")
    # The app's turn order is the order of the seats: players who sit differently must move to match it.
    stayed = [name for name in new.players if name in old.players]
    if stayed != [name for name in old.players if name in new.players]:
        full.append(f"new seats, in the order of play: {', '.join(new.players)}")
        brief.append("new seats")
    if starter(new) != starter(old):
        full.append(f"{starter(new)} starts")
        brief.append(f"{starter(new)} starts")
    if new.variant is not old.variant:
        teams = f": {_teams(new)}" if new.variant is Variant.TEAMS else ""
        full.append(VARIANT_WORDS[new.variant] + teams)
        brief.append(VARIANT_BRIEF[new.variant])
    elif team_pairs(new) != team_pairs(old):  # the same pairs under swapped names is the same game
        full.append(f"new teams: {_teams(new)}")
        brief.append("new teams")
    old_rules, new_rules = old.house_rules.as_dict(), new.house_rules.as_dict()
    # Only what the new game can meet: a team question changed on the form and left behind when the host went
    # back to Standard (the form then hides it) is no change at that table.
    changed = [
        spec.name
        for spec in HOUSE_RULE_SPECS
        if new_rules[spec.name] != old_rules[spec.name] and switch_applies(spec.name, new.house_rules, new.variant)
    ]
    full.extend(reading_brief(name, new_rules[name]) for name in changed)
    if changed:
        brief.append("a house rule" if len(changed) == 1 else f"{len(changed)} house rules")
    return Changes(tuple(full), tuple(brief), tuple(who), tuple(who_brief))


def rematch_note(view: TableView) -> str | None:
    """The new table's note ("New game. Changed by the host: ..."), until its first card; None otherwise.

    Only until the first card: after it, the game speaks for itself (and the board stays cheap to draw). An
    Undo of that card brings it back, as the table is then again as the rematch started it.
    """
    if view.previous_setup is None or view.history.active:
        return None
    return changes(view.previous_setup, view.setup).note()
