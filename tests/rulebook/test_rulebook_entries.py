"""The knowledge base: well-formed, consistent with the engine, covering every rule and edge case."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import random
import re
from pathlib import Path

import pytest

from referee.engine import (
    DECK_COUNTS,
    HOUSE_RULE_SPECS,
    SPECS_BY_NAME,
    Bust,
    Card,
    GameState,
    Play,
    Status,
    TieBreak,
    apply,
    legal_actions,
    make_setup,
    new_game,
)
from referee.engine.sanity import CERTAIN_MOST
from referee.rulebook import EDGE_CASES, SECTIONS, Entry, RulebookError, by_section, entries, entry
from referee.rulebook.model import parse_entries, parse_entry
from referee.rulebook.search import topic_keys

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "referee" / "engine"
SOURCES = REPO.parent / "shared" / "rules-sources"
DATA = REPO / "referee" / "rulebook" / "entries.json"
FINGERPRINTS = Path(__file__).with_name("rules_sources_fingerprints.txt")
MERGED_ENTRIES = Path(__file__).with_name("pass_10_merged_entries.json")


def engine_rule_ids() -> set[str]:
    """Every rule id the engine can put on an Event or a refusal, read from its source."""
    found: set[str] = {spec.rule for spec in HOUSE_RULE_SPECS}
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "rule":
                found.update(_strings(node.value))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit":
                if len(node.args) >= 4:  # emit(kind, seat, value, rule)
                    found.update(_strings(node.args[3]))
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {target.id for target in targets if isinstance(target, ast.Name)}
                if names & {"CARD_RULES", "_NOTABLE_RULES"} and node.value is not None:
                    found.update(_strings(node.value))
    return found


def _strings(node: ast.AST) -> set[str]:
    """Kebab-case string constants anywhere inside `node` (rule ids, not messages)."""
    return {
        child.value
        for child in ast.walk(node)
        if isinstance(child, ast.Constant)
        and isinstance(child.value, str)
        and re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", child.value)
    }


def test_engine_rule_ids_are_found() -> None:
    ids = engine_rule_ids()
    # A sanity check on the scan itself: ids from keywords, the card table and the house-rule specs.
    assert {"bust", "bomb", "number-cards", "pass-me-by", "teams-bust", "undo", "redeal-order"} <= ids


def test_every_engine_rule_id_has_an_entry() -> None:
    missing = sorted(rule for rule in engine_rule_ids() if entry(rule) is None)
    assert not missing, f"engine rule ids without a rulebook entry (the 'Why?' links would break): {missing}"


def test_each_house_rule_spec_points_at_an_entry_it_governs() -> None:
    for spec in HOUSE_RULE_SPECS:
        item = entry(spec.rule)
        assert item is not None, spec.rule
        assert item.house_rule == spec.name, f"{spec.rule} should name house_rule {spec.name}"


def test_every_switch_is_explained_somewhere() -> None:
    governed = {item.house_rule for item in entries()}
    assert set(SPECS_BY_NAME) <= governed


def test_house_rules_named_exist_and_notes_cover_every_reading() -> None:
    for item in entries():
        if item.house_rule is None:
            assert item.table_notes == ()
            continue
        assert item.house_rule in SPECS_BY_NAME, item.id
        assert tuple(value for value, _ in item.table_notes) == SPECS_BY_NAME[item.house_rule].values, item.id


def test_ids_are_unique_kebab_case() -> None:
    ids = [item.id for item in entries()]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", entry_id) for entry_id in ids)


def test_every_entry_names_its_source() -> None:
    named = ("1994 rules", "how-to FAQ", "modern text", "interpretation by ")
    for item in entries():
        assert item.source.strip(), item.id
        assert any(name in item.source for name in named), item.id
        if "interpretation" in item.source:
            assert "interpretation by " in item.source, f"{item.id}: say whose interpretation"


def test_every_edge_case_is_settled() -> None:
    covered = {number for item in entries() for number in item.edge_cases}
    missing = sorted(set(EDGE_CASES) - covered)
    assert not missing, f"RULES-NOTES edge cases without a ruling: {missing}"


def test_counts() -> None:
    items = entries()
    faqs = [item for item in items if item.kind == "faq"]
    assert len(faqs) >= 55, len(faqs)  # 68 before FAQs that settled the same doubt were merged
    # Entries that settled the same doubt are merged; each old one is still answered, by the merged entry.
    assert len(items) + sum(len(item.formerly) for item in items) >= 105


IDS_BEFORE_THE_MERGE = (
    "objective",
    "editions",
    "card-names",
    "house-rules",
    "setup",
    "how-many-players",
    "deck",
    "card-count-warning",
    "draw-pile-size",
    "first-player",
    "hide-hand",
    "turn-order",
    "running-total",
    "must-play",
    "no-draw-on-turn",
    "out-of-turn",
    "miscounted-total",
    "last-card-call",
    "number-cards",
    "exactly-21",
    "zero-never-busts",
    "zero-vs-equals-zero",
    "no-minus-cards",
    "wild-cards",
    "wild-at-21",
    "draw-cards",
    "draw-does-not-skip",
    "draw-stacking",
    "draw-two-players",
    "draw-pile-order",
    "empty-draw-pile",
    "draw-pile-runs-out-draw-2",
    "pass-me-by",
    "pass-vs-zero",
    "reverse",
    "reverse-three-players",
    "reverse-two-players",
    "skip",
    "skip-eliminated-seat",
    "skip-two-players",
    "skip-three-players",
    "chain-pass-two-players",
    "equals-cards",
    "equals-21-first-card",
    "equals-21-at-21",
    "equals-10-lower",
    "bomb",
    "one-zero-per-bomb",
    "keep-zero-take-life",
    "bomb-wild-zero",
    "total-after-bomb",
    "turn-after-bomb",
    "bomber-does-not-discard",
    "bomb-two-players",
    "bomb-last-card",
    "zero-answer-last-card",
    "two-empty-hands-bomb",
    "bomb-eliminates-all",
    "eliminated-during-bomb",
    "redeal",
    "redeal-order",
    "after-redeal",
    "redeal-unequal-hands",
    "redeal-two-players",
    "redeal-empty-hand",
    "redeal-last-card",
    "redeal-piles",
    "bust",
    "only-high-cards",
    "over-21",
    "bust-on-purpose",
    "wild-instead-of-bust",
    "after-bust",
    "bust-keeps-card",
    "bust-last-card",
    "no-bust-at-14",
    "eliminated-by-own-bust",
    "last-card",
    "last-card-wild-effect",
    "others-lose-one-life",
    "who-wins-round",
    "new-round",
    "lives",
    "get-lives-back",
    "lose-two-lives",
    "elimination",
    "eliminated-player-cards",
    "several-eliminated-at-once",
    "winning",
    "two-players",
    "two-player-game",
    "sudden-death",
    "tiebreak",
    "tiebreak-wild-cards",
    "sudden-death-two-out",
    "sudden-death-empty-hand",
    "teams",
    "teams-bomb",
    "teams-both-out",
    "teams-bust",
    "teams-going-out",
    "teams-five-players",
    "teams-two-player-rules",
    "hand-correction",
    "undo",
)
"""Every id the rulebook had before overlapping entries were merged: links, logs and labelled questions name them."""


def test_no_old_id_is_lost_and_none_is_claimed_twice() -> None:
    items = entries()
    live = {item.id for item in items}
    claimed = [old for item in items for old in item.formerly]
    assert len(claimed) == len(set(claimed)), "an old id is claimed by two entries"
    assert not set(claimed) & live, "an old id is also a live one"
    assert set(claimed) <= set(IDS_BEFORE_THE_MERGE), "formerly names an id the rulebook never had"
    for old in IDS_BEFORE_THE_MERGE:
        found = entry(old)
        assert found is not None, f"{old} leads nowhere"
        assert found.id == old or old in found.formerly
    assert entry("miscounted-total") is entry("undo")


def test_a_merged_entry_keeps_what_the_old_ones_settled() -> None:
    before = json.loads(MERGED_ENTRIES.read_text(encoding="utf-8"))["entries"]
    assert len(before) == sum(len(item.formerly) for item in entries())
    for raw in before:
        merged = entry(raw["id"])
        assert merged is not None and merged.id != raw["id"]
        assert set(raw.get("edge_cases", [])) <= set(merged.edge_cases), raw["id"]
        assert set(raw["questions"]) <= set(merged.questions), raw["id"]
        assert set(raw.get("aliases", [])) <= set(merged.aliases), raw["id"]


def test_every_part_of_the_game_has_a_rule_entry() -> None:
    rules = {item.id for item in entries() if item.kind == "rule"}
    needed = {
        "setup",
        "deck",
        "turn-order",
        "number-cards",
        "wild-cards",
        "draw-cards",
        "pass-me-by",
        "reverse",
        "skip",
        "equals-cards",
        "redeal",
        "bomb",
        "bust",
        "last-card",
        "new-round",
        "lives",
        "elimination",
        "winning",
        "two-players",
        "sudden-death",
        "tiebreak",
        "teams",
    }
    # An old id merged into a rule (Winning the game into What the game is about) is still that rule's part.
    covered = {part for part in needed if (found := entry(part)) is not None and found.id in rules}
    assert needed == covered, sorted(needed - covered)


def test_entries_are_well_written() -> None:
    for item in entries():
        assert len(item.questions) >= 2, item.id
        for question in item.questions:
            assert len(question.split()) <= 15, f"{item.id}: keep questions short: {question!r}"
        assert item.answer.endswith("."), item.id
        # One sentence: no full stop, question or exclamation mark followed by a new sentence.
        assert not re.search(r"[.!?] [A-Z]", item.answer), f"{item.id}: the answer is one sentence"
        assert len(item.answer.split()) <= 50, f"{item.id}: the answer is too long"
        sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", item.reasoning)
        assert 1 <= len(sentences) <= 6, f"{item.id}: reasoning is a few sentences"
        assert item.section in SECTIONS


def test_links_resolve() -> None:
    for item in entries():
        for target in item.see_also:
            assert entry(target) is not None, (item.id, target)


def test_aliases_and_titles_name_one_entry_each() -> None:
    # Search sends a query that names a topic ("bust", "sudden death") to the entry owning it.
    owners: dict[frozenset[str], str] = {}
    for item in entries():
        for key in topic_keys(item):
            assert owners.setdefault(key, item.id) == item.id, (
                f"{item.id} and {owners[key]} both claim the topic {sorted(key)}"
            )


def test_every_section_is_used_and_grouping_keeps_all_entries() -> None:
    grouped = by_section()
    assert [section for section, _ in grouped] == list(SECTIONS)
    assert sum(len(items) for _, items in grouped) == len(entries())


def test_loaded_once_and_frozen() -> None:
    assert entries() is entries()
    item = entries()[0]
    assert isinstance(item, Entry)
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.title = "changed"  # type: ignore[misc]


def test_entry_lookup() -> None:
    bomb = entry("bomb")
    assert bomb is not None and bomb.title == "Bomb"
    assert entry("no-such-rule") is None


def _raw() -> list[dict[str, object]]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    entries_list: list[dict[str, object]] = data["entries"]
    return entries_list


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"house_rule": "no_such_switch"}, "not a house rule"),
        ({"source": ""}, "source"),
        ({"source": "my uncle"}, "name a text"),
        ({"source": "interpretation"}, "whose interpretation"),
        ({"id": "Not Kebab"}, "kebab-case"),
        ({"section": "Elsewhere"}, "unknown section"),
        ({"edge_cases": [53]}, "1-52"),
        ({"questions": ["only one"]}, "at least 2"),
        ({"surprise": 1}, "unknown fields"),
    ],
)
def test_the_loader_refuses_bad_entries(change: dict[str, object], message: str) -> None:
    raw = dict(_raw()[0])
    raw.update(change)
    with pytest.raises(RulebookError, match=message):
        parse_entry(raw)


def test_the_loader_refuses_wrong_table_notes_and_duplicates() -> None:
    governed = next(dict(raw) for raw in _raw() if raw.get("house_rule"))
    governed["table_notes"] = {"refuse": "only one reading"}
    with pytest.raises(RulebookError, match="exactly the readings"):
        parse_entry(governed)
    first = _raw()[0]
    with pytest.raises(RulebookError, match="two entries"):
        parse_entries([first, first])
    broken = dict(first, see_also=["nowhere"])
    with pytest.raises(RulebookError, match="see_also"):
        parse_entries([broken])
    second = _raw()[1]
    for formerly in ([second["id"]], ["old-one", "old-one"]):  # a live id; one old id claimed twice
        with pytest.raises(RulebookError, match="formerly"):
            parse_entries([dict(first, formerly=formerly), second])
    with pytest.raises(RulebookError, match="formerly"):
        parse_entries([dict(first, formerly=["old-one"]), dict(second, formerly=["old-one"])])


# --- "Why?" links from real play -------------------------------------------------------------


def _walk(variant: str, players: list[str], house_rules: dict[str, str], seed: int) -> set[str]:
    """Play random legal moves and return every rule id the log's events carried."""
    rng = random.Random(seed)
    state: GameState = new_game(make_setup(players, variant=variant, house_rules=house_rules))
    seen: set[str] = set()
    for _ in range(600):
        if state.status is Status.FINISHED:
            break
        legal = legal_actions(state)
        if state.status is Status.TIEBREAK:
            state = apply(state, TieBreak(tuple((name, 0) for name in legal.tiebreak)))
        else:
            assert legal.player is not None
            playable = [option.card for option in legal.cards if option.allowed]
            weights = [6 if card in (Card.BOMB, Card.REDEAL, Card.SKIP, Card.REVERSE) else 1 for card in playable]
            if legal.can_bust and rng.random() < 0.3:
                state = apply(state, Bust(legal.player))
            else:
                card = rng.choices(playable, weights)[0]
                zeros: tuple[str, ...] = ()
                if card is Card.BOMB:
                    zeros = tuple(name for name in legal.bomb_answerers if rng.random() < 0.5)
                state = apply(state, Play(legal.player, card, zeros))
        seen.update(event.rule for event in state.events if event.rule)
    return seen


def test_every_rule_applied_in_play_links_to_an_entry() -> None:
    seen: set[str] = set()
    configurations = [
        ("standard", ["Ann", "Bob", "Cy", "Di"], {}),
        ("standard", ["Ann", "Bob"], {"over_21": "bust", "bomb_last_card": "round_only"}),
        (
            "standard",
            ["Ann", "Bob", "Cy"],
            {"zero_answer_last_card": "draws_one", "empty_draw_pile": "stop", "redeal_deal_from": "direction"},
        ),
        ("sudden_death", ["Ann", "Bob", "Cy"], {"tiebreak_tie": "fewest_cards", "after_redeal": "left"}),
        ("teams", ["Ann", "Bob", "Cy", "Di", "Ed"], {"bomb_teammates": "opponents_only"}),
        ("teams", ["Ann", "Bob", "Cy", "Di"], {"new_round_direction": "keep"}),
    ]
    for seed in range(12):
        for variant, players, house_rules in configurations:
            seen |= _walk(variant, players, house_rules, seed)
    missing = sorted(rule for rule in seen if entry(rule) is None)
    assert not missing, missing
    assert {"bust", "bomb", "last-card", "elimination", "new-round", "redeal-order"} <= seen


# --- own words ----------------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9=+]+", text.casefold())


def _fingerprint(gram: tuple[str, ...]) -> str:
    return hashlib.sha256(("five-alive-referee shingle:" + " ".join(gram)).encode()).hexdigest()[:16]


def _ngrams(words: list[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(words[index : index + size]) for index in range(len(words) - size + 1)}


def test_entries_are_in_our_own_words() -> None:
    """No run of seven words from a rule text outside a short quotation; quotations stay short."""
    size = 7
    # The rule texts are not ours to commit; a hash of each of their 7-word runs is, and is all this check
    # needs, so it runs on any clone (scripts/fingerprint-rules-sources.py writes them).
    lines = FINGERPRINTS.read_text(encoding="utf-8").splitlines()
    source_prints = {line for line in lines if line and not line.startswith("#")}
    assert len(source_prints) > 1000, "the fingerprints file is nearly empty"
    if SOURCES.is_dir():  # the texts beside the clone (as in CI): the committed fingerprints must be theirs
        current = {
            _fingerprint(gram)
            for path in SOURCES.glob("*.txt")
            for gram in _ngrams(_words(path.read_text(encoding="utf-8")), size)
        }
        assert current == source_prints, "the rule texts changed: run scripts/fingerprint-rules-sources.py"
    problems = []
    for item in entries():
        texts = [item.title, *item.questions, item.answer, item.reasoning, item.source]
        texts += [note for _, note in item.table_notes]
        for text in texts:
            for quote in re.findall(r'"([^"]*)"', text):
                if len(quote.split()) > 9:
                    problems.append(f"{item.id}: quote at most a short phrase: {quote!r}")
            unquoted = re.sub(r'"[^"]*"', " | ", text)
            for gram in sorted(_ngrams(_words(unquoted), size)):
                if _fingerprint(gram) in source_prints:
                    problems.append(f"{item.id}: copied from a rule text: {' '.join(gram)!r}")
    assert not problems, "\n".join(problems)


def test_every_game_ruling_pairs_a_general_entry_with_one_of_that_game() -> None:
    """search.GAME_RULINGS names entries by id: a renamed or merged entry must not silently drop a pairing."""
    from referee.rulebook import entries
    from referee.rulebook.search import GAME_RULINGS, GAME_SECTIONS

    ids = {item.id: item for item in entries()}
    for variant, pairs in GAME_RULINGS.items():
        for general, own in pairs.items():
            assert general in ids and GAME_SECTIONS.get(ids[general].section) is None, general
            assert own in ids and GAME_SECTIONS.get(ids[own].section) is variant, own


def test_the_deck_entry_counts_every_card_as_the_referee_does() -> None:
    # A question about how many of one card a deck holds, or whether a family's deck has the right mix, is answered
    # by the answer itself (the panel's and the API's text), with the counts the referee warns by.
    answer = entry("deck").answer
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight"}
    assert all(DECK_COUNTS[card] == 8 for card in (Card.N0, Card.N1, Card.N2, Card.N3, Card.N4))
    assert "eight each of 0 to 4" in answer
    for card, count in DECK_COUNTS.items():
        if card.is_number and card not in (Card.N0, Card.N1, Card.N2, Card.N3, Card.N4):
            said = f"{words[count]} {card.label}" + ("s" if count > 1 else "")
        elif not card.is_number:
            said = f"{words[count]} {card.label}"
        else:
            continue
        assert re.search(rf"(?<![\w=]){re.escape(said)}(?![\w])", answer), said
    # the printings that differ: the most any of them holds is what the referee warns above
    assert f"some sets: six {Card.REVERSE.label}, four {Card.SKIP.label}" in answer
    assert (CERTAIN_MOST[Card.REVERSE], CERTAIN_MOST[Card.SKIP]) == (6, 6)
    assert sum(DECK_COUNTS.values()) == 77 and "77" in answer
