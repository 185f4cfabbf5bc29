"""The rematch through the real server (`referee serve` in a subprocess): only the host's phone changes its settings
(another phone's forged change is refused in a sentence and starts nothing), a refused change comes back open
beside its button, and both tables say what the host changed."""

from __future__ import annotations

import re

from referee.service.access import ONLY_THE_HOST_CHANGES as HOST_ONLY
from tools.harness import Browser, LiveServer

from .test_host_plays import csrf, start, text


def finish(host: Browser, code: str) -> None:
    """Play the table to a winner from the host's phone: each turn, one card left and then a 0."""
    for _ in range(200):
        page = host.request("GET", f"/t/{code}").text()
        if "Standings" in page:
            return
        player = re.search(r'<span class="turn-name">([^<]+)</span>', page)
        assert player is not None, "nobody's turn and no standings"
        token, name = csrf(page), player.group(1)
        for form in ([("kind", "hand"), ("cards", "1")], [("kind", "play"), ("card", "0")]):
            done = host.request("POST", f"/t/{code}/act", [("csrf", token), ("player", name), *form], htmx=True)
            assert done.status == 200, text(done.text())[:300]
    raise AssertionError("the game did not end")


def change(phone: Browser, code: str, token: str, **fields: str | list[str]) -> list[tuple[str, str]]:
    """The change form's fields as a browser sends them."""
    form = [("csrf", token)]
    for name, value in fields.items():
        form.extend((name, item) for item in (value if isinstance(value, list) else [value]))
    return form


def test_only_the_host_changes_the_rematch_and_both_tables_say_what_changed(live_server: LiveServer) -> None:
    host, bob = Browser(live_server.port), Browser(live_server.port, source="127.0.0.2")
    try:
        code = start(host, ["Ann", "Bob", "Cy", "Dee"])
        link = re.search(rf"(/j/{code}/[A-Za-z0-9_-]+)", host.request("GET", f"/t/{code}").text())
        assert link is not None
        joined = bob.request(
            "POST", link.group(1), [("csrf", csrf(bob.request("GET", link.group(1)).text())), ("who", "player:Bob")]
        )
        assert joined.status == 303
        finish(host, code)

        # Bob's phone: the plain rematch only; a forged change is refused in a sentence and starts nothing.
        page = bob.request("GET", f"/t/{code}").text()
        assert "Rematch with the same players" in page and "rematch-form" not in page
        forged = bob.request(
            "POST", f"/t/{code}/rematch", change(bob, code, csrf(page), first="2", hr_over_21="bust"), htmx=True
        )
        assert forged.status == 403
        assert HOST_ONLY in text(forged.text())
        assert "A rematch has started" not in text(bob.request("GET", f"/t/{code}").text())

        # The host's phone: a change that does not fit comes back open, choices kept, the reason beside the button.
        page = host.request("GET", f"/t/{code}").text()
        teams = change(host, code, csrf(page), first="2", variant="teams", team=["A", "A", "A", "B"])
        refused = host.request("POST", f"/t/{code}/rematch", teams, htmx=True)
        assert refused.status == 400
        board = refused.text()
        assert '<details class="rematch-changes" id="rematch-changes" open>' in board
        assert re.search(
            r'<p id="rematch-error" class="field-error" role="alert">The two teams must be the same size', board
        )
        assert re.search(r'name="first" value="2"[^>]* checked', board)
        assert re.search(r'name="variant" value="teams"[^>]* checked', board)
        assert "A rematch has started" not in text(bob.request("GET", f"/t/{code}").text())

        # Then a change that fits: Cy starts and going over 21 costs a life at once.
        started = host.request(
            "POST", f"/t/{code}/rematch", change(host, code, csrf(page), first="2", hr_over_21="bust"), htmx=True
        )
        assert started.status == 204
        new = started.headers["hx-redirect"].rsplit("/", 1)[-1]
        old_page = text(bob.request("GET", f"/t/{code}").text())
        assert "A rematch has started, changed by the host: Cy starts, a house rule. Go to the new table" in old_page
        new_page = text(bob.request("GET", f"/t/{new}").text())
        assert "New game. Changed by the host: Cy starts; going over 21 costs a life at once" in new_page
        assert "Cy 's turn" in new_page  # (the name is a span of its own)
    finally:
        host.close()
        bob.close()
