"""The State carries deck sanity warnings (an optional field); a warning never refuses, undo clears it."""

from __future__ import annotations

from conftest import Api


def test_a_second_7_is_accepted_and_the_state_warns(api: Api) -> None:
    api.create(["Ann", "Bob", "Cy"])
    state = api.act(type="play", player="Ann", card="7")
    assert state["warnings"] == []
    state = api.act(type="play", player="Bob", card="7")  # accepted: 200, the turn moves on
    assert state["total"] == 14 and state["current"] == "Cy"
    assert state["warnings"] == [
        {
            "code": "card_count",
            "message": "The deck has only one 7, already played since the shuffle — was that really a 7? Undo if not.",
            "rule": "card-count-warning",
            "card": "7",
        }
    ]
    state = api.act(type="undo")
    assert state["warnings"] == [] and state["total"] == 7
