"""Where a ruling comes from, said in the phone's language: the rules panel's pages and the JSON API's rules search."""

from __future__ import annotations

import functools

from .. import rulebook
from ..engine.words import N_, Sentence
from .i18n import language, worded
from .rematchnote import SEMICOLON

# The texts a source names, as written in entries.json: shown in the phone's language (docs/translations.md).
SOURCE_NAMES = {
    "1994 rules": N_("1994 rules"),
    "how-to FAQ": N_("how-to FAQ"),
    "modern text": N_("modern text"),
    "interpretation by this referee": N_("interpretation by this referee"),
    "interpretation by the how-to FAQ author (Eric Mortensen)": N_(
        "interpretation by the how-to FAQ author (Eric Mortensen)"
    ),
}


def source_said(source: str) -> str:
    """Where a ruling comes from, in the phone's language: in English as written; in another, the texts it names
    (their details quote and explain in English, and the entry's reasoning says them in the phone's language)."""
    if language() == rulebook.ENGLISH:
        return source
    first, *others = [worded(SOURCE_NAMES[name]) for name in rulebook.source_names(source)] or [""]
    # With the language's semicolon between them: French spaces it ("règles de 1994 ; FAQ du guide").
    return functools.reduce(lambda said, then: worded(Sentence(SEMICOLON, first=said, next=then)), others, first)
