"""Load entries.json once and look entries up; say what a table chose for a disputed point."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ..engine.house_rules import SPECS_BY_NAME, HouseRules
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


def entries() -> tuple[Entry, ...]:
    """Every entry, in file order (which is reading order within each section)."""
    return _load()[0]


def entry(entry_id: str) -> Entry | None:
    """The entry with this id, or the one it was merged into (a "Why?" link target), or None."""
    return _load()[1].get(entry_id)


def current_id(entry_id: str) -> str | None:
    """The id an entry has now: itself, or the id of the entry it was merged into; None if there is no such entry."""
    found = entry(entry_id)
    return None if found is None else found.id


def by_section() -> tuple[tuple[str, tuple[Entry, ...]], ...]:
    """Entries grouped by section in page order, for a full rules page; empty sections left out."""
    grouped = ((section, tuple(item for item in entries() if item.section == section)) for section in SECTIONS)
    return tuple((section, items) for section, items in grouped if items)


def table_note(item: Entry, house_rules: HouseRules | None) -> str | None:
    """What this table chose for the entry's house rule, in plain words; None without a switch or a table.

    Players never see a switch's internal name here (issue 15): the sentence says what happens.

    >>> table_note(entry("bomb-last-card"), HouseRules())  # doctest: +ELLIPSIS
    'At this table: a Bomb as last card costs both lives: ...'
    """
    if item.house_rule is None or house_rules is None:
        return None
    note = item.note_for(house_rules)
    if note is None:  # unreachable for a validated entry; fall back on the engine's own wording
        value = getattr(house_rules, item.house_rule)
        note = SPECS_BY_NAME[item.house_rule].reading(value).summary
    return f"At this table: {note}."
