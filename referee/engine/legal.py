"""What is possible now, so the UI can offer exactly the legal moves and say why the rest are not.

It asks the reducer's own gate (`card_refusals`, `refusal`) for every card, so the buttons and the rules cannot
drift apart."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Bust
from .cards import TARGET, Card
from .game import CARDS, bomb_is_answered, bomb_targets, card_refusals, refusal
from .state import GameState, Status
from .words import N_, Sentence


@dataclass(frozen=True)
class CardOption:
    """One card button: may it be played now, and if not, why not."""

    card: Card
    allowed: bool
    reason: Sentence | None = None
    """Why not, in English as a str; a face words it in the phone's language (engine/words.py)."""
    busts: bool = False
    """Playing it counts as a bust (house rule over_21=bust)."""


@dataclass(frozen=True)
class Legal:
    """The moves open to the table right now."""

    player: str | None
    cards: tuple[CardOption, ...]
    can_bust: bool
    bust_reason: Sentence | None
    bomb_answerers: tuple[str, ...]
    """Who would have to answer a Bomb with a 0 (empty when a Bomb would not be answered)."""
    tiebreak: tuple[str, ...]
    """Players whose hand totals the tie-break still needs."""


def legal_actions(state: GameState) -> Legal:
    """Return every card's status, whether "Can't play" is possible, and who answers a Bomb."""
    current = state.current_player
    if state.status is not Status.PLAYING or current is None:
        tied = tuple(state.players[seat].name for seat in state.tied if state.players[seat].hand > 0)
        over = state.status is Status.FINISHED
        reason = Sentence(N_("The game is over.") if over else N_("Settle the tie-break first."))
        return Legal(
            player=None,
            cards=tuple(CardOption(card, False, reason) for card in Card),
            can_bust=False,
            bust_reason=reason,
            bomb_answerers=(),
            tiebreak=tied,
        )
    options = []
    for card, refused in zip(CARDS, card_refusals(state, current.name), strict=True):
        number = card.number
        busts = refused is None and number is not None and state.total + number > TARGET
        options.append(CardOption(card, refused is None, None if refused is None else refused.message, busts))
    bust_refused = refusal(state, Bust(current.name))
    assert state.current is not None
    answerers: tuple[str, ...] = ()
    if bomb_is_answered(state, state.current):
        answerers = tuple(state.players[seat].name for seat in bomb_targets(state, state.current))
    return Legal(
        player=current.name,
        cards=tuple(options),
        can_bust=bust_refused is None,
        bust_reason=None if bust_refused is None else bust_refused.message,
        bomb_answerers=answerers,
        tiebreak=(),
    )
