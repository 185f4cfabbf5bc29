"""The host's phone is one of the players: Gran starts the table, taps "I'm Gran", and her phone cues her turn."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Phones, Server
from .table import TABLE_URL, expect_version, join, start_in_lobby, tap, wait_live


@pytest.mark.browser
def test_gran_starts_the_table_says_she_is_gran_and_gets_her_turn(server: Server, phones: Phones) -> None:
    gran = phones.new()
    code = start_in_lobby(gran, server.url, ["Gran", "Max", "Lily"])
    expect(gran.get_by_role("heading", name="Which one is you?")).to_be_visible()
    seats = gran.locator("#seats .seat-ticks li")
    expect(seats.first).to_contain_text("Gran waiting for a phone")
    gran.get_by_role("button", name="I'm Gran", exact=True).click()
    expect(seats.first).to_contain_text("Gran has joined")
    expect(gran.get_by_role("heading", name="Which one is you?")).to_have_count(0)
    expect(gran.locator("#seats")).to_contain_text("This phone is Gran's (and the host's).")
    wait_live(gran)

    # The others scan the code; Gran's lobby ticks them live and then says everyone's in.
    link = server.local(gran.locator("a.join-link").first.inner_text())
    max_phone, lily = phones.new(), phones.new()
    join(max_phone, link, "Max")
    join(lily, link, "Lily")
    start = gran.get_by_role("link", name="Everyone's in — start")
    expect(start).to_be_visible(timeout=5000)
    start.click()
    gran.wait_for_url(TABLE_URL)
    wait_live(gran)

    strip = gran.locator("#strip")
    expect(strip.locator(".me")).to_have_text("You're Gran")
    expect(strip.locator(".your-turn-cue")).to_have_text("Your turn!")
    tap(gran, "3")
    expect(strip.locator(".your-turn-cue")).to_have_count(0)
    for phone in (max_phone, lily):
        wait_live(phone)
    # Each phone shows the card before it taps (tap() counts from the version its board shows: under load the live
    # update could arrive after it was read, and the count was one short).
    expect_version(max_phone, 1)
    tap(max_phone, "2")
    expect_version(lily, 2)
    tap(lily, "1")
    # Back round to Gran: her phone cues her turn live, as any player's phone does.
    expect(strip.locator(".your-turn-cue")).to_have_text("Your turn!")
    expect(gran.locator("#board")).to_have_class("board your-turn")
    # She is still the host: the phones at the table are hers to manage.
    expect(gran.locator("#join ul.devices")).to_contain_text("Gran's phone (this phone)")
    assert server.state(code)["total"] == 6
