"""Search the rulebook as people type: their words read into the rulebook's, then BM25F and a few declared rules.

Pure Python (no C extensions), built once per process on first use and read-only afterwards, so it is safe to share
between threads. docs/rulebook-search.md explains each step and the measured reason for it.

Reading a question (query only, before scoring): a paragraph is cut to MAX_QUERY_LENGTH keeping its question; phone
shorthand is spelled out; typos are fixed against the rulebook's words, but not a real word with an ending or a
letter no finger would slip to (`spelling.Speller`); the players' words for cards, lives and numbers become the
rulebook's (`synonyms.PLAYER_WORDS`); then the same normaliser as the rulebook's (`text.terms`) turns phrasings into
concept terms.

Scoring, per entry:
1. BM25F, blended with a posterior: each query term's frequency is summed over the entry's fields (title, aliases,
   questions, answer with table notes, reasoning), weighted per field and normalised for field length, then
   saturated once (k1) and multiplied by the term's IDF. Adjacent word pairs count as terms too, so "last card" beats
   "last" and "card" apart. The scores, scaled to the best one, are mixed with a naive Bayes posterior: how typical
   the query's terms are of each entry's own title, aliases and questions (typical_weight), which tells near
   neighbours apart by the words people use for each.
2. Named topic: if the query, generic words aside ("card", "rules"), is exactly an entry's title or one of its
   aliases ("bust", "redeal", "sudden death"), that entry's score is multiplied by 1 + exact_boost. Aliases are
   unique across entries (a test checks), so a bare topic name always finds its main entry.
3. One kind of game: an entry about two or three players, teams or Sudden Death loses scope_penalty of its score
   when the query does not name that kind of game, and gains game_boost when the query names it in so many words.
4. Narrow rulings wait for their words: a FAQ entry, or a rule for one case of one kind of game ("A bust in the team
   game"), whose title shares no term with the query loses focus_penalty of its score; a ruling about one card (a
   Bomb, a Re-deal, a 0) loses card_penalty when the query names no such card.
5. Stories: when a question tells a combination that a ruling settles without naming it (`stories.STORIES`), that
   ruling's score is multiplied by 1 + story_boost. French and German questions are read for the table with the
   concept readings of `foreign_stories.py`.
6. A rule and its rulings together: behind the first result, the entries it links to (`see_also`) score
   related_boost more, so a vague question sees the general rule and its likeliest rulings in the first three; a
   short question naming a wild card has that card's own rule in the first three.

Most of the hit rate comes from the entries' `questions` (a bank of player-typed paraphrases per entry, indexed in
the questions field) and from the normaliser; the ranking formula matters less.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Protocol

from ..engine.house_rules import HouseRules
from ..engine.state import Variant
from ..engine.words import N_
from .foreign import STEMMERS, Reader
from .kb import entries, entry, forget_languages, rules_here, table_note
from .languages import ENGLISH, forget, use_words_from
from .model import Entry, SearchResult
from .phrases import PHRASES
from .spelling import Speller
from .stories import CONCEPTS, story_entry
from .synonyms import known_words, player_words
from .text import STOPWORDS, SYNONYMS, bigrams, names, phone_speak, terms, words

LANGUAGES = (ENGLISH, *STEMMERS)
"""The languages the search reads: English with all its readings, French and German (`foreign.py`)."""

MAX_RESULTS = 10
"""The most results a search returns (the JSON API's limit too)."""

MAX_QUERY_LENGTH = 600
"""Longer queries are cut, keeping the question (`question_part`): a paragraph of a few sentences is read whole."""

_SENTENCE_END = re.compile(r"(?<=[.?!;])\s+|\s+[—–]\s+|\s+-\s+")
"""Where one sentence of a question ends and the next begins (a dash between words starts a new thought too)."""


def sentences(query: str) -> list[str]:
    """The sentences of a typed question, in order (one if it has no sentence marks)."""
    return [part for part in (piece.strip() for piece in _SENTENCE_END.split(query)) if part]


def question_part(query: str) -> str:
    """The sentence a paragraph asks its question in: the last one with a question mark, else the last one.

    "Total 18. I held a 4 and a 5 ... Ben says the total stays at 18. What's the total now and who plays next?": the
    story sets the scene, the last question says which ruling is wanted.
    """
    parts = sentences(query)
    asked = [part for part in parts if part.endswith("?")]
    return (asked or parts or [""])[-1]


def shortened_query(query: str) -> str:
    """A query cut to MAX_QUERY_LENGTH, keeping its question and as much of the story before it as fits."""
    if len(query) <= MAX_QUERY_LENGTH:
        return query
    asked = question_part(query)
    question = _last_words(asked, MAX_QUERY_LENGTH)
    before = query[: query.rfind(asked)] if asked in query else ""
    room = MAX_QUERY_LENGTH - len(question) - 1
    return f"{_last_words(before, room) if room > 0 else ''} {question}".strip()


def _last_words(text: str, length: int) -> str:
    """The end of `text` in at most `length` characters, from the start of a word (a word cut in two would be read as
    a typo: "omb" of "bomb" is fixed into another word)."""
    if len(text) <= length:
        return text
    cut = text[-length:]
    if text[-length - 1].isalnum() and cut[:1].isalnum():
        space = re.search(r"\s", cut)
        cut = cut[space.start() :] if space else ""
    return cut.lstrip()


SCOPES: Mapping[str, frozenset[str]] = {
    "Two players": frozenset({"2player", "2"}),
    "Sudden Death": frozenset({"suddendeath", "tie", "tiebreak"}),
    "Teams": frozenset({"team", "teammate"}),
}
"""Sections whose entries apply to one kind of game only, with the query terms that name it."""

_GAME_NAMES = frozenset({"suddendeath", "team", "teammate"})

_GAMES_NAMED = frozenset({"2player", "3player", "5player", "suddendeath", "team", "teammate"})
"""The terms that name a kind of game in so many words (not "2", which is as often a card)."""
"""The terms that name a game the setup chooses (a tie or a tie-break is also a standard game's)."""

GAME_SECTIONS: Mapping[str, Variant] = {"Sudden Death": Variant.SUDDEN_DEATH, "Teams": Variant.TEAMS}
"""Sections about one game the setup chooses. Asked at a table playing another game, their entries come after
the rest unless the question names their game: "who wins if we both run out of hearts" at a Standard table is
about that table's game, not Sudden Death's."""

GAME_RULINGS: Mapping[Variant, Mapping[str, str]] = {
    Variant.TEAMS: {
        "bust": "teams-bust",
        "eliminated-by-own-bust": "teams-bust",
        "bomb": "teams-bomb",
        "last-card": "teams-going-out",
        "others-lose-one-life": "teams-going-out",
        "objective": "teams",
        "lives": "teams",
        "elimination": "teams",
        "several-eliminated-at-once": "teams-both-out",
        "bomb-eliminates-all": "teams-both-out",
        # Two teams are never two players: the duel's rulings do not apply ("its 2 teams, if i play skip do i go
        # again" asks about the team game).
        "two-players": "teams-two-player-rules",
        "skip-two-players": "teams-two-player-rules",
        "reverse-two-players": "teams-two-player-rules",
        "draw-two-players": "teams-two-player-rules",
        "bomb-two-players": "teams-two-player-rules",
        "redeal-two-players": "teams-two-player-rules",
    },
    Variant.SUDDEN_DEATH: {
        "objective": "sudden-death",
        "lives": "sudden-death",
        "elimination": "sudden-death",
        "eliminated-by-own-bust": "sudden-death",
        "several-eliminated-at-once": "sudden-death-two-out",
        "bomb-eliminates-all": "sudden-death-two-out",
    },
}
"""Rulings that the team game or Sudden Death settle otherwise: asked at a table playing that game, its own ruling
comes just before the general one ("bust" at a Teams table: your team loses the life). The general
ruling stays, second: the table may want the usual one too."""

GENERIC = frozenset({"card", "rule", "explain", "work", "how", "play", "game", "5", "alive", "mean", "definition"})
"""Words that do not change which topic a query names ("bomb card", "bomb rules", "bust meaning" -> "bomb", "bust")."""

WHOLE_GAME = GENERIC - {"card", "5"}
"""A query of only these words ("how does 5 alive work", "how do you play") names no rule: it asks about the
game as a whole, which the entry whose title names no topic explains."""


@dataclass(frozen=True)
class Params:
    """Ranking knobs: field weights, BM25 saturation (k1) and length normalisation (b)."""

    weights: Mapping[str, float] = field(
        default_factory=lambda: {
            "title": 3.0,
            "aliases": 2.0,
            "questions": 2.0,
            "answer": 1.0,
            "reasoning": 0.4,
        }
    )
    k1: float = 1.8
    b: float = 0.5
    bigram_weight: float = 0.5
    """IDF factor for word pairs."""
    exact_boost: float = 0.5
    """Extra score factor when the query names an entry's title or one of its aliases and nothing else. (0.5, not
    1.0: the posterior, which counts titles and aliases too, already favours the named entry; 0.3-1.0 measured
    within a few queries, 0.5 best on the proxy and the tuning sets together.)"""
    fix_typos: bool = True
    """Correct unknown words against the rulebook's vocabulary (and complete a word being typed)."""
    idf_power: float = 0.5
    """IDF is raised to this power (square root): in a hundred entries a word said once by chance ("come",
    "drop") would otherwise outweigh the topic word ("bomb") that two dozen entries share."""
    scope_penalty: float = 0.3
    """Score cut for an entry about one kind of game (two or three players, teams, Sudden Death) when the
    query does not name that kind of game: "what does skip do" wants Skip before Skip with two players. (0.3, not
    0.2: the naive Bayes posterior favours the narrow entries' own words.)"""
    focus_penalty: float = 0.2
    """Score cut for a FAQ entry when the query shares no term with its title: a general
    question ("lost all my lives now what") wants the rule (Elimination) before a narrow ruling that
    merely shares its words (Knocked out by a Bomb)."""
    question_weight: float = 0.0
    """Share of the final score from the nearest single example question (cosine over IDF-weighted terms).
    Off: with the paraphrase banks in the questions field it cost top-1 (the bench measures it)."""
    typical_weight: float = 0.3
    """Share of the final score from how typical the query's terms are of each entry's questions (a naive
    Bayes posterior over the entries): it tells near neighbours apart by the words people use for each, where
    BM25F mostly sees the topic words they share (chosen on the held-out-bank proxy)."""
    typical_smoothing: float = 0.1
    """Additive smoothing of the naive Bayes term counts."""
    typical_temperature: float = 1.5
    """The naive Bayes log-probabilities are divided by this before the posterior is taken, so that one
    word more or less does not make it all-or-nothing."""
    typical_terms: int = 8
    """A question with more known terms than this has the temperature raised in proportion: the log-probabilities of
    a paragraph's thirty terms add up to a posterior all on one entry, which then outweighs every word of the story.
    (8 gained two first places on the second writer's set and lost none on the others; the proxy's short questions
    are untouched. 6 and 10 gained one.)"""
    card_penalty: float = 0.3
    """Score cut for a ruling about one card (a Bomb, a Re-deal, a Skip, a 0 ...) when the query names no such card:
    "playing my last card, what happens to everyone else" wants Going out before A Bomb played as the last card of a
    hand."""
    card_rule_terms: int = 3
    """A question of at most this many terms that names a card gets the card's own rule in the first three (third
    place at worst) when the card's rulings took them ("bomb who needs a 0"). (3 gained two queries of the proxy's
    top-3, 4-6 lost one of the sets'; 0 turns it off.)"""
    player_words: bool = True
    """Rewrite the players' words for cards, lives and numbers into the rulebook's (`synonyms.PLAYER_WORDS`)."""
    story_boost: float = 3.0
    """Extra score factor for the entry that settles the combination a story turns on (`stories.STORIES`), so it comes
    before the entries for the story's parts. (3, a score x 4: against x 2.5 it gained a query in the first three of the
    seven kinds' development set and a first place in the committed sets and lost none, once the rows that fired on
    stories they were not about rule them out; any factor from 2.5 to 20 measured within a query or two; 0 turns the
    table off.)"""
    game_boost: float = 0.43
    """Extra score factor for an entry about one kind of game when the question names that game in so many words
    (two or three players, five players, teams, Sudden Death; not a bare "2"), undoing the one-kind-of-game cut
    (1 / 0.7 - 1): "just the two of us, what does a skip do" wants Skip with two players before Skip. (On every set:
    English +5 top-1, French +3 / +1, German +5 / +2, the proxy unchanged; 0.1 and 0.2 gained less, 1.0 two more
    English first places and lost proxy queries.)"""
    related_boost: float = 0.1
    """Extra score factor, behind the first result only, for the entries it links to (`see_also`, either way): a
    general rule and its rulings belong together in the first three when a question is vague between them ("bomb
    who loses a life"). The first place never changes. (0.1 gained top-3 on the proxy and lost none on the sets
    together; 0.2 gained more on the proxy but pushed a sibling ruling out of a set's first three.)"""


DEFAULT_PARAMS = Params()

QUICK_QUESTIONS: tuple[tuple[str, str, str], ...] = (
    (N_("Last card wild?"), "can my last card be a wild card", "last-card-wild-effect"),
    (N_("Bomb, no 0"), "bomb and nobody has a 0", "bomb"),
    (N_("Bust"), "bust", "bust"),
    (N_("Re-deal"), "hand in and re-deal", "redeal"),
    (N_("Two players"), "two player rules", "two-players"),
    (N_("Teams Bomb"), "teammate bombs do we lose lives", "teams-bomb"),
)
"""The rules panel's chips for the classic disputes: (label, the question it asks, the entry it finds). The label is
worded in the phone's language by the face that shows it."""


def _fields(item: Entry) -> dict[str, list[str]]:
    """Each field of an entry as a list of phrases (word pairs never span two phrases)."""
    return {
        "title": [item.title],
        "aliases": list(item.aliases),
        "questions": list(item.questions),
        "answer": [*([item.verdict] if item.verdict else []), item.answer, *(note for _, note in item.table_notes)],
        "reasoning": [item.reasoning],
    }


def topic_key(tokens: Iterable[str], generic: frozenset[str] = GENERIC) -> frozenset[str]:
    """The set of terms that name a topic, generic words left out."""
    return frozenset(token for token in tokens if token not in generic)


def topic_keys(item: Entry, reader: TermReader | None = None) -> set[frozenset[str]]:
    """The topic keys of an entry: its title's and each alias's."""
    reader = reader or ENGLISH_READER
    keys = {topic_key(reader.terms(name), reader.generic) for name in (item.title, *item.aliases)}
    keys.discard(frozenset())
    return keys


def _scope(item: Entry) -> frozenset[str]:
    """The query terms that name the kind of game an entry is about (empty: any game)."""
    scope = SCOPES.get(item.section, frozenset())
    title = set(terms(item.title))
    for players, number in (("3player", "3"), ("5player", "5")):
        if players in title:
            scope |= {players, number}
    return scope


CARD_TERMS: Mapping[str, frozenset[str]] = {
    "bomb": frozenset({"bomb", "bomber"}),
    "redeal": frozenset({"redeal"}),
    "skip": frozenset({"skip"}),
    "reverse": frozenset({"reverse"}),
    "pass": frozenset({"pass"}),
    "draw2": frozenset({"draw2", "draw"}),
    "eq21": frozenset({"eq21", "equal"}),
    "eq10": frozenset({"eq10", "equal"}),
    "eq0": frozenset({"eq0", "equal"}),
    "0": frozenset({"0", "nozero", "allzeros", "lastzero", "substitutezero", "eq0"}),
}
"""The cards a ruling's title can name, each with the query terms that name it."""
_WILD_CARD_NAMES = frozenset({"eq21", "eq10", "eq0", "skip", "reverse", "pass", "draw2"})
_ANY_CARD = frozenset().union(*CARD_TERMS.values()) | {"wild", "draw1", "lastwild"}
_NOT_A_CARD_CASE = frozenset({"must-play", "number-cards"})


def _cards(item: Entry) -> frozenset[str]:
    """The query terms that name the card a narrow entry is about (empty: no card, or the card's own rule)."""
    title = frozenset(terms(item.title)) - GENERIC
    named = {term for term in title if term in CARD_TERMS or term == "wild"}
    if not named or item.id in _NOT_A_CARD_CASE or title <= named | {"draw", "and", "draw1", "draw2"}:
        return frozenset()
    if "wild" in named:
        return _ANY_CARD
    return frozenset().union(*(CARD_TERMS[term] for term in named))


def _ruling_of_one_game(item: Entry) -> bool:
    """True for a rule about one case of a kind of game ("A bust in the team game"), not the game's own rule."""
    return item.section in SCOPES and item.id != item.section.lower().replace(" ", "-")


def _focus(item: Entry, reader: TermReader, english: Entry) -> frozenset[str]:
    """The terms that say what a FAQ entry, or a rule for one case of one kind of game, is about (its title's); empty
    for any other rule.

    "How many lives does a team get" is about the team game, not about going out in it: the rulings of the team game
    are rules, but each settles one case ("A bust in the team game"), so they wait for their case's words as FAQ
    entries do (the seven kinds' development set: +2 top-1, the committed sets unchanged).
    """
    if item.kind != "faq" and not _ruling_of_one_game(item):
        return frozenset()
    if reader is not ENGLISH_READER:
        named = frozenset(reader.terms(item.title)) - reader.generic - _scope(english)
    else:
        # The title only: aliases repeat the rule's own words ("bomb takes last life"), titles name the case.
        # The kind of game a title names is no part of the case ("Draw cards with two players" is about drawing):
        # the one-kind-of-game cut deals with it, so "what is different with only 2" still finds the two-player rule.
        named = frozenset(terms(item.title)) - GENERIC - _scope(item)
    # Nor is the card a ruling is about (the card cut deals with it): "can I play =10 when the total is on 3" names
    # =10 but not its case (=10 lowering the total), so the card's own rule comes first.
    case = named - (_cards(english) & _WILD_CARD_NAMES)
    return case or named


def _links(items: tuple[Entry, ...]) -> list[frozenset[int]]:
    """Per entry, the entries it names in `see_also` or that name it there."""
    number = {item.id: doc for doc, item in enumerate(items)}
    links: list[set[int]] = [set() for _ in items]
    for doc, item in enumerate(items):
        for other in item.see_also:
            if other in number:
                links[doc].add(number[other])
                links[number[other]].add(doc)
    return [frozenset(found) for found in links]


_CARD_RULES: Mapping[str, str] = {
    "bomb": "bomb",
    "skip": "skip",
    "reverse": "reverse",
    "redeal": "redeal",
    "pass": "pass-me-by",
    "draw1": "draw-cards",
    "draw2": "draw-cards",
}
"""A wild card's query term and the id of the card's own rule."""


def _extra_vocabulary() -> set[str]:
    """Words the speller should know although the rulebook may not use them: synonyms, phrase words."""
    found: set[str] = set(STOPWORDS) | known_words()
    found.update(word for word in SYNONYMS if word.isalpha())
    for pattern, _ in PHRASES:
        # Escapes first: in a pattern, \bstill is the word "still", not "bstill" (which "bst" would be completed into).
        plain = re.sub(r"\\[a-zA-Z]", " ", pattern)
        found.update(re.findall(r"[a-z]{3,}", plain))
        # A stem with its endings ("pick(?:s|ed|ing)?"): the inflected words are the rulebook's too, or "picked"
        # would be "corrected" to a word the speller does know ("kicked").
        for word, endings in re.findall(r"([a-z]{3,})\(\?:([a-z|]+)\)", plain):
            found.update(word + ending for ending in endings.split("|"))
    return found


class TermReader(Protocol):
    """How the search reads one language: the same terms for the rulebook's words and a question's."""

    @property
    def generic(self) -> frozenset[str]:
        """Terms that do not change which topic a question names."""
        ...

    @property
    def whole_game(self) -> frozenset[str]:
        """Terms that, alone, ask about the game as a whole."""
        ...

    @property
    def story_concepts(self) -> Mapping[str, frozenset[str]]:
        """The story table's concepts (`stories.py`) as the language's terms."""
        ...

    def terms(self, text: str) -> list[str]:
        """The search terms of a rulebook text."""
        ...

    def words(self, text: str) -> list[str]:
        """The words of a rulebook text the typo fixer learns."""
        ...

    def extra_vocabulary(self) -> set[str]:
        """Words the typo fixer should know although the rulebook may not use them."""
        ...


class EnglishReader:
    """English: the normaliser with its concept rules (`text.terms`); a question is read by `Index.query_tokens`."""

    generic = GENERIC
    whole_game = WHOLE_GAME
    story_concepts = CONCEPTS

    def terms(self, text: str) -> list[str]:
        """The search terms of a rulebook text."""
        return terms(text)

    def words(self, text: str) -> list[str]:
        """The words of a rulebook text the typo fixer learns."""
        return [word for word in words(text) if word not in STOPWORDS]

    def extra_vocabulary(self) -> set[str]:
        """Words the typo fixer should know although the rulebook may not use them."""
        return _extra_vocabulary()


ENGLISH_READER: TermReader = EnglishReader()


class Index:
    """A BM25F index over the entries, with a speller for their vocabulary."""

    def __init__(
        self, items: Iterable[Entry], params: Params = DEFAULT_PARAMS, reader: TermReader = ENGLISH_READER
    ) -> None:
        self.items = tuple(items)
        self.params = params
        self.reader = reader
        counts: list[dict[str, Counter[str]]] = []
        lengths: dict[str, list[int]] = {name: [] for name in params.weights}
        vocabulary: Counter[str] = Counter()
        # Each phrase's terms are worked out once and read by the three passes below (the normaliser's regular
        # expressions are most of the build time).
        self._phrase_terms: dict[str, tuple[str, ...]] = {}
        for item in self.items:
            per_field: dict[str, Counter[str]] = {}
            for name, phrases in _fields(item).items():
                found: Counter[str] = Counter()
                for phrase in phrases:
                    tokens = list(self._terms_of(phrase))
                    found.update(tokens)
                    found.update(bigrams(tokens))
                    vocabulary.update(reader.words(phrase))
                per_field[name] = found
                lengths[name].append(sum(found.values()))
            counts.append(per_field)
        average = {name: (sum(values) / len(values)) or 1.0 for name, values in lengths.items()}

        # BM25F: one weighted, length-normalised term frequency per (term, entry), saturated once.
        frequencies: dict[str, dict[int, float]] = {}
        for doc, per_field in enumerate(counts):
            for name, found in per_field.items():
                weight = params.weights[name]
                norm = 1.0 - params.b + params.b * lengths[name][doc] / average[name]
                for term, count in found.items():
                    bucket = frequencies.setdefault(term, {})
                    bucket[doc] = bucket.get(doc, 0.0) + weight * count / norm
        total = len(self.items)
        self.postings: dict[str, tuple[tuple[int, float], ...]] = {}
        for term, docs in frequencies.items():
            idf = math.log(1.0 + (total - len(docs) + 0.5) / (len(docs) + 0.5)) ** params.idf_power
            if "_" in term:
                idf *= params.bigram_weight
            self.postings[term] = tuple(
                (doc, idf * tf * (params.k1 + 1.0) / (params.k1 + tf)) for doc, tf in docs.items()
            )

        self._index_structure(reader)
        # The story table's concepts in this language's terms, read now rather than on the first question.
        self.story_concepts = reader.story_concepts
        self._index_questions(total, frequencies)
        self._index_typical()

        for word in reader.extra_vocabulary():
            vocabulary[word] += 1
        self.speller = Speller(vocabulary.elements())
        self._phrase_terms.clear()

    def _index_structure(self, reader: TermReader) -> None:
        """What each entry is about, for the ranking's rules: its links, kind of game, card, case and topic names."""
        self.related = _links(self.items)
        self.number = {item.id: doc for doc, item in enumerate(self.items)}
        # What an entry rules on (its kind of game, its card) is read from the English entry, whose terms the players'
        # card words of every language become (`foreign.py`); what it is called, from the words of its language.
        english = [entry(item.id) or item for item in self.items]
        self.generic = reader.generic
        self.scopes = [_scope(item) for item in english]
        self.focus = [_focus(item, reader, same) for item, same in zip(self.items, english, strict=True)]
        self.cards = [_cards(item) for item in english]
        self.topics: dict[frozenset[str], set[int]] = {}
        for doc, item in enumerate(self.items):
            for key in topic_keys(item, reader):
                self.topics.setdefault(key, set()).add(doc)
        self.whole_game = {
            doc for doc, item in enumerate(self.items) if not topic_key(reader.terms(item.title), self.generic)
        }

    def _terms_of(self, phrase: str) -> tuple[str, ...]:
        """The search terms of one rulebook phrase (remembered while the index is built)."""
        found = self._phrase_terms.get(phrase)
        if found is None:
            found = self._phrase_terms[phrase] = tuple(self.reader.terms(phrase))
        return found

    def _index_questions(self, total: int, frequencies: Mapping[str, Mapping[int, float]]) -> None:
        """Index each example question (and the title) on its own, for nearest-question matching."""
        self.idf = {
            term: math.log(1.0 + (total - len(docs) + 0.5) / (len(docs) + 0.5)) for term, docs in frequencies.items()
        }
        self.question_owner: list[int] = []
        self.question_norm: list[float] = []
        self.question_postings: dict[str, list[int]] = {}
        for doc, item in enumerate(self.items):
            for phrase in (item.title, *item.questions):
                tokens = list(self._terms_of(phrase))
                unique = set(tokens) | set(bigrams(tokens))
                if not unique:
                    continue
                number = len(self.question_owner)
                self.question_owner.append(doc)
                self.question_norm.append(math.sqrt(sum(self._weight(term) ** 2 for term in unique)))
                for term in unique:
                    self.question_postings.setdefault(term, []).append(number)

    def _index_typical(self) -> None:
        """Count in how many of each entry's phrases (title, aliases, questions) each term occurs."""
        smoothing = self.params.typical_smoothing
        counts: list[Counter[str]] = []
        for item in self.items:
            found: Counter[str] = Counter()
            for phrase in (item.title, *item.aliases, *item.questions):
                # Single terms only: word pairs are too rare per phrase to estimate, made the posterior
                # all-or-nothing and measured worse (proxy 86.5 against 86.7 top-1); BM25F counts them already.
                found.update(set(self._terms_of(phrase)))
            counts.append(found)
        vocabulary = {term for found in counts for term in found}
        # log P(term | entry) = log(count + a) - log(total + a * V): the second part is the same for every term
        # of an entry, and log(a) is added back per query term, so only terms an entry uses need a posting.
        self.typical_base = [
            math.log(smoothing) - math.log(sum(found.values()) + smoothing * len(vocabulary)) for found in counts
        ]
        postings: dict[str, list[tuple[int, float]]] = {}
        for doc, found in enumerate(counts):
            for term, count in found.items():
                postings.setdefault(term, []).append((doc, math.log((count + smoothing) / smoothing)))
        self.typical_postings = {term: tuple(docs) for term, docs in postings.items()}

    def typical(self, unique: Iterable[str]) -> list[float]:
        """Per entry, the naive Bayes posterior that the query's terms were written about it (sums to 1)."""
        known = [term for term in unique if term in self.typical_postings]
        if not known:
            return []
        logs = [base * len(known) for base in self.typical_base]
        for term in known:
            for doc, value in self.typical_postings[term]:
                logs[doc] += value
        top = max(logs)
        temperature = self.params.typical_temperature * max(1.0, len(known) / self.params.typical_terms)
        weights = [math.exp((value - top) / temperature) for value in logs]
        total = sum(weights)
        return [weight / total for weight in weights]

    def _weight(self, term: str) -> float:
        """A term's weight in question matching: its IDF (word pairs scaled like in BM25F)."""
        weight = self.idf.get(term, 0.0)
        return weight * self.params.bigram_weight if "_" in term else weight

    def nearest_questions(self, unique: Iterable[str]) -> dict[int, float]:
        """Per entry, the cosine similarity between the query's terms and its closest example question."""
        unique = tuple(unique)
        query_norm = math.sqrt(sum(self._weight(term) ** 2 for term in unique))
        if not query_norm:
            return {}
        dots: dict[int, float] = {}
        for term in unique:
            weight = self._weight(term) ** 2
            for number in self.question_postings.get(term, ()):
                dots[number] = dots.get(number, 0.0) + weight
        best: dict[int, float] = {}
        for number, dot in dots.items():
            similarity = dot / (query_norm * self.question_norm[number])
            doc = self.question_owner[number]
            if similarity > best.get(doc, 0.0):
                best[doc] = similarity
        return best

    def query_tokens(self, query: str) -> list[str]:
        """The words of a query as search terms, typos fixed."""
        query = shortened_query(query)
        if isinstance(self.reader, Reader):
            return self.reader.query_terms(query, self.speller if self.params.fix_typos else None)
        # A capitalised word the rulebook does not use is a player's name ("Bob"), not a typo for "bomb".
        spoken = phone_speak(query)
        fixed = self.speller.fix(spoken, names(query)) if self.params.fix_typos else spoken
        # The players' words for cards, lives and numbers, after typo fixing ("explodin one" is "exploding one").
        return terms(player_words(fixed) if self.params.player_words else fixed, query=True)

    def scores(self, query: str) -> list[tuple[float, int]]:
        """(score, entry index) for every entry that matches, best first (ties in file order)."""
        tokens = self.query_tokens(query)
        unique = tuple(dict.fromkeys([*tokens, *bigrams(tokens)]))
        totals: dict[int, float] = {}
        for term in unique:
            for doc, value in self.postings.get(term, ()):
                totals[doc] = totals.get(doc, 0.0) + value
        # The posterior is mixed in first, so the cuts and the topic boost act on the final score: "reverse who is
        # next" must still find Reverse before Reverse with three players, whose questions say "who is next" too.
        totals = self._adjust(self._blend(totals, unique), tokens)
        ranked = sorted(((score, doc) for doc, score in totals.items()), key=lambda pair: (-pair[0], pair[1]))
        told = unique
        if isinstance(self.reader, Reader):
            # French and German read the story table's concepts for the table only (foreign_stories.py).
            story = self.reader.query_terms(shortened_query(query), self._speller(), stories=True)
            told = (*story, *bigrams(story))
        return self._card_rule(self._with_related(self._story(ranked, told)), tokens)

    def _speller(self) -> Speller | None:
        """The typo fixer, if the parameters fix typos."""
        return self.speller if self.params.fix_typos else None

    def _story(self, ranked: list[tuple[float, int]], unique: tuple[str, ...]) -> list[tuple[float, int]]:
        """Boost the entry that settles the combination the question tells, if it tells one (`STORIES`)."""
        found = story_entry(unique, self.story_concepts) if self.params.story_boost and ranked else None
        doc = self.number.get(found, -1) if found else -1
        if doc < 0:
            return ranked
        factor = 1.0 + self.params.story_boost
        boosted = [(score * factor if other == doc else score, other) for score, other in ranked]
        if all(other != doc for _, other in ranked):
            boosted.append((ranked[0][0] * 0.5 * factor, doc))
        return sorted(boosted, key=lambda pair: (-pair[0], pair[1]))

    def _card_rule(self, ranked: list[tuple[float, int]], tokens: list[str]) -> list[tuple[float, int]]:
        """Give a short question naming a card its card's own rule in the first three, if its rulings took them."""
        if len(ranked) < 4 or len(set(tokens)) > self.params.card_rule_terms:
            return ranked
        card = next((term for term in tokens if term in _CARD_RULES), None)
        doc = self.number.get(_CARD_RULES[card], -1) if card else -1
        place = next((place for place, (_, found) in enumerate(ranked) if found == doc), None)
        # "bomb who needs a 0": three Bomb rulings may each be fair, but the Bomb rule is the safety net.
        if place is None or place < 3:
            return ranked
        # It takes the score of the place it takes, so the scores still run best first.
        return [*ranked[:2], (ranked[2][0], ranked[place][1]), *ranked[2:place], *ranked[place + 1 :]]

    def _with_related(self, ranked: list[tuple[float, int]]) -> list[tuple[float, int]]:
        """Re-rank behind the first result, favouring the entries it links to (the first place stays)."""
        if len(ranked) < 3 or not self.params.related_boost:
            return ranked
        related = self.related[ranked[0][1]]
        factor = 1.0 + self.params.related_boost
        rest = sorted(
            ((score * factor if doc in related else score, doc) for score, doc in ranked[1:]),
            key=lambda pair: (-pair[0], pair[1]),
        )
        return [ranked[0], *rest]

    def _blend(self, totals: dict[int, float], unique: tuple[str, ...]) -> dict[int, float]:
        """Scale the scores to the best one and mix in the posterior (and the nearest question, if on)."""
        for share, other in (
            (self.params.typical_weight, self.typical),
            (self.params.question_weight, self.nearest_questions),
        ):
            if not share or not totals:
                continue
            extra = other(unique)
            if not extra:
                continue
            top = max(totals.values())
            # Only entries BM25F found stay: the posterior reorders them, it does not add any.
            totals = {doc: (1.0 - share) * value / top + share * _at(extra, doc) for doc, value in totals.items()}
        return totals

    def _adjust(self, totals: dict[int, float], tokens: list[str]) -> dict[int, float]:
        """Apply the one-kind-of-game and narrow-ruling cuts, the named game's and the named topic's boosts."""
        named = set(tokens)
        for doc in totals:
            if self.scopes[doc] and not self.scopes[doc] & named:
                totals[doc] *= 1.0 - self.params.scope_penalty
            if self.focus[doc] and not self.focus[doc] & named:
                totals[doc] *= 1.0 - self.params.focus_penalty
            if self.cards[doc] and not self.cards[doc] & named:
                totals[doc] *= 1.0 - self.params.card_penalty
        if self.reader is not ENGLISH_READER:
            # "Mort subite : ...", "Teamspiel: ...": a French or German question that names the game it is played in
            # asks about that game, even when its story's words are a general rule's (French and German development
            # sets: +2 and +1 top-1, none lost). English has its story table for this instead.
            games = {term for term in named if term in _GAME_NAMES}
            for doc in totals:
                if games and not self.scopes[doc] & games:
                    totals[doc] *= 1.0 - self.params.scope_penalty
        # A kind of game named in so many words ("just the two of us", "in teams"): its own rulings gain back what the
        # one-kind-of-game cut takes from them elsewhere (Params.game_boost).
        games_named = named & _GAMES_NAMED
        if games_named and self.params.game_boost:
            for doc in totals:
                if self.scopes[doc] & games_named:
                    totals[doc] *= 1.0 + self.params.game_boost
        named_topic = self.topics.get(topic_key(tokens, self.generic), set())
        if tokens and named <= self.reader.whole_game:
            named_topic = self.whole_game
        for doc in named_topic:
            if doc in totals:
                totals[doc] *= 1.0 + self.params.exact_boost
        return totals


def _at(values: Mapping[int, float] | list[float], doc: int) -> float:
    """values[doc], or 0 where there is none."""
    if isinstance(values, list):
        return values[doc] if doc < len(values) else 0.0
    return values.get(doc, 0.0)


@cache
def default_index(language: str = ENGLISH) -> Index:
    """The index over the whole rulebook in `language`'s words, built once per process (per language)."""
    if language == ENGLISH:
        return Index(entries())
    return Index(entries(language), reader=Reader(language))


def read_translations_from(directory: Path | None) -> None:
    """Read each language's rulebook.json from `directory`/<language>/ (None: from the installed package), and index
    them again on next use: a test's own file, or a file being written, measured before it is merged."""
    use_words_from(directory)
    forget_translations()


def forget_translations() -> None:
    """Read the languages' rulebook files again, and index them again, on next use."""
    forget()
    forget_languages()
    default_index.cache_clear()
    quick_questions.cache_clear()


def warm() -> None:
    """Build the English index now (about 0.7 s on a small 2-core machine) rather than on the first search; call at
    start. Another language's index is built on its first search."""
    default_index()


def search(
    query: str,
    house_rules: HouseRules | None = None,
    limit: int = MAX_RESULTS,
    variant: Variant | None = None,
    language: str = ENGLISH,
) -> list[SearchResult]:
    """Entries answering `query` (asked in `language`), best first, at most `limit` (capped at MAX_RESULTS), in
    that language's words.

    With `house_rules`, each result governed by a switch carries this table's reading in `table_note`; with the
    table's `variant` too, only where the switch can come up in the table's game.
    """
    limit = max(0, min(limit, MAX_RESULTS))
    if limit == 0 or not query.strip():
        return []
    index = default_index(language if language in LANGUAGES else ENGLISH)
    ranked = index.scores(query)
    if variant is not None:
        named = set(index.query_tokens(query))
        best = ranked[0] if ranked else None
        # sorted() is stable: within each group the search's own order stands.
        ranked = sorted(ranked, key=lambda pair: _other_game(index.items[pair[1]], variant, named))
        if best is not None and _other_game(index.items[best[1]], variant, named):
            ranked = _general_ruling_first(index, ranked, best)
        ranked = _own_rulings_first(index, ranked, variant)
    results = []
    for score, doc in ranked[:limit]:
        item = index.items[doc]
        here = rules_here(item, house_rules, variant)
        examples = item.examples_for(here, variant)
        results.append(
            SearchResult(
                entry=item,
                score=round(score, 4),
                table_note=table_note(item, here),
                example=examples[0] if examples else None,
                usual=item.usual_at(here),
                game=variant,
            )
        )
    return results


def _general_ruling_first(
    index: Index, ranked: list[tuple[float, int]], best: tuple[float, int]
) -> list[tuple[float, int]]:
    """Give another game's best answer's place to the general ruling it settles otherwise (GAME_RULINGS).

    "who wins if we both run out of hearts" at a Standard table answers best with Sudden Death's ruling; this table's
    answer is the general one that ruling stands in for, not whatever happened to come next.
    """
    score, doc = best
    other = index.items[doc]
    game = GAME_SECTIONS[other.section]
    generals = {general for general, own in GAME_RULINGS.get(game, {}).items() if own == other.id}
    for at, (_, candidate) in enumerate(ranked):
        if index.items[candidate].id in generals:
            return [(max(score, ranked[at][0]), candidate), *ranked[:at], *ranked[at + 1 :]]
    return ranked


def _own_rulings_first(index: Index, ranked: list[tuple[float, int]], variant: Variant) -> list[tuple[float, int]]:
    """Put the table's game's own ruling (GAME_RULINGS) just before the first general one it settles otherwise."""
    own = GAME_RULINGS.get(variant, {})
    position = {index.items[doc].id: at for at, (_, doc) in enumerate(ranked)}
    for at, (_, doc) in enumerate(ranked[:MAX_RESULTS]):
        counterpart = own.get(index.items[doc].id)
        if counterpart is None:
            continue
        moved = position.get(counterpart)
        if moved is not None and moved < at:
            return ranked  # the game's own ruling already comes first
        # Its score is the general ruling's: it answers the same question, for this table.
        score = ranked[at][0]
        rest = [pair for pair in ranked if index.items[pair[1]].id != counterpart]
        doc_of = next(doc for doc, item in enumerate(index.items) if item.id == counterpart)
        return [*rest[:at], (score, doc_of), *rest[at:]]
    return ranked


def about_another_game(item: Entry, variant: Variant) -> bool:
    """True if `item` is about a game the setup chooses (Sudden Death, Teams) other than `variant`."""
    game = GAME_SECTIONS.get(item.section)
    return game is not None and game is not variant


def _other_game(item: Entry, variant: Variant, named: set[str]) -> bool:
    """True if `item` is about a game other than `variant` and the question does not name that game."""
    return about_another_game(item, variant) and not SCOPES[item.section] & named


@cache  # every page draws the chips (a context processor): work them out once per game and language
def quick_questions(variant: Variant | None = None, language: str = ENGLISH) -> tuple[tuple[str, str], ...]:
    """The chips' (label, question): at a table playing `variant`, none about another game. The label is English
    (the face words it); in another language the question is the target entry's title in that language, which its
    search finds as a named topic."""
    said = {item.id: item for item in entries(language if language in LANGUAGES else ENGLISH)}
    return tuple(
        (label, question if language == ENGLISH else said[target].title)
        for label, question, target in QUICK_QUESTIONS
        if variant is None or not about_another_game(said[target], variant)
    )


def result_json(result: SearchResult) -> dict[str, str | None]:
    """One result as the JSON API shows it: id, title, verdict, answer, example, source, house_rule.

    `verdict` is the ruling in a few words (None for an entry that explains rather than settles a
    question); `example` is the short game the rules panel shows (None for an entry without one).
    """
    return {
        "id": result.id,
        "title": result.title,
        "verdict": result.entry.verdict,
        "answer": result.answer,
        "example": result.example.text if result.example else None,
        "source": result.source,
        "house_rule": result.house_rule,
    }


def search_json(query: str, house_rules: HouseRules | None = None) -> dict[str, list[dict[str, str | None]]]:
    """The body of `GET /api/v1/rules?q=TEXT`: {"results": [...]}, best first, at most 10."""
    return {"results": [result_json(result) for result in search(query, house_rules)]}
