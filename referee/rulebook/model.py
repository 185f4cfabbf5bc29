"""The rulebook's data: typed, frozen entries parsed and checked from entries.json."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine import Variant
from ..engine.house_rules import SPECS_BY_NAME, HouseRules
from .examples import Example, ExampleError, parse_example

# The readings a table gets unless it chooses others: what an entry's verdict states.
USUAL = HouseRules()

KINDS = ("rule", "faq")
"""A "rule" states part of the game; a "faq" settles one question people argue about."""

SECTIONS = (
    "The game",
    "Setup",
    "Playing a turn",
    "Number cards",
    "Wild cards",
    "Bomb",
    "Hand in & Re-deal",
    "Bust",
    "Going out",
    "Rounds",
    "Lives and elimination",
    "Two players",
    "Sudden Death",
    "Teams",
    "Using the referee",
)
"""The sections of the rules page, in reading order."""

EDGE_CASES = range(1, 53)
"""The numbered edge cases of ../shared/RULES-NOTES.md."""

NAMED_SOURCES = ("1994 rules", "how-to FAQ", "modern text", "interpretation by ")
"""Every source names at least one of these; an interpretation also says whose."""

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_REQUIRED = ("id", "kind", "section", "title", "questions", "answer", "reasoning", "source")
_OPTIONAL = ("verdict", "house_rule", "table_notes", "edge_cases", "aliases", "see_also", "examples", "formerly")
MAX_VERDICT_WORDS = 10
"""A verdict is said in a few words ("One 0 per Bomb: keep any others.")."""


class RulebookError(ValueError):
    """entries.json is malformed or contradicts the engine."""


@dataclass(frozen=True)
class Entry:
    """One ruling: what people ask, the one-sentence answer, why, and where it comes from."""

    id: str
    kind: str
    section: str
    title: str
    questions: tuple[str, ...]
    answer: str
    reasoning: str
    source: str
    house_rule: str | None = None
    """The HOUSE_RULE_SPECS switch that governs this ruling, if any."""
    table_notes: tuple[tuple[str, str], ...] = ()
    """(switch value, what that reading means for this question), one per value of `house_rule`."""
    edge_cases: tuple[int, ...] = ()
    """RULES-NOTES.md edge-case numbers this entry settles."""
    aliases: tuple[str, ...] = ()
    """Other names and keywords people use for this topic (search only)."""
    see_also: tuple[str, ...] = ()
    """Ids of related entries."""
    verdict: str | None = None
    """The ruling in a few words, said first ("One 0 per Bomb: keep any others.")."""
    examples: tuple[Example, ...] = ()
    """Short games that show the outcome the entry states; the tests play each through the engine."""
    formerly: tuple[str, ...] = ()
    """Ids of entries merged into this one: a link, a log line or a labelled question naming one of them still
    finds this entry."""

    @property
    def headline(self) -> str:
        """What an answer opens with: the verdict, or the title for an entry that only explains."""
        return self.verdict or self.title

    def examples_for(self, house_rules: HouseRules | None, variant: Variant | None = None) -> tuple[Example, ...]:
        """The examples whose switches match this table (without a table: the default readings), those from the
        table's own game first."""
        matching = [example for example in self.examples if example.applies_to(house_rules)]
        return tuple(sorted(matching, key=lambda example: example.from_another_game(variant) is not None))

    def usual_at(self, house_rules: HouseRules | None) -> bool:
        """False when this table chose another reading of the entry's house rule than the usual one."""
        if self.house_rule is None or house_rules is None:
            return True
        return bool(getattr(house_rules, self.house_rule) == getattr(USUAL, self.house_rule))

    def note_for(self, house_rules: HouseRules) -> str | None:
        """Return this entry's sentence for the reading `house_rules` chose, if it has a switch."""
        if self.house_rule is None:
            return None
        value = getattr(house_rules, self.house_rule)
        return dict(self.table_notes).get(value)


@dataclass(frozen=True)
class SearchResult:
    """One search hit: the entry, its score, and what this table chose if a house rule governs it."""

    entry: Entry
    score: float
    table_note: str | None = None
    example: Example | None = None
    """A short game showing the ruling, as this table (or, without one, the default) would play it."""
    usual: bool = True
    """False when the table chose another reading than the usual one: its own ruling then opens the answer."""
    game: Variant | None = None
    """The game the asking table plays (None without a table)."""

    @property
    def example_from(self) -> str | None:
        """The example's game ("a Standard game") when it is not the asking table's."""
        return None if self.example is None else self.example.from_another_game(self.game)

    @property
    def verdict(self) -> str:
        """What the answer opens with: the ruling in a few words (the title where an entry only explains), or
        this table's ruling where it chose another reading, so the bold line is never the other tables' answer."""
        if not self.usual and self.table_note:
            return self.table_note
        return self.entry.headline

    @property
    def id(self) -> str:
        """The entry's id (the target of a "Why?" link)."""
        return self.entry.id

    @property
    def title(self) -> str:
        """The entry's title."""
        return self.entry.title

    @property
    def answer(self) -> str:
        """The entry's one-sentence answer."""
        return self.entry.answer

    @property
    def source(self) -> str:
        """Where the ruling comes from."""
        return self.entry.source

    @property
    def house_rule(self) -> str | None:
        """The switch that governs the ruling, or None."""
        return self.entry.house_rule


def _text(raw: Mapping[str, object], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RulebookError(f"{where}: {key} must be non-empty text")
    if value != value.strip() or "  " in value:
        raise RulebookError(f"{where}: {key} has stray spaces")
    return value


def _texts(raw: Mapping[str, object], key: str, where: str, minimum: int = 0) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise RulebookError(f"{where}: {key} must be a list of non-empty texts")
    if len(value) < minimum:
        raise RulebookError(f"{where}: {key} needs at least {minimum} items")
    if len(set(value)) != len(value):
        raise RulebookError(f"{where}: {key} repeats an item")
    return tuple(value)


def _table_notes(raw: Mapping[str, object], house_rule: object, where: str) -> tuple[tuple[str, str], ...]:
    """Check an entry's "At this table" notes: one per reading of its house rule, or none without one."""
    raw_notes = raw.get("table_notes", {})
    if not isinstance(raw_notes, dict):
        raise RulebookError(f"{where}: table_notes must be an object")
    if house_rule is None:
        if raw_notes:
            raise RulebookError(f"{where}: table_notes need a house_rule")
        return ()
    if not isinstance(house_rule, str) or house_rule not in SPECS_BY_NAME:
        raise RulebookError(f"{where}: {house_rule!r} is not a house rule in the engine's HOUSE_RULE_SPECS")
    values = SPECS_BY_NAME[house_rule].values
    if set(raw_notes) != set(values):
        raise RulebookError(f"{where}: table_notes must give exactly the readings {values} of {house_rule}")
    if not all(isinstance(note, str) and note.strip() for note in raw_notes.values()):
        raise RulebookError(f"{where}: every table note must be non-empty text")
    return tuple((value, str(raw_notes[value])) for value in values)


def _verdict_and_examples(raw: Mapping[str, object], where: str) -> tuple[str | None, tuple[Example, ...]]:
    """The entry's verdict (a few words, optional) and its executable examples, checked."""
    verdict = None
    if raw.get("verdict") is not None:
        verdict = _text(raw, "verdict", where)
        if len(verdict.split()) > MAX_VERDICT_WORDS:
            raise RulebookError(f"{where}: a verdict is at most {MAX_VERDICT_WORDS} words")
    raw_examples = raw.get("examples", [])
    if not isinstance(raw_examples, list):
        raise RulebookError(f"{where}: examples must be a list")
    try:
        return verdict, tuple(parse_example(item, where) for item in raw_examples)
    except ExampleError as error:
        raise RulebookError(str(error)) from None


def parse_entry(raw: object) -> Entry:
    """Check one raw JSON entry and return it typed; raise RulebookError saying what is wrong."""
    if not isinstance(raw, dict):
        raise RulebookError("every entry must be a JSON object")
    where = f"entry {raw.get('id')!r}"
    unknown = set(raw) - set(_REQUIRED) - set(_OPTIONAL)
    if unknown:
        raise RulebookError(f"{where}: unknown fields {sorted(unknown)}")
    entry_id = _text(raw, "id", where)
    if not _ID.match(entry_id):
        raise RulebookError(f"{where}: ids are kebab-case (a-z, 0-9, single hyphens)")
    kind = _text(raw, "kind", where)
    if kind not in KINDS:
        raise RulebookError(f"{where}: kind must be one of {KINDS}")
    section = _text(raw, "section", where)
    if section not in SECTIONS:
        raise RulebookError(f"{where}: unknown section {section!r}")
    source = _text(raw, "source", where)
    if not any(name in source for name in NAMED_SOURCES):
        raise RulebookError(f"{where}: the source must name a text or say whose interpretation it is")
    if "interpretation" in source and "interpretation by " not in source:
        raise RulebookError(f"{where}: say whose interpretation it is ('interpretation by ...')")

    house_rule = raw.get("house_rule")
    notes = _table_notes(raw, house_rule, where)

    edge_cases = raw.get("edge_cases", [])
    if not isinstance(edge_cases, list) or not all(
        isinstance(number, int) and not isinstance(number, bool) and number in EDGE_CASES for number in edge_cases
    ):
        raise RulebookError(f"{where}: edge_cases must list RULES-NOTES numbers 1-52")

    verdict, examples = _verdict_and_examples(raw, where)
    return Entry(
        id=entry_id,
        kind=kind,
        section=section,
        title=_text(raw, "title", where),
        questions=_texts(raw, "questions", where, minimum=2),
        answer=_text(raw, "answer", where),
        reasoning=_text(raw, "reasoning", where),
        source=source,
        house_rule=house_rule,
        table_notes=notes,
        edge_cases=tuple(edge_cases),
        aliases=_texts(raw, "aliases", where),
        see_also=_texts(raw, "see_also", where),
        verdict=verdict,
        examples=examples,
        formerly=_texts(raw, "formerly", where),
    )


def parse_entries(raw_entries: Sequence[object]) -> tuple[Entry, ...]:
    """Parse every entry and check what spans entries: unique ids, old ids claimed once, links that resolve."""
    parsed = tuple(parse_entry(raw) for raw in raw_entries)
    seen: set[str] = set()
    for entry in parsed:
        if entry.id in seen:
            raise RulebookError(f"two entries have the id {entry.id!r}")
        seen.add(entry.id)
    claimed: set[str] = set()
    for entry in parsed:
        for old in entry.formerly:
            # An old id is an address that must lead to exactly one entry, and never shadow a live one.
            if not _ID.match(old) or old in seen or old in claimed:
                raise RulebookError(f"entry {entry.id!r}: formerly names {old!r}, a live id, a claimed one or no id")
            claimed.add(old)
    for entry in parsed:
        for target in entry.see_also:
            if target not in seen or target == entry.id:
                raise RulebookError(f"entry {entry.id!r}: see_also names {target!r}, which is not another entry")
    return parsed
