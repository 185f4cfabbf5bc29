"""HTTP benchmarks against the real server, started the way the README starts it (`referee serve`).

Every phase runs against one server process on a free 127.0.0.1 port with a temporary database:

- throughput: 16 client threads, each with one keep-alive connection and its own table, post random legal
  actions (with `expected_version`, as phones do) for a few seconds; the same 16 threads then hit the bare
  `/healthz` endpoint for as long. The ratio of the two rates is the headline: how much of the web stack's
  capacity a real action keeps.
- fan-out: 10 tables with 6 live streams each (raw sockets, one selector thread); a driver per table posts
  actions; for each action and each stream, the delay from the action's response to the stream's message
  (and, as a browser does next, until that phone has fetched the new board).
- page weight: a host's phone starts a table with the home form and loads the table page with everything
  it references, gzip accepted; then one tap (htmx POST) and the board refresh the stream triggers.
- memory: 200 tables each play a whole game to a winner; the server's resident memory from /proc.

The server helper (`LiveServer`) is also what tests/reliability uses to crash and restart a real server.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import random
import re
import secrets
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import unescape as html_unescape
from pathlib import Path
from typing import Any, BinaryIO

from referee import codec
from referee.bench.engine import random_action
from referee.cli import REQUEST_THREADS, SPARE_STREAM_THREADS
from referee.engine import (
    Action,
    Card,
    GameState,
    Play,
    SetHand,
    Status,
    apply,
    legal_actions,
    make_setup,
    new_game,
)

HOST = "127.0.0.1"
CLIENTS = 16
FANOUT_TABLES = 10
FANOUT_LISTENERS = 6
MEMORY_TABLES = 200
GOALS = {
    "ratio_min": 0.35,
    "action_p99_ms_max": 25.0,
    "fanout_p99_ms_max": 150.0,
    "first_load_kb_max": 40.0,
    "update_kb_max": 4.0,
    "rss_mb_max": 120.0,
}
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")


# --- the server ------------------------------------------------------------------------------------


def free_port(host: str = HOST) -> int:
    """Return a TCP port that is free on `host` right now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def serve_command(host: str, port: int) -> list[str]:
    """The README's `referee serve`, from this Python's environment."""
    script = Path(sys.executable).with_name("referee")
    start = [str(script)] if script.exists() else [sys.executable, "-m", "referee.cli"]
    return [*start, "serve", "--host", host, "--port", str(port)]


class LiveServer:
    """`referee serve` as a subprocess on a free port and a given database; stop(), kill(), restart()."""

    def __init__(self, database: Path, *, logs: Path | None = None, env: Mapping[str, str] | None = None):
        self.database = database
        self.logs = logs or database.parent
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

    def start(self, timeout: float = 30.0) -> LiveServer:
        """Start the server (on a new free port) and wait until /healthz answers."""
        self.port = free_port()
        self.starts += 1
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.database}",
            "REFEREE_SECRET_KEY": self.secret_key,
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }
        out = open(self.logs / f"server-{self.starts}-stdout.log", "wb")  # noqa: SIM115 (closed in stop)
        err = open(self.logs / f"server-{self.starts}-stderr.log", "wb")  # noqa: SIM115
        self._files = (out, err)
        self.process = subprocess.Popen(
            serve_command(HOST, self.port), stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self._close_files()
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.output()[-2000:]}")
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


class Addresses:
    """Hands out 127.0.0.x source addresses so that many tables can be created under the per-address limit."""

    def __init__(self, per_address: int = 50):
        self.per_address = per_address
        self._count = 0
        self._lock = threading.Lock()

    def next(self) -> str:
        """Return the source address for the next new table."""
        with self._lock:
            index = self._count // self.per_address
            self._count += 1
        return f"127.0.{index // 250}.{index % 250 + 2}"


# --- playing through the API ----------------------------------------------------------------------------


def choose(rng: random.Random, state: GameState) -> Action:
    """Return a random legal action, cards weighted by how many the box holds (the engine bench's choice)."""
    return random_action(rng, state)


def end_round(state: GameState) -> list[Action] | None:
    """A correction that ends the round at once: the current player has one card left, and plays a 0."""
    legal = legal_actions(state)
    zero = next(option for option in legal.cards if option.card is Card.N0)
    if legal.player is None or not zero.allowed:
        return None
    return [SetHand(legal.player, 1), Play(legal.player, Card.N0)]


@dataclass
class Table:
    """A table created through the API, mirrored locally by the engine (which is deterministic)."""

    code: str
    token: str
    version: int
    state: GameState
    mismatches: int = 0
    round_actions: int = 0

    def body(self, action: Action) -> dict[str, Any]:
        """The API body for `action`, made on the version this client last saw."""
        payload: dict[str, Any] = json.loads(codec.action_to_json(action))
        payload["expected_version"] = self.version
        return payload

    def accepted(self, action: Action, state_json: Mapping[str, Any]) -> None:
        """Follow an accepted action locally and check the server agrees."""
        before_round = self.state.round
        self.state = apply(self.state, action)
        self.version = int(state_json["version"])
        self.round_actions = 0 if self.state.round != before_round else self.round_actions + 1
        if state_json["total"] != self.state.total or state_json["round"] != self.state.round:
            self.mismatches += 1

    def next_actions(self, rng: random.Random, round_length: int | None) -> list[Action]:
        """The next action(s): random legal ones, or a quick round end once the round is long enough."""
        if round_length is not None and self.round_actions >= round_length and self.state.status is Status.PLAYING:
            ending = end_round(self.state)
            if ending is not None:
                return ending
        return [choose(rng, self.state)]


def create_table(client: Client, players: Sequence[str] = NAMES[:4]) -> Table:
    """Create a standard table through the API."""
    reply = client.json("POST", "/api/v1/tables", {"players": list(players)})
    if reply.status != 201:
        raise RuntimeError(f"creating a table answered {reply.status}: {reply.body[:200]!r}")
    body = reply.json()
    state = new_game(make_setup(list(players), "standard"))
    return Table(body["code"], body["token"], int(body["state"]["version"]), state)


def play_action(client: Client, table: Table, action: Action) -> Reply:
    """Post one action; follow it locally when it is accepted."""
    reply = client.json("POST", f"/api/v1/tables/{table.code}/actions", table.body(action), table.token)
    if reply.status == 200:
        table.accepted(action, reply.json())
    return reply


def play_game(port: int, rng: random.Random, addresses: Addresses, round_length: int = 4) -> tuple[int, Table]:
    """Create a table and play it to a winner; return the number of actions and the table."""
    with Client(port, source=addresses.next()) as creator:
        table = create_table(creator)
    actions = 0
    with Client(port) as client:
        while table.state.status is not Status.FINISHED:
            for action in table.next_actions(rng, round_length):
                reply = play_action(client, table, action)
                if reply.status != 200:
                    raise RuntimeError(f"{action} answered {reply.status}: {reply.body[:200]!r}")
                actions += 1
    return actions, table


# --- figures ------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (nearest rank) of `values`."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


@dataclass
class Phase:
    """What a timed phase recorded: every latency, errors, wall time and the server's CPU time."""

    latencies: list[float]
    errors: int
    seconds: float
    cpu_seconds: float

    def __add__(self, other: Phase) -> Phase:
        return Phase(
            self.latencies + other.latencies,
            self.errors + other.errors,
            self.seconds + other.seconds,
            self.cpu_seconds + other.cpu_seconds,
        )

    @property
    def per_second(self) -> float:
        """Requests per wall-clock second."""
        return len(self.latencies) / self.seconds

    def summary(self) -> dict[str, Any]:
        """The figures: rate, latency percentiles, errors, server CPU per request."""
        every = self.latencies
        return {
            "requests": len(every),
            "errors": self.errors,
            "seconds": round(self.seconds, 2),
            "per_second": round(self.per_second, 1),
            "p50_ms": _ms(percentile(every, 50)),
            "p99_ms": _ms(percentile(every, 99)),
            "max_ms": _ms(max(every, default=float("nan"))),
            "server_cpu_ms_per_request": round(self.cpu_seconds * 1000 / max(1, len(every)), 3),
        }


def _hammer(
    threads: int,
    seconds: float,
    step: Callable[[int], Callable[[], float | None]],
    cpu: Callable[[], float] | None = None,
) -> Phase:
    """Run `threads` workers for `seconds`; each repeatedly calls its step, which returns a latency or None.

    With `cpu` (the server's CPU seconds so far), also count the server's CPU time: unlike wall-clock
    rates, CPU per request hardly moves when other programs share the machine.
    """
    latencies: list[list[float]] = [[] for _ in range(threads)]
    errors = [0] * threads
    steps = [step(index) for index in range(threads)]
    barrier = threading.Barrier(threads + 1)
    stop = threading.Event()

    def work(index: int) -> None:
        barrier.wait()
        own = latencies[index]
        run = steps[index]
        while not stop.is_set():
            try:
                latency = run()
            except (OSError, http.client.HTTPException, RuntimeError):
                errors[index] += 1
                continue
            if latency is not None:
                own.append(latency)

    workers = [threading.Thread(target=work, args=(index,), daemon=True) for index in range(threads)]
    for worker in workers:
        worker.start()
    barrier.wait()
    started = time.perf_counter()
    cpu_start = cpu() if cpu else 0.0
    time.sleep(seconds)
    stop.set()
    for worker in workers:
        worker.join(30)
    elapsed = time.perf_counter() - started
    cpu_used = cpu() - cpu_start if cpu else float("nan")
    return Phase([value for own in latencies for value in own], sum(errors), elapsed, cpu_used)


def measure_throughput(
    server: LiveServer, seconds: float, addresses: Addresses, clients: int = CLIENTS
) -> dict[str, Any]:
    """Actions/s and latency at `clients` concurrent clients (each on its own table), then /healthz the same way."""
    port = server.port
    cpu = server.cpu_seconds
    rng = random.Random(6)
    tables: list[Table] = []
    connections = [Client(port) for _ in range(clients)]
    for _ in range(clients):
        with Client(port, source=addresses.next()) as creator:
            tables.append(create_table(creator))
    refused = [0]
    new_tables = [0]

    def action_step(index: int) -> Callable[[], float | None]:
        own_rng = random.Random(rng.random())

        def step() -> float | None:
            table = tables[index]
            if table.state.status is Status.FINISHED:
                with Client(port, source=addresses.next()) as creator:
                    tables[index] = create_table(creator)
                new_tables[0] += 1
                return None
            action = choose(own_rng, table.state)
            reply = play_action(connections[index], table, action)
            if reply.status != 200:
                refused[0] += 1
                raise RuntimeError(f"refused {reply.status}")
            return reply.seconds

        return step

    def health_step(index: int) -> Callable[[], float | None]:
        def step() -> float | None:
            reply = connections[index].request("GET", "/healthz")
            if reply.status != 200:
                raise RuntimeError(f"healthz {reply.status}")
            return reply.seconds

        return step

    def paced(
        step: Callable[[int], Callable[[], float | None]], rate: float
    ) -> Callable[[int], Callable[[], float | None]]:
        # Each client waits a random 0–2× its share of the interval: `rate` requests/s in all, on average.
        gap = clients / rate

        def make(index: int) -> Callable[[], float | None]:
            run = step(index)
            own_rng = random.Random(index)

            def step_paced() -> float | None:
                time.sleep(gap * 2 * own_rng.random())
                return run()

            return step_paced

        return make

    # Healthz and actions take turns, three rounds each, so that a change in what else the machine is
    # doing touches both alike; the ratio is of the totals. Then latency at half the saturated rate.
    rounds = 3
    _hammer(clients, 0.5, health_step)
    _hammer(clients, 0.5, action_step)
    health = Phase([], 0, 0.0, 0.0)
    actions = Phase([], 0, 0.0, 0.0)
    ratios = []
    for _ in range(rounds):
        health_round = _hammer(clients, seconds / rounds, health_step, cpu)
        actions_round = _hammer(clients, seconds / rounds, action_step, cpu)
        ratios.append(round(actions_round.per_second / health_round.per_second, 3))
        health += health_round
        actions += actions_round
    # Latency as a phone sees it when the server is busy but not flooded: half the saturated rate.
    actions_half = _hammer(clients, seconds, paced(action_step, actions.per_second / 2), cpu)
    for connection in connections:
        connection.close()
    mismatches = sum(table.mismatches for table in tables)
    action_figures = actions.summary()
    health_figures = health.summary()
    return {
        "clients": clients,
        "tables": f"one table per client ({clients} tables), random legal actions with expected_version",
        "actions": {**action_figures, "refused": refused[0], "games_finished": new_tables[0], "mismatches": mismatches},
        "healthz": health_figures,
        "ratio": round(actions.per_second / health.per_second, 3),
        "ratio_per_round": ratios,
        "cpu_ratio": round(
            health_figures["server_cpu_ms_per_request"] / action_figures["server_cpu_ms_per_request"], 3
        ),
        "actions_at_half_load": actions_half.summary(),
    }


# --- fan-out ------------------------------------------------------------------------------------------

_MESSAGE = re.compile(rb"event: changed\ndata: (\{[^\n]*\})\n\n")


@dataclass
class Stream:
    """One live stream (a phone's table page), read by the selector thread."""

    code: str
    sock: socket.socket
    buffer: bytes = b""
    seen: int = 0
    arrivals: list[tuple[int, int, float]] = field(default_factory=list)  # (version, revision, when)


def open_stream(port: int, code: str) -> Stream:
    """Open /t/<code>/events on a raw socket, as a browser's EventSource does."""
    sock = socket.create_connection((HOST, port), timeout=10)
    sock.sendall(
        f"GET /t/{code}/events HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n"
        "Cache-Control: no-cache\r\n\r\n".encode()
    )
    sock.setblocking(False)
    return Stream(code, sock)


def _read_streams(streams: list[Stream], stop: threading.Event) -> None:
    selector = selectors.DefaultSelector()
    for stream in streams:
        selector.register(stream.sock, selectors.EVENT_READ, stream)
    try:
        while not stop.is_set():
            for key, _ in selector.select(0.05):
                when = time.perf_counter()
                stream = key.data
                try:
                    chunk = stream.sock.recv(65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    selector.unregister(stream.sock)
                    continue
                stream.buffer += chunk
                for match in _MESSAGE.finditer(stream.buffer, stream.seen):
                    data = json.loads(match.group(1))
                    stream.arrivals.append((int(data["version"]), int(data["revision"]), when))
                    stream.seen = match.end()
    finally:
        selector.close()


def measure_fanout(
    port: int,
    addresses: Addresses,
    tables_count: int = FANOUT_TABLES,
    listeners: int = FANOUT_LISTENERS,
    actions_per_table: int = 20,
    interval: float = 0.4,
    refresh: bool = True,
) -> dict[str, Any]:
    """Delay from each action's response to each listener's message (and to its refreshed board)."""
    tables = []
    for _ in range(tables_count):
        with Client(port, source=addresses.next()) as creator:
            tables.append(create_table(creator, NAMES[:listeners]))
    streams = [open_stream(port, table.code) for table in tables for _ in range(listeners)]
    stop = threading.Event()
    reader = threading.Thread(target=_read_streams, args=(streams, stop), daemon=True)
    reader.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(stream.arrivals for stream in streams):
        time.sleep(0.02)
    connected = sum(1 for stream in streams if stream.arrivals)

    # Browsers fetch the board after each message; a pool of keep-alive fetchers plays the phones' part.
    refreshed: list[tuple[int, int, float]] = []  # (stream index, version shown, when)
    refresh_lock = threading.Lock()
    pending: list[tuple[int, int]] = []  # (stream index, revision it showed)
    pending_ready = threading.Condition()
    fetchers_stop = threading.Event()

    def fetcher() -> None:
        with Client(port) as client:
            while True:
                with pending_ready:
                    while not pending and not fetchers_stop.is_set():
                        pending_ready.wait(0.1)
                    if not pending:
                        return
                    index, since = pending.pop(0)
                reply = client.request(
                    "GET", f"/t/{streams[index].code}/board?since={since}", headers={"HX-Request": "true"}
                )
                shown = re.search(rb'data-version="(\d+)"', reply.body) if reply.status == 200 else None
                with refresh_lock:
                    refreshed.append((index, int(shown.group(1)) if shown else -1, time.perf_counter()))

    fetchers = [threading.Thread(target=fetcher, daemon=True) for _ in range(12)] if refresh else []
    for thread in fetchers:
        thread.start()
    watched = [len(stream.arrivals) for stream in streams]

    def watch_messages() -> None:
        # Like htmx: each new message makes the phone ask for the board since the revision it shows.
        while not fetchers_stop.is_set():
            for index, stream in enumerate(streams):
                count = len(stream.arrivals)
                if count > watched[index]:
                    previous = stream.arrivals[watched[index] - 1][1]
                    watched[index] = count
                    with pending_ready:
                        pending.append((index, previous))
                        pending_ready.notify()
            time.sleep(0.002)

    watcher = threading.Thread(target=watch_messages, daemon=True) if refresh else None
    if watcher is not None:
        watcher.start()

    responses: dict[tuple[str, int], tuple[float, float]] = {}
    response_lock = threading.Lock()

    def drive(table: Table, seed: int) -> None:
        rng = random.Random(seed)
        with Client(port) as client:
            time.sleep(rng.random() * interval)
            for _ in range(actions_per_table):
                if table.state.status is Status.FINISHED:
                    break
                sent = time.perf_counter()
                reply = play_action(client, table, choose(rng, table.state))
                done = time.perf_counter()
                if reply.status == 200:
                    with response_lock:
                        responses[(table.code, table.version)] = (sent, done)
                time.sleep(interval * (0.5 + rng.random()))

    drivers = [threading.Thread(target=drive, args=(table, seed)) for seed, table in enumerate(tables)]
    for driver in drivers:
        driver.start()
    for driver in drivers:
        driver.join(120)
    time.sleep(1.0)
    fetchers_stop.set()
    with pending_ready:
        pending_ready.notify_all()
    for thread in fetchers:
        thread.join(10)
    stop.set()
    reader.join(5)
    for stream in streams:
        stream.sock.close()

    from_response: list[float] = []
    from_request: list[float] = []
    missed = 0
    for stream in streams:
        for (code, version), (sent, done) in responses.items():
            if code != stream.code:
                continue
            arrival = next((when for seen, _, when in stream.arrivals if seen >= version), None)
            if arrival is None:
                missed += 1
                continue
            from_response.append(arrival - done)
            from_request.append(arrival - sent)
    boards: list[float] = []
    by_stream: dict[int, list[tuple[int, float]]] = {}
    for index, shown, when in sorted(refreshed, key=lambda item: item[2]):
        by_stream.setdefault(index, []).append((shown, when))
    for index, stream in enumerate(streams):
        for (code, version), (_, done) in responses.items():
            if code == stream.code:
                first = next((when for shown, when in by_stream.get(index, ()) if shown >= version), None)
                if first is not None:
                    boards.append(first - done)
    early = sum(1 for value in from_response if value < 0)
    return {
        "tables": tables_count,
        "listeners_per_table": listeners,
        "streams_connected": connected,
        "actions": len(responses),
        "deliveries": len(from_response),
        "missed": missed,
        "message_after_response_ms": {
            "p50": _ms(percentile(from_response, 50)),
            "p99": _ms(percentile(from_response, 99)),
            "max": _ms(max(from_response, default=float("nan"))),
            "before_response": early,
        },
        "message_after_request_ms": {
            "p50": _ms(percentile(from_request, 50)),
            "p99": _ms(percentile(from_request, 99)),
        },
        "board_refreshed_after_response_ms": {
            "p50": _ms(percentile(boards, 50)),
            "p99": _ms(percentile(boards, 99)),
            "fetches": len(refreshed),
        },
    }


# --- page weight --------------------------------------------------------------------------------------

_ASSET = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref|img[^>]*\ssrc)="([^"]+)"')
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
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


def _decoded_size(reply: Reply) -> int:
    return len(gzip.decompress(reply.body)) if reply.headers.get("content-encoding") == "gzip" else len(reply.body)


def measure_page_weight(port: int, addresses: Addresses) -> dict[str, Any]:
    """Bytes on the wire (gzip) for a host's first table-page load and for one tap's update."""
    host = Browser(port, source=addresses.next())
    home = host.request("GET", "/")
    csrf = _CSRF.search(home.text())
    assert csrf is not None, "the home page has no CSRF field"
    form = [("csrf", csrf.group(1)), ("name", "Ann"), ("name", "Bob"), ("name", "Cy"), ("name", "Dee")]
    form += [("variant", "standard"), ("entry", "joined"), ("first", "0"), ("op", "start")]
    started = host.request("POST", "/", form)
    assert started.status == 303, started.status
    page_path = urllib.parse.urlsplit(started.headers["location"]).path
    code = page_path.rsplit("/", 1)[-1]

    page = host.request("GET", page_path)
    html = page.text()
    loads: list[dict[str, Any]] = [
        {"url": page_path, "type": "html", "wire": page.wire_bytes, "body": len(page.body), "raw": _decoded_size(page)}
    ]
    seen = set()
    for url in _ASSET.findall(html):
        if url in seen or url.startswith(("http:", "https:", "data:")):
            continue
        seen.add(url)
        reply = host.request("GET", url)
        kind = reply.headers.get("content-type", "").split(";")[0]
        # Shown without the ?v= version of static files, which changes whenever the file does.
        shown = url.partition("?")[0]
        loads.append(
            {"url": shown, "type": kind, "wire": reply.wire_bytes, "body": len(reply.body), "raw": _decoded_size(reply)}
        )
    core = [load for load in loads if load["type"] in ("html", "text/css", "text/javascript", "application/javascript")]

    # Another phone watches the same table (typed code, no cookie): what it downloads per change.
    watcher = Browser(port, source=addresses.next())
    watcher.request("GET", page_path)

    token = re.search(r'"X-CSRF-Token": "([^"]+)"', html)
    assert token is not None, "the page has no htmx CSRF header"
    version = re.search(r'data-version="(\d+)"', html)
    revision = re.search(r"/board\?since=(\d+)", html)
    assert version is not None and revision is not None
    player = re.search(r'name="player" value="([^"]+)"', html)
    assert player is not None
    # htmx adds the board's hx-vals (which join panel the page shows) to every request from the board.
    shown = re.search(r"hx-vals='([^']*)'", html)
    board_values = list(json.loads(html_unescape(shown.group(1))).items()) if shown else []
    tap = host.request(
        "POST",
        f"/t/{code}/act",
        [("csrf", token.group(1)), ("kind", "play"), ("player", player.group(1)), ("version", version.group(1))]
        + [("card", "5"), ("bomb_confirmed", "1"), *board_values],
        htmx=True,
        X_CSRF_Token=token.group(1),
    )
    assert tap.status == 200, tap.status
    new_revision = re.search(r"/board\?since=(\d+)", tap.text())
    assert new_revision is not None
    # The stream's "changed" makes the tapping phone ask for the board since the revision it now shows: 204.
    query = urllib.parse.urlencode([("since", new_revision.group(1)), *board_values])
    own_refresh = host.request("GET", f"/t/{code}/board?{query}", htmx=True)
    # Every other phone asks since the revision it showed before: the whole board.
    other_refresh = watcher.request("GET", f"/t/{code}/board?since={revision.group(1)}", htmx=True)
    message = len(_message_bytes(int(version.group(1)) + 1, int(new_revision.group(1))))
    host.close()
    watcher.close()
    first_load = sum(load["wire"] for load in loads)
    tapping = tap.wire_bytes + own_refresh.wire_bytes + message
    other = other_refresh.wire_bytes + message
    return {
        "first_load": {
            "wire_bytes": first_load,
            "html_css_js_wire_bytes": sum(load["wire"] for load in core),
            "uncompressed_bytes": sum(load["raw"] for load in loads),
            "requests": len(loads),
            "resources": loads,
        },
        "update": {
            "tapping_phone": {
                "wire_bytes": tapping,
                "post": tap.wire_bytes,
                "post_uncompressed": _decoded_size(tap),
                "refresh_status": own_refresh.status,
                "refresh": own_refresh.wire_bytes,
                "stream_message": message,
            },
            "other_phone": {
                "wire_bytes": other,
                "refresh_status": other_refresh.status,
                "refresh": other_refresh.wire_bytes,
                "refresh_uncompressed": _decoded_size(other_refresh),
                "stream_message": message,
            },
            "wire_bytes": max(tapping, other),
        },
    }


def _message_bytes(version: int, revision: int) -> bytes:
    body = f"event: changed\ndata: {json.dumps({'version': version, 'revision': revision})}\n\n".encode()
    return f"{len(body):x}\r\n".encode() + body + b"\r\n"  # one chunk of the chunked stream


# --- memory -------------------------------------------------------------------------------------------


def measure_memory(server: LiveServer, addresses: Addresses, tables: int = MEMORY_TABLES) -> dict[str, Any]:
    """Server RSS after `tables` tables each played a whole game to a winner (4 players, rounds cut short)."""
    before = server.memory_kb()
    counts: list[int] = []
    lock = threading.Lock()
    queue = list(range(tables))

    def work(seed: int) -> None:
        rng = random.Random(seed)
        while True:
            with lock:
                if not queue:
                    return
                queue.pop()
            actions, table = play_game(server.port, rng, addresses)
            with lock:
                counts.append(actions)

    started = time.perf_counter()
    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    after = server.memory_kb()
    return {
        "tables": len(counts),
        "actions": sum(counts),
        "actions_per_game": round(sum(counts) / max(1, len(counts)), 1),
        "seconds": round(elapsed, 1),
        "rss_before_mb": round(before["VmRSS"] / 1024, 1),
        "rss_mb": round(after["VmRSS"] / 1024, 1),
        "peak_rss_mb": round(after["VmHWM"] / 1024, 1),
    }


# --- all together -------------------------------------------------------------------------------------


def run(seconds: float = 5.0, *, memory_tables: int = MEMORY_TABLES) -> dict[str, Any]:
    """Start `referee serve` on a temporary database and measure every HTTP figure against it."""
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as folder:
        server = LiveServer(Path(folder) / "bench.sqlite3")
        with server:
            addresses = Addresses()
            idle = server.memory_kb()
            throughput = measure_throughput(server, seconds, addresses)
            fanout = measure_fanout(server.port, addresses)
            weight = measure_page_weight(server.port, addresses)
            memory = measure_memory(server, addresses, memory_tables)
            memory["rss_idle_mb"] = round(idle["VmRSS"] / 1024, 1)
            server_output = server.output()
    return {
        "server": {
            "command": "referee serve --host 127.0.0.1 --port <free>",
            "threads": f"{REQUEST_THREADS} thread for requests, MAX_STREAMS + {SPARE_STREAM_THREADS} for live streams",
        },
        "throughput": throughput,
        "fanout": fanout,
        "page_weight": weight,
        "memory": memory,
        "server_errors": [line for line in server_output.splitlines() if "Traceback" in line or "Error" in line][:5],
    }


def goals(figures: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each goal of issue 6 with the measured value and whether it is met."""
    throughput = figures["throughput"]
    fanout = figures["fanout"]["message_after_response_ms"]
    weight = figures["page_weight"]
    checks = {
        "ratio": (throughput["ratio"], GOALS["ratio_min"], True),
        "action_p99_ms": (throughput["actions_at_half_load"]["p99_ms"], GOALS["action_p99_ms_max"], False),
        "fanout_p99_ms": (fanout["p99"], GOALS["fanout_p99_ms_max"], False),
        "first_load_kb": (round(weight["first_load"]["wire_bytes"] / 1024, 1), GOALS["first_load_kb_max"], False),
        "update_kb": (round(weight["update"]["wire_bytes"] / 1024, 2), GOALS["update_kb_max"], False),
        "rss_mb": (figures["memory"]["rss_mb"], GOALS["rss_mb_max"], False),
    }
    return {
        name: {"value": value, "goal": goal, "met": bool(value >= goal if at_least else value <= goal)}
        for name, (value, goal, at_least) in checks.items()
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
