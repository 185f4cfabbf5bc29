"""Asking to play, live: a phone that typed the code asks to be a player and the host allows it live; a
refusal and a seat taken meanwhile are told; a rematch the host's phone changed starts that way on every phone
(a refused change: tests/browser/test_rematch.py). The new screens pass axe and do not scroll sideways at 320 px."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import (
    LOBBY_URL,
    TABLE_URL,
    card,
    expect_new_table,
    join,
    mark_page,
    start_from_home,
    start_in_lobby,
    still_same_page,
    tap,
    turn,
    wait_live,
)
from .test_rematch import finish_from
from .test_screens import AXE_OPTIONS, SIZES, sideways


def watch_by_code(phone: Page, base_url: str, code: str) -> None:
    """Type the code on the home page and tap Watch; wait until the table page listens live."""
    phone.goto(base_url + "/")
    phone.get_by_label("Have a table code? Type it to watch, or to ask the host to play:").fill(code.lower())
    phone.get_by_role("button", name="Open the table").click()
    phone.wait_for_url(TABLE_URL)
    wait_live(phone)


def ask_for(phone: Page, seat: str) -> None:
    """Tap "Ask to be SEAT"; the page comes back saying it waits for the host, and listens live again."""
    phone.get_by_role("button", name=f"Ask to be {seat}").click()
    expect(phone.locator("#ask")).to_contain_text(f"You asked to be {seat}")
    wait_live(phone)
    mark_page(phone)  # from here on the page must follow by itself, without a reload


def request_item(page: Page, seat: str) -> Any:
    return page.locator("#requests li").filter(has_text=f"A phone wants to be {seat} — allow?")


@pytest.mark.browser
def test_a_phone_that_typed_the_code_asks_to_be_dee_and_the_host_allows(server: Server, phones: Phones) -> None:
    host = phones.new()
    code = start_in_lobby(host, server.url, ["Dee", "Ann", "Bob"])  # Dee starts
    wait_live(host)
    asker = phones.new()
    watch_by_code(asker, server.url, code)
    expect(asker.locator("#pad")).to_contain_text("You are watching")
    expect(card(asker, "7")).to_have_count(0)
    expect(asker.get_by_role("link", name="QR code")).to_have_count(0)  # a watcher does not hand out the link
    ask_for(asker, "Dee")

    # The host's lobby shows the request live; Allow gives the asker Dee's seat.
    expect(request_item(host, "Dee")).to_be_visible(timeout=3000)
    with host.expect_navigation(url=LOBBY_URL):  # a plain form post: back to the lobby
        request_item(host, "Dee").get_by_role("button", name="Allow: this phone becomes Dee").click()
    expect(host.locator("#seats .seat-ticks li").first).to_contain_text("Dee has joined")
    expect(host.locator("#requests")).to_have_count(0)

    # The asking phone moves on by itself: it is Dee's phone now and taps for Dee.
    expect(asker.locator("#strip .me")).to_have_text("You're Dee", timeout=3000)
    assert still_same_page(asker)
    expect(asker.locator("#ask")).to_have_count(0)
    expect(asker.locator("#strip .your-turn-cue")).to_have_text("Your turn!")
    # As a player it may show the join QR code, from the header too, like any phone that joined as a player.
    expect(asker.locator("header").get_by_role("link", name="QR code")).to_be_visible()
    tap(asker, "7")
    assert server.state(code)["total"] == 7
    host.get_by_role("link", name="Start without waiting").click()
    host.wait_for_url(TABLE_URL)
    expect(host.get_by_label("Running total", exact=True)).to_have_text("7")
    expect(host.locator("#log ol.log > li:not(.round-separator)").first).to_contain_text("Dee")


@pytest.mark.browser
def test_a_refused_phone_is_told_on_its_page_and_keeps_watching(server: Server, phones: Phones) -> None:
    host = phones.new()
    code = start_in_lobby(host, server.url, ["Ann", "Bob"])
    host.get_by_role("link", name="Start without waiting").click()
    host.wait_for_url(TABLE_URL)
    wait_live(host)
    asker = phones.new()
    watch_by_code(asker, server.url, code)
    ask_for(asker, "Bob")
    # The table page shows the request live too.
    with host.expect_navigation(url=TABLE_URL):
        request_item(host, "Bob").get_by_role("button", name="Refuse the request to be Bob").click()
    expect(host.locator("#banner")).to_contain_text("Refused: the phone that asked to be Bob keeps watching")
    expect(asker.locator("#ask")).to_contain_text(
        "The host said no: this phone is not Bob, it keeps watching.", timeout=3000
    )
    assert still_same_page(asker)
    expect(card(asker, "7")).to_have_count(0)
    expect(asker.get_by_role("button", name="Ask to be Bob")).to_be_visible()


@pytest.mark.browser
def test_a_seat_taken_meanwhile_is_told_to_the_other_asker(server: Server, phones: Phones) -> None:
    host = phones.new()
    code = start_in_lobby(host, server.url, ["Ann", "Bob", "Cy"])
    wait_live(host)
    first, second = phones.new(), phones.new()
    for phone in (first, second):
        watch_by_code(phone, server.url, code)
        ask_for(phone, "Bob")
    expect(request_item(host, "Bob")).to_have_count(2, timeout=3000)
    with host.expect_navigation(url=LOBBY_URL):
        request_item(host, "Bob").first.get_by_role("button", name="Allow: this phone becomes Bob").click()
    expect(request_item(host, "Bob")).to_have_count(0)  # the other request for Bob is closed with it
    expect(first.locator("#strip .me")).to_have_text("You're Bob", timeout=3000)
    expect(second.locator("#ask")).to_contain_text(
        "Another phone became Bob before the host answered: this phone keeps watching.", timeout=3000
    )
    assert still_same_page(second)
    expect(second.get_by_role("button", name="Ask to be Bob")).to_have_count(0)
    expect(second.get_by_role("button", name="Ask to be Cy")).to_be_visible()


@pytest.mark.browser
def test_a_rematch_with_a_new_starter_variant_and_house_rule_starts_that_way_on_every_phone(
    server: Server, phones: Phones
) -> None:
    host, bob, watcher = phones.new(), phones.new(), phones.new()
    code = start_from_home(host, server.url, ["Ann", "Bob", "Cy", "Dee"])
    link = server.local(host.locator("a.join-link").first.get_attribute("href") or "")
    join(bob, link, "Bob")
    join(watcher, link, "Just watching")
    for phone in (host, bob, watcher):
        wait_live(phone)
    finish_from(host, server, code)

    # Only the host's phone changes the rematch (pages/rematch.py); Bob's may start the same game again.
    changes = host.locator("details.rematch-changes")
    expect(changes).to_be_visible(timeout=3000)
    expect(bob.get_by_role("button", name="Rematch with the same players")).to_be_visible()
    expect(bob.locator("details.rematch-changes")).to_have_count(0)
    changes.locator("> summary").click()
    form = changes.locator("form")
    expect(form.get_by_role("radio", name="Ann")).to_be_checked()  # the finished game's settings
    form.get_by_role("radio", name="Cy").check()
    form.get_by_role("radio", name="Teams: two teams share five lives each (4–6 players)").check()
    expect(form.get_by_role("combobox", name="Team of Bob")).to_have_value("B")  # alternate seats
    form.locator("details.house-rules > summary").click()
    over_21 = "What happens when someone plays a number card that takes the total above 21?"
    form.get_by_label(over_21).select_option("bust")
    form.get_by_role("button", name="Rematch with these changes").click()

    new_code = expect_new_table(host, code)
    for phone in (bob, watcher):  # the others follow by themselves, within 3 s
        expect(phone).to_have_url(host.url, timeout=3000)
    for phone in (host, bob, watcher):
        assert phone.url.endswith(f"/t/{new_code}")
        expect(turn(phone)).to_have_text("Cy's turn")
        expect(phone.locator("#status .round-info").first).to_contain_text("Teams")
        expect(phone.locator("#status")).to_contain_text("Team A 5 ♥ · Team B 5 ♥")
        expect(phone.locator("#rematch-note")).to_contain_text("New game. Changed by the host: Cy starts; a team game")
    expect(bob.locator("#strip .me")).to_have_text("You're Bob")
    state = server.state(new_code)
    assert (state["current"], state["variant"], state["house_rules"]["over_21"]) == ("Cy", "teams", "bust")
    assert [team["players"] for team in state["teams"]] == [["Ann", "Cy"], ["Bob", "Dee"]]


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_new_screens_pass_axe_and_fit_320_px(server: Server, phones: Phones, scheme: str) -> None:
    host = phones.new()
    code = start_in_lobby(host, server.url, ["Annabelle-Marie", "Bob", "Cy"])
    asker, refused = phones.new(), phones.new()
    watch_by_code(refused, server.url, code)
    ask_for(refused, "Cy")
    host.goto(f"{server.url}/t/{code}/lobby")
    with host.expect_navigation(url=LOBBY_URL):
        request_item(host, "Cy").get_by_role("button", name="Refuse the request to be Cy").click()
    watch_by_code(asker, server.url, code)
    ask_for(asker, "Annabelle-Marie")
    refused.reload()

    scorer = phones.new()  # the host's phone: only it has the rematch's change form
    finished = {"code": start_from_home(scorer, server.url, ["Ann", "Bob", "Cy", "Dee"])}
    finish_from(scorer, server, finished["code"])

    screens = {
        "lobby with a request": (host, f"{server.url}/t/{code}/lobby", None),
        "table with a request": (host, f"{server.url}/t/{code}", None),
        "asking: waiting": (asker, f"{server.url}/t/{code}", None),
        "asking: refused": (refused, f"{server.url}/t/{code}", None),
        "rematch changes": (scorer, f"{server.url}/t/{finished['code']}", "teams"),
    }
    axe = Axe()
    found: dict[str, list[str]] = {}
    wide: list[str] = []
    for name, (phone, url, variant) in screens.items():
        phone.emulate_media(color_scheme=scheme)
        for size, viewport in [*SIZES.items(), ("390 px", {"width": 390, "height": 844})]:
            phone.set_viewport_size(viewport)
            phone.goto(url)
            if variant:
                phone.locator("details.rematch-changes > summary").click()
                phone.locator("details.rematch-changes details.house-rules > summary").click()
                phone.locator(f"form.rematch-form input[name=variant][value={variant}]").check()
            expect(phone.locator("#ask, #requests, details.rematch-changes").first).to_be_visible()
            if sideways(phone) > 0:
                wide.append(f"{name} at {size}: {sideways(phone)} px")
        violations = axe.run(phone, options=AXE_OPTIONS).response["violations"]
        if violations:
            found[name] = [f"{v['id']}: {[node['target'] for node in v['nodes']][:4]}" for v in violations]
    assert not wide, wide
    assert not found, found
