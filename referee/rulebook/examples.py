"""Executable examples: a few steps played through the engine and the outcome a rulebook entry states.

An example is written in the engine tests' step language, so a player can read it and the test suite
can play it (tests/rulebook/test_rulebook_examples.py); an entry whose example disagrees with the
engine fails CI, so what the rules panel says and what the referee does cannot drift apart.

    {"players": "Ann Bob Cy Dee", "rules": {"zero_answer_last_card": "goes_out"},
     "steps": ["Cy holds 1", "Ann bomb zeros=Bob,Cy"],
     "expect": "lives Ann 4, Bob 4, Cy 5, Dee 3; round 2; dealer Cy"}

Steps: "Ann 7", "Ann skip" (a card, by API name), "Ann bomb zeros=Bob,Cy" (a Bomb and who discarded a 0),
"Ann bust" / "Ann bust 7" (Can't play), "Ann holds 3" (a hand correction), "tiebreak Ann=4 Bob=0",
"Ann loses 2" (Ann busts twice, the others playing =21 until she faces 21), "to Cy" (Pass Me By until
it is Cy's turn). Expectations, separated by ";": "lives NAME N, ...", "hand NAME N, ...", "total N",
"turn NAME", "round N", "dealer NAME", "direction clockwise|counterclockwise", "draw pile N",
"winner NAME[ and NAME]", "status playing|tiebreak|finished", "out NAME, ...", "refused CODE"
(the last step is refused with that code), "log: TEXT" (the last step's log line contains TEXT).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..engine import (
    Action,
    Bust,
    Card,
    GameState,
    InvalidSetup,
    Leave,
    Play,
    Refused,
    SetHand,
    TieBreak,
    Variant,
    apply,
    describe,
    make_setup,
    new_game,
)
from ..engine.house_rules import HouseRules

# How an example from another game than the table's is introduced: "Example from a Standard game".
GAME_NAMES = {
    Variant.STANDARD.value: "a Standard game",
    Variant.SUDDEN_DEATH.value: "a Sudden Death game",
    Variant.TEAMS.value: "a Teams game",
}


class ExampleError(ValueError):
    """An example that cannot be read (a typo in entries.json, not a disagreement with the engine)."""


@dataclass(frozen=True)
class Example:
    """A short game position and the outcome the entry states for it."""

    players: str
    steps: tuple[str, ...]
    expect: str
    variant: str = "standard"
    rules: tuple[tuple[str, str], ...] = ()
    """The house-rule readings the example assumes (others at their defaults)."""

    @property
    def house_rules(self) -> HouseRules:
        """The switches the example is played under."""
        return HouseRules.from_mapping(dict(self.rules))

    def from_another_game(self, variant: Variant | None) -> str | None:
        """The example's game ("a Standard game") if a table playing `variant` plays another; else None.

        At a Teams table a three-player example's "Ann has 4 lives" is not how that table counts lives (play
        test 6b): the example stays, as the ruling's illustration, and says which game it comes from.
        """
        if variant is None or variant.value == self.variant:
            return None
        return GAME_NAMES[self.variant]

    def applies_to(self, house_rules: HouseRules | None) -> bool:
        """True when a table with `house_rules` would see this outcome (always, without a table)."""
        if house_rules is None:
            return not self.rules or all(HouseRules().as_dict()[name] == value for name, value in self.rules)
        chosen = house_rules.as_dict()
        return all(chosen[name] == value for name, value in self.rules)

    @property
    def notation(self) -> str:
        """The example in the step language, as entries.json writes it (for tests and their messages)."""
        return f"{self.players}: {'; '.join(self.steps)} → {self.expect}"

    @property
    def text(self) -> str:
        """The example in plain words for the rules panel: who plays, what is tapped, what the referee says."""
        return in_words(self)


def parse_example(raw: object, where: str) -> Example:
    """Check one raw example from entries.json; raise ExampleError saying what is wrong."""
    if not isinstance(raw, Mapping):
        raise ExampleError(f"{where}: an example is an object")
    unknown = set(raw) - {"players", "variant", "rules", "steps", "expect"}
    if unknown:
        raise ExampleError(f"{where}: unknown example fields {sorted(unknown)}")
    players, steps, expect = raw.get("players"), raw.get("steps"), raw.get("expect")
    rules = raw.get("rules", {})
    if not isinstance(players, str) or not isinstance(expect, str) or not expect.strip():
        raise ExampleError(f"{where}: an example needs players and expect as text")
    if not isinstance(steps, list) or not steps or not all(isinstance(step, str) for step in steps):
        raise ExampleError(f"{where}: an example needs a list of steps")
    if not isinstance(rules, Mapping) or not all(isinstance(value, str) for value in rules.values()):
        raise ExampleError(f"{where}: an example's rules map switches to readings")
    example = Example(
        players=players,
        steps=tuple(steps),
        expect=expect,
        variant=str(raw.get("variant", "standard")),
        rules=tuple((str(name), value) for name, value in rules.items()),
    )
    try:
        example.house_rules  # noqa: B018 - refuses an unknown switch or reading now, not at play time
    except InvalidSetup as error:
        raise ExampleError(f"{where}: {error.message}") from None
    for step in example.steps:
        _parse_step(step, where)
    return example


def _parse_step(step: str, where: str) -> Action | tuple[str, str, int]:
    words = step.split()
    try:
        if words[0] == "tiebreak":
            return TieBreak(tuple((name, int(value)) for name, value in (word.split("=") for word in words[1:])))
        if words[0] == "to":
            return ("to", words[1], 0)
        player, verb, *rest = words
        if verb == "loses":
            return ("loses", player, int(rest[0]))
        if verb == "bust":
            return Bust(player, Card.parse(rest[0]) if rest else None)
        if verb == "holds":
            return SetHand(player, int(rest[0]))
        if verb == "leaves":
            return Leave(player)
        zeros: tuple[str, ...] = ()
        for word in rest:
            if not word.startswith("zeros="):
                raise ValueError(word)
            zeros += tuple(name for name in word.removeprefix("zeros=").split(",") if name)
        return Play(player, Card.parse(verb), zeros)
    except (ValueError, IndexError):
        raise ExampleError(f"{where}: cannot read the step {step!r}") from None


@dataclass
class _Game:
    state: GameState
    line: str = ""
    refused: Refused | None = None

    def act(self, action: Action) -> None:
        before = self.state
        self.state = apply(before, action)
        self.line = describe(before, action, self.state)

    def current(self) -> str:
        player = self.state.current_player
        if player is None:
            raise ExampleError("the game has no current player")
        return player.name

    def hand(self, name: str) -> int:
        seat = self.state.seat_of(name)
        assert seat is not None
        return self.state.players[seat].hand

    def keep_cards(self, name: str) -> None:
        # Helper moves keep a card in hand, so they never end the round by accident.
        if self.hand(name) < 2:
            self.act(SetHand(name, 5))

    def to_turn(self, name: str) -> None:
        for _ in range(20):
            if self.current().casefold() == name.casefold():
                return
            self.keep_cards(self.current())
            self.act(Play(self.current(), Card.PASS))
        raise ExampleError(f"never reached {name}'s turn")

    def lose(self, name: str, times: int) -> None:
        for _ in range(times):
            for _ in range(20):
                current = self.current()
                if current.casefold() == name.casefold() and self.state.total >= 15:
                    self.act(Bust(current))
                    break
                self.keep_cards(current)
                self.act(Play(current, Card.EQ21))
            else:
                raise ExampleError(f"{name} never faced a bust")


def play(example: Example) -> tuple[GameState, str, Refused | None]:
    """Play the example's steps; return the final state, the last log line, and a refusal of the last step."""
    setup = make_setup(example.players.split(), example.variant, None, None, dict(example.rules))
    game = _Game(new_game(setup))
    for index, step in enumerate(example.steps):
        action = _parse_step(step, "example")
        if isinstance(action, tuple):
            verb, name, count = action
            game.to_turn(name) if verb == "to" else game.lose(name, count)
            continue
        try:
            game.act(action)
        except Refused as refused:
            if index != len(example.steps) - 1:
                raise
            game.refused = refused
    return game.state, game.line, game.refused


def mismatches(example: Example) -> list[str]:
    """Play the example and return every expectation the engine does not meet (empty: it agrees)."""
    state, line, refused = play(example)
    wrong = []
    if refused is not None and not any(part.strip().startswith("refused ") for part in example.expect.split(";")):
        wrong.append(f"the last step was refused: {refused.message}")
    for clause in (part.strip() for part in example.expect.split(";")):
        actual = _actual(clause, state, line, refused)
        if actual is not None:
            wrong.append(f"expected {clause!r}, engine: {actual}")
    return wrong


def _names(state: GameState, text: str) -> list[tuple[str, int]]:
    pairs = []
    for item in text.split(","):
        name, value = item.split()
        pairs.append((name, int(value)))
    return pairs


def _actual(clause: str, state: GameState, line: str, refused: Refused | None) -> str | None:
    """None when the clause holds, else what the engine has instead."""
    key, _, rest = clause.partition(" ")
    lives = {player.name: player.lives for player in state.players}
    hands = {player.name: player.hand for player in state.players}
    current = state.current_player
    checks: dict[str, tuple[object, object]] = {}
    if clause.startswith("log:"):
        text = clause.removeprefix("log:").strip()
        return None if text in line else repr(line)
    if clause.startswith("draw pile "):
        checks["draw"] = (int(clause.removeprefix("draw pile ")), state.draw_pile)
    elif key == "lives":
        checks[key] = (dict(_names(state, rest)), {name: lives[name] for name, _ in _names(state, rest)})
    elif key == "hand":
        checks[key] = (dict(_names(state, rest)), {name: hands[name] for name, _ in _names(state, rest)})
    elif key == "total":
        checks[key] = (int(rest), state.total)
    elif key == "turn":
        checks[key] = (rest, None if current is None else current.name)
    elif key == "round":
        checks[key] = (int(rest), state.round)
    elif key == "dealer":
        checks[key] = (rest, None if state.dealer is None else state.players[state.dealer].name)
    elif key == "direction":
        checks[key] = (rest, "clockwise" if state.direction == 1 else "counterclockwise")
    elif key == "winner":
        checks[key] = (tuple(rest.split(" and ")), state.winners)
    elif key == "status":
        checks[key] = (rest, state.status.value)
    elif key == "out":
        checks[key] = (sorted(name.strip() for name in rest.split(",")), sorted(p.name for p in state.players if p.out))
    elif key == "refused":
        checks[key] = (rest, None if refused is None else refused.code)
    else:
        raise ExampleError(f"cannot read the expectation {clause!r}")
    expected, actual = checks[next(iter(checks))]
    return None if expected == actual else repr(actual)


# --- the example in plain words -----------------------------------------------------------------------


def _names_in_words(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _card_in_words(card: Card) -> str:
    if card is Card.BOMB:
        return "the Bomb"
    return f"a {card.label}" if card.is_number else card.label


def _step_in_words(step: str, teams: bool = False) -> str:
    """One step as a player would say it: "Ann plays Bomb; Bob and Cy each discard a 0"."""
    action = _parse_step(step, "example")
    match action:
        case ("to", name, _):
            return f"play comes round to {name}"
        case ("loses", name, count):
            lives = f"{count} {'life' if count == 1 else 'lives'}"
            return f"{name}'s team has lost {lives}" if teams else f"{name} has lost {lives}"
        case TieBreak(values=values):
            return "the tie-break totals are " + _names_in_words([f"{name} {value}" for name, value in values])
        case Bust(player=player, card=card):
            tried = f" ({_card_in_words(card)} would go over 21)" if card is not None else ""
            return f"{player} can't play{tried}"
        case SetHand(player=player, cards=cards):
            return f"{player}'s hand is corrected to {cards} {'card' if cards == 1 else 'cards'}"
        case Leave(player=player):
            return f"{player} leaves the game"
        case Play(player=player, card=card, zeros=zeros):
            played = f"{player} plays {_card_in_words(card)}"
            if card is Card.BOMB and zeros:
                played += f"; {_names_in_words(list(zeros))} {'discards' if len(zeros) == 1 else 'each discard'} a 0"
            elif card is Card.BOMB:
                played += "; nobody has a 0"
            return played
    raise ExampleError(f"cannot read the step {step!r}")


def _pairs_in_words(rest: str, one: str, many: str) -> str:
    pairs = [item.split() for item in rest.split(",")]
    first, *others = pairs
    unit = one if first[1] == "1" else many
    words = [f"{first[0]} has {first[1]} {unit}"] + [f"{name} {count}" for name, count in others]
    return _names_in_words(words)


def _team_lives_in_words(rest: str, teams: tuple[tuple[str, ...], ...]) -> str:
    """A team game's lives, once per team ("Ann and Cy's team has 4 lives, Bob and Dee's 3"): teammates share
    them (1994 rules, Team play), so naming each player's count read as if each had their own."""
    counts: dict[int, str] = {}
    for name, count in (item.split() for item in rest.split(",")):
        side = next(index for index, team in enumerate(teams) if name in team)
        counts.setdefault(side, count)
    words: list[str] = []
    for side, count in counts.items():
        members = _names_in_words(list(teams[side]))
        unit = "life" if count == "1" else "lives"
        words.append(f"{members}'s team has {count} {unit}" if not words else f"{members}'s {count}")
    return _names_in_words(words)


_DECK_WARNING = re.compile(r"The deck has only |Only \d+ cards? (?:was|were) left to draw")
"""The opening words of the referee's deck warnings (engine/sanity.py): a log clause an example's reader needs."""

_STATUS_WORDS = {"playing": "play goes on", "tiebreak": "a tie-break decides", "finished": "the game is over"}


def _outcome_in_words(clause: str, refused: Refused | None, teams: tuple[tuple[str, ...], ...] = ()) -> str | None:
    """One expectation as the referee would tell it; None for one a player need not read (the log's words)."""
    key, _, rest = clause.partition(" ")
    if key == "lives" and teams:
        return _team_lives_in_words(rest, teams)
    if clause.startswith("log:"):
        said = clause.removeprefix("log:").strip()
        # A deck warning is what the example shows (the deck's counts): the player reads it on the board too.
        return f"the referee warns: “{said} …”" if _DECK_WARNING.match(said) else None
    if clause.startswith("draw pile "):
        left = clause.removeprefix("draw pile ")
        return f"the draw pile has {left} {'card' if left == '1' else 'cards'}"
    words = {
        "lives": lambda: _pairs_in_words(rest, "life", "lives"),
        "hand": lambda: _pairs_in_words(rest, "card", "cards"),
        "total": lambda: f"the total is {rest}",
        "turn": lambda: f"it is {rest}'s turn",
        "round": lambda: f"it is round {rest}",
        "dealer": lambda: f"{rest} deals",
        "direction": lambda: f"play goes {rest}",
        "winner": lambda: f"{rest} {'win' if ' and ' in rest else 'wins'}",
        "status": lambda: _STATUS_WORDS.get(rest, rest),
        "out": lambda: f"{rest.replace(', ', ' and ')} {'is' if ',' not in rest else 'are'} out of the game",
        "refused": lambda: f"the referee refuses it: “{refused.message}”" if refused else "the referee refuses it",
    }
    return words[key]() if key in words else None


@lru_cache(maxsize=256)
def in_words(example: Example) -> str:
    """The example told in plain words, from the same steps and outcome the test suite plays."""
    names = example.players.split()
    players = f"{_names_in_words(names)} play"
    teams: tuple[tuple[str, ...], ...] = ()
    if example.variant == "teams":
        teams = make_setup(names, example.variant, None, None, dict(example.rules)).teams
        sides = [_names_in_words(list(team)) for team in teams]
        players += f" in two teams ({sides[0]} against {sides[1]})"
    steps = [_step_in_words(step, example.variant == "teams") for step in example.steps]
    refused = play(example)[2] if "refused " in example.expect else None
    outcome = [
        words
        for words in (_outcome_in_words(part.strip(), refused, teams) for part in example.expect.split(";"))
        if words is not None
    ]
    told = f"{players}. {'; then '.join(steps)}."
    if outcome:
        ending = "; ".join(outcome)
        # A refusal quoted last already ends its sentence inside the quotes.
        told += f" Result: {ending}" + ("" if ending.endswith(".”") else ".")
    return told[0].upper() + told[1:]
