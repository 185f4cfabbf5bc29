"""Validate a table's setup (names, variant, teams, first player, house rules) and deal round 1."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

from .cards import DECK_SIZE, HAND_SIZE, LIVES
from .errors import InvalidSetup
from .house_rules import HouseRules
from .state import CLOCKWISE, GameState, Player, Setup, Team, Variant, name_key

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MIN_TEAM_PLAYERS = 4
MAX_NAME_LENGTH = 24
# Vietnamese stacks two marks on a letter when written decomposed; three leaves room to spare.
MAX_MARKS_PER_CHARACTER = 3
TEAM_NAMES = ("Team A", "Team B")

# Invisible or control characters: they would make two names look the same on screen.
_HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
# Marks that draw on the character before them do not count as characters of their own.
_MARK_CATEGORIES = {"Mn", "Me"}
# The joiner inside emoji such as a cook (woman + joiner + frying pan) is invisible but not hiding anything there:
# allowed between an emoji (or its skin tone or emoji-style selector) and the next emoji (play test 7c: "👩‍🍳 Mum").
_EMOJI_JOINER = "\u200d"
_JOINS_AFTER = {"So", "Sk"}
_EMOJI_STYLE = "\ufe0f"


def _hidden_at(name: str, index: int) -> bool:
    """True if the character at `index` is invisible or a control character where it stands."""
    ch = name[index]
    if unicodedata.category(ch) not in _HIDDEN_CATEGORIES:
        return False
    if ch == _EMOJI_JOINER and 0 < index < len(name) - 1:
        before, after = name[index - 1], name[index + 1]
        joins = unicodedata.category(before) in _JOINS_AFTER or before == _EMOJI_STYLE
        return not (joins and unicodedata.category(after) == "So")
    return True


def _longest_mark_run(name: str) -> int:
    longest = run = 0
    for ch in name:
        run = run + 1 if unicodedata.category(ch) in _MARK_CATEGORIES else 0
        longest = max(longest, run)
    return longest


def clean_name(raw: object) -> str:
    """Return a player's name with spaces tidied; refuse empty, hidden or over-long names."""
    if not isinstance(raw, str):
        raise InvalidSetup("bad_name", "Each player needs a name written as text.", field="players")
    # One way to write each accent (NFC): a name typed on two phones is stored and shown the same.
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not name:
        raise InvalidSetup("bad_name", "Every player needs a name.", field="players")
    if any(_hidden_at(name, index) for index in range(len(name))):
        raise InvalidSetup(
            "bad_name",
            "Names can't contain hidden or control characters.",
            field="players",
        )
    visible = sum(1 for ch in name if unicodedata.category(ch) not in _MARK_CATEGORIES)
    if _longest_mark_run(name) > MAX_MARKS_PER_CHARACTER:
        # Accents, yes; a tower of them, no: stacked marks draw over the lines around the name on every
        # phone, and 5,000 of them on one letter are a 10 KB "one-character" name.
        raise InvalidSetup("bad_name", "Names can't pile up accents on one letter.", field="players")
    if visible > MAX_NAME_LENGTH:
        raise InvalidSetup(
            "bad_name",
            f"Names can be at most {MAX_NAME_LENGTH} characters; {name[:12]}… is {visible}.",
            field="players",
        )
    return name


def make_setup(
    players: Sequence[object],
    variant: str = "standard",
    teams: Sequence[Sequence[object]] | None = None,
    first_player: str | None = None,
    house_rules: Mapping[str, object] | None = None,
) -> Setup:
    """Check a requested table and return its Setup, or raise InvalidSetup saying what to fix."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidSetup("bad_players", "Give the players as a list of names.", field="players")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidSetup(
            "bad_player_count",
            f"5 Alive needs {MIN_PLAYERS} to {MAX_PLAYERS} players; you named {len(players)}.",
            field="players",
        )
    names = tuple(clean_name(raw) for raw in players)
    seen: dict[str, str] = {}
    for name in names:
        folded = name_key(name)
        if folded in seen:
            raise InvalidSetup(
                "duplicate_name",
                f"Two players are called {name}: add an initial so everyone can tell them apart.",
                field="players",
            )
        seen[folded] = name

    try:
        chosen_variant = Variant(variant)
    except ValueError:
        raise InvalidSetup(
            "bad_variant",
            "The variant must be standard, sudden_death or teams.",
            field="variant",
        ) from None

    team_tuple: tuple[tuple[str, ...], ...] = ()
    if chosen_variant is Variant.TEAMS:
        team_tuple = _check_teams(names, seen, teams)
    elif teams:
        raise InvalidSetup("bad_teams", "Teams are only for the team game.", field="teams")

    first = names[0]
    if first_player not in (None, ""):
        if not isinstance(first_player, str) or name_key(first_player.strip()) not in seen:
            raise InvalidSetup(
                "bad_first_player",
                "The first player must be one of the players.",
                field="first_player",
            )
        first = seen[name_key(first_player.strip())]

    return Setup(
        players=names,
        variant=chosen_variant,
        teams=team_tuple,
        first_player=first,
        house_rules=HouseRules.from_mapping(house_rules),
    )


def _check_teams(
    names: tuple[str, ...],
    seen: Mapping[str, str],
    teams: Sequence[Sequence[object]] | None,
) -> tuple[tuple[str, ...], ...]:
    """Return two teams that cover every player once and sit alternately (1994 rules: Team play)."""
    if not MIN_TEAM_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidSetup(
            "bad_player_count",
            f"The team game needs {MIN_TEAM_PLAYERS} to {MAX_PLAYERS} players; you named {len(names)}.",
            field="players",
        )
    if not teams:
        # Default: the seats alternate, so every other player is on the same team.
        return (names[0::2], names[1::2])
    if isinstance(teams, str) or len(teams) != 2:
        raise InvalidSetup("bad_teams", "The team game needs exactly two teams.", field="teams")
    resolved: list[tuple[str, ...]] = []
    placed: set[str] = set()
    for index, team in enumerate(teams):
        if isinstance(team, str) or not isinstance(team, Sequence):
            raise InvalidSetup("bad_teams", "Each team needs at least one player.", field="teams")
        if not team:
            raise InvalidSetup("bad_teams", f"Put at least one player in {TEAM_NAMES[index]}.", field="teams")
        members = []
        for raw in team:
            folded = name_key(raw.strip()) if isinstance(raw, str) else None
            if folded is None or folded not in seen:
                raise InvalidSetup("bad_teams", f"{raw!s:.24} is not one of the players.", field="teams")
            if folded in placed:
                raise InvalidSetup("bad_teams", f"{seen[folded]} is on a team twice.", field="teams")
            placed.add(folded)
            members.append(seen[folded])
        resolved.append(tuple(members))
    missing = [name for name in names if name_key(name) not in placed]
    if missing:
        raise InvalidSetup("bad_teams", f"{missing[0]} is not on a team.", field="teams")
    if abs(len(resolved[0]) - len(resolved[1])) > 1:
        raise InvalidSetup(
            "bad_teams",
            "The two teams must be the same size, or differ by one with five players.",
            field="teams",
        )
    team_of = {name: index for index, team in enumerate(resolved) for name in team}
    neighbours_alike = sum(
        team_of[names[seat]] == team_of[names[(seat + 1) % len(names)]] for seat in range(len(names))
    )
    # Seats alternate "as far as the numbers allow": with five, one pair of teammates must sit together.
    if neighbours_alike > len(names) % 2:
        larger, smaller = sorted(resolved, key=len, reverse=True)
        suggested = [name for pair in zip(larger, smaller, strict=False) for name in pair]
        suggested += larger[len(smaller) :]
        raise InvalidSetup(
            "teams_not_alternating",
            "Team mates should not sit side by side. Try this seat order: " + ", ".join(suggested) + ".",
            field="teams",
        )
    return (resolved[0], resolved[1])


def new_game(setup: Setup) -> GameState:
    """Deal round 1: ten cards each, total 0, clockwise, the chosen first player to start."""
    seat_of = {name: seat for seat, name in enumerate(setup.players)}
    team_of: dict[str, int] = {}
    teams: tuple[Team, ...] = ()
    if setup.variant is Variant.TEAMS:
        teams = tuple(
            Team(name=TEAM_NAMES[index], seats=tuple(sorted(seat_of[name] for name in members)), lives=LIVES)
            for index, members in enumerate(setup.teams)
        )
        team_of = {name: index for index, members in enumerate(setup.teams) for name in members}
    players = tuple(Player(name=name, lives=LIVES, hand=HAND_SIZE, team=team_of.get(name)) for name in setup.players)
    first = seat_of[setup.first_player or setup.players[0]]
    return GameState(
        setup=setup,
        players=players,
        teams=teams,
        round=1,
        total=0,
        direction=CLOCKWISE,
        current=first,
        # The dealer sits before the first player: play starts on the dealer's left (1994 rules).
        dealer=(first - 1) % len(players),
        draw_pile=DECK_SIZE - HAND_SIZE * len(players),
        discard_pile=0,
    )
