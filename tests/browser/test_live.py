"""Every phone at the table — join by link, live updates, watchers, restarts, simultaneous taps."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import Page, Response, Route, expect

from .conftest import Phones, Server
from .table import (
    card,
    join,
    mark_page,
    newest_log,
    pump_until,
    start_from_home,
    still_same_page,
    tap,
    total,
    turn,
    version,
    wait_live,
)

LIVE_SECONDS = 1.0


def tap_and_time_other(tapper: Page, name: str, other: Page, expected_total: str) -> float:
    """Tap on one phone; return how long after the tap's response the other phone shows the new total."""
    with tapper.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as info:
        card(tapper, name).click()
    assert info.value.status == 200
    answered = time.monotonic()
    expect(total(other)).to_have_text(expected_total, timeout=LIVE_SECONDS * 1000)
    return time.monotonic() - answered


@pytest.mark.browser
def test_a_second_phone_joins_by_link_and_sees_taps_live(server: Server, phones: Phones) -> None:
    host = phones.new()
    code = start_from_home(host, server.url, ["Ann", "Bob", "Cy", "Dee"])
    panel = host.locator("#join")
    expect(panel.get_by_role("img", name="QR code to join this table")).to_be_visible()
    expect(panel.locator("strong.code")).to_have_text(code)
    link = panel.locator("a.join-link").get_attribute("href")
    assert link and f"/j/{code}/" in link
    expect(panel.locator("a.join-link")).to_have_text(link)

    bob = phones.new()
    bob.goto(server.local(link))
    expect(bob.get_by_role("heading", name="Who are you?")).to_be_visible()
    for choice in ("Ann", "Bob", "Cy", "Dee", "Keeping score (not playing)", "Just watching"):
        expect(bob.get_by_role("button", name=choice, exact=True)).to_be_visible()
    assert join(bob, server.local(link), "Bob") == code
    expect(card(bob, "7")).to_be_enabled()
    wait_live(host)
    wait_live(bob)
    mark_page(host)
    mark_page(bob)

    # The host taps: Bob's phone shows it within a second, without reloading.
    host_to_bob = tap_and_time_other(host, "7", bob, "7")
    expect(turn(bob)).to_have_text("Bob's turn")
    # Bob taps: the host's phone follows, and the log says which phone entered it.
    bob_to_host = tap_and_time_other(bob, "5", host, "12")
    expect(turn(host)).to_have_text("Cy's turn")
    expect(newest_log(host)).to_contain_text("Bob played 5: total 12. Cy's turn.")
    expect(newest_log(host)).to_contain_text("Bob's phone")
    assert still_same_page(host) and still_same_page(bob)
    assert version(host) == version(bob) == 2
    print(f"live: host→Bob {host_to_bob:.3f} s, Bob→host {bob_to_host:.3f} s")

    # The host sees Bob's phone in the device list, with a way to remove it.
    host.reload()
    devices = host.locator("#join ul.devices")
    expect(devices).to_contain_text("Host (this phone)")
    expect(devices).to_contain_text("Bob's phone")
    expect(devices.get_by_role("button", name="Remove Bob's phone")).to_be_visible()


@pytest.mark.browser
def test_the_host_removes_a_phone_and_replaces_a_leaked_link(server: Server, phones: Phones) -> None:
    host = phones.new()
    code = start_from_home(host, server.url, ["Ann", "Bob", "Cy"])
    old_link = host.locator("#join a.join-link").get_attribute("href")
    assert old_link
    wait_live(host)
    mark_page(host)
    # The host shows the QR code full screen while the others join.
    host.get_by_role("button", name="Show the QR code full screen").click()
    expect(host.locator("#qr-full")).to_be_visible()
    bob = phones.new()
    join(bob, server.local(old_link), "Bob")
    scorer = phones.new()
    join(scorer, server.local(old_link), "Keeping score (not playing)")
    for phone in (bob, scorer):
        expect(card(phone, "7")).to_be_enabled()
        wait_live(phone)
        mark_page(phone)
    # The host's list of phones fills in live, and the full-screen QR code stays up meanwhile.
    expect(host.locator("#join ul.devices")).to_contain_text("Scorekeeper", timeout=LIVE_SECONDS * 3000)
    expect(host.locator("#join ul.devices")).to_contain_text("Bob's phone")
    expect(host.locator("#qr-full")).to_be_visible()
    host.locator("#qr-full").get_by_role("button", name="Close").click()
    expect(host.locator("#qr-full")).to_be_hidden()
    assert still_same_page(host)

    host.locator("#join").get_by_role("button", name="Remove Bob's phone").click()
    # The page comes back at the panel, with the confirmation in sight.
    confirmation = host.locator("#join").get_by_role("status")
    expect(confirmation).to_contain_text("Removed Bob's phone: it can no longer enter cards.")
    expect(confirmation).to_be_in_viewport()
    expect(host.locator("#join ul.devices")).to_contain_text("removed")
    # Bob's phone loses its card pad and the join QR code by itself, without a reload.
    expect(card(bob, "7")).to_have_count(0, timeout=LIVE_SECONDS * 3000)
    expect(bob.locator("#join img.qr")).to_have_count(0)
    assert still_same_page(bob)

    old_qr = host.locator("#join img.qr").get_attribute("src")
    host.get_by_role("button", name="New join link").click()
    confirmation = host.locator("#join").get_by_role("status")
    expect(confirmation).to_contain_text("The old QR code and link no longer let phones join")
    expect(confirmation).to_be_in_viewport()
    new_link = host.locator("#join a.join-link").get_attribute("href")
    assert new_link and new_link != old_link
    expect(host.locator("#join img.qr")).not_to_have_attribute("src", old_qr or "")
    # The new QR picture really loads (it is not the old one from the cache).
    host.wait_for_function(
        "() => { const image = document.querySelector('#join img.qr');"
        " return image && image.complete && image.naturalWidth > 0; }"
    )
    # Other phones that show the QR code switch to the new one live.
    expect(scorer.locator("#join a.join-link")).to_have_text(new_link, timeout=LIVE_SECONDS * 3000)
    assert still_same_page(scorer)

    stranger = phones.new()
    stranger.goto(server.local(old_link))
    expect(stranger.get_by_role("heading", name="This link doesn't work")).to_be_visible()
    assert join(stranger, server.local(new_link), "Cy") == code
    expect(card(stranger, "7")).to_be_enabled()

    # Removing Bob was a mistake: one tap brings his phone back, and its card pad returns by itself.
    host.locator("#join").get_by_role("button", name="Bring back Bob's phone").click()
    confirmation = host.locator("#join").get_by_role("status")
    expect(confirmation).to_contain_text("Bob's phone is back at the table.")
    expect(confirmation).to_be_in_viewport()
    expect(card(bob, "7")).to_be_enabled(timeout=LIVE_SECONDS * 3000)
    assert still_same_page(bob)


@pytest.mark.browser
def test_a_watcher_sees_the_game_but_cannot_tap(server: Server, phones: Phones) -> None:
    host = phones.new()
    code = start_from_home(host, server.url, ["Ann", "Bob", "Cy"])

    watcher = phones.new()
    watcher.goto(server.url + "/")
    watcher.get_by_label("Have a table code? Type it to watch, or to ask the host to play:").fill(code.lower())
    watcher.get_by_role("button", name="Open the table", exact=True).click()
    watcher.wait_for_url(f"**/t/{code}")
    expect(total(watcher)).to_have_text("0")
    expect(watcher.get_by_text("You are watching.")).to_be_visible()
    for name in ("0", "7", "Bomb", "Undo", "Redo", "Can't play"):
        expect(card(watcher, name)).to_have_count(0)
    expect(watcher.get_by_label("Fix Ann's hand size")).to_have_count(0)
    # No join link or QR for a watcher (only the empty place a live refresh could fill).
    expect(watcher.locator("#join a.join-link, #join img")).to_have_count(0)
    expect(watcher.locator("#join")).to_be_hidden()
    wait_live(watcher)

    # It still follows the game live.
    wait_live(host)
    tap_and_time_other(host, "4", watcher, "4")

    # Posting the form by hand is refused, and nothing changes.
    token = json.loads(watcher.locator("body").get_attribute("hx-headers") or "{}")["X-CSRF-Token"]
    answer = watcher.request.post(
        f"{server.url}/t/{code}/act",
        form={"csrf": token, "kind": "play", "player": "Bob", "card": "7", "version": "1"},
        headers={"HX-Request": "true"},
    )
    assert answer.status == 403
    assert "only watching" in answer.text()
    state = server.state(code)
    assert (state["version"], state["total"]) == (1, 4)

    # "Just watching" on the join link is watch-only too.
    link = host.locator("a.join-link").get_attribute("href")
    assert link
    viewer = phones.new()
    join(viewer, server.local(link), "Just watching")
    expect(total(viewer)).to_have_text("4")
    expect(card(viewer, "7")).to_have_count(0)
    expect(viewer.get_by_text("You are watching.")).to_be_visible()


@pytest.mark.browser
def test_phones_recover_by_themselves_after_the_server_restarts(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    link = server.local(table["join_url"])
    ann, bob = phones.new(), phones.new()
    join(ann, link, "Ann")
    join(bob, link, "Bob")
    for phone in (ann, bob):
        wait_live(phone)
        mark_page(phone)
    tap(ann, "7")
    expect(total(bob)).to_have_text("7", timeout=LIVE_SECONDS * 1000)

    server.kill()
    for phone in (ann, bob):
        expect(phone.locator("#connection")).to_be_visible(timeout=6000)
        expect(phone.locator("#connection")).to_have_text("Reconnecting…")
    server.start()

    # A card entered elsewhere after the restart reaches both phones without anyone reloading.
    assert server.act(code, token, type="play", player="Bob", card="5")["total"] == 12
    for phone in (ann, bob):
        expect(total(phone)).to_have_text("12", timeout=10_000)
        expect(turn(phone)).to_have_text("Cy's turn")
        expect(phone.locator("#connection")).to_be_hidden(timeout=10_000)
        assert still_same_page(phone)

    # The live stream itself is back: taps travel phone to phone within a second again.
    for phone in (ann, bob):
        wait_live(phone, opened=2)
    tap_and_time_other(bob, "2", ann, "14")
    assert server.state(code)["version"] == 3


@pytest.mark.browser
@pytest.mark.parametrize("release", ["together", "after_the_live_refresh"])
def test_two_phones_tapping_the_same_card_at_once_count_it_once(server: Server, phones: Phones, release: str) -> None:
    """Both phones tap 7 on the same version; the server takes the first and refuses the other as stale.

    "together": both taps reach the server at the same moment. "after_the_live_refresh": the second tap
    reaches the server only after its phone has already been told live about the first one (the losing
    phone's answer then meets a board that the live stream is refreshing).
    """
    table = server.create_table(["Ann", "Bob", "Cy"])
    code = table["code"]
    link = server.local(table["join_url"])
    first, second = phones.new(), phones.new()
    join(first, link, "Ann")
    join(second, link, "Keeping score (not playing)")
    for phone in (first, second):
        wait_live(phone)
        expect(card(phone, "7")).to_be_enabled()

    # Hold both taps in the browsers until both are made, then let them go to the server.
    held: list[Route] = []
    statuses: dict[int, int] = {}
    for index, phone in enumerate((first, second)):
        phone.route("**/t/*/act", lambda route: held.append(route))
        phone.on("response", lambda r, i=index: _record(statuses, i, r))
    card(first, "7").click()
    card(second, "7").click()
    pump_until(first, lambda: len(held) == 2, "both taps held in the browsers")
    boards: list[int] = []
    second.on("response", lambda r: boards.append(r.status) if "/board" in r.url else None)
    if release == "together":
        for route in held:
            route.continue_()
    else:
        heard = second.evaluate("() => window.__sse.messages")
        held[0].continue_()
        second.wait_for_function("(before) => window.__sse.messages > before", arg=heard)
        held[1].continue_()

    for phone in (first, second):
        expect(total(phone)).to_have_text("7")
        expect(turn(phone)).to_have_text("Bob's turn")
    pump_until(first, lambda: len(statuses) == 2, "both taps answered")
    assert sorted(statuses.values()) == [200, 409], statuses
    loser = (first, second)[next(i for i, status in statuses.items() if status == 409)]
    winner = (first, second)[next(i for i, status in statuses.items() if status == 200)]
    if release != "together":
        assert loser is second
        # Told live while its own tap was out, the phone did not fetch the board its answer brought
        # anyway: at most a 204 afterwards, never a second full board.
        second.wait_for_timeout(300)
        assert 200 not in boards, boards
    # The loser is told quietly (the card is in, nothing is wrong), on a board that shows the fresh total.
    expect(loser.get_by_role("status").filter(has_text="Ann's 7 is already in.")).to_be_visible()
    expect(loser.get_by_role("alert")).to_have_count(0)
    expect(total(loser)).to_have_text("7")
    expect(winner.get_by_role("alert")).to_have_count(0)

    state = server.state(code)
    assert (state["total"], state["version"]) == (7, 1)
    assert [p["hand"] for p in state["players"]] == [9, 10, 10]
    for phone in (first, second):
        expect(phone.locator("#log ol.log > li:not(.round-separator)")).to_have_count(1)


def _record(statuses: dict[int, int], index: int, response: Response) -> None:
    if response.url.endswith("/act") and response.request.method == "POST":
        statuses[index] = response.status
