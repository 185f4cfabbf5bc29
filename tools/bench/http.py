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
  it references, gzip accepted; then one tap (htmx POST) and the board refresh the stream triggers on another phone.
- memory: 200 tables each play a whole game to a winner; the server's resident memory from /proc.

The server and its clients are tools/harness.py's, which the tests use too.
"""

from __future__ import annotations

import gzip
import http.client
import json
import random
import re
import selectors
import socket
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import unescape as html_unescape
from pathlib import Path
from typing import Any

from referee.config import setting
from referee.engine import Action, Card, GameState, Play, SetHand, Status, apply, legal_actions, make_setup, new_game
from referee.service import codec
from referee.web.pages.loglines import LOG_CHANGES

from ..harness import HOST, Browser, Client, LiveServer, Reply, random_action

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


# --- a keep-alive client ------------------------------------------------------------------------------


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
        return [random_action(rng, self.state)]


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


# A worker's step returns one request's latency, or None when what it did is not to be timed.
Step = Callable[[], float | None]
StepFactory = Callable[[int], Step]


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


def _hammer(threads: int, seconds: float, step: StepFactory, cpu: Callable[[], float] | None = None) -> Phase:
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


def _new_table(port: int, addresses: Addresses, players: Sequence[str] = NAMES[:4]) -> Table:
    """Create a table from the next source address, so that many tables stay under the per-address limit."""
    with Client(port, source=addresses.next()) as creator:
        return create_table(creator, players)


class _ThroughputClients:
    """The throughput phase's clients: one keep-alive connection and one table each, and the steps they take."""

    def __init__(self, port: int, addresses: Addresses, clients: int):
        self.port = port
        self.addresses = addresses
        self.rng = random.Random(6)
        self.connections = [Client(port) for _ in range(clients)]
        self.tables = [_new_table(port, addresses) for _ in range(clients)]
        self.refused = 0
        self.games_finished = 0

    def action_step(self, index: int) -> Step:
        """A step for client `index`: post one random legal action on its table (a new table once it is won)."""
        # Each step draws from its own generator, seeded from the phase's, so threads never share one.
        rng = random.Random(self.rng.random())

        def step() -> float | None:
            table = self.tables[index]
            if table.state.status is Status.FINISHED:
                # Creating the next table is not an action: it is counted apart and not timed.
                self.tables[index] = _new_table(self.port, self.addresses)
                self.games_finished += 1
                return None
            reply = play_action(self.connections[index], table, random_action(rng, table.state))
            if reply.status != 200:
                self.refused += 1
                raise RuntimeError(f"refused {reply.status}")
            return reply.seconds

        return step

    def health_step(self, index: int) -> Step:
        """A step for client `index`: one GET /healthz on its connection."""

        def step() -> float | None:
            reply = self.connections[index].request("GET", "/healthz")
            if reply.status != 200:
                raise RuntimeError(f"healthz {reply.status}")
            return reply.seconds

        return step

    @property
    def mismatches(self) -> int:
        """Accepted actions whose resulting total or round differed from the local engine's."""
        return sum(table.mismatches for table in self.tables)

    def close(self) -> None:
        """Close every client's connection."""
        for connection in self.connections:
            connection.close()


def _paced(make: StepFactory, clients: int, rate: float) -> StepFactory:
    """Wrap `make`'s steps so that `clients` workers send about `rate` requests/s in all."""
    # Each client waits a random 0–2× its share of the interval: `rate` requests/s in all, on average.
    gap = clients / rate

    def make_paced(index: int) -> Step:
        run = make(index)
        rng = random.Random(index)

        def step() -> float | None:
            time.sleep(gap * 2 * rng.random())
            return run()

        return step

    return make_paced


def _take_turns(
    clients: int, seconds: float, health: StepFactory, actions: StepFactory, cpu: Callable[[], float], rounds: int = 3
) -> tuple[Phase, Phase, list[float]]:
    """Hammer /healthz then actions, `rounds` times, `seconds` in all for each; the totals and each round's ratio."""
    # Taking turns means a change in what else the machine is doing touches both alike.
    health_total = Phase([], 0, 0.0, 0.0)
    actions_total = Phase([], 0, 0.0, 0.0)
    ratios = []
    for _ in range(rounds):
        health_round = _hammer(clients, seconds / rounds, health, cpu)
        actions_round = _hammer(clients, seconds / rounds, actions, cpu)
        ratios.append(round(actions_round.per_second / health_round.per_second, 3))
        health_total += health_round
        actions_total += actions_round
    return health_total, actions_total, ratios


def measure_throughput(
    server: LiveServer, seconds: float, addresses: Addresses, clients: int = CLIENTS
) -> dict[str, Any]:
    """Actions/s and latency at `clients` concurrent clients (each on its own table), then /healthz the same way."""
    cpu = server.cpu_seconds
    run = _ThroughputClients(server.port, addresses, clients)
    # Half a second of each, untimed, so that first-request costs (connecting, warming caches) are not measured.
    _hammer(clients, 0.5, run.health_step)
    _hammer(clients, 0.5, run.action_step)
    # The headline ratio is of the totals over all the rounds.
    health, actions, ratios = _take_turns(clients, seconds, run.health_step, run.action_step, cpu)
    # Latency as a phone sees it when the server is busy but not flooded: half the saturated rate.
    actions_half = _hammer(clients, seconds, _paced(run.action_step, clients, actions.per_second / 2), cpu)
    run.close()
    action_figures = actions.summary()
    health_figures = health.summary()
    counts = {"refused": run.refused, "games_finished": run.games_finished, "mismatches": run.mismatches}
    return {
        "clients": clients,
        "tables": f"one table per client ({clients} tables), random legal actions with expected_version",
        "actions": {**action_figures, **counts},
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


def open_stream(port: int, code: str, source: str = HOST) -> Stream:
    """Open /t/<code>/events on a raw socket from the address `source`, as a browser's EventSource does."""
    sock = socket.create_connection((HOST, port), timeout=10, source_address=(source, 0))
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


def _home_address(index: int) -> str:
    """The address a table's phones share, as a family's phones behind one home router do (127.1.x.y)."""
    return f"127.1.{index // 250}.{index % 250 + 2}"


class _Listeners:
    """The fan-out phase's live streams, `listeners` per table, read by one selector thread until closed.

    Each table's phones come from an address of their own: from one address, the server's cap on live streams per
    address (24) would turn all but 24 of them to polling, and the phase would measure polling instead.
    """

    def __init__(self, port: int, tables: Sequence[Table], listeners: int):
        self.streams = [
            open_stream(port, table.code, _home_address(index))
            for index, table in enumerate(tables)
            for _ in range(listeners)
        ]
        self._stop = threading.Event()
        self._reader = threading.Thread(target=_read_streams, args=(self.streams, self._stop), daemon=True)
        self._reader.start()

    def wait_connected(self, timeout: float = 10.0) -> int:
        """Wait (up to `timeout` seconds) for every stream's first message; return how many streams have one."""
        # The server's first message on a stream tells the page its version: once it has come, the stream is live.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not all(stream.arrivals for stream in self.streams):
            time.sleep(0.02)
        return sum(1 for stream in self.streams if stream.arrivals)

    def close(self) -> None:
        """Stop the reader and close every stream."""
        self._stop.set()
        self._reader.join(5)
        for stream in self.streams:
            stream.sock.close()


class _BoardRefresher:
    """Plays the phones' part after each stream message: fetch the board and note which version it shows."""

    def __init__(self, port: int, streams: Sequence[Stream], fetchers: int = 12):
        self.port = port
        self.streams = streams
        self.fetchers = fetchers
        self.refreshed: list[tuple[int, int, float]] = []  # (stream index, version shown, when)
        self._refresh_lock = threading.Lock()
        self._pending: list[tuple[int, int]] = []  # (stream index, revision it showed)
        self._pending_ready = threading.Condition()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._watched: list[int] = []

    def start(self) -> None:
        """Start the fetchers, then the watcher that hands them each stream's new messages."""
        # Browsers fetch the board after each message; a pool of keep-alive fetchers plays the phones' part.
        self._threads = [threading.Thread(target=self._fetch, daemon=True) for _ in range(self.fetchers)]
        for thread in self._threads:
            thread.start()
        self._watched = [len(stream.arrivals) for stream in self.streams]
        threading.Thread(target=self._watch, daemon=True).start()

    def stop(self) -> None:
        """Stop watching; the fetchers finish what is pending and are waited for."""
        self._stop.set()
        with self._pending_ready:
            self._pending_ready.notify_all()
        for thread in self._threads:
            thread.join(10)

    def _fetch(self) -> None:
        with Client(self.port) as client:
            while True:
                with self._pending_ready:
                    while not self._pending and not self._stop.is_set():
                        self._pending_ready.wait(0.1)
                    if not self._pending:
                        return
                    index, since = self._pending.pop(0)
                reply = client.request(
                    "GET", f"/t/{self.streams[index].code}/board?since={since}", headers={"HX-Request": "true"}
                )
                shown = re.search(rb'data-version="(\d+)"', reply.body) if reply.status == 200 else None
                with self._refresh_lock:
                    self.refreshed.append((index, int(shown.group(1)) if shown else -1, time.perf_counter()))

    def _watch(self) -> None:
        # Like htmx: each new message makes the phone ask for the board since the revision it shows.
        while not self._stop.is_set():
            for index, stream in enumerate(self.streams):
                count = len(stream.arrivals)
                if count > self._watched[index]:
                    previous = stream.arrivals[self._watched[index] - 1][1]
                    self._watched[index] = count
                    with self._pending_ready:
                        self._pending.append((index, previous))
                        self._pending_ready.notify()
            time.sleep(0.002)


Responses = dict[tuple[str, int], tuple[float, float]]  # (table code, version) -> (sent, answered)


def _drive_tables(port: int, tables: Sequence[Table], actions_per_table: int, interval: float) -> Responses:
    """Post random actions on every table at once, `interval` or so apart; when each accepted one was sent, answered."""
    responses: Responses = {}
    response_lock = threading.Lock()

    def drive(table: Table, seed: int) -> None:
        rng = random.Random(seed)
        with Client(port) as client:
            # A random start spreads the tables' actions over the interval instead of bunching them.
            time.sleep(rng.random() * interval)
            for _ in range(actions_per_table):
                if table.state.status is Status.FINISHED:
                    break
                sent = time.perf_counter()
                reply = play_action(client, table, random_action(rng, table.state))
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
    return responses


def _message_delays(streams: Sequence[Stream], responses: Responses) -> tuple[list[float], list[float], int]:
    """Per action and stream of its table: delays to the message from the response, from the request; and misses."""
    from_response: list[float] = []
    from_request: list[float] = []
    missed = 0
    for stream in streams:
        for (code, version), (sent, done) in responses.items():
            if code != stream.code:
                continue
            # A stream sends the latest version when it wakes, so two quick actions can share one message.
            arrival = next((when for seen, _, when in stream.arrivals if seen >= version), None)
            if arrival is None:
                missed += 1
                continue
            from_response.append(arrival - done)
            from_request.append(arrival - sent)
    return from_response, from_request, missed


def _board_delays(
    streams: Sequence[Stream], responses: Responses, refreshed: Sequence[tuple[int, int, float]]
) -> list[float]:
    """Per action and stream of its table: delay from the response until that phone's board showed the action."""
    by_stream: dict[int, list[tuple[int, float]]] = {}
    for index, shown, when in sorted(refreshed, key=lambda item: item[2]):
        by_stream.setdefault(index, []).append((shown, when))
    boards: list[float] = []
    for index, stream in enumerate(streams):
        for (code, version), (_, done) in responses.items():
            if code == stream.code:
                first = next((when for shown, when in by_stream.get(index, ()) if shown >= version), None)
                if first is not None:
                    boards.append(first - done)
    return boards


def _delivery_figures(
    streams: Sequence[Stream], responses: Responses, refreshed: Sequence[tuple[int, int, float]]
) -> dict[str, Any]:
    """The fan-out figures: deliveries, misses, and the message and board-refresh delays."""
    from_response, from_request, missed = _message_delays(streams, responses)
    boards = _board_delays(streams, responses, refreshed)
    return {
        "actions": len(responses),
        "deliveries": len(from_response),
        "missed": missed,
        "message_after_response_ms": {
            "p50": _ms(percentile(from_response, 50)),
            "p99": _ms(percentile(from_response, 99)),
            "max": _ms(max(from_response, default=float("nan"))),
            # The server publishes right after its commit, so a message can beat the action's own response.
            "before_response": sum(1 for value in from_response if value < 0),
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
    tables = [_new_table(port, addresses, NAMES[:listeners]) for _ in range(tables_count)]
    listening = _Listeners(port, tables, listeners)
    connected = listening.wait_connected()
    refresher = _BoardRefresher(port, listening.streams)
    if refresh:
        refresher.start()
    responses = _drive_tables(port, tables, actions_per_table, interval)
    # A second for the last messages, and the board fetches they trigger, to arrive.
    time.sleep(1.0)
    refresher.stop()
    listening.close()
    return {
        "tables": tables_count,
        "listeners_per_table": listeners,
        "streams_connected": connected,
        **_delivery_figures(listening.streams, responses, refresher.refreshed),
    }


# --- page weight --------------------------------------------------------------------------------------

_ASSET = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref|img[^>]*\ssrc)="([^"]+)"')
# Linked from every page but fetched by no browser while loading it: iOS asks for the home-screen icon only
# when someone adds the app to the home screen (Chromium, checked with a real first load, never asks).
_NOT_LOADED = re.compile(r'<link[^>]*\srel="apple-touch-icon"[^>]*>')
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _decoded_size(reply: Reply) -> int:
    return len(gzip.decompress(reply.body)) if reply.headers.get("content-encoding") == "gzip" else len(reply.body)


def _start_table(host: Browser) -> str:
    """Start a 4-player table with the home page's form, as a host's phone does; return the table page's path."""
    home = host.request("GET", "/")
    csrf = _CSRF.search(home.text())
    assert csrf is not None, "the home page has no CSRF field"
    form = [("csrf", csrf.group(1)), ("name", "Ann"), ("name", "Bob"), ("name", "Cy"), ("name", "Dee")]
    form += [("variant", "standard"), ("entry", "joined"), ("first", "0"), ("op", "start")]
    started = host.request("POST", "/", form)
    assert started.status == 303, started.status
    # The host lands in the lobby first; the table page is what the benchmark measures.
    return urllib.parse.urlsplit(started.headers["location"]).path.removesuffix("/lobby")


def _resource(url: str, kind: str, reply: Reply) -> dict[str, Any]:
    """One row of the first load: bytes on the wire, the body as sent, and the body unzipped."""
    return {"url": url, "type": kind, "wire": reply.wire_bytes, "body": len(reply.body), "raw": _decoded_size(reply)}


def _load_page(host: Browser, page_path: str) -> tuple[str, list[dict[str, Any]]]:
    """Load the table page and everything it references (once each); return its HTML and a row per request."""
    page = host.request("GET", page_path)
    html = page.text()
    loads = [_resource(page_path, "html", page)]
    seen = set()
    for url in _ASSET.findall(_NOT_LOADED.sub("", html)):
        # A browser fetches each URL once; other sites and data: URLs cost this server nothing.
        if url in seen or url.startswith(("http:", "https:", "data:")):
            continue
        seen.add(url)
        reply = host.request("GET", url)
        kind = reply.headers.get("content-type", "").split(";")[0]
        # Shown without the ?v= version of static files, which changes whenever the file does.
        loads.append(_resource(url.partition("?")[0], kind, reply))
    return html, loads


def _first_load_figures(loads: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals of the first load, and the same for HTML, CSS and JavaScript alone."""
    core = [load for load in loads if load["type"] in ("html", "text/css", "text/javascript", "application/javascript")]
    return {
        "wire_bytes": sum(load["wire"] for load in loads),
        "html_css_js_wire_bytes": sum(load["wire"] for load in core),
        "uncompressed_bytes": sum(load["raw"] for load in loads),
        "requests": len(loads),
        "resources": loads,
    }


@dataclass
class _PageControls:
    """What a table page gives its phone to act with, read from its HTML."""

    token: str  # htmx's X-CSRF-Token
    version: str  # the version the page shows
    revision: str  # the board revision the page shows
    player: str  # the first player the page offers to act for
    board_values: list[tuple[str, Any]]  # the board's hx-vals

    @classmethod
    def parse(cls, html: str) -> _PageControls:
        """Read the controls from the table page's HTML."""
        token = re.search(r'"X-CSRF-Token": "([^"]+)"', html)
        assert token is not None, "the page has no htmx CSRF header"
        version = re.search(r'data-version="(\d+)"', html)
        revision = re.search(r"/board\?since=(\d+)", html)
        assert version is not None and revision is not None
        player = re.search(r'name="player" value="([^"]+)"', html)
        assert player is not None
        return cls(token.group(1), version.group(1), revision.group(1), player.group(1), board_values(html))


def board_values(html: str) -> list[tuple[str, Any]]:
    """The board's hx-vals, which htmx adds to every request from the board (its join panel, revision and version)."""
    values = re.search(r"hx-vals='([^']*)'", html)
    return list(json.loads(html_unescape(values.group(1))).items()) if values else []


# What the page's script adds to a tap (static/js/morph.js): it makes a log's changes in place.
TAP_VALUES: list[tuple[str, Any]] = [("log", LOG_CHANGES)]


def _measure_update(host: Browser, watcher: Browser, code: str, html: str) -> dict[str, Any]:
    """One tap by the host (an htmx POST) and the board refreshes it causes: bytes on each phone's wire."""
    page = _PageControls.parse(html)
    tap = host.request(
        "POST",
        f"/t/{code}/act",
        [("csrf", page.token), ("kind", "play"), ("player", page.player), ("version", page.version)]
        + [("card", "5"), ("bomb_confirmed", "1"), *page.board_values, *TAP_VALUES],
        htmx=True,
        X_CSRF_Token=page.token,
    )
    assert tap.status == 200, tap.status
    new_revision = re.search(r"/board\?since=(\d+)", tap.text())
    assert new_revision is not None
    # The stream's "changed" announces the revision the tap's answer already shows: the tapping phone asks for nothing
    # (static/js/sync.js asks only while the board is behind the stream).
    # Every other phone asks since the revision it showed before: the whole board.
    other_refresh = watcher.request("GET", f"/t/{code}/board?since={page.revision}", htmx=True)
    message = len(_message_bytes(int(page.version) + 1, int(new_revision.group(1))))
    return _update_figures(tap, other_refresh, message)


def _update_figures(tap: Reply, other_refresh: Reply, message: int) -> dict[str, Any]:
    """What one tap costs the tapping phone and every other phone; the larger is the figure."""
    tapping = tap.wire_bytes + message
    other = other_refresh.wire_bytes + message
    return {
        "tapping_phone": {
            "wire_bytes": tapping,
            "post": tap.wire_bytes,
            "post_uncompressed": _decoded_size(tap),
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
    }


def measure_page_weight(port: int, addresses: Addresses) -> dict[str, Any]:
    """Bytes on the wire (gzip) for a host's first table-page load and for one tap's update."""
    host = Browser(port, source=addresses.next())
    page_path = _start_table(host)
    code = page_path.rsplit("/", 1)[-1]
    html, loads = _load_page(host, page_path)
    # Another phone watches the same table (typed code, no cookie): what it downloads per change.
    watcher = Browser(port, source=addresses.next())
    watcher.request("GET", page_path)
    update = _measure_update(host, watcher, code, html)
    host.close()
    watcher.close()
    return {"first_load": _first_load_figures(loads), "update": update}


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
            "threads": f"{setting('threads').default} threads for requests; live streams are coroutines"
            " (hypercorn, ASGI)",
        },
        "throughput": throughput,
        "fanout": fanout,
        "page_weight": weight,
        "memory": memory,
        "server_errors": [line for line in server_output.splitlines() if "Traceback" in line or "Error" in line][:5],
    }


def goals(figures: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each goal of the base run (docs/performance.md) with the measured value and whether it is met."""
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
