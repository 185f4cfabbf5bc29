"""A card told by what it shows or does, named, in French and German: "une carte ornée de deux flèches qui se
poursuivent en rond" is the Reverse, "die Karte mit dem Bildnis einer Bombe" the Bomb, "une carte qui oblige les
autres à prendre deux cartes" the +2.

The French and German counterpart of `descriptions.py`, read the same way: a description opens with the word for a
card followed by what introduces what it shows or does ("une carte qui", "où l'on voit", "ornée de", "die Karte mit",
"worauf") and runs to the end of its sentence (at most sixteen words); each card has cues in each language (its
picture, what it does), and the card with the most cues, if no other has as many, names it. The description up to
its last cue is replaced by the card's term, the one the language's card words give it (`foreign.py`), so the
rulings about that card are found as if it had been named.

Runs on folded text (`foreign.fold`: lower case, no accents, German umlauts as plain vowels), before the typo fixer,
on questions only: the rulebook names its cards.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from .descriptions import scan_descriptions

_OPENING_TEXT: Mapping[str, str] = {
    "fr": (
        r"\b(?:une|la|cette|sa|ma|leur)\s+(?:(?:petite|grande|drole\s+de|sorte\s+de)\s+)?carte\s+"
        r"(?:\w+\s+){0,2}?(?:qui|ou|avec|aux|ornee|portant|marquee|montrant|representant|dessinee|illustree"
        r"|dont|sur\s+laquelle|permet\w*|oblige\w*|fait|faisant)\b"
    ),
    "de": (
        r"\b(?:eine|die|diese|der|einer|ein|das|dieses|so\s+eine)\s+(?:\w+\s+)?(?:karte|kartchen|blatt)\b"
        # the verb of the sentence may come between, then a comma ("ein Blatt ausgespielt, worauf ...")
        r"(?:(?:\s+\w+){0,2}?\s*,)?\s+"
        r"(?:mit|die|das|wo|worauf|auf\s+der|auf\s+dem|welche|bei\s+der|mit\s+der\s+man|durch\s+die)\b"
    ),
}
"""Where a description begins: "une carte qui", "la carte avec", "die Karte mit", "ein Blatt ..., worauf"."""

_END = re.compile(r"[.;:?!]")
"""Where a description ends: the end of its sentence (a French or German description runs over commas)."""

_WORDS = re.compile(r"(?:\s*\S+){0,16}")


def _equals(number: str) -> tuple[str, ...]:
    """An Equals card's cues in both languages: its sign with its number, or what it does to the total."""
    return (
        rf"(?:egal\w*|=|gleich\w*)\s+(?:\w+\s+){{0,4}}?(?:{number})\b",
        rf"(?:{number})\s+(?:\w+\s+){{0,2}}?(?:egal\w*|=|gleichheit\w*)",
        rf"(?:remet\w*|ramene\w*|fixe\w*|setzt|stellt|setzen|stellen)\s+(?:\w+\s+){{0,3}}?(?:a|auf)\s+(?:{number})\b",
    )


_TWO = r"2|deux|zwei"
_ONE = r"1|une?|eine?n?|einzige"
_TAKE_FR = r"(?:prendre|prend|prennent|piocher|pioche\w*|tirer|tire\w*|ramasser|recuper\w*)"
_PILE_FR = r"(?:dans|de|du)\s+(?:la\s+|le\s+)?(?:pioche|tas|talon|paquet)"
_PILE_DE = r"(?:vom|aus\s+dem|von\s+dem)\s+(?:nach)?(?:zieh)?stapel"
"""Where a draw card's cards come from: a cue of the three draw cards, so that a number said decides between them."""
_TAKE_DE = r"(?:zieh\w*|nehm\w*|nimmt|aufnehm\w*|aufnimmt|holen|holt)"

CARD_CUES: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "fr": {
        "bomb": (r"bomb\w*", r"boulets?", r"meches?", r"explos\w*", r"dynamite", r"petards?", r"noire?s?"),
        "skip": (
            r"saut\w*",
            r"(?:passer?|rater?|perdre|perd)\s+(?:son|ton|leur|un)\s+tour",
            r"main\s+(?:levee|ouverte|tendue)",
            r"stop",
            r"bonhomme|personnage|silhouette",
            r"suivant\s+ne\s+joue",
        ),
        "reverse": (
            r"fleches?",
            r"sens",
            r"en\s+(?:rond|cercle)",
            r"invers\w*",
            r"demi[\s-]*tour|a\s+l\s+envers",
            r"(?:se\s+)?poursui\w*|tourn\w*",
        ),
        "draw2": (
            rf"{_TAKE_FR}\s+(?:\w+\s+){{0,2}}?(?:{_TWO})\b",
            rf"(?:\+|plus)\s*(?:{_TWO})\b",
            _PILE_FR,
        ),
        "draw1": (
            rf"{_TAKE_FR}\s+(?:\w+\s+){{0,1}}?(?:{_ONE})\s+(?:seule\s+)?cartes?\b",
            r"(?:\+|plus)\s*(?:1|un)\b",
            _PILE_FR,
        ),
        "draw1 draw2": (
            rf"{_TAKE_FR}\s+(?:des|de|d)\s+(?:nouvelles\s+|autres\s+)?cartes",
            _PILE_FR,
        ),
        "redeal": (
            r"ramass\w*",
            r"(?:cartes|mains?)\s+de\s+tout\s+le\s+monde|toutes\s+les\s+(?:cartes|mains)",
            r"(?:re)?batt\w*|melang\w*",
            r"redistrib\w*|redonn\w*|distribu\w*",
        ),
        **{
            f"eq{number}": _equals(words)
            for number, words in (("21", r"21|vingt\s+et\s+un"), ("10", r"10|dix"), ("0", r"0|zero"))
        },
    },
    "de": {
        "bomb": (r"bomb\w*", r"explo\w*", r"zundschnur|lunte", r"dynamit", r"schwarz\w*", r"knall\w*", r"spreng\w*"),
        "skip": (
            r"uberspr\w*",
            r"aussetz\w*|setzt\s+aus",
            r"(?:erhobene|offene)\s+hand|hand\s+hoch",
            r"stop\w*",
            r"mannchen|figur\w*",
            r"(?:verpasst|verliert)\s+(?:\w+\s+)?(?:zug|runde)",
        ),
        "reverse": (
            r"pfeil\w*",
            r"richtung\w*",
            r"gegenlauf\w*|entgegengesetzt\w*",
            r"kreis\w*",
            r"umdreh\w*|umkehr\w*|andersrum|ruckwarts",
        ),
        "draw2": (
            rf"{_TAKE_DE}\s+(?:\w+\s+){{0,2}}?(?:{_TWO})\b",
            rf"(?:{_TWO})\s+(?:\w+\s+)?karten\s+(?:\w+\s+){{0,3}}?{_TAKE_DE}",
            rf"(?:\+|plus)\s*(?:{_TWO})\b",
            _PILE_DE,
        ),
        "draw1": (
            rf"{_TAKE_DE}\s+(?:\w+\s+){{0,1}}?(?:{_ONE})\s+karte\b",
            r"(?:\+|plus)\s*(?:1|eins)\b",
            _PILE_DE,
        ),
        "draw1 draw2": (
            r"(?:neue|weitere|zusatzliche|frische)\s+karten",
            _PILE_DE,
        ),
        "redeal": (
            r"(?:ein)?sammel\w*|eingesammelt",
            r"abgeben|abgegeben|abgibt|hergeben|zuruckgeben",
            r"(?:aus|ver)?(?:ge)?teil\w*",
            r"misch\w*",
            r"alle\s+(?:ihre\s+|seine\s+|die\s+)?karten",
        ),
        **{
            f"eq{number}": _equals(words)
            for number, words in (("21", r"21|einundzwanzig"), ("10", r"10|zehn"), ("0", r"0|null"))
        },
    },
}
"""Each card's term (as `foreign.py` names it) with the cues that a description of it mentions, per language; a
draw card described without its number ("prendre des cartes dans la pioche") is both draw cards."""

_CARD_WORD = {"fr": "carte", "de": "karte"}


@lru_cache(maxsize=4)
def _compiled(language: str) -> tuple[re.Pattern[str], tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]]:
    cues = tuple(
        (card, tuple(re.compile(rf"(?<![\w=+])(?:{cue})") for cue in patterns))
        for card, patterns in CARD_CUES[language].items()
    )
    return re.compile(_OPENING_TEXT[language]), cues


def prepare(language: str) -> None:
    """Compile a language's description patterns now (when its index is built), not on its first question."""
    if language in CARD_CUES:
        _compiled(language)


def described_card(description: str, language: str) -> tuple[str, int] | None:
    """The card term a French or German description names, with where its last cue ends (None: no card, or two with
    as many cues)."""
    found = []
    for card, cues in _compiled(language)[1]:
        ends = [match.end() for cue in cues for match in cue.finditer(description)]
        count = sum(1 for cue in cues if cue.search(description))
        found.append((count, max(ends, default=0), card))
    found.sort(reverse=True)
    (best, end, card), (second, _, _) = found[0], found[1]
    return (card, end) if best > second else None


def name_described_cards(text: str, language: str) -> str:
    """Replace each description of a card in folded French or German `text` by the card's term, up to its last cue
    ("une carte ornée de deux flèches qui tournent" -> "carte reverse"); any other text stays as it was."""
    if language not in CARD_CUES:
        return text
    return scan_descriptions(
        text,
        _compiled(language)[0],
        _WORDS,
        _END,
        lambda region: described_card(region, language),
        lambda card: f" {card} ",
        keep_description=True,
    )
