"""The rulebook in French and German: each language's file is whole, entries read in its words, its search reads it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee import rulebook
from referee.engine import HouseRules
from referee.rulebook import RulebookError, by_section, entries, entry, problems, search, source_names
from referee.rulebook.foreign import Reader
from referee.rulebook.languages import TRANSLATED, words

FIXTURE_WORDS = Path(__file__).resolve().parents[1] / "fixtures" / "rulebook_words"
"""A few entries in French and German (tests/fixtures/rulebook_words/<language>/rulebook.json), not the real files."""


@pytest.fixture
def fixture_words() -> Iterator[Path]:
    """The languages' words read from the small fixture files, for one test."""
    rulebook.read_translations_from(FIXTURE_WORDS)
    yield FIXTURE_WORDS
    rulebook.read_translations_from(None)


# --- the real files: whole, in every language ---------------------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_every_entry_and_section_and_nothing_else(language: str) -> None:
    """Every entry and section of entries.json in the language's own rulebook.json, with a verdict wherever English
    has one (at most ten words), the same "At this table" readings, and nothing entries.json does not have."""
    rulebook.read_translations_from(None)
    assert problems(entries(), words(language), language) == []


def test_the_check_names_what_a_language_file_lacks_or_adds() -> None:
    bomb = entry("bomb")
    last = entry("bomb-last-card")
    assert bomb is not None and last is not None
    whole = {
        "title": "La Bombe",
        "verdict": "Pas de 0 : une vie perdue.",
        "answer": "...",
        "reasoning": "...",
        "aliases": [],
        "questions": ["q"],
    }
    data = {
        "sections": {"Bomb": "La Bombe", "Chess": "Échecs"},
        "entries": {
            "bomb": {**whole, "verdict": "un deux trois quatre cinq six sept huit neuf dix onze"},
            "bomb-last-card": {**whole, "table_notes": {"both": "les deux"}},
            "no-such-entry": whole,
        },
    }
    found = problems((bomb, last), data, "fr")
    assert "fr section 'Chess' is not a section of the rulebook" in found
    assert "fr entry 'no-such-entry' is not in entries.json" in found
    assert "fr entry 'bomb': the verdict is over 10 words" in found
    assert "fr entry 'bomb-last-card': table_notes must give exactly the readings ['both', 'round_only']" in found
    del data["entries"]["bomb"]["verdict"]  # type: ignore[attr-defined]
    assert "fr entry 'bomb': needs a verdict, as the English entry has one" in problems((bomb,), data, "fr")
    assert "fr entry 'bomb' is missing" in problems((bomb,), {"sections": {}, "entries": {}}, "fr")


def test_a_missing_language_file_is_a_clear_error(tmp_path: Path) -> None:
    rulebook.read_translations_from(tmp_path)
    try:
        with pytest.raises(RulebookError, match=r"fr/rulebook\.json is missing"):
            entries("fr")
        with pytest.raises(RulebookError, match=r"de/rulebook\.json is missing"):
            search("Bombe", language="de")
    finally:
        rulebook.read_translations_from(None)


# --- display: an entry in the language's words, its structure from entries.json ----------------------------------


def test_an_entry_reads_in_the_language_with_the_english_structure(fixture_words: Path) -> None:
    french, english = entry("bomb", "fr"), entry("bomb")
    assert french is not None and english is not None
    assert (french.title, french.verdict) == ("La Bombe", "Pas de 0 : une vie perdue ; le total à 0.")
    assert english.title == "Bomb"
    assert (french.id, french.section, french.kind, french.source, french.examples, french.see_also) == (
        english.id,
        english.section,
        english.kind,
        english.source,
        english.examples,
        english.see_also,
    )
    last = entry("bomb-last-card", "fr")
    assert last is not None
    assert rulebook.table_note(last, HouseRules()) == "At this table: la Bombe coûte les deux vies."
    assert dict(by_section("fr"))["La Bombe"][0].title == "La Bombe"
    assert dict(by_section("de"))["Die Bombe"][0].title == "Die Bombe"


def test_an_old_id_finds_its_entry_in_every_language(fixture_words: Path) -> None:
    merged = next(item for item in entries() if item.formerly)
    for language in ("en", *TRANSLATED):
        found = entry(merged.formerly[0], language)
        assert found is not None and found.id == merged.id


def test_a_source_is_named_by_the_texts_it_cites() -> None:
    assert source_names('1994 rules ("at any time"); how-to FAQ; modern text') == (
        "1994 rules",
        "how-to FAQ",
        "modern text",
    )
    assert source_names("interpretation by the how-to FAQ author (Eric Mortensen); 1994 rules") == (
        "interpretation by the how-to FAQ author (Eric Mortensen)",
        "1994 rules",
    )
    assert all(source_names(item.source) for item in entries())


# --- search in the language ---------------------------------------------------------------------------------------


def first(query: str, language: str) -> str:
    """The id of the first answer to `query` asked in `language`."""
    found = search(query, language=language)
    assert found, f"nothing found for {query!r}"
    return found[0].id


@pytest.mark.parametrize("query", ["réponse à la bombe sans zéro", "reponse a la bombe sans zero", "RÉPONSE BOMBE"])
def test_a_french_question_finds_the_french_entry_with_or_without_accents(fixture_words: Path, query: str) -> None:
    found = search(query, language="fr")
    assert found[0].id == "bomb"
    assert found[0].title == "La Bombe"


@pytest.mark.parametrize("query", ["wer wird übersprungen", "wer wird uebersprungen", "wer wird ubersprungen"])
def test_a_german_question_with_umlauts_or_their_spellings_finds_the_german_entry(
    fixture_words: Path, query: str
) -> None:
    found = search(query, language="de")
    assert (found[0].id, found[0].title) == ("skip", "Aussetzen")


@pytest.mark.parametrize(
    ("query", "language", "expected"),
    [
        ("le sens", "fr", "reverse"),
        ("passe ton tour", "fr", "skip"),
        ("la carte passe", "fr", "pass-me-by"),
        ("pioche 2", "fr", "draw-cards"),
        ("Umkehr", "de", "reverse"),
        ("überspringen", "de", "skip"),
        ("zwei ziehen", "de", "draw-cards"),
    ],
)
def test_the_players_card_words_find_the_card(fixture_words: Path, query: str, language: str, expected: str) -> None:
    assert first(query, language) == expected


def test_english_search_is_the_same_with_the_languages_loaded(fixture_words: Path) -> None:
    rulebook.read_translations_from(None)
    before = [[result.id for result in search(query)] for query in ("bomb last card", "sens", "Bombe")]
    rulebook.read_translations_from(FIXTURE_WORDS)
    assert search("la carte qui change le sens", language="fr")[0].id == "reverse"
    after = [[result.id for result in search(query)] for query in ("bomb last card", "sens", "Bombe")]
    assert after == before
    assert search("bomb last card")[0].title == "A Bomb played as the last card of a hand"


def test_the_quick_questions_ask_in_the_language_and_find_their_entry(fixture_words: Path) -> None:
    chips = dict(rulebook.quick_questions(None, "fr"))
    assert chips["Bomb, no 0"] == "La Bombe"
    # In the first two, not first: the fixture leaves the other Bomb rulings in English, whose aliases the French
    # reader reads as naming the Bomb too (a whole file names each ruling in its own words).
    assert "bomb" in [result.id for result in search(chips["Bomb, no 0"], language="fr")[:2]]
    assert dict(rulebook.quick_questions(None))["Bomb, no 0"] == "bomb and nobody has a 0"


def test_the_fixture_is_shaped_like_the_real_files() -> None:
    """The fixture's entries pass the same check as the real files' (it only leaves entries out)."""
    for language in TRANSLATED:
        data = json.loads((FIXTURE_WORDS / language / "rulebook.json").read_text(encoding="utf-8"))
        left_out = {f"{language} entry {item.id!r} is missing" for item in entries()}
        unnamed = {f"{language} section {item.section!r} has no name" for item in entries()}
        assert set(problems(entries(), data, language)) <= left_out | unnamed


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(
    "query", ["😀", "=+&", "'''", "ß" * 700, "l' l' qu'", "Ünïcödé ÆŒ œuvre", "a 2 a 2 a 2 " * 80, "\u0301\u0308"]
)
def test_any_text_asked_in_a_language_is_answered_without_an_error(
    fixture_words: Path, language: str, query: str
) -> None:
    found = search(query, language=language)
    assert len(found) <= rulebook.MAX_RESULTS
    assert all(result.title for result in found)


def test_a_language_the_rulebook_does_not_have_is_answered_in_english() -> None:
    assert search("bomb last card", language="xx")[0].id == search("bomb last card")[0].id
    assert [item.title for item in entries("en")] == [item.title for item in entries()]
    assert [item.title for item in entries("xx")] == [item.title for item in entries()]
    assert by_section("xx")[0][0] == "The game"


@pytest.mark.parametrize(
    ("language", "text", "reads", "not_read"),
    [
        ("fr", "le total est à 5", "5", "5player"),
        ("fr", "on est 5 autour de la table", "5player", ""),
        ("fr", "redistribution à 2 joueurs", "2player", ""),
        ("fr", "je dois piocher une carte", "pioch", "draw1"),
        ("fr", "pioche 2", "draw2", ""),
        ("fr", "ça se passe comment", "", "pass"),
        ("fr", "Égal vingt et un", "eq21", ""),
        ("de", "eine Karte ziehen", "zieh", "draw1"),
        ("de", "zwei ziehen", "draw2", ""),
        ("de", "was passiert dann", "passier", "pass"),
        ("de", "das passt", "", "pass"),
        ("de", "zu zweit", "2player", ""),
        ("de", "Zahlenkarte", "zahl", ""),
        ("fr", "14 + 7 = 21 donc ça passe ?", "21", "eq21"),
        ("fr", "le tour passe à qui", "", "pass"),
        ("fr", "la carte passe", "pass", ""),
        ("fr", "ça tourne à l'envers", "reverse", ""),
        ("fr", "des coeurs dessus", "vi", "dessus"),
        ("de", "19+2=21", "21", "draw2"),
        ("de", "die Reihenfolge umdrehen", "reverse", ""),
        ("de", "darf ich auszusetzen", "skip", ""),
        ("de", "hob koa null", "0", "hob"),
        ("de", "sie hat mitgemischt", "mitmisch", "mitgemischt"),
        ("de", "er mischt", "misch", "mischt"),
    ],
)
def test_a_language_reads_card_and_player_words_only_where_they_are_said(
    language: str, text: str, reads: str, not_read: str
) -> None:
    found = Reader(language).terms(text)
    assert not reads or reads in found, found
    assert not not_read or not_read not in found


@pytest.mark.parametrize(
    ("language", "query", "expected"),
    [
        # A shorter game, however it is asked.
        ("fr", "comment raccourcir la partie", "sudden-death"),
        ("de", "spiel abkurzen geht das", "sudden-death"),
        ("de", "kann man das spiel irgendwie abzukürzen", "sudden-death"),
        ("de", "grüezi, wie lang dauert e partie", "sudden-death"),
        # The round after a lost life; the life cards and the deck.
        ("de", "hab ein leben verloren muss ich dann nochmal legen", "after-bust"),
        ("fr", "les cartes avec les coeurs on les met dans le paquet ?", "lives"),
        # Laying cards, and the Reverse and the Skip described or conjugated rather than named.
        ("fr", "on pose les cartes a l endroit ou a l envers sur le tas", "turn-order"),
        ("de", "die karte die die reihenfolge umdreht", "reverse"),
        ("de", "darf ich jetzt auszusetzen legen", "skip"),
        # A sum written out is no card.
        ("de", "19+2=21, bin ich dann raus", "exactly-21"),
        # A question that names its game.
        ("de", "Teamspiel: mein Partner legt seine letzte Karte, verlieren wir beide?", "teams-going-out"),
        # A total dictated in words; a wrong card nobody noticed at the time.
        ("fr", "quand le total est à douze on peut pas dépasser vingt et un non ?", "no-bust-at-14"),
        ("fr", "le total est à quinze, est-ce que je peux encore dépasser vingt et un", "no-bust-at-14"),
        ("de", "er hat eine 6 auf 18 gelegt und keiner hat es gemerkt, was jetzt", "earlier-mistake"),
    ],
)
def test_players_everyday_phrasings_find_their_rule(language: str, query: str, expected: str) -> None:
    """Phrasings as families type them on phones (dialect, no accents, a verb form, a description of a card), none
    of them in the rulebook files, find the rule that answers them first."""
    assert first(query, language) == expected
