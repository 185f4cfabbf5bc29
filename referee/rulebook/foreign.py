"""Reading French and German for the rules search: folding, the players' card words, stop words and stemming.

The English reader (`text.terms` with its concept rules, the typo fixer and the players' words) is tuned on
English questions. A French or German question is read more simply, the same way as that language's rulebook
words (referee/translations/<language>/rulebook.json):

1. Folded: lower case, accents optional ("réponse" = "reponse", "cœur" = "coeur"); in German ä/ö/ü, ae/oe/ue
   and a/o/u are one letter each ("über" = "ueber" = "uber") and ß is ss.
2. Phone shorthand spelled out ("qd", "jpeux", "ne" for "eine").
3. The players' words for the cards, the kinds of game and the numbers become the terms the English rulebook
   uses for them (`bomb`, `skip`, `reverse`, `pass`, `draw1`, `draw2`, `eq21`, `redeal`, `wild`, `team`,
   `suddendeath`, `2player` ...): "sens" and "Umkehr" are the Reverse, "passe ton tour" the Skip, "pioche 2" and
   "zwei ziehen" the +2. These terms are what the search's rules about cards and kinds of game read, so those rules
   work in every language.
4. Stop words dropped, every other word stemmed with the Snowball stemmer of the language.

For the story table only, a question is also read with `foreign_stories.STORY_READINGS` (its concepts as the English
terms the table reads: `lastcard`, `nozero`, `loselife` ...) and its total added up (`foreign_stories.read_total`).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

import snowballstemmer

from .foreign_descriptions import name_described_cards
from .foreign_descriptions import prepare as prepare_descriptions
from .foreign_stories import STORY_READINGS, STORY_TERMS, read_total
from .spelling import Speller
from .stories import concepts_in

STEMMERS = {"fr": "french", "de": "german"}
"""The Snowball algorithm of each language the search reads besides English."""

CONCEPTS = frozenset(
    {
        "bomb", "skip", "reverse", "pass", "draw", "draw1", "draw2", "eq21", "eq10", "eq0", "redeal", "wild",
        "team", "teammate", "suddendeath", "tie", "tiebreak", "2player", "3player", "5player", "latemistake",
    }
) | STORY_TERMS  # fmt: skip
"""Terms the card-word rules produce: never stemmed or dropped (they are the English rulebook's terms)."""

_Rules = tuple[tuple[str, str], ...]

FRENCH_WORDS: _Rules = (
    # Shorthand typed on a phone (the glossary of docs/translations.md for the rest).
    (r"\bjpeux\b", "je peux"),
    (r"\bjsuis\b", "je suis"),
    (r"\bjai\b|\bg\b", "j ai"),
    (r"\bcest\b", "c est"),
    (r"\bpk\b|\bpq\b|\bpourquoi\b", "pourquoi"),
    (r"\bkoi\b", "quoi"),
    (r"\bqd\b", "quand"),
    (r"\bcb\b|\bcmb\b", "combien"),
    (r"\bbcp\b", "beaucoup"),
    (r"\bqqn\b|\bqqun\b", "quelqu un"),
    (r"\bya\b", "il y a"),
    (r"\bpr\b", "pour"),
    (r"\bpcq\b|\bpsk\b", "parce que"),
    (r"\bchui\b|\bchuis\b|\bjsuis\b", "je suis"),
    (r"\bjsp\b|\bjsais\b", " "),
    (r"\bpis\b", "puis"),
    # Real words the typo fixer would otherwise read as card words ("légal" is not "égal", the =0/=10/=21 cards).
    (r"\billegal\w*", "interdit"),
    (r"\blegal\w*", "autorise"),
    # Numbers said in words (before the cards, which read figures).
    (r"\bvingt[\s-]*(?:et[\s-]*)?un\b", "21"),
    (r"\bvingt[\s-]*deux\b", "22"),
    # 23 to 29, what a total becomes past 21 ("vingt-huit ou dix ?")
    *(
        (rf"\bvingt[\s-]*{word}\b", str(20 + value))
        for value, word in enumerate(("trois", "quatre", "cinq", "six", "sept", "huit", "neuf"), start=3)
    ),
    (r"\bvingt\b", "20"),
    # A total said in words ("le total est à quatorze", "dix-huit"): a voice-dictated question spells its numbers.
    (r"\bdix[\s-]*sept\b", "17"),
    (r"\bdix[\s-]*huit\b", "18"),
    (r"\bdix[\s-]*neuf\b", "19"),
    (r"\bonze\b", "11"),
    (r"\bdouze\b", "12"),
    (r"\btreize\b", "13"),
    (r"\bquatorze\b", "14"),
    (r"\bquinze\b", "15"),
    (r"\bseize\b", "16"),
    (r"\bhuit\b", "8"),
    (r"\bzeros?\b", "0"),
    (r"\bdeux\b", "2"),
    (r"\btrois\b", "3"),
    (r"\bquatre\b", "4"),
    (r"\bcinq\b", "5"),
    (r"\bsix\b", "6"),
    (r"\bsept\b", "7"),
    (r"\bdix\b", "10"),
    # "nous serons sept", "nous sommes 8 autour de la table", "combien de personnes": how many play, as players
    (
        r"\b(?:nous\s+(?:sommes|serons|serions|etions)|on\s+(?:sera|serait))\s+(?:(?:que|seulement|plus\s+que)\s+)?"
        r"(\d+)\b(?!\s*(?:points?|vies?|cartes?|\d))",
        r"\1 joueurs",
    ),
    (r"\b(combien\s+de|\d+)\s+(?:personnes|gens|participants)\b", r"\1 joueurs"),
    # "Au-dessus de 21" is over 21; a bare "dessus" is where something is ("des coeurs dessus"), a stop word.
    (r"\bau[\s-]*dessus\s+(?:de\s+)?(?=\d)", "plus de "),
    # A sum written out ("14 + 7 = 21", "19+2=21") is figures, not the +2 and =21 cards.
    (r"\b(\d+)\s*\+\s*(\d+)\s*=\s*(\d+)\b", r"\1 \2 \3"),
    # The cards.
    (r"=\s*21\b|\begale?s?\s+(?:a\s+)?21\b", " eq21 "),
    (r"=\s*10\b|\begale?s?\s+(?:a\s+)?10\b", " eq10 "),
    (r"=\s*0\b|\begale?s?\s+(?:a\s+)?0\b", " eq0 "),
    (r"\+\s*1\b|\bplus\s+(?:un|1)\b|\bpioche[rz]?\s+1(?:\s+cartes?)?\b", " draw1 "),
    (r"\+\s*2\b|\bplus\s+2\b|\bpioche[rz]?\s+2(?:\s+cartes?)?\b", " draw2 "),
    (r"\bbombe?s?\b", " bomb "),
    # The cards' English names, which the box prints and players say in French too ("le Skip", "une Bomb", "le Hand
    # in & Re-deal", "Pass Me By", "Draw 2").
    (r"\bskip\w*", " skip "),
    (r"\breverse\b", " reverse "),
    (r"\b(?:hand\s+in\s*(?:&|and|et)?\s*)?re[\s-]*deal\w*", " redeal "),
    (r"\bpass\s+me\s+by\b", " pass "),
    (r"\bdraw\s*(?:2|two)\b|\bpick\s*up\s*(?:2|two)\b", " draw2 "),
    (r"\bdraw\s*(?:1|one)\b|\bpick\s*up\s*(?:1|one)\b", " draw1 "),
    (r"\bwild\s*cards?\b", " wild "),
    # "Passe ton tour" names the Skip (the card tells the next player to miss a turn; the rulebook's own answers say
    # the Skip "fait passer son tour au suivant"); "passer mon tour" is passing one's own turn, the Pass.
    (r"\b(?:passer?|passes)\s+(?:ton|son)\s+tour\b", " skip "),
    (r"\b(?:passer?|passes)\s+(?:mon|votre|leur)\s+tour\b", " pass "),
    # "Passer" the verb is no card: "ça passe" (it fits), "le tour passe à", "ça passe à qui" (the turn goes to).
    (r"\b(ca|tour)\s+(?:ne\s+)?passe\b|\bpasse\s+(?=a\s+qui\b|au\s+(?:suivant|voisin|joueur)\b)", r"\1 va "),
    (r"(?<!\bse )(?<!\bs )(?<!\best )\bpasse\b|\bpass\b", " pass "),
    (r"\bsaut\w*", " skip "),
    (r"\binvers\w*", " reverse "),
    # The Reverse described by its picture: "la carte avec les (deux) flèches", "la carte aux flèches".
    (r"\bcartes?\s+(?:avec|aux|a)\s+(?:\w+\s+){0,2}?fleches?\b", r" \g<0> reverse "),
    # The Reverse described rather than named: play going "the other way round".
    (r"\b(?:a\s+(?:l\s*)?envers|dans\s+l\s+autre\s+sens|(?:en\s+)?sens\s+contraire)\b", " reverse "),
    # Not "dans le sens horaire", "le sens des aiguilles d'une montre": which way play goes, not the card.
    (r"\bsens\b(?!\s+(?:horaire|des\s+aiguilles))", "sens reverse"),
    (r"\bredistribu\w*|\bnouvelle\s+distribution\b|\bredonne\w*", " redeal "),
    (r"\bcartes?\s+(?:joker|speciales?|actions?)\b|\bjokers?\b", " wild "),
    # The game itself told by its five lives ("ce jeu de cartes avec cinq vies"): its name, no rule
    (
        r"\bjeu\s+(?:de\s+cartes\s+)?(?:avec|a)\s+(?:les\s+)?5\s+(?:cartes\s+(?:de\s+)?vies?|vies|coeurs)\b",
        " jeu alive ",
    ),
    (r"\bcoeurs?\b", "vie"),
    # A mistake found after play went on ("personne n'a rien vu", "on s'en est rendu compte trop tard", "il y a 3
    # tours"): what Undo reaches by going back to it, as in English (phrases.py).
    (
        r"\b(?:personne|aucun\s+de\s+nous)\s+(?:ne\s+)?(?:l\s+|s\s+en\s+)?(?:a\s+)?(?:rien\s+)?"
        r"(?:vu|remarque\w*|apercu\w*|rendu\s+compte|dit)\b|"
        r"\b(?:rendu\s+compte|apercus?|remarque)\s+(?:\w+\s+){0,2}?(?:trop\s+tard|apres\s+coup|plus\s+tard|apres)\b|"
        r"\bil\s+y\s+a\s+(?:\d+|quelques|plusieurs)\s+(?:tours|cartes|coups)\b",
        r" \g<0> latemistake ",
    ),
    # The kinds of game.
    # A shorter game asked for by how it should be ("une partie moins longue", "un jeu plus rapide"): the alias of
    # Sudden Death, as English's "a shorter game" (synonyms.py)
    (
        r"\b(?:partie|jeu|manche)s?\s+(?:\w+\s+){0,2}?(?:plus\s+(?:courtes?|courts?)|moins\s+(?:longues?|longs?)|plus\s+rapides?|trop\s+(?:longues?|longs?))\b",
        " partie courte ",
    ),
    # A negated "égales" is its opposite ("les mains ne sont pas égales": uneven hands), not the =cards' "égal"
    (r"\b(?:sont|soient|seront|sont\s+plus)\s+pas\s+(?:egales|egaux|pareil\w*|les\s+memes)\b", " inegales "),
    # Who starts, said the formal way: "ouvrir la partie", "entamer le jeu"; the eldest as "la plus âgée"
    (
        r"\b(?:ouvr\w*|entam\w*|lancer|debuter)\s+(?:la\s+partie|le\s+jeu|la\s+manche|le\s+bal)\b",
        " commencer la partie ",
    ),
    (r"\b(?:plus\s+agee?s?|ainee?s?)\b", " plus vieux "),
    # Put out of the game: "mis hors jeu", "hors de la partie" (the rulebook's word is "éliminé")
    (r"\bhors[\s-]+(?:du\s+|de\s+la\s+)?(?:jeu|partie)\b", " elimine "),
    (r"\bmort\s+subite\b|\bsudden\s+death\b", " suddendeath "),
    (r"\bdepartag\w*", " tiebreak "),
    (r"\begalite\w*", " tie "),
    (r"\bco-?equipi\w*|\bpartenaire\w*", " teammate "),
    (r"\bequipes?\b", " team "),
    # Sides said rather than named: "deux contre deux", "couple contre couple", "par paires".
    (r"\b[2-4]\s+contre\s+[2-4]\b|\bcouples?\s+contre\s+couples?\b|\bpar\s+paires\b|\ben\s+binomes?\b", " team "),
    # "à 2", "on est 3": a number of players only where it is said so ("le total est à 5" is a total).
    (r"\bduel\b", " 2player "),
    *(
        (
            rf"\b{n}\s+joueurs?\b|\bon\s+(?:est|joue|jouer?)\s+(?:plus\s+que\s+|que\s+|seulement\s+)?(?:a\s+)?{n}\b|"
            rf"\b(?:jouer?|jouons|jouez)\s+a\s+{n}\b|\b(?:sommes|sont|etes)\s+(?:plus\s+)?(?:que|seulement)\s+{n}\b",
            f" {n}player ",
        )
        for n in (2, 3, 5)
    ),
)
"""French: the players' words for cards, numbers and kinds of game, as the search's terms (on folded text)."""

GERMAN_WORDS: _Rules = (
    (r"\bne\b", "eine"),
    (r"\bnen\b", "einen"),
    (r"\bjmd\b|\bjemand\w*", "jemand"),
    (r"\bnu\b", "nun"),
    (r"\bgibts\b", "gibt es"),
    (r"\bgehts\b", "geht es"),
    # Swiss, Austrian and Bavarian spellings of everyday words ("isch des erlaubt", "hob koa null").
    (r"\bisch\b|\bis\b", "ist"),
    (r"\be\b", "eine"),
    (r"\bkoa\w*|\bkei\b", "kein"),
    (r"\bnet\b|\bned\b", "nicht"),
    (r"\bnix\b", "nichts"),
    (r"\bhob\b", "habe"),
    (r"\bhot\b", "hat"),
    (r"\bvu\b|\bvui\b", "viel"),
    (r"\bwos\b", "was"),
    (r"\bma\b", "man"),
    # More Swiss everyday words, which no sound rule (`regional_spelling`) reaches: greetings weigh nothing, and the
    # short verbs and particles are their standard words ("git" gibt, "gsi" gewesen, "chasch" kannst, "nöd" nicht).
    (r"\b(?:gruzi|hoi|sali|salu|servus|gruss\s+gott|gruessech|grussech)\b(?:\s+(?:zame|mitenand|miteinand))?", " "),
    (r"\bgits\b", "gibt es"),
    (r"\bgit\b", "gibt"),
    (r"\bgsi\b", "gewesen"),
    (r"\bneh\b|\bnah\s+(?=\d|zwei|drei|eine?)", "nehmen "),
    (r"\bchan\b|\bchasch\b|\bcha\b", "kann"),
    (r"\bchond\b|\bchonnd\b|\bchonnt\b|\bchonne\b|\bchonnted\b", "konnen"),
    (r"\bchunnt\b|\bchunt\b|\bkumm\b|\bkummt\b", "kommt"),
    (r"\bgoht\b|\bgaht\b", "geht"),
    (r"\bmues\b|\bmus\b|\bmuesch\b|\bmusch\b|\bmond\b", "muss"),
    (r"\bsott\b|\bsotti\b|\bsottet\b|\bsoll\s*i\b", "soll"),
    (r"\bhend\b|\bhesch\b|\bhani\b", "haben"),
    (r"\bbisch\b", "bist"),
    (r"\bnod\b|\bnid\b", "nicht"),
    (r"\bnut\b|\bnuut\b", "nichts"),
    (r"\boppis\b|\bopis\b", "etwas"),
    (r"\bmer\b", "man"),
    (r"\buf\b", "auf"),
    (r"\bde\b|\bda\s+(?=wo\b)", "der "),
    (r"\bz\s+(?=wenig|viel|spat|fruh)", "zu "),
    (r"\bno\b", "noch"),
    (r"\bjo\b", "ja"),
    (r"\bi\b", "ich"),
    # Austrian and Bavarian drop the -e- of an ending ("Kartn", "hergebn", "Lebm" for Karten, hergeben, Leben): a word
    # ending in a stop and -n (or -bm) gets it back, which no standard German word lacks.
    (r"\b([a-z]*[aeiouy][a-z]*?[bdgkpt])n\b", r"\1en"),
    (r"\b([a-z]*[aeiouy][a-z]*?)bm\b", r"\1ben"),
    (r"\b(\d+)er\b", r"\1"),
    # A separable verb's infinitive with "zu" inside is the verb ("abzukürzen" is "abkürzen", "auszusetzen" is
    # "aussetzen"), so it stems and reads as the card or the rule it names.
    (r"\b(ab|an|auf|aus|ein|mit|nach|vor|weg|zuruck|neu)zu([a-z]{4,})", r"\1\2"),
    (r"\beinundzwanzig\b", "21"),
    (r"\bzweiundzwanzig\b", "22"),
    *(
        (rf"\b{word}undzwanzig\b", str(20 + value))
        for value, word in enumerate(("drei", "vier", "funf", "sechs", "sieben", "acht", "neun"), start=3)
    ),
    (r"\bzwanzig\b", "20"),
    # A total said in words ("die Summe ist vierzehn", "achtzehn"): a voice-dictated question spells its numbers.
    (r"\belf\b", "11"),
    (r"\bzwolf\b", "12"),
    (r"\bdreizehn\b", "13"),
    (r"\bvierzehn\b", "14"),
    (r"\bfunfzehn\b", "15"),
    (r"\bsechzehn\b", "16"),
    (r"\bsiebzehn\b", "17"),
    (r"\bachtzehn\b", "18"),
    (r"\bneunzehn\b", "19"),
    (r"\bacht\b", "8"),
    (r"\bneun\b", "9"),
    (r"\bnull(?:er)?\b", "0"),
    (r"\bzwei\b", "2"),
    (r"\bdrei\b", "3"),
    (r"\bvier\b", "4"),
    (r"\bfunf\b", "5"),
    (r"\bsechs\b", "6"),
    (r"\bsieben\b", "7"),
    (r"\bzehn\b", "10"),
    # A sum written out ("19 + 2 = 21") is figures, not the +2 and =21 cards.
    (r"\b(\d+)\s*\+\s*(\d+)\s*=\s*(\d+)\b", r"\1 \2 \3"),
    (r"=\s*21\b|\bgleich[\s-]+21\b", " eq21 "),
    (r"=\s*10\b|\bgleich[\s-]+10\b", " eq10 "),
    (r"=\s*0\b|\bgleich[\s-]+0\b", " eq0 "),
    (r"\+\s*1\b|\bplus\s+(?:eins|1)\b|\bnimm\s+(?:eins|1)\b|\b1\s+(?:karte\s+)?ziehen\b", " draw1 "),
    (r"\+\s*2\b|\bplus\s+2\b|\bnimm\s+2\b|\b2\s+(?:karten\s+)?ziehen\b|\bzieh[et]?\s+2\b", " draw2 "),
    (r"\bziehkarten?\b", " draw "),
    (r"\bbomb(?:e|en|s)?\b|\bkiller(?:karten?)?\b", " bomb "),
    # The cards' English names, which the box prints and players say in German too ("die Bomb", "Hand in & Re-deal",
    # "Pass Me By", "Draw 2"; Skip and Reverse below).
    (r"\b(?:hand\s+in\s*(?:&|and|und)?\s*)?re[\s-]*deal\w*", " redeal "),
    (r"\bpass\s+me\s+by\b", " pass "),
    (r"\bdraw\s*(?:2|two)\b|\bpick\s*up\s*(?:2|two)\b", " draw2 "),
    (r"\bdraw\s*(?:1|one)\b|\bpick\s*up\s*(?:1|one)\b", " draw1 "),
    (r"\bwild\s*cards?\b", " wild "),
    (r"\baussetz\w*|\bsetzt\s+aus\b|\bubersp?r[iu]ng\w*|\bskip\w*", " skip "),
    (r"\brichtungswechsel\w*|\bumkehr\w*|\breverse\b", " reverse "),
    # The Reverse described by its picture: "die Karte mit den Pfeilen (im Kreis)", "die Pfeilkarte".
    (r"\bkarte\w*\s+mit\s+(?:\w+\s+){0,2}?pfeil\w*|\bpfeilkarte\w*", r" \g<0> reverse "),
    # The Reverse described rather than named: the order turned round, play going the other way.
    (
        r"\b(?:reihenfolge|richtung)\s+(?:um(?:ge)?dreh\w*|wechsel\w*|andern|andert)\b"
        r"|\bandersrum\b|\bandere\s+richtung\b|\bruckwarts\b",
        " reverse ",
    ),
    (r"\b(?:spiel)?richtung\b", "richtung reverse"),
    (r"\bpass(?:e|en|karten?)?\b|\bder\s+nachste,?\s+bitte\b", " pass "),
    (
        r"\bneu\s+(?:geben|gegeben|verteilen|verteilt|mischen|gemischt)\b|\b(?:karten)?neuverteil\w*|\bredeal\b",
        " redeal ",
    ),
    (r"\b(?:sonder|aktions|spezial|ereignis|wild)karten?\b|\bwildcards?\b|\bjoker\b", " wild "),
    # The game itself told by its five lives ("dieses Kartenspiel mit den fünf Lebenskarten"): its name, no rule
    (r"\b(?:karten)?spiel\w*\s+mit\s+(?:den\s+)?5\s+(?:lebenskarten|leben|herzen|herzkarten)\b", " spiel alive "),
    (r"\bherz(?:en|karten?)?\b|\blebenskarten?\b", "leben"),
    # A mistake found after play went on ("keiner hat's gemerkt", "erst später gesehen", "vor 3 Zügen"), as in
    # English (phrases.py).
    (
        r"\b(?:keiner|niemand|keine\s+r)\s+(?:hat\s+)?(?:\w+\s+){0,2}?(?:gemerkt|merkt|bemerkt|gesehen|sieht|mitbekommen)\b|"
        r"\berst\s+(?:spater|hinterher|nachher|jetzt)\s+(?:\w+\s+){0,2}?(?:gemerkt|bemerkt|gesehen|aufgefallen)\b|"
        r"\bvor\s+(?:\d+|ein\s+paar|einigen|mehreren)\s+(?:zugen|runden|karten|spielzugen)\b",
        r" \g<0> latemistake ",
    ),
    # A shorter game asked for by how it should be ("ein Spiel, das weniger lang dauert", "die Partie kürzer machen")
    (
        r"\b(?:spiel|partie|runde)\w*\s+(?:\w+\s+){0,3}?(?:kurzer|weniger\s+lang\w*|zu\s+lang\w*|schneller)\b",
        " kurzes spiel abkurzen ",
    ),
    (r"\bsudden\s+death\b|\bplotzlicher\s+tod\b", " suddendeath "),
    (r"\bstechen\b", " tiebreak "),
    (r"\bgleichstand\w*", " tie "),
    (r"\bteam(?:kolleg|partner|mitglied)\w*|\bpartner\w*", " teammate "),
    (r"\bteams?\b|\bteamspiel\w*|\bmannschaft\w*", " team "),
    # Sides said rather than named: "zwei gegen zwei", "mehrere gegen mehrere", "paarweise".
    (
        r"\b(?:[2-4]|mehrere)\s+gegen\s+(?:[2-4]|mehrere)\b|\bpaar(?:e|weise)?\s+gegen\s+paar\w*|\bpaarweise\b|"
        r"\b(?:[2-3]|zwei|drei)\s+(?:parteien|mannschaften|gruppen|lager)\b",
        " team ",
    ),
    (
        r"\bzu\s+zweit\b|\b2\s+(?:spieler\w*|mitspieler|mitspielern|mitspielerinnen)|\bnur\s+noch\s+2\b(?=\s+(?:von\s+uns|ubrig|da|im\s+spiel))",
        " 2player ",
    ),
    (r"\bzu\s+dritt\b|\b3\s+(?:spieler\w*|mitspieler|mitspielern|mitspielerinnen)", " 3player "),
    (r"\bzu\s+funft\b|\b5\s+(?:spieler\w*|mitspieler|mitspielern|mitspielerinnen)", " 5player "),
    (r"\bzu\s+viert\b", "4 spieler"),
    (r"\bzu\s+sechst\b", "6 spieler"),
    # A compound ending in -karte(n) is that card ("Zahlenkarte": a number card).
    (r"\b([a-z]{3,})karten?\b", r"\1 karte"),
)
"""German: the players' words for cards, numbers and kinds of game, as the search's terms (on folded text)."""

_FRENCH_STOPWORD_TEXT = """
    a au aux avec c ca ce ces cet cette d de des du elle elles en et est etre eu il ils j je l la le les leur leurs
    lui m ma mais me mes moi mon n ne ni nos notre nous on ou par pas pour qu que quel quelle quels quelles qui quoi
    s sa se ses si son sont sur t ta te tes toi ton tu un une vos votre vous y ai as avons avez ont etais etait
    suis es sommes etes alors aussi donc bien tres bon ben bah euh hein voila ok vraiment puis ici la-bas cela ceci
    dit dire dis peut peux pouvoir pourquoi comment faut doit dois devons bonjour salut merci svp stp vrai
    mon ma mes maman papa mere pere frere soeur cousin cousine oncle tante ami amie copain copine grand-mere
    grand-pere mamie papi fils fille voisin voisine mari femme
    dans chui jsp wsh mdr ptdr lol stp svp astheure icitte tantot pis genre
    dessus dessous
"""
FRENCH_STOPWORDS = frozenset(_FRENCH_STOPWORD_TEXT.split())
"""French words that say nothing about which rule is meant."""

_GERMAN_STOPWORD_TEXT = """
    der die das den dem des ein eine einen einem einer eines und oder aber ich du er sie es wir ihr mich mir dich dir
    sich uns euch mein meine meinen meinem meiner dein deine sein seine seinen ihre ihren unser unsere ist sind war
    waren bin bist hat habe hab haben hast hatte wird werden wurde kann konnen darf durfen muss mussen soll sollen
    zu im am an auf bei mit von vom zum zur fur ja nein nicht doch dann denn auch noch schon mal man da so also
    wenn ob dass was wie wo warum jetzt eigentlich eben halt bitte danke hallo guten tag gilt glaub ich gerade gar
    mama papa mutter vater bruder schwester cousin cousine onkel tante oma opa enkel enkelin freund freundin
    nachbar nachbarin mann frau sohn tochter
    in wen isch des ma gell halt nix net ned koa hob wos oida grad
"""
GERMAN_STOPWORDS = frozenset(_GERMAN_STOPWORD_TEXT.split())
"""German words that say nothing about which rule is meant."""

GENERIC_WORDS: Mapping[str, tuple[str, ...]] = {
    "fr": ("carte", "cartes", "regle", "regles", "jeu", "jouer", "joue", "explique", "expliquer", "marche",
           "signifie", "veut", "5", "alive"),
    "de": ("karte", "karten", "regel", "regeln", "spiel", "spielen", "spielt", "erklar", "erklaren",
           "funktioniert", "bedeutet", "heisst", "5", "alive"),
}  # fmt: skip
"""Words that do not change which topic a question names ("carte bombe", "Bombe Regel": the Bomb)."""

WHOLE_GAME_WORDS: Mapping[str, tuple[str, ...]] = {
    "fr": ("regle", "regles", "jeu", "jouer", "joue", "explique", "expliquer", "marche", "alive", "comment"),
    "de": ("regel", "regeln", "spiel", "spielen", "spielt", "erklar", "erklaren", "funktioniert", "alive"),
}
"""A question of only these words ("comment on joue", "Spielregeln erklären") asks about the game as a whole."""

_SPACES = re.compile(r"\s+")
_TOKEN = re.compile(r"[a-z0-9]+")
_GERMAN_DIGRAPHS = re.compile(r"(?<=[a-z])(?:ae|oe|ue)")


def fold(text: str, language: str) -> str:
    """Lower case, accents optional; in German ae/oe/ue are a/o/u and ß is ss. Card symbols (= +) are kept."""
    text = text.casefold().replace("œ", "oe").replace("æ", "ae").replace("’", "'")
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    if language == "de":
        # "ueber" and "über" (folded "uber") are one word: the digraph is how a keyboard without umlauts writes them.
        plain = _GERMAN_DIGRAPHS.sub(lambda found: found.group(0)[0], plain)
    # Elided articles and pronouns ("l'equipe", "j'ai", "qu'il") are words of their own.
    return plain.replace("'", " ")


@lru_cache(maxsize=8)
def _compiled(language: str, stories: bool = False) -> tuple[tuple[re.Pattern[str], str], ...]:
    rules = (FRENCH_WORDS if language == "fr" else GERMAN_WORDS) + (STORY_READINGS[language] if stories else ())
    return tuple((re.compile(pattern), replacement) for pattern, replacement in rules)


_STEM_LOCK = threading.Lock()


@lru_cache(maxsize=16384)
def stem(word: str, language: str) -> str:
    """The Snowball stem of a folded word (a stemmer is not thread-safe: one at a time)."""
    with _STEM_LOCK:
        return str(_stemmer(language).stemWord(word))


@lru_cache(maxsize=4)
def _stemmer(language: str) -> snowballstemmer.Stemmer:
    return snowballstemmer.stemmer(STEMMERS[language])


_GERMAN_PARTICIPLE = re.compile(r"^(ab|an|auf|aus|ein|mit|nach|vor|weg|zuruck|neu)?ge([a-z]{3,})t$")


def verb_stem(stemmed: str) -> str:
    """A German verb's Snowball stem without its -t and ge-...-t: the stemmer keeps them, so "er mischt", "gemischt"
    and "mitgemischt" would not meet "mischen" and "mitmischen" ("misch", "mitmisch"). Short stems stay ("legt",
    "kart")."""
    participle = _GERMAN_PARTICIPLE.match(stemmed)
    if participle:
        return (participle.group(1) or "") + participle.group(2)
    # Not -st: "nachst", "letzt", "passt" are words of their own (next, last, fits), not "nach", "pass".
    return stemmed[:-1] if len(stemmed) >= 5 and stemmed.endswith("t") and stemmed[-2] != "s" else stemmed


_SOUND_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"^ch(?=[aeiouy])", "k"),  # "Charte", "Chind": Karte, Kind
        (r"aa", "ee"),  # "läär", "Schnee" spelled "Schnaa": leer
        (r"scht", "st"),  # "nächscht", "erscht", "zerscht": nächst, erst
        (r"^schp", "sp"),  # "Schpiel": Spiel
        (r"i$", "e"),  # "Rundi", "alli", "nächschti": Runde, alle, nächste
        (r"li$", "e"),  # "Chärtli", "Spieli": Karte, Spiel (a diminutive)
        (r"ed$", "en"),  # "mached", "spiled": machen, spielen (the Swiss plural verb)
        (r"(?<=[^aeiou])e$", "en"),  # "abmache", "spiele": abmachen, spielen (an infinitive without its -n)
        (r"(?<=[^aeiou])$", "e"),  # "Chart", "Rund": Karte, Runde (an ending -e dropped)
    )
)
"""How Swiss, Austrian and Bavarian German spell a standard word, undone one sound at a time (on folded words)."""

_MOST_SOUND_CHANGES = 3


def regional_spelling(text: str, known: Callable[[str], bool]) -> str:
    """Folded German `text` with each word the rulebook does not know ("charte", "laar", "mached") put back in the
    standard spelling that it knows ("karte", "leer", "machen"), by undoing up to three regional sound changes
    (`_SOUND_RULES`); a word no such spelling makes known stays as typed, for the typo fixer."""

    def standard(match: re.Match[str]) -> str:
        word = match.group(0)
        if len(word) < 3 or known(word):
            return word
        seen = {word}
        latest = {word}
        for _ in range(_MOST_SOUND_CHANGES):
            # Each step changes only the spellings the step before made, so a word costs a few dozen tries at most.
            latest = {
                changed
                for spelling in latest
                for rule, replacement in _SOUND_RULES
                if (changed := rule.sub(replacement, spelling, count=1)) not in seen
            }
            seen |= latest
            found = sorted(spelling for spelling in latest if known(spelling))
            if found:
                return found[0]
        return word

    return _WORD.sub(standard, text)


_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Reader:
    """How the search reads one language other than English: the same steps for the rulebook and a question."""

    language: str

    @property
    def stopwords(self) -> frozenset[str]:
        """The language's stop words (folded)."""
        return FRENCH_STOPWORDS if self.language == "fr" else GERMAN_STOPWORDS

    @cached_property
    def story_concepts(self) -> Mapping[str, frozenset[str]]:
        """The story table's concepts as this language's terms (`stories.concepts_in`); its readings compiled too."""
        _compiled(self.language, stories=True)
        prepare_descriptions(self.language)
        return concepts_in(self, CONCEPTS)

    @cached_property
    def generic(self) -> frozenset[str]:
        """Terms that do not change which topic a question names."""
        return frozenset(term for word in GENERIC_WORDS[self.language] for term in self.terms(word))

    @cached_property
    def whole_game(self) -> frozenset[str]:
        """Terms that, alone, ask about the game as a whole."""
        return frozenset(term for word in WHOLE_GAME_WORDS[self.language] for term in self.terms(word))

    def extra_vocabulary(self) -> set[str]:
        """Words the typo fixer should know although the rulebook may not use them: stop words, card words."""
        rules = FRENCH_WORDS if self.language == "fr" else GERMAN_WORDS
        found = set(self.stopwords)
        for pattern, _ in rules:
            found.update(re.findall(r"[a-z]{3,}", re.sub(r"\\[a-zA-Z]", " ", pattern)))
        return found

    def concepts(self, text: str, stories: bool = False) -> str:
        """Folded text with the players' words for cards, numbers and kinds of game as the search's terms (with
        `stories`, and the story table's concepts: `foreign_stories.py`)."""
        said = fold(text, self.language)
        for pattern, replacement in _compiled(self.language, stories):
            said = pattern.sub(replacement, said)
        if stories:
            said = read_total(said, self.language)
        return _SPACES.sub(" ", said).strip()

    def terms(self, text: str, stories: bool = False) -> list[str]:
        """The search terms of a text in this language, in order (with `stories`, and the story table's concepts)."""
        out = []
        for token in _TOKEN.findall(self.concepts(text, stories)):
            if token in CONCEPTS or token.isdigit():
                out.append(token)
            elif token not in self.stopwords:
                stemmed = stem(token, self.language)
                if self.language == "de":
                    stemmed = verb_stem(stemmed)
                # A word whose stem is spelled like a card's term ("passe" in "ça se passe", "passen") is not the card.
                out.append(f"{stemmed}-" if stemmed in CONCEPTS else stemmed)
        return out

    def words(self, text: str) -> list[str]:
        """The folded words of a rulebook text, for the typo fixer's vocabulary."""
        return [word for word in re.findall(r"[a-z]+", fold(text, self.language)) if word not in self.stopwords]

    def query_terms(self, query: str, speller: Speller | None, stories: bool = False) -> list[str]:
        """The search terms of a typed question: folded, typos fixed against the rulebook's words, then read (with
        `stories`, the terms the story table reads)."""
        # A card described rather than named is named first, before the typo fixer reads its words as rulebook words.
        folded = name_described_cards(fold(query, self.language), self.language)
        if self.language == "de" and speller is not None:
            # Before the typo fixer, which would read a Swiss "läär" as "paar" rather than "leer".
            folded = regional_spelling(folded, speller.known)
        return self.terms(speller.fix(folded) if speller is not None else folded, stories)
