"""What a rematch's boards say the host changed, for each kind of change (pages/rematch.py's words)."""

from __future__ import annotations

import pytest

from referee.engine import Setup, make_setup
from referee.web.rematchnote import changes

FOUR = ("Ann", "Bob", "Cy", "Dee")


def setup(**fields: object) -> Setup:
    return make_setup(FOUR, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("old", "new", "note", "started"),
    [
        # Seats swapped (the API takes the players in a new order): the table must sit as the app plays.
        (
            setup(),
            make_setup(("Cy", "Ann", "Bob", "Dee")),
            "New game. Changed by the host: new seats, in the order of play: Cy, Ann, Bob, Dee; Cy starts.",
            "A rematch has started, changed by the host: new seats, Cy starts.",
        ),
        # Someone not playing leaves a gap, not a new order; a newcomer sits at the end.
        (
            setup(),
            make_setup(("Ann", "Cy", "Dee", "Eve")),
            "New game. Bob is not playing; Eve joins the game.",
            "A rematch has started without Bob, with Eve.",
        ),
        (
            setup(),
            setup(variant="sudden_death"),
            "New game. Changed by the host: a Sudden Death game (it ends as soon as a player loses their last life).",
            "A rematch has started, changed by the host: a Sudden Death game.",
        ),
        (
            make_setup((*FOUR, "Eve"), "teams"),  # Ann, Cy and Eve against Bob and Dee
            make_setup((*FOUR, "Eve"), "teams", [["Bob", "Dee", "Eve"], ["Ann", "Cy"]]),
            "New game. Changed by the host: new teams: Bob, Dee and Eve (Team A) against Ann and Cy (Team B).",
            "A rematch has started, changed by the host: new teams.",
        ),
        # The same pairs under swapped names is the same game.
        (
            setup(variant="teams"),
            setup(variant="teams", teams=[["Bob", "Dee"], ["Ann", "Cy"]]),
            None,
            "A rematch has started with the same settings.",
        ),
        (
            setup(variant="teams", first_player="Bob"),
            setup(house_rules={"empty_draw_pile": "stop", "bomb_last_card": "round_only"}),
            "New game. Changed by the host: Ann starts; a Standard game (the last player with a life wins); "
            "a Bomb as someone's last card only ends the round (nobody answers it); "
            "once the draw pile is empty, nobody draws for the rest of the round.",
            "A rematch has started, changed by the host: Ann starts, a Standard game, 2 house rules.",
        ),
        # A team question changed, then the host went back to Standard (the form hides it): nothing to say.
        (
            setup(),
            setup(house_rules={"bomb_teammates": "opponents_only"}),
            None,
            "A rematch has started with the same settings.",
        ),
        # The usual starter picked again (the first seat, by name this time) is no change.
        (setup(), setup(first_player="Ann"), None, "A rematch has started with the same settings."),
    ],
)
def test_each_change_is_said_in_plain_words(old: Setup, new: Setup, note: str | None, started: str) -> None:
    said = changes(old, new)
    assert (said.note(), said.started()) == (note, started)
