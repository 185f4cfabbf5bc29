"""The host's phone as one of the players, through the real server (`referee serve` in a subprocess)."""

from __future__ import annotations

import html
import re
import urllib.parse

from tools.harness import Browser, LiveServer


def csrf(page: str) -> str:
    """The CSRF token of the page's forms."""
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def start(host: Browser, names: list[str], entry: str = "joined") -> str:
    """Start a table from the home page's form; return its code (the host lands in the lobby)."""
    form = [("csrf", csrf(host.request("GET", "/").text())), *(("name", name) for name in names), ("op", "start")]
    form.append(("entry", entry))
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


def test_a_seat_on_another_phone_asks_first_over_the_wire(live_server: LiveServer) -> None:
    gran, max_phone = Browser(live_server.port), Browser(live_server.port, source="127.0.0.2")
    try:
        code = start(gran, ["Gran", "Max"])
        table = gran.request("GET", f"/t/{code}").text()
        link = re.search(rf"(/j/{code}/[A-Za-z0-9_-]+)", table)
        assert link is not None
        join_page = max_phone.request("GET", link.group(1)).text()
        joined = max_phone.request("POST", link.group(1), [("csrf", csrf(join_page)), ("who", "player:Max")])
        assert joined.status == 303
        asked = gran.request("POST", f"/t/{code}/me", [("csrf", csrf(table)), ("who", "player:Max")], htmx=True)
        assert asked.status == 204 and asked.headers["hx-redirect"] == f"/t/{code}/me?take=Max&back=table"
        question = gran.request("GET", asked.headers["hx-redirect"]).text()
        assert "Max is on another phone. Is this Max's new phone?" in text(question)
        assert "You're Max" in text(max_phone.request("GET", f"/t/{code}").text())  # nothing changed yet
        # The yes names the phone it takes the seat from (Max's, as the question was asked).
        holder = re.search(r'name="take" value="(\d+)"', question)
        assert holder is not None
        form = [("csrf", csrf(table)), ("who", "player:Max"), ("take", holder[1]), ("back", "table")]
        assert gran.request("POST", f"/t/{code}/me", form).status == 303
        assert "You're Max" in text(gran.request("GET", f"/t/{code}").text())
        moved = text(max_phone.request("GET", f"/t/{code}").text())
        assert "Max is on another phone now: this phone only watches." in moved
    finally:
        gran.close()
        max_phone.close()
