"""Small screens and the accessibility check: every page at 320 px, at 200 % zoom and with 200 % text,
never scrolls sideways; axe-core finds no violation on any page, light or dark."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import LOBBY_URL, cut_text
from .test_game_over import finish_a_game
from .test_tiebreak_shown import sudden_death_tie

# axe-core's run options (https://www.deque.com/axe/core-documentation/api-documentation/#options-parameter):
# also the experimental "label-content-name-mismatch" (WCAG 2.5.3, off by default), so a button whose name
# does not contain its visible text ("2" for "2 makes 14") fails here.
AXE_OPTIONS = {"resultTypes": ["violations"], "rules": {"label-content-name-mismatch": {"enabled": True}}}
# 200 % zoom of a 1280×720 laptop window, as CSS pixels; 320 px is WCAG's reflow width.
SIZES = {"320 px": {"width": 320, "height": 640}, "200 % zoom": {"width": 640, "height": 360}}


@dataclass
class Pages:
    """The address of every kind of page, and the phone that may see each (the host sees the lobby)."""

    host: Page
    urls: dict[str, str]


@pytest.fixture
def pages(server: Server, phones: Phones) -> Iterator[Pages]:
    host = phones.new()
    host.goto(server.url + "/")
    for index, name in enumerate(["Annabelle-Marie", "Bob", "Cy"]):
        host.locator(f"#name-{index}").fill(name)
    host.get_by_role("button", name="Start the table").click()
    host.wait_for_url(LOBBY_URL)
    lobby = host.url
    join = server.local(host.locator("a.join-link").get_attribute("href") or "")
    table = lobby.removesuffix("/lobby")
    finished = server.create_table(["Ann", "Bob", "Cy"])
    finish_a_game(server, finished["code"], finished["token"])
    yield Pages(
        host,
        {
            "home": server.url + "/",
            "join": join,
            "lobby": lobby,
            "table": table,
            "rules": server.url + "/rules",
            "standings": f"{server.url}/t/{finished['code']}",
            "table display": table + "/display",
        },
    )


def sideways(page: Page) -> int:
    """How many CSS pixels the page is wider than the screen (0: no sideways scroll)."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


@pytest.mark.browser
def test_no_page_scrolls_sideways_at_320_px_200_percent_zoom_or_200_percent_text(pages: Pages) -> None:
    page = pages.host
    wide: list[str] = []
    for name, url in pages.urls.items():
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(url)
            if sideways(page) > 0:
                wide.append(f"{name} at {size}: {sideways(page)} px")
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(url)
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        if sideways(page) > 0:
            wide.append(f"{name} with 200 % text: {sideways(page)} px")
    assert not wide, wide


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_any_page(pages: Pages, scheme: str) -> None:
    page = pages.host
    page.emulate_media(color_scheme=scheme)
    axe = Axe()
    found: dict[str, list[str]] = {}
    for name, url in pages.urls.items():
        page.goto(url)
        results = axe.run(page, options=AXE_OPTIONS)
        violations = results.response["violations"]
        if violations:
            found[name] = [f"{v['id']}: {[node['target'] for node in v['nodes']][:4]}" for v in violations]
    assert not found, found


@pytest.mark.browser
@pytest.mark.parametrize("text", ["150%", "200%"])
def test_with_large_text_every_card_of_the_pad_is_whole_on_a_320_px_phone(pages: Pages, text: str) -> None:
    page = pages.host
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(pages.urls["table"])
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")
    assert page.locator("#pad .card").count() == 18  # eight numbers, ten wild cards
    assert cut_text(page, "#pad .card") == []  # no card off the screen, none with a word broken inside
    # Nor a player's name: never "Annab / elle- / Marie" beside full-width hearts; the hearts go under it.
    assert cut_text(page, "#players .pname", hyphens=True) == []
    assert sideways(page) == 0


# What a finger taps: buttons, links drawn as buttons, the header's links and the Fix summaries (not a link inside a
# sentence, which WCAG 2.5.8 leaves out). Every box on the page, with what it says.
TARGETS_JS = """() => [...document.querySelectorAll('button, a.button, header.top a, summary')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map(el => { const r = el.getBoundingClientRect();
    return {name: (el.getAttribute('aria-label') || el.innerText).trim().slice(0, 30),
            x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; })"""


def too_close(targets: list[dict[str, Any]], gap: float) -> list[str]:
    """Pairs of targets that overlap or stand less than `gap` px apart (a big finger hits both)."""
    found = []
    for index, one in enumerate(targets):
        for other in targets[index + 1 :]:
            apart_x = max(other["x"] - (one["x"] + one["w"]), one["x"] - (other["x"] + other["w"]))
            apart_y = max(other["y"] - (one["y"] + one["h"]), one["y"] - (other["y"] + other["h"]))
            if max(apart_x, apart_y) < gap:
                found.append(f"{one['name']} / {other['name']}")
    return found


@pytest.mark.browser
@pytest.mark.parametrize("name", ["table", "rules", "lobby", "home", "join", "standings"])
def test_every_target_is_big_enough_for_a_finger_and_none_touches_another(pages: Pages, name: str) -> None:
    """Every target is finger-sized and apart: header links 32 px tall and touching, Save, the sound switch, "New join
    link" and "Remove" at 36 px, and rules chips touching each other once made grandpa's finger hit the one beside."""
    page = pages.host
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(pages.urls[name])
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    page.evaluate("document.querySelectorAll('[data-sound-setting]').forEach(p => p.hidden = false)")
    targets = page.evaluate(TARGETS_JS)
    names = {target["name"] for target in targets}
    if name == "table":
        assert {"5 Alive Referee", "QR code", "Rules", "Save", "Cy has left the game"} <= names, names
    small = [f"{t['name']}: {t['w']:.0f}×{t['h']:.0f}" for t in targets if min(t["w"], t["h"]) < 44]
    assert not small, small
    assert not too_close(targets, 4), too_close(targets, 4)


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_a_pad_that_can_go_bust_or_a_tie_break(
    server: Server, phones: Phones, scheme: str
) -> None:
    """In the dark, "Can't play" (once white on light red) and the tie-break's cream box (once with the page's pale
    link and hint colours on it) must be easy to read; the pages above never show either."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    for player, card in (("Ann", "5"), ("Bob", "7"), ("Cy", "3")):
        server.act(table["code"], table["token"], type="play", player=player, card=card)
    code, _ = sudden_death_tie(server)
    ann = phones.seated(server, table, "Ann")
    ann.emulate_media(color_scheme=scheme)
    expect(ann.locator("#cant-play")).to_be_visible()
    ann_at_the_tie = phones.new()
    ann_at_the_tie.emulate_media(color_scheme=scheme)
    ann_at_the_tie.goto(f"{server.url}/t/{code}")
    expect(ann_at_the_tie.locator("#banner .tiebreak")).to_be_visible()
    found = {}
    for name, page in (("can't play", ann), ("tie-break", ann_at_the_tie)):
        violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
        found[name] = [f"{v['id']}: {[node['target'] for node in v['nodes']][:4]}" for v in violations]
    assert found == {"can't play": [], "tie-break": []}
