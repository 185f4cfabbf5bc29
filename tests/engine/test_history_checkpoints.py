"""Undo and redo replay from a checkpoint, and always land on exactly the state a full replay gives."""

from __future__ import annotations

import random

import pytest

from referee.engine import Card, EventKind, History, Play, RefusedAt, SetHand, Status, make_setup, new_game, replay
from referee.engine.history import CHECKPOINT_EVERY
from tools.harness import random_action


def _long_history(rng: random.Random, actions: int) -> History:
    """A long game of random legal actions (several games' worth are not needed: one long one will do)."""
    setup = make_setup(["Ann", "Bob", "Cy", "Dee"])
    history = History(setup)
    state = history.state()
    while len(history.actions) < actions and state.status is not Status.FINISHED:
        history, state = history.record(random_action(rng, state, draw_boost=4), state)
    return history


def test_checkpoints_are_kept_every_so_many_actions_as_the_game_goes() -> None:
    history = _long_history(random.Random(7), 3 * CHECKPOINT_EVERY + 5)
    assert len(history.actions) > 2 * CHECKPOINT_EVERY, "the random game ended too soon to test checkpoints"
    assert len(history.checkpoints) == len(history.actions) // CHECKPOINT_EVERY
    for index, checkpoint in enumerate(history.checkpoints, start=1):
        assert checkpoint == replay(history.setup, history.actions[: index * CHECKPOINT_EVERY])


def test_undo_and_redo_anywhere_give_the_same_state_as_a_full_replay() -> None:
    rng = random.Random(11)
    history = _long_history(rng, 3 * CHECKPOINT_EVERY)
    for _ in range(120):
        move = rng.random()
        if move < 0.45 and history.can_undo:
            history = history.undo()
        elif move < 0.75 and history.can_redo:
            history = history.redo()
        else:
            state = history.state()
            if state.status is Status.FINISHED:
                continue
            history, _ = history.record(random_action(rng, state), state)
        assert history.state() == replay(history.setup, history.active)


def test_a_history_rebuilt_from_a_stored_log_has_the_same_checkpoints() -> None:
    history = _long_history(random.Random(3), 2 * CHECKPOINT_EVERY + 3)
    rebuilt = History.rebuild(history.setup, history.actions, undone=2)
    assert rebuilt.checkpoints == history.checkpoints
    assert rebuilt.state() == replay(history.setup, history.actions[:-2])


def test_the_states_after_each_action_match_a_full_replay_from_any_start() -> None:
    history = _long_history(random.Random(5), 2 * CHECKPOINT_EVERY + 7)
    history = history.undo().undo()  # the undone tail is walked too (the log still shows it)
    for start in (0, 1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 3, len(history.actions) - 1):
        states = list(history.states_after(start))
        assert len(states) == len(history.actions) - start
        for offset, state in enumerate(states, start=start + 1):
            assert state == replay(history.setup, history.actions[:offset])


def test_a_rebuild_shows_every_step_once_and_says_which_action_the_rules_refuse() -> None:
    """An import checks a whole game and writes its log from one replay: each step's state before and after."""
    history = _long_history(random.Random(9), 2 * CHECKPOINT_EVERY + 9)
    steps: list[tuple[object, object, object]] = []
    rebuilt = History.rebuild(history.setup, history.actions, undone=3, each=lambda *step: steps.append(step))
    assert [action for _, action, _ in steps] == list(history.actions)
    assert steps[0][0] == new_game(history.setup)
    assert all(steps[index][2] == steps[index + 1][0] for index in range(len(steps) - 1))
    assert steps[-1][2] == replay(history.setup, history.actions)
    assert rebuilt.state() == replay(history.setup, history.actions[:-3])
    wrong = (*history.actions[:57], Play("Nobody", Card.N3), *history.actions[57:])
    with pytest.raises(RefusedAt) as refused:
        History.rebuild(history.setup, wrong)
    assert (refused.value.number, refused.value.code) == (58, "unknown_player")
    assert refused.value.message == "Nobody called Nobody is playing at this table."


def _rounds_by_replay(history: History) -> dict[int, int]:
    """Action index -> the round it dealt, found the slow way: every state after every action, replayed."""
    opened = {}
    for index in range(len(history.actions)):
        for event in replay(history.setup, history.actions[: index + 1]).events:
            if event.kind is EventKind.NEW_ROUND and isinstance(event.value, int):
                opened[index] = event.value
    return opened


def test_the_rounds_each_action_dealt_stay_right_through_undo_redo_and_a_dropped_redo_tail() -> None:
    rng = random.Random(13)
    setup = make_setup(["Ann", "Bob", "Cy"])
    history = History(setup)
    dealt_some = False
    for _ in range(160):
        move = rng.random()
        if move < 0.2 and history.can_undo:
            history = history.undo()
        elif move < 0.35 and history.can_redo:
            history = history.redo()
        else:
            state = history.state()
            if state.status is Status.FINISHED:
                history = history.undo()
                continue
            # Often a last card: rounds end (and new ones are dealt) many times in a short game.
            current = state.current_player
            if current is not None and current.hand > 1 and rng.random() < 0.15:
                history, state = history.record(SetHand(current.name, 1), state)
            history, _ = history.record(random_action(rng, history.state(), draw_boost=4), history.state())
        assert history.rounds_from(0) == _rounds_by_replay(history)
        dealt_some = dealt_some or bool(history.rounds_from(0))
    assert dealt_some, "the random game never dealt a new round"
    rebuilt = History.rebuild(history.setup, history.actions, history.undone)
    made = History(history.setup, history.actions, history.undone)
    assert rebuilt.rounds_from(0) == made.rounds_from(0) == history.rounds_from(0)
    assert history.rounds_from(len(history.actions) - 5) == {
        index: dealt for index, dealt in history.rounds_from(0).items() if index >= len(history.actions) - 5
    }


def test_a_new_action_after_undoing_a_deal_forgets_that_deal() -> None:
    history = History(make_setup(["Ann", "Bob", "Cy"]))
    for action in (SetHand("Ann", 1), Play("Ann", Card.N7)):  # Ann's last card: round 2 is dealt
        history, _ = history.record(action)
    assert history.rounds_from(0) == {1: 2}
    assert history.undo().rounds_from(0) == {1: 2}  # the undone line is still in the log (shown without it)
    history, _ = history.undo().record(SetHand("Ann", 2))
    assert history.rounds_from(0) == {} == _rounds_by_replay(history)
    history, _ = history.record(Play("Ann", Card.N7))
    assert history.rounds_from(0) == {} == _rounds_by_replay(history)
