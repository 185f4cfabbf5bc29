"""Engine benchmark: random legal actions per second and the time to replay a 500-action game.

Run `python -m tools.bench.engine [seconds]`; it prints the figures as JSON. The goals:
at least 20,000 actions/s applied on one core, and a 500-action game replayed in 25 ms or less.
Randomness lives here, outside the engine: a seeded `random.Random` picks among the legal moves.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from referee.engine import (
    HOUSE_RULE_SPECS,
    Action,
    GameState,
    Setup,
    Status,
    apply,
    legal_actions,
    make_setup,
    new_game,
    replay,
)

from ..harness import random_action

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")
VARIANTS = ("standard", "sudden_death", "teams")
REPLAY_LENGTH = 500
REPLAY_RUNS = 21
POOL_ACTIONS = 5_000
GOAL_ACTIONS_PER_SECOND = 20_000
GOAL_REPLAY_MS = 25.0


@dataclass(frozen=True)
class Game:
    """One random legal game: its setup, every action, and the state before each action."""

    setup: Setup
    actions: tuple[Action, ...]
    states: tuple[GameState, ...]


def random_setup(rng: random.Random, variant: str | None = None) -> Setup:
    """Return a random table: variant, 2–6 players (teams 4–6), first player and house rules."""
    chosen = variant or rng.choice(VARIANTS)
    count = rng.randint(4 if chosen == "teams" else 2, 6)
    players = NAMES[:count]
    rules = {spec.name: rng.choice(spec.values) for spec in HOUSE_RULE_SPECS}
    return make_setup(players, chosen, first_player=rng.choice(players), house_rules=rules)


def random_game(rng: random.Random, setup: Setup | None = None, limit: int = 5_000, draw_boost: int = 1) -> Game:
    """Play random legal actions from a fresh table until the game ends (or `limit` actions)."""
    setup = setup or random_setup(rng)
    state = new_game(setup)
    actions: list[Action] = []
    states: list[GameState] = []
    while state.status is not Status.FINISHED and len(actions) < limit:
        action = random_action(rng, state, draw_boost)
        states.append(state)
        actions.append(action)
        state = apply(state, action)
    return Game(setup, tuple(actions), tuple(states))


def _games(rng: random.Random, actions: int) -> list[Game]:
    games: list[Game] = []
    total = 0
    while total < actions:
        game = random_game(rng)
        games.append(game)
        total += len(game.actions)
    return games


@dataclass(frozen=True)
class Rate:
    """How many operations ran, and how long they took by the wall clock and in CPU time."""

    count: int
    wall: float
    cpu: float

    @property
    def per_second(self) -> float:
        """Operations per wall-clock second."""
        return self.count / self.wall

    @property
    def per_cpu_second(self) -> float:
        """Operations per second of this process's CPU time (steadier on a busy machine)."""
        return self.count / self.cpu


def _timed(work: Callable[[Game], int], games: list[Game], seconds: float) -> Rate:
    """Run `work` over the games, again and again, until `seconds` of wall-clock time are spent."""
    wall_clock, cpu_clock = time.perf_counter, time.process_time
    wall = cpu = 0.0
    count = 0
    while wall < seconds:
        for game in games:
            wall_started, cpu_started = wall_clock(), cpu_clock()
            count += work(game)
            wall += wall_clock() - wall_started
            cpu += cpu_clock() - cpu_started
    return Rate(count, wall, max(cpu, 1e-9))


def _apply_all(game: Game) -> int:
    for state, action in zip(game.states, game.actions, strict=True):
        apply(state, action)
    return len(game.actions)


def _legal_all(game: Game) -> int:
    for state in game.states:
        legal_actions(state)
    return len(game.states)


def measure_apply(games: list[Game], seconds: float) -> Rate:
    """Time `apply` alone over every recorded action (each from the state it was chosen in)."""
    return _timed(_apply_all, games, seconds)


def measure_legal(games: list[Game], seconds: float) -> Rate:
    """Time `legal_actions` alone over every recorded state."""
    return _timed(_legal_all, games, seconds)


def long_game(rng: random.Random, length: int = REPLAY_LENGTH) -> Game:
    """Return a random game of at least `length` actions: six players, standard rules, many draws."""
    for _ in range(1_000):
        game = random_game(rng, make_setup(NAMES, "standard"), draw_boost=5)
        if len(game.actions) >= length:
            return game
    raise RuntimeError(f"no random game reached {length} actions")


def measure_replay(game: Game, length: int = REPLAY_LENGTH, runs: int = REPLAY_RUNS) -> list[tuple[float, float]]:
    """Return (wall ms, CPU ms) for each of `runs` replays of the game's first `length` actions."""
    actions = game.actions[:length]
    expected = apply(game.states[length - 1], actions[-1])
    times = []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        final = replay(game.setup, actions)
        times.append(((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000))
        assert final == expected
    return times


def run(seconds: float = 3.0, seed: int = 5) -> dict[str, object]:
    """Run the benchmark for about `seconds` and return its figures (what `main` prints as JSON).

    Random legal games in every variant and under random house rules are recorded first; then
    `apply` alone is timed over their actions, `legal_actions` alone over their states, and a
    500-action game is replayed from its setup several times (the median counts). Rates are per
    wall-clock second; the `_cpu` figures count this process's CPU time only, which a busy
    machine disturbs less.
    """
    rng = random.Random(seed)
    started = time.perf_counter()
    games = _games(rng, POOL_ACTIONS)
    generating = time.perf_counter() - started
    generated = sum(len(game.actions) for game in games)
    applying = measure_apply(games, seconds * 0.5)
    legal = measure_legal(games, seconds * 0.3)
    replays = measure_replay(long_game(rng))
    replay_ms = statistics.median(wall for wall, _ in replays)
    replay_cpu_ms = statistics.median(cpu for _, cpu in replays)
    return {
        "python": sys.version.split()[0],
        "seed": seed,
        "games": len(games),
        "game_actions": generated,
        "apply_actions_per_s": round(applying.per_second),
        "apply_actions_per_s_cpu": round(applying.per_cpu_second),
        "apply_actions_timed": applying.count,
        "legal_actions_per_s": round(legal.per_second),
        "legal_actions_per_s_cpu": round(legal.per_cpu_second),
        "legal_calls_timed": legal.count,
        # A client that asks what is legal before every action pays for both, one after the other.
        "apply_and_legal_actions_per_s": round(1 / (1 / applying.per_second + 1 / legal.per_second)),
        # Recording the pool: choosing a random legal action, applying it, bookkeeping.
        "random_play_actions_per_s": round(generated / generating),
        "replay_actions": REPLAY_LENGTH,
        "replay_ms_median": round(replay_ms, 2),
        "replay_ms_median_cpu": round(replay_cpu_ms, 2),
        "replay_ms_min": round(min(wall for wall, _ in replays), 2),
        "replay_runs": len(replays),
        "goal_actions_per_s": GOAL_ACTIONS_PER_SECOND,
        "goal_replay_ms": GOAL_REPLAY_MS,
        "goals_met": applying.per_second >= GOAL_ACTIONS_PER_SECOND and replay_ms <= GOAL_REPLAY_MS,
    }


def main(argv: list[str] | None = None) -> dict[str, object]:
    """Run the benchmark (optional argument: seconds) and print its figures as JSON."""
    args = sys.argv[1:] if argv is None else argv
    figures = run(float(args[0]) if args else 3.0)
    print(json.dumps(figures, indent=2))
    return figures


if __name__ == "__main__":
    main()
