"""Plain sentences for the log ("Bob played 7: total 18. Cy's turn.") and the rule behind each.

This module owns the words: one sentence function per event kind (`_SENTENCES`), the summary lines
that gather several events into one ("No 0 from Cy and Dee."), and which rulings deserve a "Why?"
link or a "Rule applied" note.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action, Bust, Play, SetHand, TieBreak
from .events import Event, EventKind
from .state import COUNTERCLOCKWISE, GameState, Status, Variant

# Rulings worth a "Why?" link, most telling first: the log links the first one an action produced.
_NOTABLE_RULES = (
    "bomb-last-card",
    "zero-answer-last-card",
    "sudden-death",
    "tiebreak",
    "teams-going-out",
    "teams-bust",
    "teams-bomb",
    "teams",
    "elimination",
    "winning",
    "two-players",
    "last-card",
    "after-redeal",
    "redeal-order",
    "empty-draw-pile",
    "bust",
    "over-21",
    "bomb",
    "skip",
    "reverse",
    "draw-cards",
    "hand-correction",
    "new-round",
)

# Events after which the table page shows a small "Rule applied" note.
UNUSUAL_EVENTS = frozenset(
    {
        EventKind.BOMB_LAST_CARD,
        EventKind.BOMB_NOT_ANSWERED,
        EventKind.ZERO_EMPTIED_HAND,
        EventKind.DREW_AFTER_ANSWER,
        EventKind.LAST_CARD_EFFECT_VOID,
        EventKind.TWO_LEFT,
        EventKind.SKIP_AGAIN,
        EventKind.REVERSE_AS_PASS,
        EventKind.RESHUFFLED,
        EventKind.DRAW_PILE_EMPTY,
        EventKind.TIEBREAK,
    }
)


def key_rule(events: tuple[Event, ...]) -> str | None:
    """Return the id of the ruling that best explains what these events did, if any."""
    rules = {event.rule for event in events}
    return next((rule for rule in _NOTABLE_RULES if rule in rules), None)


def unusual_rule(events: tuple[Event, ...]) -> str | None:
    """Return the rule id of an unusual event worth a "Rule applied" note, if one happened."""
    return next((event.rule for event in events if event.kind in UNUSUAL_EVENTS and event.rule), None)


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _team_of(state: GameState, name: str | None) -> str | None:
    if name is None or state.variant is not Variant.TEAMS:
        return None
    seat = state.seat_of(name)
    team = None if seat is None else state.players[seat].team
    return None if team is None else state.teams[team].name


def describe(before: GameState, action: Action, after: GameState) -> str:
    """Return the log line for `action`, taken from `before` to `after`."""
    events = after.events
    parts = [*_action_line(before, action, events), *_summaries(events)]
    for event in events:
        sentence = _SENTENCES.get(event.kind, _nothing)(after, event)
        if sentence:
            parts.append(sentence)
    if after.status is Status.PLAYING and after.current_player is not None:
        parts.append(f"{after.current_player.name}'s turn.")
    return " ".join(parts)


def _action_line(before: GameState, action: Action, events: tuple[Event, ...]) -> list[str]:
    """The sentence saying what was done, before what it made happen."""
    kinds = {event.kind for event in events}
    match action:
        case Play(player=player, card=card) if EventKind.BUST not in kinds:
            line = f"{_name(before, player)} played {card.label}"
            if EventKind.LAST_CARD_EFFECT_VOID in kinds:
                pass  # a wild as last card only ends the round: no new total to report
            elif card.number is not None:
                line += f": total {before.total + card.number}"
            elif card.sets_total_to is not None:
                line += f": total {card.sets_total_to}"
            return [line + "."]
        case SetHand(player=player, cards=cards):
            return [f"Correction: {_name(before, player)} holds {cards} {'card' if cards == 1 else 'cards'}."]
        case TieBreak(values=values):
            entered = ", ".join(f"{name} {value}" for name, value in values)
            return [f"Tie-break totals: {entered or 'all hands empty'}."]
        case Bust() | Play():
            return []


def _name(state: GameState, player: str) -> str:
    return state.players[state.seat_of(player) or 0].name


def _summaries(events: tuple[Event, ...]) -> list[str]:
    """One line each for the draws, the 0s discarded and the 0s missing, however many players."""
    parts = []
    answered = [event.player for event in events if event.kind is EventKind.ANSWERED_ZERO and event.player]
    missed = [event.player for event in events if event.kind is EventKind.NO_ZERO and event.player]
    drew = [event for event in events if event.kind is EventKind.DREW]
    if drew:
        counts = {event.value for event in drew}
        if len(counts) == 1:
            count = counts.pop() or 0
            parts.append(f"Everyone else draws {count}." if count else "Nobody could draw.")
        else:
            parts.append(_join([f"{event.player} drew {event.value}" for event in drew]) + ".")
    if answered:
        parts.append(f"{_join(answered)} discarded a 0.")
    if missed:
        parts.append(f"No 0 from {_join(missed)}.")
    return parts


# --- one sentence per event kind (None: a summary line already said it) ------------------------

Sentence = Callable[[GameState, Event], str | None]


def _nothing(state: GameState, event: Event) -> str | None:
    return None


def _bust(state: GameState, event: Event) -> str:
    tried = f" (a {event.value} would go over 21)" if event.value is not None else ""
    return f"{event.player} can't play{tried}: the total goes back to 0."


def _lost_life(state: GameState, event: Event) -> str:
    team = _team_of(state, event.player)
    left = f"{event.value} {'life' if event.value == 1 else 'lives'} left"
    return f"{team or event.player} loses a life ({left})."


def _reversed(state: GameState, event: Event) -> str:
    way = "counterclockwise" if event.value == COUNTERCLOCKWISE else "clockwise"
    return f"Play now goes {way}."


def _tiebreak(state: GameState, event: Event) -> str:
    tied = _join([state.players[seat].name for seat in state.tied])
    return f"Sudden Death tie: {tied} add up the number cards in their hands; lowest wins."


def _game_over(state: GameState, event: Event) -> str:
    winners = _join(list(state.winners))
    return f"{winners} {'wins' if len(state.winners) == 1 else 'share the win'}!"


def _fixed(template: str) -> Sentence:
    """A sentence that only needs the event's player ({who}) and value ({value})."""
    return lambda state, event: template.format(who=event.player or "", value=event.value)


_SENTENCES: dict[EventKind, Sentence] = {
    EventKind.BUST: _bust,
    EventKind.LOST_LIFE: _lost_life,
    EventKind.ELIMINATED: _fixed("{who} is out of the game."),
    EventKind.TWO_LEFT: _fixed("Two players left: Reverse now acts as Pass Me By and Skip gives another turn."),
    EventKind.REVERSED: _reversed,
    EventKind.REVERSE_AS_PASS: _fixed("With two players, Reverse acts as Pass Me By."),
    EventKind.SKIPPED: _fixed("{who} misses a turn."),
    EventKind.SKIP_AGAIN: _fixed("With two players, {who} plays again."),
    EventKind.PLAY_STARTS_LEFT: _fixed("After a deal, play starts on the dealer's left: {who}."),
    EventKind.REDEALT: _fixed("{who} gathers all {value} cards in hand and deals them out again."),
    EventKind.RESHUFFLED: _fixed(
        "The draw pile ran out: the discard pile (but its top card) is the new draw pile of {value}."
    ),
    EventKind.DRAW_PILE_EMPTY: _fixed("The draw pile is empty, so no more cards are drawn."),
    EventKind.BOMB_NOT_ANSWERED: _fixed("At this table a Bomb as last card is not answered."),
    EventKind.BOMB_LAST_CARD: _fixed("The Bomb was answered; now the round ends."),
    EventKind.DREW_AFTER_ANSWER: _fixed("That 0 was {who}'s last card: {who} draws one and plays on."),
    EventKind.ZERO_EMPTIED_HAND: _fixed("That 0 was {who}'s last card, so {who} has gone out."),
    EventKind.LAST_CARD_EFFECT_VOID: _fixed("It was the last card, so its effect does not count."),
    EventKind.WENT_OUT: _fixed("{who} has no cards left: round over."),
    EventKind.NEW_ROUND: _fixed("Round {value}: {who} deals."),
    EventKind.TIEBREAK: _tiebreak,
    EventKind.GAME_OVER: _game_over,
}
