"""The host's phone as one of the players, through the real server (`referee serve` in a subprocess)."""

from __future__ import annotations

import html
import re
import urllib.parse

from referee.harness import Browser, LiveServer


def csrf(page: str) -> str:
    """The CSRF token of the page's forms."""
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def start(host: Browser, names: list[str]) -> str:
    """Start a table from the home page's form; return its code (the host lands in the lobby)."""
    form = [("csrf", csrf(host.request("GET", "/").text())), *(("name", name) for name in names), ("op", "start")]
    started = host.request("POST", "/", form)
    assert started.status == 303
    lobby = urllib.parse.urlsplit(started.headers["location"]).path
    assert lobby.endswith("/lobby")
    return lobby.removesuffix("/lobby").rsplit("/", 1)[-1]


def text(page: str) -> str:
    """The page's words, tags left out (for sentences split over lines)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_gran_picks_herself_in_the_lobby_and_her_phone_cues_her_turn(live_server: LiveServer) -> None:
    gran = Browser(live_server.port)
    try:
        code = start(gran, ["Gran", "Max", "Lily"])
        lobby = gran.request("GET", f"/t/{code}/lobby").text()
        assert "Which one is you?" in lobby
        assert re.findall(r'name="who" value="([^"]+)"', lobby) == ["player:Gran", "player:Max", "player:Lily", "score"]
        chosen = gran.request(
            "POST", f"/t/{code}/me", [("csrf", csrf(lobby)), ("who", "player:Gran"), ("back", "lobby")]
        )
        assert chosen.status == 303 and chosen.headers["location"].endswith(f"/t/{code}/lobby")
        lobby = text(gran.request("GET", f"/t/{code}/lobby").text())
        assert "This phone is Gran's now; it is still the host." in lobby
        assert "✓ Gran has joined" in lobby

        table = text(gran.request("GET", f"/t/{code}").text())
        assert "You're Gran Your turn!" in table

        # Her own join link and her own code both say she is the host, never nothing.
        link = re.search(rf"(/j/{code}/[A-Za-z0-9_-]+)", gran.request("GET", f"/t/{code}").text())
        assert link is not None
        opened = gran.request("GET", link.group(1))
        assert opened.status == 302 and opened.headers["location"].endswith(f"/t/{code}/me")
        typed = gran.request("GET", f"/watch?code={code.lower()}")
        assert typed.status == 302 and typed.headers["location"].endswith(f"/t/{code}/me")
        page = text(gran.request("GET", f"/t/{code}/me").text())
        assert "This is your table" in page and "This phone is Gran 's (and the host's)." in page
    finally:
        gran.close()


def test_a_seat_on_another_phone_is_refused_over_the_wire(live_server: LiveServer) -> None:
    gran, max_phone = Browser(live_server.port), Browser(live_server.port, source="127.0.0.2")
    try:
        code = start(gran, ["Gran", "Max"])
        table = gran.request("GET", f"/t/{code}").text()
        link = re.search(rf"(/j/{code}/[A-Za-z0-9_-]+)", table)
        assert link is not None
        join_page = max_phone.request("GET", link.group(1)).text()
        joined = max_phone.request("POST", link.group(1), [("csrf", csrf(join_page)), ("who", "player:Max")])
        assert joined.status == 303
        refused = gran.request("POST", f"/t/{code}/me", [("csrf", csrf(table)), ("who", "player:Max")], htmx=True)
        assert refused.status == 204 and refused.headers["hx-redirect"] == f"/t/{code}#join"
        page = text(gran.request("GET", f"/t/{code}").text())
        assert "Another phone is already Max's. To be Max on this phone, remove that phone first" in page
        assert "You're the host" in page
        assert "You're Max" in text(max_phone.request("GET", f"/t/{code}").text())
    finally:
        gran.close()
        max_phone.close()
