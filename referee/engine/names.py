"""What a player's name may hold: one way to write it (NFKC), no hidden or blank characters, and no two names at a
table that look alike (a confusables skeleton in the spirit of Unicode TR39)."""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from functools import lru_cache

from confusable_homoglyphs import confusables

# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, Unicode 14.0, the version Python
# 3.11's unicodedata carries): characters a font draws as nothing, so "Ann" and "Ann" + U+034F look the same and
# U+3164 alone is a blank name. unicodedata has no such property, so its ranges are written out here.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space, non-joiner and joiner; left-to-right and right-to-left marks
    (0x202A, 0x202E),  # bidirectional embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidirectional isolates, deprecated format characters
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1 to 16
    (0xFEFF, 0xFEFF),  # zero-width no-break space (byte order mark)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical beams, ties, slurs and phrases
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17 to 256, reserved
)
_IGNORABLE_STARTS = tuple(start for start, _ in DEFAULT_IGNORABLE)

# Not Default_Ignorable, and not spaces to str.split, yet drawn as an empty box of space: a name of them looks blank.
BLANK = frozenset(
    {
        "\u2800",  # Braille pattern blank
        "\U00016fe4",  # Khitan small script filler
        "\U0001d159",  # musical symbol null notehead
    }
)

# Invisible or control characters by category: unassigned, private use, surrogates, formats, line separators.
_HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
# The joiner inside emoji such as a cook (woman + joiner + frying pan) is invisible but not hiding anything there:
# allowed between an emoji (or its skin tone or emoji-style selector) and the next emoji ("👩‍🍳 Mum" is a name).
EMOJI_JOINER = "\u200d"
_JOINS_AFTER = {"So", "Sk"}
# The text-style and emoji-style selectors (VS15, VS16) choose how a symbol is drawn ("❤️", "🏳️‍🌈"), and a digit,
# # or * followed by U+20E3 is a keycap ("1️⃣"). Anywhere else they draw nothing.
EMOJI_STYLES = frozenset({"\ufe0e", "\ufe0f"})
_KEYCAP = "\u20e3"
_KEYCAP_BASES = frozenset("0123456789#*")


def is_default_ignorable(ch: str) -> bool:
    """True if `ch` has Unicode's Default_Ignorable_Code_Point property."""
    point = ord(ch)
    at = bisect_right(_IGNORABLE_STARTS, point) - 1
    return at >= 0 and point <= DEFAULT_IGNORABLE[at][1]


def _styles_a_symbol(name: str, index: int) -> bool:
    """True if the selector at `index` chooses how the symbol before it is drawn (an emoji, or a keycap's digit)."""
    if index == 0:
        return False
    before = name[index - 1]
    if unicodedata.category(before).startswith("S"):
        return True
    return before in _KEYCAP_BASES and name[index + 1 : index + 2] == _KEYCAP


def hidden_at(name: str, index: int) -> bool:
    """True if the character at `index` is invisible, blank or a control character where it stands."""
    ch = name[index]
    if ch == EMOJI_JOINER and 0 < index < len(name) - 1:
        before, after = name[index - 1], name[index + 1]
        joins = unicodedata.category(before) in _JOINS_AFTER or before in EMOJI_STYLES
        return not (joins and unicodedata.category(after) == "So")
    if ch in EMOJI_STYLES:
        return not _styles_a_symbol(name, index)
    return unicodedata.category(ch) in _HIDDEN_CATEGORIES or is_default_ignorable(ch) or ch in BLANK


@lru_cache(maxsize=4096)
def _homoglyphs(ch: str) -> tuple[str, ...]:
    """The characters (or strings) Unicode's confusables data says `ch` can be mistaken for."""
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=[])
    if not found:
        return ()
    return tuple(glyph["c"] for item in found for glyph in item["homoglyphs"])


@lru_cache(maxsize=4096)
def _prototype(ch: str) -> str:
    """What `ch` stands for in a skeleton: the one string of its look-alike group that the group is matched by.

    Unicode's confusables.txt maps each character to a prototype (Cyrillic "а" to "a", "1" and "I" to "l", "m" to
    "rn"); confusable_homoglyphs lists a prototype's whole group under the prototype and only the prototype under
    each other member. So a character with several look-alikes is the prototype, one with one look-alike that has
    several is a member of that one's group, and of a pair either could be: the longer one (a prototype may be
    two letters, a source is always one), else the smaller, so both members of a pair give the same answer.
    """
    glyphs = _homoglyphs(ch)
    if len(glyphs) != 1:
        return ch
    (other,) = glyphs
    if len(other) > 1 or len(_homoglyphs(other)) > 1:
        return other
    return min(ch, other, key=lambda text: (-len(text), text))


def skeleton(name: str) -> str:
    """`name` as Unicode TR39's skeleton: decomposed, default-ignorables removed, each character its prototype."""
    decomposed = unicodedata.normalize("NFD", name)
    mapped = "".join(_prototype(ch) for ch in decomposed if not is_default_ignorable(ch))
    return unicodedata.normalize("NFD", mapped)


def look_alike_keys(name: str) -> tuple[str, str]:
    """What two names share when they look alike: the skeleton as typed ("AI" is "Al"), or that of the case-folded
    name (names that differ only in case are one player already, so Cyrillic "АNN" is as much "ann" as "ANN" is).
    Each is compared with the same kind only: "Iin" as typed is "lin", but it does not look like "Lin"."""
    return ("typed:" + skeleton(name), "folded:" + skeleton(name.casefold()))
