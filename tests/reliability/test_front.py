"""The real server's front door: no single client can starve the others, idle sockets are closed, and SIGTERM
stops it cleanly, telling open phones to reconnect."""

from __future__ import annotations

import http.client
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.harness import HOST, Client, LiveServer

LIMITS = {
    "REFEREE_MAX_STREAMS": "6",
    "REFEREE_MAX_STREAMS_PER_ADDRESS": "3",
    "REFEREE_KEEP_ALIVE_SECONDS": "1",
}


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[LiveServer]:
    """`referee serve` with small caps, so that tests can reach them."""
    running = LiveServer(database_url, logs=tmp_path / "logs", env=LIMITS)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _table(server: LiveServer) -> str:
    with Client(server.port) as client:
        code: str = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()["code"]
    return code


def _open_stream(port: int, code: str, source: str) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection(HOST, port, timeout=5, source_address=(source, 0))
    connection.request("GET", f"/t/{code}/events")
    return connection, connection.getresponse()


def test_one_address_cannot_take_every_live_stream(server: LiveServer) -> None:
    code = _table(server)
    opened = [_open_stream(server.port, code, "127.0.0.2") for _ in range(3)]
    assert [response.status for _, response in opened] == [200, 200, 200]
    # A fourth from the same address is turned away politely (the page polls instead)...
    refused_connection, refused = _open_stream(server.port, code, "127.0.0.2")
    assert refused.status == 429
    assert refused.getheader("Retry-After")
    assert "poll" in refused.read().decode()
    refused_connection.close()
    # ...while other phones still get theirs, up to the server's own cap.
    others = [_open_stream(server.port, code, f"127.0.0.{n}") for n in (3, 4, 5)]
    assert [response.status for _, response in others] == [200, 200, 200]
    full_connection, full = _open_stream(server.port, code, "127.0.0.9")
    assert full.status == 503
    full_connection.close()
    # Closing one frees its place.
    connection, _ = opened.pop()
    connection.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        again, response = _open_stream(server.port, code, "127.0.0.9")
        if response.status == 200:
            break
        again.close()
        time.sleep(0.1)
    assert response.status == 200
    for connection, _ in [*opened, *others, (again, response)]:
        connection.close()


def test_idle_and_slow_header_connections_are_closed_while_others_are_served(server: LiveServer) -> None:
    idle = [socket.create_connection((HOST, server.port), source_address=("127.0.0.2", 0)) for _ in range(50)]
    slow = [socket.create_connection((HOST, server.port), source_address=("127.0.0.2", 0)) for _ in range(50)]
    for sock in slow:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    # Meanwhile another address is served at once.
    with Client(server.port, source="127.0.0.3", timeout=2) as phone:
        assert phone.request("GET", "/healthz").status == 200
    time.sleep(1.5)  # longer than the keep-alive limit the server was started with (1 s)
    for sock in slow:
        sock.sendall(b"X-Slow: 1\r\n")  # one more header line does not buy more time
    time.sleep(1.5)
    closed = 0
    for sock in idle + slow:
        sock.settimeout(2)
        try:
            closed += sock.recv(1) == b""
        except (ConnectionResetError, TimeoutError):
            closed += 0
        sock.close()
    assert closed == 100


def test_sigterm_ends_open_streams_and_exits_cleanly_within_five_seconds(server: LiveServer) -> None:
    code = _table(server)
    connection, stream = _open_stream(server.port, code, "127.0.0.2")
    assert stream.status == 200
    assert stream.readline().startswith(b"retry:")
    process = server.process
    assert process is not None
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    # The phone's stream ends (so the browser reconnects), rather than hanging on a dead server.
    body = stream.read()
    assert b"event" not in body or body.endswith(b"\n")
    assert process.wait(5) == 0
    assert time.monotonic() - started < 5
    connection.close()
