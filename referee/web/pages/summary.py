"""What a phone says about the table beyond its numbers: whose phone it is, what just happened, who lost a life."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import Card, EventKind, GameState, Play, Status, taken_back
from ...engine.words import N_, N_plural, Sentence, names_said
from ...service import DeviceRow, moved_note
from ...service.tableview import TableView
from ..i18n import worded
from .labels import label_by, line_said


@dataclass(frozen=True)
class Identity:
    """Who this phone is at the table ("You're Bob"), and whether it is that player's turn."""

    player: str | None
    label: str
    your_turn: bool
    moved: str | None = None
    """Why this phone only watches, if another phone took its seat over ("Bob is on another phone now: …")."""
    left: str | None = None
    """What this phone's player is told once they have left the game, so their phone does not look still in it."""


@dataclass(frozen=True)
class Strip:
    """The one-line "what just happened" at the top of every phone."""

    text: str
    """What happened, in this phone's language."""
    label: str
    """What the line is: "Just now", or "Undone by Host" and "Redone by Host" after Undo and Redo (the buttons'
    words), in this phone's language."""
    losses: tuple[Loss, ...]
    """Who lost lives with the last action, each player or team once, in the order they lost them."""
    out: tuple[str, ...]
    """Who was eliminated by the last action."""
    you_lost: Loss | None
    """What the last action cost this phone's player (or their team), if anything."""
    rule: str | None = None
    """The rulebook entry behind an unusual turn of play (narrate.UNUSUAL_EVENTS), for the line's "Why?" link."""
    kind: str = "played"
    """What the newest change was, whatever the language: "played" (an action), "undone" or "redone"."""
    card: Card | None = None
    """The card the last action laid on the discard pile, drawn beside the line (templates/_card.html); None when
    it laid none (a "Can't play", a Fix, an Undo)."""


@dataclass(frozen=True)
class TieBreakNote:
    """What a tie-break waits for, said by the phones' banner and the table display for as long as it lasts,
    whatever the newest log line is (a hand Fix entered during the tie-break must not hide it)."""

    headline: str
    short: str
    """A few words for the table display, read from across the table ("Ann and Bob are tied")."""
    who: str
    """Who is in it: the tied players ("Ann and Bob are tied, with 2 lives each."), or both teams."""
    how: str
    """What each player does to settle it."""
    rule: str
    """The rulebook entry behind it (the "Why?" link)."""
    groups: tuple[TieBreakGroup, ...]
    """The tied seats as the form asks for their totals: one group per team, or one group without a name."""


@dataclass(frozen=True)
class TieBreakGroup:
    """Tied seats whose totals are added up together: a team's (named), or every tied player's (no name)."""

    team: str | None
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Loss:
    """Lives one player (or team) lost to one action, and how many they have left after it."""

    name: str
    lives: int
    left: int


def identity(view: TableView, device: DeviceRow | None) -> Identity | None:
    """Say who this phone is; None for a phone that never joined (it sees the table as a visitor)."""
    if device is None or device.revoked:
        return None
    state = view.state
    if device.player:
        current = state.current_player
        your_turn = state.status is Status.PLAYING and current is not None and current.name == device.player
        seat = state.seat_of(device.player)
        left = seat is not None and state.players[seat].left
        # Once a rematch follows, this game changes no more: no Undo brings anyone back.
        if not left:
            note = None
        elif view.rematch_code:
            note = worded(N_("You left this game before it ended."))
        else:
            note = worded(N_("You've left this game: this phone still follows it. Undo brings you back."))
        return Identity(
            device.player, worded(Sentence(N_("You're %(name)s"), name=device.player)), your_turn, left=note
        )
    labels = {"host": N_("You're the host"), "watcher": N_("You're watching")}
    moved = moved_note(device, view.setup.players)
    label = worded(labels.get(device.role, N_("You're keeping score")))
    return Identity(None, label, False, None if moved is None else worded(moved))


def _team_of(state: GameState, name: str) -> str | None:
    seat = state.seat_of(name)
    if seat is None:
        return None
    team = state.players[seat].team
    return None if team is None else state.teams[team].name


def strip(view: TableView, device: DeviceRow | None) -> Strip | None:
    """The last thing that happened and what it cost; None before the first card."""
    changed = view.last_undo_or_redo
    if changed is not None:
        # The newest change was Undo or Redo: say so, with what it took back or put back. After an Undo the
        # state's events are an older action's, so no lives are counted here (the players' rows show them).
        # The phone that did it, by its label in this phone's language ("by Host": "vom Gastgeber").
        by_said = label_by(changed.status_by, view.setup.players) if changed.status_by else ""
        if changed.undone:
            # An Undo always takes back the newest action that counted: now the first of the undone tail.
            history = view.history
            undone = history.actions[len(history.active)]
            label = Sentence(N_("Undone %(by)s"), by=by_said) if by_said else Sentence(N_("Undone"))
            return Strip(worded(taken_back(undone, view.state)), worded(label), (), (), None, kind="undone")
        # A Redo's state carries its action's events again: who it put out is said as after the card itself.
        label = Sentence(N_("Redone %(by)s"), by=by_said) if by_said else Sentence(N_("Redone"))
        return Strip(
            line_said(changed),
            worded(label),
            _losses(view.state),
            _out(view.state),
            None,
            changed.note_rule,
            kind="redone",
            card=_card_laid(view),
        )
    latest = next((entry for entry in reversed(view.log) if not entry.undone), None)
    if latest is None:
        return None
    state = view.state
    losses = _losses(state)
    out = _out(state)
    you_lost = None
    if device is not None and device.player:
        mine = {device.player, _team_of(state, device.player)}
        you_lost = next((loss for loss in losses if loss.name in mine), None)
    return Strip(
        line_said(latest), worded(N_("Just now")), losses, out, you_lost, latest.note_rule, card=_card_laid(view)
    )


def _card_laid(view: TableView) -> Card | None:
    """The card the newest action that counts laid on the discard pile: a card played, not one that could not be."""
    history = view.history
    # Indexed rather than history.active[-1]: that slices the whole log, at every board drawn.
    count = len(history.actions) - history.undone
    action = history.actions[count - 1] if count > 0 else None
    return action.card if isinstance(action, Play) else None


def _out(state: GameState) -> tuple[str, ...]:
    """Who the last action put out of the game."""
    return tuple(event.player for event in state.events if event.kind is EventKind.ELIMINATED and event.player)


def _losses(state: GameState) -> tuple[Loss, ...]:
    """The last action's lives lost, one `Loss` per player or team: a Bomb that was someone's last card costs
    a player two (no 0, then the round's end), and "Dee −2 ♥" says it better than "Dee −1 ♥, Dee −1 ♥"."""
    lost: dict[str, Loss] = {}
    for event in state.events:
        if event.kind is EventKind.LOST_LIFE and event.player:
            # The engine names the player; in the team game the life is their team's (1994 rules, Team play).
            name = _team_of(state, event.player) or event.player
            before = lost.get(name)
            left = event.value if event.value is not None else 0
            lost[name] = Loss(name, (before.lives if before else 0) + 1, left)
    return tuple(lost.values())


# What settles equal totals too (house rule tiebreak_tie), said before the totals are entered: otherwise a table
# that chose "fewest cards" would learn so only from the result.
LEVEL_TOO = {
    "shared": N_("Equal totals share the win."),
    "fewest_cards": N_("Equal totals: the fewest cards wins (still equal, they share the win)."),
}


def tiebreak_note(state: GameState) -> TieBreakNote | None:
    """Say who is in the tie-break and how it is settled; None unless the game waits for one."""
    if state.status is not Status.TIEBREAK:
        return None
    level = Sentence(LEVEL_TOO[state.house_rules.tiebreak_tie])
    if state.teams:
        # Teams (house rule teams_both_out, "together"): every player counts, and the totals are added per team.
        teams = [
            Sentence(
                "%(team)s (%(names)s)", team=team.name, names=names_said([state.players[s].name for s in team.seats])
            )
            for team in state.teams
        ]
        how = N_(
            "Every player adds up the number cards left in their hand (wild cards count nothing). "
            "The team with the lower total wins. %(level)s"
        )
        return TieBreakNote(
            worded(N_("Both teams are out at once: tie-break!")),
            worded(N_("Both teams are out")),
            worded(Sentence(N_("%(teams)s are both out."), teams=names_said(teams))),
            worded(Sentence(how, level=level)),
            "teams-both-out",
            tuple(TieBreakGroup(team.name, tuple(s for s in state.tied if s in team.seats)) for team in state.teams),
        )
    tied = [state.players[seat] for seat in state.tied]
    names = names_said([player.name for player in tied])
    lives = tied[0].lives if tied else 0
    how = N_(
        "Each tied player adds up the number cards left in their hand (wild cards count nothing). "
        "Lowest total wins. %(level)s"
    )
    # 1994 rules, Sudden Death: a tie on lives is settled by the number cards in hand, lowest wins.
    return TieBreakNote(
        worded(N_("Sudden Death tie!")),
        worded(Sentence(N_("%(names)s are tied"), names=names)),
        worded(
            Sentence(
                N_plural(
                    "%(names)s are tied, with %(count)s life each.", "%(names)s are tied, with %(count)s lives each."
                ),
                names=names,
                count=lives,
            )
        ),
        worded(Sentence(how, level=level)),
        "tiebreak",
        (TieBreakGroup(None, state.tied),),
    )
