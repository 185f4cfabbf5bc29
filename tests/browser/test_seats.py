"""Bob's phone dies: his new phone takes his seat over, and the old one is told live that it only watches."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Playwright, Route, expect

from .conftest import Phones, Server
from .table import TABLE_URL, join, pump_until, start_in_lobby, tap, total, wait_live


def _bob_at_a_family_table(server: Server, phones: Phones) -> tuple[Page, Page, str]:
    """Ann's phone hosts Ann, Bob and Cy; Bob's phone joined. Return (Ann's phone, Bob's phone, the join link)."""
    ann = phones.new()
    start_in_lobby(ann, server.url, ["Ann", "Bob", "Cy"])
    ann.get_by_role("button", name="I'm Ann", exact=True).click()
    expect(ann.locator("#seats")).to_contain_text("This phone is Ann's (and the host's).")
    link = server.local(ann.locator("a.join-link").first.inner_text())
    ann.get_by_role("link", name="Start without waiting").click()
    ann.wait_for_url(TABLE_URL)
    old_bob = phones.new()
    join(old_bob, link, "Bob")
    return ann, old_bob, link


@pytest.mark.browser
def test_a_new_phone_takes_bobs_seat_and_the_old_one_only_watches(server: Server, phones: Phones) -> None:
    ann, old_bob, link = _bob_at_a_family_table(server, phones)
    for phone in (ann, old_bob):
        wait_live(phone)

    # Bob's battery runs out; on a borrowed phone the join link shows his seat as held, and asks once.
    new_bob = phones.new()
    new_bob.goto(link)
    new_bob.get_by_role("button", name="Bob — on another phone").click()
    expect(new_bob.get_by_role("heading", name="Bob is on another phone. Is this Bob's new phone?")).to_be_visible()
    new_bob.get_by_role("button", name="Yes, I'm Bob on this phone").click()
    new_bob.wait_for_url(TABLE_URL)
    expect(new_bob.locator("#banner")).to_contain_text("You're Bob on this phone now.")
    expect(new_bob.locator("#strip .me")).to_have_text("You're Bob")
    wait_live(new_bob)

    # The old phone is told live, without a reload, and loses its card pad.
    expect(old_bob.locator("#strip .moved-note")).to_have_text("Bob is on another phone now: this phone only watches.")
    expect(old_bob.locator("#strip .me")).to_have_text("You're watching")
    expect(old_bob.locator("#pad-form")).to_have_count(0)

    # Ann's card: only the new phone cues Bob's turn.
    tap(ann, "3")
    expect(new_bob.locator("#strip .your-turn-cue")).to_have_text("Your turn!")
    expect(old_bob.locator("#strip .your-turn-cue")).to_have_count(0)

    # The host's list: one Bob's phone, the old one named as such, and every Remove button its own name.
    devices = ann.locator("#join ul.devices")
    expect(devices.locator("li").filter(has_text=re.compile(r"^\s*Bob's phone"))).to_have_count(1)
    expect(devices.locator("li").filter(has_text=re.compile(r"^\s*Bob's old phone"))).to_have_count(1)
    expect(devices.get_by_role("button", name=re.compile(r"^Remove Bob's phone, joined \d\d:\d\d$"))).to_have_count(1)
    expect(devices.get_by_role("button", name=re.compile(r"^Remove Bob's old phone, joined"))).to_have_count(1)


def _asked_about(phone: Page, link: str, name: str = "Bob") -> None:
    """Open the join link, tap `name`'s held seat and wait for the one question."""
    phone.goto(link)
    phone.get_by_role("button", name=f"{name} — on another phone").click()
    question = f"{name} is on another phone. Is this {name}'s new phone?"
    expect(phone.get_by_role("heading", name=question)).to_be_visible()


@pytest.mark.browser
def test_a_double_tap_on_yes_makes_one_new_phone(
    server: Server, phones: Phones, playwright_session: Playwright
) -> None:
    ann, _old_bob, link = _bob_at_a_family_table(server, phones)
    new_bob = phones.new()
    _asked_about(new_bob, link)
    # A slow Wi-Fi: the first Yes reaches the server, but its answer never gets back to the phone (held here, as
    # a hotspot that drops it would), so the thumb taps Yes again. Chromium then sends the form a second time,
    # with the cookie the question came with.
    forwarder = playwright_session.request.new_context()
    first_yes: list[Route] = []

    def slow_first_answer(route: Route) -> None:
        if route.request.method != "POST" or first_yes:
            route.continue_()
            return
        sent = route.request
        forwarder.fetch(
            sent.url, method="POST", headers=sent.all_headers(), data=sent.post_data_buffer, max_redirects=0
        )
        first_yes.append(route)

    try:
        new_bob.route(re.compile(r"/j/"), slow_first_answer)
        yes = new_bob.get_by_role("button", name="Yes, I'm Bob on this phone")
        box = yes.bounding_box()
        assert box is not None
        middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        new_bob.mouse.click(*middle)
        pump_until(new_bob, lambda: bool(first_yes), "the first Yes answered by the server")
        new_bob.mouse.click(*middle)  # straight at the screen: the page is still the question
        # The second Yes replaces the first, held navigation, which Chromium then aborts: wait_for_url would take
        # that abort for a failure, so the test polls the address instead.
        expect(new_bob).to_have_url(TABLE_URL, timeout=10_000)
    finally:
        forwarder.dispose()
    expect(new_bob.locator("#strip .me")).to_have_text("You're Bob")
    expect(new_bob.locator("#banner")).to_contain_text("You're Bob on this phone now.")
    # One new phone: the host's list has Bob's phone and Bob's old phone, once each, and nothing else new.
    ann.reload()
    rows = ann.locator("#join ul.devices li")
    expect(rows).to_have_count(3)
    expect(rows.filter(has_text=re.compile(r"^\s*Bob's phone"))).to_have_count(1)
    expect(rows.filter(has_text=re.compile(r"^\s*Bob's old phone"))).to_have_count(1)
    # And the phone that said yes is that one Bob's phone: it is cued, and enters Bob's card after Ann's.
    wait_live(new_bob)
    tap(ann, "3")
    expect(new_bob.locator("#strip .your-turn-cue")).to_have_text("Your turn!")
    tap(new_bob, "4")
    expect(total(ann)).to_have_text("7")


@pytest.mark.browser
def test_the_phone_that_loses_the_race_for_a_seat_is_told_at_once(server: Server, phones: Phones) -> None:
    ann, _old_bob, link = _bob_at_a_family_table(server, phones)
    first, second = phones.new(), phones.new()
    # Both phones are asked while Bob's old phone holds the seat; the first says yes, then the second.
    _asked_about(first, link)
    _asked_about(second, link)
    first.get_by_role("button", name="Yes, I'm Bob on this phone").click()
    first.wait_for_url(TABLE_URL)
    second.get_by_role("button", name="Yes, I'm Bob on this phone").click()
    # The second is told plainly, on the spot, and was never shown as Bob.
    expect(second.get_by_role("alert")).to_have_text(
        "Someone else's phone took Bob's seat a moment ago; this phone is not Bob's. "
        "If it really is, say so again below."
    )
    assert not TABLE_URL.search(second.url)
    expect(second.get_by_role("button", name="Yes, I'm Bob on this phone")).to_be_visible()
    expect(first.locator("#strip .me")).to_have_text("You're Bob")
    ann.reload()
    rows = ann.locator("#join ul.devices li")
    expect(rows.filter(has_text=re.compile(r"^\s*Bob's phone"))).to_have_count(1)
    expect(rows).to_have_count(3)


@pytest.mark.browser
def test_the_old_host_phone_leaves_the_lobby_for_the_table_when_a_new_phone_takes_the_host(
    server: Server, phones: Phones
) -> None:
    ann = phones.new()
    start_in_lobby(ann, server.url, ["Ann", "Bob", "Cy"])
    ann.get_by_role("button", name="I'm Ann", exact=True).click()
    expect(ann.locator("#seats")).to_contain_text("This phone is Ann's (and the host's).")
    link = server.local(ann.locator("a.join-link").first.inner_text())
    wait_live(ann)
    # Ann's phone is left on the lobby; her new phone takes her seat, and with it the host.
    new_ann = phones.new()
    _asked_about(new_ann, link, "Ann")
    new_ann.get_by_role("button", name="Yes, I'm Ann on this phone").click()
    new_ann.wait_for_url(TABLE_URL)
    expect(new_ann.locator("#banner")).to_contain_text("You're Ann, and this phone is the host now.")
    # The old phone goes to the table on its own and says why it only watches: no lobby, QR code or link left,
    # and no page inside a page.
    ann.wait_for_url(TABLE_URL)
    expect(ann.locator("#strip .moved-note")).to_have_text(
        "Ann is on another phone now, and that phone is the host: this phone only watches."
    )
    expect(ann.locator("img.qr, a.join-link, #seats, ul.devices")).to_have_count(0)
    expect(ann.locator("header, .top")).to_have_count(1)
    # The new phone has all the host has: the QR code and link, the phones (the old one removable).
    expect(new_ann.locator("#join img.qr")).to_be_visible()
    expect(new_ann.locator("#join a.join-link")).to_have_text(re.compile(r"/j/[A-Z0-9]+/"))
    devices = new_ann.locator("#join ul.devices")
    expect(
        devices.get_by_role("button", name=re.compile(r"^Remove Ann's old phone \(was the host\), joined"))
    ).to_be_visible()
    new_ann.get_by_role("link", name="QR code").click()
    expect(new_ann.get_by_role("dialog")).to_be_visible()
