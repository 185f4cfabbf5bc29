"""A question that names its kind of game in so many words finds that game's own ruling (Params.game_boost)."""

from __future__ import annotations

import pytest

from referee.rulebook import search


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        ("en", "two player game, we redeal, how many cards does each of us get", "redeal-two-players"),
        ("fr", "on joue à 2, on redistribue : chacun prend la moitié des cartes ?", "redeal-two-players"),
        ("de", "zu zweit neu geben: kriegt jeder die Hälfte der Karten?", "redeal-two-players"),
        ("de", "zu zweit: Aussetzen, Aussetzen, dann meine letzte Karte, ist das erlaubt?", "skip-two-players"),
    ],
)
def test_a_named_kind_of_game_finds_its_own_ruling(language: str, query: str, expected: str) -> None:
    found = search(query, language=language)
    assert found and found[0].id == expected, query
