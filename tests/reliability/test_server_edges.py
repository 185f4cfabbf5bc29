"""What only the real server shows: a reverse proxy's headers, Host names (DNS rebinding), database file modes.

Every test runs `referee serve` in a subprocess (tools/harness.py) and talks HTTP to it, so whichever
server `referee serve` runs has to pass the proxy's headers through for the app to judge, answer the Host
check's 400 with a sentence, and create the database as the app says. A second loopback source address
(127.0.0.2) plays a phone on the Wi-Fi, which the app must not take for the trusted proxy (127.0.0.1).
"""

from __future__ import annotations

import json
import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.harness import Client, LiveServer, Reply

PUBLIC_HOST = "referee.example"
NEW_TABLE = json.dumps({"players": ["Ann", "Bob"]}).encode()


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[LiveServer]:
    """A real server that knows its public name, with a small table limit so limits are quick to reach."""
    live = LiveServer(
        database_url,
        logs=tmp_path / "logs",
        env={"REFEREE_ALLOWED_HOSTS": f"{PUBLIC_HOST}, games.example", "REFEREE_TABLES_PER_MINUTE": "3"},
    )
    live.start()
    try:
        yield live
    finally:
        live.stop()


def new_table(client: Client, **headers: str) -> Reply:
    """POST a new table through the API with extra headers."""
    return client.request("POST", "/api/v1/tables", NEW_TABLE, {"Content-Type": "application/json", **headers})


# --- a reverse proxy on this machine ----------------------------------------------------------------------


def proxied(phone: str) -> dict[str, str]:
    """What nginx or Caddy in front of the server adds for a phone at `phone` that opened https://PUBLIC_HOST."""
    return {"X-Forwarded-Proto": "https", "X-Forwarded-Host": PUBLIC_HOST, "X-Forwarded-For": phone}


def test_behind_a_local_https_proxy_join_links_are_https_on_the_public_name(server: LiveServer) -> None:
    with Client(server.port) as proxy:  # from 127.0.0.1: the trusted proxy
        reply = new_table(proxy, **proxied("203.0.113.5"))
        assert reply.status == 201, reply.text()
        # The secret in the link must not travel in clear, nor point at the server's direct address.
        assert reply.json()["join_url"].startswith(f"https://{PUBLIC_HOST}/j/{reply.json()['code']}/")


def test_behind_a_local_proxy_each_phone_has_its_own_limit(server: LiveServer) -> None:
    with Client(server.port) as proxy:
        assert [new_table(proxy, **proxied("203.0.113.5")).status for _ in range(4)] == [201, 201, 201, 429]
        # One busy phone behind the proxy does not block the next one.
        assert new_table(proxy, **proxied("203.0.113.6")).status == 201


def test_a_phone_on_the_wifi_cannot_pose_as_the_proxy(server: LiveServer) -> None:
    with Client(server.port, source="127.0.0.2") as phone:
        statuses = []
        for number in range(4):
            reply = new_table(phone, **proxied(f"198.51.100.{number}"))
            statuses.append(reply.status)
            if reply.status == 201:
                # Its made-up headers are ignored: the link is on the address it really used.
                assert not reply.json()["join_url"].startswith(("https:", f"http://{PUBLIC_HOST}"))
        # Made-up X-Forwarded-For addresses do not buy it more tables.
        assert statuses == [201, 201, 201, 429]


# --- Host names -----------------------------------------------------------------------------------------


def host_reply(server: LiveServer, host: str, path: str = "/") -> Reply:
    """GET `path` with this Host header."""
    with Client(server.port) as client:
        return client.request("GET", path, headers={"Host": host})


def test_addresses_and_this_machines_names_are_answered(server: LiveServer) -> None:
    for host in (
        f"127.0.0.1:{server.port}",
        "localhost",
        f"localhost:{server.port}",
        "[::1]:8000",
        "192.168.1.20:8000",
        "10.0.0.7",
        socket.gethostname(),
        f"{socket.gethostname()}.local:{server.port}",
        PUBLIC_HOST,
        "GAMES.example:443",
    ):
        assert host_reply(server, host).status == 200, host


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", f"{PUBLIC_HOST}.evil.example", "127.0.0.1.evil.example", "x"]
)
def test_other_host_names_get_a_400_with_a_sentence(server: LiveServer, host: str) -> None:
    # A web page on evil.example whose name was re-pointed at this server (DNS rebinding) sends Host: evil.example.
    page = host_reply(server, host)
    assert page.status == 400
    assert "not a name this server answers to" in page.text()
    assert page.headers.get("x-frame-options") == "DENY"  # the app's answer, headers and all
    api = host_reply(server, host, "/api/v1/openapi.json")
    assert api.status == 400
    assert api.json()["error"]["code"] == "bad_host"
    # The live stream, answered before Flask by the server's front, refuses it too.
    stream = host_reply(server, host, "/t/ABC234/events")
    assert stream.status == 400
    assert "not a name this server answers to" in stream.text()


def test_a_proxy_forwarding_an_unknown_public_name_is_refused(server: LiveServer) -> None:
    with Client(server.port) as proxy:
        reply = new_table(proxy, **{**proxied("203.0.113.5"), "X-Forwarded-Host": "evil.example"})
        assert reply.status == 400
        assert reply.json()["error"]["code"] == "bad_host"


# --- files ------------------------------------------------------------------------------------------------


@pytest.mark.sqlite
def test_the_database_and_its_wal_files_are_readable_by_this_user_only(tmp_path: Path) -> None:
    database = tmp_path / "data" / "referee.sqlite3"
    previous = os.umask(0o022)  # the usual umask: files other users may read, unless the app says otherwise
    try:
        with LiveServer(database, logs=tmp_path / "logs") as live, Client(live.port) as client:
            assert new_table(client).status == 201
            files = [database, database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")]
            for path in files:
                assert path.exists(), path
                mode = stat.S_IMODE(path.stat().st_mode)
                assert mode & 0o077 == 0, f"{path.name} is {oct(mode)}"
    finally:
        os.umask(previous)


def test_the_servers_own_answer_to_a_broken_request_has_nothing_to_render(server: LiveServer) -> None:
    # A request the server cannot parse never reaches the app, so it gets none of the app's headers: its answer
    # must then carry nothing a browser could render, sniff or frame (waitress answered with a text page).
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nThis is no header\r\n\r\n")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400")
    assert body == b""
    assert b"content-length: 0" in head.lower()
    assert b"content-type" not in head.lower()
