"""The live stream (/t/<code>/events) through `referee serve`, the one server that runs it: what it says, when,
and that its places come back."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.harness import HOST, Client, LiveServer

SETTINGS = {
    "REFEREE_STREAM_KEEPALIVE": "1",
    "REFEREE_MAX_STREAMS_PER_ADDRESS": "3",
    "REFEREE_STREAM_MAX_SECONDS": "2",
}


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[LiveServer]:
    """`referee serve` with a short keep-alive and stream lifetime, and three streams per address."""
    running = LiveServer(database_url, logs=tmp_path / "logs", env=SETTINGS)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _table(server: LiveServer) -> tuple[str, str]:
    with Client(server.port) as client:
        made = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
    return made["code"], made["token"]


def _tap(server: LiveServer, code: str, token: str, body: dict[str, object]) -> None:
    with Client(server.port) as client:
        assert client.json("POST", f"/api/v1/tables/{code}/actions", body, token).status == 200


def _open(
    server: LiveServer, code: str, source: str = "127.0.0.2"
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection(HOST, server.port, timeout=5, source_address=(source, 0))
    connection.request("GET", f"/t/{code}/events")
    return connection, connection.getresponse()


def _messages(stream: http.client.HTTPResponse) -> Iterator[str]:
    """The stream's messages as text, each up to its blank line."""
    lines: list[str] = []
    while True:
        line = stream.readline().decode()
        if not line:
            return
        if line == "\n":
            yield "".join(lines)
            lines = []
        else:
            lines.append(line)


def _changed(text: str) -> dict[str, int]:
    data = next(line for line in text.splitlines() if line.startswith("data: "))
    assert "event: changed" in text, text
    body: dict[str, int] = json.loads(data.removeprefix("data: "))
    return body


def test_the_first_message_says_where_the_table_is_and_each_change_follows(server: LiveServer) -> None:
    code, token = _table(server)
    _tap(server, code, token, {"type": "play", "player": "Ann", "card": "7"})
    connection, stream = _open(server, code)
    try:
        assert stream.status == 200
        assert stream.getheader("Content-Type", "").startswith("text/event-stream")
        assert "no-cache" in stream.getheader("Cache-Control", "")
        assert stream.getheader("Content-Security-Policy")
        messages = _messages(stream)
        first = next(messages)
        assert first.startswith("retry: 2000")  # the browser comes back quickly after a drop
        assert _changed(first)["version"] == 1
        _tap(server, code, token, {"type": "play", "player": "Bob", "card": "3"})
        assert _changed(next(messages))["version"] == 2
        _tap(server, code, token, {"type": "undo"})
        assert _changed(next(messages))["version"] == 3
    finally:
        connection.close()


def test_an_idle_stream_says_it_is_alive_then_ends_and_frees_its_place(server: LiveServer) -> None:
    code, _ = _table(server)
    held = [_open(server, code) for _ in range(3)]
    try:
        assert [stream.status for _, stream in held] == [200, 200, 200]
        refused_connection, refused = _open(server, code)
        refused_connection.close()
        assert refused.status == 429  # the address's three places are taken
        messages = _messages(held[0][1])
        next(messages)
        started = time.monotonic()
        rest = list(messages)  # the stream ends after STREAM_MAX_SECONDS (2 s), the browser then reconnects
        assert time.monotonic() - started < 4
        assert rest and rest[0].startswith(":")  # a keep-alive comment while nothing happened
        for _, stream in held[1:]:
            list(_messages(stream))
    finally:
        for connection, _ in held:
            connection.close()
    connection, stream = _open(server, code)
    assert stream.status == 200  # the places came back
    connection.close()


def test_head_requests_do_not_use_up_the_places_and_an_unknown_table_is_404(server: LiveServer) -> None:
    """Anyone on the Wi-Fi could otherwise fill the places with HEADs, whose body is never read."""
    code, _ = _table(server)
    with Client(server.port, source="127.0.0.2") as client:
        for _ in range(10):
            assert client.request("HEAD", f"/t/{code}/events").status == 200
        missing = client.request("GET", "/t/NOSUCH/events")
    assert missing.status == 404 and "NOSUCH" in missing.text()
    connection, stream = _open(server, code)
    assert stream.status == 200
    connection.close()
