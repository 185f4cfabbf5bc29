"""A card told by what it shows or does, named: "the card with the hand held up that makes the next person miss their
turn" is the Skip, "the card that gathers up everybody's hands" the Re-deal.

People who do not know a card's name describe it, and each describes it in their own way; a phrase for every
description would never end. So a description is read as a whole: it opens with "the card" or "the one" followed by
"that", "which", "with", "marked", "showing" ... and runs to the end of its clause (a comma, a full stop, or the verb
of the sentence: "... is played", "... had turned us round"). Each card has a few cues, the things any description of
it must mention: the Bomb's bomb, the Skip's raised hand or missed turn, the Reverse's arrows or direction, a number
with a plus or an equals sign, the Re-deal's hands gathered in. The card with the most cues in the description, if
one has more than any other, names it; the description is replaced by the card's name in the rulebook's words.

Runs on folded, typo-fixed text with number words in figures (`synonyms.player_words`), on questions only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

_RELATIVE = (
    r"(?:(?:that|which)\s+(?:says|has|shows)|that|which|where|whose|with|having|showing|bearing|marked|labelled|labeled|"
    r"saying)\b"
)
_OPENING = re.compile(
    r"\b(?:the|a|an|that|this|those|these)\s+(?:(?:little|small|big|special|funny|odd)\s+)?"
    rf"(?:cards?\s+{_RELATIVE}|ones?\s+{_RELATIVE}"
    # (not "the one that played the bomb", a person: the bomber)
    r"(?!\s+(?:play|plays|played|put|puts|threw|throws|laid|lays|dropped|drops|went|goes|won|wins|lost|loses|is|was)\b))"
)
"""Where a description begins: "the card that", "the one with", "those cards showing"."""

_CLAUSE_END = re.compile(
    r"[,.;:?!]|\s(?:is|was|were|are|has|had|have|gets|got|goes|went|comes|came|do|does|did|can|could|may|might|must|"
    r"should|will|would|shall|as|when|whenever|if|because|but|so|then|now)\b"
)
"""Where a description ends: a mark, or the verb or conjunction of the sentence around it."""

_MOST_DESCRIPTIONS = 4
"""A question describes a card or two; a text of many more openings ("the card that the card that ...") is not read
further, so that each question costs the same few cue searches (about a millisecond at most)."""

_WORDS = re.compile(r"(?:\s*\S+){0,14}")
"""A description is at most fourteen words (it then ends anyway)."""


def _set_to(number: str) -> tuple[str, ...]:
    """The cues of an Equals card: its sign and its number, or what it does to the total."""
    return (
        rf"(?:equals?|=)\s*(?:sign\s+)?(?:and\s+)?(?:a\s+|an\s+|the\s+|big\s+)*{number}\b",
        rf"\b{number}\s+and\s+(?:an?\s+|the\s+)?(?:big\s+)?(?:equals?|=)",
        rf"(?:count|total|sum|score|number)\s+(?:back\s+)?(?:down\s+|up\s+)?(?:to|on|at)\s+{number}\b",
        # "the card that makes the count 21": what it does, said without "to"
        rf"(?:make|makes|made|making)\s+(?:the\s+|it\s+)?(?:count|total|sum|score)?\s*(?:into\s+|exactly\s+)?{number}\b",
    )


_FROM_PILE = r"(?:from|off|out\s+of)\s+(?:the\s+)?(?:stock|pile|deck|pack|draw\s*pile)"
"""Where a Draw card's cards come from: a cue of each Draw card, so that a number said tells which."""

CARD_CUES: Mapping[str, tuple[str, ...]] = {
    "bomb": (r"bomb\w*", r"explo\w+", r"black", r"boom", r"blow\w*\s+up", r"fuse", r"dynamite"),
    "skip": (
        r"skip\w*",
        r"miss(?:es)?\s+(?:a\s+|their\s+|his\s+|her\s+|your\s+|the\s+|next\s+)?(?:turn|go)",
        r"lose\w*\s+(?:a|their|his|her|your)\s+(?:turn|go)",
        r"hand\s+(?:held\s+)?up|raised\s+hand|palm",
        r"stop\w*",
        r"jump\w*",
        # the picture on the card: an arrow jumping over a little figure
        r"(?:little|small|tiny|stick)\s+(?:figure|man|person|guy|fellow|player)|figure",
        r"arrow\w*\s+(?:\w+\s+)?over\b",
    ),
    "reverse": (
        r"arrows?",
        r"direction",
        r"backwards?",
        r"revers\w*",
        r"other\s+way",
        r"u[\s-]?turn",
        r"turn\w*\s+(?:us|play|it|things|everything|the\s+game)\s+(?:round|around|back)",
    ),
    "+1": (
        r"(?:take|takes|pick|picks|draw|draws|get|gets)\s+(?:up\s+)?(?:1|one|a)\s+(?:card|more|extra)",
        r"(?:plus|\+)\s*(?:sign\s+)?(?:and\s+)?(?:a\s+|an\s+|the\s+)?(?:1|one)\b",
        r"\b1\s+and\s+(?:a\s+|the\s+)?(?:plus|\+)",
        _FROM_PILE,
    ),
    "+2": (
        r"(?:take|takes|pick|picks|draw|draws|get|gets)\s+(?:up\s+)?(?:2|two)\b",
        r"(?:plus|\+)\s*(?:sign\s+)?(?:and\s+)?(?:a\s+|an\s+|the\s+)?(?:2|two)\b",
        r"\b2\s+and\s+(?:a\s+|the\s+)?(?:plus|\+)",
        _FROM_PILE,
    ),
    # A Draw card told without its number: "the card that makes everyone else take more cards from the pile".
    "draw": (
        r"(?:fresh|more|extra|new|additional|further)\s+cards",
        _FROM_PILE,
    ),
    "redeal": (
        r"(?:gather|collect|hand|give|take|swap|shuffle|mix|pass|put)\w*\s+(?:up\s+|in\s+|back\s+)?(?:all\s+)?"
        r"(?:of\s+)?(?:[\w']+\s+)?(?:hands|cards)(?:\s+in)?",
        r"deal\w*\s+(?:out\s+)?(?:again|afresh|anew)",
        r"re[\s-]?deal\w*",
        r"hand\s+in\b",
        r"new\s+hands",
        # "everybody's cards gathered and shared out again": the hands told first, then what happens to them
        r"(?:hands|cards)\s+(?:\w+\s+)?(?:gathered|collected|handed\s+in|shuffled|swapped|mixed)",
        r"(?:share|shares|shared|sharing)\s+(?:\w+\s+)?(?:out\s+)?(?:again|afresh|anew)",
    ),
    "pass me by": (
        r"pass(?:\s+me\s+by)?\b(?!\s+(?:their|the|all|in|on|out|our|your|his|her|everyone|everybody))",
        r"let\w*\s+(?:you|me|them|him|her)\s+off",
    ),
    **{f"={number}": _set_to(number) for number in ("21", "10", "0")},
}
"""Each wild card's name in the rulebook's words, with the cues that a description of it mentions."""

_CUES = {card: tuple(re.compile(rf"(?<![\w=+])(?:{cue})") for cue in cues) for card, cues in CARD_CUES.items()}


def described_card(description: str) -> tuple[str, int] | None:
    """The card a description names, with where its last cue ends: the card with the most cues in the description, if
    no other has as many (None: no card)."""
    found = []
    for card, cues in _CUES.items():
        ends = [match.end() for cue in cues for match in cue.finditer(description)]
        count = sum(1 for cue in cues if cue.search(description))
        found.append((count, max(ends, default=0), card))
    found.sort(reverse=True)
    (best, end, card), (second, _, _) = found[0], found[1]
    return (card, end) if best > second else None


def name_described_cards(text: str) -> str:
    """Replace each description of a card in folded `text` by the card's name ("the card with the arrows" -> "the
    reverse card"), up to its last cue ("the card that puts the count back to 0 at any time": "the =0 card at any
    time"); a description that names no card, or two as much as each other, stays as it was."""
    return scan_descriptions(
        text, _OPENING, _WORDS, _CLAUSE_END, described_card, lambda card: f" the {card} card ", keep_description=False
    )


def scan_descriptions(
    text: str,
    openings: re.Pattern[str],
    region_words: re.Pattern[str],
    region_end: re.Pattern[str],
    describe: Callable[[str], tuple[str, int] | None],
    say_card: Callable[[str], str],
    *,
    keep_description: bool,
) -> str:
    """Put the card each description in `text` names where the description is (or after it, if
    `keep_description`), up to its last cue: each opening's region, at most `region_words` long and cut at
    `region_end`, is read by `describe` (the card and where its last cue ends, or None). Every language reads its
    descriptions with this one scan; only the openings, the cues and the wording differ."""
    pieces: list[str] = []
    at = 0
    for tried, opening in enumerate(openings.finditer(text)):
        if tried == _MOST_DESCRIPTIONS:
            break
        if opening.start() < at:
            continue
        rest = text[opening.end() :]
        words = region_words.match(rest)
        region = rest[: words.end()] if words else rest
        end = region_end.search(region)
        named = describe(region[: end.start()] if end else region)
        if named is None:
            continue
        card, last_cue = named
        pieces.append(text[at : opening.end() + last_cue if keep_description else opening.start()])
        pieces.append(say_card(card))
        at = opening.end() + last_cue
    pieces.append(text[at:])
    return "".join(pieces)


def cue_words() -> set[str]:
    """The whole words of the cues and of a description's opening, which the typo fixer must leave alone (or "black"
    would become "back", "bearing" "hearing"); not the stems of a cue ("revers" in "revers\\w*"), which are no
    words."""
    found: set[str] = set(re.findall(r"[a-z]{3,}", _RELATIVE))
    for cues in CARD_CUES.values():
        for cue in cues:
            plain = re.sub(r"\\[a-zA-Z]", " ", re.sub(r"[a-z]+\\w[*+]", " ", cue))
            found.update(re.findall(r"[a-z]{3,}", plain))
    return found
