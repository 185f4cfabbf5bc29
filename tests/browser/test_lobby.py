"""The lobby comes first — big QR, code, link, seats ticking live, then start."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Phones, Server
from .table import LOBBY_URL, TABLE_URL, card, join, start_in_lobby, wait_live


@pytest.mark.browser
def test_the_host_gathers_the_phones_in_the_lobby_then_starts(server: Server, phones: Phones) -> None:
    host = phones.new()
    host.goto(server.url + "/")
    for index, name in enumerate(["Ann", "Bob"]):
        host.locator(f"#name-{index}").fill(name)
    host.get_by_role("button", name="Start the table").click()
    host.wait_for_url(LOBBY_URL)
    expect(host.get_by_role("heading", name="Gather the phones", level=1)).to_be_visible()
    qr = host.get_by_role("img", name="QR code to join this table")
    expect(qr).to_be_visible()
    assert (qr.bounding_box() or {"width": 0})["width"] >= 250  # big enough to scan across the table
    code = host.url.split("/t/")[1].split("/")[0]
    expect(host.locator(".lobby-code .code")).to_have_text(code)
    link = host.locator("a.join-link").inner_text()
    assert f"/j/{code}/" in link
    seats = host.locator("#seats .seat-ticks li")
    expect(seats).to_have_count(2)
    expect(seats.first).to_contain_text("Ann waiting for a phone")
    expect(seats.nth(1)).to_contain_text("Bob waiting for a phone")
    expect(host.get_by_role("link", name="Start without waiting")).to_be_visible()
    wait_live(host)

    # Seats tick live as phones pick them; once all are in, the start button says so.
    ann, bob = phones.new(), phones.new()
    join(ann, server.local(link), "Ann")
    expect(seats.first).to_contain_text("Ann has joined", timeout=3000)
    expect(seats.nth(1)).to_contain_text("Bob waiting for a phone")
    join(bob, server.local(link), "Bob")
    start = host.get_by_role("link", name="Everyone's in — start")
    expect(start).to_be_visible(timeout=3000)
    start.click()
    host.wait_for_url(TABLE_URL)
    expect(card(host, "7")).to_be_enabled()

    # Afterwards the QR code is one tap from the table header.
    host.locator("header").get_by_role("link", name="QR code").click()
    expect(host.locator("#qr-full")).to_be_visible()
    expect(host.locator("#qr-full").get_by_role("img", name="QR code to join this table")).to_be_visible()


@pytest.mark.browser
def test_a_joined_player_opening_the_lobby_goes_to_the_table(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob"])
    code = table["code"]
    watcher = phones.new()
    join(watcher, server.local(table["join_url"]), "Just watching")
    watcher.goto(f"{server.url}/t/{code}/lobby")
    watcher.wait_for_url(TABLE_URL)


@pytest.mark.browser
def test_a_keyboard_keeps_its_place_in_the_lobby_while_the_list_refreshes(server: Server, phones: Phones) -> None:
    """The lobby's list redraws every 5 s: focus on "I'm Ann" must stay, not fall to the page's top each time."""
    host = phones.new()
    start_in_lobby(host, server.url, ["Ann", "Bob", "Cy"])
    ann = host.get_by_role("button", name="I'm Ann")
    ann.focus()
    host.evaluate("document.getElementById('seats-title').dataset.before = 'the old list'")
    # The list is redrawn (it loses the mark), and the same player's button has the focus again.
    expect(host.locator("#seats-title:not([data-before])")).to_be_attached(timeout=8000)
    expect(ann).to_be_focused()
    # A seat taken meanwhile redraws the list too: still Ann's button, not whichever button took its place.
    bob = phones.new()
    join(bob, server.local(host.locator("a.join-link").inner_text()), "Bob")
    expect(host.locator("#seats .seat-ticks li").nth(1)).to_contain_text("Bob has joined", timeout=8000)
    expect(ann).to_be_focused()
