"""A tap posted from a table page carries the version the phone saw; through the real server (`referee serve`),
a version that is not a whole number is refused with a sentence and enters nothing."""

from __future__ import annotations

import re

from tools.harness import Browser, LiveServer

from .test_host_plays import csrf, start, text


def shown_version(host: Browser, code: str) -> str:
    """The version the table page shows now."""
    found = re.search(r'data-version="(\d+)"', host.request("GET", f"/t/{code}").text())
    assert found is not None
    return found.group(1)


def test_a_garbled_version_is_refused_and_enters_nothing(live_server: LiveServer) -> None:
    host = Browser(live_server.port)
    try:
        code = start(host, ["Ann", "Bob", "Cy"])
        token = csrf(host.request("GET", f"/t/{code}").text())
        tap = [("csrf", token), ("kind", "play"), ("player", "Ann"), ("card", "7")]
        for garbled in ("abc", "", "-1", "1e3", "2.0", " 0", "０", "9" * 5000):
            refused = host.request("POST", f"/t/{code}/act", [*tap, ("version", garbled)], htmx=True)
            assert refused.status == 400, garbled[:20]
            assert "garbled page version, so nothing was entered: reload the table" in text(refused.text())
            assert shown_version(host, code) == "0", garbled[:20]
        # A plain browser (no htmx) is sent back to the table, which says the same.
        refused = host.request("POST", f"/t/{code}/act", [*tap, ("version", "abc")])
        assert refused.status == 303
        assert "garbled page version" in text(host.request("GET", f"/t/{code}").text())
        assert shown_version(host, code) == "0"
        # The version the page showed is still taken, and the card goes in.
        entered = host.request("POST", f"/t/{code}/act", [*tap, ("version", "0")], htmx=True)
        assert entered.status == 200
        assert "Ann played 7" in text(entered.text())
        assert shown_version(host, code) == "1"
    finally:
        host.close()
