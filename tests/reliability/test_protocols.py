"""What the real server answers beyond plain HTTP/1.1: HTTP/2 over plain HTTP, WebSockets, and a request whose
length is given twice over, each through raw sockets."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import h2.config
import h2.connection
import h2.events
import pytest

from referee.web.security import SECURITY_HEADERS
from tools.harness import HOST, LiveServer

# The client's side of HTTP/2 with prior knowledge: its preface, then an empty SETTINGS frame (RFC 9113 3.4).
PRIOR_KNOWLEDGE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes.fromhex("000000040000000000")
GOAWAY = 7
HTTP_1_1_REQUIRED = 0xD


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[LiveServer]:
    """`referee serve` that closes a connection after 1 s without a request."""
    running = LiveServer(database_url, logs=tmp_path / "logs", env={"REFEREE_KEEP_ALIVE_SECONDS": "1"})
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _until_closed(sock: socket.socket, within: float) -> tuple[bytes, float]:
    """What the server sends until it closes the connection, and after how many seconds (inf: not within)."""
    started = time.monotonic()
    received = b""
    while (left := within - (time.monotonic() - started)) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return received, time.monotonic() - started
        received += chunk
    return received, float("inf")


def _frames(data: bytes) -> list[tuple[int, bytes]]:
    """HTTP/2 frames as (type, payload)."""
    frames = []
    while len(data) >= 9:
        length = int.from_bytes(data[:3], "big")
        frames.append((data[3], data[9 : 9 + length]))
        data = data[9 + length :]
    return frames


def _response(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """An HTTP/1.1 response's status, headers (lower-case names) and body."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def _has_our_headers(headers: dict[str, str]) -> bool:
    return all(headers.get(name.lower()) == value for name, value in SECURITY_HEADERS)


def test_http2_with_prior_knowledge_is_told_to_use_http_1_1_and_closed(server: LiveServer) -> None:
    """Such a connection was served HTTP/2, and one that sent no request (PINGs or nothing) was never closed."""
    for parts in ([PRIOR_KNOWLEDGE], [PRIOR_KNOWLEDGE[:7], PRIOR_KNOWLEDGE[7:]]):  # whole, or the preface in two
        with socket.create_connection((HOST, server.port), source_address=("127.0.0.2", 0)) as sock:
            for part in parts:
                sock.sendall(part)
                time.sleep(0.1)
            received, seconds = _until_closed(sock, 3)
        goaways = [payload for kind, payload in _frames(received) if kind == GOAWAY]
        assert [int.from_bytes(payload[4:8], "big") for payload in goaways] == [HTTP_1_1_REQUIRED], received
        assert seconds < 0.5  # at once, not at the 1 s keep-alive


def test_an_upgrade_to_http2_gets_a_505_in_words_and_is_closed_at_the_keep_alive(server: LiveServer) -> None:
    """An `Upgrade: h2c` request was served over HTTP/2, which nothing here needs."""
    client = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    settings = client.initiate_upgrade_connection().decode()
    with socket.create_connection((HOST, server.port), source_address=("127.0.0.2", 0)) as sock:
        sock.sendall(
            f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
            f"HTTP2-Settings: {settings}\r\n\r\n".encode()
        )
        switched = b""
        while b"\r\n\r\n" not in switched:
            switched += sock.recv(1)
        assert switched.startswith(b"HTTP/1.1 101")
        sock.sendall(client.data_to_send())
        # PINGs do not keep it open past the keep-alive.
        started = time.monotonic()
        events: list[h2.events.Event] = []
        sock.settimeout(0.2)
        while time.monotonic() - started < 4:
            client.ping(b"ping 1 s")
            try:
                sock.sendall(client.data_to_send())
                data = sock.recv(65536)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
            if not data:
                break
            events += client.receive_data(data)
        seconds = time.monotonic() - started
    answered = [event for event in events if isinstance(event, h2.events.ResponseReceived)]
    assert len(answered) == 1
    headers = dict(answered[0].headers)
    assert headers[":status"] == "505" and _has_our_headers(headers), headers
    text = b"".join(event.data for event in events if isinstance(event, h2.events.DataReceived)).decode()
    assert "HTTP/1.1" in text
    assert seconds < 1 + 1.5, seconds


def test_a_websocket_upgrade_is_refused_in_words_with_our_headers(server: LiveServer) -> None:
    """It got the server's bare 500, without the app's security headers."""
    for path, kind in (("/", "text/plain"), ("/api/v1/tables", "application/json")):
        with socket.create_connection((HOST, server.port), source_address=("127.0.0.2", 0)) as sock:
            sock.sendall(
                f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            received, _ = _until_closed(sock, 3)
        status, headers, body = _response(received)
        assert status == 400 and _has_our_headers(headers) and headers["content-type"].startswith(kind), received
        text = json.loads(body)["error"]["message"] if kind == "application/json" else body.decode()
        assert "WebSockets" in text


def test_a_request_giving_its_length_twice_over_is_refused_and_nothing_hidden_in_it_is_served(
    server: LiveServer,
) -> None:
    """A request with both Content-Length and Transfer-Encoding was taken, and what followed its chunked body
    served as a second request: a proxy reading it by Content-Length would have let that request through
    unseen (request smuggling)."""
    smuggled = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n\r\n"
    with socket.create_connection((HOST, server.port), source_address=("127.0.0.2", 0)) as sock:
        sock.sendall(
            f"POST /api/v1/tables HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {5 + len(smuggled)}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{smuggled}".encode()
        )
        received, seconds = _until_closed(sock, 3)
    assert received.count(b"HTTP/1.1 ") == 1, received  # one answer, then the connection is closed
    status, headers, body = _response(received)
    assert status == 400 and headers["connection"] == "close" and _has_our_headers(headers)
    assert json.loads(body)["error"]["code"] == "bad_request"
    assert seconds < 1
