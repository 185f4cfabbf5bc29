"""The rulebook: every rule and ruling of 5 Alive as data, with search and per-table notes.

from referee.rulebook import search, entry, table_note, result_json

search("bomb last card", house_rules)   # -> [SearchResult, ...], best first, at most 10
entry("bomb-last-card")                 # -> Entry | None  (the target of a "Why?" link; old ids of merged
                                        #    entries find the entry they were merged into)
table_note(entry, house_rules)          # -> "At this table: ... — switch bomb_last_card" | None
rules_here(entry, house_rules, variant) # -> the table's house rules, or None where the entry's switch never comes up
search_json("deck ran out")  # -> {"results": [{"id", "title", "verdict", "answer", "example", "source", "house_rule"}]}
shortened_query(text)        # -> text cut to MAX_QUERY_LENGTH keeping its question (what the faces pass on)

In French or German (the words from referee/translations/<language>/rulebook.json, languages.py; the search reads
them with foreign.py):
search("la bombe", language="fr")   entry("bomb", "de")   entries("fr")   by_section("de")   quick_questions(None, "fr")
"""

from .kb import (
    ONLY_IN,
    by_section,
    current_id,
    entries,
    entry,
    games_for_switch,
    rules_here,
    switch_applies,
    table_note,
)
from .languages import ENGLISH, TRANSLATED, problems, section_name, source_names
from .model import EDGE_CASES, KINDS, SECTIONS, Entry, RulebookError, SearchResult
from .search import (
    LANGUAGES,
    MAX_QUERY_LENGTH,
    MAX_RESULTS,
    QUICK_QUESTIONS,
    forget_translations,
    quick_questions,
    read_translations_from,
    result_json,
    search,
    search_json,
    shortened_query,
    warm,
)

__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "TRANSLATED",
    "forget_translations",
    "problems",
    "read_translations_from",
    "section_name",
    "source_names",
    "EDGE_CASES",
    "ONLY_IN",
    "KINDS",
    "MAX_QUERY_LENGTH",
    "MAX_RESULTS",
    "QUICK_QUESTIONS",
    "quick_questions",
    "SECTIONS",
    "Entry",
    "RulebookError",
    "SearchResult",
    "by_section",
    "current_id",
    "entries",
    "entry",
    "result_json",
    "rules_here",
    "search",
    "search_json",
    "shortened_query",
    "games_for_switch",
    "switch_applies",
    "table_note",
    "warm",
]
