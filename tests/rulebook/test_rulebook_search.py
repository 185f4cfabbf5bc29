"""The rules search: hit rates on typed questions, names and typos, limits, JSON and table notes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from referee.engine import HOUSE_RULE_SPECS, HouseRules
from referee.rulebook import MAX_RESULTS, QUICK_QUESTIONS, entries, entry, result_json, search, search_json, table_note
from referee.rulebook.search import MAX_QUERY_LENGTH, default_index, shortened_query
from referee.rulebook.spelling import Speller
from referee.rulebook.text import rewrite
from tools.rulebook import generalisation
from tools.rulebook.evaluate import DEFAULT_CASE_FILES, Case, evaluate, load_cases, main

HERE = Path(__file__).resolve().parent
CASES = load_cases(HERE / "search_cases.json")
HOLDOUT = load_cases(HERE / "holdout_cases.json")
# Fresh hold-outs of phone-typed phrasings, each written before a change to the ranking by people who did not tune
# the search, measured once on that change's final ranking, then tuning data for the next change (each file's
# "about" says how it was made; docs/rulebook-search.md, "The sets").
FRESH = load_cases(HERE / "fresh_holdout_cases.json")
FRESH_2 = load_cases(HERE / "fresh_holdout_2_cases.json")
FRESH_3 = load_cases(HERE / "fresh_holdout_3_cases.json")
FRESH_4 = load_cases(HERE / "fresh_holdout_4_cases.json")
FRESH_5 = load_cases(HERE / "fresh_holdout_5_cases.json")
FRESH_6 = load_cases(HERE / "fresh_holdout_6_cases.json")
FRESH_7 = load_cases(HERE / "fresh_holdout_7_cases.json")
FRESH_8 = load_cases(HERE / "fresh_holdout_8_cases.json")
# Set 9: written and committed before the change it measured; measured on the ranking before and after it.
FRESH_9 = load_cases(HERE / "fresh_holdout_9_cases.json")
FRESH_10 = load_cases(HERE / "fresh_holdout_10_cases.json")
FRESH_11 = load_cases(HERE / "fresh_holdout_11_cases.json")
# Sets 12 to 18: each written by someone who had seen neither the search nor its tuning data, before a change, and
# measured unseen once on that change's final ranking.
FRESH_12 = load_cases(HERE / "fresh_holdout_12_cases.json")
FRESH_13 = load_cases(HERE / "fresh_holdout_13_cases.json")
FRESH_14 = load_cases(HERE / "fresh_holdout_14_cases.json")
FRESH_15 = load_cases(HERE / "fresh_holdout_15_cases.json")
FRESH_16 = load_cases(HERE / "fresh_holdout_16_cases.json")
FRESH_17 = load_cases(HERE / "fresh_holdout_17_cases.json")
FRESH_18 = load_cases(HERE / "fresh_holdout_18_cases.json")
FRESH_19 = load_cases(HERE / "fresh_holdout_19_cases.json")
# Seven kinds of writer the search was never tuned on before (docs/rulebook-search.md, "The measuring protocol"): the
# development half, tuning data since it was measured on the ranking before the change it drove.
WRITERS = load_cases(HERE / "writers_dev_cases.json")
# The same seven kinds by another writer: measured once unseen (the "unseen" figures it records), then tuning data.
WRITERS_C = load_cases(HERE / "writers_dev_c_cases.json")
# The sealed sets of the seven kinds (four kinds in one, three in the other), written before the change they measured,
# from the box rules, by writers who are not developers of the app; kept outside the repository, measured once on
# that change's final ranking (the "unseen" figures each records), then committed as regression data.
SEALED_A = load_cases(HERE / "sealed_a_cases.json")
SEALED_B = load_cases(HERE / "sealed_b_cases.json")
KINDS_OF_WRITER = ("child", "grandparent", "nonnative", "lawyer", "voice", "uk", "edition2021")


def top(query: str, count: int = 1) -> list[str]:
    return [result.id for result in search(query)[:count]]


def test_the_case_files_are_the_evaluators_defaults() -> None:
    assert [path.resolve() for path in DEFAULT_CASE_FILES] == [
        HERE / "search_cases.json",
        HERE / "holdout_cases.json",
        HERE / "fresh_holdout_cases.json",
        HERE / "fresh_holdout_2_cases.json",
        HERE / "fresh_holdout_3_cases.json",
        HERE / "fresh_holdout_4_cases.json",
        HERE / "fresh_holdout_5_cases.json",
        HERE / "fresh_holdout_6_cases.json",
        HERE / "fresh_holdout_7_cases.json",
        HERE / "fresh_holdout_8_cases.json",
        HERE / "fresh_holdout_9_cases.json",
        HERE / "fresh_holdout_10_cases.json",
        HERE / "fresh_holdout_11_cases.json",
        HERE / "fresh_holdout_12_cases.json",
        HERE / "fresh_holdout_13_cases.json",
        HERE / "fresh_holdout_14_cases.json",
        HERE / "fresh_holdout_15_cases.json",
        HERE / "fresh_holdout_16_cases.json",
        HERE / "fresh_holdout_17_cases.json",
        HERE / "fresh_holdout_18_cases.json",
        HERE / "fresh_holdout_19_cases.json",
        HERE / "writers_dev_cases.json",
        HERE / "writers_dev_c_cases.json",
        HERE / "sealed_a_cases.json",
        HERE / "sealed_b_cases.json",
    ]


def test_cases_are_valid_and_not_copies_of_the_entries_questions() -> None:
    assert len(CASES) >= 80
    own = {question.casefold() for item in entries() for question in item.questions}
    assert len(FRESH) >= 60 and len(FRESH_2) >= 60 and len(FRESH_3) >= 60 and len(FRESH_4) >= 70
    assert len(FRESH_5) >= 70 and len(FRESH_6) >= 70 and len(FRESH_7) >= 70 and len(FRESH_8) >= 70
    assert len(FRESH_9) >= 60 and len(FRESH_10) >= 60 and len(FRESH_11) >= 60 and len(FRESH_12) >= 60
    assert len(FRESH_13) >= 60 and len(FRESH_14) >= 60 and len(FRESH_15) >= 60 and len(FRESH_16) >= 60
    assert len(FRESH_17) >= 60 and len(FRESH_18) >= 60
    sets = (
        CASES,
        HOLDOUT,
        FRESH,
        FRESH_2,
        FRESH_3,
        FRESH_4,
        FRESH_5,
        FRESH_6,
        FRESH_7,
        FRESH_8,
        FRESH_9,
        FRESH_10,
        FRESH_11,
        FRESH_12,
        FRESH_13,
        FRESH_14,
        FRESH_15,
        FRESH_16,
        FRESH_17,
        FRESH_18,
        FRESH_19,
        WRITERS,
        WRITERS_C,
        SEALED_A,
        SEALED_B,
    )
    assert len(WRITERS) >= 130 and {case.kind for case in WRITERS} == set(KINDS_OF_WRITER)
    assert len(WRITERS_C) >= 100 and {case.kind for case in WRITERS_C} == set(KINDS_OF_WRITER)
    assert len(SEALED_A) == 100 and {case.kind for case in SEALED_A} == set(KINDS_OF_WRITER[:4])
    assert len(SEALED_B) == 75 and {case.kind for case in SEALED_B} == set(KINDS_OF_WRITER[4:])
    for cases in sets:
        for case in cases:
            assert entry(case.expected) is not None, case
            # The seven kinds' writers never saw the entries, so a question of theirs that an entry also asks ("how do
            # you win") was typed twice, not copied; no entry may take one of theirs from now on (below).
            if cases is not WRITERS:
                assert case.query.casefold() not in own, f"{case.query!r} is an entry's own question"
    typed_twice = {"how do you win"}
    assert {case.query.casefold() for case in WRITERS} & own == typed_twice
    # A question in two sets: test_no_question_is_in_two_sets_but_those_two_writers_typed_alike.


# Questions that two writers typed word for word, each never having seen the other's set. A later set's copy was in
# the tuning data when that set was measured once (docs/rulebook-search.md, "The sets"): one question of its 70 or
# 105 flattered each of these measurements.
TYPED_TWICE = {
    "how many lifes do you get": {"search_cases.json", "sealed_a_cases.json"},
    "how do you win": {"writers_dev_cases.json", "sealed_i_cases.json"},
    "what does +2 do": {"search_cases.json", "sealed_g_cases.json"},
    "i pressed the wrong card on the phone how do i make it go back": {"sealed_e_cases.json", "sealed_f_cases.json"},
    "how meny cards do we get at the start": {"sealed_f_cases.json", "sealed_g_cases.json"},
    "how meny lifes do you get": {"sealed_h_cases.json", "sealed_i_cases.json"},
    "was macht die karte gleich zehn": {"de_sealed_cases.json", "de_sealed_4_cases.json"},
    "Reverse bei drei Spielern, wer ist dann dran?": {"de_sealed_3_cases.json", "de_sealed_4_cases.json"},
}


def test_no_question_is_in_two_sets_but_those_two_writers_typed_alike() -> None:
    """A set copied into another would measure the search on its own tuning data: across every committed set, in every
    language, a question appears twice only where two writers who never saw each other's set typed it alike."""
    found: dict[str, set[str]] = {}
    for path in sorted(HERE.glob("*_cases.json")):
        for case in load_cases(path):
            found.setdefault(case.query, set()).add(path.name)
    assert {query: files for query, files in found.items() if len(files) > 1} == TYPED_TWICE


def test_hit_rates() -> None:
    report = evaluate(CASES)
    holdout = evaluate(HOLDOUT)
    message = (
        f"\nrules search, test set: {report.details(top=3)}"
        f"\nrules search, hold-out set (not tuned on, not asserted): {holdout.summary()}"
        f"\nrules search, fresh hold-out 1 (tuned on after it was measured): {evaluate(FRESH).summary()}"
        f"\nrules search, fresh hold-out 2 (tuned on after it was measured): {evaluate(FRESH_2).summary()}"
        f"\nrules search, fresh hold-out 3 (tuned on after it was measured): {evaluate(FRESH_3).summary()}"
        f"\nrules search, fresh hold-out 4 (tuned on after it was measured): {evaluate(FRESH_4).summary()}"
        f"\nrules search, fresh hold-out 5 (tuned on after it was measured): {evaluate(FRESH_5).summary()}"
        f"\nrules search, fresh hold-out 6 (tuned on after it was measured): {evaluate(FRESH_6).summary()}"
        f"\nrules search, fresh hold-out 7 (tuned on after it was measured): {evaluate(FRESH_7).summary()}"
        f"\nrules search, fresh hold-out 8 (tuned on after it was measured): {evaluate(FRESH_8).summary()}"
        f"\nrules search, fresh hold-out 9 (tuned on after it was measured): "
        f"{evaluate(FRESH_9).summary()}"
        f"\nrules search, fresh hold-out 10 (tuned on after it was measured): {evaluate(FRESH_10).summary()}"
        f"\nrules search, fresh hold-out 11 (tuned on after it was measured): {evaluate(FRESH_11).summary()}"
        f"\nrules search, fresh hold-out 12 (tuned on after it was measured): {evaluate(FRESH_12).summary()}"
        f"\nrules search, fresh hold-out 13 (tuned on after it was measured): "
        f"{evaluate(FRESH_13).summary()}"
        f"\nrules search, fresh hold-out 14 (tuned on after it was measured): "
        f"{evaluate(FRESH_14).summary()}"
        f"\nrules search, fresh hold-out 15 (tuned on after it was measured): "
        f"{evaluate(FRESH_15).summary()}"
        f"\nrules search, fresh hold-out 16 (tuned on after it was measured): {evaluate(FRESH_16).summary()}"
        f"\nrules search, fresh hold-out 17 (tuned on after it was measured): {evaluate(FRESH_17).summary()}"
        f"\nrules search, fresh hold-out 18 (tuned on after it was measured): {evaluate(FRESH_18).summary()}"
    )
    print(message)
    # The tuning set: a few queries of slack below the level the ranking reached on it (97.6 % / 100 %).
    assert report.top3 >= 0.99, message
    assert report.top1 >= 0.96, message


def test_unseen_phrasings_do_not_get_worse() -> None:
    # Regression guards only, not the goal (top-1 90 %, top-3 98 %): about the levels reached once the search was
    # tuned on every committed set, each after it had been measured unseen; a set at 100 % top-3 keeps a query or two
    # of slack. docs/rulebook-search.md has the figures.
    guards = (
        (FRESH_4, 0.96, 0.98),
        (FRESH_5, 0.98, 1.00),
        (FRESH_6, 0.93, 0.98),
        (FRESH_7, 0.94, 0.98),
        (FRESH_8, 0.94, 0.98),
        (FRESH_9, 0.98, 0.98),
        (FRESH_10, 0.95, 0.98),
        (FRESH_11, 0.94, 0.98),  # 88.9 / 95.8 unseen; 94.4 / 100.0 once tuned on
        # 89.4 / 97.6 and 90.6 / 96.5 unseen, on two rankings; 91.8-96.5 / 100.0 since it was tuned on
        (FRESH_12, 0.95, 0.98),
        # 81.9 / 96.4 unseen, on two rankings; 96.4 / 100.0 once tuned on
        (FRESH_13, 0.95, 0.98),
        # 81.8 / 94.3 and 77.4 / 90.5 unseen, then 85.2 / 94.3 and 78.6 / 91.7 still unseen on the next ranking;
        # 94.3 / 100.0 and 89.0 / 100.0 once tuned on, 94.3 / 100.0 and 90.2 / 100.0 after the change that followed
        (FRESH_14, 0.93, 0.98),
        (FRESH_15, 0.89, 0.98),
        # unseen: 93.0 / 100.0 and 87.1 / 95.3; 98.8 / 100.0 and 96.5 / 100.0 once tuned on
        (FRESH_16, 0.97, 0.98),
        (FRESH_17, 0.95, 0.98),
        # unseen on two rankings: 94.9 / 98.7 on both; 93.6 / 98.7 once tuned on
        (FRESH_18, 0.93, 0.97),
        # typed as a family table would: 82.8 / 95.3 unseen; 87.5 / 100.0 once tuned on
        (FRESH_19, 0.85, 0.98),
    )
    for cases, top1, top3 in guards:
        report = evaluate(cases)
        assert report.top1 >= top1, report.details(top=3)
        assert report.top3 >= top3, report.details(top=3)


def test_the_seven_kinds_of_writer_hold_their_level() -> None:
    # Regression guard on the development set, which the search was tuned on (70.5 / 84.2 before, 93.5 / 99.3 after;
    # docs/rulebook-search.md): a query or two of slack overall, and no kind of writer left far behind the others.
    report = evaluate(WRITERS)
    assert report.top1 >= 0.92 and report.top3 >= 0.98, report.details(top=3)
    for kind, part in report.by_kind().items():
        assert part.top1 >= 0.70 and part.top3 >= 0.90, f"{kind}: {part.summary()}"


def test_the_second_writers_seven_kinds_hold_their_level() -> None:
    # Regression guard on the second writer's development set, tuned on since it was measured unseen (60.0 / 84.8 then,
    # 72.4 / 93.3 today; docs/rulebook-search.md): a query or two of slack, 15 queries per kind.
    report = evaluate(WRITERS_C)
    assert report.top1 >= 0.70 and report.top3 >= 0.91, report.details(top=3)
    for kind, part in report.by_kind().items():
        assert part.top1 >= 0.45 and part.top3 >= 0.66, f"{kind}: {part.summary()}"


@pytest.mark.parametrize(
    ("cases", "top1", "top3", "kinds"),
    [
        # Sealed set A, unseen 64.0 / 83.0, today 84.0 / 97.0; child 92 / 96, grandparent 92 / 100, non-native 88 / 100,
        # lawyer 64 / 92.
        (
            SEALED_A,
            0.82,
            0.95,
            {"child": (0.88, 0.92), "grandparent": (0.88, 0.96), "nonnative": (0.84, 0.96), "lawyer": (0.60, 0.88)},
        ),
        # Sealed set B, unseen 78.7 / 88.0, today 90.7 / 93.3; voice 92 / 96, UK words 88 / 92, 2021 edition 92 / 92.
        (SEALED_B, 0.88, 0.90, {"voice": (0.88, 0.92), "uk": (0.84, 0.88), "edition2021": (0.88, 0.88)}),
    ],
    ids=["sealed_a", "sealed_b"],
)
def test_the_sealed_sets_hold_their_level(
    cases: tuple[Case, ...], top1: float, top3: float, kinds: dict[str, tuple[float, float]]
) -> None:
    # Regression guard, not the goal (90 / 98): the level each sealed set has today, tuned on since it was measured once
    # unseen (docs/rulebook-search.md), less two queries overall and one for each kind (25 queries a kind).
    report = evaluate(cases)
    assert report.top1 >= top1 and report.top3 >= top3, report.details(top=3)
    parts = report.by_kind()
    assert set(parts) == set(kinds)
    for kind, (kind_top1, kind_top3) in kinds.items():
        assert parts[kind].top1 >= kind_top1 and parts[kind].top3 >= kind_top3, f"{kind}: {parts[kind].summary()}"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("does 21 lose", "exactly-21"),
        ("can i keep playing after im out", "elimination"),
        ("if i go bust who loses the life", "bust"),
    ],
)
def test_a_childs_question_finds_its_ruling_first(query: str, expected: str) -> None:
    """A child's words find the ruling: "does 21 lose" must not open on the bust ruling, nor "can i keep playing
    after im out" on a Bomb's (both once did)."""
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("can i play =21 first", "equals-21-first-card"),
        ("bomb last card", "bomb-last-card"),
        ("deck ran out", "empty-draw-pile"),
        ("skip with 2 players", "skip-two-players"),
        ("what if i have only high cards", "only-high-cards"),
    ],
)
def test_the_issues_examples_come_first(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["Draw 2", "+2", "plus two", "draw two", "Plus 2"], "draw-cards"),
        (["Re-deal", "redeal", "hand in", "Hand in & Re-deal", "REDEAL", "re deal"], "redeal"),
        (["lives", "ALIVE cards", "hearts", "A-L-I-V-E cards", "skulls"], "lives"),
        (["=21", "equals 21", "equals twenty-one", "= 21", "=10", "=0"], "equals-cards"),
        (["Pass Me By", "PASS", "pass card", "passmeby"], "pass-me-by"),
        (["sudden death", "Sudden-Death rules"], "sudden-death"),
        (["tie break", "tiebreaker", "tie-break"], "tiebreak"),
    ],
)
def test_the_games_many_names(names: list[str], expected: str) -> None:
    for name in names:
        assert top(name) == [expected], name


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("bommb", "bomb"),
        ("redael", "redeal"),
        ("reverce", "reverse"),
        ("elimnated", "elimination"),
        ("sudden deth", "sudden-death"),
        ("skp with 2 plyers", "skip-two-players"),
        ("Bömb", "bomb"),
    ],
)
def test_typos_are_forgiven(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("bmb", "bomb"),
        ("rvrs", "reverse"),
        ("bst", "bust"),
        ("rvrs wth 2 plyrs", "reverse-two-players"),
    ],
)
def test_words_typed_without_vowels_are_read(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("shorthand", "spelled_out"),
    [
        ("evry1 loses", "everyone loses"),
        ("do i loose a life b4 the bomb", "do i lose a life before the bomb"),
        ("w/o a zero", "without a zero"),
        ("nxt rnd", "next round"),
    ],
)
def test_phone_shorthand_means_the_words_it_stands_for(shorthand: str, spelled_out: str) -> None:
    assert top(shorthand, 3) == top(spelled_out, 3)
    assert top(shorthand, 3)


@pytest.mark.parametrize(
    "query",
    [
        "i never got a zero and he bombed",
        "bomb and i havent got a 0",
        "bomb and i aint got no zero",
        "bomb and i got zero zeros",
        "bomb, i dont even have any zero",
        "bomb and i cant put down a 0",
    ],
)
def test_any_way_of_saying_no_zero_against_a_bomb_finds_the_bomb_rule(query: str) -> None:
    assert top(query) == ["bomb"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("someone dropped a bomb", "bomb"),
        ("he slapped down a reverse", "reverse"),
        ("reverse got played what now", "reverse"),
        ("she laid a skip", "skip"),
    ],
)
def test_table_talk_for_playing_a_card_finds_that_cards_rule(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("reverse who is next", "reverse"),
        ("someone played draw 2 on me what do i do", "draw-cards"),
        ("what happens with reverse", "reverse"),
        ("skip with 2 players", "skip-two-players"),
        ("reverse with three of us", "reverse-three-players"),
    ],
)
def test_a_rule_for_one_kind_of_game_waits_until_the_question_names_it(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    "query", ["skip 1 on 1", "skip heads up", "skip when its just the two of us", "skip when its me and one opponent"]
)
def test_every_way_of_saying_two_players_finds_the_two_player_ruling(query: str) -> None:
    assert top(query) == ["skip-two-players"]


@pytest.mark.parametrize(
    "query", ["skip and its just me and my grandad", "only me n my brother left, skip", "skip, me vs my mum"]
)
def test_one_other_person_named_at_the_table_means_two_players(query: str) -> None:
    assert top(query) == ["skip-two-players"]


def test_a_family_word_is_not_fixed_into_a_rule_word() -> None:
    # "dad" is one edit from "add", "nan" from "ran": the speller must leave them alone
    assert default_index().query_tokens("my dad and my nan") == []


@pytest.mark.parametrize(
    ("query", "verdict"),
    [
        ("can i put a 4 if were on 18", "over 21"),
        ("we are on 19 can i still play a 2", "exactly 21"),
        ("total is 16 i play a 5", "exactly 21"),
        ("my last card is a 6 and we are on 18", "over 21"),
        ("were at 12, can i play a 3", "fits"),
    ],
)
def test_a_card_and_a_total_said_apart_are_added_up(query: str, verdict: str) -> None:
    assert f" {verdict} " in rewrite(query, query=True)


def test_a_general_question_finds_the_rule_before_a_narrow_ruling() -> None:
    # the Bomb and own-bust rulings share "lives" and "out" with the question but not what they are about
    assert top("i lost all my lives now what") == ["elimination"]
    assert top("what happens when your lives run out") == ["elimination"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [("how many players are there", "how-many-players"), ("how many sevens are there", "deck")],
)
def test_how_many_players_is_not_a_question_about_the_deck(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what happens when the bomb came out", "bomb"),
        ("what are the special cards for", "wild-cards"),
        ("the game ended in a draw who wins", "tiebreak"),
        ("can we play with 8", "how-many-players"),
        # Someone leaving, said the way a table says it ("grandma has to go" is not about a turn) ...
        ("grandma has to go", "player-leaves"),
        ("dad has to go? what do we do with his cards", "player-leaves"),
        ("Bob has to leave. Do we deal again?", "player-leaves"),
        ("my kid went to bed", "player-leaves"),
        # ... and "has to go" about a turn still finds the turn's rule.
        ("who has to go first", "first-player"),
        ("does it have to go over 21", "over-21"),
    ],
)
def test_table_words_read_as_the_rule_they_mean(query: str, expected: str) -> None:
    assert top(query) == [expected]


def test_the_equals_sign_alone_names_the_equals_cards() -> None:
    assert "equals-cards" in top("what are the = cards for", 2)


def test_a_zero_mentioned_without_a_negation_is_not_read_as_no_zero() -> None:
    assert top("does it not matter if i play a 0 on 21") != ["bomb"]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("bomb las", "bomb-last-card"), ("skip with 2 pla", "skip-two-players"), ("sudd", "sudden-death")],
)
def test_a_word_still_being_typed_is_completed(typed: str, expected: str) -> None:
    assert expected in top(typed, 3)


def test_empty_and_hopeless_queries_find_nothing() -> None:
    assert search("") == []
    assert search("   ") == []
    assert search("?!") == []
    assert search("zzzzzz qqqqqq") == []


def test_limits() -> None:
    assert len(search("bomb")) <= MAX_RESULTS == 10
    assert len(search("bomb", limit=50)) <= 10
    assert len(search("bomb", limit=3)) == 3
    assert search("bomb", limit=0) == []
    assert search("bomb", limit=-1) == []


def test_results_are_best_first() -> None:
    scores = [result.score for result in search("what happens to the total after a bomb")]
    assert scores == sorted(scores, reverse=True)
    assert len(scores) > 3


def test_a_long_or_odd_query_is_quick_and_harmless() -> None:
    start = time.perf_counter()
    results = search("bomb " * 5000 + "\x00\n\t<script>")
    assert time.perf_counter() - start < 1.0
    assert results and results[0].id == "bomb"


def test_result_json_has_exactly_the_api_fields() -> None:
    body = search_json("bomb last card")
    assert set(body) == {"results"}
    assert 1 <= len(body["results"]) <= 10
    for item in body["results"]:
        assert set(item) == {"id", "title", "verdict", "answer", "example", "source", "house_rule"}
    first = body["results"][0]
    assert first["id"] == "bomb-last-card"
    assert first["house_rule"] == "bomb_last_card"
    assert first["verdict"] == "By default both: answer the Bomb, then the round ends."
    assert first["example"] and "Result:" in first["example"]
    assert json.loads(json.dumps(body)) == body
    plain = result_json(search("is exactly 21 ok")[0])
    assert plain["id"] == "exactly-21" and plain["house_rule"] is None and plain["source"]
    explains = result_json(search("what is in the deck")[0])
    assert explains["id"] == "deck" and explains["verdict"] == "77 cards: numbers 0 to 7 and 30 wild cards."


def test_table_note_says_what_this_table_chose() -> None:
    item = entry("bomb-last-card")
    assert item is not None
    default = table_note(item, HouseRules())
    assert default is not None
    assert default.startswith("At this table: a Bomb as last card costs both lives")
    assert "bomb_last_card" not in default  # plain words, never the switch's internal name
    other = table_note(item, HouseRules(bomb_last_card="round_only"))
    assert other is not None and "only ends the round" in other
    assert table_note(item, None) is None
    plain = entry("exactly-21")  # no switch governs it: no note
    assert plain is not None and table_note(plain, HouseRules()) is None


def test_every_reading_of_every_switch_has_a_note() -> None:
    for spec in HOUSE_RULE_SPECS:
        for value in spec.values:
            rules = HouseRules(**{spec.name: value})
            for item in entries():
                if item.house_rule == spec.name:
                    note = table_note(item, rules)
                    assert note is not None and note.startswith("At this table: "), (item.id, value)
                    assert spec.name not in note, (item.id, value)


def test_search_with_house_rules_carries_notes() -> None:
    rules = HouseRules(over_21="bust")
    results = search("card over 21", rules)
    governed = [result for result in results if result.house_rule]
    assert governed, "some result should be governed by a house rule"
    for result in results:
        if result.house_rule:
            assert result.table_note and result.table_note.startswith("At this table: ")
        else:
            assert result.table_note is None
    assert all(result.table_note is None for result in search("card over 21"))


def test_the_evaluate_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(HERE / "search_cases.json")]) == 0
    output = capsys.readouterr().out
    assert "top-1" in output and "top-3" in output


def test_the_evaluate_command_gives_each_kind_of_writer_its_own_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(HERE / "writers_dev_cases.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    for kind in KINDS_OF_WRITER:
        (line,) = [line for line in lines if line.split()[:1] == [kind]]
        count = sum(case.kind == kind for case in WRITERS)
        assert f"{count} queries: top-1 " in line, line


def test_the_generalisation_command_puts_each_kinds_unseen_figures_beside_todays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The estimate for a writer the search was not tuned on is repeatable: each kinds-of-writer set shows the figures
    it had unseen (recorded in the file) beside today's, per kind, then the kinds over every set, against the goal."""
    assert generalisation.main([]) == 0
    output = capsys.readouterr().out
    lines = output.splitlines()
    for path in generalisation.WRITER_SETS:
        (heading,) = [line for line in lines if line.startswith(f"{path.name}:")]
        before = generalisation.unseen_figures(path)[-1]
        assert f"unseen (ranking {before.ranking})" in heading
        at = lines.index(heading)
        cases = load_cases(path)
        kinds = dict.fromkeys(case.kind for case in cases)
        assert set(kinds) <= set(KINDS_OF_WRITER)
        table = lines[at + 1 : at + 2 + len(kinds)]
        for kind in kinds:
            (line,) = [line for line in table if line.split()[:1] == [kind]]
            unseen, today = line.split("->")
            assert str(before.kinds[kind]) in unseen
            assert str(generalisation.rates(evaluate([case for case in cases if case.kind == kind]))) in today
    assert [path.name for path in generalisation.WRITER_SETS] == [
        "writers_dev_cases.json",
        "writers_dev_c_cases.json",
        "sealed_a_cases.json",
        "sealed_b_cases.json",
    ]
    assert "All the sets together: 419 queries" in output
    assert "kinds within 10" in output


def test_the_spread_of_the_kinds_is_the_best_less_the_worst() -> None:
    rates = generalisation.Rates
    assert generalisation.spread({"child": rates(90.0, 100.0), "uk": rates(70.0, 95.0)}) == rates(20.0, 5.0)
    assert generalisation.spread({}) == rates(0.0, 0.0)


def test_a_report_by_kind_counts_each_kinds_own_cases() -> None:
    cases = [Case("what does skip do", "skip", "child"), Case("what does skip do", "bomb", "uk")]
    kinds = evaluate(cases).by_kind()
    assert list(kinds) == ["child", "uk"]
    assert (kinds["child"].top1, kinds["uk"].top1) == (1.0, 0.0)
    assert evaluate([Case("bomb", "bomb")]).by_kind() == {}


# --- the classic disputes --------------------------------------------------------------------------------


@pytest.mark.parametrize(("label", "question", "expected"), QUICK_QUESTIONS)
def test_each_quick_chip_finds_its_dispute_first(label: str, question: str, expected: str) -> None:
    assert top(question) == [expected], label


def test_the_classic_disputes_once_missed_come_first() -> None:
    misses = {
        "what if nobody has a zero": "bomb",
        "no zero for bomb": "bomb",
        "wats pass me by": "pass-me-by",
        "bro just bombed and i got 2 zeros, do i have to dump both": "one-zero-per-bomb",
        "i went out with a draw 2, do the others still have to pick up": "last-card-wild-effect",
        "how many 0 cards are there": "deck",
    }
    for query, expected in misses.items():
        assert top(query) == [expected], query
    # Still in the top three (ambiguous to a reader too: going out in teams costs a life as well).
    assert "teams-bomb" in top("teammate bombs me do we lose a life", 3)


def test_an_answer_opens_with_its_verdict_and_shows_an_example_for_this_table() -> None:
    (first, *_) = search("bomb do i discard all my zeros", HouseRules())
    assert first.id == "one-zero-per-bomb"
    assert first.verdict == "One 0 per Bomb: keep any others."
    assert first.example is not None and "Bob discards a 0" in first.example.text
    (answer, *_) = search("my last 0 went on the bomb", HouseRules(zero_answer_last_card="draws_one"))
    assert answer.id == "zero-answer-last-card"
    assert answer.example is not None and "round 1" in answer.example.text
    assert (
        answer.table_note
        == "At this table: a player who empties their hand answering a Bomb draws one card and plays on; the round ends"
        " only for one who can't draw."
    )


@pytest.mark.parametrize("query", ["how does 5 alive work", "ok so how do you play", "explain the game"])
def test_a_question_naming_no_rule_is_about_the_whole_game(query: str) -> None:
    assert top(query) == ["objective"]


@pytest.mark.parametrize("query", ["what are the 5 alive cards", "what are the a l i v e cards", "A.L.I.V.E cards"])
def test_the_alive_cards_are_the_lives_however_they_are_written(query: str) -> None:
    assert top(query) == ["lives"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("can we do teams with 5", "teams-five-players"),
        ("wrong card entered undo", "undo"),
        ("can a =0 card be used for the bomb", "bomb-wild-zero"),
    ],
)
def test_near_neighbours_are_told_apart_by_the_words_people_use_for_each(query: str, expected: str) -> None:
    # BM25F alone puts the neighbour first (teams, miscounted total, 0 and =0 are different cards); the posterior
    # over each entry's own questions knows "with 5", "undo", "used for the bomb".
    assert top(query) == [expected]


@pytest.mark.parametrize("query", ["im on 0 lives what happens", "zero lives left now what"])
def test_no_lives_left_is_elimination(query: str) -> None:
    assert top(query) == ["elimination"]


@pytest.mark.parametrize(
    "query", ["count is wrong says i have 6 cards", "app says i have 6 cards but i have 4", "my card count is off"]
)
def test_a_hands_card_count_is_not_the_running_total(query: str) -> None:
    assert top(query) == ["hand-correction"]


def test_cards_that_count_as_something_are_not_a_hand_count() -> None:
    assert "wild-cards" in top("which cards count as wild", 3)


@pytest.mark.parametrize(("query", "expected"), [("when am i out", "elimination"), ("bust meaning", "bust")])
def test_a_question_turned_round_or_asking_what_a_word_means_finds_the_rule(query: str, expected: str) -> None:
    assert top(query) == [expected]


def test_a_players_name_is_not_fixed_into_a_rule_word() -> None:
    # "Bob" is one edit from "bomb"; typed with a capital inside a sentence it is a name
    assert default_index().query_tokens("did Bob go out") == ["bob", "goout"]
    assert "bomb" in default_index().query_tokens("Bomb played, did Bob go out")
    assert top("Bommb last card") == ["bomb-last-card"]  # a sentence's first word is still fixed


@pytest.mark.parametrize("query", ["i ran out of hearts", "ran out of lives what now"])
def test_running_out_of_lives_is_not_an_empty_draw_pile(query: str) -> None:
    assert top(query) == ["elimination"]


# Phrasings written for these tests, none of them a bank question or a case of the sets.


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("playing my final card, what happens to the rest of them", "last-card"),
        ("nan put down her last card, what now", "last-card"),
        ("once im out of hearts can i still play", "elimination"),
    ],
)
def test_a_ruling_about_one_card_waits_until_the_question_names_that_card(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize("query", ["can we play with just 3", "is it ok for 6 people", "can 10 of us play"])
def test_asking_whether_the_game_takes_so_many_players_finds_how_many_can_play(query: str) -> None:
    assert top(query) == ["how-many-players"]


def test_having_to_play_one_card_is_not_asking_whether_one_may_pass() -> None:
    assert "mustplay" in rewrite("do i have to play a card", query=True)
    for query in ("do i have to play a 0 on the bomb", "must i play a skip now"):
        assert "mustplay" not in rewrite(query, query=True)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("can i go bust just to skip my turn", "bust-on-purpose"),
        ("can my son take a card instead of playing", "no-draw-on-turn"),
        ("the bomb knocked him out", "eliminated-during-bomb"),
        ("the bomb put my dad out, what happens", "eliminated-during-bomb"),
        ("i went bust, do i put my cards down", "bust-keeps-card"),
        ("do i keep the card that i couldnt play", "bust-keeps-card"),
        ("the redeal gave me 2 cards and him 6", "redeal-unequal-hands"),
        ("the app keeps warning me about a third 6", "card-count-warning"),
        ("can i put a 0 on 21", "zero-never-busts"),
        ("is the +2 card the same as draw 2", "editions"),  # the card names are part of the editions
        ("is pass the same card as pass me by", "editions"),
        ("whose go is it now", "turn-order"),
        ("when the bomb came i had no zero", "bomb"),
        ("my mum had two zeros, does she lose both", "one-zero-per-bomb"),
    ],
)
def test_readings_of_table_talk(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("do we add up the points at the end", {"last-card", "others-lose-one-life"}),
    ],
)
def test_a_question_with_two_fair_answers_gets_both_first(query: str, expected: set[str]) -> None:
    # Scoring: nobody scores (going out wins the round: Winning a round is part of it), one life each.
    assert set(top(query, 2)) == expected


@pytest.mark.parametrize(
    "query",
    ["pressed 4 instead of 5", "we typed a 3 but it should have been a 5", "cant remember if the count was 16 or 17"],
)
def test_a_wrong_card_and_a_wrong_total_have_one_answer(query: str) -> None:
    # The miscounted total is part of Undo: the total is wrong only when a card was entered wrong.
    assert top(query) == ["undo"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what does the reshuffle card do", "redeal"),
        ("after the shuffle card who goes", "after-redeal"),
        ("lost all my alive cards, am i finished", "elimination"),
        ("what does the plus card do", "draw-cards"),
        ("we have 8 people, is that ok", "how-many-players"),
        ("wat does the 6 card do", "number-cards"),
    ],
)
def test_other_names_for_known_things(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # the story never says "bust": a last 6 on 19 would go over 21
        ("im down to one card, its a 6 and we are on 19, do i win", "bust-last-card"),
        # a wild card by its own name at a total of 21
        ("were at 21, can i still play a reverse", "wild-at-21"),
        ("can we land on 21 exactly", "exactly-21"),
        # a last wild card's effect told in its own words
        ("my sister finished on a skip, does her brother still miss his go", "last-card-wild-effect"),
    ],
)
def test_a_story_finds_the_rule_it_turns_on(query: str, expected: str) -> None:
    assert expected in top(query, 3)


@pytest.mark.parametrize(
    ("query", "first", "rule"),
    [
        ("redeal who deals", "redeal-order", "redeal"),
        ("who loses on a bomb", "eliminated-during-bomb", "bomb"),
        ("reverse teams", "teams-two-player-rules", "reverse"),
    ],
)
def test_a_short_question_naming_a_card_has_that_cards_rule_in_the_first_three(
    query: str, first: str, rule: str
) -> None:
    # The card's rulings may each be fair, but the card's own rule is the safety net; the first place stays.
    found = top(query, 3)
    assert found[0] == first
    assert rule in found


def test_a_case_labelled_with_a_merged_entrys_old_id_counts_for_the_merged_entry() -> None:
    # Sets kept sealed may be labelled with an entry's old id; "The total was counted wrong" is part of Undo now.
    report = evaluate([Case("wrong card entered undo", "miscounted-total"), Case("wrong card entered undo", "bust")])
    assert [outcome.rank for outcome in report.outcomes][0] == 1
    assert report.outcomes[1].rank != 1
    assert "miscounted-total (now undo)" not in report.details()  # a hit is not listed
    assert "'wrong card entered undo': bust" in report.details()


# --- writers the search was not tuned on: real words, paragraphs, cards told by what they do, the 2021 words -----


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("dose", "does"),  # a swap of two letters is a slip
        ("bpmb", "bomb"),  # a key next to the one meant
        ("skup", "skip"),  # a vowel for a vowel
        ("reverce", "reverse"),  # a letter that sounds the same
        ("redael", "redeal"),
    ],
)
def test_a_slip_of_the_finger_is_still_fixed(typed: str, meant: str) -> None:
    assert default_index().speller.correct(typed) == meant


@pytest.mark.parametrize("word", ["smart", "bump", "likes", "caught", "sitting", "morning", "messing"])
def test_a_real_word_the_rulebook_does_not_use_is_left_alone(word: str) -> None:
    # "smart" is not "start", "bump" not "jump", "likes" not "lives": a letter put for another far from it on the
    # keyboard, or a known word with an ending, is a word the writer meant
    assert default_index().speller.correct(word) == word


def test_a_paragraph_is_read_up_to_its_question() -> None:
    story = (
        "Four of us, total 18. I held a 4 and a 5 and could not play either, so I flipped an Alive card. "
        "My brother says the total stays where it was and it is still my go, because I did not play anything at all. "
        "I say it starts again. Which of us is right: what is the total now, and who plays next?"
    )
    assert len(story) > 200
    assert top(story) == ["after-bust"]
    # past the limit the story before the question is cut, never the question, and the story still counts
    long_story = "Three of us are playing tonight and it is my turn. " * 15 + "What does a Skip do?"
    assert len(long_story) > MAX_QUERY_LENGTH >= len(shortened_query(long_story))
    assert shortened_query(long_story).endswith("What does a Skip do?")
    assert top(long_story) == ["skip-three-players"]


def test_a_long_question_is_cut_at_the_start_of_a_word() -> None:
    # a word cut in two ("omb" of "bomb") would be read as a typo for another word
    shortened = shortened_query("bombs " * 200 + "what now?")
    assert shortened.startswith("bombs ")
    assert shortened.endswith("what now?")


def test_the_typo_fixer_never_adds_or_drops_a_first_letter() -> None:
    speller = Speller(["page", "elle", "oldest"])
    # "à mon âge" is not "page", "belle" not "elle"; "eldest" one letter off "oldest" still is
    assert speller.correct("age") == "age"
    assert speller.correct("belle") == "belle"
    assert speller.correct("eldest") == "oldest"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("whats the card that turns the direction round for", "reverse"),
        ("what does the card with a plus sign and a 1 do", "draw-cards"),
        ("what does the card that puts the count back to nought do", "equals-cards"),
        ("what does the mix up card do", "redeal"),
        ("the card marked hand in, what does it do", "redeal"),
        ("What is the purpose of the card showing two arrows?", "reverse"),
        ("Whose turn is it after the card that makes everyone swap their hands?", "after-redeal"),
    ],
)
def test_a_card_told_by_what_it_does_or_shows_finds_its_rule(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("when a player loses a Life for going over does the table total reset", "after-bust"),
        ("what is the difference between the skull side and the heart side", "lives"),
        ("is the skull side a lost life", "lives"),
        ("is a REDEAL allowed as the very first card", "wild-cards"),
        ("can i play PASS whenever i like", "wild-cards"),
        ("if my table total is 19 do i have to play my +1 or can i lose a Life", "wild-instead-of-bust"),
        ("do i keep my card if i lose a Life for going over", "bust-keeps-card"),
    ],
)
def test_the_2021_editions_words_find_their_rules(query: str, expected: str) -> None:
    assert top(query) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("my cousin made up a rule that you can play doubles, is that allowed", "house-rules"),
        # a general question about the team game is not about one of its cases ("A bust in the team game")
        ("in the team game how many lives do we have", "teams"),
        ("team game do we all have our own lives", "teams"),
        ("what happens if the pack runs out", "empty-draw-pile"),  # the pack that runs out is the draw pile
        ("plus to card does the next person still get a go", "draw-does-not-skip"),  # "plus two" as a phone hears it
        ("my sis put down 3 cards in 1 go is that alowed", "turn-order"),
        ("My grandson says he can play as many cards as he likes at once. Is that correct?", "turn-order"),
        ("do u get more lifes", "get-lives-back"),
        ("Can someone whose lives are all gone still play?", "elimination"),
        ("could you tell me what a skip does", "skip"),  # politeness is not announcing a card
        ("I could not play so I turned my life card over, do I keep the card?", "bust-keeps-card"),
    ],
)
def test_what_a_question_is_about_when_it_names_no_rule(query: str, expected: str) -> None:
    assert top(query) == [expected]
