"""The further phases of `python -m tools.bench`, with their goals, each against a fresh `referee serve`
(tools/harness.py).

- live: 1,000 phones (a stream and a keep-alive board connection each) over 100 tables, 10 actions/s.
- attack: one address holds 1,000 idle or slow-header connections while another acts.
- tap: server CPU of a phone's htmx tap (board answer included) against an API action.
- undo: undo at 5,000 logged actions, through the server and in the engine; board bytes at 50 and 5,000.
- soak: resident memory over a mixed load of a given length.
- postgres: two processes on one PostgreSQL; throughput of N processes on PostgreSQL against one on SQLite.
"""

from __future__ import annotations

import asyncio
import gzip
import multiprocessing
import os
import random
import re
import resource
import shutil
import statistics
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from referee.engine import GameState, SetHand, Status, apply, legal_actions, make_setup, new_game
from referee.engine.history import History, replay

from ..harness import Browser, Client, LiveServer, random_action, serve_command
from ..pgcluster import PostgresCluster
from . import browser, live
from .http import (
    NAMES,
    TAP_VALUES,
    Addresses,
    Table,
    _hammer,
    _PageControls,
    _start_table,
    _ThroughputClients,
    board_values,
    create_table,
    percentile,
    play_action,
)

GOALS = {"action_p99_ms": 100.0, "board_current_p99_ms": 1000.0, "tap_cpu_ratio": 1.5, "undo_ms": 10.0}
# The bench posts thousands of actions on one table; a phone could not, and the per-token limit would stop it.
FAST_TOKEN = {"REFEREE_TOKEN_ACTIONS_PER_MINUTE": "1000000"}


def _raise_open_files() -> None:
    """A thousand phones need two thousand sockets on this side too."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


@contextmanager
def server(
    database: str | None = None,
    env: dict[str, str] | None = None,
    args: tuple[str, ...] = (),
    command: Callable[[str, int], list[str]] = serve_command,
) -> Iterator[LiveServer]:
    """A fresh `referee serve` (or `command`'s server) on a temporary SQLite database (or the given DATABASE_URL)."""
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        with LiveServer(
            database or folder / "bench.sqlite3", logs=folder, env=env, args=args, command=command
        ) as running:
            yield running
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tree_usage(pid: int) -> tuple[float, float]:
    """CPU seconds and RSS (MB) of a process and its children (a `--workers` supervisor and its workers)."""
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        pids += [int(child) for child in (task / "children").read_text().split()]
    cpu = rss = 0.0
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            rss += int(fields[21]) * resource.getpagesize() / 1024 / 1024
        except OSError:
            continue
    return cpu, rss


def thread_cpu(pid: int) -> Callable[[], float]:
    """A reader of a process's CPU seconds to the nanosecond, summed over its threads' schedstat.

    /proc/<pid>/stat counts in clock ticks (10 ms), too coarse to read around one request of 1-3 ms: the
    rounding of 200 reads made a tap's figure move by about 10 % from run to run. A thread that ends between
    two reads would take its time with it; the request threads and the event loop live as long as the server.
    """
    tasks = Path(f"/proc/{pid}/task")

    def read() -> float:
        total = 0
        for task in tasks.iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue
        return total / 1e9

    return read


def _tables(port: int, count: int, addresses: Addresses, players: int = 4) -> list[Table]:
    with Client(port) as client:
        tables = []
        for _ in range(count):
            client.source = addresses.next()
            client.close()
            tables.append(create_table(client, NAMES[:players]))
    return tables


# --- (a) live phones ----------------------------------------------------------------------------------


def measure_live(phones: int = 1000, tables: int = 100, rate: float = 10.0, seconds: float = 20.0) -> dict[str, Any]:
    """Phones on one server, actions at `rate`: refusals, boards current, action latency, server CPU and RSS."""
    _raise_open_files()
    with server(env=FAST_TOKEN) as running:
        made = _tables(running.port, tables, Addresses())
        cpu_before, _ = tree_usage(running.pid)
        started = time.perf_counter()
        figures = asyncio.run(live.live_phones(running.port, running.port, made, phones, rate, seconds))
        cpu, rss = tree_usage(running.pid)
        figures["server_cpu_percent"] = round((cpu - cpu_before) * 100 / (time.perf_counter() - started), 1)
        figures["server_rss_mb"] = round(rss, 1)
        figures["server_peak_rss_mb"] = round(running.memory_kb()["VmHWM"] / 1024, 1)
    return figures


# --- (b) one address holding connections --------------------------------------------------------------


async def _hold(port: int, count: int, seconds: float, source: str) -> dict[str, int]:
    """Hold `count` connections from `source` for `seconds`: half idle, half sending a header line every 2 s."""
    opened = closed = 0
    held = 0
    peak = 0
    deadline = time.monotonic() + seconds

    async def one(slow: bool) -> None:
        nonlocal opened, closed, held, peak
        while time.monotonic() < deadline:
            try:
                reader, writer = await live.connect(port, source)
            except (TimeoutError, OSError):
                await asyncio.sleep(0.2)
                continue
            opened += 1
            held += 1
            peak = max(peak, held)
            try:
                if slow:
                    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                while time.monotonic() < deadline:
                    if slow:
                        writer.write(b"X-Slow: 1\r\n")
                        await writer.drain()
                    try:
                        if await asyncio.wait_for(reader.read(1024), 2.0) == b"":
                            break  # the server closed it: open another, to keep holding `count`
                    except TimeoutError:
                        continue
            except (OSError, ConnectionError):
                pass
            held -= 1
            closed += 1
            writer.close()

    await asyncio.gather(*(one(index % 2 == 1) for index in range(count)))
    return {"opened": opened, "closed_by_server": closed, "peak_held": peak}


def _attacker(port: int, count: int, seconds: float, results: Any) -> None:
    """The attacking address, in a process of its own (so that its loop does not slow the victim's)."""
    _raise_open_files()
    results.put(asyncio.run(_hold(port, count, seconds, "127.0.0.2")))


def _victim(port: int, rate: float, seconds: float) -> dict[str, Any]:
    """Another address's actions at `rate`, on tables of its own."""
    tables = _tables(port, 4, Addresses())

    async def act() -> dict[str, Any]:
        driver = live.Driver(port, tables, source="127.0.0.3")
        await driver.run(rate, seconds)
        driver.close()
        return live.action_figures(driver.posted, driver.resent)

    return asyncio.run(act())


def measure_attack(connections: int = 1000, rate: float = 20.0, seconds: float = 20.0) -> dict[str, Any]:
    """Victim action latency alone, then while one address holds `connections` idle or slow-header sockets."""
    with server(env=FAST_TOKEN) as running:
        alone = _victim(running.port, rate, seconds / 2)
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        attacker = context.Process(target=_attacker, args=(running.port, connections, seconds + 8, results))
        attacker.start()
        time.sleep(5.0)  # let it open its sockets
        attacked = _victim(running.port, rate, seconds)
        held = results.get(timeout=seconds + 60)
        attacker.join(10)
        alive = running.process is not None and running.process.poll() is None
    return {
        "connections": connections,
        "victim_alone": alone,
        "victim_attacked": attacked,
        "attacker": held,
        "server_alive": alive,
    }


# --- (c) tap CPU --------------------------------------------------------------------------------------


def _tap_form(page: _PageControls, html: str, rng: random.Random) -> list[tuple[str, str]]:
    """A tap on an allowed number card that does not bust, or a hand correction when there is none."""
    allowed = re.findall(r'name="card" value="(\d+)"[^>]*\n?\s*class="card num"\s*>', html)
    base = [("csrf", page.token), ("player", page.player), ("version", page.version), *page.board_values, *TAP_VALUES]
    if allowed:
        return [*base, ("kind", "play"), ("card", rng.choice(allowed))]
    return [*base, ("kind", "hand"), ("cards", "5")]


def _after_tap(page: _PageControls, html: str) -> _PageControls:
    """The controls the board in a tap's answer shows: the same token; the new version, revision, player and
    hx-vals (htmx reads them from the board it swapped in)."""
    version = re.search(r'data-version="(\d+)"', html)
    revision = re.search(r"/board\?since=(\d+)", html)
    player = re.search(r'name="player" value="([^"]+)"', html)
    assert version is not None and revision is not None and player is not None, "a tap's answer has no board"
    return _PageControls(page.token, version.group(1), revision.group(1), player.group(1), board_values(html))


class _TappingPhone:
    """A host's phone tapping allowed number cards through htmx; a new table whenever its game ends."""

    def __init__(self, port: int, rng: random.Random):
        self.browser = Browser(port, source="127.0.0.4")
        self.rng = rng
        self.plays = 0
        self._new_table()

    def _new_table(self) -> None:
        self.path = _start_table(self.browser)
        self.html = self.browser.request("GET", self.path).text()
        self.page = _PageControls.parse(self.html)

    def tap(self, cpu: Callable[[], float]) -> tuple[float, float]:
        """One tap: the server CPU it cost and its latency (seconds)."""
        form = _tap_form(self.page, self.html, self.rng)
        self.plays += ("kind", "play") in form
        before = cpu()
        reply = self.browser.request("POST", f"{self.path}/act", form, htmx=True, X_CSRF_Token=self.page.token)
        used = cpu() - before
        if reply.status != 200:
            raise RuntimeError(f"a tap answered {reply.status}")
        self.html = reply.text()
        if 'name="player"' not in self.html:  # the game is over: a new table
            self._new_table()
        else:
            self.page = _after_tap(self.page, self.html)
        return used, reply.seconds

    def refresh(self, cpu: Callable[[], float]) -> tuple[float, float]:
        """One board refresh after a tap, as a live refresh draws it (no `since`: the whole board, always).

        The tapping phone's own board (the host's, a little larger than a watcher's), drawn a second time.
        """
        query = urllib.parse.urlencode(self.page.board_values)
        before = cpu()
        reply = self.browser.request("GET", f"{self.path}/board?{query}", htmx=True)
        used = cpu() - before
        if reply.status != 200:
            raise RuntimeError(f"a board refresh answered {reply.status}")
        return used, reply.seconds

    def close(self) -> None:
        """Close the phone's connection."""
        self.browser.close()


class _ApiPlayer:
    """An API client posting random legal actions on one table; a new table whenever its game ends."""

    def __init__(self, port: int, rng: random.Random):
        self.client = Client(port, source="127.0.0.5")
        self.rng = rng
        self.table = create_table(self.client)

    def act(self, cpu: Callable[[], float]) -> tuple[float, float]:
        """One action: the server CPU it cost and its latency (seconds)."""
        if self.table.state.status is Status.FINISHED:
            self.table = create_table(self.client)
        before = cpu()
        reply = play_action(self.client, self.table, random_action(self.rng, self.table.state))
        return cpu() - before, reply.seconds

    def close(self) -> None:
        """Close the client's connection."""
        self.client.close()


def _side_by_side(phone: _TappingPhone, player: _ApiPlayer, pairs: int, cpu: Callable[[], float]) -> dict[str, Any]:
    """`pairs` taps and API actions taken in turn, one request each, so both meet the same machine."""
    taps: list[tuple[float, float]] = []
    actions: list[tuple[float, float]] = []
    refreshes: list[tuple[float, float]] = []
    for index in range(pairs):
        # Which goes first alternates too, so neither always follows the other's cache misses.
        if index % 2:
            actions.append(player.act(cpu))
            taps.append(phone.tap(cpu))
        else:
            taps.append(phone.tap(cpu))
            actions.append(player.act(cpu))
        # After each tap, the board once more, as a live refresh draws it (not part of the ratio).
        refreshes.append(phone.refresh(cpu))
    return {"taps": taps, "actions": actions, "refreshes": refreshes}


def measure_tap(rounds: int = 3, per_round: int = 200) -> dict[str, Any]:
    """Server CPU per tap and per API action, one tap and one action in turn, `rounds` times on one server.

    Taking turns request by request (not 200 of one, then 200 of the other) is what makes the ratio hold on a
    shared machine: a neighbour's burst or a slower CPU moment lands on both sides of it alike.
    """
    rng = random.Random(3)
    with server(env=FAST_TOKEN) as running:
        cpu = thread_cpu(running.pid)
        phone, player = _TappingPhone(running.port, rng), _ApiPlayer(running.port, rng)
        _side_by_side(phone, player, 30, cpu)  # warm up both paths
        phone.plays = 0
        measured = [_side_by_side(phone, player, per_round, cpu) for _ in range(rounds)]
        phone.close()
        player.close()
    taps = [statistics.fmean(used for used, _ in one["taps"]) for one in measured]
    apis = [statistics.fmean(used for used, _ in one["actions"]) for one in measured]
    refreshes = [statistics.fmean(used for used, _ in one["refreshes"]) for one in measured]
    tap_lat = [seconds for one in measured for _, seconds in one["taps"]]
    api_lat = [seconds for one in measured for _, seconds in one["actions"]]
    ratios = [round(tap / api, 2) for tap, api in zip(taps, apis, strict=True)]
    return {
        "tap_cpu_ms": [round(value * 1000, 3) for value in taps],
        "api_cpu_ms": [round(value * 1000, 3) for value in apis],
        "ratio_per_round": ratios,
        "ratio": round(statistics.median(ratios), 2),
        # The reading docs/performance.md offers the team: a tap against an API action plus one board refresh.
        "refresh_cpu_ms": [round(value * 1000, 3) for value in refreshes],
        "ratio_to_action_plus_refresh": round(
            statistics.median(tap / (api + board) for tap, api, board in zip(taps, apis, refreshes, strict=True)), 2
        ),
        "taps_that_played_a_card": phone.plays,
        "taps": rounds * per_round,
        "tap_latency_ms": {
            "p50": round(percentile(tap_lat, 50) * 1000, 2),
            "p99": round(percentile(tap_lat, 99) * 1000, 2),
        },
        "api_latency_ms": {
            "p50": round(percentile(api_lat, 50) * 1000, 2),
            "p99": round(percentile(api_lat, 99) * 1000, 2),
        },
    }


# --- (d) undo and board bytes with a long log ---------------------------------------------------------


def long_game(count: int, seed: int = 5) -> list[Any]:
    """`count` legal actions on a 4-player table that never ends: random cards, with a hand correction
    (a logged action, as a family's fixes are) whenever the next card would end the game."""
    rng = random.Random(seed)
    state: GameState = new_game(make_setup(list(NAMES[:4]), "standard"))
    actions: list[Any] = []
    while len(actions) < count:
        action = random_action(rng, state, draw_boost=3)
        after = apply(state, action)
        if after.status is Status.FINISHED or after.round != state.round:
            player = legal_actions(state).player or state.players[0].name
            seat = state.seat_of(player)
            held = state.players[seat].hand if seat is not None else 0
            action = SetHand(player, 7 if held != 7 else 8)
            after = apply(state, action)
        actions.append(action)
        state = after
    return actions


def _engine_undo(actions: list[Any]) -> dict[str, float]:
    """Undo (and the state after it) at the end of `actions`, in the engine: median of 50, in ms."""
    setup = make_setup(list(NAMES[:4]), "standard")
    history = History.rebuild(setup, tuple(actions))
    timings = []
    for _ in range(50):
        started = time.perf_counter()
        history.undo().state()
        timings.append(time.perf_counter() - started)
    started = time.perf_counter()
    replay(setup, actions)
    return {
        "undo_ms": round(statistics.median(timings) * 1000, 3),
        "whole_replay_ms": round((time.perf_counter() - started) * 1000, 2),
    }


def _board_bytes(port: int, code: str) -> dict[str, int]:
    """A watching phone's whole board (htmx, gzip accepted): bytes on the wire and unzipped."""
    watcher = Browser(port, source="127.0.0.7")
    reply = watcher.request("GET", f"/t/{code}/board?since=0", htmx=True)
    watcher.close()
    raw = gzip.decompress(reply.body) if reply.headers.get("content-encoding") == "gzip" else reply.body
    return {"wire": reply.wire_bytes, "unzipped": len(raw), "status": reply.status}


def _server_undo(client: Client, table: Table, pairs: int, cpu: Callable[[], float]) -> dict[str, float]:
    """Undo then redo through the API, `pairs` times: undo latency and server CPU per undo."""
    latencies, used = [], 0.0
    for _ in range(pairs):
        for kind in ("undo", "redo"):
            before = cpu()
            reply = client.json("POST", f"/api/v1/tables/{table.code}/actions", {"type": kind}, table.token)
            if kind == "undo":
                used += cpu() - before
                latencies.append(reply.seconds)
            if reply.status != 200:
                raise RuntimeError(f"{kind} answered {reply.status}")
    return {
        "undo_p50_ms": round(percentile(latencies, 50) * 1000, 2),
        "undo_p99_ms": round(percentile(latencies, 99) * 1000, 2),
        "undo_server_cpu_ms": round(used * 1000 / pairs, 2),
    }


def measure_undo(long: int = 5000, short: int = 50) -> dict[str, Any]:
    """Undo at `long` logged actions (server and engine), and a board's bytes at `short` and `long`."""
    actions = long_game(long)
    figures: dict[str, Any] = {"logged": long, "engine": _engine_undo(actions)}
    with server(env=FAST_TOKEN) as running, Client(running.port, source="127.0.0.6") as client:
        boards = {}
        for count in (short, long):
            table = create_table(client)
            for action in actions[:count]:
                if play_action(client, table, action).status != 200:
                    raise RuntimeError(f"action {action} refused")
            boards[count] = _board_bytes(running.port, table.code)
            if count == long:
                figures["server"] = _server_undo(client, table, 20, running.cpu_seconds)
        figures["server_at_short"] = _server_undo(
            client, _first_table(client, actions[:short]), 20, running.cpu_seconds
        )
    figures["board"] = {str(count): value for count, value in boards.items()}
    return figures


def _first_table(client: Client, actions: list[Any]) -> Table:
    table = create_table(client)
    for action in actions:
        play_action(client, table, action)
    return table


# --- (e) memory over a mixed soak ---------------------------------------------------------------------


async def _soak_load(
    port: int, tables: list[Table], seconds: float, samples: list[tuple[float, float]], pid: int
) -> dict[str, Any]:
    """Phones on the first tables, actions on all, new tables as games end, pages fetched; RSS every 10 s."""
    stop = asyncio.Event()
    phones = [live.Phone(index, tables[index % 10].code) for index in range(100)]
    tasks = [asyncio.create_task(live.run_phone(phone, port, asyncio.Event(), stop)) for phone in phones]
    started = time.monotonic()

    async def sample() -> None:
        while not stop.is_set():
            samples.append((round(time.monotonic() - started, 1), round(tree_usage(pid)[1], 1)))
            await asyncio.sleep(10)

    sampler = asyncio.create_task(sample())
    addresses = Addresses()
    driver = live.Driver(port, tables, round_length=4)
    created = 0
    while time.monotonic() - started < seconds:
        await driver.run(20.0, 5.0)
        for index, table in enumerate(driver.tables):
            if table.state.status is Status.FINISHED:
                with Client(port, source=addresses.next()) as client:
                    driver.tables[index] = await asyncio.to_thread(create_table, client)
                driver.pending.pop(index, None)
                created += 1
        await asyncio.to_thread(_load_page, port, driver.tables[created % len(driver.tables)].code)
    stop.set()
    await asyncio.gather(*tasks, sampler, return_exceptions=True)
    driver.close()
    action = live.action_figures(driver.posted, driver.resent)
    return {"actions": len(driver.posted), "tables_created": created, "action": action}


def _load_page(port: int, code: str) -> None:
    """A phone opening a table's page (a new device, so a cookie and a session each time)."""
    browser = Browser(port, source="127.0.0.8")
    browser.request("GET", f"/t/{code}")
    browser.close()


def measure_soak(minutes: float = 3.0) -> dict[str, Any]:
    """RSS every 10 s over `minutes` of mixed load; the slope over the second half, MB per minute."""
    _raise_open_files()
    samples: list[tuple[float, float]] = []
    with server(env=FAST_TOKEN) as running:
        tables = _tables(running.port, 40, Addresses())
        load = asyncio.run(_soak_load(running.port, tables, minutes * 60, samples, running.pid))
    half = [point for point in samples if point[0] >= samples[-1][0] / 2]
    slope = 0.0
    if len(half) >= 2:
        slope = (half[-1][1] - half[0][1]) / max(1e-9, (half[-1][0] - half[0][0]) / 60)
    return {"minutes": minutes, "rss_mb": samples, "slope_second_half_mb_per_min": round(slope, 2), **load}


# --- (f) PostgreSQL and many processes ----------------------------------------------------------------


@contextmanager
def postgres() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL cluster, removed afterwards."""
    cluster = PostgresCluster(Path(tempfile.mkdtemp(prefix="referee-pg-")))
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(cluster.folder, ignore_errors=True)


def _throughput(running: LiveServer, seconds: float) -> dict[str, Any]:
    """16 clients flat out, one table each: actions/s, latency, server CPU per action (all processes)."""
    clients = _ThroughputClients(running.port, Addresses(), 16)
    _hammer(16, 1.0, clients.action_step)
    cpu = lambda: tree_usage(running.pid)[0]  # noqa: E731
    phase = _hammer(16, seconds, clients.action_step, cpu)
    clients.close()
    return phase.summary()


def measure_postgres(
    phones: int = 200,
    tables: int = 20,
    rate: float = 10.0,
    seconds: float = 20.0,
    workers: int = 2,
    throughput_seconds: float = 6.0,
) -> dict[str, Any]:
    """Taps on one process reaching phones on another (PostgreSQL); throughput by database and processes."""
    _raise_open_files()
    cross = {**FAST_TOKEN, "REFEREE_CROSS_PROCESS_UPDATES": "true"}
    figures: dict[str, Any] = {}
    with postgres() as cluster:
        url = cluster.url()
        with server(url, env=cross) as first, server(url, env=cross) as second:
            made = _tables(first.port, tables, Addresses())
            figures["cross_process"] = asyncio.run(
                live.live_phones(first.port, second.port, made, phones, rate, seconds)
            )
        with server(cluster.new_schema(), env=FAST_TOKEN) as one:
            figures["postgres_1_process"] = _throughput(one, throughput_seconds)
        with server(cluster.new_schema(), env=FAST_TOKEN, args=("--workers", str(workers))) as many:
            figures[f"postgres_{workers}_processes"] = _throughput(many, throughput_seconds)
    with server(env=FAST_TOKEN) as sqlite:
        figures["sqlite_1_process"] = _throughput(sqlite, throughput_seconds)
    return figures


PHASES: dict[str, Callable[..., dict[str, Any]]] = {
    "live": measure_live,
    "attack": measure_attack,
    "tap": measure_tap,
    "undo": measure_undo,
    "soak": measure_soak,
    "postgres": measure_postgres,
    "browser": browser.measure_browser,
}


Row = tuple[str, Any, str, bool | None]


def _live_goals(run: dict[str, Any]) -> list[Row]:
    board = run["board_current_after_due_ms"]["p99"]
    action = run["action"]["p99_ms"]
    return [
        (f"live: phones refused of {run['phones']}", run["phones_refused"], "0", run["phones_refused"] == 0),
        (
            "live: every phone's board current after the action was due, p99 ms",
            board,
            "≤ 1000",
            board <= GOALS["board_current_p99_ms"],
        ),
        ("live: action p99 ms", action, "≤ 100", action <= GOALS["action_p99_ms"]),
    ]


def _undo_goals(undo: dict[str, Any]) -> list[Row]:
    server, engine, board = undo["server"]["undo_p50_ms"], undo["engine"]["undo_ms"], undo["board"]
    return [
        ("undo at 5,000 actions through the server, p50 ms", server, "≤ 10", server <= GOALS["undo_ms"]),
        ("undo at 5,000 actions in the engine, ms", engine, "≤ 10", engine <= GOALS["undo_ms"]),
        (
            "board bytes (gzip) at 50 / 5,000 actions",
            f"{board['50']['wire']} / {board['5000']['wire']}",
            "independent of the log",
            board["5000"]["wire"] <= 1.2 * board["50"]["wire"],
        ),
    ]


def _spread(values: dict[str, float], digits: int = 2) -> str:
    return " / ".join(f"{values[key]:.{digits}f}" for key in ("min", "median", "max"))


def _browser_goals(run: dict[str, Any]) -> list[Row]:
    """The browser phase: each phone's median against the floor's, min / median / max of its runs."""
    tapping, watching = run["tapping_ratio"], run["watching_ratio"]
    slow = f"{run['cpu_slowdown']}× CPU"
    return [
        (
            f"browser ({slow}): tapping phone's median ÷ the floor's, min / median / max of {len(run['runs'])} runs",
            _spread(tapping),
            "≤ 1.5",
            tapping["median"] <= browser.GOALS["tapping_ratio"],
        ),
        (
            "browser: watching phone's median ÷ the floor's",
            _spread(watching),
            "≤ 2",
            watching["median"] <= browser.GOALS["watching_ratio"],
        ),
        (
            "browser: the floor's median / p95 ms",
            f"{_spread(run['floor_median_ms'], 1)} / {_spread(run['floor_p95_ms'], 1)}",
            "reported",
            None,
        ),
        (
            "browser: tapping phone's median / p95 ms",
            f"{_spread(run['tapping_median_ms'], 1)} / {_spread(run['tapping_p95_ms'], 1)}",
            "reported",
            None,
        ),
        (
            "browser: watching phone's median / p95 ms",
            f"{_spread(run['watching_median_ms'], 1)} / {_spread(run['watching_p95_ms'], 1)}",
            "reported",
            None,
        ),
    ]


def goals(results: dict[str, Any]) -> list[Row]:
    """The further phases' goals from whichever ran: (figure, measured, goal, met or None when not a goal)."""
    rows: list[Row] = []
    if "live" in results:
        rows += _live_goals(results["live"])
    if "attack" in results:
        victim = results["attack"]["victim_attacked"]["p99_ms"]
        rows.append(("attack: other address's action p99 ms", victim, "≤ 100", victim <= GOALS["action_p99_ms"]))
    if "tap" in results:
        ratio = results["tap"]["ratio"]
        rows.append(("tap: server CPU tap / API action", ratio, "≤ 1.5", ratio <= GOALS["tap_cpu_ratio"]))
        rows.append(
            (
                "tap: server CPU tap / (API action + one board refresh)",
                results["tap"]["ratio_to_action_plus_refresh"],
                "none yet: ≤ 1 if the team restates it",
                None,
            )
        )
    if "undo" in results:
        rows += _undo_goals(results["undo"])
    if "browser" in results:
        rows += _browser_goals(results["browser"])
    if "soak" in results:
        soak = results["soak"]
        rows.append(
            (
                f"soak {soak['minutes']} min: RSS slope over the second half, MB/min",
                soak["slope_second_half_mb_per_min"],
                "levels off",
                None,
            )
        )
    if "postgres" in results:
        message = results["postgres"]["cross_process"]["message_after_due_ms"]["p99"]
        rows.append(
            (
                "postgres: tap on one process → phone on the other has the message, p99 ms",
                message,
                "≤ 1000",
                message <= 1000,
            )
        )
    return rows
