"""A refusal is seen where it was asked for: a hand fix far down the phone's page that the referee refuses
scrolls its reason into view (it used to appear in the banner, a screen above, and the player thought it worked)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Server
from .table import hand, row, start_from_home


@pytest.mark.browser
def test_a_refused_hand_fix_brings_its_reason_into_view(server: Server, page: Page) -> None:
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    row(page, "Cy").locator("summary").click()
    field = row(page, "Cy").get_by_role("spinbutton")
    field.fill("60")
    field.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0  # the players' rows are below the first screen
    field.press("Enter")
    refusal = page.locator("#banner [role=alert]")
    expect(refusal).to_contain_text("Cy can hold at most 57 cards")
    expect(refusal).to_be_in_viewport(ratio=1)
    expect(hand(page, "Cy")).to_have_text("10 cards")  # refused: nothing changed
