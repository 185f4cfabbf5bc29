"""Plain sentences for the log ("Bob played 7: total 18. Cy's turn.") and the rule behind each.

This module owns the words: one sentence function per event kind (`_SENTENCES`), the summary lines
that gather several events into one ("No 0 from Cy and Dee."), and which rulings deserve a "Why?"
link in the log, and in the "Just now" line too when the turn of play was an unusual one. Each sentence is a
`Sentence` (engine/words.py): an English template with named parameters, which each phone words in its own
language (docs/translations.md); the English line is those sentences one after another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .actions import Action, Bust, Leave, Play, SetHand, TieBreak
from .cards import Card
from .events import Event, EventKind
from .sanity import warning
from .state import COUNTERCLOCKWISE, GameState, Status, Variant
from .words import N_, N_plural, Param, Sentence, listed, names_said

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
    "bomb": N_("no 0"),
    "last-card": N_("round over"),
    "teams-going-out": N_("round over"),
    "bust": N_("bust"),
    "teams-bust": N_("bust"),
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


def narration(before: GameState, action: Action, after: GameState) -> tuple[Sentence, ...]:
    """The log line for `action`, taken from `before` to `after`, as its sentences: each one a `Sentence`, so a
    phone can say it in its own language (docs/translations.md)."""
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
                    parts.extend(_lives_with_causes(after, lives))
            elif event is _first_of_its_side(after, lives, event):
                parts.append(_lost_lives(after, lives, event))
            continue
        sentence = _SENTENCES.get(event.kind, _nothing)(after, event)
        if sentence:
            parts.append(sentence)
    if after.status is Status.PLAYING and after.current_player is not None:
        parts.append(Sentence(N_("%(name)s's turn."), name=after.current_player.name))
    return tuple(parts)


def describe(before: GameState, action: Action, after: GameState) -> str:
    """Return the log line for `action`, taken from `before` to `after`, in English (its sentences, one after
    another)."""
    return " ".join(narration(before, action, after))


def _card(card: Card) -> Sentence:
    """A card's name inside a sentence, in the phone's language (a wild card's name is in the catalogs)."""
    return Sentence(card.label)


def _action_line(before: GameState, action: Action, events: tuple[Event, ...]) -> list[Sentence]:
    """The sentence saying what was done, before what it made happen."""
    kinds = {event.kind for event in events}
    match action:
        case Play(player=player, card=card) if EventKind.BUST in kinds and card.number is not None:
            # House rule over_21=bust: the card was laid, then handed back as a bust.
            return [
                Sentence(
                    N_("%(name)s played %(card)s: that makes %(total)s, over 21, so it goes back to %(name)s."),
                    name=_name(before, player),
                    card=_card(card),
                    total=before.total + card.number,
                )
            ]
        case Play(player=player, card=card) if EventKind.BUST not in kinds:
            name = _name(before, player)
            if EventKind.LAST_CARD_EFFECT_VOID in kinds:
                total = None  # a wild as last card only ends the round: no new total to report
            elif card.number is not None:
                total = before.total + card.number
            else:
                total = card.sets_total_to
            if total is None:
                return [Sentence(N_("%(name)s played %(card)s."), name=name, card=_card(card))]
            return [
                Sentence(N_("%(name)s played %(card)s: total %(total)s."), name=name, card=_card(card), total=total)
            ]
        case SetHand(player=player, cards=cards):
            # "Hand fixed", the word of the "Fix" button it was entered with ("Correction" was lost on children).
            return [
                Sentence(
                    N_plural(
                        "Hand fixed: %(name)s holds %(count)s card.", "Hand fixed: %(name)s holds %(count)s cards."
                    ),
                    name=_name(before, player),
                    count=cards,
                )
            ]
        case TieBreak(values=values):
            if not values:
                return [Sentence(N_("Tie-break totals: all hands empty."))]
            entered = listed(Sentence("%(name)s %(value)s", name=name, value=value) for name, value in values)
            return [Sentence(N_("Tie-break totals: %(totals)s."), totals=entered)]
        case Bust() | Play() | Leave():
            return []


def _name(state: GameState, player: str) -> str:
    return state.players[state.seat_of(player) or 0].name


def _summaries(before: GameState, action: Action, events: tuple[Event, ...]) -> list[Sentence]:
    """One line each for the draws, the 0s discarded and the 0s missing, however many players."""
    parts = []
    answered = [event.player for event in events if event.kind is EventKind.ANSWERED_ZERO and event.player]
    missed = [event.player for event in events if event.kind is EventKind.NO_ZERO and event.player]
    drew = [event for event in events if event.kind is EventKind.DREW]
    if drew:
        parts.append(_draws(drew, 2 if isinstance(action, Play) and action.card is Card.DRAW2 else 1))
    if answered:
        # One sentence in English for one player or several; other languages' verbs follow how many discarded.
        discarded = N_plural("%(names)s discarded a 0.", "%(names)s discarded a 0.")
        parts.append(Sentence(discarded, names=names_said(answered), count=len(answered)))
    if missed:
        parts.append(Sentence(N_("No 0 from %(names)s."), names=names_said(missed)))
    return parts


def _draws(drew: list[Event], wanted: int) -> Sentence:
    """Who draws what after a Draw card: "Everyone else draws 2.", or who goes short when the pile runs out."""
    counts = {event.value or 0 for event in drew}
    if counts == {wanted}:
        if len(drew) == 1:
            return Sentence(
                N_plural("%(name)s draws %(count)s.", "%(name)s draws %(count)s."),
                name=drew[0].player or "",
                count=wanted,
            )
        return Sentence(N_plural("Everyone else draws %(count)s.", "Everyone else draws %(count)s."), count=wanted)
    if counts == {0}:
        return Sentence(N_("Nobody could draw."))
    # House rule empty_draw_pile: the draw goes round in turn order, so the last ones go short. Grouped by what
    # they got, so a six-player line stays short enough for a child to read; the next sentence says why.
    full = [event.player or "" for event in drew if (event.value or 0) >= wanted]
    pieces: list[Sentence] = []
    if full:
        pieces.append(
            Sentence(
                N_plural("%(names)s draws %(cards)s", "%(names)s draw %(cards)s"),
                names=names_said(full),
                count=len(full),
                cards=wanted,
            )
        )
    pieces += [
        Sentence(
            N_plural("%(name)s draws only %(count)s", "%(name)s draws only %(count)s"),
            name=event.player or "",
            count=event.value or 0,
        )
        for event in drew
        if 0 < (event.value or 0) < wanted
    ]
    none = [event.player or "" for event in drew if not event.value]
    if none:
        pieces.append(
            Sentence(N_plural("%(names)s gets none", "%(names)s get none"), names=names_said(none), count=len(none))
        )
    return Sentence("%(pieces)s.", pieces=listed(pieces, "; "))


# --- one sentence per event kind (None: a summary line already said it) ------------------------

Said = Callable[[GameState, Event], Sentence | None]


def _nothing(state: GameState, event: Event) -> Sentence | None:
    return None


def _bust(state: GameState, event: Event) -> Sentence:
    if event.value is not None and state.house_rules.over_21 == "bust":
        return Sentence(N_("It counts as a bust: the total goes back to 0."))
    name = event.player or ""
    if event.value is not None:
        return Sentence(
            N_("%(name)s can't play (a %(value)s would go over 21): the total goes back to 0."),
            name=name,
            value=event.value,
        )
    return Sentence(N_("%(name)s can't play: the total goes back to 0."), name=name)


def _grouped(kind: EventKind, names: list[str]) -> Sentence:
    if kind is EventKind.ZERO_EMPTIED_HAND:
        if len(names) == 1:
            return Sentence(N_("That 0 was %(name)s's last card, so %(name)s has gone out."), name=names[0])
        return Sentence(
            N_("Those 0s were the last cards of %(names)s, so they have all gone out."), names=names_said(names)
        )
    if len(names) == 1:
        return Sentence(N_("%(name)s has no cards left: round over."), name=names[0])
    return Sentence(N_("%(names)s have no cards left: round over (once)."), names=names_said(names))


def _lives_with_causes(state: GameState, lives: list[Event]) -> list[Sentence]:
    """ "Dee: no 0 (−1), round over (−1): 3 lives left." for each player or team, in order."""
    order: list[str] = []
    causes: dict[str, list[Sentence]] = {}
    left: dict[str, int] = {}
    for event in lives:
        who = _team_of(state, event.player) or event.player or ""
        cause = Sentence(_LIFE_CAUSES.get(event.rule or "", N_("a life")))
        if who not in causes:
            order.append(who)
            causes[who] = []
        if _team_of(state, event.player) and event.rule != "teams-going-out":
            # Whose missing 0 or bust it was; the round end's life is the team's, not one player's doing.
            cause = Sentence("%(cause)s (%(name)s)", cause=cause, name=event.player or "")
        causes[who].append(Sentence("%(cause)s (−1)", cause=cause))
        left[who] = event.value or 0
    return [
        Sentence(
            N_plural("%(who)s: %(causes)s: %(count)s life left.", "%(who)s: %(causes)s: %(count)s lives left."),
            who=who,
            causes=listed(causes[who]),
            count=left[who],
        )
        for who in order
    ]


def _bomb_last_card(state: GameState, event: Event) -> Sentence:
    if event.value:
        return Sentence(
            N_("The Bomb was answered, and it was %(name)s's last card: now the round ends."), name=event.player or ""
        )
    return Sentence(N_("Nobody had a 0, and it was %(name)s's last card: now the round ends."), name=event.player or "")


def _play_starts_left(state: GameState, event: Event) -> Sentence:
    name = event.player or ""
    if state.house_rules.after_redeal == "left_clockwise":
        return Sentence(N_("After a deal, play starts on the dealer's left and goes clockwise: %(name)s."), name=name)
    if event.value == COUNTERCLOCKWISE:
        # House rule after_redeal=left: the first player is on the left, but play keeps going counterclockwise.
        return Sentence(
            N_("After a deal, play starts on the dealer's left with %(name)s, and goes on counterclockwise."),
            name=name,
        )
    return Sentence(N_("After a deal, play starts on the dealer's left: %(name)s."), name=name)


def _both_teams_out(state: GameState, event: Event) -> Sentence:
    reading = state.house_rules.teams_both_out
    if reading == "together":
        return Sentence(N_("One Bomb took both teams' last lives: both teams are out at once, so a tie-break decides."))
    team = _team_of(state, event.player) or ""
    if reading == "bomber_team":
        return Sentence(
            N_(
                "This Bomb would have taken both teams' last lives; at this table the bomber's team (%(team)s) wins, "
                "so its own lives are not taken."
            ),
            team=team,
        )
    return Sentence(
        N_(
            "This Bomb would have taken both teams' last lives; at this table lives are taken in turn order, and "
            "%(name)s's took %(team)s's last life first, so %(team)s loses."
        ),
        name=event.player or "",
        team=team,
    )


def _side(state: GameState, event: Event) -> str:
    """Whose lives an event's life came from: the player's, or in the team game their team's."""
    return _team_of(state, event.player) or event.player or ""


def _first_of_its_side(state: GameState, lives: list[Event], event: Event) -> Event:
    return next(other for other in lives if _side(state, other) == _side(state, event))


def _lost_lives(state: GameState, lives: list[Event], first: Event) -> Sentence:
    """ "Team A loses 2 lives (3 lives left)." once for a side, however many of its players cost it one."""
    side = _side(state, first)
    theirs = [event for event in lives if _side(state, event) == side]
    left = Sentence(N_plural("%(count)s life left", "%(count)s lives left"), count=theirs[-1].value or 0)
    return Sentence(
        N_plural("%(side)s loses a life (%(left)s).", "%(side)s loses %(count)s lives (%(left)s)."),
        side=side,
        count=len(theirs),
        left=left,
    )


def _new_round(state: GameState, event: Event) -> Sentence:
    line = Sentence(N_("Round %(round)s: %(name)s deals."), round=event.value or 0, name=event.player or "")
    if state.direction == COUNTERCLOCKWISE:
        # Only house rule new_round_direction=keep deals a round counterclockwise: said, or a family used to
        # clockwise argues about who starts.
        return listed([line, Sentence(N_("Play keeps going counterclockwise (house rule)."))], " ")
    return line


def _reversed(state: GameState, event: Event) -> Sentence:
    if event.value == COUNTERCLOCKWISE:
        return Sentence(N_("Play now goes counterclockwise."))
    return Sentence(N_("Play now goes clockwise."))


def _tiebreak(state: GameState, event: Event) -> Sentence:
    if state.variant is Variant.TEAMS:
        return Sentence(
            N_("Tie-break: every player adds up the number cards in their hand; the team with the lower total wins.")
        )
    tied = names_said([state.players[seat].name for seat in state.tied])
    return Sentence(N_("Sudden Death tie: %(names)s add up the number cards in their hands; lowest wins."), names=tied)


def winners_text(state: GameState) -> Sentence:
    """Say who won a finished game, a team with its players: "Team A (Ann and Cy) wins!"."""
    names: list[str] = []
    for winner in state.winners:
        members = state.players_of(winner)
        names.append(
            winner
            if members == (winner,)
            else Sentence("%(team)s (%(names)s)", team=winner, names=names_said(list(members)))
        )
    # Two winners in the team game: both teams' tie-break totals were equal and tied players share the win.
    if len(names) == 1:
        return Sentence(N_("%(names)s wins!"), names=names_said(names))
    return Sentence(N_("%(names)s share the win!"), names=names_said(names))


def taken_back(action: Action, now: GameState) -> Sentence:
    """Say what an Undo took back and where that leaves the table: "Bob's 4. Back to Bob's turn, total 3."

    Not the undone line itself: its last words ("Cy's turn.") were true after the card, not after the Undo.
    """
    what: Sentence
    match action:
        case Play(player=player, card=card):
            what = Sentence(N_("%(name)s's %(card)s"), name=player, card=_card(card))
        case Bust(player=player):
            what = Sentence(N_("%(name)s's “Can't play”"), name=player)
        case SetHand(player=player, cards=cards):
            what = Sentence(
                N_plural(
                    "the fix of %(name)s's hand to %(count)s card", "the fix of %(name)s's hand to %(count)s cards"
                ),
                name=player,
                count=cards,
            )
        case TieBreak():
            what = Sentence(N_("the tie-break totals"))
        case Leave(player=player):
            what = Sentence(N_("%(name)s leaving the game"), name=player)
    if now.status is Status.PLAYING and now.current_player is not None:
        return Sentence(
            N_("%(what)s. Back to %(name)s's turn, total %(total)s."),
            what=what,
            name=now.current_player.name,
            total=now.total,
        )
    return Sentence("%(what)s.", what=what)


def _tiebreak_result(state: GameState, event: Event) -> Sentence | None:
    """Why the tie-break went the way it did, said once: the teams' sums, or who tied and who held fewer cards."""
    results = [other for other in state.events if other.kind is EventKind.TIEBREAK_RESULT]
    if event is not results[0]:
        return None
    teams = state.variant is Variant.TEAMS
    sides = [(_side(state, result), result.value or 0) for result in results]
    lowest = min(value for _, value in sides)
    best = [side for side, value in sides if value == lowest]
    text: Sentence
    if teams:
        totals = listed(Sentence("%(side)s %(value)s", side=side, value=value) for side, value in sides)
        if len(best) > 1:
            text = Sentence(N_("Team totals: %(totals)s: equal"), totals=totals)
        else:
            text = Sentence(N_("Team totals: %(totals)s"), totals=totals)
    elif len(best) > 1:
        if len(best) == 2:
            text = Sentence(N_("%(names)s both add up to %(total)s"), names=names_said(best), total=lowest)
        else:
            text = Sentence(N_("%(names)s all add up to %(total)s"), names=names_said(best), total=lowest)
    else:
        return None  # the totals just entered say it, and the winner follows
    if len(best) > len(state.winners) == 1:
        # House rule tiebreak_tie=fewest_cards settled it.
        cards = {
            side: sum(p.hand for p in state.players if (_team_of(state, p.name) or p.name) == side) for side in best
        }
        winner = state.winners[0]
        others: Sentence | None = None
        for count in (count for side, count in cards.items() if side != winner):
            others = Sentence("%(name)s", name=count) if others is None else _and(others, count)
        fewer = Sentence(
            N_("%(winner)s holds fewer cards (%(count)s against %(others)s)"),
            winner=winner,
            count=cards[winner],
            others=others or "",
        )
        return Sentence("%(text)s; %(fewer)s.", text=text, fewer=fewer)
    return Sentence("%(text)s.", text=text)


def _and(first: Sentence, last: Param) -> Sentence:
    """ "3 and 4": each pair joined with the language's "and" (the cards' counts against the winner's)."""
    return Sentence(N_("%(names)s and %(last)s"), names=first, last=last)


def _game_over(state: GameState, event: Event) -> Sentence:
    return winners_text(state)


def _deck_warning(state: GameState, event: Event) -> Sentence | None:
    found = warning(event)
    return None if found is None else found.message


def _reshuffled(state: GameState, event: Event) -> Sentence:
    return Sentence(
        N_plural(
            "The draw pile ran out, so the discard pile except its top card was turned over "
            "as the new draw pile (%(count)s card).",
            "The draw pile ran out, so the discard pile except its top card was turned over "
            "as the new draw pile (%(count)s cards).",
        ),
        count=event.value or 0,
    )


def _draw_pile_empty(state: GameState, event: Event) -> Sentence:
    if state.house_rules.empty_draw_pile == "reshuffle":
        return Sentence(N_("Then nothing was left to draw: the discard pile was down to its top card."))
    return Sentence(N_("The draw pile is empty, so no more cards are drawn."))


def _left(state: GameState, event: Event) -> Sentence:
    held = event.value or 0
    name = event.player or ""
    if not held:
        return Sentence(N_("%(name)s has left the game."), name=name)
    return Sentence(
        N_plural(
            "%(name)s has left the game: their %(count)s card goes on the discard pile.",
            "%(name)s has left the game: their %(count)s cards go on the discard pile.",
        ),
        name=name,
        count=held,
    )


def _fixed(template: str) -> Said:
    """A sentence that only needs the event's player (`name`) and value (`value`)."""

    def said(state: GameState, event: Event) -> Sentence:
        params: dict[str, Param] = {}
        if "%(name)s" in template:
            params["name"] = event.player or ""
        if "%(value)s" in template:
            params["value"] = event.value or 0
        return Sentence(template, **params)

    return said


_SENTENCES: dict[EventKind, Said] = {
    EventKind.BUST: _bust,
    EventKind.ELIMINATED: _fixed(N_("%(name)s is out of the game.")),
    EventKind.LEFT: _left,
    EventKind.TWO_LEFT: _fixed(N_("Two players left: Reverse now acts as Pass Me By and Skip gives another turn.")),
    EventKind.REVERSED: _reversed,
    EventKind.REVERSE_AS_PASS: _fixed(N_("With two players, Reverse acts as Pass Me By.")),
    EventKind.SKIPPED: _fixed(N_("%(name)s misses a turn.")),
    EventKind.SKIP_AGAIN: _fixed(N_("With two players, %(name)s plays again.")),
    EventKind.PLAY_STARTS_LEFT: _play_starts_left,
    EventKind.BOTH_TEAMS_OUT: _both_teams_out,
    EventKind.REDEALT: _fixed(N_("%(name)s gathers all %(value)s cards in hand and deals them out again.")),
    EventKind.RESHUFFLED: _reshuffled,
    EventKind.DRAW_PILE_EMPTY: _draw_pile_empty,
    EventKind.BOMB_NOT_ANSWERED: _fixed(N_("At this table a Bomb as last card is not answered.")),
    EventKind.BOMB_LAST_CARD: _bomb_last_card,
    EventKind.DREW_AFTER_ANSWER: _fixed(N_("That 0 was %(name)s's last card: %(name)s draws one and plays on.")),
    EventKind.LAST_CARD_EFFECT_VOID: _fixed(N_("It was the last card, so its effect does not count.")),
    EventKind.NEW_ROUND: _new_round,
    EventKind.TIEBREAK: _tiebreak,
    EventKind.GAME_OVER: _game_over,
    EventKind.TIEBREAK_RESULT: _tiebreak_result,
    EventKind.CARD_COUNT_WARNING: _deck_warning,
    EventKind.HAND_COUNT_WARNING: _deck_warning,
}
