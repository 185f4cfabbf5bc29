"""The rulebook in other languages: entries.json gives the structure, a language's rulebook.json gives the words.

referee/translations/<language>/rulebook.json holds, for every entry of entries.json, its title, verdict (where the
English has one), answer, reasoning, "At this table" notes (the same readings), aliases and the questions players
ask in that language, and the sections' names:

    {"about": "...", "sections": {"<English section>": "...", ...},
     "entries": {"<id>": {"title", "verdict"?, "answer", "reasoning", "table_notes"?, "aliases", "questions"}}}

Ids, kind, house rule, links, examples, edge cases and sources stay the English file's: a translation changes what
an entry says, never what it rules. Each file is read once, on first use, from the installed package.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from .model import MAX_VERDICT_WORDS, SECTIONS, Entry, RulebookError

ENGLISH = "en"
TRANSLATED = ("fr", "de")
"""The languages whose words come from a rulebook.json of their own (English is entries.json itself)."""

WORDS_FILE = "rulebook.json"
_ENTRY_FIELDS = frozenset({"title", "verdict", "answer", "reasoning", "table_notes", "aliases", "questions"})
_SAID = ("title", "answer", "reasoning")
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
"""A word of a verdict: French typography spaces its colons and semicolons, which are no words."""


_ELSEWHERE: list[Path] = []
"""A folder read instead of the installed package's translations (`use_words_from`), if one was given."""


def use_words_from(directory: Path | None) -> None:
    """Read each language's rulebook.json from `directory`/<language>/ from now on (None: the installed package's)."""
    _ELSEWHERE[:] = [] if directory is None else [directory]
    forget()


def words_file(language: str) -> Traversable:
    """Where `language`'s rulebook.json is read from: referee/translations/<language>/ of the installed package."""
    if _ELSEWHERE:
        return _ELSEWHERE[0] / language / WORDS_FILE
    return resources.files("referee").joinpath("translations", language, WORDS_FILE)


@cache
def words(language: str) -> Mapping[str, object]:
    """`language`'s rulebook.json as read (once per process); RulebookError if it is missing or not an object."""
    if language not in TRANSLATED:
        raise RulebookError(f"the rulebook has no words for the language {language!r}")
    found = words_file(language)
    if not found.is_file():
        raise RulebookError(
            f"{found} is missing: the rules panel has no {language} words "
            "(the package was built without it, or it was never written)"
        )
    try:
        data = json.loads(found.read_text(encoding="utf-8"))
    except ValueError as error:
        raise RulebookError(f"{found} is not valid JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
        raise RulebookError(f"{found} must hold an object with an entries object")
    return data


def forget() -> None:
    """Read the language files again on next use (after a test puts another file in place)."""
    words.cache_clear()


def _texts(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value):
        return tuple(value)
    return None


def problems(english: Sequence[Entry], data: Mapping[str, object], language: str = "") -> list[str]:
    """Everything that keeps `data` (a language's rulebook.json) from being the whole rulebook in that language: an
    entry or section missing or extra, a field missing or unknown, a verdict where English has none (or none where it
    has one), a verdict over MAX_VERDICT_WORDS words, "At this table" notes for other readings. Empty when whole."""
    where = f"{language} " if language else ""
    found: list[str] = []
    sections = data.get("sections")
    if not isinstance(sections, dict):
        return [f"{where}sections must be an object"]
    used = {item.section for item in english}
    for section in SECTIONS:
        if section in used and not (isinstance(sections.get(section), str) and sections[section].strip()):
            found.append(f"{where}section {section!r} has no name")
    found += [f"{where}section {name!r} is not a section of the rulebook" for name in sorted(set(sections) - used)]
    raw_entries = data.get("entries")
    if not isinstance(raw_entries, dict):
        return [*found, f"{where}entries must be an object"]
    ids = {item.id for item in english}
    found += [f"{where}entry {entry_id!r} is not in entries.json" for entry_id in sorted(set(raw_entries) - ids)]
    for item in english:
        raw = raw_entries.get(item.id)
        if not isinstance(raw, dict):
            found.append(f"{where}entry {item.id!r} is missing")
            continue
        found += [f"{where}entry {item.id!r}: {problem}" for problem in _entry_problems(item, raw)]
    return found


def _entry_problems(item: Entry, raw: Mapping[str, object]) -> list[str]:
    """What is wrong with one entry's words, against its English entry."""
    found = [f"unknown field {name!r}" for name in sorted(set(raw) - _ENTRY_FIELDS)]
    for name in _SAID:
        if not (isinstance(raw.get(name), str) and str(raw[name]).strip()):
            found.append(f"{name} must be non-empty text")
    for name in ("aliases", "questions"):
        if _texts(raw.get(name)) is None:
            found.append(f"{name} must be a list of non-empty texts")
    verdict = raw.get("verdict")
    if item.verdict is None and verdict is not None:
        found.append("has a verdict, which the English entry does not")
    if item.verdict is not None:
        if not (isinstance(verdict, str) and verdict.strip()):
            found.append("needs a verdict, as the English entry has one")
        elif len(_WORD.findall(verdict)) > MAX_VERDICT_WORDS:
            found.append(f"the verdict is over {MAX_VERDICT_WORDS} words")
    notes = raw.get("table_notes", {})
    readings = {value for value, _ in item.table_notes}
    if not isinstance(notes, dict) or set(notes) != readings:
        found.append(f"table_notes must give exactly the readings {sorted(readings)}")
    elif not all(isinstance(note, str) and note.strip() for note in notes.values()):
        found.append("every table note must be non-empty text")
    return found


def translated(item: Entry, raw: object) -> Entry:
    """`item` in another language's words (`raw`, its rulebook.json entry); a word the file lacks stays English."""
    if not isinstance(raw, dict):
        return item
    title, answer, reasoning = (str(raw[name]) if isinstance(raw.get(name), str) else "" for name in _SAID)
    verdict = raw.get("verdict") if isinstance(raw.get("verdict"), str) and item.verdict else item.verdict
    notes = raw.get("table_notes")
    table_notes = item.table_notes
    if isinstance(notes, dict):
        table_notes = tuple((value, str(notes.get(value) or note)) for value, note in item.table_notes)
    return dataclasses.replace(
        item,
        title=title or item.title,
        answer=answer or item.answer,
        reasoning=reasoning or item.reasoning,
        verdict=verdict,
        table_notes=table_notes,
        aliases=_texts(raw.get("aliases")) or item.aliases,
        questions=_texts(raw.get("questions")) or item.questions,
    )


def in_language(english: Sequence[Entry], language: str) -> tuple[Entry, ...]:
    """Every entry in `language`'s words, in the English file's order."""
    raw_entries = words(language)["entries"]
    assert isinstance(raw_entries, dict)  # words() checked it
    return tuple(translated(item, raw_entries.get(item.id)) for item in english)


def section_name(section: str, language: str) -> str:
    """A section's name in `language` (the English name where the file has none)."""
    if language not in TRANSLATED:
        return section
    names = words(language).get("sections")
    name = names.get(section) if isinstance(names, dict) else None
    return name if isinstance(name, str) and name.strip() else section


SOURCE_TEXTS = (
    "interpretation by the how-to FAQ author (Eric Mortensen)",
    "interpretation by this referee",
    "1994 rules",
    "how-to FAQ",
    "modern text",
)
"""The texts a source names (each source names at least one: model.NAMED_SOURCES), the longest first."""


def source_names(source: str) -> tuple[str, ...]:
    """The texts `source` names, in the order it names them, each once ("1994 rules; how-to FAQ (...)" ->
    ("1994 rules", "how-to FAQ")): what a phone in another language is shown of a source."""
    found: list[tuple[int, str]] = []
    masked = source
    for name in SOURCE_TEXTS:
        at = masked.find(name)
        while at >= 0:
            found.append((at, name))
            masked = masked[:at] + " " * len(name) + masked[at + len(name) :]
            at = masked.find(name)
    return tuple(dict.fromkeys(name for _, name in sorted(found)))
