"""Turn typed text into search terms: the game's many names, number words, typos and word endings.

The same `terms()` pipeline runs over the rulebook and over every query, so "+2", "plus two" and
"Draw 2" all become the term `draw2`, "hearts" and "ALIVE cards" become `life`, and so on.
Typos are fixed earlier, word by word, against the words the rulebook actually uses
(spelling.py's `Speller`), before any of this runs; the players' phrases are phrases.py's.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from .phrases import COMPILED_PHRASES, NUMBER_WORDS, read_spread_sum, sum_verdict

_QUERY_NUMBERS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # "total is 10", "the total's at 12": a low total (not "=10" or "10 cards")
    (re.compile(r"\btotal\s*(?:is|s|at|of|=)?\s*(?:at\s+)?(?:[0-9]|1[0-4])(?!\w)"), " total low "),
    # "we're only on 9", "it's at 6", "the count reached 10": the same low total, said of the table
    (
        re.compile(
            r"\b(?:it|its|we|were|count|sum|score)\s+(?:is\s+|are\s+|s\s+|re\s+)?(?:only\s+|just\s+|still\s+)?"
            r"(?:on|at|reached|reaches|gets\s+to|got\s+to)\s+(?:[0-9]|10)(?!\w)"
        ),
        " total low ",
    ),
    (
        re.compile(
            # (not "a draw 1 when the total is 21": the 1 is a Draw card's)
            r"(?<![\w=])(?<!draw\s)(?<!plus\s)(?<!\+)(?!1\s+on\s+1\b)([0-7])\s+(?:on|at|onto|when\s+(?:its|it's|the\s+total\s+is))\s+"
            r"(1?\d|2[01])(?!\w)"
        ),
        sum_verdict,
    ),
    (re.compile(r"(?<![\w=])(?:1[1-4])(?!\w)"), " low "),
    (re.compile(r"(?<![\w=])(?:1[5-9]|20)(?!\w)"), " high "),
    (re.compile(r"(?<![\w=])2[2-8](?!\w)"), " over 21 "),
    # "can i bust at 9", "bust on 6": a total too low to bust (11-14 are "low" by now)
    (
        re.compile(r"\b(bust\w*)\s+(?:at|on|under|below)\s+(?:a\s+|the\s+)?(?:total\s+(?:of\s+)?)?(?:[0-9]|10)(?!\w)"),
        r" \1 low ",
    ),
)

# One-word synonyms: every form on the left becomes the term on the right (not stemmed further).
SYNONYMS: dict[str, str] = {
    **NUMBER_WORDS,
    "zeros": "0",
    "zeroes": "0",
    "lives": "life",
    "lifes": "life",
    "heart": "life",
    "hearts": "life",
    "skull": "life",
    "skulls": "life",
    "alive": "life",
    "health": "life",
    "lose": "lose",
    "hurt": "lose",
    "tied": "tie",
    "ties": "tie",
    "hurts": "lose",
    "loses": "lose",
    "losing": "lose",
    "lost": "lose",
    "flip": "lose",
    "flips": "lose",
    "flipped": "lose",
    "bust": "bust",
    "busts": "bust",
    "busted": "bust",
    "busting": "bust",
    "bomb": "bomb",
    "bombs": "bomb",
    "bombed": "bomb",
    "bombing": "bomb",
    "eliminated": "eliminate",
    "eliminate": "eliminate",
    "eliminates": "eliminate",
    "elimination": "eliminate",
    "dead": "eliminate",
    "die": "eliminate",
    "dies": "eliminate",
    "died": "eliminate",
    "win": "win",
    "wins": "win",
    "won": "win",
    "winner": "win",
    "winners": "win",
    "winning": "win",
    "victory": "win",
    "deal": "deal",
    "deals": "deal",
    "dealt": "deal",
    "dealer": "deal",
    "dealing": "deal",
    # telling the table about a last card (No need to call your last card)
    "tell": "announce",
    "shout": "announce",
    "shouting": "announce",
    "announce": "announce",
    "announcing": "announce",
    "declare": "announce",
    "shuffle": "shuffle",
    "shuffles": "shuffle",
    "shuffled": "shuffle",
    "reshuffle": "shuffle",
    "reshuffled": "shuffle",
    "score": "total",
    "sum": "total",
    "tally": "total",
    "tallies": "total",
    "teammate": "teammate",
    "teammates": "teammate",
    "partner": "teammate",
    "partners": "teammate",
    "teams": "team",
    "go": "turn",
    "goes": "turn",
    "turns": "turn",
    "player": "player",
    "players": "player",
    "people": "player",
    "person": "player",
    "ppl": "player",
    "guy": "player",
    "someone": "player",
    "someones": "player",
    "somebody": "player",
    "everyone": "everyone",
    "everybody": "everyone",
    "reverse": "reverse",
    "reversed": "reverse",
    "reverses": "reverse",
    "backwards": "reverse",
    "skip": "skip",
    "skips": "skip",
    "skipped": "skip",
    "skipping": "skip",
    "redeals": "redeal",
    "sudden": "suddendeath",
    "equals": "equal",
    "first": "first",
    "start": "start",
    "starts": "start",
    "started": "start",
    "starting": "start",
    "begin": "start",
    "begins": "start",
    "beginning": "start",
    "colour": "color",
    "discards": "discard",
    "throw": "discard",
    "throws": "discard",
    "threw": "discard",
    "thrown": "discard",
    "dump": "discard",
    "dumps": "discard",
    "dumped": "discard",
    "toss": "discard",
    "chuck": "discard",
    "discarded": "discard",
    "discarding": "discard",
    "big": "high",
    "bigger": "high",
    "biggest": "high",
    "large": "high",
    "higher": "high",
    "highest": "high",
    "minus": "subtract",
    "negative": "subtract",
    "subtracts": "subtract",
    "subtracted": "subtract",
    "empty": "empty",
    "emptied": "empty",
    "empties": "empty",
}

_STOPWORD_TEXT = """
    a an the i im ive id me my mine you your youre yours we us our ours they them their theirs there theres
    he she him her his it its is are was were be been being am do does did doing done dont doesnt didnt have has
    had can could should would will shall may might what whats which who whos whom whose this that these those
    here of to in on at by for with about as into from so if then than and or but just also very really happen
    happens happened mean means get gets got when how why where whenever while any anyone anything thing things
    please ok okay like well still even yet s t now ought
    w u ur youre wat wats wot wut whta bro dude mate lol pls plz tho though gonna gotta wanna cuz coz n r y
    idk rn k ya yeah yep nah hey guys wait um uh oh so basically literally actually supposed ok
    mum mom mam mummy mommy mother dad daddy father nan nana nanna gran granny grandma grandmother grandad
    granddad grandpa grandfather brother sister sis son daughter wife husband uncle aunt aunty auntie cousin
    friend buddy boyfriend girlfriend kid kids grandson granddaughter grandchild grandchildren grandkids stepson
    stepdaughter stepmum stepdad nephew niece law great
    hello hi dear helper thanks thank sorry morning evening afternoon
    quite truly merely kindly indeed perhaps cos"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
"""Words that say nothing about which rule is meant."""

_KEEP = frozenset({"bus", "plus", "minus", "bonus", "yes", "this", "is", "was", "has", "does", "less", "pass"})


# Phone spelling and chat shorthand, rewritten to plain words before typo fixing (which would otherwise
# "correct" them into unrelated rulebook words: "enuf" is not "menu"). Whole words only.
PHONE_WORDS: dict[str, str] = {
    "b4": "before",
    "bfore": "before",
    "enuf": "enough",
    "enuff": "enough",
    "wen": "when",
    "wn": "when",
    "hw": "how",
    "wht": "what",
    "wut": "what",
    "cud": "could",
    "cld": "could",
    "shud": "should",
    "shld": "should",
    "wud": "would",
    "wld": "would",
    "pple": "people",
    "plyr": "player",
    "plyrs": "players",
    "playr": "player",
    "playrs": "players",
    "bc": "because",
    "bcuz": "because",
    "bcoz": "because",
    "any1": "anyone",
    "ne1": "anyone",
    "every1": "everyone",
    "evry1": "everyone",
    "evryone": "everyone",
    "no1": "nobody",
    "noone": "nobody",
    "nobdy": "nobody",
    "sum1": "someone",
    "some1": "someone",
    "1st": "first",
    "2nd": "second",
    "3rd": "third",
    "nxt": "next",
    "crd": "card",
    "crds": "cards",
    "lyf": "life",
    "lyfe": "life",
    "lifes": "lives",
    "thru": "through",
    "wit": "with",
    "wiv": "with",
    "w/": "with",
    "w/o": "without",
    "abt": "about",
    "da": "the",
    "dat": "that",
    "dis": "this",
    "dem": "them",
    "dnt": "dont",
    "cnt": "cant",
    "cannt": "cant",
    "aint": "not",
    "havent": "have not",
    "hasnt": "has not",
    "hadnt": "had not",
    "isnt": "is not",
    "wasnt": "was not",
    "gotta": "have to",
    "hafta": "have to",
    "hav": "have",
    "hve": "have",
    "giv": "give",
    "kno": "know",
    "knw": "know",
    "nothin": "nothing",
    "nuthin": "nothing",
    "sumthin": "something",
    "luz": "lose",
    "loose": "lose",
    "looses": "loses",
    "loosing": "losing",
    "2gether": "together",
    "togther": "together",
    "agen": "again",
    "agn": "again",
    "agian": "again",
    "pls": "please",
    "plz": "please",
    "tht": "that",
    "frm": "from",
    "bout": "about",
    "em": "them",
    "ya": "you",
    "yr": "your",
    "yur": "your",
    "thier": "their",
    "whos": "who is",
    "whats": "what is",
    "wats": "what is",
}
_PHONE_WORD = re.compile(r"(?<![\w=+])[a-z0-9]+(?:/o|/)?(?![\w])")


def phone_speak(text: str) -> str:
    """Fold `text` and spell out phone shorthand ("b4" -> "before", "every1" -> "everyone")."""
    return _PHONE_WORD.sub(lambda match: PHONE_WORDS.get(match.group(0), match.group(0)), fold(text))


_NAME = re.compile(r"(?<![.!?]\s)(?<![.!?])\b[A-Z][a-z]+\b")


def names(text: str) -> frozenset[str]:
    """Words typed with a capital inside a sentence ("did Bob go out"): people's names, folded.

    A sentence's first word is left out, since phones capitalise it anyway.
    """
    found = set()
    for match in _NAME.finditer(text):
        before = text[: match.start()].rstrip()
        if before and before[-1] not in ".!?":
            found.add(fold(match.group(0)))
    return frozenset(found)


def fold(text: str) -> str:
    """Lower-case `text` and strip accents, keeping the symbols that name cards (=, +, &)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    """A light suffix stripper (plurals, -ing, -ed, final -e), enough to match word forms."""
    if word in _KEEP or not word.isalpha() or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        word = _undouble(word[:-3])
    elif word.endswith("ed") and len(word) > 4:
        word = _undouble(word[:-2])
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


def _undouble(word: str) -> str:
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        return word[:-1]
    return word


# Table talk for laying a card ("he dropped a bomb", "slapped down a skip"), read as "played" in a question.
# (Not in the rulebook's own text, where "dropped" means an effect that does not happen.)
_QUERY_PLAYED = re.compile(
    r"\b(?:drop|drops|dropped|dropping|lay|lays|laid|laying|slap|slaps|slapped|slapping|plonk|plonks|plonked|"
    r"chuck(?:s|ed)?\s+down|throw(?:s)?\s+down|threw\s+down|put(?:s)?\s+down|got\s+played|gets\s+played)\b(?:\s+down\b)?"
)
# In a question, "my only card", "one card left" is the last card in a hand. (Not in the rulebook, where
# "one card left" is the alias that names the no-call rule.)
_QUERY_LAST_CARD = re.compile(
    # (not "only 1 card left to draw", "one card left in the pile": a short draw pile)
    r"\b(?:my|his|her|their|your|ur|the)\s+only\s+card\b|\b(?:1|one)\s+card\s+left\b"
    r"(?!\s+(?:to\s+(?:draw|pick)|in\s+the\s+(?:pile|deck|stack|middle)|on\s+the\s+(?:pile|deck)))|"
    r"\bonly\s+(?:have|got|had|has)\s+(?:1|one)\s+card\b|\bdown\s+to\s+(?:my\s+|his\s+|her\s+|their\s+|ur\s+|your\s+)?"
    r"(?:1|one|a\s+single)\s+card\b"
)
# "14 or lower", "14 and under": a total at most 14 (not "lower" as in a card that lowers the total)
_QUERY_AT_MOST = re.compile(r"\b(\d+)\s+(?:or|and)\s+(?:lower|below|under|fewer|smaller)\b")
# "what does redeal do exactly": in a question "exactly" is emphasis unless a total follows ("exactly 21"), and
# the Making exactly 21 ruling should not win on it.
_QUERY_EXACTLY = re.compile(r"\bexact(?:ly)?\b(?!\s+(?:(?:on|at|to|a|the)\s+)?(?:\d|=|twenty|equal|eq))")
# "can i +2 back", "draw 1 back at them": answering a Draw card with another is stacking.
_QUERY_DRAW_BACK = re.compile(r"(?:\+\s*|\bdraw\s*|\bplus\s*)(?:[12]|one|two)\s+(?:right\s+|straight\s+)?back\b")
# "the number on my phone", "what number we are at": the running total the referee shows
_QUERY_SHOWN_TOTAL = re.compile(
    r"\b(?:number|figure)\s+(?:on|at)\s+(?:the\s+|my\s+|ur\s+|your\s+)?(?:top\s+of\s+the\s+)?(?:screen|phone|app|top)\b|"
    r"\bwhat\s+number\s+(?:we|it)\s*(?:are|is|re|s)?\s+(?:at|on|up\s+to)\b"
)
# "who goes after me", "whose turn after mine": the usual order of turns (not "after a bomb/redeal/bust")
_QUERY_AFTER_ME = re.compile(r"\b(?:after|following)\s+(?:me|mine|my\s+(?:turn|go|card|move))\b")
_QUERY_PUT_DOWN = re.compile(
    r"\bput(?:s)?\s+((?:a|an|the|my|his|her|their|ur|your)\s+)?([=+]?\w+(?:\s+(?:\d|card))?)\s+down\b"
)


# "what does a 5 do", "whats the 3 card for": a question about one number card (the number alone names no rule)
_QUERY_NUMBER_CARD = re.compile(
    r"\b(?:what|wat|wot)\s*(?:does|do|is|s|'s)?\s+(?:a|an|the)\s+([0-7])\s+(?:card\s+)?(?:do|does|for|mean|worth)\b"
)


def rewrite(text: str, query: bool = False) -> str:
    """Fold `text` and rewrite the game's multi-word names to single concept terms."""
    text = f" {fold(text)} "
    if query:
        text = _QUERY_NUMBER_CARD.sub(r" what \1 number card do ", text)
        text = _QUERY_LAST_CARD.sub(" last card ", text)
        text = _QUERY_EXACTLY.sub(" ", text)
        text = _QUERY_AT_MOST.sub(r" \1 or less ", text)
        text = _QUERY_AFTER_ME.sub(" next player ", text)
        text = _QUERY_SHOWN_TOTAL.sub(" total ", text)
        text = _QUERY_DRAW_BACK.sub(lambda found: f" {found.group(0)} stack ", text)
        text = _QUERY_PUT_DOWN.sub(r" played \1\2 ", text)
        text = _QUERY_PLAYED.sub(" played ", text)
        if not _QUERY_NUMBERS[1][0].search(text):
            text = read_spread_sum(text)
        for number, meaning in _QUERY_NUMBERS:
            text = number.sub(meaning, text)
    for pattern, replacement in COMPILED_PHRASES:
        text = pattern.sub(replacement, text)
    return text


_TOKEN = re.compile(r"[a-z0-9]+")


def terms(text: str, query: bool = False) -> list[str]:
    """Return the search terms of `text` (a question typed, if `query`), in order, stopwords dropped."""
    out = []
    for token in _TOKEN.findall(rewrite(text, query)):
        if token in STOPWORDS:
            continue
        mapped = SYNONYMS.get(token)
        out.append(mapped if mapped is not None else stem(token))
    if query:
        out = _wild_at_21(out)
        # "my last card is a 7 and its on 18": a last card that would go over 21 is a bust, though nobody says so
        if {"last", "card", "over", "21"} <= set(out) and "bust" not in out:
            out.append("bust")
        # "i finished with a skip, does the next guy still miss a go": the card's effect, told in its own words, is
        # what the question asks about a last wild card, not a question about the card's own rule
        if "lastwild" in out:
            out = [term for term in out if term not in _WILD_EFFECTS]
    return _two_names(out, text)


# The wild cards by their own names: "at 21 can i play draw 2" asks about a wild card at 21 without saying "wild".
_WILD_NAMES = frozenset({"skip", "reverse", "draw", "draw1", "draw2", "pass", "bomb", "redeal"})


_WILD_EFFECTS = frozenset({"missturn", "extraturn", "draw"})


def _wild_at_21(out: list[str]) -> list[str]:
    """Add `wild` when a question names a wild card and a total of 21 (and no =21, no number card)."""
    named = set(out)
    if (
        "21" in named
        and named & _WILD_NAMES
        and not named & {"wild", "eq21", "over", "0", "1", "2", "3", "4", "5", "6", "7"}
    ):
        return [*out, "wild"]
    return out


# Cards (and the lives) that the editions print under different names: one term each after normalising.
_NAMED_TWICE = frozenset(
    {"draw", "draw1", "draw2", "pass", "redeal", "life", "skip", "reverse", "bomb", "eq21", "eq10", "eq0"}
)
# Words that ask whether two names are one thing ("is PASS the same as pass me by", "+1 card is that draw one").
_IDENTITY_WORDS = re.compile(
    r"\b(?:same|says?|called|call|name[sd]?|mean[st]?|is\s+(?:that|it|this)|are\s+(?:they|those|the))\b|"
    # "is a plus card a draw card": one card said to be another
    r"\bis\s+(?:a|an|the)\s+[\w=+]+(?:\s+cards?)?\s+(?:a|an|the)\s+[\w=+]+(?:\s+cards?)?\s*\??\s*$"
)


_SIDES = re.compile(r"\bsides?\b|\bface\s+(?:up|down)\b")


def _two_names(out: list[str], text: str) -> list[str]:
    """Add `cardnames` when one card is named twice in a question about names: the names are for one card."""
    counts = Counter(term for term in out if term in _NAMED_TWICE)
    if _SIDES.search(fold(text)):
        counts.pop("life", None)  # "the heart side and the skull side": two sides of one card, not two names
    if counts and max(counts.values()) > 1 and ("versus" in out or _IDENTITY_WORDS.search(fold(text))):
        return [*out, "cardnames"]
    return out


def bigrams(tokens: list[str]) -> list[str]:
    """Adjacent pairs of terms, as single terms ("last card" -> "last_card")."""
    return [f"{first}_{second}" for first, second in zip(tokens, tokens[1:], strict=False)]


WORD = re.compile(r"[a-z]+")


def words(text: str) -> list[str]:
    """The plain words of `text` (letters only), for building the speller's vocabulary."""
    return WORD.findall(fold(text))
