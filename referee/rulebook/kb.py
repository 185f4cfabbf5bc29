"""Load entries.json once and look entries up; say what a table chose for a disputed point."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ..engine.house_rules import SPECS_BY_NAME, HouseRules
from ..engine.state import Variant
from ..engine.words import N_, Sentence
from .languages import ENGLISH, TRANSLATED, in_language, section_name
from .model import SECTIONS, Entry, RulebookError, parse_entries

DATA_FILE = "entries.json"


@cache
def _load() -> tuple[tuple[Entry, ...], dict[str, Entry]]:
    text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise RulebookError(f"{DATA_FILE} must hold an object with a list of entries")
    parsed = parse_entries(data["entries"])
    by_id = {old: entry for entry in parsed for old in entry.formerly}
    by_id.update((entry.id, entry) for entry in parsed)
    return parsed, by_id


@cache
def _load_in(language: str) -> tuple[tuple[Entry, ...], dict[str, Entry]]:
    """The entries in `language`'s words, and by id (old ids too); English is entries.json itself, and so is a
    language the rulebook has no words for (a page in it shows the English rulebook, not an error)."""
    if language not in TRANSLATED:
        return _load()
    said = in_language(_load()[0], language)
    by_id = {item.id: item for item in said}
    by_id.update((old, by_id[english.id]) for old, english in _load()[1].items())
    return said, by_id


def forget_languages() -> None:
    """Read the language files again on next use (after a test puts another file in place)."""
    _load_in.cache_clear()


def entries(language: str = ENGLISH) -> tuple[Entry, ...]:
    """Every entry, in file order (which is reading order within each section), in `language`'s words."""
    return _load_in(language)[0]


def entry(entry_id: str, language: str = ENGLISH) -> Entry | None:
    """The entry with this id, or the one it was merged into (a "Why?" link target), in `language`'s words, or
    None."""
    return _load_in(language)[1].get(entry_id)


def current_id(entry_id: str) -> str | None:
    """The id an entry has now: itself, or the id of the entry it was merged into; None if there is no such entry."""
    found = entry(entry_id)
    return None if found is None else found.id


def by_section(language: str = ENGLISH) -> tuple[tuple[str, tuple[Entry, ...]], ...]:
    """Entries grouped by section in page order, for a full rules page, each section named in `language`; empty
    sections left out."""
    said = entries(language)
    grouped = ((section, tuple(item for item in said if item.section == section)) for section in SECTIONS)
    return tuple((section_name(section, language), items) for section, items in grouped if items)


# Switches that only some games ever reach, and where: at another table their reading would be "At this table"
# about a point the table never meets ("One Bomb empties both teams" at a Sudden Death table).
ONLY_IN: dict[str, str] = {
    "bomb_teammates": "It only comes up in the team game.",
    "teams_both_out": "It only comes up in the team game.",
    "tiebreak_tie": "It only comes up in a tie-break: in Sudden Death, or in the team game when one Bomb puts both "
    "teams out and a tie-break decides.",
}


def switch_applies(switch: str, house_rules: HouseRules, variant: Variant) -> bool:
    """True when a house rule can come into play at a table of this variant with these switches."""
    match switch:
        case "bomb_teammates" | "teams_both_out":
            return variant is Variant.TEAMS
        case "tiebreak_tie":
            # Sudden Death's tie-break; the team game has one only under the "together" reading of teams_both_out.
            together = variant is Variant.TEAMS and house_rules.teams_both_out == "together"
            return variant is Variant.SUDDEN_DEATH or together
    return True


def games_for_switch(switch: str) -> str:
    """The games (variant values, space-separated) whose tables can meet a house rule with the usual readings;
    "" when every game can. The setup forms show such a question only while one of those games is chosen."""
    games = [variant.value for variant in Variant if switch_applies(switch, HouseRules(), variant)]
    return "" if len(games) == len(Variant) else " ".join(games)


def rules_here(item: Entry, house_rules: HouseRules | None, variant: Variant | None) -> HouseRules | None:
    """The house rules that colour an entry at a table: None without one, or where the entry's switch never
    comes up in the table's game (the entry is then shown as to anyone, with no "At this table")."""
    if house_rules is None or variant is None or item.house_rule is None:
        return house_rules
    return house_rules if switch_applies(item.house_rule, house_rules, variant) else None


def table_note(item: Entry, house_rules: HouseRules | None, variant: Variant | None = None) -> str | None:
    """What this table chose for the entry's house rule, in plain words; None without a switch or a table,
    or (given the table's `variant`) when the switch never comes up in the table's game.

    Players never see a switch's internal name here: the sentence says what happens.

    >>> table_note(entry("bomb-last-card"), HouseRules())  # doctest: +ELLIPSIS
    'At this table: a Bomb as last card costs both lives: ...'
    """
    house_rules = rules_here(item, house_rules, variant)
    if item.house_rule is None or house_rules is None:
        return None
    note = item.note_for(house_rules)
    if note is None:  # unreachable for a validated entry; fall back on the engine's own wording
        value = getattr(house_rules, item.house_rule)
        note = SPECS_BY_NAME[item.house_rule].reading(value).summary
    # A Sentence: the English text, which the face words again in the phone's language around the note (itself
    # already in the language of the entry it came from).
    return Sentence(N_("At this table: %(note)s."), note=note)
