"""A 390 × 844 phone's first screen: the header is one line, the whole pad is on it while it is this phone's turn (also
with a round's news and banner above the cards), and no page scrolls sideways at 200 % zoom or with 200 % text."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE, WATCH_STREAM, Phones, Server
from .table import join, wait_live

# The header's box, and each of its links: height and accessible name (what a finger taps, what a screen reader says).
HEADER = """() => ({
  height: document.querySelector('header.top').getBoundingClientRect().height,
  links: [...document.querySelectorAll('header.top a')].filter(a => a.getClientRects().length)
    .map(a => ({text: a.innerText.trim(), height: a.getBoundingClientRect().height})),
})"""
# Where the pad's last card ends, measured from the top of the page (scrolled to the top, as a phone opens it).
PAD_BOTTOM = """() => Math.max(...[...document.querySelectorAll('#pad .pad button')]
  .map(button => button.getBoundingClientRect().bottom))"""
ONE_LINE = 48  # a 44 px link and a little room; on two lines the header is 92 px


def sideways(page: Page) -> int:
    """How many CSS pixels the page is wider than the screen (0: no sideways scroll)."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def round_two_starts_with_bob(server: Server) -> dict[str, Any]:
    """A table whose first round Ann ends with her last card: Bob and Cy lose a life, and round 2 is Bob's to start."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    server.act(code, token, type="play", player="Ann", card="bomb", zeros=[])
    server.act(code, token, type="play", player="Bob", card="0")
    server.act(code, token, type="play", player="Cy", card="0")
    server.act(code, token, type="hand", player="Ann", cards=1)
    server.act(code, token, type="play", player="Ann", card="7")
    return table


@pytest.mark.browser
def test_the_header_is_one_line_on_a_390_px_phone_and_keeps_its_links_names(server: Server, phones: Phones) -> None:
    """On two lines (92 px) it pushed the cards down: with a banner, Re-deal and Bomb went below the screen."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.seated(server, table, "Ann")  # a player's phone: the header has the QR code's link too
    code = table["code"]
    for url in (f"/t/{code}", f"/t/{code}/lobby", f"/t/{code}/display", f"/t/{code}/log"):
        ann.goto(server.url + url)
        header = ann.evaluate(HEADER)
        assert header["height"] <= ONE_LINE, f"{url}: the header is {header['height']} px high"
        assert all(link["height"] >= 44 for link in header["links"]), header
    ann.goto(f"{server.url}/t/{code}")
    # "5 Alive" on the screen, "5 Alive Referee" as the link's name; the code stays in sight, with its word in the text.
    bar = ann.get_by_role("banner")
    expect(bar.get_by_role("link", name="5 Alive Referee", exact=True)).to_be_visible()
    expect(bar.get_by_role("link", name="QR code", exact=True)).to_be_visible()
    expect(bar.get_by_role("link", name="Rules", exact=True)).to_be_visible()
    expect(bar.locator(".table-code")).to_have_text(f"Table {code}")


@pytest.mark.browser
def test_the_whole_pad_is_on_the_first_screen_on_this_phones_turn_with_or_without_a_banner(
    server: Server, phones: Phones
) -> None:
    """Round 2 starts on Bob's turn, under five lines of news, "You lost a life!" and the round's banner: the last row
    of cards (Re-deal, Bomb) ended at 963 px, below a 844 px screen."""
    first = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.seated(server, first, "Ann")
    expect(ann.locator(".your-turn-cue")).to_have_text("Your turn!")
    expect(ann.locator("#banner > *")).to_have_count(0)
    assert ann.evaluate(PAD_BOTTOM) <= PHONE["height"]
    table = round_two_starts_with_bob(server)
    bob = phones.seated(server, table, "Bob")
    expect(bob.locator(".your-turn-cue")).to_have_text("Your turn!")
    expect(bob.locator("#banner .round")).to_contain_text("Round over! Round 2")
    expect(bob.get_by_role("alert")).to_have_text("You lost a life! 3 lives left.")
    bottom = bob.evaluate(PAD_BOTTOM)
    assert bottom <= PHONE["height"], f"the last row of cards ends at {bottom} px"


@pytest.mark.browser
def test_with_200_percent_text_the_first_cards_start_on_the_first_screen(server: Server, phones: Phones) -> None:
    """With the header on three lines the pad started at 886 px; on two, its first row starts on the screen."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.seated(server, table, "Ann")
    ann.evaluate("document.documentElement.style.fontSize = '200%'")
    top = ann.evaluate("() => document.querySelector('#pad .pad button').getBoundingClientRect().top")
    assert top < PHONE["height"], f"the first card starts at {top} px"
    assert sideways(ann) == 0


@pytest.mark.browser
def test_no_sideways_scroll_at_200_percent_zoom_or_200_percent_text_on_a_390_px_phone(
    server: Server, phones: Phones
) -> None:
    """200 % zoom on a 390 px phone is a 195 px wide screen at two device pixels per CSS pixel: the join panel's QR code
    stuck out 26 px there."""
    table = round_two_starts_with_bob(server)
    code = table["code"]
    zoomed = phones.browser.new_context(viewport={"width": 195, "height": 422}, device_scale_factor=2)
    phones.contexts.append(zoomed)
    zoomed.set_default_timeout(10_000)
    zoomed.add_init_script(WATCH_STREAM)
    cy = zoomed.new_page()
    join(cy, server.local(table["join_url"]), "Cy")
    wait_live(cy)
    large_text = phones.seated(server, table, "Bob")
    wide = {}
    for url in (f"/t/{code}", f"/t/{code}/lobby", f"/t/{code}/display", f"/t/{code}/log", "/", "/rules"):
        cy.goto(server.url + url)
        large_text.goto(server.url + url)
        large_text.evaluate("document.documentElement.style.fontSize = '200%'")
        wide[url] = (sideways(cy), sideways(large_text))
    assert wide == dict.fromkeys(wide, (0, 0)), wide
