"""Property tests: random legal (and illegal) action sequences in every variant and house rule.

After every step the total is 0..21, lives 0..5, the current player is in, hands and piles are >= 0, the 77
cards are all accounted for, replay equals the step-by-step state, undo gives back exactly the previous state and
redo the same one again, and a finished game has a winner and refuses any further action. A refused action
raises Refused and changes nothing.

Two drivers share the checks below:
- `GameMachine`, a Hypothesis rule-based state machine that mixes legal plays, busts, Bombs, hand
  corrections, tie-breaks, random (mostly illegal) actions, undo and redo;
- `test_games_play_to_the_end`, which plays whole games to their finish under each house-rule value.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import hypothesis
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from referee.engine import (
    DECK_SIZE,
    HOUSE_RULE_SPECS,
    LIVES,
    Action,
    Bust,
    Card,
    GameState,
    History,
    Leave,
    Play,
    Refused,
    SetHand,
    Setup,
    Status,
    TieBreak,
    Variant,
    apply,
    check,
    legal_actions,
    make_setup,
    new_game,
    refusal,
    replay,
)
from referee.engine.cards import TARGET, highest_hand_value

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")
VARIANTS = ("standard", "sudden_death", "teams")
HOUSE_RULE_VALUES = [(spec.name, value) for spec in HOUSE_RULE_SPECS for value in spec.values]
# Engine events worth seeing in `pytest --hypothesis-show-statistics`: the sequences reach them.
NOTABLE_EVENTS = frozenset(
    {
        "went_out",
        "eliminated",
        "game_over",
        "tiebreak",
        "two_left",
        "skip_again",
        "reverse_as_pass",
        "redealt",
        "reshuffled",
        "draw_pile_empty",
        "bomb_last_card",
        "bomb_not_answered",
        "zero_emptied_hand",
        "drew_after_answer",
        "last_card_effect_void",
    }
)

MACHINE_SETTINGS = settings(
    max_examples=50,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
WHOLE_GAME_EXAMPLES = 6
# The drawn part of a whole game; after it, players keep going out until the game is over.
WHOLE_GAME_DRAWN_STEPS = 40
WHOLE_GAME_LIMIT = 400


# --- setups ---------------------------------------------------------------------------------


@st.composite
def setups(
    draw: st.DrawFn,
    variants: Sequence[str] = VARIANTS,
    forced: Mapping[str, str] | None = None,
) -> Setup:
    """A valid table: a variant, 2–6 players (teams 4–6), a first player and every house rule drawn."""
    variant = draw(st.sampled_from(variants))
    count = draw(st.integers(4 if variant == "teams" else 2, 6))
    players = NAMES[:count]
    rules = {spec.name: draw(st.sampled_from(spec.values)) for spec in HOUSE_RULE_SPECS}
    rules.update(forced or {})
    first = draw(st.sampled_from(players))
    return make_setup(players, variant, first_player=first, house_rules=rules)


# --- the checks after every step ------------------------------------------------------------


def assert_invariants(state: GameState) -> None:
    """Everything that holds in every reachable state."""
    assert 0 <= state.total <= TARGET
    assert state.draw_pile >= 0
    assert state.discard_pile >= 0
    assert state.cards_in_play == DECK_SIZE
    assert state.round >= 1
    assert state.direction in (1, -1)
    for player in state.players:
        assert 0 <= player.lives <= LIVES
        assert player.hand >= 0
        assert not player.left or player.out
        if player.out:
            assert player.hand == 0
            # A player who left keeps the lives they had; only a knock-out empties them.
            assert player.lives == 0 or player.left
    knocked_out = [player for player in state.players if player.out and not player.left]
    if state.variant is Variant.TEAMS:
        assert len(state.teams) == 2
        assert not knocked_out
        for index, team in enumerate(state.teams):
            assert 0 <= team.lives <= LIVES
            for seat in team.seats:
                assert state.players[seat].team == index
                assert state.players[seat].lives == team.lives
    else:
        assert all(player.lives > 0 for player in state.players if not player.out)

    if state.status is Status.PLAYING:
        current = state.current_player
        assert current is not None and not current.out
        assert not state.winners and not state.tied
        # Everyone still in the round holds a card: an empty hand ends the round at once.
        assert all(player.hand >= 1 for player in state.players if not player.out)
        if state.variant is Variant.TEAMS:
            assert all(team.lives > 0 for team in state.teams)
            assert all(any(not state.players[seat].out for seat in team.seats) for team in state.teams)
        else:
            assert len(state.active_seats) >= 2
        if state.variant is Variant.SUDDEN_DEATH:
            assert not knocked_out
    elif state.status is Status.TIEBREAK:
        assert state.current is None and not state.winners
        assert len(state.tied) >= 2
        if state.variant is Variant.TEAMS:
            # teams_both_out=together: one Bomb emptied both teams; every player adds up their hand.
            assert state.house_rules.teams_both_out == "together"
            assert all(team.lives == 0 for team in state.teams)
            assert set(state.tied) == set(state.active_seats)
        else:
            assert state.variant is Variant.SUDDEN_DEATH
            best = max(state.players[seat].lives for seat in state.active_seats)
            assert all(state.players[seat].lives == best for seat in state.tied)
            assert not any(state.players[seat].out for seat in state.tied)
    else:
        assert_finished(state)


def assert_finished(state: GameState) -> None:
    """A finished game has a winner and refuses every further action with code game_over."""
    assert state.status is Status.FINISHED
    assert state.current is None
    assert len(state.winners) >= 1
    if state.variant is Variant.TEAMS:
        assert set(state.winners) <= {team.name for team in state.teams}
        # A team loses with its last life, or when all its players have left.
        assert any(team.lives == 0 or all(state.players[seat].left for seat in team.seats) for team in state.teams)
        if len(state.winners) > 1:
            # Both teams win only when one Bomb emptied both, the tie-break totals were equal and the table's
            # reading of a tie-break tie is that the tied share the win.
            assert all(team.lives == 0 for team in state.teams)
            rules = state.house_rules
            assert rules.teams_both_out == "together" and rules.tiebreak_tie in {"shared", "fewest_cards"}
    else:
        names = {player.name for player in state.players if not player.out}
        assert set(state.winners) <= names
        if state.variant is Variant.STANDARD:
            assert len(state.active_seats) == 1
        else:
            assert any(player.out for player in state.players)
    for player in state.players:
        assert_refused(state, Play(player.name, Card.N0), "game_over")
        assert_refused(state, Bust(player.name), "game_over")
    name = state.players[0].name
    for action in (Play(name, Card.EQ21), SetHand(name, 3), TieBreak(((name, 0),))):
        assert_refused(state, action, "game_over")
    assert not any(option.allowed for option in legal_actions(state).cards)


def assert_refused(state: GameState, action: Action, code: str | None = None) -> Refused:
    """`action` is refused (with `code`, if given) and neither the state nor a history changes."""
    copy = replace(state)
    with pytest.raises(Refused) as refused:
        apply(state, action)
    assert state == copy
    error = refused.value
    assert error.code and error.message
    if code is not None:
        assert error.code == code, (error.code, error.message)
    with pytest.raises(Refused) as again:
        check(state, action)
    assert again.value.code == error.code
    return error


@dataclass
class Game:
    """A game under test: the history and, for every recorded action, the state it led to."""

    history: History
    trail: list[GameState] = field(default_factory=list)
    """trail[i] is the state after the first i recorded actions (including the redo tail)."""

    @classmethod
    def start(cls, setup: Setup) -> Game:
        history = History(setup)
        state = new_game(setup)
        assert history.state() == state
        assert not history.can_undo and not history.can_redo
        assert_invariants(state)
        return cls(history, [state])

    @property
    def state(self) -> GameState:
        return self.trail[len(self.history.active)]

    @property
    def setup(self) -> Setup:
        return self.history.setup

    def step(self, action: Action) -> GameState:
        """Record a legal `action` and check everything that must hold after it."""
        before = self.state
        history, after = self.history.record(action, before)
        assert apply(before, action) == after, "apply is deterministic"
        assert history.active == (*self.history.active, action)
        assert not history.can_redo, "a new action clears the redo tail"
        assert_invariants(after)
        if currently_in_test_context():
            for kind in NOTABLE_EVENTS.intersection(event.kind for event in after.events):
                hypothesis.event(kind)
        # Replay from the setup equals the step-by-step state.
        assert replay(self.setup, history.active) == after
        # Undo gives back exactly the previous state; redo puts the same state back.
        undone = history.undo()
        assert undone.state() == before
        assert undone.redo() == history
        self.history = history
        self.trail = [*self.trail[: len(history.active)], after]
        return after

    def try_action(self, action: Action) -> GameState | None:
        """Apply any action: a refused one must change nothing; an accepted one is a normal step."""
        before = self.state
        error = refusal(before, action)
        if error is not None:
            assert_refused(before, action, error.code)
            with pytest.raises(Refused):
                self.history.record(action, before)
            assert self.history.state() == before
            return None
        return self.step(action)

    def undo(self) -> None:
        self.history = self.history.undo()
        assert self.history.state() == self.state
        assert_invariants(self.state)

    def redo(self) -> None:
        history = self.history.redo()
        action = history.active[-1]
        expected = self.trail[len(history.active)]
        assert apply(self.state, action) == expected
        self.history = history
        assert history.state() == expected
        assert_invariants(expected)


# --- choosing legal actions -----------------------------------------------------------------


def fitting_cards(state: GameState) -> list[Card]:
    """Cards the current player may play that are not a bust (house rule over_21=bust)."""
    return [option.card for option in legal_actions(state).cards if option.allowed and not option.busts]


def legal_play(data: st.DataObject, state: GameState, *, busts: bool = True) -> Play:
    """A card the engine allows now; a Bomb is answered by any subset of those who must answer."""
    legal = legal_actions(state)
    assert legal.player is not None and state.current_player is not None
    assert legal.player == state.current_player.name
    cards = [option.card for option in legal.cards if option.allowed and (busts or not option.busts)]
    assert cards, "wild cards always fit"
    card = data.draw(st.sampled_from(cards), label="card")
    zeros: tuple[str, ...] = ()
    if card is Card.BOMB and legal.bomb_answerers:
        chosen = data.draw(st.lists(st.sampled_from(legal.bomb_answerers), unique=True), label="zeros")
        zeros = tuple(chosen)
    return Play(legal.player, card, zeros)


def tiebreak_action(data: st.DataObject, state: GameState) -> TieBreak:
    """Hand totals for the tied players (those with empty hands may be left out or given 0)."""
    values = []
    for seat in state.tied:
        player = state.players[seat]
        if player.hand == 0:
            if data.draw(st.booleans(), label="include empty hand"):
                values.append((player.name, 0))
            continue
        values.append((player.name, data.draw(st.integers(0, highest_hand_value(player.hand)), label="value")))
    order = data.draw(st.permutations(values), label="order")
    return TieBreak(tuple(order))


def hand_correction(data: st.DataObject, state: GameState, most: int | None = None) -> SetHand | None:
    """A valid SetHand for some player still in, or None if none can change."""
    seat = data.draw(st.sampled_from(state.active_seats), label="corrected seat")
    player = state.players[seat]
    top = player.hand + state.draw_pile + state.discard_pile
    if most is not None:
        top = min(top, most)
    choices = [cards for cards in range(1, top + 1) if cards != player.hand]
    if not choices:
        return None
    return SetHand(player.name, data.draw(st.sampled_from(choices), label="cards"))


def go_out(game: Game, data: st.DataObject) -> None:
    """The current player is corrected down to one card, then plays it: the round ends."""
    state = game.state
    current = state.current_player
    assert current is not None
    if current.hand != 1:
        state = game.step(SetHand(current.name, 1))
    play = legal_play(data, state, busts=False)
    before = state
    after = game.step(play)
    events = {event.kind for event in after.events}
    assert "went_out" in events or after.status is not Status.PLAYING, events
    if after.status is Status.PLAYING:
        assert after.round == before.round + 1
        assert after.total == 0 and after.discard_pile == 0
        active = after.active_seats
        assert all(after.players[seat].hand == 10 for seat in active)
        assert after.draw_pile == DECK_SIZE - 10 * len(active)


@functools.cache
def any_action(names: tuple[str, ...]) -> st.SearchStrategy[Action]:
    """Any action at all, mostly illegal: wrong players, unknown names, odd counts, stray zeros."""
    name = st.sampled_from([*names, *(n.lower() for n in names), "Zed", ""])
    cards = st.sampled_from(list(Card))
    return st.one_of(
        st.builds(Play, name, cards, st.lists(name, max_size=3).map(tuple)),
        st.builds(Bust, name, st.none() | cards),
        st.builds(SetHand, name, st.integers(-2, 80)),
        st.builds(Leave, name),
        st.builds(TieBreak, st.lists(st.tuples(name, st.integers(-1, 80)), max_size=4).map(tuple)),
    )


# --- the state machine ----------------------------------------------------------------------


class GameMachine(RuleBasedStateMachine):
    """Random sequences of actions with undo and redo; `setup_strategy` picks the table."""

    setup_strategy: st.SearchStrategy[Setup] = setups()

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None

    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    def playing(self) -> bool:
        return self.game is not None and self.game.state.status is Status.PLAYING

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self.game = Game.start(data.draw(self.setup_strategy, label="setup"))

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        self.g.step(legal_play(data, self.g.state))

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def play_number(self, data: st.DataObject) -> None:
        # Number cards build the total up towards 21, where busts and =21 get interesting.
        state = self.g.state
        legal = legal_actions(state)
        numbers = [option.card for option in legal.cards if option.allowed and option.card.is_number]
        if numbers and legal.player is not None:
            self.g.step(Play(legal.player, data.draw(st.sampled_from(numbers), label="number")))

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def go_out(self, data: st.DataObject) -> None:
        go_out(self.g, data)

    @precondition(lambda self: self.playing() and legal_actions(self.g.state).can_bust)
    @rule(data=st.data())
    def bust(self, data: st.DataObject) -> None:
        state = self.g.state
        current = state.current_player
        assert current is not None
        # Only a number that goes over 21 may be named with a bust (a card that fits is refused).
        too_high = [c for c in Card if c.is_number and state.total + (c.number or 0) > 21]
        card = data.draw(st.none() | st.sampled_from(too_high), label="tried")
        after = self.g.step(Bust(current.name, card))
        assert after.total == 0 or after.status is not Status.PLAYING
        assert any(event.kind == "bust" for event in after.events)

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def bomb(self, data: st.DataObject) -> None:
        state = self.g.state
        legal = legal_actions(state)
        assert legal.player is not None
        zeros: list[str] = []
        if legal.bomb_answerers:
            zeros = data.draw(st.lists(st.sampled_from(legal.bomb_answerers), unique=True), label="zeros")
        after = self.g.step(Play(legal.player, Card.BOMB, tuple(zeros)))
        assert after.total == 0

    @precondition(lambda self: self.playing())
    @rule(data=st.data(), card=st.sampled_from([Card.DRAW1, Card.DRAW2]))
    def drain_then_draw(self, data: st.DataObject, card: Card) -> None:
        # Someone turns out to hold most of the draw pile, then a Draw card empties it:
        # the house rule empty_draw_pile decides (reshuffle the discards, or stop drawing).
        state = self.g.state
        seat = data.draw(st.sampled_from(state.active_seats), label="hoarder")
        player = state.players[seat]
        if state.draw_pile > 1:
            state = self.g.step(SetHand(player.name, player.hand + state.draw_pile - 1))
        current = state.current_player
        assert current is not None
        if current.hand == 1:
            if state.draw_pile + state.discard_pile == 0:
                return  # every card is in a hand: there is no second card to give the drawer
            state = self.g.step(SetHand(current.name, 2))
        after = self.g.step(Play(current.name, card))
        assert {"reshuffled", "draw_pile_empty", "drew"} & {event.kind for event in after.events}

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def bomb_answered_with_last_zero(self, data: st.DataObject) -> None:
        # A player answers a Bomb with the 0 that was their last card (zero_answer_last_card).
        state = self.g.state
        bomber = state.current_player
        assert bomber is not None
        if bomber.hand == 1:
            if state.draw_pile + state.discard_pile == 0:
                return  # every card is in a hand: the bomber cannot be given a second one
            state = self.g.step(SetHand(bomber.name, 2))
        answerers = legal_actions(state).bomb_answerers
        if not answerers:
            return
        target = data.draw(st.sampled_from(answerers), label="last zero")
        seat = state.seat_of(target)
        assert seat is not None
        if state.players[seat].hand != 1:
            state = self.g.step(SetHand(target, 1))
        after = self.g.step(Play(bomber.name, Card.BOMB, (target,)))
        kinds = {event.kind for event in after.events}
        assert {"zero_emptied_hand", "drew_after_answer"} & kinds or after.status is not Status.PLAYING, kinds

    @precondition(lambda self: self.game is not None and self.game.state.status is not Status.FINISHED)
    @rule(data=st.data(), small=st.booleans())
    def correct_hand(self, data: st.DataObject, small: bool) -> None:
        action = hand_correction(data, self.g.state, most=3 if small else None)
        if action is not None:
            before = self.g.state
            after = self.g.step(action)
            assert (after.current, after.total, after.round) == (before.current, before.total, before.round)

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        before = self.g.state
        seat = data.draw(st.sampled_from(before.active_seats), label="who leaves")
        after = self.g.step(Leave(before.players[seat].name))
        gone = after.players[seat]
        assert gone.out and gone.left and gone.hand == 0 and gone.lives == before.players[seat].lives
        assert after.discard_pile == before.discard_pile + before.players[seat].hand
        if after.status is Status.PLAYING:
            assert after.total == before.total and after.round == before.round
            assert after.current == before.current or before.current == seat

    @precondition(lambda self: self.game is not None and self.game.state.status is Status.TIEBREAK)
    @rule(data=st.data())
    def tiebreak(self, data: st.DataObject) -> None:
        after = self.g.step(tiebreak_action(data, self.g.state))
        assert after.status is Status.FINISHED

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data())
    def anything(self, data: st.DataObject) -> None:
        state = self.g.state
        action = data.draw(any_action(tuple(player.name for player in state.players)), label="action")
        assert_agrees_with_legal(state, action, refusal(state, action))
        self.g.try_action(action)

    @precondition(lambda self: self.game is not None and self.game.history.can_undo)
    @rule()
    def undo(self) -> None:
        self.g.undo()

    @precondition(lambda self: self.game is not None and self.game.history.can_redo)
    @rule()
    def redo(self) -> None:
        self.g.redo()

    @invariant()
    def holds(self) -> None:
        if self.game is not None:
            assert_invariants(self.game.state)


def assert_agrees_with_legal(state: GameState, action: Action, expected: Refused | None) -> None:
    """`legal_actions` offers a card or "Can't play" exactly when `apply` would accept it, and says its refusal."""
    legal = legal_actions(state)
    current = state.current_player
    if current is None or state.status is not Status.PLAYING:
        return
    name = getattr(action, "player", None)
    if name is None or state.seat_of(name) != state.current:
        return
    match action:
        case Play(card=card, zeros=()):
            option = next(option for option in legal.cards if option.card is card)
            assert option.allowed == (expected is None)
            # A greyed card says the gate's own reason (card_refusals asks the gate once for all cards).
            assert option.reason == (None if expected is None else expected.message)
        case Bust(card=None):
            assert legal.can_bust == (expected is None)
        case Bust(card=card) if card is not None:
            fits = state.total + (card.number if card.number is not None else 0) <= 21 or card.number is None
            assert (legal.can_bust and not fits) == (expected is None)


def machine_for(variants: Sequence[str], forced: Mapping[str, str] | None = None) -> type[GameMachine]:
    """A GameMachine whose tables use one of `variants` and the `forced` house rules."""
    strategy = setups(tuple(variants), dict(forced or {}))

    class Machine(GameMachine):
        setup_strategy = strategy

    return Machine


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_sequences_keep_every_invariant(variant: str) -> None:
    run_state_machine_as_test(machine_for((variant,)), settings=MACHINE_SETTINGS)


# --- whole games ----------------------------------------------------------------------------


def play_whole_game(game: Game, data: st.DataObject) -> GameState:
    """Random legal steps (with plenty of players going out), then go out until the game ends."""
    kinds = ["play", "go_out", "play", "bust", "correct", "number"]
    for _ in range(WHOLE_GAME_DRAWN_STEPS):
        state = game.state
        if state.status is Status.FINISHED:
            return state
        if state.status is Status.TIEBREAK:
            game.step(tiebreak_action(data, state))
            continue
        kind = data.draw(st.sampled_from(kinds), label="kind")
        legal = legal_actions(state)
        if kind == "go_out":
            go_out(game, data)
        elif kind == "bust" and legal.can_bust:
            assert legal.player is not None
            game.step(Bust(legal.player))
        elif kind == "correct":
            action = hand_correction(data, state, most=4)
            if action is not None:
                game.step(action)
        else:
            game.step(legal_play(data, state))
    for _ in range(WHOLE_GAME_LIMIT):
        state = game.state
        if state.status is Status.FINISHED:
            return state
        if state.status is Status.TIEBREAK:
            game.step(tiebreak_action(data, state))
        else:
            go_out(game, data)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("name", "value"), HOUSE_RULE_VALUES)
@settings(max_examples=WHOLE_GAME_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_games_play_to_the_end(name: str, value: str, data: st.DataObject) -> None:
    setup = data.draw(setups(VARIANTS, {name: value}), label="setup")
    assert getattr(setup.house_rules, name) == value
    game = Game.start(setup)
    final = play_whole_game(game, data)
    assert_finished(final)
    # The finished game replays to the same end, and undoing the last action re-opens it.
    assert replay(setup, game.history.active) == final
    reopened = game.history.undo().state()
    assert reopened.status is not Status.FINISHED


# --- a few fixed examples of the same properties --------------------------------------------


def test_nothing_to_undo_or_redo() -> None:
    history = History(make_setup(["Ann", "Bob"]))
    with pytest.raises(Refused) as refused:
        history.undo()
    assert refused.value.code == "nothing_to_undo"
    with pytest.raises(Refused) as refused:
        history.redo()
    assert refused.value.code == "nothing_to_redo"


def test_a_new_action_after_undo_drops_the_redo_tail() -> None:
    history = History(make_setup(["Ann", "Bob", "Cy"]))
    history, _ = history.record(Play("Ann", Card.N5))
    history, _ = history.record(Play("Bob", Card.N6))
    history = history.undo()
    assert history.can_redo
    history, state = history.record(Play("Bob", Card.N2))
    assert not history.can_redo
    assert history.actions == (Play("Ann", Card.N5), Play("Bob", Card.N2))
    assert state.total == 7 and history.state() == state


def test_refused_action_changes_nothing() -> None:
    state = new_game(make_setup(["Ann", "Bob", "Cy"]))
    for action, code in (
        (Play("Bob", Card.N3), "not_your_turn"),
        (Play("Zed", Card.N3), "unknown_player"),
        (Bust("Ann"), "bust_impossible"),
        (SetHand("Ann", 10), "bad_hand"),
        (SetHand("Ann", 0), "bad_hand"),
        (TieBreak((("Ann", 3),)), "no_tiebreak"),
        (Play("Ann", Card.N3, ("Bob",)), "bad_zeros"),
    ):
        assert_refused(state, action, code)


def test_a_finished_game_refuses_plays() -> None:
    # Ann goes out five times: Bob loses his fifth life and Ann wins (two players, standard).
    setup = make_setup(["Ann", "Bob"])
    game = Game.start(setup)
    for _ in range(LIVES):
        current = game.state.current_player
        assert current is not None
        if current.name == "Bob":
            game.step(Play("Bob", Card.PASS))
        game.step(SetHand("Ann", 1))
        game.step(Play("Ann", Card.N1))
    final = game.state
    assert final.winners == ("Ann",)
    assert_finished(final)
