"""Settle an argument from the table page — search as you type, open the answer, see this table's rule."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Server
from .table import LOBBY_URL, TABLE_URL, card, newest_log, tap


def start_with_house_rule(page: Page, server: Server) -> str:
    """Start a table whose house rule says a Bomb as last card only ends the round."""
    page.goto(server.url + "/")
    for index, name in enumerate(["Ann", "Bob", "Cy"]):
        page.locator(f"#name-{index}").fill(name)
    page.get_by_text("House rules").click()
    rule = page.get_by_label("A Bomb is someone's last card: is it answered as well as ending the round?")
    expect(rule).to_be_visible()
    expect(rule).to_have_value("both")  # the usual reading is chosen already
    rule.select_option("round_only")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(LOBBY_URL)
    page.get_by_role("link", name="Start without waiting").click()
    page.wait_for_url(TABLE_URL)
    return page.url.rsplit("/", 1)[1]


@pytest.mark.browser
def test_search_the_rules_from_the_table_and_open_an_answer(server: Server, page: Page) -> None:
    code = start_with_house_rule(page, server)
    table_url = page.url
    search = page.locator("#rules-q")
    results = page.locator("#rules-results")
    expect(page.get_by_role("searchbox", name="Settle an argument")).to_be_visible()

    # Answers come as the question is typed, without pressing Ask and without leaving the table.
    search.press_sequentially("bomb last card", delay=40)
    first = results.locator("article.rule-result").first
    expect(first.get_by_role("heading")).to_have_text("A Bomb played as the last card of a hand")
    assert page.url == table_url
    assert results.locator("article.rule-result").count() <= 5
    expect(first).to_contain_text("Source: interpretation by the how-to FAQ author")
    expect(first.locator(".table-choice")).to_have_text(
        "At this table: a Bomb as last card only ends the round: "
        "nobody answers it, and only the round end costs a life."
    )

    # Open the answer: the ruling, its reasoning and source, and what this table chose.
    first.get_by_role("link", name="A Bomb played as the last card of a hand").click()
    page.wait_for_url(re.compile(r"/rules/bomb-last-card\?table=" + code))
    expect(page.get_by_role("heading", level=1)).to_have_text("A Bomb played as the last card of a hand")
    # This table chose the other reading: its ruling is the bold verdict, the usual answer follows, labelled.
    expect(page.locator(".rule-entry > .verdict")).to_contain_text("At this table: a Bomb as last card only ends")
    expect(page.locator(".usual-ruling")).to_contain_text("everyone else must answer the Bomb with a 0")
    expect(page.locator(".rule-entry > .rule-source")).to_have_text(
        "Source: interpretation by the how-to FAQ author (Eric Mortensen); the printed texts are silent"
    )
    expect(page.locator(".table-choice")).to_contain_text("At this table: a Bomb as last card only ends the round")
    expect(page.get_by_role("listitem").filter(has_text="Only the round ends")).to_contain_text("this table")
    expect(page.get_by_role("listitem").filter(has_text="Usual")).not_to_contain_text("this table")

    # Back at the table, the question and its answers are where they were, not gone.
    page.get_by_role("link", name=f"Back to table {code}").click()
    page.wait_for_url(table_url + "?q=bomb+last+card#rules-search")
    expect(search).to_have_value("bomb last card")
    expect(first.get_by_role("heading")).to_have_text("A Bomb played as the last card of a hand")
    expect(page.locator("#rules-search")).to_be_in_viewport()
    # Ask (the phone keyboard's search key) answers here too, without leaving the table.
    search.fill("skip two players")
    search.press("Enter")
    expect(first.get_by_role("heading")).to_have_text("Skip with two players")
    assert page.url.startswith(table_url)

    # A ruling in the log links to its reasoning too.
    card(page, "Bomb").click()
    tap(page, page.get_by_role("dialog", name="Who put down a 0?").get_by_role("button", name="Confirm"))
    expect(newest_log(page)).to_contain_text("No 0 from Bob and Cy.")
    newest_log(page).get_by_role("link", name=re.compile(r"^Why\?")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bomb")
    expect(page.locator(".rule-entry > .rule-source")).to_have_text("Source: 1994 rules; how-to FAQ; modern text")
