"""Undo and redo replay from a checkpoint, and always land on exactly the state a full replay gives."""

from __future__ import annotations

import random

from referee.engine import History, Status, make_setup, replay
from referee.engine.history import CHECKPOINT_EVERY
from referee.harness import random_action


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
