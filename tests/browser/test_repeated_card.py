"""A late second tap: Ann's phone enters Bob's 3 for him, and Bob's own phone taps its 3 a moment later, by then on
Cy's turn. Past the pad's one-second rest, the 3 would go in again as Cy's: the phone asks first, and "No" enters
nothing."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .conftest import Phones, Server
from .table import card, expect_version, tap, total, version

QUESTION = "Bob's 3 is already in. Enter a 3 for Cy too?"


@pytest.mark.browser
@pytest.mark.parametrize("late_s", [1.3, 2.0, 3.0])
def test_a_late_tap_for_the_next_player_is_asked_about_and_no_enters_nothing(
    server: Server, phones: Phones, late_s: float
) -> None:
    table = server.create_table(["Ann", "Bob", "Cy", "Dee"])
    code, token = table["code"], table["token"]
    server.act(code, token, type="play", player="Ann", card="7")
    ann = phones.seated(server, table, "Ann")
    bob = phones.seated(server, table, "Bob")
    expect_version(bob, 1)
    tap(ann, "3")  # Ann's phone enters Bob's 3 for him
    entered = time.monotonic()
    expect_version(bob, 2)
    bob.wait_for_timeout(max(0, (late_s - (time.monotonic() - entered)) * 1000))
    assert time.monotonic() - entered < late_s + 0.4, "the tap came later than meant"
    card(bob, "3").click()  # Bob's finger, a moment late: the pad now offers Cy's turn
    question = bob.get_by_role("alert").filter(has_text=QUESTION)
    expect(question).to_be_visible()
    assert server.state(code)["version"] == 2  # nothing entered while it asks
    question.get_by_role("link", name="No", exact=True).click()
    expect(question).to_have_count(0)
    expect(total(bob)).to_have_text("10")
    assert (server.state(code)["version"], version(bob)) == (2, 2)


@pytest.mark.browser
def test_yes_enters_the_card_for_the_next_player(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy", "Dee"])
    code, token = table["code"], table["token"]
    server.act(code, token, type="play", player="Ann", card="7")
    ann = phones.seated(server, table, "Ann")
    bob = phones.seated(server, table, "Bob")
    tap(ann, "3")
    expect_version(bob, 2)
    bob.wait_for_timeout(1300)
    card(bob, "3").click()
    question = bob.get_by_role("alert").filter(has_text=QUESTION)
    question.get_by_role("button", name="Yes, enter Cy's 3", exact=True).click()
    expect(total(bob)).to_have_text("13")
    expect(question).to_have_count(0)
    state = server.state(code)
    assert (state["version"], state["current"]) == (3, "Dee")
