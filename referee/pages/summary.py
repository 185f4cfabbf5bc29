"""What a phone says about the table beyond its numbers: whose phone it is, what just happened, who lost a life."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import EventKind, GameState, Status
from ..store import DeviceRow
from ..tableview import TableView


@dataclass(frozen=True)
class Identity:
    """Who this phone is at the table ("You're Bob"), and whether it is that player's turn."""

    player: str | None
    label: str
    your_turn: bool


@dataclass(frozen=True)
class Strip:
    """The one-line "what just happened" at the top of every phone."""

    text: str
    label: str
    """What the line is: "Just now", or "Undone by Host" and "Put back by Host" after Undo and Redo."""
    losses: tuple[Loss, ...]
    """Who lost lives with the last action, each player or team once, in the order they lost them."""
    out: tuple[str, ...]
    """Who was eliminated by the last action."""
    you_lost: Loss | None
    """What the last action cost this phone's player (or their team), if anything."""


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
        return Identity(device.player, f"You're {device.player}", your_turn)
    labels = {"host": "You're the host", "watcher": "You're watching"}
    return Identity(None, labels.get(device.role, "You're keeping score"), False)


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
        by = f" by {changed.status_by}" if changed.status_by else ""
        if changed.undone:
            return Strip(changed.text, f"Undone{by}", (), (), None)
        return Strip(changed.text, f"Put back{by}", _losses(view.state), (), None)
    latest = next((entry for entry in reversed(view.log) if not entry.undone), None)
    if latest is None:
        return None
    state = view.state
    losses = _losses(state)
    out = tuple(event.player for event in state.events if event.kind is EventKind.ELIMINATED and event.player)
    you_lost = None
    if device is not None and device.player:
        mine = {device.player, _team_of(state, device.player)}
        you_lost = next((loss for loss in losses if loss.name in mine), None)
    return Strip(latest.text, "Just now", losses, out, you_lost)


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
