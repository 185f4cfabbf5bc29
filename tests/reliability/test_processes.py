"""Several server processes share one database: a change made through one reaches phones streaming from another."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.harness import HOST, Client, LiveServer

SHARED = {"REFEREE_CROSS_PROCESS_UPDATES": "true"}


@pytest.fixture
def two_servers(tmp_path: Path, database_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two `referee serve` processes on one database (as behind a load balancer, or `--workers 2`)."""
    servers = (
        LiveServer(database_url, logs=tmp_path / "a", env=SHARED),
        LiveServer(database_url, logs=tmp_path / "b", env=SHARED),
    )
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def _revisions(stream: http.client.HTTPResponse, until: float) -> Iterator[int]:
    """The revisions a live stream announces, until the deadline."""
    while time.monotonic() < until:
        line = stream.readline().decode()
        if line.startswith("data:"):
            yield int(json.loads(line[5:])["revision"])


def _table_heard_from(
    first: LiveServer, second: LiveServer
) -> tuple[str, str, Iterator[int], http.client.HTTPConnection]:
    """Make a table through `first`; open its live stream on `second`: code, token, revisions heard, connection."""
    with Client(first.port) as client:
        created = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
    listening = http.client.HTTPConnection(HOST, second.port, timeout=5)
    listening.request("GET", f"/t/{created['code']}/events")
    stream = listening.getresponse()
    assert stream.status == 200
    heard = _revisions(stream, time.monotonic() + 10)
    assert next(heard) == 0  # the stream first says where the table is
    return created["code"], created["token"], heard, listening


def test_a_tap_through_one_process_reaches_a_phone_streaming_from_the_other(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    first, second = two_servers
    code, token, heard, listening = _table_heard_from(first, second)
    with Client(first.port) as client:
        for version, (player, card) in enumerate((("Ann", "3"), ("Bob", "4"), ("Ann", "5")), start=1):
            sent = time.monotonic()
            reply = client.json(
                "POST", f"/api/v1/tables/{code}/actions", {"type": "play", "player": player, "card": card}, token
            )
            assert reply.status == 200
            # The other process's phone hears of it well within a second.
            assert next(heard) == version
            assert time.monotonic() - sent < 1.0
    listening.close()
    with Client(second.port) as client:
        assert client.json("GET", f"/api/v1/tables/{code}").json()["total"] == 12


def test_serve_with_two_workers_keeps_every_phone_current_and_stops_them_all(tmp_path: Path, database_url: str) -> None:
    server = LiveServer(database_url, logs=tmp_path / "logs", args=["--workers", "2"])
    server.start()
    try:
        with Client(server.port) as client:
            created = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
        code, token = created["code"], created["token"]
        # Eight phones: the kernel hands their connections to either worker.
        phones = []
        for _ in range(8):
            connection = http.client.HTTPConnection(HOST, server.port, timeout=5)
            connection.request("GET", f"/t/{code}/events")
            response = connection.getresponse()
            assert response.status == 200
            heard = _revisions(response, time.monotonic() + 10)
            assert next(heard) == 0
            phones.append((connection, heard))
        with Client(server.port) as client:
            action = {"type": "play", "player": "Ann", "card": "7"}
            assert client.json("POST", f"/api/v1/tables/{code}/actions", action, token).status == 200
        for _, heard in phones:
            assert next(heard) == 1
        for connection, _ in phones:
            connection.close()
        workers = _children(server.pid)
        assert len(workers) == 2
    finally:
        server.stop()
    # Stopping the server stops its workers too.
    assert all(not Path(f"/proc/{pid}").exists() for pid in workers)


def _children(pid: int) -> list[int]:
    """The process ids whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _cookie(reply_cookies: list[str], jar: dict[str, str]) -> dict[str, str]:
    """Keep the cookies a reply set, as a browser would; return the Cookie header to send next."""
    for cookie in reply_cookies:
        name, _, value = cookie.split(";", 1)[0].partition("=")
        jar[name.strip()] = value
    return {"Cookie": "; ".join(f"{name}={value}" for name, value in jar.items())}


def test_a_request_to_play_made_through_one_process_is_heard_and_answered_through_the_other(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    first, second = two_servers
    code, token, heard, listening = _table_heard_from(first, second)
    jar: dict[str, str] = {}
    with Client(first.port) as asker:
        page = asker.request("GET", f"/t/{code}")
        csrf = page.text().split('name="csrf" value="', 1)[1].split('"', 1)[0]
        form = f"csrf={csrf}&player=Bob".encode()
        headers = {**_cookie(page.cookies, jar), "Content-Type": "application/x-www-form-urlencoded"}
        sent = time.monotonic()
        asked = asker.request("POST", f"/t/{code}/ask", form, headers)
        assert asked.status == 303
        cookie = _cookie(asked.cookies, jar)  # asking gives the phone a new key, as joining does
        # The host's phone, streaming from the other process, hears of the request well within a second.
        assert next(heard) == 1
        assert time.monotonic() - sent < 1.0
        with Client(second.port) as host:
            listed = host.json("GET", f"/api/v1/tables/{code}/join-requests", token=token).json()["requests"]
            assert [(r["player"], r["status"]) for r in listed] == [("Bob", "pending")]
            allowed = host.json("POST", f"/api/v1/tables/{code}/join-requests/{listed[0]['id']}/allow", token=token)
            assert allowed.status == 200
        assert next(heard) == 2
        assert "You&#39;re Bob" in asker.request("GET", f"/t/{code}", headers=cookie).text()
    listening.close()


def test_processes_sharing_a_database_share_its_rate_limits(tmp_path: Path, database_url: str) -> None:
    """Processes count rate limits together: counting alone, one token alternating between two processes got 20
    actions a minute through a limit of 10, and one address twice its new tables."""
    limits = {**SHARED, "REFEREE_TOKEN_ACTIONS_PER_MINUTE": "10", "REFEREE_TABLES_PER_MINUTE": "4"}
    servers = [LiveServer(database_url, logs=tmp_path / name, env=limits).start() for name in ("a", "b")]
    try:
        clients = [Client(server.port) for server in servers]
        made = [clients[number % 2].json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}) for number in range(5)]
        assert [reply.status for reply in made] == [201, 201, 201, 201, 429]
        refused = made[-1]
        assert 0 < int(refused.headers["retry-after"]) <= 60
        code, token = made[0].json()["code"], made[0].json()["token"]
        statuses = [
            clients[number % 2]
            .json(
                "POST",
                f"/api/v1/tables/{code}/actions",
                {"type": "hand", "player": "Ann", "cards": 5 + number % 2},
                token,
            )
            .status
            for number in range(11)
        ]
        assert statuses == [200] * 10 + [429]
        for client in clients:
            client.close()
    finally:
        for server in servers:
            server.stop()
