"""The real server's front door: no single client can starve the others, idle sockets are closed, and SIGTERM
stops it cleanly, telling open phones to reconnect."""

from __future__ import annotations

import http.client
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.harness import HOST, Client, LiveServer

LIMITS = {
    "REFEREE_MAX_STREAMS": "6",
    "REFEREE_MAX_STREAMS_PER_ADDRESS": "3",
    "REFEREE_KEEP_ALIVE_SECONDS": "1",
    "REFEREE_MAX_REQUESTS_PER_ADDRESS": "10",
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


def _slow_post(port: int, path: str, source: str) -> socket.socket:
    """A POST whose headers arrive and whose body never does (one byte of 100)."""
    sock = socket.create_connection((HOST, port), source_address=(source, 0))
    head = f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    sock.sendall(head.encode() + b"{")
    return sock


def test_requests_whose_bodies_never_finish_hold_no_thread_and_others_are_served(server: LiveServer) -> None:
    """Play test 7b: four POSTs that sent their headers and then only part of their body held all four of the
    server's threads, and every table stopped answering until they were closed."""
    held = [_slow_post(server.port, "/t/NOSUCH/act", "127.0.0.2") for _ in range(8)]
    try:
        time.sleep(0.5)
        with Client(server.port, source="127.0.0.3", timeout=3) as phone:
            assert phone.request("GET", "/healthz").status == 200
            assert phone.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).status == 201
        # Past the cap on requests in progress, the same address is told so: in JSON under the API's prefix.
        more = [_slow_post(server.port, "/api/v1/tables", "127.0.0.2") for _ in range(4)]
        held += more
        with Client(server.port, source="127.0.0.2", timeout=3) as same:
            busy = same.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]})
        assert busy.status == 429 and busy.headers["retry-after"]
        assert busy.json()["error"]["code"] == "too_many"
    finally:
        for sock in held:
            sock.close()


def test_a_burst_of_streams_from_one_address_gets_no_more_than_its_share(server: LiveServer) -> None:
    """Play test 7b: 100 streams opened at the same moment from one address all got in, against a cap of 24:
    each passed the check before any of them counted."""
    code = _table(server)
    barrier = threading.Barrier(10)
    statuses: list[int] = []
    connections: list[http.client.HTTPConnection] = []

    def open_one() -> None:
        barrier.wait()
        connection, response = _open_stream(server.port, code, "127.0.0.2")
        connections.append(connection)
        statuses.append(response.status)

    threads = [threading.Thread(target=open_one) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    try:
        assert statuses.count(200) == 3 and len(statuses) == 10, statuses  # REFEREE_MAX_STREAMS_PER_ADDRESS
    finally:
        for connection in connections:
            connection.close()
