"""The reducer: `apply(state, action)` checks an action, then returns the state after it.

It owns the rules of play: what may be done now (`check`) and what an accepted action does to
the table (`_Table`). Turn order lives in turns.py, card meanings in cards.py, event kinds in
events.py, and the words for the log in narrate.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import sanity
from .actions import Action, Bust, Leave, Play, SetHand, TieBreak
from .cards import DECK_SIZE, HAND_SIZE, LOWEST_BUST_TOTAL, TARGET, Card, highest_hand_value
from .errors import Refused
from .events import Event, EventKind
from .house_rules import HouseRules
from .state import GameState, Player, Status, Team, Variant
from .turns import CLOCKWISE, next_seat, seats_after
from .words import N_, N_plural, Sentence, names_said


def check(state: GameState, action: Action) -> None:
    """Raise Refused if `action` is not allowed in `state`; the one validation gate.

    Checks run in a fixed order, as in boardgame.io's reducer: is the game over, is it the
    right phase, is the player known and in, is it their turn, is the move legal.
    """
    _check_not_over(state)
    match action:
        case TieBreak():
            _check_tiebreak(state, action)
            return
        case SetHand():
            _check_hand(state, action)
            return
    _check_no_tiebreak(state)
    if isinstance(action, Leave):
        # Not a turn: anyone still in may get up, whoever's turn it is.
        _check_leave(state, action)
        return
    seat = _check_turn(state, action.player)
    match action:
        case Play():
            _check_play(state, seat, action)
        case Bust():
            _check_bust(state, action)


# Every card in the order of Card, as a tuple: looping over the Enum class itself runs Python code per card.
CARDS = tuple(Card)


def card_refusals(state: GameState, player: str) -> tuple[Refused | None, ...]:
    """Why each card (in the order of CARDS) would be refused if `player` laid it now without 0s; None if taken.

    The gate `check` asks, for all cards at once: what does not depend on the card is asked once. The board
    asks this for every card at every version, so a tap pays it.
    """
    try:
        _check_not_over(state)
        _check_no_tiebreak(state)
        _check_turn(state, player)
    except Refused as refused:
        return (refused.with_traceback(None),) * len(CARDS)
    return tuple(_card_refusal(state, card) for card in CARDS)


def refusal(state: GameState, action: Action) -> Refused | None:
    """Return why `action` would be refused, or None when it would be accepted."""
    try:
        check(state, action)
    except Refused as refused:
        # Without its traceback: the traceback holds this frame, which holds `refused`, a reference cycle that
        # only the garbage collector frees. The board asks this for every card on every render, and that
        # garbage made the collector run (and pause every request) several times as often.
        return refused.with_traceback(None)
    return None


def apply(state: GameState, action: Action) -> GameState:
    """Return the state after `action`, or raise Refused and change nothing."""
    check(state, action)
    table = _Table.of(state)
    match action:
        case Play(card=card) if card.is_number and _overflows(state, card):
            # House rule over_21=bust (modern text): the card is laid, counted as a bust, returned.
            table.bust(table.seat(action.player), card)
        case Play():
            table.play(table.seat(action.player), action.card, action.zeros)
        case Bust():
            table.bust(table.seat(action.player), action.card)
        case SetHand():
            table.set_hand(table.seat(action.player), action.cards)
        case TieBreak():
            table.tiebreak(dict(action.values))
        case Leave():
            table.leave(table.seat(action.player))
    return table.freeze()


# --- the checks -----------------------------------------------------------------------------


def _game_over_message(state: GameState) -> Sentence:
    # A team game's winners are its teams, whose names are said in the phone's language ("Team A").
    teams = state.variant is Variant.TEAMS
    winners = names_said(Sentence(name) if teams else name for name in state.winners)
    if len(state.winners) == 1:
        return Sentence(N_("The game is over: %(winners)s won. Start a rematch to play again."), winners=winners)
    return Sentence(N_("The game is over: %(winners)s share the win. Start a rematch to play again."), winners=winners)


def _names(state: GameState, seats: tuple[int, ...]) -> Sentence:
    return names_said(state.players[seat].name for seat in seats)


def _seat_named(state: GameState, name: str) -> int:
    seat = state.seat_of(name)
    if seat is None:
        raise Refused(
            "unknown_player", N_("Nobody called %(name)s is playing at this table."), rule="setup", name=name[:24]
        )
    return seat


def _check_not_over(state: GameState) -> None:
    if state.status is Status.FINISHED:
        raise Refused("game_over", _game_over_message(state), rule="winning")


def _check_no_tiebreak(state: GameState) -> None:
    if state.status is Status.TIEBREAK:
        raise Refused(
            "tiebreak_pending",
            N_("The game is over: %(names)s must first add up the number cards in their hands."),
            rule="tiebreak",
            names=_names(state, state.tied),
        )


def _check_turn(state: GameState, name: str) -> int:
    """The seat of `name`, if they are known, still in, and it is their turn."""
    seat = _known_player(state, name)
    if seat != state.current:
        current = state.current_player
        assert current is not None
        raise Refused(
            "not_your_turn",
            N_("It's %(current)s's turn, not %(name)s's."),
            rule="turn-order",
            current=current.name,
            name=state.players[seat].name,
        )
    return seat


def _known_player(state: GameState, name: str) -> int:
    seat = _seat_named(state, name)
    player = state.players[seat]
    if player.out:
        if player.left:
            raise Refused(
                "player_out", N_("%(name)s has left the game and can't play."), rule="player-leaves", name=player.name
            )
        raise Refused(
            "player_out", N_("%(name)s is out of the game and can't play."), rule="elimination", name=player.name
        )
    return seat


def _overflows(state: GameState, card: Card) -> bool:
    number = card.number
    return number is not None and state.total + number > TARGET


def _card_refusal(state: GameState, card: Card) -> Refused | None:
    """Why `card`, laid without 0s by the player whose turn it is, would be refused (it does not fit), or None."""
    if _overflows(state, card) and state.house_rules.over_21 == "refuse":
        number = card.number
        assert number is not None
        return Refused(
            "does_not_fit",
            N_("That %(number)s makes %(total)s: play another card, or tap Can't play."),
            rule="over-21",
            number=number,
            total=state.total + number,
        )
    return None


def _check_play(state: GameState, seat: int, action: Play) -> None:
    card = action.card
    refused = _card_refusal(state, card)
    if refused is not None:
        raise refused
    if action.zeros and card is not Card.BOMB:
        raise Refused("bad_zeros", N_("Only a Bomb is answered with 0s."), rule="bomb")
    if card is Card.BOMB and action.zeros:
        if not bomb_is_answered(state, seat):
            raise Refused(
                "bomb_not_answered",
                N_("At this table a Bomb played as the last card only ends the round: nobody answers it."),
                rule="bomb-last-card",
            )
        targets = set(bomb_targets(state, seat))
        seen: set[int] = set()
        for name in action.zeros:
            target = state.seat_of(name)
            if target is None or target not in targets:
                raise Refused(
                    "bad_zeros",
                    N_("%(name)s can't answer this Bomb: only the other players still in can."),
                    rule="bomb",
                    name=name[:24],
                )
            if target in seen:
                raise Refused("bad_zeros", N_("Each player discards one 0 to a Bomb, not more."), rule="bomb")
            seen.add(target)


def _check_bust(state: GameState, action: Bust) -> None:
    if state.total < LOWEST_BUST_TOTAL:
        raise Refused(
            "bust_impossible",
            N_("Nobody can go over 21 from %(total)s: even a 7 fits. Play a card."),
            rule="bust",
            total=state.total,
        )
    card = action.card
    if card is not None and not _overflows(state, card):
        # Only a number that goes over 21 can be named with a bust; anything else can be played.
        raise Refused(
            "card_fits",
            N_("%(card)s can be played at %(total)s: play it instead of going bust."),
            rule="bust",
            card=Sentence(card.label),
            total=state.total,
        )


def _check_hand(state: GameState, action: SetHand) -> None:
    seat = state.seat_of(action.player)
    if seat is not None and state.players[seat].out:
        # Not "can't play": a correction is not a turn. An eliminated player discarded their hand.
        player = state.players[seat]
        if player.left:
            gone = N_("%(name)s has left the game and holds no cards, so there is nothing to correct.")
        else:
            gone = N_("%(name)s is out of the game and holds no cards, so there is nothing to correct.")
        raise Refused("player_out", gone, rule="eliminated-player-cards", name=player.name)
    seat = _known_player(state, action.player)
    player = state.players[seat]
    if isinstance(action.cards, bool) or not isinstance(action.cards, int):
        raise Refused("bad_hand", N_("Give the number of cards as a whole number."), rule="hand-correction")
    if action.cards < 1:
        raise Refused(
            "bad_hand",
            N_(
                "A player still in the round holds at least one card. If %(name)s went out, "
                "enter the card they played last instead."
            ),
            rule="hand-correction",
            name=player.name,
        )
    most = player.hand + state.draw_pile + state.discard_pile
    if action.cards > most:
        raise Refused(
            "bad_hand",
            N_plural(
                "%(name)s can hold at most %(count)s card: the rest are in other hands.",
                "%(name)s can hold at most %(count)s cards: the rest are in other hands.",
            ),
            rule="hand-correction",
            name=player.name,
            count=most,
        )
    if action.cards == player.hand:
        raise Refused(
            "bad_hand",
            N_plural("%(name)s already holds %(count)s card.", "%(name)s already holds %(count)s cards."),
            rule="hand-correction",
            name=player.name,
            count=player.hand,
        )


def _check_leave(state: GameState, action: Leave) -> None:
    player = state.players[_seat_named(state, action.player)]
    if player.out:
        gone = N_("%(name)s has already left the game.") if player.left else N_("%(name)s is already out of the game.")
        raise Refused("player_out", gone, rule="player-leaves", name=player.name)


def _check_tiebreak(state: GameState, action: TieBreak) -> None:
    if state.status is not Status.TIEBREAK:
        raise Refused("no_tiebreak", N_("There is no tie-break to settle now."), rule="tiebreak")
    given: dict[int, int] = {}
    for name, value in action.values:
        seat = state.seat_of(name)
        if seat is None or seat not in state.tied:
            raise Refused(
                "bad_tiebreak",
                N_("Only %(names)s are in the tie-break."),
                rule="tiebreak",
                names=_names(state, state.tied),
            )
        if seat in given:
            raise Refused("bad_tiebreak", N_("Give each tied player's total once."), rule="tiebreak")
        player = state.players[seat]
        top = highest_hand_value(player.hand)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise Refused(
                "bad_tiebreak",
                N_plural(
                    "%(name)s's %(count)s card can add up to between 0 and %(top)s.",
                    "%(name)s's %(count)s cards can add up to between 0 and %(top)s.",
                ),
                rule="tiebreak",
                name=player.name,
                count=player.hand,
                top=top,
            )
        given[seat] = value
    missing = [seat for seat in state.tied if seat not in given and state.players[seat].hand > 0]
    if missing:
        raise Refused(
            "bad_tiebreak",
            N_("Enter the total of the number cards in %(names)s's hand."),
            rule="tiebreak",
            names=_names(state, tuple(missing)),
        )


def bomb_targets(state: GameState, bomber: int) -> tuple[int, ...]:
    """Return the seats that must answer a Bomb from `bomber`, in turn order after them."""
    seats = seats_after(state.out_flags, bomber, state.direction)
    if state.variant is Variant.TEAMS and state.house_rules.bomb_teammates == "opponents_only":
        team = state.players[bomber].team
        seats = tuple(seat for seat in seats if state.players[seat].team != team)
    return seats


def bomb_is_answered(state: GameState, bomber: int) -> bool:
    """Return True if a Bomb from `bomber` now asks the others for a 0.

    Only a Bomb that is its player's last card, at a table with bomb_last_card=round_only, is not.
    """
    return not (state.players[bomber].hand == 1 and state.house_rules.bomb_last_card == "round_only")


# --- applying an accepted action ------------------------------------------------------------


@dataclass
class _Table:
    """A private, mutable working copy of a GameState, used inside one `apply` call only."""

    base: GameState
    lives: list[int]
    hands: list[int]
    out: list[bool]
    left: list[bool]
    team_lives: list[int]
    round: int
    total: int
    direction: int
    current: int | None
    dealer: int | None
    draw_pile: int
    discard_pile: int
    status: Status
    winners: tuple[str, ...]
    tied: tuple[int, ...]
    events: list[Event]
    seen: dict[Card, int]
    discard_top: Card | None

    @classmethod
    def of(cls, state: GameState) -> _Table:
        return cls(
            base=state,
            lives=[player.lives for player in state.players],
            hands=[player.hand for player in state.players],
            out=[player.out for player in state.players],
            left=[player.left for player in state.players],
            team_lives=[team.lives for team in state.teams],
            round=state.round,
            total=state.total,
            direction=state.direction,
            current=state.current,
            dealer=state.dealer,
            draw_pile=state.draw_pile,
            discard_pile=state.discard_pile,
            status=state.status,
            winners=state.winners,
            tied=state.tied,
            events=[],
            seen=dict(state.seen),
            discard_top=state.discard_top,
        )

    def freeze(self) -> GameState:
        base = self.base
        players = tuple(
            Player(
                name=player.name,
                lives=self.team_lives[player.team] if player.team is not None else self.lives[seat],
                hand=self.hands[seat],
                out=self.out[seat],
                left=self.left[seat],
                team=player.team,
            )
            for seat, player in enumerate(base.players)
        )
        teams = tuple(Team(team.name, team.seats, self.team_lives[index]) for index, team in enumerate(base.teams))
        return replace(
            base,
            players=players,
            teams=teams,
            round=self.round,
            total=self.total,
            direction=self.direction,
            current=self.current,
            dealer=self.dealer,
            draw_pile=self.draw_pile,
            discard_pile=self.discard_pile,
            status=self.status,
            winners=self.winners,
            tied=self.tied,
            events=tuple(self.events),
            seen=tuple((card, self.seen[card]) for card in Card if self.seen.get(card)),
            discard_top=self.discard_top,
        )

    # -- helpers --

    @property
    def rules(self) -> HouseRules:
        return self.base.house_rules

    @property
    def variant(self) -> Variant:
        return self.base.variant

    def name(self, seat: int) -> str:
        return self.base.players[seat].name

    def seat(self, name: str) -> int:
        seat = self.base.seat_of(name)
        assert seat is not None
        return seat

    def emit(
        self,
        kind: EventKind,
        seat: int | None = None,
        value: int | None = None,
        rule: str | None = None,
        card: Card | None = None,
    ) -> None:
        self.events.append(Event(kind, None if seat is None else self.name(seat), value, rule, card))

    def discarded(self, seat: int, card: Card) -> None:
        """A known card went on the discard pile: count it, and warn if no real deck has that many."""
        self.discard_pile += 1
        self.discard_top = card
        self.seen[card] = self.seen.get(card, 0) + 1
        if sanity.over_count(card, self.seen[card]):
            self.emit(EventKind.CARD_COUNT_WARNING, seat, sanity.CERTAIN_MOST[card], sanity.RULE, card)

    def unknown_discards(self) -> None:
        # Cards of unknown kind went on the discard pile (a discarded hand): the top is no longer known.
        self.discard_top = None

    def active(self) -> list[int]:
        return [seat for seat, out in enumerate(self.out) if not out]

    def next_active(self, seat: int, direction: int | None = None) -> int:
        return next_seat(self.out, seat, self.direction if direction is None else direction)

    def in_turn_order(self, start: int) -> tuple[int, ...]:
        """Active seats after `start` in the direction of play, `start` itself excluded."""
        return seats_after(self.out, start, self.direction)

    def two_left(self) -> bool:
        # Two-player rules apply when exactly two players are still in. In teams only players leaving can bring
        # the table down to two (teams share their lives): two people at the table play as two, teams or not
        # (rulebook entry teams-two-player-rules).
        return len(self.active()) == 2

    def set_turn(self, seat: int) -> None:
        self.current = seat

    # -- the actions --

    def play(self, seat: int, card: Card, zeros: tuple[str, ...]) -> None:
        self.hands[seat] -= 1
        self.discarded(seat, card)
        number = card.number
        if number is not None:
            self.total += number
        self.emit(EventKind.PLAYED, seat, rule=card.rule)
        last_card = self.hands[seat] == 0
        if card is Card.BOMB:
            self.bomb(seat, zeros, last_card)
            return
        if last_card:
            # The last card ends the round; its own effect does not carry over (1994 rules:
            # "if it is your last card, the hand is over"; Re-deal says so in so many words).
            if not card.is_number:
                self.emit(EventKind.LAST_CARD_EFFECT_VOID, seat, rule="last-card")
            self.end_round((seat,))
            return
        self.effect(seat, card)

    def effect(self, seat: int, card: Card) -> None:
        """Do what a card that was not its player's last does, and pass the turn on."""
        match card:
            case Card.DRAW1 | Card.DRAW2:
                self.draw_for_others(seat, 1 if card is Card.DRAW1 else 2)
                self.set_turn(self.next_active(seat))
            case Card.REVERSE:
                if self.two_left():
                    # 1994 rules: with two players left, Reverse is treated as Pass Me By.
                    self.emit(EventKind.REVERSE_AS_PASS, seat, rule="two-players")
                else:
                    self.direction = -self.direction
                    self.emit(EventKind.REVERSED, value=self.direction, rule="reverse")
                self.set_turn(self.next_active(seat))
            case Card.SKIP:
                if self.two_left():
                    # 1994 rules: with two players, the Skip player gets an immediate new turn.
                    self.emit(EventKind.SKIP_AGAIN, seat, rule="two-players")
                    self.set_turn(seat)
                else:
                    skipped = self.next_active(seat)
                    self.emit(EventKind.SKIPPED, skipped, rule="skip")
                    self.set_turn(self.next_active(skipped))
            case Card.EQ21 | Card.EQ10 | Card.EQ0:
                total = card.sets_total_to
                assert total is not None
                self.total = total
                self.set_turn(self.next_active(seat))
            case Card.REDEAL:
                self.redeal(seat)
            case _:
                self.set_turn(self.next_active(seat))

    def bust(self, seat: int, card: Card | None) -> None:
        # 1994 rules: you keep the card, flip an ALIVE card, the total resets, the next player goes.
        self.emit(EventKind.BUST, seat, value=None if card is None else card.number, rule="bust")
        self.total = 0
        self.lose_lives([seat], rule="teams-bust" if self.variant is Variant.TEAMS else "bust")
        if self.status is Status.PLAYING:
            self.set_turn(self.next_active(seat))

    def leave(self, seat: int) -> None:
        """`seat` gets up for good: out of the game, lives kept, hand set aside; the game goes on without them.

        The rule texts never say what happens when a player leaves. The referee treats them like a player knocked
        out (1994 rules: out of the game, "discarding any cards" still held) without the lost lives; so in Sudden
        Death, which ends when someone loses their last life, nobody's leaving ends the game (rulebook entry
        player-leaves).
        """
        held = self.hands[seat]
        self.out[seat] = self.left[seat] = True
        self.discard_pile += held
        self.hands[seat] = 0
        if held:
            self.unknown_discards()
        self.emit(EventKind.LEFT, seat, value=held, rule="player-leaves")
        active = self.active()
        team = self.base.players[seat].team
        if team is not None and not any(self.base.players[other].team == team for other in active):
            self.finish((self.base.teams[1 - team].name,), rule="player-leaves")
        elif len(active) == 1:
            self.finish((self.name(active[0]),), rule="player-leaves")
        else:
            if self.current == seat:
                self.set_turn(self.next_active(seat))
            if len(active) == 2:
                self.emit(EventKind.TWO_LEFT, rule="two-players")

    def bomb(self, bomber: int, zeros: tuple[str, ...], last_card: bool) -> None:
        self.total = 0
        if last_card and self.rules.bomb_last_card == "round_only":
            self.emit(EventKind.BOMB_NOT_ANSWERED, bomber, rule="bomb-last-card")
            self.end_round((bomber,))
            return
        answered = {self.seat(name) for name in zeros}
        losers = []
        emptied = []
        for target in bomb_targets(self.base, bomber):
            if target in answered:
                self.hands[target] -= 1
                self.discarded(target, Card.N0)
                self.emit(EventKind.ANSWERED_ZERO, target, rule="bomb")
                if self.hands[target] == 0:
                    emptied.append(target)
            else:
                self.emit(EventKind.NO_ZERO, target, rule="teams-bomb" if self.variant is Variant.TEAMS else "bomb")
                losers.append(target)
        charges = [(seat, "bomb") for seat in losers]
        if last_card:
            # How-to FAQ author: answer the Bomb first, then the round ends for the bomber. The lives the Bomb
            # and the round end cost are one event, taken together (docs/rules.md, "Lives and their causes"):
            # nobody wins or is tied in Sudden Death or the team game before the round end is charged too.
            self.emit(EventKind.BOMB_LAST_CARD, bomber, value=len(answered), rule="bomb-last-card")
            self.end_round((bomber, *emptied), earlier=charges, actor=bomber)
            return
        if emptied and self.rules.zero_answer_last_card == "goes_out":
            # 1994 rules: once a hand is empty, anyone still holding cards flips an ALIVE card, the bomber
            # included; several empty hands end the round only once; taken together with the Bomb's lives.
            for seat in emptied:
                self.emit(EventKind.ZERO_EMPTIED_HAND, seat, rule="zero-answer-last-card")
            self.end_round(tuple(emptied), earlier=charges, actor=bomber)
            return
        self.take_lives(charges, actor=bomber)
        if self.status is not Status.PLAYING:
            return
        if emptied:
            # House rule zero_answer_last_card=draws_one: answering is not a turn, so they draw and play on;
            # only a hand the empty draw pile cannot refill has gone out (a later event: the Bomb is settled).
            for seat in emptied:
                if self.draw(seat, 1) == 1:
                    self.emit(EventKind.DREW_AFTER_ANSWER, seat, rule="zero-answer-last-card")
            emptied = [seat for seat in emptied if self.hands[seat] == 0]
            if emptied:
                for seat in emptied:
                    self.emit(EventKind.ZERO_EMPTIED_HAND, seat, rule="zero-answer-last-card")
                self.end_round(tuple(emptied))
                return
        # How-to FAQ author: the 0s are not turns; the player after the bomber goes next.
        self.set_turn(self.next_active(bomber))

    def redeal(self, redealer: int) -> None:
        self.total = 0
        active = self.active()
        pool = sum(self.hands[seat] for seat in active)
        if self.rules.redeal_deal_from == "direction":
            order = [*self.in_turn_order(redealer), redealer]
        else:
            # 1994 rules: "he should start dealing to his left", i.e. clockwise.
            order = [*seats_after(self.out, redealer, CLOCKWISE), redealer]
        share, extra = divmod(pool, len(order))
        for index, seat in enumerate(order):
            self.hands[seat] = share + (1 if index < extra else 0)
        self.dealer = redealer
        self.emit(EventKind.REDEALT, redealer, value=pool, rule="redeal-order")
        if self.rules.after_redeal in ("left", "left_clockwise"):
            # 1994 rules: "after a deal of any sort, play always starts to the left". Read with the
            # setup's "play proceeds clockwise", play also turns clockwise again (left_clockwise);
            # read alone (left), the direction stays, so the redealer plays again soon after.
            if self.rules.after_redeal == "left_clockwise":
                self.direction = CLOCKWISE
            self.set_turn(self.next_active(redealer, CLOCKWISE))
            self.emit(EventKind.PLAY_STARTS_LEFT, self.current, value=self.direction, rule="after-redeal")
        else:
            self.set_turn(self.next_active(redealer))

    def draw(self, seat: int, count: int) -> int:
        """Move up to `count` cards from the draw pile to `seat`; return how many moved."""
        drawn = 0
        while drawn < count:
            if self.draw_pile == 0 and not self.reshuffle():
                break
            self.draw_pile -= 1
            self.hands[seat] += 1
            drawn += 1
        return drawn

    def reshuffle(self) -> bool:
        # House rule empty_draw_pile: the discard pile, all but its top card, becomes the draw pile.
        if self.rules.empty_draw_pile != "reshuffle" or self.discard_pile <= 1:
            if not any(event.kind is EventKind.DRAW_PILE_EMPTY for event in self.events):
                self.emit(EventKind.DRAW_PILE_EMPTY, rule="empty-draw-pile")
            return False
        self.draw_pile = self.discard_pile - 1
        self.discard_pile = 1
        # Everything but the top card goes back into play: only the top card still counts as seen.
        self.seen = {self.discard_top: 1} if self.discard_top is not None else {}
        self.emit(EventKind.RESHUFFLED, value=self.draw_pile, rule="empty-draw-pile")
        return True

    def draw_for_others(self, drawer: int, count: int) -> None:
        # Everyone else draws, one player at a time in turn order from the drawer's next player.
        for seat in self.in_turn_order(drawer):
            drawn = self.draw(seat, count)
            self.emit(EventKind.DREW, seat, value=drawn, rule="draw-cards")

    def set_hand(self, seat: int, cards: int) -> None:
        # A correction is not a turn; the difference comes from (or goes to) the piles, so the
        # deck still adds up to 77: extra cards most likely came off the draw pile.
        change = cards - self.hands[seat]
        if change > self.draw_pile:
            # A real hand cannot take cards back from the discard pile: warn (never refuse), and stop
            # trusting the counts of what was played, since those cards may be back in play.
            self.emit(EventKind.HAND_COUNT_WARNING, seat, self.draw_pile, sanity.RULE)
            self.seen = {}
            self.discard_top = None
        if change > 0:
            from_draw = min(change, self.draw_pile)
            self.draw_pile -= from_draw
            self.discard_pile -= change - from_draw
        else:
            self.discard_pile -= change
            self.unknown_discards()
        self.hands[seat] = cards
        self.emit(EventKind.HAND_SET, seat, value=cards, rule="hand-correction")

    def lose_lives(self, seats: list[int], rule: str, actor: int | None = None) -> None:
        """Each seat loses one life (in teams, their team does) for one cause; then settle the game's end."""
        self.take_lives([(seat, rule) for seat in seats], actor)

    def take_lives(self, charges: list[tuple[int, str]], actor: int | None = None) -> None:
        """Take the lives one event costs, each (seat, the rule it is charged under), then settle the game's end.

        The lives lost for one event are taken together: everyone charged is charged, and only then does the
        game look at who is out (docs/rules.md, "Lives and their causes").
        """
        if self.variant is Variant.TEAMS:
            self.take_team_lives(charges, actor)
            return
        for seat, rule in charges:
            self.lives[seat] -= 1
            self.emit(EventKind.LOST_LIFE, seat, value=self.lives[seat], rule=rule)
        knocked_out = [seat for seat in dict.fromkeys(seat for seat, _ in charges) if self.lives[seat] == 0]
        for seat in knocked_out:
            # 1994 rules: eliminated at once, discarding any cards still held.
            self.out[seat] = True
            self.discard_pile += self.hands[seat]
            self.hands[seat] = 0
            self.unknown_discards()
            self.emit(EventKind.ELIMINATED, seat, rule="elimination")
        if not knocked_out:
            return
        if self.variant is Variant.SUDDEN_DEATH:
            self.sudden_death_end()
            return
        active = self.active()
        if len(active) == 1:
            self.finish((self.name(active[0]),), rule="winning")
        elif len(active) == 2:
            self.emit(EventKind.TWO_LEFT, rule="two-players")

    def take_team_lives(self, charges: list[tuple[int, str]], actor: int | None) -> None:
        # 1994 rules, Team play: one set of lives per team; a Bomb can cost a team several. The texts are silent
        # on a Bomb that empties both teams (house rule teams_both_out): "together" charges everyone and ties;
        # "turn_order" charges in turn order and "bomber_team" the other team first, and the game ends as soon
        # as one team is out, so the winners keep the lives they had left.
        reading = self.rules.teams_both_out
        if reading == "bomber_team" and actor is not None:
            mine = self.base.players[actor].team
            charges = sorted(charges, key=lambda charge: self.base.players[charge[0]].team == mine)
        stops = reading != "together"
        first_out: int | None = None
        spared: list[int] = []
        for seat, rule in charges:
            team = self.base.players[seat].team
            assert team is not None
            if stops and first_out is not None:
                spared.append(team)
                continue
            if self.team_lives[team] == 0:
                # Charged, but a team with no life left has none to lose: "Team B loses 2 lives (0 lives left)"
                # for a team that had 1 reads as a wrong sum, and a player is never charged below 0.
                continue
            self.team_lives[team] -= 1
            self.emit(EventKind.LOST_LIFE, seat, value=self.team_lives[team], rule=rule)
            if self.team_lives[team] == 0 and first_out is None:
                first_out = seat
        empty = [team for team, lives in enumerate(self.team_lives) if lives == 0]
        if len(empty) == 2:
            self.both_teams_out(actor)
        elif empty:
            winner = 1 - empty[0]
            if first_out is not None and 0 < self.team_lives[winner] <= spared.count(winner):
                # The charges the game's end spared would have emptied the winners too: say why they won.
                self.emit(
                    EventKind.BOTH_TEAMS_OUT, actor if reading == "bomber_team" else first_out, rule="teams-both-out"
                )
                self.finish((self.base.teams[winner].name,), rule="teams-both-out")
            else:
                self.finish((self.base.teams[winner].name,), rule="teams")

    def both_teams_out(self, actor: int | None) -> None:
        # Only one event can empty both teams at once, and only when it charges everyone ("together"): a
        # tie-break, every player adding up their number cards per team (as Sudden Death's tie-break does).
        self.emit(EventKind.BOTH_TEAMS_OUT, actor, rule="teams-both-out")
        self.start_tiebreak(tuple(self.active()))

    def start_tiebreak(self, seats: tuple[int, ...]) -> None:
        self.tied = seats
        self.current = None
        self.status = Status.TIEBREAK
        # In teams it is the teams-both-out ruling, not Sudden Death's tie-break: its "Why?" must say so.
        self.emit(EventKind.TIEBREAK, rule="teams-both-out" if self.variant is Variant.TEAMS else "tiebreak")
        if all(self.hands[seat] == 0 for seat in seats):
            self.tiebreak({})

    def sudden_death_end(self) -> None:
        # 1994 rules, Sudden Death: the game ends as soon as one player is out; most lives wins. Among the players
        # still in: one who left earlier kept their lives but is no longer playing for the win.
        best = max(self.lives[seat] for seat in self.active())
        leaders = tuple(seat for seat in self.active() if self.lives[seat] == best)
        if len(leaders) == 1:
            self.finish((self.name(leaders[0]),), rule="sudden-death")
            return
        self.start_tiebreak(leaders)

    def tiebreak(self, values: dict[str, int]) -> None:
        # The tied players add up the number cards in their hands; lowest wins. An empty hand is 0.
        totals = {seat: 0 for seat in self.tied}
        for name, value in values.items():
            totals[self.seat(name)] = value
        if self.variant is Variant.TEAMS:
            self.team_tiebreak(totals)
            return
        lowest = min(totals.values())
        best = [seat for seat in self.tied if totals[seat] == lowest]
        if len(best) > 1 and self.rules.tiebreak_tie == "fewest_cards":
            fewest = min(self.hands[seat] for seat in best)
            best = [seat for seat in best if self.hands[seat] == fewest]
        for seat in self.tied:
            self.emit(EventKind.TIEBREAK_RESULT, seat, value=totals[seat], rule="tiebreak")
        self.tied = ()
        self.finish(tuple(self.name(seat) for seat in best), rule="tiebreak")

    def team_tiebreak(self, totals: dict[int, int]) -> None:
        # teams_both_out=together: each team's players' totals added up; the lower team total wins.
        teams = self.base.teams
        sums = [sum(totals.get(seat, 0) for seat in team.seats) for team in teams]
        best = [index for index, value in enumerate(sums) if value == min(sums)]
        if len(best) > 1 and self.rules.tiebreak_tie == "fewest_cards":
            cards = [sum(self.hands[seat] for seat in team.seats) for team in teams]
            best = [index for index in best if cards[index] == min(cards[i] for i in best)]
        for index, team in enumerate(teams):
            # One result per team, told by its first player's seat (the log names the team).
            self.emit(EventKind.TIEBREAK_RESULT, team.seats[0], value=sums[index], rule="teams-both-out")
        self.tied = ()
        self.finish(tuple(teams[index].name for index in best), rule="teams-both-out")

    def finish(self, winners: tuple[str, ...], rule: str) -> None:
        self.status = Status.FINISHED
        self.winners = winners
        self.current = None
        self.emit(EventKind.GAME_OVER, rule=rule)

    def end_round(
        self, went_out: tuple[int, ...], earlier: list[tuple[int, str]] | None = None, actor: int | None = None
    ) -> None:
        """A hand is empty: the others pay one life each, then a new round is dealt.

        `earlier`: lives the same action already costs (a Bomb's), taken together with the round end's.
        """
        charges = list(earlier or [])
        first_out = went_out[0]
        for seat in went_out:
            self.emit(EventKind.WENT_OUT, seat, rule="last-card")
        if self.variant is Variant.TEAMS:
            # 1994 rules, Team play: the opposing team loses only one life.
            team = self.base.players[first_out].team
            assert team is not None
            opponent = next(seat for seat in self.active() if self.base.players[seat].team != team)
            charges.append((opponent, "teams-going-out"))
        else:
            # A player the Bomb knocks out has discarded their hand (1994 rules), so holds no card at the round end.
            left = {seat: self.lives[seat] - sum(1 for other, _ in charges if other == seat) for seat in self.active()}
            holders = [seat for seat in self.in_turn_order(first_out) if self.hands[seat] > 0 and left[seat] > 0]
            charges += [(seat, "last-card") for seat in holders]
        self.take_lives(charges, actor)
        if self.status is not Status.PLAYING:
            return
        self.new_round(dealer=first_out)

    def new_round(self, dealer: int) -> None:
        # The player who went out deals; the player on their left starts (1994 rules).
        active = self.active()
        for seat in range(len(self.hands)):
            self.hands[seat] = HAND_SIZE if not self.out[seat] else 0
        self.draw_pile = DECK_SIZE - HAND_SIZE * len(active)
        self.discard_pile = 0
        # 1994 rules: the whole deck is reshuffled for a new hand, so the counts start again.
        self.seen = {}
        self.discard_top = None
        self.total = 0
        self.round += 1
        if self.rules.new_round_direction == "clockwise":
            self.direction = CLOCKWISE
        self.dealer = dealer
        self.set_turn(self.next_active(dealer))
        self.emit(EventKind.NEW_ROUND, dealer, value=self.round, rule="new-round")
