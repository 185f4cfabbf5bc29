"""Plain sentences for the log ("Bob played 7: total 18. Cy's turn.") and the rule behind each."""

from __future__ import annotations

from .actions import Action, Bust, Play, SetHand, TieBreak
from .cards import Card
from .state import COUNTERCLOCKWISE, Event, GameState, Status, Variant

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
        "bomb_last_card",
        "bomb_not_answered",
        "zero_emptied_hand",
        "drew_after_answer",
        "last_card_effect_void",
        "two_left",
        "skip_again",
        "reverse_as_pass",
        "reshuffled",
        "draw_pile_empty",
        "tiebreak",
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
    parts: list[str] = []
    events = after.events
    match action:
        case Play(player=player, card=card) if not any(event.kind == "bust" for event in events):
            name = before.players[before.seat_of(player) or 0].name
            line = f"{name} played {card.label}"
            if any(event.kind == "last_card_effect_void" for event in events):
                pass  # a wild as last card only ends the round: no new total to report
            elif card.is_number or card in (Card.EQ21, Card.EQ10, Card.EQ0):
                line += f": total {before.total + (card.number or 0) if card.is_number else _set_total(card)}"
            elif card in (Card.BOMB, Card.REDEAL):
                line += ": total 0"
            parts.append(line + ".")
        case SetHand(player=player, cards=cards):
            name = before.players[before.seat_of(player) or 0].name
            parts.append(f"Correction: {name} holds {cards} {'card' if cards == 1 else 'cards'}.")
        case TieBreak(values=values):
            entered = ", ".join(f"{name} {value}" for name, value in values)
            parts.append(f"Tie-break totals: {entered or 'all hands empty'}.")
        case Bust() | Play():
            pass

    answered = [event.player for event in events if event.kind == "answered_zero" and event.player]
    missed = [event.player for event in events if event.kind == "no_zero" and event.player]
    drew = [event for event in events if event.kind == "drew"]
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

    for event in events:
        sentence = _sentence(after, event)
        if sentence:
            parts.append(sentence)

    if after.status is Status.PLAYING and after.current_player is not None:
        parts.append(f"{after.current_player.name}'s turn.")
    return " ".join(parts)


def _set_total(card: Card) -> int:
    return {Card.EQ21: 21, Card.EQ10: 10, Card.EQ0: 0}[card]


def _sentence(state: GameState, event: Event) -> str | None:
    """Return the sentence for one event, or None when the summary lines already said it."""
    who = event.player or ""
    match event.kind:
        case "bust":
            tried = f" (a {event.value} would go over 21)" if event.value is not None else ""
            return f"{who} can't play{tried}: the total goes back to 0."
        case "lost_life":
            team = _team_of(state, event.player)
            left = f"{event.value} {'life' if event.value == 1 else 'lives'} left"
            return f"{team} loses a life ({left})." if team else f"{who} loses a life ({left})."
        case "eliminated":
            return f"{who} is out of the game."
        case "two_left":
            return "Two players left: Reverse now acts as Pass Me By and Skip gives another turn."
        case "reversed":
            way = "counterclockwise" if event.value == COUNTERCLOCKWISE else "clockwise"
            return f"Play now goes {way}."
        case "reverse_as_pass":
            return "With two players, Reverse acts as Pass Me By."
        case "skipped":
            return f"{who} misses a turn."
        case "skip_again":
            return f"With two players, {who} plays again."
        case "play_starts_left":
            return f"After a deal, play starts on the dealer's left: {who}."
        case "redealt":
            return f"{who} gathers all {event.value} cards in hand and deals them out again."
        case "reshuffled":
            return f"The draw pile ran out: the discard pile (but its top card) is the new draw pile of {event.value}."
        case "draw_pile_empty":
            return "The draw pile is empty, so no more cards are drawn."
        case "bomb_not_answered":
            return "At this table a Bomb as last card is not answered."
        case "bomb_last_card":
            return "The Bomb was answered; now the round ends."
        case "drew_after_answer":
            return f"That 0 was {who}'s last card: {who} draws one and plays on."
        case "zero_emptied_hand":
            return f"That 0 was {who}'s last card, so {who} has gone out."
        case "last_card_effect_void":
            return "It was the last card, so its effect does not count."
        case "went_out":
            return f"{who} has no cards left: round over."
        case "new_round":
            return f"Round {event.value}: {who} deals."
        case "tiebreak":
            tied = _join([state.players[seat].name for seat in state.tied])
            return f"Sudden Death tie: {tied} add up the number cards in their hands; lowest wins."
        case "game_over":
            winners = _join(list(state.winners))
            return f"{winners} {'wins' if len(state.winners) == 1 else 'share the win'}!"
    return None
