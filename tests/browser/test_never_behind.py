"""Every open phone shows the latest state within a second of the last action.

Bursts of back-to-back actions (from the API, and from phones tapping while the API plays) are sent
many times over; after each burst every phone must show the table's newest version within a second.
No pause between actions: each request is sent as soon as the previous one is answered.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import card, join, total, wait_live

LIVE_MS = 1000
BURSTS = 12
BURST_LENGTH = 6


def next_action(state: dict[str, Any]) -> dict[str, Any]:
    """A legal play for whoever's turn it is: a 1 while it fits, else =0 (keeps the game going)."""
    playing = "1" if state["total"] < 21 else "eq0"
    return {"type": "play", "player": state["current"], "card": playing}


def api_burst(server: Server, code: str, token: str, count: int) -> dict[str, Any]:
    """Enter `count` actions back to back through the API; return the last state."""
    state = server.state(code)
    for _ in range(count):
        status, body = server.request(
            "POST",
            f"/api/v1/tables/{code}/actions",
            next_action(state) | {"expected_version": state["version"]},
            token=token,
        )
        state = body["state"] if status == 409 else body
        assert status in (200, 409), body
    return state


def _burst_into(server: Server, code: str, token: str, errors: list[BaseException]) -> None:
    """An API burst run on a thread; a failure is kept for the test's thread to report."""
    try:
        api_burst(server, code, token, BURST_LENGTH)
    except BaseException as error:  # noqa: BLE001 - reported by the main thread
        errors.append(error)


def expect_converged(phones: list[Page], server: Server, code: str) -> float:
    """Every phone shows the table's newest version (and total) within a second; return the slowest time."""
    started = time.monotonic()
    state = server.state(code)
    for phone in phones:
        expect(phone.locator("#board")).to_have_attribute("data-version", str(state["version"]), timeout=LIVE_MS)
        expect(total(phone)).to_have_text(str(state["total"]), timeout=LIVE_MS)
    return time.monotonic() - started


def open_phones(server: Server, phones: Phones, link: str) -> list[Page]:
    ann, scorer, watcher = phones.new(), phones.new(), phones.new()
    join(ann, link, "Ann")
    join(scorer, link, "Keeping score (not playing)")
    join(watcher, link, "Just watching")
    for phone in (ann, scorer, watcher):
        wait_live(phone)
    return [ann, scorer, watcher]


@pytest.mark.browser
def test_watching_phones_converge_after_bursts_from_the_api(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    pages = open_phones(server, phones, server.local(table["join_url"]))
    slowest = 0.0
    for _ in range(BURSTS):
        api_burst(server, code, token, BURST_LENGTH)
        slowest = max(slowest, expect_converged(pages, server, code))
    print(f"converged after every API burst; slowest {slowest:.3f} s")


@pytest.mark.browser
def test_phones_converge_when_phones_and_the_api_act_at_once(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    pages = open_phones(server, phones, server.local(table["join_url"]))
    scorer = pages[1]
    slowest = 0.0
    for _ in range(BURSTS // 2):
        # The API plays a burst while the scorekeeper's phone taps as fast as its pad lets it.
        errors: list[BaseException] = []
        thread = threading.Thread(target=_burst_into, args=(server, code, token, errors))
        thread.start()
        for _ in range(BURST_LENGTH):
            button = card(scorer, "0")
            if button.count() and button.is_enabled():
                # Each card the API enters pauses the scorer's pad for a second (static/js/onetap.js): the click
                # waits for the pad to take taps again, as a finger would.
                button.click(timeout=5000)
        thread.join(10)
        assert not errors, errors
        # The scorekeeper's last tap must have been answered before the table's newest state is read.
        expect(scorer.locator("#board form.htmx-request")).to_have_count(0)
        slowest = max(slowest, expect_converged(pages, server, code))
    print(f"converged after every mixed burst; slowest {slowest:.3f} s")
