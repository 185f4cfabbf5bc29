"""After a rematch every phone moves to the new table by itself, within 3 s, as the table display does: the players'
phones keep their seats and a watching phone keeps watching (nobody has to tap "Go to the new table")."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Phones, Server
from .table import expect_version, join, wait_live


def finish(server: Server, code: str, token: str) -> None:
    """Ann's Bombs, unanswered, cost Bob and Cy a life each until Ann wins."""
    while (state := server.state(code))["status"] == "playing":
        current = state["current"]
        server.act(code, token, type="play", player=current, card="bomb" if current == "Ann" else "0", zeros=[])


@pytest.mark.browser
def test_every_phone_is_on_the_new_table_within_3_s_of_a_rematch(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    ann = phones.seated(server, table, "Ann")
    bob = phones.seated(server, table, "Bob")
    watcher = phones.new()
    join(watcher, server.local(table["join_url"]), "Just watching")
    wait_live(watcher)
    display = phones.new()
    display.goto(f"{server.url}/t/{code}/display")
    wait_live(display)
    finish(server, code, token)
    version = server.state(code)["version"]
    for phone in (ann, bob, watcher):
        expect_version(phone, version)
    status, body = server.request("POST", f"/api/v1/tables/{code}/rematch", {}, token=token)
    assert status == 201, body
    started = time.monotonic()
    new = str(body["code"])
    pages: dict[str, Any] = {"Ann": ann, "Bob": bob, "watching": watcher, "display": display}
    for who, page in pages.items():
        target = f"{server.url}/t/{new}" + ("/display" if who == "display" else "")
        expect(page).to_have_url(target, timeout=max(1, (3.0 - (time.monotonic() - started)) * 1000))
    assert time.monotonic() - started < 3.0
    expect(ann.locator("#strip .me")).to_have_text("You're Ann")
    expect(bob.locator("#strip .me")).to_have_text("You're Bob")
    expect(watcher.locator("#strip .me")).to_have_text("You're watching")
