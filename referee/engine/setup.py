"""Validate a table's setup (names, variant, teams, first player, house rules) and deal round 1."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

from .cards import DECK_SIZE, HAND_SIZE, LIVES
from .errors import InvalidSetup
from .house_rules import HouseRules
from .names import hidden_at, look_alike_keys
from .state import CLOCKWISE, GameState, Player, Setup, Team, Variant, name_key
from .words import N_, Sentence

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MIN_TEAM_PLAYERS = 4
MAX_NAME_LENGTH = 24
# Vietnamese stacks two marks on a letter when written decomposed; three leaves room to spare.
MAX_MARKS_PER_CHARACTER = 3
# Said in the phone's language wherever a sentence names a team (engine/words.py).
TEAM_NAMES = (N_("Team A"), N_("Team B"))

# Marks that draw on the character before them do not count as characters of their own.
_MARK_CATEGORIES = {"Mn", "Me"}


def _longest_mark_run(name: str) -> int:
    longest = run = 0
    for ch in name:
        run = run + 1 if unicodedata.category(ch) in _MARK_CATEGORIES else 0
        longest = max(longest, run)
    return longest


def clean_name(raw: object) -> str:
    """Return a player's name in one form (NFKC) with spaces tidied; refuse empty, hidden or over-long names."""
    if not isinstance(raw, str):
        raise InvalidSetup("bad_name", N_("Each player needs a name written as text."), field="players")
    # One way to write each letter (NFKC): a name typed on two phones is stored and shown the same, accents typed
    # either way (one letter, or a letter and a combining accent) and full-width or styled letters ("ＡＮＮ", "𝐀𝐧𝐧")
    # stored as the plain ones.
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise InvalidSetup("bad_name", N_("Every player needs a name."), field="players")
    hidden = [hidden_at(name, index) for index in range(len(name))]
    if all(hidden):
        # Only characters that draw nothing (a Hangul filler, a blank Braille cell): a blank seat.
        raise InvalidSetup("bad_name", N_("Every player needs a name you can see."), field="players")
    if any(hidden):
        # Invisible characters would make two names that look the same into two players.
        raise InvalidSetup(
            "bad_name",
            N_("Names can't contain hidden or control characters: type the name again."),
            field="players",
        )
    visible = sum(1 for ch in name if unicodedata.category(ch) not in _MARK_CATEGORIES)
    if _longest_mark_run(name) > MAX_MARKS_PER_CHARACTER:
        # Accents, yes; a tower of them, no: stacked marks draw over the lines around the name on every
        # phone, and 5,000 of them on one letter are a 10 KB "one-character" name.
        raise InvalidSetup("bad_name", N_("Names can't pile up accents on one letter."), field="players")
    if visible > MAX_NAME_LENGTH:
        raise InvalidSetup(
            "bad_name",
            N_("Names can be at most %(most)s characters; %(name)s… is %(length)s."),
            field="players",
            most=MAX_NAME_LENGTH,
            name=name[:12],
            length=visible,
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
        raise InvalidSetup("bad_players", N_("Give the players as a list of names."), field="players")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidSetup(
            "bad_player_count",
            N_("5 Alive needs %(least)s to %(most)s players; you named %(named)s."),
            field="players",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            named=len(players),
        )
    names = tuple(clean_name(raw) for raw in players)
    seen = _distinct(names)

    try:
        chosen_variant = Variant(variant)
    except ValueError:
        raise InvalidSetup(
            "bad_variant",
            N_("The variant must be standard, sudden_death or teams."),
            field="variant",
        ) from None

    team_tuple: tuple[tuple[str, ...], ...] = ()
    if chosen_variant is Variant.TEAMS:
        team_tuple = _check_teams(names, seen, teams)
    elif teams:
        raise InvalidSetup("bad_teams", N_("Teams are only for the team game."), field="teams")

    first = names[0]
    if first_player not in (None, ""):
        if not isinstance(first_player, str) or name_key(first_player.strip()) not in seen:
            raise InvalidSetup(
                "bad_first_player",
                N_("The first player must be one of the players."),
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


def stored_setup(
    players: Sequence[str],
    variant: str,
    teams: Sequence[Sequence[str]],
    first_player: str,
    house_rules: Mapping[str, object],
) -> Setup:
    """A table's setup read back as it was stored: its names were checked when the table was made, so a table keeps
    the names it started with (its log, its phones and its series name them) when the rules for new names change."""

    def spelt(name: str) -> str:
        return unicodedata.normalize("NFC", name)  # accents typed either way meet; NFKC would rename stored names

    names = tuple(spelt(name) for name in players)
    chosen = Variant(variant)
    kept = tuple(tuple(spelt(name) for name in team) for team in teams)
    return Setup(
        players=names,
        variant=chosen,
        teams=kept or ((names[0::2], names[1::2]) if chosen is Variant.TEAMS else ()),
        first_player=spelt(first_player) if first_player else names[0],
        house_rules=HouseRules.from_mapping(house_rules),
    )


def _distinct(names: tuple[str, ...]) -> dict[str, str]:
    """Each name by its key (name_key); refuse two names that are one, or that look alike on a phone."""
    seen: dict[str, str] = {}
    looks: dict[str, str] = {}
    for name in names:
        if name_key(name) in seen:
            raise InvalidSetup(
                "duplicate_name",
                N_("Two players are called %(name)s: add an initial so everyone can tell them apart."),
                field="players",
                name=name,
            )
        keys = look_alike_keys(name)
        twin = next((looks[key] for key in keys if key in looks), None)
        if twin is not None:
            # Cyrillic "Аnn" beside Latin "Ann", "I" beside "l", "rn" beside "m" (Unicode TR39's confusables).
            raise InvalidSetup(
                "look_alike_name",
                N_("%(twin)s and %(name)s look alike: add an initial to one of them so everyone can tell them apart."),
                field="players",
                twin=twin,
                name=name,
            )
        seen[name_key(name)] = name
        looks.update(dict.fromkeys(keys, name))
    return seen


def _check_teams(
    names: tuple[str, ...],
    seen: Mapping[str, str],
    teams: Sequence[Sequence[object]] | None,
) -> tuple[tuple[str, ...], ...]:
    """Return two teams that cover every player once and sit alternately (1994 rules: Team play)."""
    if not MIN_TEAM_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidSetup(
            "bad_player_count",
            N_("The team game needs %(least)s to %(most)s players; you named %(named)s."),
            field="players",
            least=MIN_TEAM_PLAYERS,
            most=MAX_PLAYERS,
            named=len(names),
        )
    if not teams:
        # Default: the seats alternate, so every other player is on the same team.
        return (names[0::2], names[1::2])
    if isinstance(teams, str) or len(teams) != 2:
        raise InvalidSetup("bad_teams", N_("The team game needs exactly two teams."), field="teams")
    resolved: list[tuple[str, ...]] = []
    placed: set[str] = set()
    for index, team in enumerate(teams):
        if isinstance(team, str) or not isinstance(team, Sequence):
            raise InvalidSetup("bad_teams", N_("Each team needs at least one player."), field="teams")
        if not team:
            raise InvalidSetup(
                "bad_teams", N_("Put at least one player in %(team)s."), field="teams", team=Sentence(TEAM_NAMES[index])
            )
        members = []
        for raw in team:
            folded = name_key(raw.strip()) if isinstance(raw, str) else None
            if folded is None or folded not in seen:
                raise InvalidSetup(
                    "bad_teams", N_("%(name)s is not one of the players."), field="teams", name=str(raw)[:24]
                )
            if folded in placed:
                raise InvalidSetup("bad_teams", N_("%(name)s is on a team twice."), field="teams", name=seen[folded])
            placed.add(folded)
            members.append(seen[folded])
        resolved.append(tuple(members))
    missing = [name for name in names if name_key(name) not in placed]
    if missing:
        raise InvalidSetup("bad_teams", N_("%(name)s is not on a team."), field="teams", name=missing[0])
    if abs(len(resolved[0]) - len(resolved[1])) > 1:
        raise InvalidSetup(
            "bad_teams",
            N_("The two teams must be the same size, or differ by one with five players."),
            field="teams",
        )
    _check_alternating(names, resolved)
    return (resolved[0], resolved[1])


def _check_alternating(names: tuple[str, ...], resolved: list[tuple[str, ...]]) -> None:
    """Refuse teams whose mates sit side by side, with a seat order that alternates them."""
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
            N_("Team mates should not sit side by side. Try this seat order: %(order)s."),
            field="teams",
            order=", ".join(suggested),
        )


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
