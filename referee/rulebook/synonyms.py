"""The players' words for the rulebook's things: one table, read on every question before the search sees it.

Players rarely say what the rulebook says. They describe a card ("the exploding one", "the one with the two
arrows", "the card where everybody hands in their cards"), say numbers in words ("a nought", "nineteen"), call a
life a heart, and type on a phone. `PLAYER_WORDS` maps each such phrase to the rulebook's own words, and
`player_words()` rewrites a question with it, after typo fixing and before the concept rules of `text.py`, so every
entry benefits and the concept rules ("nobody has a 0", "went out with a Draw 2", "over 21") see the words they know.

It is applied to questions only: the rulebook is written in its own words already. It cannot change a question that
uses the rulebook's words: every entry's title and aliases read the same through the table (a test checks), and each
replacement is made of words the index holds (a test checks that too). "one" stays a word, and "oh" counts as a 0
only after a word that counts it.

(`text.SYNONYMS` is a different, lower layer: it folds word forms of the rulebook's own words, "busted" -> "bust",
on both sides. This table is for the words the rulebook never uses.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .descriptions import cue_words, name_described_cards
from .phrases import NUMBER_NAMES

# Number words are written in figures, so the question's total and card are read as numbers ("we are on nineteen
# and i play a four" is over 21). The names are phrases.NUMBER_NAMES, but for two the rulebook's phrases read as they
# are: "one" stays a word ("the exploding one", "no one", "which one" are not numbers), and "zero" is the rulebook's
# own word for the card. Plain words ("twenty one" also matches "twenty-one" and "twentyone"), up to twenty-eight,
# the highest total a card can make (21 and a 7).
NUMBER_WORDS: Mapping[str, str] = {
    **{f"twenty {word}": str(20 + value) for word, value in NUMBER_NAMES.items() if 1 <= value <= 8},
    **{word: str(value) for word, value in NUMBER_NAMES.items() if word not in ("one", "zero")},
}

# A card, a life or a happening in the players' words, and the rulebook's words for it. Keys are whole-word
# patterns on folded, typo-fixed text; write a plain phrase where one will do.
CARD_WORDS: Mapping[str, str] = {
    # Learners' English: "how much cards" is how many
    r"how\s+much\s+(cards|lives|players|people|persons|hearts|numbers|turns|rounds|points)": r"how many \1",
    # "comes to precisely 21", "bang on 21": exactly
    r"(?:precisely|bang\s+on|spot\s+on)\s+(?:on\s+|at\s+)?(\d+)": r"exactly \1",
    # "an oh", "no ohs", "a o": a 0 said as a letter (only after a word that counts it, "oh" alone is a sigh)
    r"(a|an|no|any|my|one|the|single)\s+(?:oh|o)(?:s|es)?": r"\1 0",
    # Bomb
    r"(?:the\s+)?(?:exploding|explodey|explody|explosive|exploder|explosion)\s+(?:one|card|thing)": "the bomb card",
    # "can i still explode over 21": going over, said the way one says it in some languages (not the Bomb)
    r"(?:explod(?:e|es|ed|ing)|blow\s+up|blew\s+up)(?=\s+(?:over|past|above|beyond|the\s+21|21))": "go",
    r"explod(?:e|es|ed|ing)|explody|explodey|kaboom|ka\s+boom|dynamite|tnt|nuke|grenade": "bomb",
    r"blew\s+(?:us|everyone|everybody|me|them|him|her)\s+up|blow\s+(?:us|everyone|everybody)\s+up": "bombed us",
    # "whoever plays the bomb", "the person who put the bomb down": the bomber described by what they did
    r"(?:whoever|the\s+(?:person|player|one|guy|kid)\s+(?:who|that))\s+(?:plays|played|puts|put|throws|threw|"
    r"lays|laid|drops|dropped)\s+(?:down\s+)?(?:the\s+|a\s+)?bomb(?:\s+card)?(?:\s+down)?": "the bomber",
    # Skip
    r"skip\s+(?:a\s+)?go\s+card|skip\s+go|skip\s+a\s+go": "skip",
    r"(?:the\s+)?miss\s+(?:a\s+|your\s+|ur\s+)?(?:go|turn)\s+(?:card|one)": "the skip card",
    r"stop\s+card|block\s+card": "skip card",
    # A card told by what it does or shows: "the card that turns the direction round", "the card that puts the count
    # back to nought", "the card with a plus sign and a 2 on it"
    r"(?:the\s+|a\s+)?(?:card|one)\s+(?:that|which)\s+(?:turns|changes|switches|swaps|flips|reverses|sends)\s+(?:the\s+)?"
    r"(?:direction|way|play)(?:\s+(?:of\s+play|round|around|back|the\s+other\s+way))?": "the reverse card",
    r"(?:the\s+|a\s+)?(?:card|one)\s+(?:that|which)\s+(?:puts|sets|brings|takes|makes|turns|resets|changes)\s+(?:the\s+)?"
    r"(?:count|total|sum|number|score)\s+(?:back\s+)?(?:down\s+)?(?:to|on|at)\s+(0|10|21)": r"the =\1 card",
    r"(?:the\s+|a\s+)?(?:card|one)\s+with\s+(?:a|an|the)\s+plus\s+(?:sign\s+|symbol\s+)?(?:and|with)\s+"
    r"(?:a|an|the)\s+(1|2)": r"the +\1 card",
    r"(?:the\s+|a\s+)?(?:card|one)\s+with\s+(?:a|an|the)\s+equals?\s+(?:sign\s+|symbol\s+)?(?:and|with)\s+(?:a|an|the)\s+"
    r"(0|10|21)": r"the =\1 card",
    # the Re-deal by what it does: "the mix up card", "shared out afresh", "the card marked 'hand in'"
    r"(?:the\s+|a\s+)?mix(?:ing)?[\s-]*up\s+(?:card|one)": "the redeal card",
    r"(?:card|one)\s+(?:marked|called|named|labelled|labeled|saying|that\s+says|with)\s+(?:the\s+words?\s+)?"
    r"'?hand\s+in\b'?": "redeal card",
    r"(?:shared|shares|share|dealt|deals|deal)\s+(?:out\s+)?(?:afresh|anew|all\s+over\s+again|a\s+second\s+time)": (
        "redeal"
    ),
    r"cards\s+(?:are|were|get|got|being|have\s+been)\s+(?:all\s+)?handed\s+in": "hand in cards",
    # "who gives out the cards", "hands out the cards": the deal
    r"(?:give|gives|gave|giving|hand|hands|handed|handing|share|shares|shared|sharing|pass|passes|passed)\s+out\s+"
    r"(?:all\s+)?(?:the\s+)?(?:cards?|hands?)": "deal the cards",
    # "a fresh ten", "fresh cards": a new hand, dealt for a new round
    r"(?:a\s+)?fresh\s+(?:10|hand|hands|cards|deal|set\s+of\s+cards)": "new hand",
    # Reverse
    r"(?:the\s+)?(?:one|card)\s+(?:with|showing|that\s+shows|that\s+has|having|marked\s+with)\s+(?:the\s+)?(?:two\s+|2\s+)?"
    r"(?:little\s+|curly\s+|round\s+)?arrows(?:\s+on\s+it)?|arrows?\s+(?:card|one)": ("the reverse card"),
    r"(?:change|changes|changed)\s+of\s+direction|switcheroo|turn\s+around\s+card": "reverse",
    r"(?:switch|swap|switches|switched|swaps|swapped|flip|flips|flipped|turn|turns|turned)\s+"
    r"(?:the\s+)?direction(?:\s+(?:round|around))?|u\s*-?\s*turn": "reverse",
    # Draw 1 / Draw 2 ("pick up 2" is read by text.py already)
    r"pickup|pic\s+up|pik\s+up": "pick up",
    r"take\s+(?:two|2)\s+card": "draw 2 card",
    # "pick 2", "pick two": a Draw card (not "pick up", read already, nor "pick one" as in choosing)
    r"pick\s+(2|two)(?!\s+up)": r"pick up \1",
    # "the draw 1, is it for all players or only for the next one", "do i have to pick up or just the next person":
    # who draws on a Draw card (everyone else), not passing the draw on
    r"((?:draw|plus|\+)\s*(?:1|2|one|two)\b(?:\W+\w+){0,12}?)\W+(?:or\s+)?(?:is\s+it\s+)?(?:just|only)\s+(?:for\s+|(?:makes?|hits?|affects?)\s+)?"
    r"(?:the\s+)?(?:next|following)\s+(?:person|player|one|guy)(?:\s+(?:who|that)\s+(?:draws|picks\s+up))?": (
        r"\1 does everyone draw"
    ),
    # Pass Me By
    r"pmb|pass[\s-]*me(?=\s+cards?\b)|pass[\s-]*by(?=\s+cards?\b)": "pass me by",
    # the Equals cards by their number: there is no 21 or 10 number card, so "the 21 card" is =21
    r"(?:the|a|an)\s+(21|10)\s+(card|one)": r"the =\1 \2",
    # Hand in & Re-deal: "the card where everybody hands in their cards" names the card; "everyone gives their cards
    # in" told in a story says what it does ("there" is "their" as a child or a phone spells it)
    r"(?:the|a)\s+(?:card|one)\s+(?:where|that|when|which|with)\s+(?:\w+\s+){0,3}?"
    r"(?:hand|hands|give|gives|pass|passes|put|puts|swap|swaps)\s+(?:in\s+)?(?:all\s+)?"
    r"(?:their|there|our|your|ur|the|everyones|all\s+the)\s+cards?(?:\s+in)?": "the redeal card",
    # "... and gets new ones": the rest of the card's description, not a question about new cards
    r"redeal\s+card\s+and\s+(?:gets?|got|receives?|takes?)\s+(?:new|fresh|different|other)\s+(?:ones|cards|hands?)": (
        "redeal card"
    ),
    # "... and they get shuffled": the rest of the card's description, not a question about which piles are shuffled
    r"the\s+redeal\s+card\s+(?:and|then)\s+(?:they|them|it|all|everything)\s+(?:get|gets|got|are|is)\s+"
    r"(?:re)?(?:shuffled|mixed)(?:\s+(?:and|then)\s+(?:re)?dealt(?:\s+out)?)?": "the redeal card",
    r"(?:hand|hands|handed|give|gives|gave|pass|passes|passed|put|puts)\s+(?:in\s+)?(?:all\s+)?"
    r"(?:their|there|our|your|ur|his|her|the|everyones|all\s+the)\s+cards?\s+in\b": "hand in cards",
    r"(?:hand|hands|handed)\s+in\s+(?:all\s+)?(?:their|there|our|your|ur|his|her|everyones|all\s+the)\s+cards?": (
        "hand in cards"
    ),
    r"(?:the|a)\s+(?:re)?shuffle\s+one|(?:the|a)\s+(?:new\s+hands?|deal\s+again)\s+(?:card|one)": "the redeal card",
    r"(?:swap|swaps|swapped|mix|mixes|mixed|shuffle|shuffles|shuffled|collect|collects|collected)\s+(?:up\s+)?"
    r"(?:all\s+)?(?:everyones|every\s+bodys|everybodys|all\s+the|all\s+our|all\s+of\s+our)\s+(?:cards|hands)": (
        "hand in and redeal"
    ),
    # "the card that makes everyone swap their hands": the same, told with the players first
    r"(?:everyone|everybody|all\s+the\s+players|all\s+of\s+us|we\s+all)\s+(?:swap|swaps|mix|mixes|shuffle|shuffles|"
    r"hand\s+in|hands\s+in|give\s+in|gives\s+in|pass\s+in)\s+(?:their|our|all\s+their|all\s+our|the)\s+"
    r"(?:cards|hands)": ("hand in and redeal"),
    # "the quick version where the game ends when the first person is out": Sudden Death described by what it does
    r"(?:game|it)\s+(?:ends|finishes|stops|is\s+over)\s+(?:when|once|as\s+soon\s+as)\s+(?:the\s+)?(?:1st|first)\s+"
    r"(?:person|player|one|someone)\s+(?:is|goes|gets|got|runs)\s+(?:out|knocked\s+out)": "sudden death game ends",
    # When a card may be played, asked about: "when am i allowed to play the =10", "when is one permitted to use the
    # special cards", "can i throw it whenever or only on my go", "or only at the start"
    r"when\s+(?:am|are|is|can|could|may|might|should|do|does)\s+(?:i|you|u|one|1|we|they|he|she|someone|anyone|"
    r"a\s+player)\s+(?:be\s+)?(?:allowed|permitted|able|aloud|meant)?\s*(?:to\s+)?(play|use|put|throw|lay)": (
        r"any time \1"
    ),
    r"(?:it|them|one|cards?)\s+whenever(?=\s+(?:or|and|\?|$))|"
    r"or\s+(?:whenever|only\s+(at|on|when|if|in|after|before))": (r"any time or only \1"),
    # "close to 21", "nearly 21": a high total, not a total of 21
    r"(?:close\s+to|near(?:ly)?|almost|approaching|getting\s+to)\s+21": "high total",
    # "the card where everyone gives their cards in, what is it called and what does it do": a card described and
    # asked about, not a question about the names the editions print
    r"what\s+(?:is|s)\s+(?:that|it|this)\s+(?:card\s+|one\s+)?called(?:\s+and)?": "explain",
    # What a card is for: "what's the point of the zero cards", "it seems to do nothing at all" (not "i can't do
    # anything", a player who cannot play)
    r"(?:what\s*(?:is|s)?\s+)?the\s+point\s+of": "card",
    r"(?:(?:it|they|that|which|card|cards)\s+|(?<=\s)(?=seem))(?:seems?\s+to\s+|seem\s+to\s+|seemed\s+to\s+)?"
    r"(?:do|does|dont\s+do|doesnt\s+do|don't\s+do|"
    r"doesn't\s+do)\s+(?:nothing|anything)(?:\s+at\s+all)?": "card",
    # "when one of the players has ...": a player, not the number 1 ("only one of us left" stays a count)
    r"(?<!only\s)(?<!just\s)(?:one|1)\s+of\s+(?:the\s+)?(?:players|people|others|kids|children|grown\s+ups|adults)": (
        "a player"
    ),
    # Who goes first, asked formally: "which of us ought to begin", "who should start", "which player begins"
    r"(?:(?:which\s+(?:one\s+)?of\s+us|which\s+(?:player|person))\s+(?:ought\s+to\s+|should\s+|must\s+|is\s+to\s+|"
    r"gets\s+to\s+|has\s+to\s+|shall\s+)?|who\s+(?:ought\s+to|should|must|is\s+to|gets\s+to|has\s+to|shall)\s+)"
    r"(?:begin|begins|start|starts|go\s+first|goes\s+first|play\s+first|plays\s+first|lead|leads)"
    r"(?!\s+(?:again|after|the\s+next|next|a\s+new|the\s+new))": "who goes first",
    # "do I finish the hand": the round being played, not the cards held
    r"(?:finish|end|complete|play\s+out)\s+(?:the|this)\s+hand": "finish the round",
    # Lives
    r"(?:life|heart)\s+points?|hit\s+points?|hp": "lives",
    # "another of my coloured cards": each player's lives are a set of cards in one colour
    r"(?:colou?red|colou?r)\s+cards": "alive cards",
    # Teams by who plays with whom: "couple against couple", "the boys against the girls", "husbands v wives"
    r"(?:couples?|pairs?|husbands?|wives|boys|girls|kids|adults|grown[\s-]*ups|parents|children)\s+"
    r"(?:against|versus|vs|v)\s+(?:the\s+)?(?:couples?|pairs?|husbands?|wives|boys|girls|kids|adults|grown[\s-]*ups|"
    r"parents|children)|(?:married\s+)?couples|spouses?|partnerships?": "teams",
    # Teams told by who plays against whom: "me and dad vs mum and my sister", "three against three"
    r"\w+\s+and\s+(?:my\s+|his\s+|her\s+|our\s+|the\s+)?\w+\s+(?:vs|versus|v|against)\s+(?:my\s+|his\s+|her\s+|our\s+|the\s+)?"
    r"\w+\s+and\s+(?:my\s+|his\s+|her\s+|our\s+|the\s+)?\w+": "team game",
    r"([2-4])\s+(?:against|vs|versus|on)\s+\1(?:\s+teams)?": r"team game \1 v \1",
    # A game that ends sooner: "does not go on so long", "takes too long", "a quicker game" (Sudden Death); told by
    # the time it takes: "need not go on all evening", "drags on", "lasts the whole night", "goes on for hours"
    r"(?:go|goes|going|went|drag|drags|dragged|dragging|run|runs|carry|carries)\s+on\s+(?:\w+\s+)?"
    r"(?:all|the\s+whole|half\s+the)\s+(?:evening|night|day|afternoon)|"
    r"(?:last|lasts|lasted|take|takes|took|taking)\s+(?:up\s+)?(?:all|the\s+whole|half\s+the)\s+(?:evening|night|day|afternoon)|"
    r"(?:drag|drags|dragged|dragging)\s+on|(?:go|goes|going|went)\s+on\s+(?:and\s+on|for\s+hours)|"
    r"(?:take|takes|took|taking|last|lasts|lasted)\s+(?:for\s+)?hours|"
    r"(?:shorter|quicker|faster|quick|speedy|short)\s+(?:version|way|party|match|variant|one)|"
    r"(?:shorter|quicker|faster|speedy)\s+game|"
    r"(?:go\s+on|goes\s+on|last|lasts|take|takes)\s+(?:\w+\s+)?"
    r"(?:so|too|very)\s+long|(?:takes?|taking)\s+(?:forever|ages)|(?:goes|go)\s+on\s+(?:forever|for\s+ages)|"
    r"(?:finish|end)\s+(?:it\s+)?(?:sooner|quicker|faster|earlier)|"
    # ... or the game said shorter with words between: "make the game rather shorter", "is the game always this long"
    r"(?:the|a|our|this)\s+(?:game|games|match)\s+(?:\w+\s+){0,2}?(?:shorter|quicker|faster|less\s+long)|"
    r"(?:game|games|match)\s+(?:is|are|was|were|gets|feels|seems|drags\s+on)\s+(?:\w+\s+)?(?:too|so|very|overly)\s+long|"
    # ... or by the wait it spares: "a way where we don't have to wait until only one person has hearts left"
    r"(?:dont|don't|do\s+not|not|without|no)\s+(?:have\s+to\s+|having\s+to\s+|need\s+to\s+)?wait(?:ing)?\s+"
    r"(?:until|till|til|for)\s+(?:there\s+is\s+)?(?:only\s+)?(?:one|1|the\s+last)\s+(?:person|player|one)": (
        "short game"
    ),
    # ... or told by the time the table has: "dinner in 10 min", "not much time", "before we have to leave"
    r"(?:in|about|only|got|have|just)\s+(?:about\s+)?(?:\d+|a\s+few|few|a\s+couple\s+of)\s+(?:min|mins|minutes)\b|"
    r"(?:not|no|dont|don't|haven't|havent)\s+(?:got\s+|have\s+)?(?:so\s+|very\s+|that\s+|too\s+)?much\s+time|"
    r"(?:short|pressed)\s+(?:of|for|on)\s+time|in\s+a\s+(?:hurry|rush)|"
    r"before\s+(?:we|i)\s+(?:have\s+to|gotta|got\s+to|need\s+to|must)\s+(?:leave|go)": "quick game",
    # How many can play: "seven at the table, can the game accommodate that many", "we are a big family"
    r"accommodate|(?:big|large)\s+(?:family|group|party|crowd)": "how many can play",
    # Leaving the table for a while: "had to take a phone call", "gone to the loo", "popped out"
    r"(?:(?:has|have|had|needs?|wants?)\s+to\s+)?(?:take|took|taking|takes|answer|answering)\s+(?:a\s+)?(?:phone\s+)?call|"
    r"phone\s+call|"
    # (not "went out", which is going out with the last card)
    r"(?:nip|nips|nipped|pop|pops|popped)\s+out|"
    r"(?:go|gone|went|goes|nip|nipped|pop|popped)\s+to\s+the\s+(?:loo|toilet|bathroom|door|shop|shops)|"
    r"called\s+away|step(?:s|ped)?\s+away": "player leaves",
    # "the heart cards", "the cards with hearts on one side and skulls on the other": the life cards by their faces
    r"(?:the\s+)?(?:(?:little|small|tiny|red)\s+)?(?:heart|hearts|skull|skulls)\s+cards?|(?:the\s+)?cards?\s+with\s+(?:the\s+|a\s+)?hearts?"
    r"(?:\s+on\s+(?:one|the\s+front|the\s+other|the\s+back|it|them)(?:\s+side)?)?": "the lives",
    r"(?:and\s+)?(?:the\s+)?skulls?\s+on\s+(?:the\s+)?(?:back|other(?:\s+side)?|reverse)": "the lives",
    # "turned over an alive card": a life lost; "all 5 of my alive cards": every life
    r"(?:turn|turns|turned|turning)\s+over\s+(?:a|an|one|my|his|her|their|your|ur)\s+(?:alive|life|heart)\s+cards?": (
        "lose a life"
    ),
    # "give up one of my lives", "surrender a heart", "hand in one of my alive cards": a life lost, however politely
    r"(?:give|gives|gave|giving|hand|hands|handed|surrender\w*|forfeit\w*|sacrific\w*)\s+(?:up\s+|in\s+|over\s+)?"
    r"(?:one\s+of\s+)?(?:my|his|her|their|your|ur|a|an)\s+(?:little\s+|small\s+|precious\s+)?"
    r"(?:alive\s+cards?|life\s+cards?|lives|life|hearts?)": "lose a life",
    r"all\s+(?:5|five)\s+of\s+(my|your|ur|his|her|their|our)\s+(?:alive\s+cards|life\s+cards|lives|hearts)": (
        r"all \1 lives"
    ),
    # Going out: "used all my cards", "played all her cards"
    r"(?:used|played|put\s+down|laid)\s+all\s+(?:of\s+)?(?:my|his|her|their|your|ur)\s+cards": "went out",
    # "has used up every card in her hand", "got rid of all his cards": the same
    r"(?:used\s+up|used|played|put\s+down|laid\s+down|got\s+rid\s+of|gotten\s+rid\s+of|run\s+out\s+of|ran\s+out\s+of)\s+"
    r"(?:every|each|all|all\s+of)\s+(?:(?:my|his|her|their|your|ur|the)\s+)?(?:single\s+)?cards?"
    r"(?:\s+(?:in|from)\s+(?:my|his|her|their|your|ur)\s+hand)?": "went out",
    # Bust ("i wanted to just take the hit and save the =10")
    r"take\s+(?:the|a)\s+hit": "take the bust",
    r"(?:went|gone)\s+over(?!\s+(?:21|20|the))|goes\s+over\s+the\s+top|over\s+the\s+(?:top|limit)|overshoot|overshot": (
        "go over 21"
    ),
    # "a card thats to big", "the one thats too high": one card that would take the total over 21 (one card: "my
    # cards are all too high" is a hand of numbers that go over, another ruling)
    r"(?<!\bare\s)(?:\bcard|\bnumber|\bone)\s+(?:that\s*s\s+|thats\s+|that\s+is\s+|is\s+|was\s+|s\s+)?"
    r"(?:way\s+|much\s+)?(?:too|to)\s+(?:big|high|much|large)\b(?!\s+(?:time|of|for\s+(?:me|us|him|her)))": (
        "card that would go over 21"
    ),
    # "i only have cards that go over 21", "if i have only cards what make more than 21", "all my cards would take it
    # past 21": a hand of only numbers that go over (one card that would go over is the line above)
    r"(?:only|all)\s+(?:(?:have|has|got|hold|holds)\s+)?(?:(?:my|his|her|the)\s+)?cards\s+(?:(?:that|which|what)\s+)?"
    r"(?:would\s+|will\s+|all\s+)?(?:go|goes|take|takes|make|makes|bring|brings|put|puts|are)\s+"
    r"(?:it\s+|the\s+total\s+|me\s+|us\s+)?(?:over|above|more\s+than|past|beyond)\s+21": "only high cards",
    # "all i got is a 5 and 2 sixes", "nothing but sevens": only those cards in hand
    r"all\s+(?:i|he|she|they|we|you|u)\s+(?:have|has|had|got|hold|holds)\s+(?:is|are|was|were)|nothing\s+but": (
        "only have"
    ),
    # "grandma has to go", "Bob must leave now", "my kid went to bed": someone leaving the table. "Who has to go
    # first/now/next" and "cant go" are about turns, so "go" counts only at a sentence's end or before a place or "now";
    # "leave" counts unless a card follows it ("leave his cards", "leave it on the pile").
    r"(?<!\bwho\s)(?:(?:has|have|had|needs?|wants?)\s+to|must|gotta)\s+go(?=\W*$|\W+(?:home|now|early|to\s+(?:bed|sleep)|"
    r"mid|in\s+the\s+middle|during|before\s+the\s+end|what|so|but|do|can|should))": "player leaves",
    r"(?:(?:has|have|had|needs?|wants?)\s+to|must|gotta)\s+leave(?!\s+(?:it|them|a|an|his|her|their|my|your|our|"
    r"cards?|the\s+(?:card|cards|\d+|pile)))\b": "player leaves",
    r"(?:went|goes|going|gone)\s+(?:home|to\s+(?:bed|sleep))": "player leaves",
    # "Tom's legged it to football": someone leaving the table (British)
    r"(?:legged|legs|leg)\s+it": "player leaves",
    # "a draw to card", "plus to" (a Draw 2 as a phone hears it)
    r"(draw|plus)\s+(?:to|too)(?=\s+(?:card|and|on|as|when|if|does|do|is|can)\b|\s*[?.!]*\s*$)": r"\1 2",
    # "picks up too cards", "take to cards": two cards, as a dictating phone hears it
    r"(pick(?:s|ed|ing)?\s+up|take|takes|took|draw|draws|drew|put|puts|play|plays|played|down)\s+"
    r"(?:to|too)(?=\s+cards\b)": r"\1 2",
    # "one of my a live cards": the ALIVE cards, dictated as two words
    r"a\s+live(?=\s+(?:cards?|ones?)\b)": "alive",
    # "who kicks off round 2": who starts
    r"kick(?:s|ed|ing)?\s+off": "start",
    # Undo: the app's step back said another way
    r"rewind|back\s+button|go\s+back\s+a\s+step": "undo",
    # A mis-tap: the words people use for doing something they did not mean to
    r"accidentally|accidentaly|accidently|by\s+accident|mistakenly|misclicked|misclick|mistapped|mistap|"
    r"mis[\s-]+(?:clicked|click|tapped|tap|pressed|press)|fat[\s-]*fingered|fat[\s-]*finger": "by mistake",
}

PLAYER_WORDS: Mapping[str, str] = {
    **{r"[\s-]*".join(words.split()): figure for words, figure in NUMBER_WORDS.items()},
    **CARD_WORDS,
}
"""Every phrase of the table (a whole-word pattern) and the rulebook's words it stands for."""


def _whole_words(pattern: str) -> re.Pattern[str]:
    """A pattern that matches whole words only (not inside "=10" or "+2")."""
    return re.compile(rf"(?<![\w=+])(?:{pattern})(?![\w])")


# The number words are one pattern read through a lookup: a pass over the text for each would cost more than all the
# rest of the table. The card words are tried one by one, in the table's order.
_NUMBER = _whole_words("|".join(r"[\s-]*".join(words.split()) for words in sorted(NUMBER_WORDS, key=len, reverse=True)))
_FIGURES = {words.replace(" ", ""): figure for words, figure in NUMBER_WORDS.items()}
_CARDS = tuple((_whole_words(pattern), words) for pattern, words in CARD_WORDS.items())


_SPACING = re.compile(r"[\s-]")


def _figure(found: re.Match[str]) -> str:
    """A number word's figure, spaced apart from its neighbours."""
    return " " + _FIGURES[_SPACING.sub("", found.group(0))] + " "


def player_words(text: str) -> str:
    """Rewrite the players' words for cards, lives and numbers in folded `text` into the rulebook's words."""
    text = name_described_cards(_NUMBER.sub(_figure, text))
    for pattern, words in _CARDS:
        text = pattern.sub(f" {words} ", text)
    return text


def known_words() -> set[str]:
    """The words of the table's phrases, which the typo fixer must leave alone (or "nought" would become "not")."""
    found: set[str] = cue_words()
    for pattern in PLAYER_WORDS:
        plain = re.sub(r"\\[a-zA-Z]", " ", pattern)
        found.update(re.findall(r"[a-z]{3,}", plain))
        for word, endings in re.findall(r"([a-z]{3,})\(\?:([a-z|]+)\)", plain):
            found.update(word + ending for ending in endings.split("|"))
    return found
