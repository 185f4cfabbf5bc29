"""Plain sentences for the log ("Bob played 7: total 18. Cy's turn.") and the rule behind each.

This module owns the words: one sentence function per event kind (`_SENTENCES`), the summary lines
that gather several events into one ("No 0 from Cy and Dee."), and which rulings deserve a "Why?"
link in the log, and in the "Just now" line too when the turn of play was an unusual one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .actions import Action, Bust, Leave, Play, SetHand, TieBreak
from .cards import Card
from .events import Event, EventKind
from .sanity import warning
from .state import COUNTERCLOCKWISE, GameState, Status, Variant

# Rulings worth a "Why?" link, most telling first: the log links the first one an action produced.
_NOTABLE_RULES = (
    "card-count-warning",
    "bomb-last-card",
    "zero-answer-last-card",
    "sudden-death",
    "tiebreak",
    "teams-both-out",
    "teams-going-out",
    "teams-bust",
    "teams-bomb",
    "teams",
    "elimination",
    "winning",
    "two-players",
    "player-leaves",
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

# Events after which the "Just now" line at the top of every phone links to the rule ("Why?").
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
        EventKind.BOTH_TEAMS_OUT,
        EventKind.CARD_COUNT_WARNING,
        EventKind.HAND_COUNT_WARNING,
    }
)

# What each rule a lost life is charged under means, for a log line naming every life's cause.
_LIFE_CAUSES = {
    "bomb": "no 0",
    "last-card": "round over",
    "teams-going-out": "round over",
    "bust": "bust",
    "teams-bust": "bust",
}

# Events that several players can share in one action: said once, naming them all.
_GROUPED = (EventKind.WENT_OUT, EventKind.ZERO_EMPTIED_HAND)


def key_rule(events: tuple[Event, ...]) -> str | None:
    """Return the id of the ruling that best explains what these events did, if any."""
    rules = {event.rule for event in events}
    return next((rule for rule in _NOTABLE_RULES if rule in rules), None)


# Worth a "Why?" in the "Just now" line too, but only when nothing above happened with it: when Cy's leaving leaves
# two players, the two-player rules are what the table needs next (a leave once had no "Why?").
BACKGROUND_EVENTS = frozenset({EventKind.LEFT})


def unusual_rule(events: tuple[Event, ...]) -> str | None:
    """Return the rule id of an unusual event worth a "Why?" in the "Just now" line, if one happened."""
    for kinds in (UNUSUAL_EVENTS, BACKGROUND_EVENTS):
        rule = next((event.rule for event in events if event.kind in kinds and event.rule), None)
        if rule is not None:
            return rule
    return None


def join_names(names: Sequence[str]) -> str:
    """Say names as a list is said aloud: "Bob", "Bob and Cy", "Bob, Cy and Dee"."""
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
    parts = [*_action_line(before, action, events), *_summaries(before, action, events)]
    lives = [event for event in events if event.kind is EventKind.LOST_LIFE]
    # One cause for every life lost: the sentence before says it. Several: each life names its own.
    several_causes = len({_LIFE_CAUSES.get(event.rule or "", "") for event in lives}) > 1
    said: set[EventKind] = set()
    for event in events:
        if event.kind in _GROUPED:
            if event.kind not in said:
                said.add(event.kind)
                parts.append(_grouped(event.kind, [e.player or "" for e in events if e.kind is event.kind]))
            continue
        if event.kind is EventKind.LOST_LIFE:
            if several_causes:
                if event is lives[-1]:
                    parts.append(_lives_with_causes(after, lives))
            elif event is _first_of_its_side(after, lives, event):
                parts.append(_lost_lives(after, lives, event))
            continue
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
        case Play(player=player, card=card) if EventKind.BUST in kinds and card.number is not None:
            # House rule over_21=bust: the card was laid, then handed back as a bust.
            name = _name(before, player)
            return [
                f"{name} played {card.label}: that makes {before.total + card.number}, "
                f"over 21, so it goes back to {name}."
            ]
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
            # "Hand fixed", the word of the "Fix" button it was entered with ("Correction" was lost on children).
            return [f"Hand fixed: {_name(before, player)} holds {cards} {'card' if cards == 1 else 'cards'}."]
        case TieBreak(values=values):
            entered = ", ".join(f"{name} {value}" for name, value in values)
            return [f"Tie-break totals: {entered or 'all hands empty'}."]
        case Bust() | Play() | Leave():
            return []


def _name(state: GameState, player: str) -> str:
    return state.players[state.seat_of(player) or 0].name


def _summaries(before: GameState, action: Action, events: tuple[Event, ...]) -> list[str]:
    """One line each for the draws, the 0s discarded and the 0s missing, however many players."""
    parts = []
    answered = [event.player for event in events if event.kind is EventKind.ANSWERED_ZERO and event.player]
    missed = [event.player for event in events if event.kind is EventKind.NO_ZERO and event.player]
    drew = [event for event in events if event.kind is EventKind.DREW]
    if drew:
        parts.append(_draws(drew, 2 if isinstance(action, Play) and action.card is Card.DRAW2 else 1))
    if answered:
        parts.append(f"{join_names(answered)} discarded a 0.")
    if missed:
        parts.append(f"No 0 from {join_names(missed)}.")
    return parts


def _draws(drew: list[Event], wanted: int) -> str:
    """Who draws what after a Draw card: "Everyone else draws 2.", or who goes short when the pile runs out."""
    counts = {event.value or 0 for event in drew}
    if counts == {wanted}:
        return f"{drew[0].player} draws {wanted}." if len(drew) == 1 else f"Everyone else draws {wanted}."
    if counts == {0}:
        return "Nobody could draw."
    # House rule empty_draw_pile: the draw goes round in turn order, so the last ones go short. Grouped by what
    # they got, so a six-player line stays short enough for a child to read; the next sentence says why.
    full = [event.player or "" for event in drew if (event.value or 0) >= wanted]
    some = [f"{event.player} draws only {event.value}" for event in drew if 0 < (event.value or 0) < wanted]
    none = [event.player or "" for event in drew if not event.value]
    pieces = [f"{join_names(full)} {'draws' if len(full) == 1 else 'draw'} {wanted}"] if full else []
    pieces += some
    if none:
        pieces.append(f"{join_names(none)} {'gets' if len(none) == 1 else 'get'} none")
    return "; ".join(pieces) + "."


# --- one sentence per event kind (None: a summary line already said it) ------------------------

Sentence = Callable[[GameState, Event], str | None]


def _nothing(state: GameState, event: Event) -> str | None:
    return None


def _bust(state: GameState, event: Event) -> str:
    if event.value is not None and state.house_rules.over_21 == "bust":
        return "It counts as a bust: the total goes back to 0."
    tried = f" (a {event.value} would go over 21)" if event.value is not None else ""
    return f"{event.player} can't play{tried}: the total goes back to 0."


def _grouped(kind: EventKind, names: list[str]) -> str:
    if kind is EventKind.ZERO_EMPTIED_HAND:
        if len(names) == 1:
            return f"That 0 was {names[0]}'s last card, so {names[0]} has gone out."
        return f"Those 0s were the last cards of {join_names(names)}, so they have all gone out."
    if len(names) == 1:
        return f"{names[0]} has no cards left: round over."
    return f"{join_names(names)} have no cards left: round over (once)."


def _lives_with_causes(state: GameState, lives: list[Event]) -> str:
    """ "Dee: no 0 (−1), round over (−1): 3 lives left." for each player or team, in order."""
    order: list[str] = []
    causes: dict[str, list[str]] = {}
    left: dict[str, int | None] = {}
    for event in lives:
        who = _team_of(state, event.player) or event.player or ""
        cause = _LIFE_CAUSES.get(event.rule or "", "a life")
        if who not in causes:
            order.append(who)
            causes[who] = []
        if _team_of(state, event.player) and event.rule != "teams-going-out":
            # Whose missing 0 or bust it was; the round end's life is the team's, not one player's doing.
            cause = f"{cause} ({event.player})"
        causes[who].append(f"{cause} (−1)")
        left[who] = event.value
    return " ".join(
        f"{who}: {', '.join(causes[who])}: {left[who]} {'life' if left[who] == 1 else 'lives'} left." for who in order
    )


def _bomb_last_card(state: GameState, event: Event) -> str:
    first = "The Bomb was answered" if event.value else "Nobody had a 0"
    return f"{first}, and it was {event.player}'s last card: now the round ends."


def _play_starts_left(state: GameState, event: Event) -> str:
    if state.house_rules.after_redeal == "left_clockwise":
        return f"After a deal, play starts on the dealer's left and goes clockwise: {event.player}."
    if event.value == COUNTERCLOCKWISE:
        # House rule after_redeal=left: the first player is on the left, but play keeps going counterclockwise.
        return f"After a deal, play starts on the dealer's left with {event.player}, and goes on counterclockwise."
    return f"After a deal, play starts on the dealer's left: {event.player}."


def _both_teams_out(state: GameState, event: Event) -> str:
    reading = state.house_rules.teams_both_out
    if reading == "together":
        return "One Bomb took both teams' last lives: both teams are out at once, so a tie-break decides."
    team = _team_of(state, event.player)
    if reading == "bomber_team":
        return (
            f"This Bomb would have taken both teams' last lives; at this table the bomber's team ({team}) wins, "
            "so its own lives are not taken."
        )
    return (
        "This Bomb would have taken both teams' last lives; at this table lives are taken in turn order, and "
        f"{event.player}'s took {team}'s last life first, so {team} loses."
    )


def _side(state: GameState, event: Event) -> str:
    """Whose lives an event's life came from: the player's, or in the team game their team's."""
    return _team_of(state, event.player) or event.player or ""


def _first_of_its_side(state: GameState, lives: list[Event], event: Event) -> Event:
    return next(other for other in lives if _side(state, other) == _side(state, event))


def _lost_lives(state: GameState, lives: list[Event], first: Event) -> str:
    """ "Team A loses 2 lives (3 lives left)." once for a side, however many of its players cost it one."""
    side = _side(state, first)
    theirs = [event for event in lives if _side(state, event) == side]
    value = theirs[-1].value
    left = f"{value} {'life' if value == 1 else 'lives'} left"
    lost = "a life" if len(theirs) == 1 else f"{len(theirs)} lives"
    return f"{side} loses {lost} ({left})."


def _new_round(state: GameState, event: Event) -> str:
    line = f"Round {event.value}: {event.player} deals."
    if state.direction == COUNTERCLOCKWISE:
        # Only house rule new_round_direction=keep deals a round counterclockwise: said, or a family used to
        # clockwise argues about who starts.
        line += " Play keeps going counterclockwise (house rule)."
    return line


def _reversed(state: GameState, event: Event) -> str:
    way = "counterclockwise" if event.value == COUNTERCLOCKWISE else "clockwise"
    return f"Play now goes {way}."


def _tiebreak(state: GameState, event: Event) -> str:
    if state.variant is Variant.TEAMS:
        return "Tie-break: every player adds up the number cards in their hand; the team with the lower total wins."
    tied = join_names([state.players[seat].name for seat in state.tied])
    return f"Sudden Death tie: {tied} add up the number cards in their hands; lowest wins."


def winners_text(state: GameState) -> str:
    """Say who won a finished game, a team with its players: "Team A (Ann and Cy) wins!"."""
    names = []
    for winner in state.winners:
        members = state.players_of(winner)
        names.append(winner if members == (winner,) else f"{winner} ({join_names(list(members))})")
    # Two winners in the team game: both teams' tie-break totals were equal and tied players share the win.
    return f"{join_names(names)} {'wins' if len(names) == 1 else 'share the win'}!"


def taken_back(action: Action, now: GameState) -> str:
    """Say what an Undo took back and where that leaves the table: "Bob's 4. Back to Bob's turn, total 3."

    Not the undone line itself: its last words ("Cy's turn.") were true after the card, not after the Undo.
    """
    match action:
        case Play(player=player, card=card):
            what = f"{player}'s {card.label}"
        case Bust(player=player):
            what = f"{player}'s “Can't play”"
        case SetHand(player=player, cards=cards):
            what = f"the fix of {player}'s hand to {cards} {'card' if cards == 1 else 'cards'}"
        case TieBreak():
            what = "the tie-break totals"
        case Leave(player=player):
            what = f"{player} leaving the game"
    if now.status is Status.PLAYING and now.current_player is not None:
        return f"{what}. Back to {now.current_player.name}'s turn, total {now.total}."
    return f"{what}."


def _tiebreak_result(state: GameState, event: Event) -> str | None:
    """Why the tie-break went the way it did, said once: the teams' sums, or who tied and who held fewer cards."""
    results = [other for other in state.events if other.kind is EventKind.TIEBREAK_RESULT]
    if event is not results[0]:
        return None
    teams = state.variant is Variant.TEAMS
    sides = [(_side(state, result), result.value or 0) for result in results]
    lowest = min(value for _, value in sides)
    best = [side for side, value in sides if value == lowest]
    if teams:
        text = "Team totals: " + ", ".join(f"{side} {value}" for side, value in sides)
        if len(best) > 1:
            text += ": equal"
    elif len(best) > 1:
        text = f"{join_names(best)} {'both' if len(best) == 2 else 'all'} add up to {lowest}"
    else:
        return None  # the totals just entered say it, and the winner follows
    if len(best) > len(state.winners) == 1:
        # House rule tiebreak_tie=fewest_cards settled it.
        cards = {
            side: sum(p.hand for p in state.players if (_team_of(state, p.name) or p.name) == side) for side in best
        }
        winner = state.winners[0]
        others = " and ".join(str(count) for side, count in cards.items() if side != winner)
        text += f"; {winner} holds fewer cards ({cards[winner]} against {others})"
    return text + "."


def _game_over(state: GameState, event: Event) -> str:
    return winners_text(state)


def _deck_warning(state: GameState, event: Event) -> str | None:
    found = warning(event)
    return None if found is None else found.message


def _reshuffled(state: GameState, event: Event) -> str:
    cards = f"{event.value} {'card' if event.value == 1 else 'cards'}"
    return (
        "The draw pile ran out, so the discard pile except its top card was turned over "
        f"as the new draw pile ({cards})."
    )


def _draw_pile_empty(state: GameState, event: Event) -> str:
    if state.house_rules.empty_draw_pile == "reshuffle":
        return "Then nothing was left to draw: the discard pile was down to its top card."
    return "The draw pile is empty, so no more cards are drawn."


def _left(state: GameState, event: Event) -> str:
    held = event.value or 0
    if not held:
        return f"{event.player} has left the game."
    cards = "1 card goes" if held == 1 else f"{held} cards go"
    return f"{event.player} has left the game: their {cards} on the discard pile."


def _fixed(template: str) -> Sentence:
    """A sentence that only needs the event's player ({who}) and value ({value})."""
    return lambda state, event: template.format(who=event.player or "", value=event.value)


_SENTENCES: dict[EventKind, Sentence] = {
    EventKind.BUST: _bust,
    EventKind.ELIMINATED: _fixed("{who} is out of the game."),
    EventKind.LEFT: _left,
    EventKind.TWO_LEFT: _fixed("Two players left: Reverse now acts as Pass Me By and Skip gives another turn."),
    EventKind.REVERSED: _reversed,
    EventKind.REVERSE_AS_PASS: _fixed("With two players, Reverse acts as Pass Me By."),
    EventKind.SKIPPED: _fixed("{who} misses a turn."),
    EventKind.SKIP_AGAIN: _fixed("With two players, {who} plays again."),
    EventKind.PLAY_STARTS_LEFT: _play_starts_left,
    EventKind.BOTH_TEAMS_OUT: _both_teams_out,
    EventKind.REDEALT: _fixed("{who} gathers all {value} cards in hand and deals them out again."),
    EventKind.RESHUFFLED: _reshuffled,
    EventKind.DRAW_PILE_EMPTY: _draw_pile_empty,
    EventKind.BOMB_NOT_ANSWERED: _fixed("At this table a Bomb as last card is not answered."),
    EventKind.BOMB_LAST_CARD: _bomb_last_card,
    EventKind.DREW_AFTER_ANSWER: _fixed("That 0 was {who}'s last card: {who} draws one and plays on."),
    EventKind.LAST_CARD_EFFECT_VOID: _fixed("It was the last card, so its effect does not count."),
    EventKind.NEW_ROUND: _new_round,
    EventKind.TIEBREAK: _tiebreak,
    EventKind.GAME_OVER: _game_over,
    EventKind.TIEBREAK_RESULT: _tiebreak_result,
    EventKind.CARD_COUNT_WARNING: _deck_warning,
    EventKind.HAND_COUNT_WARNING: _deck_warning,
}
