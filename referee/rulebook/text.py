"""Turn typed text into search terms: the game's many names, number words, typos and word endings.

The same `terms()` pipeline runs over the rulebook and over every query, so "+2", "plus two" and
"Draw 2" all become the term `draw2`, "hearts" and "ALIVE cards" become `life`, and so on.
Typos are fixed earlier, word by word, against the words the rulebook actually uses
(`Speller`), before any of this runs.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache

_NUMBER_WORDS = {
    "zero": "0",
    "nought": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "ten": "10",
}

# Family and friends at the table: known words (so "dad" is not "fixed" into "add") that name no rule.
_PEOPLE = (
    "mum|mom|mam|mummy|mommy|mother|dad|daddy|father|nan|nana|nanna|gran|granny|grandma|grandmother|grandad|"
    "granddad|grandpa|grandfather|brother|bro|sister|sis|son|daughter|wife|husband|uncle|aunt|aunty|auntie|"
    "cousin|friend|mate|buddy|boyfriend|girlfriend|bf|gf|kid|him|her"
)

# A number of players, in figures or words.
_COUNT = r"[1-9]|10|one|two|three|four|five|six|seven|eight|nine|ten|a\s+single"

_ZERO_FOR = re.compile(r"\b(?:0|zero)\s+(?:for|on|to|at|against)\s+(?:the\s+|a\s+|his\s+|her\s+)?$")


def _last_bomb(match: re.Match[str]) -> str:
    """Mark a Bomb that was the last card, unless the last card was the 0 given to it ("my 0 for the bomb was ...")."""
    if _ZERO_FOR.search(match.string[: match.start()]):
        return match.group(0)
    return f" {match.group(0)} lastbomb "


# Phrases rewritten to one concept term, in this order, on lower-case text with spaces around.
PHRASES: tuple[tuple[str, str | Callable[[re.Match[str]], str]], ...] = (
    (r"[’‘`´]", "'"),
    # "could you tell me", "can someone explain to me": politeness, not a question about announcing a card
    (
        r"\b(?:can|could|would|will)\s+(?:you|u|someone|somebody|anyone)\s+(?:please\s+)?(?:tell|explain\s+to|show)\s+"
        r"(?:me|us)\b|\bplease\s+tell\s+(?:me|us)\b|\btell\s+me\b",
        " ",
    ),
    (r"\btwenty[\s-]*one\b", " 21 "),
    # "the table total" (the 2021 text's word for the running total), "the table's value"
    (r"\btable'?s?\s+(?:total|value|count|sum)\b", " total "),
    # "play two cards at once", "put 2 down together", "two cards in one turn": more than one card a turn
    (
        r"\b(?:play|plays|played|playing|put|puts|putting|lay|lays|laid|use|throw|drop)\s+(?:down\s+)?"
        r"(?:[2-9]|two|three|four|both|several|multiple|more\s+than\s+(?:1|one))\s+(?:cards?\s+|of\s+them\s+|numbers?\s+|of\s+the\s+same\s+\w+\s+)?"
        r"(?:down\s+)?(?:at\s+once|together|at\s+the\s+same\s+time|(?:in|on|during)\s+(?:1|one|a|my|your|ur|his|her|the\s+same|a\s+single)\s+"
        r"(?:turn|go))|\b(?:2|two)\s+cards\s+(?:in|on|during)\s+(?:1|one|a|my|your|ur|the\s+same|a\s+single)\s+(?:turn|go)\b|"
        r"\b(?:play|plays|put|puts|lay|lays)\s+(?:down\s+)?(?:as\s+many|lots\s+of|loads\s+of|a\s+few)\s+(?:cards\s+)?"
        r"(?:as\s+\w+\s+(?:likes?|wants?)\s+)?(?:at\s+once|together|in\s+(?:one|1|a\s+single)\s+(?:turn|go))",
        r" \g<0> twocards ",
    ),
    # "our own rule", "the children invented a rule", "made-up rules", "house rules": rules a table makes for itself
    (
        r"\b(?:house|home|family|made[\s-]*up|invented|own)\s+rules?\b|"
        r"\b(?:make|made|makes|making|invent|invents|invented|inventing)\s+up\s+(?:a|our\s+own|my\s+own|their\s+own|some)?\s*rules?\b|"
        r"\b(?:invent|invents|invented|inventing)\s+(?:a|their|our|my|his|her|some)?\s*(?:own\s+)?(?:new\s+)?rules?\b",
        " houserule ",
    ),
    # "at any time", "whenever i like", "at will": when a card may be played
    (
        r"\b(?:at\s+)?any\s*time\b|\bwhenever\s+(?:i|you|u|one|we|they|he|she)\s+(?:like|likes|want|wants|wish|wishes|"
        r"choose|chooses|please|pleases|feel\s+like)\b|\bat\s+will\b",
        " anytime ",
    ),
    # "turned over their last life cards", "turn my life card over": a life lost (not a pile turned over)
    (
        r"\bturn(?:s|ed|ing)?\s+over\s+(?=(?:(?:a|an|one|my|his|her|their|your|ur|our|the|another)\s+)?"
        r"(?:(?:last|fifth|final|5th)\s+)?(?:life|alive|heart))|"
        r"\bturn(?:s|ed|ing)?\s+(?=(?:(?:a|an|one|my|his|her|their|your|ur|our|the|another)\s+)?(?:(?:last|fifth|final|5th)\s+)?"
        r"(?:life|alive|heart)\s+cards?\s+over\b)",
        " flip ",
    ),
    (r"\b((?:life|alive|heart)\s+cards?)\s+over\b", r" \1 "),
    # "goes back to 0", "put back to nought", "starts again from 0": the total reset
    (
        r"\b(?:go|goes|going|went|gone|come|comes|set|sets|put|puts|bring|brings|get|gets|turn|turns)\s+back\s+"
        r"(?:to|on|at|down\s+to)\s+(?:0|zero|nought)\b|\bstart\w*\s+(?:again\s+)?(?:from|at)\s+(?:0|zero)\b",
        " reset 0 ",
    ),
    # "make the number go up", "the total goes down": the total rising or falling, not a turn
    (r"\b(?:go|goes|going|went|gone)\s+up\b", " add "),
    (r"\b(?:go|goes|going|went|gone)\s+down\b", " lower "),
    # "the highest number card", "the biggest number": the number cards' range
    (
        r"\b(?:highest|biggest|largest|top|max(?:imum)?)\s+(?:number|card\s+number|value|card)(?:\s+card)?\b"
        r"(?!\s+(?:of|for)\s+(?:players?|people|ppl|us|lives|rounds?))",
        " numbers 0 to 7 ",
    ),
    # "each round", "every round": the start of every new round
    (r"(?<!end\sof\s)\b(?:each|every)\s+(?:new\s+)?round\b", " new round "),
    # the game's own name says nothing about which rule ("5 alive cards" are the lives, though)
    (r"\b(?:5|five)[\s-]*alive\b(?!\s*cards?\b)", " "),
    # "how many Life cards", "the heart cards": the lives, by the cards that show them
    (r"(?<!last\s)(?<!final\s)(?<!fifth\s)(?<!5th\s)\b(?:life|heart|skull)\s+cards?\b", " lives "),
    # "everybody gets their own five alive cards": a set of lives (not a game of five players)
    (r"\b(?:5|five)\s+(?=(?:alive|life|heart)\s+cards?\b)", " "),
    (r"\b(\d+)\s*(?:'s|s)\b", r" \1 "),  # 0s, 7's
    # =21, = 21, equals 21, equal 21 (but "equal to 21" is just a total of 21)
    (r"(?:=\s*|\bequals?\s+|\beq\s*)(21|10|0|zero|ten)\b", r" eq\1 "),
    (r"\beqzero\b", " eq0 "),
    (r"\beqten\b", " eq10 "),
    (r"(?:\+|\bplus[\s-]*)(1|one)(?:'?e?d)?\b", " draw draw1 "),
    # "+2", "plus two", and the card said as a verb: "i got +2d", "she plus-twoed me"
    (r"(?:\+|\bplus[\s-]*)(2|two)(?:'?e?d)?\b", " draw draw2 "),
    (r"\bpick(?:s|ed|ing)?\s+up\b", " draw "),
    # "the plus card", "plus cards": the Draw cards by the sign printed on them
    (r"\bplus\s+cards?\b", " draw card "),
    # "can we land on 21", "landed exactly on 21": making 21 (before "landed" is read as a card played)
    (r"\b(?:land|lands|landed|landing)\s+(?:right\s+|exactly\s+)?(?:on\s+)?(?:exactly\s+)?21\b", " exactly 21 "),
    (r"\bdraw(?:s|n|ing)?\s+(1|one)\b", " draw draw1 "),
    (r"\bdraw(?:s|n|ing)?\s+(2|two)\b", " draw draw2 "),
    (r"\bdraw\s+(?:pile|deck|stack)\b", " drawpile "),
    # "the pack has run out", "the deck is empty": the draw pile, which is what runs out in play
    (
        r"\b(?:pack|deck|stack)\b(?=\s+(?:(?:has|is|was|had)\s+)?(?:run|runs|ran|running|empty|gone|finished|all\s+gone)\b)",
        " drawpile ",
    ),
    (r"\bpass[\s-]*me[\s-]*by\b", " pass "),
    (r"\bhand(?:s|ed)?[\s-]*in\s*(?:and|&|n|\+)?\s*re[\s-]*deal\w*", " redeal "),
    (r"\bre[\s-]+deal\w*", " redeal "),
    (r"\bredeal\w*", " redeal "),
    # "the reshuffle card", "a shuffle card": a name players give Hand in & Re-deal (not "reshuffle the cards")
    (r"\b(?:re[\s-]*)?shuff?le?\s+card\b", " redeal "),
    (r"\bhand(?:s|ed)?[\s-]*in(?=\s+cards?\b|\s*$)", " redeal "),
    (r"\ba[\s.-]l[\s.-]i[\s.-]v[\s.-]e\b", " alive "),  # spelled out: "A-L-I-V-E", "a l i v e"
    (r"\bsudden[\s-]*death\b", " suddendeath "),
    (r"\btie[\s-]*break\w*", " tie tiebreak "),
    (r"\bfinal\b", " last "),  # before the last-card phrasings below: "my final card was a pass"
    (r"\b(?:go|goes|going|gone|went)\s+out\b(?!\s+of)", " goout "),
    # "knocked out", and with someone between: "the bomb knocked me out", "it put him out"
    (
        r"\b(?:knock|knocks|knocked|knocking|kick|kicks|kicked|put|puts|took|takes)\s+((?:my\s+|our\s+|the\s+|your\s+|ur\s+)?\w+(?:\s+of\s+(?:us|them|you))?)\s+out\b(?!\s+of\s+(?:the\s+)?(?:pile|deck|hand|box))",
        r" eliminate \1 ",
    ),
    (r"\b(?:knock|knocks|knocked|kicked)\s+out\b", " eliminate "),
    (r"\b(?:lives|hearts)\s+(?:ran|run|runs|running)\s+out\b", " lastlife "),
    # "whose lives are all gone", "her hearts are used up": every life lost
    (
        r"\b(?:lives|hearts)\s+(?:are|were|have|has|had|is|was)\s+(?:all\s+)?(?:been\s+)?(?:gone|used\s+up|lost|finished|spent)\b",
        " lastlife ",
    ),
    # "do you get more lives", "can you win a heart back": lives regained (never, in 5 Alive)
    (
        r"\b(?:get|gets|got|win|wins|won|earn|earns|gain|gains)\s+(?:more|extra|another|new|some)\s+(?:lives|life|hearts?)\b|"
        r"\b(?:lives?|hearts?)\s+back\b",
        " regain life ",
    ),
    # "the partners game", "playing in partners": the team game
    (r"\bpartners?\s+(?:game|version|play|rules?)\b|\bin\s+partners\b", " team game "),
    (
        r"\bg[eo]t(?:s|ting)?\s+rid\s+of\s+(?:all\s+)?(?:my|his|her|their|your|ur|the\s+last|every)\s+cards?\b",
        " goout ",
    ),
    (r"\b(?:is|are|was|were|gets|got|get)\s+out\b(?!\s+of)", " eliminate "),
    # (not "ran out of lives", the last life, read below)
    (
        r"\b(?:ran|run|runs|running)\s+(?:out|dry)\b(?!\s+of\s+(?:lives|hearts|life))|\bno\s+more\b|\bnone\s+left\b|"
        r"\ball\s+gone\b",
        " empty ",
    ),
    (r"\bout\s+of\s+(?:the\s+)?game\b", " eliminate "),
    (r"\b(?:miss|misses|missed|lose|loses|lost)\s+(?:a|their|my|your|his|her|the|next)?\s*(?:turn|go)\b", " missturn "),
    (
        r"\b(?:go|play|turn|goes|plays)\s+again\b|\b(?:another|extra|new|second)\s+(?:turn|go)\b",
        " extraturn ",
    ),
    (r"\b(?:above|past|beyond|exceeds?|exceeding|higher\s+than|bigger\s+than|more\s+than)\s+21\b", " over 21 "),
    (r"\bgo(?:es|ing)?\s+over\b", " over "),
    (r"\b(?:anti|counter)[\s-]*clockwise\b", " counterclockwise "),
    (r"\bteam[\s-]+mates?\b", " teammate "),
    # "could not play", "was unable to go": a player who cannot play
    (r"\b(?:can\s*not|can't|cant|could\s+not|couldn't|couldnt|unable\s+to|not\s+able\s+to)\b", " cant "),
    (r"\b(?:some1|sum1|sum\s+1)\b", " someone "),
    # "gave me 2 cards and him 3", "unequal": hands of different sizes
    # ("left me with 3 cards and her with 4", "gave me 6 and her 5" too)
    (
        r"\b\d+\s+cards?\s+and\s+(?:him|her|them|\w+)\s+(?:with\s+|has\s+|had\s+|got\s+|gets\s+)?\d+\b|"
        r"\b(?:me|i)\s+(?:with\s+|have\s+|had\s+|got\s+)?\d+\s+(?:cards?\s+)?and\s+(?:him|her|them|my\s+\w+|\w+)\s+"
        r"(?:with\s+|has\s+|had\s+|got\s+|gets\s+)?\d+\b|\bun(?:equal|even)\b|\bnot\s+(?:equal|even)\b",
        " uneven ",
    ),
    # "instead of a zero", "as a 0": another card standing in for a 0 against a Bomb
    (r"\b(?:instead\s+of|in\s+place\s+of)\s+(?:a\s+)?(?:0|zero)\b", " substitutezero "),
    # "tapped 7 instead of 6", "we typed a 6 but it was really a 2", "pressed the wrong card": a wrong card entered
    # into the referee (the two numbers say nothing about number cards)
    (
        r"\b[0-7]\s+(?:instead\s+of|not|rather\s+than)\s+(?:a\s+|an\s+)?[0-7]\b|"
        r"\b[0-7]\s+(?:[a-z]+\s+){0,3}?(?:but|when)\s+it\s+(?:was|is|should\s+(?:have\s+been|be))\s+(?:really\s+|actually\s+)?(?:a\s+|an\s+)?[0-7]\b",
        " wrongentry ",
    ),
    (
        r"\b(?:tap|taps|tapped|tapping|press|pressed|pressing|typed|type|entered|enter|keyed|clicked|hit|put\s+in)"
        r"(?:\s+(?:a|an|the|in|it|my|our|that|this|one|card|number|button))*\s+(?:wrong|by\s+mistake)\b|"
        r"\bwrong\s+(?:card|number|one|button)\s+(?:tapped|pressed|entered|typed|keyed|clicked|in)\b|"
        # "he tapped the pick up 2 card but he actually put down a pick up 1": what was entered is not what was played
        r"\b(?:tap|taps|tapped|press|pressed|typed|entered|keyed|clicked|put\s+in)\b(?:\s+\S+){0,8}?\s+but\s+(?:\w+\s+){0,2}?"
        r"(?:actually|really|in\s+fact)\s+(?:played|put|threw|laid|dropped|was|had)\b",
        r" \g<0> wrongentry ",
    ),
    # "do i keep the card i cant play", "put the card back in my hand", "when u bust do u put ur cards down": what a
    # busting player does with their cards
    (
        r"\b(?:keep|keeps|kept|hold\s+on\s+to|take\s+back|get\s+back)\s+(?:the|that|my|ur|your|this|his|her)\s+cards?\s+"
        r"(?:back\s+)?(?:that\s+|which\s+)?(?:i|you|u|he|she|they|we)?\s*(?:cant|couldnt|could\s+not|didnt|did\s+not|wont)\s+"
        r"(?:play|fit|go)\w*|"
        r"\bput\s+(?:the|that|my|ur|your|his|her)\s+cards?\s+back\b|"
        r"\bbust\w*\b(?:[\s,]+\w+){0,6}?[\s,]+(?:put|played|throw|lay|discard|give\s+up|lose)\s+(?:ur|your|my|his|her|their|the)\s+"
        r"(?:cards?|hand)\b",
        r" \g<0> bust keepcard ",
    ),
    # "keep the card in my hand or put it down", "take it back", "the card is returned": a busting player's card
    (
        r"\b(?:keep|keeps|kept|keeping)\s+(?:the|that|this|my|ur|your|his|her)\s+cards?\b(?:\s+in\s+(?:my|his|her|your|ur)\s+hand)?"
        r"(?=\s+(?:or|if|when|after|because)\b|\s*[?.!]*\s*$)|"
        r"\btake\s+(?:it|the\s+card|that\s+card|my\s+card|them)\s+back\b|"
        r"\b(?:card|it)\s+(?:is\s+|gets\s+|goes\s+|was\s+)?(?:returned|given\s+back)\b",
        r" \g<0> keepcard ",
    ),
    # "the total is off", "we counted 19 but it should be 17", "forgot to add a card", "lost track": the total was
    # counted wrong (a total typed in a question is "high" or "low" by now)
    (
        r"(?<!card\s)(?<!cards\s)\b(?:total|count|sum|score|number)\s+(?:\w+\s+){0,3}?(?:is\s+|was\s+|got\s+|looks\s+|seems\s+)?"
        r"(?:wrong|off|messed\s+up|mixed\s+up|incorrect|not\s+right)\b|"
        r"\b(?:count|counted|add|added)\s+(?:it\s+)?(?:up\s+)?wrong\b|"
        r"\b(?:counted|said|says|thought|had|added|made\s+it|got)\s+(?:it\s+(?:was\s+|to\s+be\s+)?)?(?:\d+|high|low)\s+but\s+"
        r"(?:it\s+|we\s+|i\s+)?(?:should|was|is|really|actually|think|thought|reckon|counted|make\s+it)\b|"
        r"\b(?:forgot|forget|forgotten|missed)\s+to\s+(?:add|count)\b|\blost\s+track\b|"
        # "nobody remembers if the total was 14 or 15", "cant remember the count": a total nobody agrees on
        r"\b(?:remember|remembers|remembered|forgot|forget|forgotten|sure)\s+(?:what\s+|if\s+|whether\s+|of\s+)?"
        r"(?:the\s+)?(?:total|count|score)\b|\b(?:total|count)\s+(?:was\s+|is\s+)?(?:\d+|low|high)\s+or\s+(?:\d+|low|high)\b",
        r" \g<0> miscount ",
    ),
    # "first time playing", "never played", "teach me", "in short", "the basics": someone new asks about the whole game
    (
        r"\bfirst\s+time\b|\bnever\s+played\b|\bnew\s+to\s+(?:this|the\s+game|it)\b|\bteach\s+(?:me|us)\b|"
        r"\bin\s+(?:short|a\s+nutshell|brief)\b|\b(?:quick|short)\s+(?:summary|rundown|version|explanation)\b|\bbasics\b|"
        r"\bhow\s+(?:do\s+(?:you|u|we|i)\s+)?(?:learn|start\s+playing)\b",
        " newplayer ",
    ),
    # "look at other ppls cards", "peek at her hand", "is my hand public": showing or hiding a hand
    (
        r"\b(?:look|looking|peek|peeking|see|seeing|show|showing|check)\s+(?:at\s+|in\s+)?(?:other\s+(?:people|ppl|ppls|players|peoples)|"
        r"someone\s*elses|everyone\s*elses|his|her|their|my|your|ur|each\s+others?|anyones?)\s+(?:cards?|hand)\b|\bpublic\b|\bprivate\b",
        r" \g<0> peek ",
    ),
    # "on someone elses turn", "when it wasnt his go": playing out of turn
    (
        r"\b(?:on|in|during)\s+(?:someone|somebody|another|other|his|her|their|the\s+other)\s*(?:elses|players?|persons?|s)?\s+(?:turn|go)\b|"
        r"\b(?:wasnt|wasn't|was\s+not|isnt|isn't|is\s+not|not)\s+(?:my|his|her|their|your|ur)\s+(?:turn|go)\b",
        r" \g<0> outofturn ",
    ),
    # "what number is it", "the count": the running total
    (r"\bwhat\s+number\s+is\b|\bthe\s+count\b", " total "),
    # "keep score", "add up points": scoring, which 5 Alive does not have
    (r"\bkeep\s+score\b|\bscore\s+points?\b|\badd\s+up\s+points?\b", " points scoring "),
    # "do we count points", "scoring at the end", "add up the cards left at the end": scoring a round by the cards
    # left in hand, which 5 Alive does not do (not "the point of the game")
    (
        r"\bpoints\b|\bscoring\b|\bscore\s+(?:at|for|the\s+cards|cards|up)\b|"
        r"\b(?:add|adding|added|count|counting|counted|total|tally)\s+(?:up\s+)?(?:the\s+|our\s+|all\s+the\s+|my\s+|your\s+)?"
        r"(?:cards?|number\s+cards)\s+(?:(?:we|you|u|i|they|people)\s+(?:have|had|hold)\s+)?(?:left|remaining|still\s+in|in\s+(?:our|my|your|their)\s+hands?|at\s+the\s+end)\b",
        r" \g<0> scoring ",
    ),
    # "round one", "first round": round 1
    (r"\bround\s+(?:1|one)\b|\bfirst\s+round\b", " firstround "),
    # "my 5th life", "all my lives", "out of lives", "on 0 lives", "one life left": the last life
    (
        r"\b(?:0|zero|no)\s+(?:lives|hearts)\b(?!\s+(?:lost|lose|gone|taken))|\b(?:1|one)\s+(?:life|heart)\s+left\b|"
        r"\b(?:on|had|have|has|got|down\s+to|only)\s+(?:1|one|a\s+single)\s+(?:life|heart)\b|"
        r"\b(?:5th|fifth|last|final)\s+(?:life|heart|alive\s+card)\b|\ball\s+(?:(?:my|your|ur|their|his|her)\s+)?(?:5\s+|five\s+)?"
        r"(?:lives|hearts|(?:alive|life|heart)\s+cards)\b|"
        r"\b(?:(?:ran|run|runs|running)\s+)?out\s+of\s+(?:lives|hearts|(?:alive|life|heart)\s+cards)\b|"
        r"\bno\s+(?:lives|hearts|(?:alive|life|heart)\s+cards)\s+left\b|\b(?:lives|hearts)\s+(?:ran|run|runs)\s+out\b",
        " lastlife ",
    ),
    # "loses all five", "lost all of her 5": the last life
    (
        r"\b(lose|loses|lost|losing)\s+all\s+(?:of\s+)?(?:(?:my|your|ur|his|her|their|our|the)\s+)?(?:5|five)\b(?!\s+(?:cards?|0|zero))",
        r" \1 lastlife ",
    ),
    # "holding nothing", "left with nothing": an empty hand
    (r"\b(?:holding|hold|holds|held|with|have|has|had|get|gets|got)\s+nothing\b(?!\s+(?:but|else|to))", " no card "),
    # "am i out of cards": an empty hand, gone out
    (r"\bout\s+of\s+cards\b(?!\s+(?:to|in\s+the|on\s+the|for)\b)", " goout "),
    # "at the same time", "at once": one event for several players
    (
        r"\b(?:at\s+the\s+same\s+(?:time|moment|instant)|same\s+time|at\s+once|simultaneous\w*|"
        r"(?:in|on)\s+(?:a|one|the\s+same)\s+(?:single\s+)?(?:go|turn))\b",
        " atonce ",
    ),
    # "both lost their last life together", "out together" (not "shuffled together", "play together")
    (
        r"\b((?:out|lost|lose|loses|eliminated|eliminate|died|die|bust|busted)(?:\s+[a-z]+){0,4}?)\s+together\b",
        r" \1 atonce ",
    ),
    # "is a 0 the same as =0", "difference between", "vs": a comparison of two cards
    (r"\b(?:the\s+)?same\s+as\b|\bdifferen(?:ce|t)\b|\bvs\b|\bversus\b|\bcompared?\s+(?:with|to)\b", " versus "),
    # "says i have 6 cards", "my card count", "number of cards i hold": how many cards a hand holds
    (
        r"\b(?:says|thinks|shows)\s+(?:\w+\s+){1,2}?(?:have|has|hold|holds|got)\s+\d+\s+cards?\b",
        " wrongcount handcount ",
    ),
    (
        r"\bcards?\s+count\b(?!\s+(?:as|for|towards?|in)\b)|\bcount\s+of\s+(?:(?:my|his|her|their|our|your|ur|the)\s+)?cards\b|"
        r"\b(?:number|how\s+many)\s+(?:of\s+)?cards\s+(?:i|he|she|they|you|u|we|someone)\s+(?:have|has|hold|holds|got)\b",
        " handcount ",
    ),
    # "it keeps telling me theres only one bomb", "the app is complaining": the referee warning about a card
    (
        r"\b(?:it|app|phone|referee|screen)\s+(?:keeps\s+|is\s+|just\s+|still\s+)?(?:telling|tells|told|warning|warns|warned|"
        r"complaining|complains|complained|flagging|flags|flagged|moaning|nagging)\b",
        r" \g<0> warn ",
    ),
    # "the app says i have 4", "wrong number of cards": the referee's count of a hand is off
    (
        r"\b(?:app|referee|it|phone)\s+(?:says|shows|thinks)\b|\bwrong\s+(?:number\s+of\s+cards|card\s+count|count)\b",
        " wrongcount ",
    ),
    # "my only card was a zero", "last 0": a 0 that was the last card (answering a Bomb)
    (
        r"\b(?:only|last|final|one)\s+(?:card|one)\s+(?:left\s+)?(?:was|is|which\s+was|that\s+was|being|=)\s*"
        r"(?:a\s+|my\s+)?(?:0|zero)\b|\b(?:last|final|only)\s+(?:0|zero)\b|"
        r"\b(?:only|just)\s+(?:had|have|got)\s+(?:a\s+|one\s+)?(?:0|zero)\s+left\b",
        " lastzero ",
    ),
    (
        r"\b(?:the\s+)?(?:player|person|guy|one|someone)\s+who\s+(?:played|plays|play)?\s*(?:the\s+|a\s+)?bomb\w*",
        " bomber ",
    ),
    # "i played the bomb, do i lose one", "the bomb i played": the player asking is the bomber
    (
        r"\b(?:i|me)\s+(?:just\s+)?(?:played|play|threw|dropped|put\s+down|laid)\s+(?:the|a|that|my)\s+bomb\b|"
        r"\bbomb\s+(?:that\s+)?i\s+(?:just\s+)?(?:played|threw|dropped|put\s+down|laid)\b|"
        r"(\bbomb\w*\b.*?)\b(?:if|when|after|as)\s+i\s+(?:played|play|threw|dropped)\s+it\b",
        r" \1 bomber bomb ",
    ),
    # "bomb ... the one who played it": the bomber, named after the card
    (
        r"(\bbomb\w*\b.*?)\b(?:the\s+)?(?:player|person|guy|one|someone)\s+who\s+(?:played|plays|play|threw|dropped|put)\s+"
        r"(?:it|that|that\s+one|the\s+card)\b",
        r"\1 bomber ",
    ),
    # "bust on purpose", "choose to lose a life", "wanna go over", "bust if i want", "bust when i dont need to"
    (
        r"\bon\s+purpose\b|\b(?:choose|chose|decide|decided|want|wanted|wanna)\s+(?:to\s+)?"
        r"(?:bust|lose\s+(?:a|one|1)\s+(?:life|heart)|go\s+over)\b|\bbust\w*\s+(?:if|when|whenever)\s+(?:i|you|u|we|they|he|she)\s+"
        r"(?:want|like|wish|choose|feel\s+like|dont\s+need|don't\s+need|do\s+not\s+need)\b|"
        # "bust just to get rid of my go", "rather lose a life", "prefer to bust": busting for a reason of one's own
        r"\bbust\w*\s+(?:just\s+|only\s+|simply\s+)?(?:to|so)\s+(?:that\s+)?(?:i\s+|we\s+|you\s+|u\s+)?"
        r"(?:get|skip|avoid|keep|end|pass|save|hold|not|dont)\b|"
        r"\b(?:rather|prefer\w*)\s+(?:to\s+)?(?:just\s+)?(?:bust|lose\s+(?:a|one|1)\s+(?:life|heart)|take\s+(?:the|a)\s+(?:bust|life))\b",
        " bust onpurpose ",
    ),
    (r"\b(?:dont|don't|do\s+not)\s+have\s+to\b", " onpurpose "),
    # "keep my zero", "skip discarding my 0", "do i have to hand over my zero": whether a 0 held may be kept back
    (
        r"\b(?:keep|save|hold\s+on\s+to|hang\s+on\s+to|hide|hold\s+back|not\s+(?:discard|give|play|throw|use)|"
        r"skip\s+discarding|refuse\s+to\s+(?:discard|give|play))\s+(?:my|the|his|her|their|our|a)?\s*(?:0|zero)\b|"
        r"\b(?:have\s+to|has\s+to|must|need\s+to|forced\s+to|gotta)\s+(?:play|give|hand\s+over|discard|throw|put\s+down|use|dump)\s+"
        r"(?:up\s+|away\s+|down\s+)?(?:my|the|a|our|his|her|their)?\s*(?:0|zero)\b",
        r" \g<0> keepzero ",
    ),
    # "does putting a zero down count as my turn", "is discarding a 0 my go", "zeros are not turns": a 0 given to a
    # Bomb is not a turn
    (
        r"\b(?:putting|discarding|throwing|giving|playing|dumping)\s+(?:down\s+)?(?:a\s+|my\s+|the\s+|one\s+)?(?:0|zero)\s+"
        r"(?:down\s+)?(?:\w+\s+){0,4}?(?:count\w*\s+as|use\w*\s+up|take\w*\s+up|cost\w*|is|my|a)\s+(?:my\s+|a\s+|your\s+|ur\s+)?"
        r"(?:turn|go)\b|\b(?:0|zero|zeros|zeroes)\s+(?:are|is|count\s+as)\s+(?:not\s+|never\s+)?(?:a\s+)?turns?\b",
        r" \g<0> zeroturn ",
    ),
    # "no zero", "nobody has a 0", "don't have a zero": the Bomb's penalty
    (
        r"\b(?:(?:no|nobody|noone|none|without|lacking|no\s+one|cant\s+answer|can't\s+answer)\s+(?:\w+\s+){0,4}?|"
        r"(?:never|not|dont|don't|doesnt|doesn't|didnt|didn't)\s+(?:\w+\s+)?"
        r"(?:got|get|have|has|had|hold|holding|own)\s+(?:\w+\s+)?)"
        r"(?:a\s+|any\s+|single\s+)?(?:0|zero|zeros|zeroes)\b|\b(?:cant|can't|cannot)\s+answer\b|"
        r"\b(?:cant|can't|cannot|couldnt|couldn't|unable\s+to)\s+(?:put|play|played|give|throw|discard|lay|use|find)\s+"
        r"(?:down\s+)?(?:a\s+|any\s+|my\s+|one\s+)?(?:0|zero)\b|"
        r"\b(?:zero|0)\s+(?:zeros|zeroes|0s)\b",
        " nozero ",
    ),
    # "dump both zeros", "discard every 0", "throw all my zeros", "got 2 zeros": how many 0s a Bomb takes
    (
        r"\b(?:all|both|every|each|[2-8])\s+(?:of\s+)?(?:my\s+|your\s+|ur\s+|the\s+|them\s+|his\s+|her\s+)?"
        r"(?:0|zero|zeros|zeroes)\b",
        " allzeros ",
    ),
    (
        r"\b(?:got|have|has|had|hold|holds|held|holding|with)\s+(?:[2-8]|two|three|four|several|many|lots\s+of)\s+(?:0|zero|zeros|zeroes)\b",
        " allzeros ",
    ),
    # "how many 0 cards are there", "how many 7s in the deck": the deck's contents (not "how many players
    # are there", which asks who can play)
    (
        r"\bhow\s+many\s+(?!(?:players?|people|persons?|ppl|of\s+us|lives|hearts|rounds?|turns?|goes|games?)\b)"
        r"(?:[\w=]+\s+){0,4}?(?:are\s+there|r\s+there|is\s+there|in\s+(?:the|a)\s+(?:deck|box|pack|game)|"
        r"(?:does|do)\s+(?:the|a|our)\s+(?:deck|box|pack|game)\s+(?:have|hold|got)|exist)\b",
        " deckcount ",
    ),
    # "is there only one bomb", "just a single 7 card?", "list of all the cards", "what numbers are there": the deck
    (
        r"\b(?:is|are)\s+there\s+(?:only|just)\s+(?:one|1|a\s+single|two|2)\b|\blist\s+(?:of\s+)?(?:all\s+)?(?:the\s+)?cards\b|"
        r"\b(?:what|which)\s+numbers\s+(?:go|are\s+there|are\s+in|do)\b",
        r" \g<0> deckcount ",
    ),
    # "when you're out", "when am i out": eliminated (not "out of cards")
    (
        r"\b(?:ur|your|youre|you\s+are|u\s+r|im|i\s+am|theyre|they\s+are|hes|shes|am\s+i|are\s+(?:you|u|they|we)|"
        r"r\s+u|is\s+(?:he|she))\s+out\b(?!\s+of\s+card)",
        " eliminate ",
    ),
    # "can we play with just 2", "is it ok for 3 people", "can 9 of us play", "is 3 enough": whether the game takes
    # that many players (the text stays, so "just 2" is still two players below)
    (
        rf"\b(?:can|could|may)\s+(?:we|you|u|i|they)\s+(?:all\s+)?play\w*\s+(?:it\s+|this\s+)?with\s+(?:just\s+|only\s+)?"
        rf"(?:{_COUNT}|more|less|fewer)\b|"
        rf"\b(?:ok|okay|fine|alright|good|work|works|possible)\s+(?:for|with)\s+(?:just\s+|only\s+)?(?:{_COUNT})\b|"
        rf"\b(?:can|could)\s+(?:just\s+|only\s+)?(?:{_COUNT})\s+(?:of\s+us\s+|players?\s+|people\s+|ppl\s+|persons?\s+)?play\b|"
        rf"\b(?:{_COUNT})\s+(?:players?\s+|people\s+|ppl\s+|of\s+us\s+)?enough\b|"
        # "we have 9 people, can everyone play", "there are 8 of us can we all play"
        rf"\b(?:we\s+(?:have|got|are)|we're|were|there\s+(?:are|is|s))\s+(?:{_COUNT}|\d+)\s+(?:players?|people|ppl|of\s+us)\b"
        rf"(?=.*\b(?:can|could|may|is\s+it|ok|okay|enough|too\s+many|allowed)\b)",
        r" playercount \g<0> ",
    ),
    # "1v1", "1 on 1", "heads up", "just the two of us", "only two", "one opponent": a two-player game
    (
        r"\b(?:1\s*v(?:s|ersus)?\s*1|(?:1|one)\s+on\s+(?:1|one)|heads?[\s-]+(?:to[\s-]+head|up)|"
        r"(?:just|only)\s+(?:the\s+)?(?:2|two)(?:\s+of\s+us)?|(?:one|an|my|1)\s+opponent)\b",
        " 2player ",
    ),
    # "me and my dad", "only me n him left", "me vs my nan": one other person named, so two players
    # (not "both me and my sister put our last 0 down", two of several)
    (
        r"(?<!both\s)\b(?:(?:just|only)\s+)?(?:me|i)\s+(?:and|n|&|\+|vs|v|versus|against)\s+(?:my\s+|our\s+)?"
        rf"(?:{_PEOPLE})\b(?!\s+(?:both|each|all|and\s+(?:my|our|\w+\s+and)))",
        " 2player ",
    ),
    (
        r"(?<!a )\b([2-6]|two|three|four|five|six)\s*(?:-\s*)?"
        r"(?:players?|people|persons?|ppl|of\s+us\s+left|of\s+us|kids|left|remaining|p)\b",
        lambda match: f" {_NUMBER_WORDS.get(match.group(1), match.group(1))}player ",
    ),
    # "went out with a Draw 2", "finished on a skip", "last card was a reverse": a wild card as last card
    # (Bomb and Re-deal as last card have rulings of their own). Runs after the card names are rewritten.
    (
        r"\b(?:goout|finish\w*|end\w*)\s+(?:the\s+round\s+|the\s+game\s+)?(?:with|on|w)\s+(?:a\s+|an\s+|my\s+)?"
        r"(?:draw\s+)?(?:draw[12]|skip|reverse|pass|eq21|eq10|eq0|wild\w*|special)\b",
        " lastwild ",
    ),
    # "my last card was the bomb", "the bomb as her final card": a Bomb that was the last card of a hand (not a 0 given
    # to a Bomb as a last card, "both went out on the bomb")
    (
        r"\blast\s+card\s+(?:\w+\s+){0,2}?(?:was|is|=|being)\s+(?:a\s+|an\s+|the\s+|my\s+)?bomb\b|"
        r"\bbomb\s+(?:card\s+)?(?:as|was|is|being)\s+(?:my|his|her|the|their|ur|your|someones|a)?\s*last\s+card\b",
        _last_bomb,
    ),
    # "out on a bomb", "went out with a redeal": those two last cards have rulings of their own
    (r"\b(?:goout|finish\w*|out)\s+(?:with|on|w)\s+(?:a\s+|an\s+|my\s+|the\s+)?(bomb|redeal)\b", r" \g<0> last card "),
    # "last player standing", "last one left": the winner of the game (not a last card)
    (r"\blast\s+(?:player|one|person|man|woman|guy|girl)\s+(?:standing|left|alive|remaining)\b", " win "),
    # "I was not the one who played it", "no one who": "one" stands for a person, not the number 1
    (r"\b(?:the|no|any|some|each|every)\s+one\s+(?=who\b|whose\b|that\s+play)", " the player "),
    # "if its my last one", "every single one": "one" stands for a card, not the number 1
    (r"\b(my|his|her|their|your|ur|the)\s+(last|final|only)\s+one\b", r" \1 \2 card "),
    (r"\b(?:every|each)\s+(?:single\s+)?one\b", " all "),
    (
        r"\blast\s+card\s+(?:was|is|=)?\s*(?:a\s+|an\s+)?(?:draw\s+)?(?:draw[12]|skip|reverse|pass|eq21|eq10|eq0|wild)\b",
        " lastwild ",
    ),
    (
        r"\b(?:draw\s+)?(?:draw[12]|skip|reverse|pass|eq21|eq10|eq0)\s+as\s+(?:my\s+|your\s+|the\s+)?last\s+card\b",
        " lastwild ",
    ),
    # "do i have to play the +1", "must i use my skip": whether a wild card held must be played
    (
        r"\b(?:have|has|had|need|needs|forced|got)\s+to\s+(?:play|use|put\s+down)\s+(?:the|my|a|an|that|this|his|her)\s+"
        r"(?=(?:draw|skip|reverse|pass|eq|bomb|redeal|wild)\w*)",
        " mustuse ",
    ),
    # "drawing a card when she doesnt want to play", "can i draw instead of playing": drawing in place of a turn
    (
        r"\b(?:draw|draws|drew|drawn|drawing|take|takes|took|taking)\s+(?:a\s+|one\s+|another\s+|an\s+extra\s+)?(?:card\s+)?"
        r"(?:instead|rather\s+than|when\s+(?:she|he|i|they|you|u|we)\s+(?:dont|doesnt|cant|can't|does\s+not|do\s+not|didnt)\s+"
        r"(?:want\s+to\s+|wanna\s+|feel\s+like\s+)?(?:play|go|turn))\w*",
        " draw drawinstead ",
    ),
    # "do i have to play a card", "forced to play", "can i play nothing", "dont feel like playing": whether a player
    # may pass (not "do i have to play my skip" or "have to play a 0", which ask about one card)
    (
        r"\b(?:(?:have|has|had|need|needs|forced|made|required|obliged)\s+to|must|gotta)\s+(?:play|lay|put)\w*"
        r"(?!\s+(?:my|the|this|that|his|her|their|your|ur|it|[0-9=+])\b)"
        r"(?!\s+(?:a|an|one|any)\s+(?:[0-9=+]|zero|skip|reverse|bomb|draw|pass|redeal|wild|special|number)\w*)|"
        r"\bplay\w*\s+nothing\b|"
        r"\bnot\s+(?:to\s+)?(?:play\w*|go\b(?!\s+(?:out|over|bust|past|above|first|under)))|\b(?:dont|don't|do\s+not)\s+(?:want|wanna|feel\s+like)\s+(?:to\s+)?play\w*",
        r" \g<0> mustplay ",
    ),
    # "i picked up 2, do i still go", "if i draw do i still play": whether drawing costs the drawer's turn
    (
        r"\b(draw\w*)\b(.{0,40}?)\bstill\s+(?:get\s+to\s+|have\s+to\s+)?(?:play|go|turn|have\s+(?:a|my)\s+(?:turn|go)|"
        r"get\s+(?:a|my)\s+(?:turn|go))\b",
        r" \1\2 still drawturn ",
    ),
    # "who plays next", "whose turn", "who goes": whose turn it is
    (r"\bwho(?:s|se|\s+is)?\s+(?:turn|go|next|plays|goes|up\s+next|up)\b|\bnext\s+player\b", " whoseturn "),
    # "a bomb comes out": it was played (not someone knocked out)
    (r"\b(?:comes?|came|coming)\s+out\b", " played "),
    # "when the bomb came", "the bomb went off", "a skip landed": the card was played
    (
        r"\b(bomb|skip|reverse|redeal|pass|draw[12]|eq21|eq10|eq0)\s+(?:came|comes|come|coming|went\s+off|goes\s+off|"
        r"landed|lands|dropped|drops)(?:\s+(?:down|in|along|off))?\b",
        r" \1 played ",
    ),
    # "special cards", "non number cards", "the wild ones": the wild cards
    (r"\bspecial\b|\bnon[\s-]*number\b", " wild "),
    # "ended in a draw", "draw at the end": a tie, not a Draw card
    (
        r"\b(?:end(?:s|ed)?\s+in|(?:it|that)\s*(?:s|is|was)|its)\s+a\s+draw\b(?!\s*(?:\d|one|two|card|pile))|"
        r"\bdraw\s+at\s+the\s+end\b",
        " tie ",
    ),
    # "can we play with 7": seven players (a number at the very end, so not "play with 7s" or "a 7 on 14")
    (r"\b(?:play|game|do\s+it)\s+with\s+([2-9]|10)\s*[?.!]*\s*$", r" \1 players "),
    # "the = cards", "cards with = on them": the Equals cards
    (r"(?<![\w=])=(?=\s*(?:cards?|ones|signs?|on\s+them)\b)|\bcards?\s+with\s+(?:an?\s+|the\s+)?=", " eq21 eq10 eq0 "),
    (r"'", ""),
)
_COMPILED = tuple((re.compile(pattern), replacement) for pattern, replacement in PHRASES)


# In a question, a total like 18 only says "high", and 22 to 28 can only mean "over 21". (Not applied
# to the rulebook itself, where numbers such as 27 cards or 14 or less mean just what they say.)
def _sum_verdict(match: re.Match[str]) -> str:
    """ "play a 7 on 18": what the card would make of the total."""
    made = int(match.group(1)) + int(match.group(2))
    verdict = " over 21 " if made > 21 else " exactly 21 " if made == 21 else " fits "
    # A 0 adds nothing, so the sum says nothing about it: "a 0 on 21" asks whether a 0 always fits.
    return " 0 fits " if match.group(1) == "0" else verdict


# A card and a total said apart ("can i put a 4 if were on 18", "total is 16 i play a 5", "my only
# card is a 6 and we are on 18"): the sum decides the rule, so the total is replaced by its verdict.
_SPREAD_CARD = re.compile(
    r"\b(?:a|an|my|play|put|plays|played|lay|use|throw)\s+(?:down\s+)?(?:a\s+|an\s+|my\s+)?"
    r"(?:plain\s+|single\s+|normal\s+|regular\s+|simple\s+|ordinary\s+)?([0-7])(?![\w=])"
    r"(?!\s*(?:cards?|lives|life|players?|people|of|more|left|each|times?|rounds?)\b)"
)
_SPREAD_TOTAL = re.compile(
    r"\b(?:on|at|total\s*(?:is|s|of|=|was)?|its|it\s+is|count\s+is|it\s+says|we\s*re|were|we\s+are)\s+(?:on\s+|at\s+)?"
    r"(?:exactly\s+)?(1[0-9]|2[01])(?![\w=])(?!\s*(?:cards?|lives|players?)\b)"
)


def _read_spread_sum(text: str) -> str:
    """Put the verdict of a card and a total said in separate places in place of the total."""
    total = _SPREAD_TOTAL.search(text)
    if total is None:
        return text
    cards = [m for m in _SPREAD_CARD.finditer(text) if not (total.start(1) <= m.start(1) < total.end(1))]
    if len(cards) != 1:
        return text
    made = int(cards[0].group(1)) + int(total.group(1))
    verdict = " over 21 " if made > 21 else " exactly 21 " if made == 21 else " fits "
    if cards[0].group(1) == "0":
        verdict = " fits "  # a 0 adds nothing: the question is whether a 0 always fits, as in "a 0 on 21"
    return text[: total.start(1)] + verdict + text[total.end(1) :]


_QUERY_NUMBERS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # "total is 10", "the total's at 12": a low total (not "=10" or "10 cards")
    (re.compile(r"\btotal\s*(?:is|s|at|of|=)?\s*(?:at\s+)?(?:[0-9]|1[0-4])(?!\w)"), " total low "),
    (
        re.compile(
            # (not "a draw 1 when the total is 21": the 1 is a Draw card's)
            r"(?<![\w=])(?<!draw\s)(?<!plus\s)(?<!\+)(?!1\s+on\s+1\b)([0-7])\s+(?:on|at|onto|when\s+(?:its|it's|the\s+total\s+is))\s+"
            r"(1?\d|2[01])(?!\w)"
        ),
        _sum_verdict,
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
    **_NUMBER_WORDS,
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
    please ok okay like well still even yet s t now
    w u ur youre wat wats wot wut whta bro dude mate lol pls plz tho though gonna gotta wanna cuz coz n r y
    idk rn k ya yeah yep nah hey guys wait um uh oh so basically literally actually supposed ok
    mum mom mam mummy mommy mother dad daddy father nan nana nanna gran granny grandma grandmother grandad
    granddad grandpa grandfather brother sister sis son daughter wife husband uncle aunt aunty auntie cousin
    friend buddy boyfriend girlfriend kid kids
    hello hi dear helper thanks thank sorry morning evening afternoon"""
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
        text = _QUERY_AFTER_ME.sub(" next player ", text)
        text = _QUERY_SHOWN_TOTAL.sub(" total ", text)
        text = _QUERY_DRAW_BACK.sub(lambda found: f" {found.group(0)} stack ", text)
        text = _QUERY_PUT_DOWN.sub(r" played \1\2 ", text)
        text = _QUERY_PLAYED.sub(" played ", text)
        if not _QUERY_NUMBERS[1][0].search(text):
            text = _read_spread_sum(text)
        for number, meaning in _QUERY_NUMBERS:
            text = number.sub(meaning, text)
    for pattern, replacement in _COMPILED:
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


def _osa_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (edits, with swaps of neighbours), or limit + 1 if more."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        best = current[0]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
            best = min(best, value)
        if best > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def _deletes(word: str, depth: int) -> set[str]:
    found = {word}
    frontier = {word}
    for _ in range(depth):
        frontier = {item[:i] + item[i + 1 :] for item in frontier for i in range(len(item))}
        found |= frontier
    return found


_VOWEL = re.compile(r"[aeiou]")


def skeleton(word: str) -> str:
    """A word's consonants with repeats merged ("reverse" -> "rvrs", "bomb" -> "bmb")."""
    out: list[str] = []
    for letter in word:
        if letter not in "aeiou" and (not out or out[-1] != letter):
            out.append(letter)
    return "".join(out)


# Keys next to each other on a phone's or a computer's keyboard (QWERTY): a letter typed for another is nearly always
# one of these, or a vowel for a vowel, or a letter for one that sounds the same ("cuzin", "kard"). Any other letter
# swapped for another is more likely a real word the rulebook does not use ("smart" is not "start", "bump" not
# "jump", "dose" not "lose").
_KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_NEAR_KEYS: dict[str, frozenset[str]] = {}
for _row, _line in enumerate(_KEYBOARD_ROWS):
    for _column, _key in enumerate(_line):
        # Each row sits about half a key right of the one above: the keys touching one are the two beside it, the two
        # above it (same column and the next) and the two below it (the column before and the same).
        _touching = [(_row, _column - 1), (_row, _column + 1), (_row - 1, _column), (_row - 1, _column + 1)]
        _touching += [(_row + 1, _column - 1), (_row + 1, _column)]
        _NEAR_KEYS[_key] = frozenset(
            _KEYBOARD_ROWS[row][column]
            for row, column in _touching
            if 0 <= row < len(_KEYBOARD_ROWS) and 0 <= column < len(_KEYBOARD_ROWS[row])
        )
# Letters that sound alike. (Not the mirror letters b and d: "bump" would become "dump" for the sake of "bomd".)
_SOUNDS_ALIKE = frozenset({frozenset(pair) for pair in ("sz", "ck", "cs", "kq", "fv", "gj", "yi", "ye")})
_VOWELS = frozenset("aeiouy")


def likely_slip(typed: str, meant: str) -> bool:
    """True unless `typed` differs from `meant` only by one letter in place of another that no finger or ear would
    swap: not next to it on the keyboard, not both vowels, not sounding alike."""
    if len(typed) != len(meant):
        return True
    different = [(a, b) for a, b in zip(typed, meant, strict=True) if a != b]
    if len(different) != 1:
        return True  # a swap of neighbours, or more than one edit: judged by edit distance alone
    a, b = different[0]
    return b in _NEAR_KEYS.get(a, ()) or {a, b} <= _VOWELS or frozenset((a, b)) in _SOUNDS_ALIKE


class Speller:
    """Fix typed words against a vocabulary (symmetric-delete lookup, then edit distance).

    Words of 3-8 letters may be one edit off, longer words two; ties go to the commoner word. A word whose stem the
    vocabulary knows is a form of a known word, not a typo ("likes", "lifes"); a letter put for another is a typo only
    when it is a likely slip (`likely_slip`).
    (Allowing two edits in shorter words turned real words into wrong ones: "standing" -> "starting".)
    """

    forms: bool = True
    """Leave a word alone when the vocabulary knows its stem."""
    slips: bool = True
    """Correct a letter put for another only when it is a likely slip."""

    def __init__(self, vocabulary: Iterable[str]) -> None:
        self.counts: Counter[str] = Counter(vocabulary)
        self._stems = frozenset(stem(word) for word in self.counts)
        self._by_delete: dict[str, list[str]] = {}
        for word in self.counts:
            for variant in _deletes(word, self.max_edits(word)):
                self._by_delete.setdefault(variant, []).append(word)
        self._sorted = sorted(self.counts)
        self._by_skeleton: dict[str, str] = {}
        for word in sorted(self.counts, key=lambda item: (-self.counts[item], item)):
            self._by_skeleton.setdefault(skeleton(word), word)
        self.correct = lru_cache(maxsize=8192)(self._correct)

    @staticmethod
    def max_edits(word: str) -> int:
        """How many edits a word of this length may be from the word meant."""
        return 0 if len(word) < 3 else 1 if len(word) < 9 else 2

    def known(self, word: str) -> bool:
        """True if the rulebook uses this word."""
        return word in self.counts

    def _correct(self, word: str) -> str:
        if word in self.counts or self.max_edits(word) == 0:
            return word
        if self.forms and stem(word) in self._stems:
            return word
        if not _VOWEL.search(word) and skeleton(word) in self._by_skeleton:
            # Typed without vowels ("bmb", "rvrs", "rnd"): the commonest word with the same consonants,
            # before edit distance, which would find a nearer but unrelated word ("rnd" -> "end").
            return self._by_skeleton[skeleton(word)]
        limit = self.max_edits(word)
        candidates: set[str] = set()
        for variant in _deletes(word, limit):
            candidates.update(self._by_delete.get(variant, ()))
        best: tuple[int, int, str] | None = None
        for candidate in candidates:
            distance = _osa_distance(word, candidate, limit)
            if distance > min(limit, self.max_edits(candidate)):
                continue
            if self.slips and distance == 1 and not likely_slip(word, candidate):
                continue
            key = (distance, -self.counts[candidate], candidate)
            if best is None or key < best:
                best = key
        return word if best is None else best[2]

    def complete(self, prefix: str) -> str | None:
        """The commonest vocabulary word starting with `prefix` (for a word still being typed)."""
        if len(prefix) < 3:
            return None
        index = bisect_left(self._sorted, prefix)
        best: str | None = None
        while index < len(self._sorted) and self._sorted[index].startswith(prefix):
            word = self._sorted[index]
            if best is None or self.counts[word] > self.counts[best]:
                best = word
            index += 1
        return best

    def fix(self, text: str, names: frozenset[str] = frozenset()) -> str:
        """Return `text` with unknown words corrected; an unfinished last word may be completed.

        Words in `names` (folded) are left as typed: they name people, not rules.
        """
        folded = fold(text)
        typing = bool(folded) and folded[-1].isalpha()
        matches = list(WORD.finditer(folded))
        if not matches:
            return folded
        pieces = []
        end = 0
        for position, match in enumerate(matches):
            word = match.group(0)
            fixed = word
            if not self.known(word) and word not in names:
                if typing and position == len(matches) - 1:
                    fixed = self.complete(word) or self.correct(word)
                else:
                    fixed = self.correct(word)
            pieces.append(folded[end : match.start()])
            pieces.append(fixed)
            end = match.end()
        pieces.append(folded[end:])
        return "".join(pieces)
