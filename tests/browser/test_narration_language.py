"""Two phones at one table, one English and one German: each reads the same card in its own language at the same
time, whichever phone entered it (the live update is drawn for the phone that shows it, not the one that tapped)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import TABLE_URL, choose, expect_version, newest_log, wait_live


def join_in_german(page: Page, link: str, who: str) -> None:
    """Open a join link on a German phone and answer „Wer bist du?“."""
    page.goto(link)
    expect(page.get_by_role("heading", name="Wer bist du?")).to_be_visible()
    page.get_by_role("button", name=who, exact=True).click()
    page.wait_for_url(TABLE_URL)


def tap_card(page: Page, value: str) -> None:
    """Tap a number card of the pad (by what it sends, in any language) and wait for the next version."""
    before = int(page.locator("#board").get_attribute("data-version") or "-1")
    page.locator(f'#board button[name="card"][value="{value}"]').click()
    expect_version(page, before + 1)


@pytest.mark.browser
def test_an_english_and_a_german_phone_read_the_same_card_each_in_its_own_language(
    server: Server, phones: Phones
) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.new(locale="en-GB")
    choose(ann, server.local(table["join_url"]), "Ann")
    bob = phones.new(locale="de-DE")
    join_in_german(bob, server.local(table["join_url"]), "Bob")
    wait_live(ann)
    wait_live(bob)

    tap_card(ann, "7")  # the English phone enters its card; the German phone hears of it live
    expect(newest_log(ann)).to_contain_text("Ann played 7: total 7. Bob's turn.")
    expect_version(bob, 1)
    expect(newest_log(bob)).to_contain_text("Ann hat 7 gespielt: Summe 7. Bob ist dran.")
    expect(bob.locator(".just-happened")).to_contain_text("Gerade eben")

    tap_card(bob, "5")  # and the other way round
    expect(newest_log(bob)).to_contain_text("Bob hat 5 gespielt: Summe 12. Cy ist dran.")
    expect_version(ann, 2)
    expect(newest_log(ann)).to_contain_text("Bob played 5: total 12. Cy's turn.")
    expect(ann.locator(".just-happened")).to_contain_text("Just now")

    # A Bomb from a third party (the API): each reads who lost a life in its own words.
    server.act(table["code"], table["token"], type="play", player="Cy", card="bomb", zeros=[])
    expect_version(ann, 3)
    expect_version(bob, 3)
    expect(newest_log(ann)).to_contain_text("No 0 from Ann and Bob. Ann loses a life (4 lives left).")
    expect(newest_log(bob)).to_contain_text("Keine 0 von Ann und Bob. Ann verliert ein Leben (noch 4 Leben).")
