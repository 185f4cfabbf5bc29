"""Turn order in one place: who sits next in a direction, skipping seats already out of the game.

Pure functions over the seats' out flags, a seat and a direction, so the state, the reducer, Bomb
targets, draws and re-deals all walk the table the same way (boardgame.io keeps its turn order in
one module for the same reason).
"""

from __future__ import annotations

from collections.abc import Sequence

CLOCKWISE = 1
"""To the left: the next name in the seat list (1994 rules: "play proceeds clockwise")."""
COUNTERCLOCKWISE = -1
"""To the right, after a Reverse."""


def next_seat(out: Sequence[bool], seat: int, direction: int) -> int:
    """Return the first seat after `seat` in `direction` that is still in; `seat` itself if nobody else is."""
    count = len(out)
    for offset in range(1, count + 1):
        candidate = (seat + direction * offset) % count
        if not out[candidate]:
            return candidate
    return seat


def seats_after(out: Sequence[bool], start: int, direction: int) -> tuple[int, ...]:
    """Return every seat still in after `start`, in `direction`, once each; `start` itself left out."""
    count = len(out)
    return tuple(
        candidate
        for candidate in ((start + direction * offset) % count for offset in range(1, count))
        if not out[candidate]
    )
