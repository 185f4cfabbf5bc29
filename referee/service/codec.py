"""JSON in and out: actions and setups as the API and the event log write them, and the API's State."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import (
    CLOCKWISE,
    COUNTERCLOCKWISE,
    Action,
    Bust,
    Card,
    GameState,
    Leave,
    Play,
    SetHand,
    Setup,
    TieBreak,
    stored_setup,
    warnings,
)
from ..engine.words import N_
from .errors import Invalid

# Names are stored as written (not \u-escaped); one encoder, since json.dumps with options builds a new one
# per call, a measurable part of a tap (docs/performance.md).
_STORED_JSON = json.JSONEncoder(ensure_ascii=False)


@dataclass(frozen=True)
class Undo:
    """Take back the newest action."""


@dataclass(frozen=True)
class Redo:
    """Put back the action undone last."""


Command = Action | Undo | Redo

CARD_NAMES = tuple(card.value for card in Card)
# The way play goes round the table, as the API says it.
DIRECTIONS = {CLOCKWISE: "clockwise", COUNTERCLOCKWISE: "counterclockwise"}
ACTION_FIELDS: dict[str, set[str]] = {
    "play": {"player", "card", "zeros"},
    "bust": {"player", "card"},
    "hand": {"player", "cards"},
    "undo": set(),
    "redo": set(),
    "tiebreak": {"values"},
    "leave": {"player"},
}


def _text(body: Mapping[str, Any], field: str) -> str:
    value = body.get(field)
    if not isinstance(value, str) or not value.strip():
        raise Invalid(
            "bad_field", N_("The field %(field_name)s must be a player's name."), field=field, field_name=repr(field)
        )
    return value.strip()


def _card(value: object) -> Card:
    try:
        return Card(value)
    except ValueError:
        message = N_("Unknown card %(card)s; cards are %(cards)s.")
        raise Invalid(
            "bad_card", message, field="card", card=repr(str(value)[:20]), cards=", ".join(CARD_NAMES)
        ) from None


def _play(body: Mapping[str, Any]) -> Command:
    card = _card(body.get("card"))
    zeros = body.get("zeros", [])
    if not isinstance(zeros, list) or not all(isinstance(name, str) for name in zeros):
        raise Invalid("bad_field", N_("zeros must be a list of player names."), field="zeros")
    if zeros and card is not Card.BOMB:
        raise Invalid("bad_field", N_("zeros only goes with a Bomb."), field="zeros")
    return Play(_text(body, "player"), card, tuple(name.strip() for name in zeros))


def _bust(body: Mapping[str, Any]) -> Command:
    card_value = body.get("card")
    return Bust(_text(body, "player"), None if card_value is None else _card(card_value))


def _hand(body: Mapping[str, Any]) -> Command:
    cards = body.get("cards")
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
        # A negative count is malformed, not a refused correction: 400, not 422.
        raise Invalid("bad_field", N_("cards must be a whole number, 0 or more."), field="cards")
    return SetHand(_text(body, "player"), cards)


def _tiebreak(body: Mapping[str, Any]) -> Command:
    values = body.get("values")
    if not isinstance(values, Mapping) or not all(
        isinstance(name, str) and isinstance(value, int) and not isinstance(value, bool)
        for name, value in values.items()
    ):
        raise Invalid("bad_field", N_("values must map each tied player's name to a whole number."), field="values")
    return TieBreak(tuple((name, value) for name, value in values.items()))


# Each action type: the fields it may carry and how to read it.
_PARSERS: dict[str, Callable[[Mapping[str, Any]], Command]] = {
    "play": _play,
    "bust": _bust,
    "hand": _hand,
    "undo": lambda _body: Undo(),
    "redo": lambda _body: Redo(),
    "tiebreak": _tiebreak,
    "leave": lambda body: Leave(_text(body, "player")),
}


def command_from_json(body: object) -> Command:
    """Parse one action as the API takes it; raise Invalid saying what is wrong."""
    if not isinstance(body, Mapping):
        raise Invalid("bad_json", N_("Send one action as a JSON object."))
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise Invalid(
            "bad_type", N_("The action type must be one of: %(types)s."), field="type", types=", ".join(ACTION_FIELDS)
        )
    unknown = set(body) - ACTION_FIELDS[kind] - {"type", "expected_version"}
    if unknown:
        name = sorted(unknown)[0][:30]
        raise Invalid(
            "bad_field", N_("A %(kind)s action has no field %(name)s."), field=name, kind=kind, name=repr(name)
        )
    return _PARSERS[kind](body)


def expected_version(body: object) -> int | None:
    """Return the request's expected_version, if it has one."""
    if not isinstance(body, Mapping) or body.get("expected_version") is None:
        return None
    value = body["expected_version"]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        # A version counts entries, so it is never negative: malformed (400), not stale (a 409 was once answered).
        raise Invalid("bad_field", N_("expected_version must be a whole number, 0 or more."), field="expected_version")
    return value


def action_to_json(action: Action) -> str:
    """Serialise an engine action for the event log (the API's own shape)."""
    match action:
        case Play(player=player, card=card, zeros=zeros):
            body: dict[str, Any] = {"type": "play", "player": player, "card": card.value}
            if zeros:
                body["zeros"] = list(zeros)
        case Bust(player=player, card=card):
            body = {"type": "bust", "player": player}
            if card is not None:
                body["card"] = card.value
        case SetHand(player=player, cards=cards):
            body = {"type": "hand", "player": player, "cards": cards}
        case TieBreak(values=values):
            body = {"type": "tiebreak", "values": dict(values)}
        case Leave(player=player):
            body = {"type": "leave", "player": player}
    return _STORED_JSON.encode(body)


def action_from_json(text: str) -> Action:
    """Read back an action stored by `action_to_json`."""
    command = command_from_json(json.loads(text))
    assert not isinstance(command, Undo | Redo)
    return command


def setup_to_json(setup: Setup) -> str:
    """Serialise a table's setup for storage."""
    return _STORED_JSON.encode(
        {
            "players": list(setup.players),
            "variant": setup.variant.value,
            "teams": [list(team) for team in setup.teams],
            "first_player": setup.first_player,
            "house_rules": setup.house_rules.as_dict(),
        }
    )


def setup_from_json(text: str) -> Setup:
    """Read back a stored setup."""
    data = json.loads(text)
    return stored_setup(data["players"], data["variant"], data["teams"], data["first_player"], data["house_rules"])


def _players_json(state: GameState) -> list[dict[str, Any]]:
    """The State's players: each one's lives, hand, and whether they are out (knocked out, or `left`)."""
    return [
        {
            "name": player.name,
            "lives": player.lives,
            "hand": player.hand,
            "out": player.out,
            "left": player.left,
            "team": None if player.team is None else state.teams[player.team].name,
        }
        for player in state.players
    ]


def state_json(
    code: str,
    version: int,
    state: GameState,
    *,
    can_undo: bool,
    can_redo: bool,
    rematch_note: str | None = None,
    rematch: str | None = None,
) -> dict[str, Any]:
    """Return the API's State object for a table; referee/web/api/schema.py's State documents each field."""
    teams = state.teams
    current = state.current_player
    dealer = None if state.dealer is None else state.players[state.dealer].name
    return {
        "code": code,
        "version": version,
        "status": state.status.value,
        "variant": state.variant.value,
        "house_rules": state.house_rules.as_dict(),
        "round": state.round,
        "total": state.total,
        "direction": DIRECTIONS[state.direction],
        "current": None if current is None else current.name,
        "dealer": dealer,
        "players": _players_json(state),
        "teams": [
            {"name": team.name, "players": [state.players[seat].name for seat in team.seats], "lives": team.lives}
            for team in teams
        ],
        "draw_pile": state.draw_pile,
        "winners": list(state.winners),
        "tied": [state.players[seat].name for seat in state.tied],
        "can_undo": can_undo,
        "can_redo": can_redo,
        # Deck sanity: what the last action did that no real deck allows; never a refusal.
        "warnings": [
            {
                "code": item.code,
                "message": item.message,
                "rule": item.rule,
                "card": None if item.card is None else item.card.value,
            }
            for item in warnings(state.events)
        ],
        # Added after v1 shipped (optional in the schema): what a rematch changed, until its first card, as the
        # phones' board and the table display say it (referee/web/rematchnote.py).
        "rematch_note": rematch_note,
        # Added after v1 too: a scoreboard follows the series from the finished game to the next.
        "rematch": rematch,
    }
