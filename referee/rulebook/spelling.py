"""Typos fixed word by word against the words the rulebook uses: a slip of the finger on a phone's keyboard, a
letter left out or doubled, a word spelt as it sounds; a real word is never "fixed" into another."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from .text import WORD, fold, stem


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
    first_letter: bool = True
    """Never add or drop a word's first letter ("age" is not "page", "belle" not "elle"); one put for another, a
    likely slip, may still be fixed ("eldest" is "oldest")."""

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
            if self.first_letter and candidate[0] != word[0] and len(candidate) != len(word):
                continue
            key = (distance, -self.counts[candidate], candidate)
            if best is None or key < best:
                best = key
        if best is None:
            return self._th_for(word) or word
        return best[2]

    def _th_for(self, word: str) -> str | None:
        """The vocabulary word that `word` spells with an f or a v where "th" is said ("anyfing", "wiv", "bruvver"), as
        children and some accents say it; None if there is none. (Two edits away, out of the edit distance's reach.)"""
        for at, letter in enumerate(word):
            if letter in "fv":
                spoken = word[:at] + "th" + word[at + 1 :]
                if spoken in self.counts:
                    return spoken
        return None

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
