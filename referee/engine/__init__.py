"""The pure 5 Alive referee engine: `apply(state, action) -> state`, no I/O, clock or randomness."""

from .actions import Action, Bust, Leave, Play, SetHand, TieBreak
from .cards import DECK_COUNTS, DECK_SIZE, HAND_SIZE, LIVES, TARGET, WILD_CARDS, Card, highest_hand_value
from .errors import EngineError, InvalidSetup, Refused, RefusedAt
from .events import Event, EventKind
from .game import apply, bomb_targets, check, refusal
from .history import History, replay
from .house_rules import HOUSE_RULE_SPECS, SPECS_BY_NAME, HouseRules, HouseRuleSpec, Reading, reading_brief
from .legal import CardOption, Legal, legal_actions
from .narrate import describe, join_names, key_rule, narration, taken_back, unusual_rule, winners_text
from .sanity import CERTAIN_MOST, DeckWarning, warnings
from .setup import MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS, MIN_TEAM_PLAYERS, make_setup, new_game, stored_setup
from .state import GameState, Player, Setup, Status, Team, Variant, name_key
from .turns import CLOCKWISE, COUNTERCLOCKWISE, next_seat, seats_after

__all__ = [
    "CERTAIN_MOST",
    "CLOCKWISE",
    "COUNTERCLOCKWISE",
    "DECK_COUNTS",
    "DECK_SIZE",
    "HAND_SIZE",
    "HOUSE_RULE_SPECS",
    "LIVES",
    "TARGET",
    "WILD_CARDS",
    "SPECS_BY_NAME",
    "Action",
    "Bust",
    "Card",
    "DeckWarning",
    "CardOption",
    "EngineError",
    "Event",
    "EventKind",
    "GameState",
    "History",
    "HouseRuleSpec",
    "HouseRules",
    "InvalidSetup",
    "Leave",
    "Legal",
    "Play",
    "Player",
    "Reading",
    "Refused",
    "RefusedAt",
    "SetHand",
    "Setup",
    "Status",
    "Team",
    "TieBreak",
    "Variant",
    "apply",
    "bomb_targets",
    "check",
    "highest_hand_value",
    "describe",
    "join_names",
    "key_rule",
    "narration",
    "legal_actions",
    "make_setup",
    "name_key",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MIN_TEAM_PLAYERS",
    "new_game",
    "stored_setup",
    "reading_brief",
    "next_seat",
    "refusal",
    "replay",
    "seats_after",
    "taken_back",
    "unusual_rule",
    "winners_text",
    "warnings",
]
