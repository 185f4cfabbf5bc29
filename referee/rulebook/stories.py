"""Stories that turn on a rule they do not name: which combinations of things told settle which entry.

A player tells what happened ("my son put a draw 2 down as his very last card and now wants us all to pick up 2 AND
lose a life") rather than naming the rule in doubt (a wild card as the last card). The words of the story belong to
the entries for its parts (Draw cards, Going out, One life each), so word matching finds those; the dispute is in the
combination. `STORIES` is a small declared table: when a question holds every concept a row needs and none it rules
out, the row's entry is boosted (`Params.story_boost`, score x 4) ahead of the entries for the story's parts. The
first row that matches wins, so a narrower row is declared before a wider one.

Concepts are written in plain words and read through the same normaliser as the rulebook (`text.terms`), so they
match whatever a question's words were rewritten to; a two-word concept is the word pair ("last card").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from .foreign_stories import ENGLISH_ONLY, STORY_WORDS
from .text import terms

_CONCEPT_WORDS: Mapping[str, tuple[str, ...]] = {
    "last card": ("last card", "goout", "lastwild"),
    "a wild card named": ("draw1", "draw2", "skip", "reverse", "pass", "eq21", "eq10", "eq0", "wild", "lastwild"),
    "a Bomb or a Re-deal": ("bomb", "bomber", "redeal"),
    "a 0": ("lastzero", "allzeros", "nozero", "substitutezero", "0"),
    "a short draw pile": ("pile", "drawpile", "empty"),
    "two players": ("2player",),
    "teams": ("team", "teammate"),
    "a Bomb": ("bomb", "bomber"),
    "a Bomb as the last card": ("lastbomb",),
    "a last 0": ("lastzero", "substitutezero"),
    "Sudden Death": ("suddendeath",),
    "tied lives": ("both", "tie", "same"),
    "lives": ("life",),
    "no 0": ("nozero",),
    "several 0s": ("allzeros",),
    "both teams out or tied": ("both team", "every team", "team out", "tie", "win", "lastlife", "eliminate", "atonce"),
    "the bomber": ("bomber", "himself", "herself", "themselves"),
    "a last life or elimination": ("lastlife", "eliminate", "atonce"),
    "the last card or a last 0": ("last card", "goout", "lastzero"),
    "the total or the turn after": ("total", "turn", "whoseturn", "next"),
    "over 21": ("over 21",),
    "a card played": ("play", "0", "1", "2", "3", "4", "5", "6", "7"),
    "nothing fits": ("cant", "none", "nothing", "fit", "only"),
    "busting": ("bust", "onpurpose"),
    "using a card": ("use", "mustplay", "mustuse"),
    "numbers too high": ("high", "over", "bust", "onpurpose", "lose life"),
    "a card that fits": ("fit",),
    "a mistake": ("wrongentry", "mistake", "oops"),
    "a mistake found late": ("latemistake",),
    "looking at a hand": ("peek",),
    "tapped": ("tap", "press", "click", "type", "typed", "enter", "button", "app", "phone", "screen"),
    "not what was played": ("instead", "meant", "wrong"),
    "out of turn": ("outofturn", "out of turn", "twice", "before", "atonce"),
    "the referee's total": ("wrongcount", "miscount"),
    "the total": ("total", "high", "low"),
    "a hand's count": ("handcount", "card number"),
    "a Re-deal": ("redeal",),
    "whose turn": ("whoseturn", "turn", "next"),
    "a 0 to discard": ("0", "discard", "rid"),
    "a low total": ("low",),
    "Sudden Death named": ("suddendeath",),
    "everyone out at once": ("atonce",),
    "going out": ("goout",),
    "the last card named": ("last card",),
    "an empty hand after": ("no card", "empty"),
    "someone out": ("out", "eliminate", "lastlife"),
    "two editions": ("new version", "old version", "edition", "old box", "old rule", "new rule", "old one", "new one"),
    "a card laid and a life lost": ("lose life",),
    "a life said lost": ("lose life", "lose 1", "lastlife"),
    "five players": ("5", "5player"),
    "the draw pile": ("drawpile", "pile"),
    "nothing left to draw": ("empty",),
    "keeping the card": ("keepcard",),
    "a bust or a life lost": ("bust", "cant play", "over", "lose life"),
    "a bust told": ("bust", "cant play", "over 21", "life over", "without over"),
    "what comes next": ("reset", "whoseturn", "next", "stay"),
    "cards in hand": ("hand",),
    "when a card may be played": ("anytime", "first card", "firstround", "start round", "first turn"),
    "the =21 card": ("eq21",),
    "a total of 21": ("21",),
    "leaving": ("leave", "quit"),
    "a last life": ("lastlife",),
    "on purpose": ("onpurpose",),
    "keeping a 0": ("keepzero",),
    "a 0 as the last card": ("lastzero",),
    "a win": ("win",),
    "any wild card named": (
        "draw1",
        "draw2",
        "skip",
        "reverse",
        "pass",
        "eq21",
        "eq10",
        "eq0",
        "wild",
        "lastwild",
        "bomb",
        "bomber",
        "redeal",
    ),
    "a number card 1 to 7": ("1", "2", "3", "4", "5", "6", "7"),
    "a tie": ("tie", "tiebreak"),
    "an empty hand": ("empty hand", "no card", "goout", "empty"),
    "no cards left": ("no card", "empty hand", "nothing"),
    "a house rule": ("houserule",),
    "a rule set in the app": ("appset",),
    "on another player's turn": ("otherturn", "out of turn"),
}


def _terms(phrase: str) -> str:
    """A concept word as the search term it becomes (a two-word phrase as its word pair)."""
    return "_".join(terms(phrase))


CONCEPTS: Mapping[str, frozenset[str]] = {
    name: frozenset(_terms(word) for word in words) for name, words in _CONCEPT_WORDS.items()
}
"""Each concept and the search terms (single terms or word pairs) any one of which shows it in a question."""


class ForeignReader(Protocol):
    """A language's reader (`foreign.Reader`): its language and how it reads words into terms."""

    @property
    def language(self) -> str:
        """The language's code ("fr", "de")."""
        ...

    def terms(self, text: str) -> list[str]:
        """The search terms of a text in the language."""
        ...


def concepts_in(reader: ForeignReader, shared: frozenset[str]) -> Mapping[str, frozenset[str]]:
    """The concepts in a French or German reader's terms: every English term of a concept that the reader produces too
    (`shared`, and the figures: the cards, `lastlife`, `nozero` ...), and the language's own words for it
    (`foreign_stories.STORY_WORDS`)."""
    own = STORY_WORDS.get(reader.language, {})

    def read(phrase: str) -> str:
        return "_".join(reader.terms(phrase))

    return {
        name: frozenset(
            {word for word in words if word in shared or word.isdigit()} | {read(word) for word in own.get(name, ())}
        )
        - {""}
        - ENGLISH_ONLY.get(name, frozenset())
        for name, words in _CONCEPT_WORDS.items()
    }


@dataclass(frozen=True)
class Story:
    """A combination a dispute turns on: the concepts it needs, those ruling it out, and the entry that settles it."""

    needs: tuple[str, ...]
    entry: str
    unless: tuple[str, ...] = ()

    def told_in(self, found: Iterable[str], concepts: Mapping[str, frozenset[str]] = CONCEPTS) -> bool:
        """True if a question whose terms (and word pairs) are `found` tells this story (`concepts`: the concepts in
        the question's language's terms)."""
        found = set(found)
        return all(concepts[name] & found for name in self.needs) and not any(
            concepts[name] & found for name in self.unless
        )


STORIES: tuple[Story, ...] = (
    # "a bomb as the last card costs one life in our house, can we set that in the app": the table's own rule asked of
    # the referee, whatever the rule is about (not the ruling the story tells)
    Story(("a house rule", "a rule set in the app"), "house-rules"),
    # "for three turns now the app says she has 3 cards, she holds 5": a hand count put right, found late or not
    Story(("a mistake found late", "a hand's count"), "hand-correction"),
    # "we entered a 6 three turns ago but it was a 9": a card entered wrongly, found after play went on
    Story(("a mistake found late", "tapped"), "earlier-mistake", ("a hand's count", "out of turn")),
    # "he played out of turn and nobody noticed until the next card": the out-of-turn ruling, found late or not
    Story(("a mistake found late", "out of turn"), "out-of-turn", ("a hand's count",)),
    # "he played a 6 at 17 and nobody noticed until two turns later": a wrong card found late, which the table puts
    # right by undoing back to it (not the rule the wrong card broke)
    Story(("a mistake found late",), "undo", ("a hand's count", "out of turn")),
    # "i went over and lost a life, do i keep the card or put it down": the busting player keeps it
    Story(
        ("keeping the card", "a bust or a life lost"),
        "bust-keeps-card",
        ("a Bomb or a Re-deal", "last card", "a 0", "on purpose"),
    ),
    # "sudden death, tied; she went out so her hand is empty: does that count as 0": the tie-break with an empty hand
    Story(("Sudden Death", "a tie", "an empty hand"), "sudden-death-empty-hand", ("a last life or elimination",)),
    # "my last card was a draw 2, do they still pick up AND lose a life": what a last wild card still does. A last
    # Bomb, a last Re-deal and a last 0 have rulings of their own; a short pile and the duel rules are other doubts.
    Story(
        ("last card", "a wild card named"),
        "last-card-wild-effect",
        ("a Bomb or a Re-deal", "a 0", "a short draw pile", "two players", "teams"),
    ),
    # "my last card was the bomb, do the others still need zeros": a Bomb as the last card (not a last 0 given to it)
    Story(("a Bomb as the last card",), "bomb-last-card", ("a last 0", "two players", "teams")),
    # "played Hand in & Re-deal as my final card, do we redeal": a last Re-deal ends the round (the wild-card row above
    # leaves a Re-deal out, and a last Bomb has a row of its own)
    Story(
        ("the last card named", "a Re-deal"),
        "redeal-last-card",
        ("a Bomb", "a short draw pile", "two players", "teams", "an empty hand after"),
    ),
    # "uncle bombs, we throw zeros, gran flips a heart: whose turn is it now": the turn after a Bomb
    Story(
        ("a Bomb", "whose turn"),
        "turn-after-bomb",
        (
            "two players",
            "teams",
            "last card",
            "a Bomb as the last card",
            "someone out",
            "several 0s",
            "when a card may be played",
        ),
    ),
    # "she gave her only card, a 0, to the bomb: has she gone out?": a last 0 given to a Bomb, whatever the bomber says
    Story(
        ("a Bomb", "a 0 as the last card"), "zero-answer-last-card", ("two players", "teams", "a Bomb as the last card")
    ),
    # "does whoever plays the bomb have to get rid of a 0 too": the bomber's own ruling, not the Bomb rule
    Story(("the bomber", "a 0 to discard"), "bomber-does-not-discard", ("two players", "teams")),
    # "3 of us, the other two were on their last life so both are out at once": not Sudden Death's ruling
    Story(
        ("going out", "everyone out at once"),
        "several-eliminated-at-once",
        ("Sudden Death named", "teams", "two players", "a Bomb"),
    ),
    # "sudden death, both on 2 lives, i have a skip, does it count": the tie-break counts no wild card
    Story(("Sudden Death", "tied lives", "a wild card named"), "tiebreak-wild-cards", ("a last life or elimination",)),
    # "sudden death and we both have 3 lives left, who wins": the tie-break (not two out at once)
    Story(("Sudden Death", "tied lives", "lives"), "tiebreak", ("a last life or elimination",)),
    # "we are 5, how do the teams work": five players in teams
    Story(("teams", "five players"), "teams-five-players", ("a Bomb", "both teams out or tied")),
    # "bomb with 2 left, who answers it": the duel's Bomb ruling
    Story(
        ("a Bomb", "two players"),
        "bomb-two-players",
        (
            "teams",
            "a Bomb as the last card",
            "the bomber",
            "the last card or a last 0",
            "a 0",
            "going out",
            "an empty hand after",
        ),
    ),
    # "the pick up pile is empty, do we flip the played cards over": the draw pile running out
    Story(
        ("the draw pile", "nothing left to draw"), "empty-draw-pile", ("a Bomb or a Re-deal", "two players", "leaving")
    ),
    # "teammate bombs me and i have no 0": the team game's Bomb ruling (not when both teams are emptied)
    Story(("a Bomb", "teams"), "teams-bomb", ("both teams out or tied",)),
    # "my bomb took the last life of both of them, have i won": a Bomb that knocks out everyone else wins the game
    Story(
        ("a Bomb", "a last life or elimination", "a win"),
        "bomb-eliminates-all",
        (
            "teams",
            "two players",
            "Sudden Death named",
            "a Bomb as the last card",
            "a last 0",
            "tied lives",
            "going out",
        ),
    ),
    # "he bombed us and none of us had zeros, do we all lose one": the Bomb rule itself, not the knock-out rulings
    Story(
        ("a Bomb", "no 0"),
        "bomb",
        (
            "the bomber",
            "several 0s",
            "two players",
            "a last life or elimination",
            "the last card or a last 0",
            "the total or the turn after",
        ),
    ),
    # "bro bombed and i got 2 zeros, do i dump both": one 0 per Bomb
    Story(("a Bomb", "several 0s"), "one-zero-per-bomb", ("two players", "teams")),
    # "the new version says you put the card down and lose a life, the old box says you dont play it": the editions'
    # texts differ on a card over 21, which the over-21 ruling settles (not the names the editions print)
    Story(("two editions", "a card laid and a life lost"), "over-21", ("a wild card named", "a Bomb or a Re-deal")),
    # "its 17 and his last card is a 6, he says he won": a last card over 21 is a bust, not going out
    Story(("last card", "over 21"), "bust-last-card", ("a wild card named", "a 0", "a Bomb or a Re-deal")),
    # "i have a 0 in my hand, can i still go over 21": a player holding a 0 cannot bust
    Story(("a 0", "over 21"), "zero-never-busts", ("a Bomb", "last card", "a wild card named", "a number card 1 to 7")),
    # "the count is 12 and she says shes bust": nobody can bust at 14 or less
    Story(("busting", "a low total"), "no-bust-at-14", ("a wild card named", "a 0", "last card")),
    # "can i lose a life when its on 12", "i must flip one of my alive cards, the total is twelve": the same, told
    # as the life it would cost
    Story(("a life said lost", "a low total"), "no-bust-at-14", ("a wild card named", "a 0", "last card", "a Bomb")),
    # "total is 19 and he slapped down a 4, can he even put it down": the over-21 rule, not Bust
    Story(
        ("over 21", "a card played"),
        "over-21",
        ("the last card or a last 0", "a wild card named", "nothing fits"),
    ),
    # "i have a skip but i'd rather take the bust": a wild card must be played rather than bust
    Story(("a wild card named", "busting"), "wild-instead-of-bust", ("last card", "a 0", "nothing fits")),
    # "i have a reverse but id go over with my numbers, do i have to use the reverse": the same ruling, other way round
    Story(
        ("a wild card named", "using a card", "numbers too high"),
        "wild-instead-of-bust",
        ("last card", "a 0", "a card that fits"),
    ),
    # "i wanted to keep my 2 for later, so i said i was bust and flipped a life": a life taken by choice, whatever
    # else the story tells (the total reset, who played next), is busting on purpose
    Story(
        ("on purpose", "a bust or a life lost"),
        "bust-on-purpose",
        ("a wild card named", "a Bomb or a Re-deal", "keeping a 0", "last card", "two players", "teams", "a low total"),
    ),
    # "i couldnt play and flipped a life: does the total stay, whose turn is it": after a bust
    Story(
        ("a bust told", "what comes next"),
        "after-bust",
        (
            "a Bomb or a Re-deal",
            "last card",
            "a last life or elimination",
            "teams",
            "two players",
            "a low total",
            "a wild card named",
            "a mistake",
            "keeping the card",
            "the referee's total",
        ),
    ),
    # "she couldnt play without going over and lost her fifth life": knocked out by one's own bust
    Story(
        ("a bust told", "a last life or elimination"),
        "eliminated-by-own-bust",
        ("a Bomb or a Re-deal", "teams", "Sudden Death named", "last card", "two players", "going out"),
    ),
    # "if i lose my last life, what happens to the cards in my hand": an eliminated player's cards
    Story(
        ("a last life or elimination", "cards in hand"),
        "eliminated-player-cards",
        (
            "a Bomb or a Re-deal",
            "Sudden Death named",
            "teams",
            "last card",
            "going out",
            "a bust told",
            "tied lives",
            "leaving",
        ),
    ),
    # "if i'm knocked out, do i keep hold of my cards or chuck them in": the same, told as keeping the cards
    Story(
        ("a last life or elimination", "keeping the card"),
        "eliminated-player-cards",
        (
            "a Bomb or a Re-deal",
            "Sudden Death named",
            "teams",
            "last card",
            "going out",
            "a bust told",
            "tied lives",
            "leaving",
        ),
    ),
    # "the player who loses his last life, must he leave the table at once": elimination, not a player who quits
    Story(
        ("a last life", "leaving"),
        "elimination",
        ("a Bomb", "teams", "Sudden Death named", "going out", "two players"),
    ),
    # "wild cards can be played at any time, so i put a skip down on my cousin's turn": a card played on another
    # player's turn, which the out-of-turn ruling settles (not when a wild card may be played in one's own turn)
    Story(("any wild card named", "on another player's turn"), "out-of-turn", ("a mistake found late",)),
    # "can i play the bomb as the first card of the round", "can i play REDEAL whenever i like": when a wild card may
    # be played (any time), not what it does
    Story(
        ("any wild card named", "when a card may be played"),
        "wild-cards",
        ("the =21 card", "last card", "two players", "teams", "a total of 21", "a 0"),
    ),
    # "could the re-deal leave someone holding nothing at all": a Re-deal and an empty hand
    Story(("a Re-deal", "no cards left"), "redeal-empty-hand", ("the last card named",)),
    # "in teams can i look at my partners cards": a hand is hidden in every game, the team game's words aside
    Story(("looking at a hand", "teams"), "hide-hand"),
    # "accidentally hit bomb instead of skip": a mis-tap, which Undo fixes
    Story(("a mistake",), "undo", ("out of turn", "over 21", "busting", "a hand's count")),
    # "he tapped the pick up 2 card but actually put down a pick up 1": what was entered is not what was played
    Story(("tapped", "not what was played"), "undo", ("out of turn", "a hand's count")),
    # "the app says the total is 19 but we counted 17": the referee's total is off, so a card was entered wrong
    Story(("the referee's total", "the total"), "undo", ("a hand's count",)),
)
"""The declared table, first match wins."""


def story_entry(found: Iterable[str], concepts: Mapping[str, frozenset[str]] = CONCEPTS) -> str | None:
    """The id of the entry the first story told in a question settles (None: no story)."""
    found = set(found)
    return next((story.entry for story in STORIES if story.told_in(found, concepts)), None)
