"""Join links and QR codes name an address the server really listens on."""

from __future__ import annotations

import re
from pathlib import Path

from referee.web.links import link_for_phones
from tools.harness import Browser, LiveServer

LINK = "http://127.0.0.1:8000/j/ABCDEF/secret"


def test_bound_to_every_interface_a_loopback_link_becomes_the_lan_address() -> None:
    assert link_for_phones(LINK, listen_host="0.0.0.0", public_url=None, lan="192.0.2.7") == (
        "http://192.0.2.7:8000/j/ABCDEF/secret"
    )


def test_bound_to_loopback_the_link_keeps_the_requests_own_host() -> None:
    assert link_for_phones(LINK, listen_host="127.0.0.1", public_url=None, lan="192.0.2.7") == LINK


def test_a_public_url_wins_behind_a_proxy() -> None:
    assert link_for_phones(LINK, listen_host="127.0.0.1", public_url="https://cards.example/ref/", lan=None) == (
        "https://cards.example/ref/j/ABCDEF/secret"
    )


def _lobby_link(server: LiveServer) -> str:
    host = Browser(server.port)
    try:
        home = host.request("GET", "/").text()
        csrf = re.search(r'name="csrf" value="([^"]+)"', home)
        assert csrf is not None
        started = host.request(
            "POST", "/", [("csrf", csrf.group(1)), ("name", "Ann"), ("name", "Bob"), ("op", "start")]
        )
        lobby = host.request("GET", started.headers["location"]).text()
    finally:
        host.close()
    found = re.search(r'class="join-link">([^<]+)<', lobby)
    assert found is not None
    return found.group(1)


def test_referee_serve_on_loopback_links_to_loopback_and_public_url_overrides(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "a.sqlite3") as server:  # `referee serve --host 127.0.0.1`
        assert _lobby_link(server).startswith(f"http://127.0.0.1:{server.port}/j/")
    env = {"REFEREE_PUBLIC_URL": "https://referee.example"}
    with LiveServer(tmp_path / "b.sqlite3", env=env) as server:
        assert _lobby_link(server).startswith("https://referee.example/j/")
