"""Every entry that states an outcome carries an example the engine plays; a disagreement fails CI."""

from __future__ import annotations

import re

import pytest

from referee.engine import HOUSE_RULE_SPECS, HouseRules
from referee.rulebook import entries, entry
from referee.rulebook.examples import Example, ExampleError, mismatches, parse_example

ALL_EXAMPLES = [(item.id, index, example) for item in entries() for index, example in enumerate(item.examples)]

# Entries governed by a switch whose outcome the referee cannot show in steps: it does not know what is
# in a hand, so "you must play your wild card" is a rule for the players, not something it can play out.
NOT_PLAYABLE = {"wild-instead-of-bust"}


@pytest.mark.parametrize(("entry_id", "index", "example"), ALL_EXAMPLES, ids=[f"{i}-{n}" for i, n, _ in ALL_EXAMPLES])
def test_every_example_agrees_with_the_engine(entry_id: str, index: int, example: Example) -> None:
    assert mismatches(example) == [], f"{entry_id} example {index + 1}: {example.notation}"


# The step language's words, which a player should never have to read in the rules panel.
NOTATION = re.compile(
    r"zeros=|→|\b(?:eq0|eq10|eq21|draw1|draw2|redeal|tiebreak)\b|\b[A-Z][a-z]+ (?:holds|loses|bust)\b|_"
)


@pytest.mark.parametrize(("entry_id", "index", "example"), ALL_EXAMPLES, ids=[f"{i}-{n}" for i, n, _ in ALL_EXAMPLES])
def test_every_example_reads_in_plain_words(entry_id: str, index: int, example: Example) -> None:
    text = example.text
    assert NOTATION.search(text) is None, f"{entry_id} example {index + 1}: {text}"
    assert text[0].isupper() and text.endswith((".", ".”")), text


def test_entries_with_a_switch_show_an_example_for_every_reading() -> None:
    for item in entries():
        if item.house_rule is None or item.id in NOT_PLAYABLE:
            continue
        spec = next(spec for spec in HOUSE_RULE_SPECS if spec.name == item.house_rule)
        for value in spec.values:
            table = HouseRules(**{spec.name: value})
            assert item.examples_for(table), f"{item.id} has no example a {spec.name}={value} table would see"


def test_the_rulings_of_issue_15_carry_examples() -> None:
    for entry_id in (
        "bomber-does-not-discard",
        "lose-two-lives",
        "zero-answer-last-card",
        "two-empty-hands-bomb",
        "teams-both-out",
        "teams-bomb",
        "empty-draw-pile",
        "draw-pile-order",
        "after-redeal",
        "reverse",
        "first-player",
        "over-21",
    ):
        item = entry(entry_id)
        assert item is not None and item.examples, entry_id
    assert len(ALL_EXAMPLES) >= 90


def test_an_example_that_disagrees_with_the_engine_is_caught() -> None:
    wrong = parse_example(
        {"players": "Ann Bob Cy Dee", "steps": ["Cy holds 1", "Ann bomb zeros=Bob,Cy"], "expect": "lives Ann 5, Dee 3"},
        "test",
    )
    assert mismatches(wrong) == ["expected 'lives Ann 5, Dee 3', engine: {'Ann': 4, 'Dee': 3}"]
    refused = parse_example({"players": "Ann Bob", "steps": ["Ann 7", "Bob bust"], "expect": "total 7"}, "test")
    assert mismatches(refused) and "refused" in mismatches(refused)[0]


def test_a_misspelt_example_is_refused_when_the_rulebook_loads() -> None:
    for bad in (
        {"players": "Ann Bob", "steps": ["Ann plays 7"], "expect": "total 7"},
        {"players": "Ann Bob", "steps": ["Ann 7"], "expect": "total 7", "rules": {"over_22": "bust"}},
        {"players": "Ann Bob", "steps": [], "expect": "total 7"},
    ):
        with pytest.raises(ExampleError):
            parse_example(bad, "test")


def test_examples_shown_to_a_table_follow_its_switches() -> None:
    item = entry("zero-answer-last-card")
    assert item is not None
    default = item.examples_for(HouseRules())
    other = item.examples_for(HouseRules(zero_answer_last_card="draws_one"))
    # One example per reading of each case it settles (the two-players-at-once ruling is part of it).
    assert len(default) == len(other) == 2 and default != other
    assert "Dee 3" in default[0].text and "Dee 4" in other[0].text
    assert item.examples_for(None) == default


def test_every_entry_opens_with_a_short_verdict() -> None:
    # FAQs and rules alike: a child asking "how many lives do u get" must not read "Lives (ALIVE cards)" in bold,
    # with the five only in the text below.
    for item in entries():
        assert item.verdict and len(item.verdict.split()) <= 10, item.id


def test_no_verdict_answers_yes_or_no_to_a_question_the_player_did_not_ask() -> None:
    # "can you play a 0 on 21" must not open on "No — a 0 always fits.", the answer to the entry's own
    # question ("can you bust holding a 0?"). Players ask either way round: a verdict states the outcome.
    for item in entries():
        assert not re.match(r"(Yes|No)\b\s*[,:—-]", item.verdict or ""), f"{item.id}: {item.verdict}"
        assert not re.match(r"(Yes|No)\b[,:]", item.answer), f"{item.id}: {item.answer[:40]}"


def test_a_team_games_example_gives_each_teams_shared_lives_once() -> None:
    # Teammates share their lives (1994 rules, Team play): "Ann has 4 lives, Bob 3, Cy 4 and Dee 3" read as if
    # each had their own.
    item = entry("teams-bomb")
    assert item is not None
    text = item.examples[0].text
    assert "Result: Ann and Cy's team has 4 lives and Bob and Dee's 3." in text, text
    assert "Ann has" not in text


def test_an_example_about_the_decks_counts_says_what_the_referee_warns() -> None:
    # The deck's counts are what its examples show: the warning a real deck makes is part of the outcome told.
    told = entry("deck").examples[0].text
    # Quoted whole, as the board shows it, and then said in the phone's language like every other sentence.
    warning = "The deck has only two 6s, all played since the shuffle — was that really a 6? Undo if not."
    assert told.endswith(f"the referee warns: “{warning}”"), told
    assert "warns" not in entry("draw-pile-size").examples[0].text
