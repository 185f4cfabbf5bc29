"""French and German for the story table: the English concept terms a question's words tell, and each concept's words.

The story table (`stories.py`) reads the concepts of a question: "a last card", "no 0", "a life lost", "whose turn" ...
In English the normaliser's concept rules (`phrases.py`) turn the phrasings into one term each (`goout`, `nozero`,
`whoseturn`); the story table reads those terms. A French or German question gets the same terms from the readings
below (`STORY_READINGS`, applied by `foreign.Reader` after the card words, to the rulebook and a question alike), so
"ma dernière carte était un +2" tells the story "my last card was a draw 2" tells, and finds the same ruling.

What a concept needs beyond those terms (the language's own word for a life, the total, the hand, the draw pile) is
in `STORY_WORDS`, read through the language's stemmer like any other word.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_Rules = tuple[tuple[str, str], ...]

STORY_TERMS = frozenset(
    {
        "lastcard", "goout", "lastbomb", "nozero", "allzeros", "lastlife", "eliminate", "atonce", "anytime",
        "keepcard", "outofturn", "onpurpose", "over21", "cantplay", "loselife", "whoseturn", "houserule", "lastzero",
        "appset", "lowtotal", "bomber", "himself", "otherturn",
    }
)  # fmt: skip
"""The concept terms the readings produce (English terms, never stemmed)."""

FRENCH_READINGS: _Rules = (
    # Going out: the hand emptied ("vider sa main", "il n'a plus de cartes"); a last card named ("ma dernière carte").
    (
        r"\bvid\w*\s+(?:sa|ma|ta|leur|la|votre|notre)\s+main\b|\bmain\s+(?:est\s+)?vide\b|"
        r"(?:\bn\s+(?:a|ai|as|avait|ont|avais)\s+plus\s+(?:de|aucune)\s+cartes?\b|\bplus\s+aucune\s+carte\b)"
        # (not "plus aucune carte pouvant être posée", "plus de carte jouable": a hand with no card that fits)
        r"(?!\s+(?:pouvant|pouv\w*|jouables?|posables?|qui|que|a\s+jouer|possibles?)\b)",
        r" \g<0> goout ",
    ),
    (
        r"\b(?:aucune|pas\s+de|plus\s+de|plus\s+aucune)\s+cartes?\s+(?:pouvant|jouables?|posables?|"
        r"qui\s+(?:peu\w*|pass\w*|rentr\w*|va\w*)|a\s+jouer)\b",
        r" \g<0> cantplay ",
    ),
    (r"\bderni\w*\s+cartes?\b", r" \g<0> lastcard "),
    (r"\b(?:a|ont|avait|as)\s+fini\b(?!\s+(?:de|la\s+partie))", r" \g<0> goout "),
    # One card "trop haute", "trop forte": a card that would go over 21, as in English.
    (r"\btrop\s+(?:haute?s?|grandes?|fortes?|elevee?s?)\b", r" \g<0> over21 "),
    # Whoever played the Bomb: "celui qui a posé la bombe", "lui-même".
    (r"\b(?:celui|celle)\s+qui\s+(?:a\s+)?(?:pos|jou|mis|lanc)\w*\s+(?:la\s+|une\s+)?bomb\b", r" \g<0> bomber "),
    (r"\b(?:lui|elle|moi|eux|soi)[\s-]+meme\b", r" \g<0> himself "),
    # No 0, several 0s (the numbers are figures by now: "zéro" is 0).
    (
        r"\b(?:pas|plus|jamais)\s+(?:de|d)\s+0\b(?!\s*vie)|\b(?:aucun\w*|sans)\s+(?:\w+\s+)?0\b(?!\s*vie)|"
        r"\bpersonne\s+(?:\w+\s+){0,3}?0\b(?!\s*vie)",
        r" \g<0> nozero ",
    ),
    (r"\b(?:[2-4]|plusieurs)\s+0\b(?!\s*vie)", r" \g<0> allzeros "),
    # A last life, out of the game, out at once.
    (
        r"\bderni\w*\s+vies?\b|\bplus\s+qu\s+(?:une|1)\s+(?:seule\s+)?vie\b|\b(?:une|1)\s+seule\s+vie\b|"
        r"\breste\s+(?:\w+\s+)?(?:une|1)\s+(?:seule\s+)?vie\b|\b(?:5e|5eme|cinquieme)\s+(?:carte\s+(?:de\s+)?)?vie\b|"
        r"\bperdu\s+(?:toutes\s+)?(?:ses|mes|leurs|tes|ces)\s+(?:5\s+)?vies\b",
        r" \g<0> lastlife ",
    ),
    (r"\belimin\w*|\b(?:est|suis|sont|es)\s+(?:dehors|out)\b", r" \g<0> eliminate "),
    (r"\ben\s+meme\s+temps\b|\bsimultan\w*|\bd\s+un\s+(?:seul\s+)?coup\b", r" \g<0> atonce "),
    # When a card may be played: "à tout moment", "n'importe quand", "quand on veut".
    (
        r"\ba\s+(?:tout|n\s+importe\s+quel)\s+moment\b|\bn\s+importe\s+quand\b|\bquand\s+(?:je|on|il|elle|tu)\s+veu[xt]\b",
        r" \g<0> anytime ",
    ),
    # Keeping the card that went over, a card played out of turn, on purpose.
    (r"\b(?:gard|repren)\w*\s+(?:la|sa|ma|ta|cette)\s+carte\b", r" \g<0> keepcard "),
    # "pas son tour" asks whether a card may be played when the turn is not one's own (the Wild cards rule); "avant son
    # tour", "hors de son tour", "pendant le tour de son frère" tell a card put down on another player's turn
    (r"\bpas\s+(?:son|mon|ton|leur|notre|votre)\s+tour\b", r" \g<0> outofturn "),
    (
        r"\bavant\s+(?:son|mon|ton|leur|notre|votre)\s+tour\b|\bhors\s+(?:de\s+son\s+)?tour\b|"
        r"\b(?:pendant|durant)\s+(?:le\s+)?tour\s+d\w*",
        r" \g<0> outofturn otherturn ",
    ),
    (
        r"\bexpres\b|\bvolontaire\w*|\bdeliberement\b|\bde\s+plein\s+gre\b|"
        r"\b(?:gard|conserv|econom|mett\w*\s+de\s+cote)\w*\s+(?:\w+\s+){0,3}?pour\s+(?:plus\s+tard|apres|la\s+suite)\b",
        r" \g<0> onpurpose ",
    ),
    # Over 21 ("au-dessus de" is "plus de" by now), a player who cannot play, a life lost.
    (r"\b(?:depass\w*|plus\s+de|franchi\w*)\s+21\b", r" \g<0> over21 "),
    (
        r"\b(?:peu[xt]|pouvai[st]|pouvait|pouvons|peuvent|pu)\s+(?:pas|plus|rien|aucune?\s+carte)\s+"
        r"(?:\w+\s+)?(?:jouer|poser)\b",
        r" \g<0> cantplay ",
    ),
    (
        r"\b(?:perd\w*|retourn\w*|enlev\w*)\s+(?:une|1|sa|ma|ta|la|leur|encore\s+une)\s+(?:carte\s+(?:de\s+)?)?vies?\b",
        r" \g<0> loselife ",
    ),
    # Whose turn it is ("à qui le tour", "c'est à qui", "qui joue après").
    (r"\ba\s+qui\b|\bqui\s+(?:joue|rejoue|commence)\s+(?:apres|ensuite|maintenant)\b", r" \g<0> whoseturn "),
    # A rule of the table's own, set in the app ("une règle maison", "on peut régler ça dans l'appli").
    (
        r"\bregles?\s+(?:maison|a\s+nous|a\s+lui|de\s+la\s+maison)\b|\bhouse\s+rules?\b",
        r" \g<0> houserule ",
    ),
    (
        r"\b(?:regl|parametr|configur|activ|mett|indiqu)\w*\s+(?:\w+\s+){0,3}?dans\s+l\s+appli\w*",
        r" \g<0> houserule appset ",
    ),
)
"""French phrasings of the story table's concepts, as its English terms (on folded text, after the card words)."""

GERMAN_READINGS: _Rules = (
    # "zwei Nullen": 0s said in the plural are 0s too.
    (r"\bnullen\b", "0"),
    (
        r"\bkeine\s+(?:hand)?karten?\s+mehr\b(?!\s*,?\s*(?:die|das|mit\s+der)\s)|\b(?:hand|hande)\s+(?:ist\s+|sind\s+)?leer\b|\bleere\s+hand\b|"
        r"\brausgegangen\b|\brausgehen\b|\bgeht\s+raus\b",
        r" \g<0> goout ",
    ),
    (r"\bletzt\w*\s+(?:hand)?karten?\b", r" \g<0> lastcard "),
    (r"\b(?:ist|sind|wird|wurde|war)\s+fertig\b|\bfertig\s+geworden\b", r" \g<0> goout "),
    (r"\b(?:viel\s+)?zu\s+(?:hoch|gross)\b", r" \g<0> over21 "),
    (r"\b(?:kein\w*|ohne|niemand\w*)\s+(?:\w+\s+){0,2}?0\b(?!\s*leben)", r" \g<0> nozero "),
    (r"\b(?:[2-4]|mehrere)\s+0\b(?!\s*leben)", r" \g<0> allzeros "),
    (
        r"\bletzt\w*\s+leben\b|\bnur\s+noch\s+(?:ein|einem|einen|1)\s+leben\b|"
        r"\bletzt\w*\s+(?:alive|lebens|herz)[\s-]*karte\b|\bfunfte\w*\s+(?:leben|herz)\b|"
        r"\balle\s+(?:\w+\s+)?leben\s+verlor\w*",
        r" \g<0> lastlife ",
    ),
    (
        r"\bausgeschieden\b|\bscheid\w*\s+aus\b|\braus(?:geflogen|fliegt)?\b|\bfliegt\s+raus\b",
        r" \g<0> eliminate ",
    ),
    (r"\bgleichzeitig\b|\bzur\s+gleichen\s+zeit\b|\bauf\s+einmal\b|\bzusammen\s+raus\b", r" \g<0> atonce "),
    (r"\bjederzeit\b|\bwann\s+(?:ich|man|er|sie|du)\s+will\w*\b|\bzu\s+jeder\s+zeit\b", r" \g<0> anytime "),
    (r"\bbehalt\w*", r" \g<0> keepcard "),
    # "nicht dran" asks whether a card may be played when the turn is not one's own; "außer der Reihe", "während sie
    # am Zug ist" tell a card put down on another player's turn (as in French, above)
    (r"\bnicht\s+(?:dran|an\s+der\s+reihe)\b", r" \g<0> outofturn "),
    (
        r"\bausser\s+der\s+reihe\b|\bwahrend\s+(?:\w+\s+){0,3}?(?:dran|am\s+zug)\b|"
        r"\bvor\s+(?:meinem|seinem|ihrem|deinem)\s+zug\b",
        r" \g<0> outofturn otherturn ",
    ),
    (
        r"\babsichtlich\b|\bfreiwillig\b|\bmit\s+absicht\b|\bbewusst\b|"
        r"\b(?:fur|bis)\s+(?:spater|nachher)\s+(?:\w+\s+)?(?:aufheben|aufbewahren|aufsparen|behalten|sparen)\b|"
        r"\b(?:aufheben|aufbewahren|aufsparen|behalten|sparen)\s+(?:\w+\s+)?(?:fur|bis)\s+(?:spater|nachher)\b",
        r" \g<0> onpurpose ",
    ),
    (r"\b(?:uber|ubersteig\w*|uberschreit\w*|druber)\s+(?:die\s+)?21\b", r" \g<0> over21 "),
    (
        r"\b(?:kann|konnte|konnen|darf)\s+(?:\w+\s+){0,2}?(?:nicht|nichts|keine\s+karte)\s+(?:mehr\s+)?"
        r"(?:legen|spielen|ablegen)\b",
        r" \g<0> cantplay ",
    ),
    (
        r"\b(?:ein|1|sein|mein|ihr|das|einen)\w*\s+leben\s+(?:verlier\w*|abgeb\w*|abzugeben|weg|umdreh\w*)|"
        r"\b(?:verlier\w*|verlor\w*|dreh\w*\s+um)\s+(?:\w+\s+)?(?:ein|1|sein|mein|ihr|das|einen)\w*\s+(?:herz|leben)\b|"
        r"\bherz\s+umdreh\w*|\bleben\s+weg\b",
        r" \g<0> loselife ",
    ),
    (
        r"\bwer\s+(?:ist|kommt|spielt|darf|macht)\s+(?:\w+\s+){0,2}?(?:dran|weiter|danach|als\s+nachste\w*)\b|"
        r"\bwer\s+ist\s+(?:der\s+)?nachste\b",
        r" \g<0> whoseturn ",
    ),
    (
        r"\bhausregel\w*|\bhouse\s+rules?\b|\beigene\w*\s+regel\w*",
        r" \g<0> houserule ",
    ),
    (
        r"\b(?:app|handy)\s+(?:\w+\s+){0,3}?einstell\w*|\beinstell\w*\s+(?:\w+\s+){0,3}?(?:app|handy)\b|"
        r"\bstell\w*\s+(?:\w+\s+){0,4}?(?:app|handy)\s+ein\b",
        r" \g<0> houserule appset ",
    ),
)
"""German phrasings of the story table's concepts, as its English terms (on folded text, after the card words)."""

SHARED_READINGS: _Rules = (
    # A Bomb as the last card, said either way round ("bombe en dernière carte", "letzte Karte war eine Bombe").
    (r"\bbomb\b(?:\s+\w+){0,4}?\s+lastcard\b|\blastcard\b(?:\s+\w+){0,6}?\s+bomb\b", r" \g<0> lastbomb "),
    # A 0 as the last card ("ma dernière carte, un zéro", "seine 0 abgeworfen und damit keine Karten mehr").
    (r"\blastcard\b(?:\s+\w+){0,3}?\s+0\b|\b0\b(?:\s+\w+){0,5}?\s+(?:lastcard|goout)\b", r" \g<0> lastzero "),
    # A 0 as the only card left ("il n'avait plus qu'un zéro", "sie hatte nur noch eine Null"): a last 0 too.
    (r"\bqu\s+(?:un|1)\s+(?:seul\s+)?0\b|\bnur\s+noch\s+(?:eine?\s+|1\s+)?(?:einzige\s+)?0\b", r" \g<0> lastzero "),
)
"""Readings of the terms above, the same in both languages."""

_TOTAL = {
    "fr": re.compile(
        r"\b(?:total|somme|compte)\s+(?:\w+\s+){0,2}?(1[0-9]|2[01]|[0-9])\b(?!\s*(?:cartes?|vies?|joueurs?))"
    ),
    "de": re.compile(
        r"\b(?:summe|stand|zahl|steht|bei|auf)\s+(?:\w+\s+){0,2}?(1[0-9]|2[01]|[0-9])\b(?!\s*(?:karten?|leben|spieler))"
    ),
}
_CARD = {
    "fr": re.compile(
        r"\b(?:un|une|mon|ma|joue|pose|poser|jouer|mets|mettre|que|qu)\s+([0-7])\b(?!\s*(?:cartes?|vies?|joueurs?|tours?))"
    ),
    "de": re.compile(
        r"\b(?:eine|einen|meine|lege|legen|spiele|spielen|nur|noch)\s+([0-7])\b(?!\s*(?:karten|leben|spieler|runden))"
    ),
}
_OVER = re.compile(r"\b(2[2-9])\b(?!\s*(?:cartes?|karten|vies?|leben|joueurs?|spieler))")


def read_total(text: str, language: str) -> str:
    """A total and one card said apart, added up as English does (`phrases.read_spread_sum`): "le total est à 19 et
    je pose un 4" and "Summe 20, nur noch eine 3" go over 21 (`over21`); a total of 14 or less is `lowtotal` (nobody
    can bust there); a total of 22 to 29 said outright is over 21."""
    found = []
    if _OVER.search(text):
        found.append("over21")
    total = _TOTAL[language].search(text)
    if total is not None:
        value = int(total.group(1))
        if value <= 14:
            found.append("lowtotal")
        cards = [card for card in _CARD[language].finditer(text) if card.start(1) != total.start(1)]
        if len(cards) == 1 and value + int(cards[0].group(1)) > 21:
            found.append("over21")
    return f"{text} {' '.join(found)}" if found else text


STORY_READINGS: Mapping[str, _Rules] = {
    "fr": FRENCH_READINGS + SHARED_READINGS,
    "de": GERMAN_READINGS + SHARED_READINGS,
}
"""Each language's readings, in order."""

STORY_WORDS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "fr": {
        "a win": ("gagne", "gagner", "gagnant", "victoire"),
        "last card": ("lastcard",),
        "the last card or a last 0": ("lastcard",),
        "the last card named": ("lastcard",),
        "a short draw pile": ("talon", "pioche vide", "vide", "epuise"),
        "the draw pile": ("talon", "pioche"),
        "nothing left to draw": ("vide", "epuise"),
        "tied lives": ("autant", "meme nombre"),
        "lives": ("vie",),
        "a card played": ("jouer", "poser"),
        "nothing fits": ("cantplay", "rien", "seulement"),
        "busting": ("bust",),
        "using a card": ("utiliser", "oblige"),
        "numbers too high": ("over21", "loselife", "bust"),
        "a low total": ("lowtotal",),
        "over 21": ("over21",),
        "a mistake": ("trompe",),
        "looking at a hand": ("regarder",),
        "tapped": ("appli", "application", "ecran", "tape", "saisi", "bouton", "telephone"),
        "not what was played": ("au lieu",),
        "out of turn": ("2 fois", "avant"),
        "the referee's total": ("mal compte",),
        "the total": ("total",),
        "a hand's count": ("nombre cartes",),
        "whose turn": ("suivant",),
        "the total or the turn after": ("total", "tour", "suivant"),
        "an empty hand after": ("vide", "aucune carte"),
        "two editions": ("ancienne version", "nouvelle version", "edition", "ancienne regle", "vieille boite"),
        "a card laid and a life lost": ("loselife",),
        "a life said lost": ("loselife",),
        "a bust or a life lost": ("bust", "cantplay", "over21", "loselife"),
        "a bust told": ("bust", "cantplay", "over21"),
        "what comes next": ("whoseturn", "suivant", "reste", "repart"),
        "cards in hand": ("main",),
        "when a card may be played": ("debut", "premiere carte"),
        "leaving": ("quitter",),
        "an empty hand": ("vide",),
        "no cards left": ("aucune carte", "rien"),
        "both teams out or tied": ("gagne",),
        "a card that fits": ("autorise",),
    },
    "de": {
        "a win": ("gewonnen", "gewinnen", "gewinnt", "sieg", "sieger"),
        "last card": ("lastcard",),
        "the last card or a last 0": ("lastcard",),
        "the last card named": ("lastcard",),
        "a short draw pile": ("nachziehstapel", "ziehstapel", "stapel", "talon", "leer", "aufgebraucht"),
        "the draw pile": ("nachziehstapel", "ziehstapel", "stapel", "talon"),
        "nothing left to draw": ("leer", "aufgebraucht"),
        "tied lives": ("beide", "gleich viele"),
        "lives": ("leben",),
        "a card played": ("legen", "hinlegen"),
        "nothing fits": ("cantplay", "nichts", "nur"),
        "busting": ("bust",),
        "using a card": ("benutzen", "einsetzen"),
        "numbers too high": ("over21", "loselife", "bust", "hoch"),
        "a low total": ("lowtotal",),
        "over 21": ("over21",),
        "a mistake": ("versehen",),
        "looking at a hand": ("anschauen", "reinschauen", "gucken", "schauen"),
        "tapped": ("app", "handy", "eingetippt", "eingegeben", "bildschirm", "knopf", "getippt"),
        "not what was played": ("statt", "stattdessen"),
        "out of turn": ("zweimal",),
        "the bomber": ("selber", "selbst"),
        "the referee's total": ("verzahlt",),
        "the total": ("summe", "stand"),
        "a hand's count": ("anzahl karten", "kartenzahl"),
        "whose turn": ("dran", "reihe"),
        "the total or the turn after": ("summe", "dran", "reihe"),
        "an empty hand after": ("leer", "keine karte"),
        "two editions": ("alte version", "neue version", "ausgabe", "edition", "alte regel", "fruher"),
        "a card laid and a life lost": ("loselife",),
        "a life said lost": ("loselife",),
        "a bust or a life lost": ("bust", "cantplay", "over21", "loselife"),
        "a bust told": ("bust", "cantplay", "over21"),
        "what comes next": ("whoseturn", "bleibt", "weiter"),
        "cards in hand": ("hand",),
        "when a card may be played": ("anfang", "erste karte"),
        "leaving": ("verlassen", "aufhoren"),
        "an empty hand": ("leer",),
        "no cards left": ("keine karte", "nichts"),
        "both teams out or tied": ("gewinnt",),
        "a card that fits": ("passt",),
    },
}
"""Each language's own words for the story table's concepts, beyond the English terms its readings produce (a concept
named here also keeps every English term the language's reader produces: the cards, `bomb`, `0`, `lastlife` ...)."""

ENGLISH_ONLY: Mapping[str, frozenset[str]] = {"five players": frozenset({"5"})}
"""English terms of a concept that do not show it in French and German: "5 vies", "5 Leben" are lives (their readers
say `5player` where five players are said)."""
