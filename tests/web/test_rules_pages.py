"""The rules panel pages and the "Why?" links that lead to them from a table."""

from __future__ import annotations

from pathlib import Path

from conftest import Api
from flask import Flask

from referee import rulebook
from tools.harness import Browser, LiveServer

from .conftest import Phone, parse


def test_rules_page_lists_every_entry_once(phone: Phone) -> None:
    response = phone.open("/rules")
    assert response.status_code == 200
    assert len(response.get_data()) < 1_000_000  # a phone page, not a dump
    articles = phone.page.find_all("article", class_="rule-entry")
    ids = [article["id"] for article in articles]
    assert sorted(ids) == sorted(item.id for item in rulebook.entries())
    assert phone.page.find("input", id="rules-q") is not None


def test_rules_page_for_a_table_shows_its_house_rules(api: Api, phone: Phone) -> None:
    api.create(["Ann", "Bob"], house_rules={"over_21": "bust"})
    phone.open(f"/rules?table={api.code}")
    assert f"House rules at table {api.code}" in phone.page.text()
    # In plain words: the table's reading, never the switch's internal name.
    text = phone.page.text()
    assert "This table: The card may be laid down, but it counts as a bust" in text
    assert "over_21" not in text


def test_one_rule_and_an_unknown_one(phone: Phone) -> None:
    response = phone.open("/rules/bust")
    assert response.status_code == 200
    assert phone.page.find("h1").text() == rulebook.entry("bust").title  # type: ignore[union-attr]
    assert phone.open("/rules/no-such-rule").status_code == 404


def test_a_merged_entrys_old_address_leads_to_the_entry_it_became(phone: Phone) -> None:
    # Overlapping entries were merged: an old link (a bookmark, a shared URL) still opens the ruling.
    response = phone.open("/rules/miscounted-total?table=ABCDEF")
    assert response.status_code == 301
    assert response.headers["Location"].endswith("/rules/undo?table=ABCDEF")
    page = phone.client.get("/rules/draw-pile-order", follow_redirects=True)
    assert page.status_code == 200
    assert parse(page.get_data(as_text=True)).find("h1").text() == "When the draw pile runs out, and who goes short"  # type: ignore[union-attr]
    # ... and /rules#old-id still lands on the merged entry's article
    phone.open("/rules")
    article = phone.page.by_id("empty-draw-pile")
    assert article.find("span", id="draw-pile-order") is not None
    assert article.find("span", id="draw-pile-runs-out-draw-2") is not None


def test_the_real_server_redirects_an_old_rule_address(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "rules.sqlite3") as server:
        browser = Browser(server.port)
        try:
            moved = browser.request("GET", "/rules/two-empty-hands-bomb")
            assert moved.status == 301
            assert moved.headers["location"].endswith("/rules/zero-answer-last-card")
            assert (
                "Your last card was a 0 you gave to a Bomb" in browser.request("GET", moved.headers["location"]).text()
            )
        finally:
            browser.close()


def test_search_fragment(phone: Phone) -> None:
    response = phone.client.get("/rules/search?q=bomb+last+card", headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" not in html
    results = parse(html).find_all("article", class_="rule-result")
    assert 1 <= len(results) <= 5
    assert phone.client.get("/rules/search?q=").status_code == 200


def test_why_links_from_the_log_open(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.press("Bomb")  # opens the sheet without JavaScript
    phone.open(f"/t/{code}?sheet=bomb")
    phone.press("Confirm", within=phone.page.by_id("bomb-sheet"), zeros=["Bob", "Cy"])
    phone.open(f"/t/{code}")
    links = phone.page.by_id("log").find_all("a", class_="why")
    assert links
    for link in links:
        assert link["aria-label"].startswith("Why?")
        assert phone.client.get(link["href"]).status_code == 200


def test_the_search_box_reads_a_paragraph_to_its_question(phone: Phone) -> None:
    """The rules panel cuts a long question as the search does, keeping its last sentence (the question), not its first
    200 characters (the story)."""
    paragraph = " ".join(
        (
            "We are four at the kitchen table on a Sunday: my mother, my two cousins and me.",
            "My cousin dealt, the total had climbed to 17 and the draw pile was getting thin, and everybody had strong",
            "opinions about the old box and the new one, which print the cards under different names.",
            "My mother held only a 6 and a 7, so whatever she put down would take the total past 21, and she turned",
            "over one of her Alive cards. Now the table is split down the middle.",
            "When a player busts, do they keep the card they could not play, or does it go on the pile?",
        )
    )
    for question in (paragraph, "So. " * 400 + paragraph):
        response = phone.client.get("/rules/search", query_string={"q": question}, headers={"HX-Request": "true"})
        assert response.status_code == 200
        first = parse(response.get_data(as_text=True)).find("article", class_="rule-result")
        link = first.find("a") if first is not None else None
        assert link is not None and link["href"].startswith("/rules/bust-keeps-card"), first
