"""Drive a real `referee serve` from outside: start, stop or kill it, and talk HTTP to it as phones and scripts do.

`python -m tools.bench` measures through it and the reliability and browser tests crash, restart and probe through it,
so both exercise the server exactly as the README starts it.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from referee.engine import (
    DECK_COUNTS,
    Action,
    Bust,
    Card,
    GameState,
    Play,
    Status,
    TieBreak,
    highest_hand_value,
    legal_actions,
)

HOST = "127.0.0.1"
# Debian's chromium, as the browser tests and the benchmark's browser phase launch it: --no-sandbox to run as root;
# the rest stop it calling home (tables often have no internet, and a test must not depend on it).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
_DRAWS = (Card.DRAW1, Card.DRAW2)


def free_port(host: str = HOST) -> int:
    """Return a TCP port that is free on `host` right now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def serve_command(host: str, port: int) -> list[str]:
    """The README's `referee serve`, from this Python's environment."""
    script = Path(sys.executable).with_name("referee")
    start = [str(script)] if script.exists() else [sys.executable, "-m", "referee.server.cli"]
    return [*start, "serve", "--host", host, "--port", str(port)]


class PortTaken(RuntimeError):
    """The server could not bind its port: something else took it first."""


class LiveServer:
    """`referee serve` as a subprocess on a free port and a given database; stop(), kill(), restart()."""

    def __init__(
        self,
        database: Path | str,
        *,
        logs: Path | None = None,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
        command: Callable[[str, int], list[str]] = serve_command,
    ):
        """`database` is a SQLite file's path or a whole DATABASE_URL (PostgreSQL); `args` go to `referee serve`.

        `command` gives the program to start for a host and port: `referee serve` unless a benchmark serves the
        app its own way (tools/bench/floor.py).
        """
        self.args = tuple(args)
        self.command = command
        self.database_url = database if isinstance(database, str) else f"sqlite:///{database}"
        self.logs = logs or (database.parent if isinstance(database, Path) else Path(tempfile.mkdtemp()))
        self.logs.mkdir(parents=True, exist_ok=True)
        self.extra_env = dict(env or {})
        self.secret_key = secrets.token_hex(16)
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._files: tuple[BinaryIO, ...] = ()

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        """The server's process id."""
        assert self.process is not None
        return self.process.pid

    def log_paths(self) -> list[Path]:
        """Every stdout and stderr file written so far."""
        return sorted(self.logs.glob("server-*.log"))

    def output(self) -> str:
        """Everything the server printed, on both streams, across restarts."""
        return "".join(path.read_text(errors="replace") for path in self.log_paths())

    def start(self, timeout: float = 90.0) -> LiveServer:
        """Start the server and wait until /healthz answers; a restart keeps the port, as phones expect.

        A quiet machine starts it in about a second; the wait is long because a CI machine shared with other work
        once took over 30 s, and a test that times out there says nothing about the server.
        """
        if self.port:
            return self._start_once(timeout)
        # A port free a moment ago may be taken before the server binds it (another test's server,
        # or a client's outgoing connection): try a few fresh ports before giving up.
        for attempt in range(3):
            self.port = free_port()
            try:
                return self._start_once(timeout)
            except PortTaken:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _start_once(self, timeout: float) -> LiveServer:
        self.starts += 1
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REFEREE_SECRET_KEY": self.secret_key,
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }
        out = open(self.logs / f"server-{self.starts}-stdout.log", "wb")  # noqa: SIM115 (closed in stop)
        err = open(self.logs / f"server-{self.starts}-stderr.log", "wb")  # noqa: SIM115
        self._files = (out, err)
        self.process = subprocess.Popen(
            [*self.command(HOST, self.port), *self.args], stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self._close_files()
                said = self.output()[-2000:]
                if "Address already in use" in (self.logs / f"server-{self.starts}-stderr.log").read_text():
                    raise PortTaken(said)
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{said}")
            try:
                with Client(self.port, timeout=1.0) as client:
                    if client.request("GET", "/healthz").status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.output()[-2000:]}")

    def _close_files(self) -> None:
        for handle in self._files:
            handle.close()
        self._files = ()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server as Ctrl+C would; kill it if it does not stop in time."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        self._close_files()

    def kill(self) -> None:
        """`kill -9` the server: no handler, no flush, no goodbye."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self._close_files()

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server has used so far, from /proc."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory_kb(self) -> dict[str, int]:
        """The server's VmRSS and VmHWM (peak) in KB, from /proc."""
        found: dict[str, int] = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
        return found

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- a keep-alive client ------------------------------------------------------------------------------


@dataclass
class Reply:
    """One response: status, headers (lower-case names; repeated ones joined), body as sent, timing."""

    status: int
    headers: dict[str, str]
    cookies: list[str]
    body: bytes
    seconds: float
    header_bytes: int

    @property
    def wire_bytes(self) -> int:
        """Bytes the server sent: status line, headers and body (compressed if it was)."""
        return self.header_bytes + len(self.body)

    def text(self) -> str:
        """The body decoded (gunzipped if needed)."""
        raw = gzip.decompress(self.body) if self.headers.get("content-encoding") == "gzip" else self.body
        return raw.decode()

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.text())


class Client:
    """One keep-alive HTTP/1.1 connection to the server, optionally from a chosen 127.x source address."""

    def __init__(self, port: int, *, source: str | None = None, timeout: float = 15.0):
        self.port = port
        self.source = source
        self.timeout = timeout
        self.connection: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.connection is None:
            source = (self.source, 0) if self.source else None
            self.connection = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout, source_address=source)
        return self.connection

    def close(self) -> None:
        """Close the connection."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: Mapping[str, str] | None = None
    ) -> Reply:
        """Send one request on the kept-alive connection (reconnecting once if the server closed it)."""
        for attempt in (1, 2):
            connection = self._connect()
            started = time.perf_counter()
            try:
                connection.request(method, path, body=body, headers=dict(headers or {}))
                response = connection.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise
                continue
            seconds = time.perf_counter() - started
            pairs = response.getheaders()
            header_bytes = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + 2
            header_bytes += sum(len(name) + len(value) + 4 for name, value in pairs)
            merged: dict[str, str] = {}
            for name, value in pairs:
                key = name.lower()
                merged[key] = f"{merged[key]}, {value}" if key in merged else value
            cookies = response.msg.get_all("Set-Cookie") or []
            if response.will_close:
                self.close()
            return Reply(response.status, merged, cookies, data, seconds, header_bytes)
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, payload: object = None, token: str | None = None) -> Reply:
        """Send JSON (with the table's token if given)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        body = None if payload is None else json.dumps(payload).encode()
        return self.request(method, path, body, headers)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BROWSER_HEADERS = {
    "Accept-Encoding": "gzip, deflate, br",
    "User-Agent": "Mozilla/5.0 (Linux; Android 14) referee-bench",
    "Accept-Language": "en",
}


class Browser:
    """Just enough of a browser: cookies, gzip, and htmx's headers when asked."""

    def __init__(self, port: int, source: str | None = None):
        self.client = Client(port, source=source)
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: Sequence[tuple[str, str]] | None = None, htmx: bool = False, **headers: str
    ) -> Reply:
        """Send a request with this browser's cookies; remember the cookies it sets."""
        sent = dict(BROWSER_HEADERS)
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx:
            sent["HX-Request"] = "true"
        sent.update({name.replace("_", "-"): value for name, value in headers.items()})
        reply = self.client.request(method, path, body, sent)
        for cookie in reply.cookies:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return reply

    def close(self) -> None:
        """Close the connection."""
        self.client.close()


# --- random legal play ---------------------------------------------------------------------------------


def random_action(rng: random.Random, state: GameState, draw_boost: int = 1) -> Action:
    """Return a random legal action in `state`, which must not be finished.

    Cards are weighted by how many the box holds (a held card is more likely a 2 than a Bomb);
    `draw_boost` multiplies the weight of Draw 1 and Draw 2, which makes rounds (and games) longer.
    A bust is chosen now and then when no number card fits any more.
    """
    legal = legal_actions(state)
    if state.status is Status.TIEBREAK:
        values = []
        for name in legal.tiebreak:
            seat = state.seat_of(name)
            assert seat is not None
            values.append((name, rng.randint(0, highest_hand_value(state.players[seat].hand))))
        return TieBreak(tuple(values))
    assert legal.player is not None
    cards = [option.card for option in legal.cards if option.allowed and not option.busts]
    if legal.can_bust and not any(card.is_number for card in cards) and rng.random() < 0.2:
        return Bust(legal.player)
    weights = [DECK_COUNTS[card] * (draw_boost if card in _DRAWS else 1) for card in cards]
    card = rng.choices(cards, weights)[0]
    zeros: tuple[str, ...] = ()
    if card is Card.BOMB:
        zeros = tuple(name for name in legal.bomb_answerers if rng.random() < 0.5)
    return Play(legal.player, card, zeros)
