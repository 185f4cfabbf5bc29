"""The real server's front door: no single client can starve the others, idle sockets are closed, and SIGTERM
stops it cleanly, telling open phones to reconnect."""

from __future__ import annotations

import contextlib
import http.client
import signal
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tools.harness import HOST, Client, LiveServer

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
    """POSTs that send their headers and then only part of their body hold no thread: four of them once held all
    four of the server's threads, and every table stopped answering until they were closed."""
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
    """Streams opened at the same moment from one address get no more than the cap: 100 opened at once all got in,
    against a cap of 24, when each passed the check before any of them counted."""
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


def _half_sent(port: int, path: str, source: str, length: int | None) -> socket.socket:
    """A POST whose head and first body byte arrive, and nothing more: announced as `length` bytes, or chunked."""
    sock = socket.create_connection((HOST, port), source_address=(source, 0))
    framing = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    head = f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n{framing}\r\n\r\n"
    sock.sendall(head.encode() + (b"{" if length is not None else b"1\r\n{\r\n"))
    return sock


def _answer(sock: socket.socket, within: float) -> tuple[bytes, float]:
    """Everything the server sends on `sock` until it closes it, and when it closed it (inf: not within `within` s)."""
    started = time.monotonic()
    received = b""
    sock.settimeout(within)
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return received, float("inf")
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return received, time.monotonic()
        received += chunk
        sock.settimeout(max(within - (time.monotonic() - started), 0.01))


def _answers(socks: list[socket.socket], within: float) -> list[tuple[bytes, float]]:
    """`_answer` for every socket at once, on threads of the test: the time each was closed is when it was."""
    with ThreadPoolExecutor(len(socks)) as pool:
        return list(pool.map(lambda sock: _answer(sock, within), socks))


def _exported_game(port: int) -> bytes:
    """A real table's export document, as the import endpoint takes it."""
    with Client(port) as client:
        made = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
        reply = client.json("GET", f"/api/v1/tables/{made['code']}/export", token=made["token"])
    assert reply.status == 200
    return reply.body


def _slow_upload(port: int, path: str, body: bytes, source: str, seconds: float) -> bytes:
    """POST `body` in ten even parts over `seconds`, as a slow but steady phone would; return the raw answer."""
    with socket.create_connection((HOST, port), source_address=(source, 0)) as upload:
        upload.sendall(
            f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        )
        step = len(body) // 10 + 1
        for start in range(0, len(body), step):
            upload.sendall(body[start : start + step])
            time.sleep(seconds / 10)
        answer, _ = _answer(upload, 10)
    return answer


def test_half_sent_bodies_of_any_size_hold_no_thread_and_get_a_408_within_their_time(
    tmp_path: Path, database_url: str
) -> None:
    """Four connections that sent `Content-Length: 900000`, one byte and then nothing held all four threads (the
    front read bodies above 64 KB on a thread, with no time limit): every page, tap and /healthz of every other
    address timed out for as long as they stayed open."""
    body_seconds = 1.0  # a body gets this, and as much again for each 256 KB it announces
    env = {**LIMITS, "REFEREE_BODY_SECONDS": str(body_seconds), "REFEREE_KEEP_ALIVE_SECONDS": "10"}
    with LiveServer(database_url, logs=tmp_path / "logs", env=env) as server:
        game = _exported_game(server.port)
        # From one address: imports announced at 900,000 bytes (two are read at once from one address, the others
        # told to come back), actions announced just under 64 KB, and a chunked import.
        shapes = [("/api/v1/tables/import", 900_000)] * 4 + [("/api/v1/tables", 60_000)] * 4
        held = [_half_sent(server.port, path, "127.0.0.2", length) for path, length in shapes]
        held.append(_half_sent(server.port, "/api/v1/tables/import", "127.0.0.2", None))
        allowed = [body_seconds * (1 + (length or 1024 * 1024) / (256 * 1024)) for _, length in [*shapes, ("", None)]]
        sent = time.monotonic()
        try:
            with ThreadPoolExecutor(1) as pool:
                answers = pool.submit(_answers, held, max(allowed) + 3)
                time.sleep(0.3)
                with Client(server.port, source="127.0.0.3", timeout=3) as phone:
                    for method, path, payload in [
                        ("GET", "/healthz", None),
                        ("GET", "/", None),
                        ("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}),
                    ]:
                        reply = phone.json(method, path, payload)
                        assert reply.status in (200, 201) and reply.seconds < 1, (path, reply.status, reply.seconds)
                # An honest 1 MB import over a slow link still arrives: 2.5 s, longer than a tap's body may take.
                padded = game[:-1] + b" " * (1_000_000 - len(game)) + game[-1:]
                imported = _slow_upload(server.port, "/api/v1/tables/import", padded, "127.0.0.4", 2.5)
                assert imported.startswith(b"HTTP/1.1 201"), imported[:300]
                closed = answers.result()
        finally:
            for sock in held:
                sock.close()
    # Each held connection was answered (408, or 503 for an import past its address's share) and closed in time.
    statuses = [answer[:12].decode() for answer, _ in closed]
    assert sorted(statuses[:4]) == ["HTTP/1.1 408"] * 2 + ["HTTP/1.1 503"] * 2, statuses
    assert statuses[4:] == ["HTTP/1.1 408"] * 4 + ["HTTP/1.1 503"], statuses
    for (answer, when), seconds in zip(closed, allowed, strict=True):
        assert when - sent < seconds + 1, (answer[:40], when - sent, seconds)
    assert b'"too_slow"' in closed[4][0] and b"connection: close" in closed[4][0]


def _sent_at_full_speed(port: int, method: str, path: str, size: int, source: str) -> bytes:
    """Send a request with a `size`-byte body as fast as the network takes it; return whatever came back."""
    with socket.create_connection((HOST, port), source_address=(source, 0), timeout=5) as sock:
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\nContent-Length: {size}"
        with contextlib.suppress(OSError):  # the server answered and closed before taking it all, as it should
            sock.sendall(head.encode() + b"\r\n\r\n" + b" " * size)
        answer, _ = _answer(sock, 5)
    return answer


def test_bodies_refused_unread_leave_nothing_held_behind(server: LiveServer) -> None:
    """A post announced far over the limit and sent at full speed was answered 413 without being read, and its
    request then waited for ever (the server had queued its body for the app, and nobody took it): five of them
    shut their address out with 429 until a restart. A live stream asked for with a body held its place alike."""
    code = _table(server)
    for _ in range(12):  # more than the 10 requests in progress an address may have here
        answer = _sent_at_full_speed(server.port, "POST", "/api/v1/tables", 4_000_000, "127.0.0.2")
        assert answer[:12] in (b"HTTP/1.1 413", b""), answer[:100]  # "" if the reset overtook the answer
    for _ in range(4):  # more than the 3 streams an address may have here
        _sent_at_full_speed(server.port, "GET", "/t/NOSUCH/events", 4_000_000, "127.0.0.2")
    with Client(server.port, source="127.0.0.2", timeout=3) as same:
        assert same.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).status == 201
    connection, stream = _open_stream(server.port, code, "127.0.0.2")
    assert stream.status == 200
    connection.close()
