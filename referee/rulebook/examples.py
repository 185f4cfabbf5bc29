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
    make_setup,
    narration,
    new_game,
)
from ..engine.house_rules import HouseRules
from ..engine.words import N_, N_plural, Sentence, names_said

# How an example from another game than the table's is introduced: "Example from a Standard game".
GAME_NAMES = {
    Variant.STANDARD.value: N_("a Standard game"),
    Variant.SUDDEN_DEATH.value: N_("a Sudden Death game"),
    Variant.TEAMS.value: N_("a Teams game"),
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
    def text(self) -> Sentence:
        """The example in plain words for the rules panel: who plays, what is tapped, what the referee says (a
        Sentence: English, which a phone words again in its language)."""
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
    sentences: tuple[Sentence, ...] = ()
    refused: Refused | None = None

    @property
    def line(self) -> str:
        """The last action's log line, in English."""
        return " ".join(self.sentences)

    def act(self, action: Action) -> None:
        before = self.state
        self.state = apply(before, action)
        self.sentences = narration(before, action, self.state)

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
    game = _played(example)
    return game.state, game.line, game.refused


def _played(example: Example) -> _Game:
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
    return game


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
# Told as Sentences (engine/words.py): the English text the API and the tests read, and what a phone words again in
# its own language, each sentence whole, with its plural forms and the players' names as they are.

THEN = N_("%(first)s; then %(next)s")
ALSO = N_("%(first)s; %(next)s")
# The referee's own words quoted: a result that ends with one needs no full stop of its own.
WARNS = N_("the referee warns: “%(warning)s”")
REFUSES = N_("the referee refuses it: “%(refusal)s”")
QUOTES = frozenset({WARNS, REFUSES})
# "Ann has 4 lives, Cy 5": the first of a list says what is counted, the others only a name and a number.
NAME_AND_COUNT = "%(name)s %(count)s"


def _card_played(player: str, card: Card) -> Sentence:
    if card is Card.BOMB:
        return Sentence(N_("%(name)s plays the Bomb"), name=player)
    if card.is_number:
        return Sentence(N_("%(name)s plays a %(card)s"), name=player, card=card.label)
    return Sentence(N_("%(name)s plays %(card)s"), name=player, card=Sentence(card.label))


def _step_in_words(step: str, teams: bool = False) -> Sentence:
    """One step as a player would say it: "Ann plays the Bomb; Bob and Cy each discard a 0"."""
    action = _parse_step(step, "example")
    match action:
        case ("to", name, _):
            return Sentence(N_("play comes round to %(name)s"), name=name)
        case ("loses", name, count):
            if teams:
                lost = N_plural("%(name)s's team has lost %(count)s life", "%(name)s's team has lost %(count)s lives")
            else:
                lost = N_plural("%(name)s has lost %(count)s life", "%(name)s has lost %(count)s lives")
            return Sentence(lost, name=name, count=count)
        case TieBreak(values=values):
            totals = names_said([Sentence(NAME_AND_COUNT, name=name, count=value) for name, value in values])
            return Sentence(N_("the tie-break totals are %(totals)s"), totals=totals)
        case Bust(player=player, card=card):
            if card is None:
                return Sentence(N_("%(name)s can't play"), name=player)
            return Sentence(N_("%(name)s can't play (a %(card)s would go over 21)"), name=player, card=card.label)
        case SetHand(player=player, cards=cards):
            corrected = N_plural(
                "%(name)s's hand is corrected to %(count)s card", "%(name)s's hand is corrected to %(count)s cards"
            )
            return Sentence(corrected, name=player, count=cards)
        case Leave(player=player):
            return Sentence(N_("%(name)s leaves the game"), name=player)
        case Play(player=player, card=card, zeros=zeros):
            played = _card_played(player, card)
            if card is Card.BOMB and zeros:
                discard = N_plural("%(play)s; %(names)s discards a 0", "%(play)s; %(names)s each discard a 0")
                return Sentence(discard, play=played, names=names_said(zeros), count=len(zeros))
            if card is Card.BOMB:
                return Sentence(N_("%(play)s; nobody has a 0"), play=played)
            return played
    raise ExampleError(f"cannot read the step {step!r}")


def _pairs_in_words(rest: str, counted: tuple[str, str]) -> Sentence:
    pairs = [(name, int(count)) for name, count in (item.split() for item in rest.split(","))]
    (first, count), *others = pairs
    words = [Sentence(counted, name=first, count=count)]
    words += [Sentence(NAME_AND_COUNT, name=name, count=count) for name, count in others]
    return names_said(words)


def _team_lives_in_words(rest: str, teams: tuple[tuple[str, ...], ...]) -> Sentence:
    """A team game's lives, once per team ("Ann and Cy's team has 4 lives, Bob and Dee's 3"): teammates share
    them (1994 rules, Team play), so naming each player's count read as if each had their own."""
    counts: dict[int, int] = {}
    for name, written in (item.split() for item in rest.split(",")):
        side = next(index for index, team in enumerate(teams) if name in team)
        counts.setdefault(side, int(written))
    words: list[str] = []
    for side, count in counts.items():
        members = names_said(teams[side])
        if words:
            words.append(Sentence(N_("%(team)s's %(count)s"), team=members, count=count))
        else:
            has = N_plural("%(team)s's team has %(count)s life", "%(team)s's team has %(count)s lives")
            words.append(Sentence(has, team=members, count=count))
    return names_said(words)


_DECK_WARNING = re.compile(r"The deck has only |Only \d+ cards? (?:was|were) left to draw")
"""The opening words of the referee's deck warnings (engine/sanity.py): a log clause an example's reader needs."""

_STATUS_WORDS = {
    "playing": N_("play goes on"),
    "tiebreak": N_("a tie-break decides"),
    "finished": N_("the game is over"),
}
_DIRECTION_WORDS = {"clockwise": N_("play goes clockwise"), "counterclockwise": N_("play goes counterclockwise")}


def _outcome_in_words(clause: str, game: _Game, teams: tuple[tuple[str, ...], ...] = ()) -> Sentence | None:
    """One expectation as the referee would tell it; None for one a player need not read (the log's words)."""
    key, _, rest = clause.partition(" ")
    if key == "lives" and teams:
        return _team_lives_in_words(rest, teams)
    if clause.startswith("log:"):
        opening = clause.removeprefix("log:").strip()
        # A deck warning is what the example shows (the deck's counts): the player reads it on the board too, whole.
        warning = next((said for said in game.sentences if said.startswith(opening)), None)
        if warning is None or not _DECK_WARNING.match(opening):
            return None
        return Sentence(WARNS, warning=warning)
    if clause.startswith("draw pile "):
        left = int(clause.removeprefix("draw pile "))
        return Sentence(N_plural("the draw pile has %(count)s card", "the draw pile has %(count)s cards"), count=left)
    if key == "refused":
        if game.refused is None:
            return Sentence(N_("the referee refuses it"))
        return Sentence(REFUSES, refusal=game.refused.message)
    if key == "winner":
        winners = rest.split(" and ")
        won = N_plural("%(names)s wins", "%(names)s win")
        return Sentence(won, names=names_said(winners), count=len(winners))
    if key == "out":
        out = [name.strip() for name in rest.split(",")]
        gone = N_plural("%(names)s is out of the game", "%(names)s are out of the game")
        return Sentence(gone, names=names_said(out), count=len(out))
    words = {
        "lives": lambda: _pairs_in_words(rest, N_plural("%(name)s has %(count)s life", "%(name)s has %(count)s lives")),
        "hand": lambda: _pairs_in_words(rest, N_plural("%(name)s has %(count)s card", "%(name)s has %(count)s cards")),
        "total": lambda: Sentence(N_("the total is %(total)s"), total=int(rest)),
        "turn": lambda: Sentence(N_("it is %(name)s's turn"), name=rest),
        "round": lambda: Sentence(N_("it is round %(round)s"), round=int(rest)),
        "dealer": lambda: Sentence(N_("%(name)s deals"), name=rest),
        "direction": lambda: Sentence(_DIRECTION_WORDS[rest]),
        "status": lambda: Sentence(_STATUS_WORDS[rest]),
    }
    return words[key]() if key in words else None


@lru_cache(maxsize=256)
def in_words(example: Example) -> Sentence:
    """The example told in plain words, from the same steps and outcome the test suite plays."""
    names = example.players.split()
    if example.variant == "teams":
        teams = make_setup(names, example.variant, None, None, dict(example.rules)).teams
        players = Sentence(
            N_("%(names)s play in two teams (%(first)s against %(second)s)."),
            names=names_said(names),
            first=names_said(teams[0]),
            second=names_said(teams[1]),
        )
    else:
        teams = ()
        players = Sentence(N_("%(names)s play."), names=names_said(names))
    steps = [_step_in_words(step, example.variant == "teams") for step in example.steps]
    game = _played(example)
    outcome = [
        words
        for words in (_outcome_in_words(part.strip(), game, teams) for part in example.expect.split(";"))
        if words is not None
    ]
    told = Sentence(N_("%(players)s %(steps)s."), players=players, steps=_joined(steps, THEN))
    if not outcome:
        return told
    # A refusal or a warning quoted last already ends its sentence inside the quotes.
    quoted_last = outcome[-1].template in QUOTES
    result = N_("%(story)s Result: %(outcome)s") if quoted_last else N_("%(story)s Result: %(outcome)s.")
    return Sentence(result, story=told, outcome=_joined(outcome, ALSO))


def _joined(parts: list[Sentence], template: str) -> Sentence:
    joined = parts[0]
    for part in parts[1:]:
        joined = Sentence(template, first=joined, next=part)
    return joined
