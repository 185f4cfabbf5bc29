"""The last card as a picture, lives lost as broken hearts, and a "Just now" line a child reads at a glance: at most
two lines on a 390 px phone, the whole sentence one tap away; the table display shows the card large."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import Phones, Server
from .table import join, pump_until, wait_live
from .test_display import open_display

# How many lines the sentence takes on the screen, and how many it would take shown whole.
LINES = """text => {
  const height = parseFloat(getComputedStyle(text).lineHeight);
  return {shown: Math.round(text.getBoundingClientRect().height / height),
          whole: Math.round(text.scrollHeight / height)};
}"""


def lines(page: Page) -> dict[str, int]:
    """The "Just now" sentence's lines: on the screen (`shown`) and in full (`whole`)."""
    result = page.locator("#strip .just-text").evaluate(LINES)
    assert isinstance(result, dict)
    return result


# True if the picture stands left of the line, at the height of its first lines (both measured at once, in the page).
BESIDE = """strip => {
  const pic = strip.querySelector(".pic").getBoundingClientRect();
  const line = strip.querySelector(".just-happened").getBoundingClientRect();
  return pic.right <= line.left && pic.top < line.bottom && line.top < pic.bottom;
}"""


def beside(picture: Locator) -> bool:
    """True if the card's picture stands left of the "Just now" line, beside its first lines."""
    return bool(picture.locator("xpath=ancestor::*[@id='strip']").evaluate(BESIDE))


@pytest.mark.browser
def test_the_last_card_beside_the_line_broken_hearts_and_two_lines_at_most(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy", "Dee"])
    code, token = table["code"], table["token"]
    dee = phones.new(has_touch=True)
    join(dee, server.local(table["join_url"]), "Dee")
    wait_live(dee)
    # A phone that reads French, watching: the same pictures, named in its language.
    french = phones.new(locale="fr-FR")
    french.goto(f"{server.url}/t/{code}")
    wait_live(french)

    server.act(code, token, type="play", player="Ann", card="5")
    for phone, name in ((dee, "Card 5"), (french, "Carte 5")):
        picture = phone.locator("#strip").get_by_role("img", name=name, exact=True)
        expect(picture).to_be_visible(timeout=5000)
        assert beside(picture)
        # A short sentence has nothing to open: no "More" (the French sentence is longer, so the server sends the
        # button and static/js/more.js hides it where the sentence fits).
        expect(phone.locator("#strip .just-more")).to_be_hidden()
        expect(phone.locator("#strip .loss")).to_have_count(0)

    # A sentence that fits two lines of this phone has nothing to open either.
    server.act(code, token, type="play", player="Bob", card="draw2")
    expect(dee.locator("#strip").get_by_role("img", name="Card Draw 2", exact=True)).to_be_visible(timeout=5000)
    expect(dee.locator("#strip .just-text")).to_contain_text("Bob played Draw 2. Everyone else draws 2. Cy's turn.")
    assert lines(dee)["whole"] <= 2
    expect(dee.locator("#strip .just-more")).to_be_hidden()

    # Cy's Bomb: Ann answers with a 0, Bob and Dee have none and lose a life each.
    server.act(code, token, type="play", player="Cy", card="bomb", zeros=["Ann"])
    for phone, bomb, played, dee_lost, bob_lost in (
        (dee, "Card Bomb", "Cy played Bomb", "Dee lost a life", "Bob lost a life"),
        (french, "Carte Bombe", "Cy a joué Bombe", "Dee a perdu une vie", "Bob a perdu une vie"),
    ):
        strip = phone.locator("#strip")
        picture = strip.get_by_role("img", name=bomb, exact=True)
        expect(picture).to_be_visible(timeout=5000)
        assert beside(picture)
        expect(strip.locator(".just-happened")).to_contain_text(played)
        for lost in (dee_lost, bob_lost):
            hearts = strip.get_by_role("img", name=lost, exact=True)
            expect(hearts).to_be_visible()
            expect(hearts.locator("svg")).to_have_count(1)
            expect(hearts.locator("svg")).to_be_visible()
        expect(strip).not_to_contain_text("−1 ♥")

    # On a 390 px phone the sentence (five lines whole) shows on two, the hearts still in view.
    shown = lines(dee)
    assert shown["shown"] <= 2 < shown["whole"], shown
    expect(dee.locator("#strip .loss").first).to_be_in_viewport()
    expect(dee.get_by_role("alert")).to_have_text("You lost a life! 4 lives left.")
    # One tap opens it whole; another closes it.
    more = dee.locator("#strip .just-more summary")
    expect(more).to_have_accessible_name("More")
    more.tap()
    opened = lines(dee)
    assert opened["shown"] == opened["whole"] > 2, opened
    expect(more).to_have_accessible_name("Less")
    expect(dee.locator("#strip .just-happened").get_by_text("lives left). Dee's turn.")).to_be_visible()
    more.tap()
    assert lines(dee)["shown"] <= 2
    # From the keyboard too: the button takes the focus and Enter opens it.
    more.focus()
    dee.keyboard.press("Enter")
    assert lines(dee)["shown"] == opened["whole"]
    # The log keeps the whole sentence, as it always did.
    expect(dee.locator("#log")).to_contain_text("Cy played Bomb")


@pytest.mark.browser
def test_the_table_display_shows_the_last_card_large(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    display = open_display(server, phones, code)
    expect(display.get_by_role("img", name="Card 7")).to_have_count(0)
    server.act(code, token, type="play", player="Ann", card="7")
    card = display.get_by_role("img", name="Card 7", exact=True)
    expect(card).to_be_visible(timeout=5000)
    # Large: read from across the table, a tenth of the screen's height at least.
    # The display redraws itself every few seconds: a picture read just as it was replaced has no box, so it is read
    # again (an attached one's height is its height).
    heights: list[float] = []

    def measured() -> bool:
        heights.append(card.evaluate("card => card.isConnected ? card.getBoundingClientRect().height : -1"))
        return heights[-1] >= 0

    pump_until(display, measured, "the card measured on the display")
    assert heights[-1] >= 600 / 10, heights
    expect(display.locator(".display-last")).to_contain_text("Ann played 7")
    server.act(code, token, type="play", player="Bob", card="skip")
    expect(display.get_by_role("img", name="Card Skip", exact=True)).to_be_visible(timeout=5000)
    expect(display.get_by_role("img", name="Card 7")).to_have_count(0)
