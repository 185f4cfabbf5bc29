"""Connections at the real server: one address holds at most its share of them while others are served, and a
server out of open files says so in one line rather than a flood."""

from __future__ import annotations

import importlib.util
import resource
import socket
import time
from pathlib import Path

from tools.harness import HOST, Client, LiveServer

# uvloop (the `fast` extra) runs the server's event loop when installed: libuv then closes the connections that
# wait for a file itself, and says nothing.
UVLOOP = importlib.util.find_spec("uvloop") is not None


def _closed_by_server(socks: list[socket.socket], after: float) -> int:
    """How many of `socks` the server has closed (or reset) `after` seconds from now."""
    time.sleep(after)
    closed = 0
    for sock in socks:
        try:
            closed += sock.recv(1, socket.MSG_DONTWAIT) == b""
        except ConnectionResetError:
            closed += 1
        except BlockingIOError:
            pass  # open, and nothing to read
    return closed


def test_one_address_holds_at_most_its_share_of_connections_and_others_are_served(
    tmp_path: Path, database_url: str
) -> None:
    """21,000 idle connections from one address took every open file the server had: other phones waited up to
    5 s to connect, and the log filled with tracebacks."""
    env = {"REFEREE_MAX_CONNECTIONS_PER_ADDRESS": "40", "REFEREE_KEEP_ALIVE_SECONDS": "2"}
    with LiveServer(database_url, logs=tmp_path / "logs", env=env) as server:
        crowd = [socket.create_connection((HOST, server.port), source_address=("127.0.0.2", 0)) for _ in range(200)]
        try:
            # Every connection past the 40th is closed as it arrives, well before the keep-alive closes the others.
            assert _closed_by_server(crowd, 0.7) == 160
            with Client(server.port, source="127.0.0.3", timeout=2) as phone:
                for path in ("/healthz", "/"):
                    reply = phone.request("GET", path)
                    assert reply.status == 200 and reply.seconds < 1, (path, reply.seconds)
            # A proxy the server trusts is not counted: every phone behind it comes from its address.
            proxied = [socket.create_connection((HOST, server.port)) for _ in range(60)]
            assert _closed_by_server(proxied, 0.5) == 0
            for sock in proxied:
                sock.close()
        finally:
            for sock in crowd:
                sock.close()
        # The address's places come back as its connections end (the server ends a connection its client
        # closed once the keep-alive has run out).
        deadline = time.monotonic() + 5
        while True:
            try:
                with Client(server.port, source="127.0.0.2", timeout=2) as same:
                    assert same.request("GET", "/healthz").status == 200
                break
            except OSError:
                assert time.monotonic() < deadline, "the address's places never came back"
                time.sleep(0.2)
        output = server.output()
    assert "Traceback" not in output and len(output) < 5000, output[-2000:]


def test_running_out_of_open_files_is_one_line_in_the_log(tmp_path: Path, database_url: str) -> None:
    """Out of open files, asyncio logged a traceback for every accept it tried: some 41,000 (18 MB) in 5 s."""
    with LiveServer(database_url, logs=tmp_path / "logs") as server:
        resource.prlimit(server.pid, resource.RLIMIT_NOFILE, (200, 200))
        # From several addresses, each within its share: the server's files run out all the same.
        crowd = []
        for number in range(300):
            source = f"127.0.0.{10 + number % 6}"
            crowd.append(socket.create_connection((HOST, server.port), source_address=(source, 0)))
        time.sleep(3)  # asyncio tries again every second
        for sock in crowd:
            sock.close()
        # Files free again: the server takes new connections without a restart.
        deadline = time.monotonic() + 10
        while True:
            try:
                with Client(server.port, source="127.0.0.3", timeout=2) as phone:
                    assert phone.request("GET", "/healthz").status == 200
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not recover"
        output = server.output()
    said = [line for line in output.splitlines() if "open files" in line]
    assert len(said) == (0 if UVLOOP else 1), output[-3000:]
    assert all("ulimit -n" in line for line in said) and "Traceback" not in output and len(output) < 5000
