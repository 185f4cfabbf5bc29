"""Whose phone this is, "Your turn", and what just happened on every phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import join, tap, wait_live

# Counts the phone's vibrations (navigator.vibrate is what the page calls; test-only).
COUNT_VIBRATIONS = "window.__buzz = 0; navigator.vibrate = function () { window.__buzz += 1; return true; };"


def whoami(page: Page) -> str:
    return page.locator("#strip .me").inner_text()


@pytest.mark.browser
def test_each_phone_says_whose_it_is_and_cues_its_players_turn(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    link = server.local(table["join_url"])
    ann, bob, scorer = phones.new(), phones.new(), phones.new()
    for phone in (ann, bob):
        phone.context.add_init_script(COUNT_VIBRATIONS)
    join(ann, link, "Ann")
    join(bob, link, "Bob")
    join(scorer, link, "Keeping score (not playing)")
    for phone in (ann, bob, scorer):
        wait_live(phone)
    assert whoami(ann) == "You're Ann"
    assert whoami(bob) == "You're Bob"
    assert whoami(scorer) == "You're keeping score"
    expect(ann.locator("#strip .your-turn-cue")).to_have_text("Your turn!")
    expect(bob.locator("#strip .your-turn-cue")).to_have_count(0)
    # Entering for someone else stays possible, and the pad says for whom.
    expect(bob.locator(".pad-title")).to_contain_text("you're entering it for Ann")
    expect(ann.locator(".pad-title .for-whom")).to_have_count(0)

    tap(ann, "3")
    # Bob's phone turns to "Your turn!" live and buzzes once; Ann's stops.
    expect(bob.locator("#strip .your-turn-cue")).to_have_text("Your turn!")
    expect(bob.locator("#board")).to_have_class("board your-turn")
    expect(ann.locator("#strip .your-turn-cue")).to_have_count(0)
    assert bob.evaluate("window.__buzz") == 1
    assert ann.evaluate("window.__buzz") == 0

    # The sound is off unless this phone turns it on, and the choice is remembered across reloads.
    toggle = bob.get_by_role("button", name='"Your turn" sound: off')
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(bob.get_by_role("button", name='"Your turn" sound: on')).to_have_attribute("aria-pressed", "true")
    bob.reload()
    expect(bob.get_by_role("button", name='"Your turn" sound: on')).to_be_visible()
    expect(ann.get_by_role("button", name='"Your turn" sound: off')).to_be_visible()


@pytest.mark.browser
def test_after_a_bomb_every_phone_says_what_happened_and_the_losers_are_told(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    link = server.local(table["join_url"])
    ann, bob, cy, watcher = phones.new(), phones.new(), phones.new(), phones.new()
    for phone, who in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy"), (watcher, "Just watching")):
        join(phone, link, who)
        wait_live(phone)
    expect(ann.locator("#strip .just-happened")).to_have_count(0)  # nothing yet

    server.act(code, token, type="play", player="Ann", card="bomb", zeros=["Cy"])
    for phone in (ann, bob, cy, watcher):
        strip = phone.locator("#strip .just-happened")
        expect(strip).to_contain_text("Ann played Bomb")
        # Bob's lost life as a broken heart, named for a screen reader.
        expect(strip.get_by_role("img", name="Bob lost a life", exact=True).locator("svg")).to_have_count(1)
        expect(strip.locator(".loss")).to_have_count(1)
    expect(bob.get_by_role("alert")).to_have_text("You lost a life! 4 lives left.")
    for phone in (ann, cy, watcher):
        expect(phone.locator(".you-lost")).to_have_count(0)

    # The next card replaces the strip's line, and Bob's alert goes.
    server.act(code, token, type="play", player=server.state(code)["current"], card="2")
    expect(bob.locator("#strip .just-happened")).to_contain_text("played 2")
    expect(bob.locator(".you-lost")).to_have_count(0)
