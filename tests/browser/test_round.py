"""One phone referees a whole round by tapping, and shows the table what happened."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import card, hand, lives, newest_log, row, start_from_home, tap, total, turn


def lives_left(count: int) -> str:
    return f"{count} of 5 lives left"


@pytest.mark.browser
def test_a_round_from_the_home_page_to_round_two(server: Server, page: Page) -> None:
    code = start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    assert re.fullmatch(r"[A-Z0-9]{4,8}", code)
    expect(total(page)).to_have_text("0")
    expect(turn(page)).to_have_text("Ann's turn")
    expect(page.locator("#status .next")).to_have_text("then Bob")
    expect(row(page, "Cy").get_by_text("Dealer")).to_be_visible()
    for name in ("Ann", "Bob", "Cy"):
        expect(lives(page, name)).to_have_attribute("aria-label", lives_left(5))
        expect(hand(page, name)).to_have_text("10 cards")
    expect(page.locator("#log")).to_contain_text("Nothing yet. Ann plays first; Cy dealt.")

    # Number cards: the total climbs; "Can't play" is not offered while every number still fits.
    tap(page, "7")
    expect(total(page)).to_have_text("7")
    expect(turn(page)).to_have_text("Bob's turn")
    expect(hand(page, "Ann")).to_have_text("9 cards")
    expect(newest_log(page)).to_contain_text("Ann played 7: total 7. Bob's turn.")
    expect(card(page, "Can't play")).to_have_count(0)

    tap(page, "7")
    expect(total(page)).to_have_text("14")
    expect(turn(page)).to_have_text("Cy's turn")
    expect(card(page, "7")).to_be_enabled()  # 14 + 7 = 21 fits
    # What a screen reader says is what the button shows (WCAG 2.5.3), in words rather than an arrow.
    expect(card(page, "7")).to_have_accessible_name("7 makes 21")
    expect(card(page, "7").locator(".sub")).to_have_text("makes 21")  # in words on screen too, not "→ 21"
    expect(card(page, "Can't play")).to_have_count(0)

    # At 15 a 7 would make 22: its button is disabled and says it is over 21, in words a child reads at a
    # glance; the sum is its description. "Can't play" appears.
    tap(page, "1")
    expect(total(page)).to_have_text("15")
    expect(turn(page)).to_have_text("Ann's turn")
    expect(card(page, "7")).to_be_disabled()
    expect(card(page, "7")).to_have_accessible_name("7 over 21")
    expect(card(page, "7")).to_have_accessible_description(re.compile(r"That 7 makes 22.*Can't play"))
    expect(card(page, "6")).to_be_enabled()
    expect(card(page, "Can't play")).to_be_visible()

    # A bust costs Ann a life and resets the total; Bob goes next.
    tap(page, "Can't play")
    expect(total(page)).to_have_text("0")
    expect(lives(page, "Ann")).to_have_attribute("aria-label", lives_left(4))
    # Four full hearts and an empty one: not a cross, which is the setup's "Remove player" and reads as "wrong".
    expect(lives(page, "Ann")).to_have_text("♥♥♥♥♡")
    expect(lives(page, "Ann").locator(".life.lost")).to_have_count(1)
    expect(hand(page, "Ann")).to_have_text("9 cards")  # she keeps her cards
    expect(turn(page)).to_have_text("Bob's turn")
    expect(newest_log(page)).to_contain_text("Ann can't play: the total goes back to 0.")
    expect(newest_log(page)).to_contain_text("Ann loses a life (4 lives left).")
    expect(newest_log(page).get_by_role("link", name=re.compile(r"^Why\?"))).to_be_visible()
    expect(card(page, "Can't play")).to_have_count(0)

    tap(page, "5")
    expect(total(page)).to_have_text("5")
    expect(turn(page)).to_have_text("Cy's turn")

    # The Bomb sheet: Ann answers with a 0, Bob does not and loses a life; the total goes to 0.
    card(page, "Bomb").click()
    sheet = page.get_by_role("dialog", name="Who put down a 0?")
    expect(sheet).to_be_visible()
    expect(sheet.get_by_role("checkbox")).to_have_count(2)
    sheet.get_by_role("checkbox", name="Ann").check()
    tap(page, sheet.get_by_role("button", name="Confirm"))
    expect(sheet).to_be_hidden()
    expect(total(page)).to_have_text("0")
    expect(lives(page, "Bob")).to_have_attribute("aria-label", lives_left(4))
    expect(lives(page, "Ann")).to_have_attribute("aria-label", lives_left(4))
    expect(lives(page, "Cy")).to_have_attribute("aria-label", lives_left(5))
    expect(hand(page, "Ann")).to_have_text("8 cards")
    expect(hand(page, "Cy")).to_have_text("8 cards")
    expect(turn(page)).to_have_text("Ann's turn")
    expect(newest_log(page)).to_contain_text("Cy played Bomb: total 0. Ann discarded a 0. No 0 from Bob.")

    # Undo puts back the total, the turn and Bob's life; Redo applies the Bomb again.
    tap(page, "Undo")
    expect(total(page)).to_have_text("5")
    expect(turn(page)).to_have_text("Cy's turn")
    expect(lives(page, "Bob")).to_have_attribute("aria-label", lives_left(5))
    expect(newest_log(page)).to_contain_text("Undone")
    expect(card(page, "Redo")).to_be_enabled()
    tap(page, "Redo")
    expect(total(page)).to_have_text("0")
    expect(turn(page)).to_have_text("Ann's turn")
    expect(lives(page, "Bob")).to_have_attribute("aria-label", lives_left(4))
    expect(card(page, "Redo")).to_be_disabled()

    # Ann really holds one card: correct it from her row.
    ann = row(page, "Ann")
    ann.get_by_label("Fix Ann's hand size").click()
    ann.get_by_label("Cards Ann holds").fill("1")
    tap(page, ann.get_by_role("button", name="Save"))
    expect(hand(page, "Ann")).to_have_text("1 card")
    expect(newest_log(page)).to_contain_text("Hand fixed: Ann holds 1 card.")

    # Her last card ends the round: Bob and Cy lose a life, Ann deals round 2, Bob starts.
    tap(page, "3")
    banner = page.locator("#banner")
    expect(banner).to_contain_text("Round over! Round 2: Ann deals, Bob starts.")
    expect(banner).not_to_contain_text("Ann has no cards left")
    expect(page.locator("#strip")).to_contain_text("Ann has no cards left: round over.")
    expect(total(page)).to_have_text("0")
    expect(page.locator("#status .round-info")).to_contain_text("Round 2")
    expect(lives(page, "Ann")).to_have_attribute("aria-label", lives_left(4))
    expect(lives(page, "Bob")).to_have_attribute("aria-label", lives_left(3))
    expect(lives(page, "Cy")).to_have_attribute("aria-label", lives_left(4))
    expect(row(page, "Ann").get_by_text("Dealer")).to_be_visible()
    expect(row(page, "Cy").get_by_text("Dealer")).to_have_count(0)
    expect(turn(page)).to_have_text("Bob's turn")
    for name in ("Ann", "Bob", "Cy"):
        expect(hand(page, name)).to_have_text("10 cards")
    expect(newest_log(page)).to_contain_text("Round 2: Ann deals.")

    # The table survives a reload: the same state comes back from the server.
    page.reload()
    expect(total(page)).to_have_text("0")
    expect(turn(page)).to_have_text("Bob's turn")
    assert server.state(code)["round"] == 2


@pytest.mark.browser
def test_without_javascript_a_tap_posts_the_form(server: Server, phones: Phones) -> None:
    page = phones.new(java_script_enabled=False)
    start_from_home(page, server.url, ["Ann", "Bob"])
    expect(total(page)).to_have_text("0")
    with page.expect_navigation():
        card(page, "6").click()
    expect(total(page)).to_have_text("6")
    expect(turn(page)).to_have_text("Bob's turn")
    expect(newest_log(page)).to_contain_text("Ann played 6: total 6. Bob's turn.")
    with page.expect_navigation():
        card(page, "Undo").click()
    expect(total(page)).to_have_text("0")
    expect(turn(page)).to_have_text("Ann's turn")

    # Without JavaScript the Bomb button first loads the page with the "Who put down a 0?" sheet open.
    with page.expect_navigation():
        card(page, "Bomb").click()
    sheet = page.get_by_role("dialog", name="Who put down a 0?")
    expect(sheet).to_be_visible()
    sheet.get_by_role("checkbox", name="Bob").check()
    with page.expect_navigation():
        sheet.get_by_role("button", name="Confirm").click()
    expect(total(page)).to_have_text("0")
    expect(lives(page, "Bob")).to_have_attribute("aria-label", lives_left(5))
    expect(hand(page, "Bob")).to_have_text("9 cards")
    expect(newest_log(page)).to_contain_text("Ann played Bomb: total 0. Bob discarded a 0. Bob's turn.")


def eliminate(server: Server, code: str, token: str, loser: str) -> None:
    """Enter cards through the API until `loser` is out: they bust whenever they can, the others play on
    (their hands kept full, so that no round ends by someone going out)."""
    while True:
        state = server.state(code)
        players = {player["name"]: player for player in state["players"]}
        if players[loser]["out"]:
            return
        now = state["current"]
        if players[now]["hand"] <= 2:
            server.act(code, token, type="hand", player=now, cards=10)
        elif now == loser and state["total"] >= 15:
            server.act(code, token, type="bust", player=now)
        else:
            server.act(code, token, type="play", player=now, card="7" if state["total"] + 7 <= 21 else "0")


@pytest.mark.browser
def test_an_elimination_leaves_the_next_players_cards_in_view_on_a_small_phone(server: Server, phones: Phones) -> None:
    # "Bob is out", the "Just now" line and a "Rule applied" box once said the same three times and pushed the
    # next player's cards below the fold of a 360 × 640 phone. The rule is the line's "Why?" instead.
    table = server.create_table(["Ann", "Bob", "Cy"])
    eliminate(server, table["code"], table["token"], "Bob")
    cy = phones.seated(server, table, "Cy")
    cy.set_viewport_size({"width": 360, "height": 640})
    cy.reload()
    expect(cy.locator("#banner")).to_contain_text("Bob is out of the game!")
    just_now = cy.locator("#strip .just-happened")
    expect(just_now).to_contain_text("Two players left")
    why = just_now.get_by_role("link", name=re.compile(r"^Why\? \(Two-player rules"))
    expect(why).to_be_visible()
    expect(cy.get_by_text("Rule applied")).to_have_count(0)
    expect(card(cy, "0")).to_be_in_viewport(ratio=1)
    why.click()
    expect(cy.locator("h1, h2").filter(has_text="Two-player rules").first).to_be_visible()
