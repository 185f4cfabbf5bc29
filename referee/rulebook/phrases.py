"""The players' many ways of saying one thing, as rewrites of a query: card names and the 2021 edition's words,
number words, descriptions of what a card does or shows, stories told at the table ("the card that blows up").

`text.rewrite` applies them, in order, to a question before it is cut into terms.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

# The English names of the numbers people spell out, and their values: the one list of them in the rules search.
# Two passes read words with it, each for a job of its own: the terms (NUMBER_WORDS below, on the rulebook and the
# question alike) and the players' words (synonyms.NUMBER_WORDS, on a question before these phrases read it).
# Writing a count in a sentence ("only two 7s") is another job, with words of its own: referee/engine/sanity.py.
NUMBER_NAMES: Mapping[str, int] = {
    "zero": 0,
    **dict.fromkeys(("nought", "noughts", "naught", "naughts", "nil"), 0),
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
}

# The names up to ten as figures, one word to one term (text.SYNONYMS): the cards' numbers, the =10 and a count of
# players, as the rulebook and a question spell them. Larger numbers are read in a question only (synonyms.py:
# "nineteen" is 19); in the rulebook "twenty" stays a word ("whether they hold one card or twenty").
NUMBER_WORDS = {word: str(value) for word, value in NUMBER_NAMES.items() if value <= 10}


def _spelled(low: int, high: int) -> str:
    """The names of the numbers from `low` to `high`, as a pattern's alternatives ("two|three")."""
    return "|".join(word for word, value in NUMBER_NAMES.items() if low <= value <= high)


# Family and friends at the table: known words (so "dad" is not "fixed" into "add") that name no rule.
_PEOPLE = (
    "mum|mom|mam|mummy|mommy|mother|dad|daddy|father|nan|nana|nanna|gran|granny|grandma|grandmother|grandad|"
    "granddad|grandpa|grandfather|brother|bro|sister|sis|son|daughter|wife|husband|uncle|aunt|aunty|auntie|"
    "cousin|friend|mate|buddy|boyfriend|girlfriend|bf|gf|kid|him|her"
)

# A number of players, in figures or words.
_COUNT = rf"[1-9]|10|{_spelled(1, 10)}|a\s+single"

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
    # "good afternoon", "good evening": a greeting, not a word about the game
    (r"\bgood\s+(?:morning|afternoon|evening|day)\b", " "),
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
    # "set the app so a Bomb costs one life", "tell the application to do it our way", "how I tell the app we play the
    # version where ...": a table asking the referee to play a rule its own way is choosing a house rule
    (
        r"\b(?:set|setup|configure|program|adjust)\s+(?:up\s+)?(?:the\s+|this\s+)?(?:app|application|referee|phone|telephone)\s+"
        r"(?:up\s+)?so\b|"
        r"\b(?:app|application|referee|phone|telephone)\b(?:\s+\S+){0,8}?\s+(?:(?:our|my|his|her|their)\s+(?:own\s+)?(?:way|version)|"
        r"the\s+(?:version|variant|way)\s+(?:where|that|we|in\s+which)|differently|(?:another|a\s+different)\s+way)\b",
        r" \g<0> houserule ",
    ),
    # "can we set that in the app", "can the app be set to do that": a rule the story told, asked of the referee
    (
        r"\b(?:set|put|change|configure|switch|turn)\s+(?:that|this|it)\s+(?:up\s+|on\s+)?(?:in|on)\s+(?:the\s+)?"
        r"(?:app|application|referee)\b|\b(?:app|application|referee)\s+be\s+set\s+(?:up\s+)?to\b",
        r" \g<0> houserule appset ",
    ),
    # "at any time", "whenever i like", "at will": when a card may be played
    (
        r"\b(?:at\s+)?any\s*time\b|\bwhenever\s+(?:i|you|u|one|we|they|he|she)\s+(?:like|likes|want|wants|wish|wishes|"
        r"choose|chooses|please|pleases|feel\s+like)\b|\bat\s+will\b",
        " anytime ",
    ),
    # "turned over their last life cards", "turn my life card over": a life lost (not a pile turned over)
    (
        r"\bturn(?:s|ed|ing)?\s+over\s+(?=(?:(?:a|an|one|my|his|her|their|your|ur|our|the|another)\s+)?(?:(?:one\s+)?of\s+"
        r"(?:my|his|her|their|your|ur|our|the)\s+)?"
        r"(?:(?:last|fifth|final|5th)\s+)?(?:life|alive|heart))|"
        r"\bturn(?:s|ed|ing)?\s+(?=(?:(?:a|an|one|my|his|her|their|your|ur|our|the|another)\s+)?(?:(?:last|fifth|final|5th)\s+)?"
        r"(?:life|alive|heart)\s+cards?\s+over\b)",
        " flip ",
    ),
    (r"\b((?:life|alive|heart)\s+cards?)\s+over\b", r" \1 "),
    # "goes back to 0", "put back to nought", "starts again from 0": the total reset
    (
        r"\b(?:go|goes|going|went|gone|come|comes|set|sets|put|puts|bring|brings|get|gets|turn|turns|is|was|be)\s+back\s+"
        r"(?:to|on|at|down\s+to)\s+(?:0|zero|nought|nothing)\b|\bstart\w*\s+(?:again\s+)?(?:from|at)\s+(?:0|zero)\b",
        " reset ",
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
    # "am I finished altogether", "out for good", "done for": out of the game, not out of cards
    (
        r"\b(?:finished|out|done)\s+(?:altogether|for\s+good|completely|entirely|for\s+the\s+(?:game|night|evening))\b|"
        r"\bdone\s+for\b",
        " eliminate ",
    ),
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
    # "keep the card in my hand or put it down", "keep hold of it?", "take it back", "the card is returned": a busting
    # player's card
    (
        # (not a bare "keep it", said of a wild card saved as often as of the card that would go over)
        r"\b(?:keep|keeps|kept|keeping)\s+(?:(?:hold\s+of|hold\s+on\s+to|hang\s+on\s+to)\s+(?:it|them|that)\b|"
        r"(?:hold\s+of\s+|hold\s+on\s+to\s+|hang\s+on\s+to\s+)?(?:the|that|this|my|ur|your|his|her)\s+cards?\b)"
        r"(?:\s+in\s+(?:my|his|her|your|ur)\s+hand)?"
        r"(?=\s+(?:or|if|when|after|because)\b|\s*[?.!]*\s*$)|"
        r"\btake\s+(?:it|the\s+card|that\s+card|my\s+card|them)\s+back\b|"
        # "do i get my card back", "get it back", "give it back to him": the card handed back after going over
        r"\b(?:get|gets|getting|got|give|gives|given|hand|hands|handed)\s+(?:(?:the|that|this|my|ur|your|his|her)\s+cards?|it|them)\s+back\b|"
        r"\b(?:card|it)\s+(?:is\s+|gets\s+|goes\s+|was\s+)?(?:returned|given\s+back)\b|"
        # "i lose the life or i lose the card?": whether the card that would go over is kept, asked the other way
        r"\blose\s+(?:the|that|this|my)\s+card\b(?!\s+(?:game|count))",
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
    # "nobody noticed", "we only realised later", "three turns ago", "two cards back": a mistake found after play went
    # on, which Undo reaches by going back to it
    (
        r"\b(?:nobody|noone|no\s+one|none\s+of\s+us|we\s+(?:all\s+)?(?:didnt|did\s+not))\s+(?:\w+\s+){0,2}?"
        r"(?:notice|noticed|notices|see|saw|sees|seen|spot|spotted|object|objected|catch|caught|realise|realised|realize|realized)\b|"
        r"\b(?:only|just)\s+(?:now\s+)?(?:noticed|realised|realized|spotted|found\s+out|saw)\b|"
        r"\b(?:noticed|realised|realized|spotted|found\s+out|saw)\s+(?:it\s+|that\s+|the\s+mistake\s+)?(?:later|afterwards|too\s+late)\b|"
        r"\b(?:[2-9]|two|three|four|five|a\s+few|several|some|a\s+couple\s+of)\s+(?:turns?|cards?|goes|plays|moves)\s+"
        r"(?:ago|back|earlier|before|later)\b",
        r" \g<0> latemistake ",
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
        r"someone\s*elses|everyone\s*elses|his|her|their|my|our|your|ur|each\s+others?|anyones?)\s+"
        # "my partners cards", "his teammate's hand": a teammate's hand is as hidden as anyone's
        r"(?:(?:partners?|teammates?|team\s+mates?|opponents?)\s+)?(?:cards?|hand)\b|\bpublic\b|\bprivate\b",
        r" \g<0> peek ",
    ),
    # "on someone elses turn", "to interrupt", "butt in": a card put down on another player's turn (`otherturn`, which
    # the story table reads); "when it isnt my go" only says the turn is not one's own, which a question asks of the
    # wild cards as often as it tells a card played out of turn
    (
        r"\b(?:wasnt|wasn't|was\s+not|isnt|isn't|is\s+not|not)\s+(?:my|his|her|their|your|ur)\s+(?:turn|go)\b",
        r" \g<0> outofturn ",
    ),
    (
        r"\b(?:on|in|during)\s+(?:someone|somebody|another|other|the\s+other)\s*(?:elses|players?|persons?|s)?\s+(?:turn|go)\b|"
        r"\binterrupt\w*|\b(?:butt|butts|butted|barge|barges|barged|cut|cuts)\s+in\b|"
        # "while my cousin was still deciding on her turn", "during his brother's turn": on someone else's turn
        # (not "while its his turn": the turn of whoever the question is about)
        r"\b(?:while|whilst|during|in\s+the\s+middle\s+of)\s+(?!(?:it|its|it's|it\s+is|it\s+was)\s)(?:\w+\s+){0,6}?"
        r"(?:her|his|their|\w+'s|\w+s)\s+(?:own\s+)?(?:turn|go)\b",
        r" \g<0> outofturn otherturn ",
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
    # "all his 5 turned over", "that will be my fifth": every life, told by the count of the cards turned
    (
        r"\b(?:turned|flipped)\s+(?:over\s+)?all\s+(?:of\s+)?(?:(?:my|your|ur|his|her|their|our)\s+)?(?:5|five)"
        r"(?:\s+(?:of\s+)?(?:(?:my|your|ur|his|her|their|our)\s+)?cards)?\b",
        " lastlife ",
    ),
    (
        r"\ball\s+(?:of\s+)?(?:my|your|ur|his|her|their|our)\s+(?:5|five)\s+(?:are\s+|were\s+|have\s+been\s+|has\s+been\s+|got\s+)?"
        r"(?:turned(?:\s+over)?|flipped|gone|lost|used(?:\s+up)?)\b|"
        r"\b(?:my|his|her|their|your|ur)\s+(?:5th|fifth)\b(?!\s+(?:card|turn|go|round|game|player|time|hand|one)s?\b)",
        " lastlife ",
    ),
    # "we each get three lives", "start with 3 hearts": a number of lives to start with other than the five everyone has
    # (not "we both have 3 lives left", a state of the game, nor "lose 2 lives")
    (
        r"\b(?:get|gets|got|getting|start\w*\s+with|begin\w*\s+with|given|deal\w*)\s+(?:only\s+|just\s+)?"
        r"(?:[1-46-9]|10)\s+(?:lives|hearts|life\s+cards)\b(?!\s+left)",
        " \\g<0> how many lives ",
    ),
    # "holding an eight and a nine", "i played a 9": number cards the deck does not have (they run from 0 to 7)
    (
        r"\b(?:hold\w*|got|have|has|had|play\w*|put\w*|drew|draw\w*|with)\s+(?:an?|two|some|my|his|her)\s+(?:8|9)\b"
        r"(?!\s*(?:players?|people|persons|of\s+us|lives|hearts|rounds?|cards|years?))",
        " \\g<0> numbers 0 to 7 ",
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
        r"\b(?:only|just)\s+(?:had|have|got)\s+(?:a\s+|one\s+)?(?:0|zero)\s+left\b|"
        # "this zero is my last card": the same, said the other way round
        r"\b(?:0|zero)\s+(?:is|was|being)\s+(?:my|his|her|their|your|ur|the)\s+(?:last|only|final)\s+card\b",
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
    # "keep my 2 for later", "hoard my good cards for later", "of my own accord": the motive or the manner of a life
    # taken by choice, which is busting on purpose whatever the story around it
    (
        r"\b(?:keep|keeping|kept|save|saving|saved|hoard\w*|stash\w*|hold\w*\s+(?:on\s+to|onto|back))\s+"
        r"(?:\w+\s+){0,3}?for\s+later\b|\b(?:of|on)\s+(?:my|his|her|their|our|your|one's|ones)\s+own\s+accord\b|"
        r"\bvoluntar\w*|\bwillingly\b",
        r" \g<0> onpurpose ",
    ),
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
        rf"(?<!a )\b([2-6]|{_spelled(2, 6)})\s*(?:-\s*)?"
        r"(?:players?|people|persons?|ppl|of\s+us\s+left|of\s+us|kids|left|remaining|p)\b",
        lambda match: f" {NUMBER_WORDS.get(match.group(1), match.group(1))}player ",
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
    # "one of my hearts", "one of her cards": "one" picks one of a player's several, not the number 1
    (r"\bone\s+of\s+(?=(?:my|his|her|their|our|your|ur)\b)", " "),
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
COMPILED_PHRASES = tuple((re.compile(pattern), replacement) for pattern, replacement in PHRASES)


# In a question, a total like 18 only says "high", and 22 to 28 can only mean "over 21". (Not applied
# to the rulebook itself, where numbers such as 27 cards or 14 or less mean just what they say.)
def sum_verdict(match: re.Match[str]) -> str:
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


def read_spread_sum(text: str) -> str:
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
