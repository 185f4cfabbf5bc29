"""How `referee serve` shares its threads: open live streams never hold up taps and pages, and Ctrl+C is quick.

The server answers ordinary requests on one thread and gives every live stream a thread of its own
(referee/server/serving.py). If a stream ever landed on the request thread, the whole table would freeze for
as long as that phone kept its page open; these tests would then time out instead of passing.
"""

from __future__ import annotations

import json
import re
import socket
import time

import pytest
from flask import Flask, url_for

from referee.web.live import STREAM_PATH
from tools.harness import HOST, Client, LiveServer

PLAYERS = ["Ann", "Bob", "Cy"]
STREAMS = 6
MESSAGE = re.compile(rb"event: changed\ndata: (\{.*?\})\n\n")


def open_stream(port: int, code: str) -> socket.socket:
    """Open a table's live stream as a phone's page does, and wait for its first message."""
    sock = socket.create_connection((HOST, port), timeout=5)
    sock.sendall(f"GET /t/{code}/events HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode())
    assert wait_for_revision(sock, 0) == 0
    return sock


def wait_for_revision(sock: socket.socket, revision: int, seconds: float = 5.0) -> int:
    """Read the stream until it announces `revision` (or later); return the revision it announced."""
    received = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for found in MESSAGE.finditer(received):
            announced = int(json.loads(found.group(1))["revision"])
            if announced >= revision:
                return announced
        received += sock.recv(65536)
    raise AssertionError(f"the stream did not announce revision {revision} within {seconds} s")


def test_phones_watching_live_do_not_hold_up_taps_or_pages(live_server: LiveServer) -> None:
    with Client(live_server.port) as phone:
        created = phone.json("POST", "/api/v1/tables", {"players": PLAYERS}).json()
        code, token = created["code"], created["token"]
        streams = [open_stream(live_server.port, code) for _ in range(STREAMS)]
        try:
            for version, card in enumerate(("3", "4", "2")):
                player = PLAYERS[version]
                body = {"type": "play", "player": player, "card": card, "expected_version": version}
                reply = phone.json("POST", f"/api/v1/tables/{code}/actions", body, token)
                assert reply.status == 200, reply.text()
                assert phone.request("GET", f"/t/{code}").status == 200
            assert reply.json()["total"] == 9
            # Every watching phone is told about the newest tap.
            assert all(wait_for_revision(stream, 3) == 3 for stream in streams)
        finally:
            for stream in streams:
                stream.close()


def test_ctrl_c_stops_the_server_promptly_while_streams_are_open(live_server: LiveServer) -> None:
    with Client(live_server.port) as phone:
        code = phone.json("POST", "/api/v1/tables", {"players": PLAYERS}).json()["code"]
    streams = [open_stream(live_server.port, code) for _ in range(3)]
    try:
        started = time.monotonic()
        live_server.stop(timeout=30)
        assert live_server.process is not None
        assert live_server.process.returncode == 0, live_server.output()[-2000:]
        # The streams are woken at once; waitress would otherwise wait for their threads.
        assert time.monotonic() - started < 4
    finally:
        for stream in streams:
            stream.close()


def test_a_client_that_never_reads_its_answers_holds_up_nobody_else(live_server: LiveServer) -> None:
    # Hundreds of requests in one go, no answer read: waitress makes the thread serving that connection
    # wait once 16 MB of answers pile up. That must not be the thread every other phone needs.
    flood = socket.socket()
    flood.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    flood.connect((HOST, live_server.port))
    try:
        # Waitress reads 8 KB at a time and no more until those requests are served: 356 requests
        # for the rules page (69 KB each) make about 24 MB of answers.
        request = b"GET /rules HTTP/1.1\r\n\r\n"
        flood.sendall(request * (8192 // len(request)))
        time.sleep(4)  # long enough to render them all
        # A frozen request thread would leave these unanswered: the client gives up after 5 s and fails.
        with Client(live_server.port, timeout=5) as phone:
            assert phone.request("GET", "/healthz").status == 200
            created = phone.json("POST", "/api/v1/tables", {"players": PLAYERS})
            assert created.status == 201
    finally:
        flood.close()


@pytest.mark.parametrize("prefix", ["", "/referee"])
def test_only_the_stream_route_counts_as_a_stream(app: Flask, prefix: str) -> None:
    with app.test_request_context():
        stream = url_for("stream.events", code="ABC123")
        others = [url_for("table.page", code="ABC123"), url_for("static", filename="app.css"), "/t/ABC123/board"]
    assert STREAM_PATH.search(prefix + stream)
    assert not any(STREAM_PATH.search(prefix + path) for path in others)
    assert not STREAM_PATH.search(prefix + stream + "/more")
