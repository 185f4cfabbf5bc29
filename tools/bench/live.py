"""Many phones at once, as asyncio clients: a live stream and a keep-alive board connection each.

One event loop holds every phone, so a thousand of them cost the benchmark a few megabytes and little CPU.
Each phone comes from its own 127.x source address (as real phones on a Wi-Fi do), opens
`/t/<code>/events`, loads its board, and on every `changed` message fetches `/t/<code>/board?since=<revision
it shows>` on its keep-alive connection, as htmx does. Actions are posted through the API at a fixed rate
(open loop: each latency counts from the moment the action was due, so a stalled server is not hidden by
the benchmark waiting for it).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine import Action, Status

from ..harness import HOST
from .http import Table, percentile

TIMEOUT = 10.0
_VERSION = re.compile(rb'data-version="(\d+)"')
_REVISION = re.compile(rb"/board\?since=(\d+)")


def phone_address(index: int) -> str:
    """The source address of phone `index`: 127.1.x.y, away from the addresses the other phases use."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


async def connect(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open a TCP connection to the server from `source`."""
    return await asyncio.wait_for(asyncio.open_connection(HOST, port, local_addr=(source, 0)), TIMEOUT)


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """Read a response's status line and headers."""
    line = await reader.readline()
    if not line:
        raise ConnectionError("closed")
    status = int(line.split()[1])
    headers: dict[str, str] = {}
    while True:
        raw = await reader.readline()
        if raw in (b"\r\n", b"\n", b""):
            return status, headers
        name, _, value = raw.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


async def read_body(reader: asyncio.StreamReader, status: int, headers: Mapping[str, str]) -> bytes:
    """Read a response's body: by length, chunked, or none (204, 304)."""
    if status in (204, 304):
        return b""
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if "chunked" in headers.get("transfer-encoding", ""):
        body = b""
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                return body
            body += (await reader.readexactly(size + 2))[:-2]
    return await reader.read()


async def request(
    conn: tuple[asyncio.StreamReader, asyncio.StreamWriter],
    method: str,
    path: str,
    body: bytes = b"",
    headers: Mapping[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request on a kept-alive connection."""
    reader, writer = conn
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\n"
    for name, value in (headers or {}).items():
        head += f"{name}: {value}\r\n"
    if body or method == "POST":
        head += f"Content-Length: {len(body)}\r\n"
    writer.write(head.encode() + b"\r\n" + body)
    status, answer = await asyncio.wait_for(read_head(reader), TIMEOUT)
    data = await asyncio.wait_for(read_body(reader, status, answer), TIMEOUT)
    if answer.get("connection", "").lower() == "close":
        writer.close()
    return status, answer, data


@dataclass
class Phone:
    """One phone's record: the stream's messages and the boards it showed, with when."""

    index: int
    code: str
    messages: list[tuple[int, float]] = field(default_factory=list)  # (version, when)
    boards: list[tuple[int, float]] = field(default_factory=list)  # (version shown, when)
    refused: str | None = None
    reconnects: int = 0
    board_errors: int = 0
    board_seconds: list[float] = field(default_factory=list)


BOARD_HEADERS = {"HX-Request": "true", "Accept-Encoding": "gzip"}


class _Board:
    """A phone's keep-alive board connection: fetch the board since the revision shown, reconnect if closed."""

    def __init__(self, phone: Phone, port: int):
        self.phone = phone
        self.port = port
        self.conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.shown_revision = 0
        self.wanted: tuple[int, int] = (0, 0)  # (version, revision) the stream announced last
        self.busy = False

    async def fetch(self, since: int) -> tuple[int, bytes]:
        """GET the board since `since`; one reconnect when the server closed the idle connection."""
        for attempt in (1, 2):
            try:
                if self.conn is None:
                    self.conn = await connect(self.port, phone_address(self.phone.index))
                status, headers, body = await request(
                    self.conn, "GET", f"/t/{self.phone.code}/board?since={since}", headers=BOARD_HEADERS
                )
                if headers.get("connection", "").lower() == "close":
                    self.conn = None
                return status, body
            except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                if self.conn is not None:
                    self.conn[1].close()
                self.conn = None
                self.phone.reconnects += 1
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def refresh(self) -> None:
        """Fetch until the board shows the newest announced revision (htmx queues one refresh at a time)."""
        try:
            while self.wanted[1] > self.shown_revision:
                version, revision = self.wanted
                started = time.monotonic()
                try:
                    await self.fetch(self.shown_revision)
                except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                    self.phone.board_errors += 1
                    return
                done = time.monotonic()
                self.phone.board_seconds.append(done - started)
                self.shown_revision = revision
                self.phone.boards.append((version, done))
        finally:
            self.busy = False

    def announce(self, version: int, revision: int) -> None:
        """The stream said the table changed: refresh unless a refresh is already on its way."""
        if revision > self.wanted[1]:
            self.wanted = (version, revision)
        if not self.busy and self.wanted[1] > self.shown_revision:
            self.busy = True  # now, not when the task first runs: a second message may come before that
            asyncio.create_task(self.refresh())

    def close(self) -> None:
        """Close the board connection."""
        if self.conn is not None:
            self.conn[1].close()


async def _read_messages(reader: asyncio.StreamReader, chunked: bool, board: _Board, phone: Phone) -> None:
    """Read the stream until it ends; announce every `changed` message to the board."""
    buffer = b""
    while True:
        if chunked:
            size = int((await reader.readline()).split(b";")[0] or b"0", 16)
            if size == 0:
                return
            data = (await reader.readexactly(size + 2))[:-2]
        else:
            data = await reader.read(65536)
            if not data:
                return
        buffer += data
        while b"\n\n" in buffer:
            chunk, buffer = buffer.split(b"\n\n", 1)
            for line in chunk.split(b"\n"):
                if line.startswith(b"data:"):
                    numbers = json.loads(line[5:])
                    phone.messages.append((int(numbers["version"]), time.monotonic()))
                    board.announce(int(numbers["version"]), int(numbers["revision"]))


async def run_phone(phone: Phone, port: int, connected: asyncio.Event, stop: asyncio.Event) -> None:
    """Open the stream and the board connection; follow the table until `stop`."""
    board = _Board(phone, port)
    writer = None
    try:
        reader, writer = await connect(port, phone_address(phone.index))
        writer.write(
            f"GET /t/{phone.code}/events HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        status, headers = await asyncio.wait_for(read_head(reader), TIMEOUT)
        if status != 200:
            phone.refused = str(status)
            return
        _, body = await board.fetch(0)
        html = gzip.decompress(body) if body.startswith(b"\x1f\x8b") else body
        version, revision = _VERSION.search(html), _REVISION.search(html)
        board.shown_revision = int(revision.group(1)) if revision else 0
        phone.boards.append((int(version.group(1)) if version else 0, time.monotonic()))
        connected.set()
        chunked = "chunked" in headers.get("transfer-encoding", "")
        reading = asyncio.create_task(_read_messages(reader, chunked, board, phone))
        await asyncio.wait([reading, asyncio.create_task(stop.wait())], return_when=asyncio.FIRST_COMPLETED)
        reading.cancel()
    except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ValueError) as error:
        phone.refused = phone.refused or type(error).__name__
    finally:
        connected.set()
        board.close()
        if writer is not None:
            writer.close()


@dataclass
class Posted:
    """One action posted by the driver: its table, the version it made, when it was due, its latency, status."""

    code: str
    version: int | None
    due: float
    seconds: float
    status: int | str


class Driver:
    """Posts random legal actions through the API at `rate` per second across `tables`, open loop."""

    def __init__(
        self,
        port: int,
        tables: Sequence[Table],
        source: str = "127.0.0.1",
        seed: int = 12,
        round_length: int | None = None,
    ):
        self.port = port
        self.round_length = round_length  # cut rounds short (a hand correction and a 0) so that games end
        self.tables = list(tables)
        self.source = source
        self.rng = random.Random(seed)
        self.locks = [asyncio.Lock() for _ in self.tables]
        self.idle: list[tuple[tuple[asyncio.StreamReader, asyncio.StreamWriter], float]] = []  # (conn, last used)
        # Requests sent again because a kept-alive connection was found closed: (seconds it was idle, error, how
        # the resend ended).
        self.resent: list[tuple[float, str, str]] = []
        self.posted: list[Posted] = []
        self.pending: dict[int, list[Action]] = {}

    async def _post(self, index: int, due: float) -> None:
        table = self.tables[index]
        async with self.locks[index]:
            if table.state.status is Status.FINISHED:
                return
            if not self.pending.get(index):
                self.pending[index] = table.next_actions(self.rng, self.round_length)
            action = self.pending[index].pop(0)
            body = json.dumps(table.body(action)).encode()
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {table.token}"}
            try:
                conn, resent, status, answer, data = await self._send(
                    f"/api/v1/tables/{table.code}/actions", body, headers
                )
            except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ValueError) as error:
                self.posted.append(Posted(table.code, None, due, time.monotonic() - due, type(error).__name__))
                return
            seconds = time.monotonic() - due
            if resent is not None:
                status, data = self._after_resend(resent, table.version, status, data)
            version = None
            if status == 200:
                table.accepted(action, json.loads(data))
                version = table.version
            self.posted.append(Posted(table.code, version, due, seconds, status))
            if answer.get("connection", "").lower() != "close":
                self.idle.append((conn, time.monotonic()))

    def _after_resend(self, entry: int, version: int, status: int, data: bytes) -> tuple[int, bytes]:
        """Note how a resent action ended; a 409 that shows the very next version means the first attempt counted.

        hypercorn may close an idle connection just after reading a request from it (docs/performance.md, "The
        victim's lost answers"): the action is applied and its answer lost. The resend is then refused as stale,
        with the table's state, one version on; the action counts once, and the table is followed as it is.
        """
        idle, error, _ = self.resent[entry]
        if status == 409:
            state = json.loads(data).get("state") or {}
            if state.get("version") == version + 1:
                self.resent[entry] = (idle, error, "applied by the first attempt, its answer lost")
                return 200, json.dumps(state).encode()
        self.resent[entry] = (idle, error, f"resend answered {status}")
        return status, data

    async def _send(
        self, path: str, body: bytes, headers: Mapping[str, str]
    ) -> tuple[tuple[asyncio.StreamReader, asyncio.StreamWriter], int | None, int, dict[str, str], bytes]:
        """POST on a kept-alive connection; once more on a new one (its entry in `resent` returned) if closed.

        A server closes a connection idle for its keep-alive time (KEEP_ALIVE_SECONDS), and a client that
        reuses it at that moment finds it closed before any answer: the request never reached the app. Browsers
        send it again on a new connection, as this does. Safe even had it been applied: it carries the table's
        version (`expected_version`), so a repeat would be refused as stale, never counted twice.
        """
        reused_since = None
        if self.idle:
            conn, last_used = self.idle.pop()
            reused_since = time.monotonic() - last_used
        else:
            conn = await connect(self.port, self.source)
        try:
            return (conn, None, *await request(conn, "POST", path, body, headers))
        except ConnectionError as error:  # reset, broken pipe, or closed before the status line
            conn[1].close()
            if reused_since is None:
                raise
            self.resent.append((round(reused_since, 1), type(error).__name__, "no answer"))
        entry = len(self.resent) - 1
        conn = await connect(self.port, self.source)
        try:
            return (conn, entry, *await request(conn, "POST", path, body, headers))
        except BaseException:
            conn[1].close()
            raise

    async def run(self, rate: float, seconds: float) -> None:
        """Post `rate` actions/s for `seconds`, each on a table picked at random."""
        start = time.monotonic() + 0.05
        tasks = []
        for number in range(int(rate * seconds)):
            due = start + number / rate
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            tasks.append(asyncio.create_task(self._post(self.rng.randrange(len(self.tables)), due)))
        await asyncio.gather(*tasks)

    def close(self) -> None:
        """Close the kept-alive connections."""
        for (_, writer), _ in self.idle:
            writer.close()


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def delivery_figures(phones: Sequence[Phone], posted: Sequence[Posted]) -> dict[str, Any]:
    """For each accepted action and each phone of its table: when the message came, and the board showed it."""
    by_code: dict[str, list[Phone]] = {}
    for phone in phones:
        if phone.refused is None:
            by_code.setdefault(phone.code, []).append(phone)
    messages: list[float] = []
    boards: list[float] = []
    worst_board: list[float] = []
    missing = 0
    for action in posted:
        if action.version is None:
            continue
        worst = 0.0
        for phone in by_code.get(action.code, ()):
            heard = next((when for version, when in phone.messages if version >= action.version), None)
            shown = next((when for version, when in phone.boards if version >= action.version), None)
            if heard is None or shown is None:
                missing += 1
                continue
            messages.append(heard - action.due)
            boards.append(shown - action.due)
            worst = max(worst, shown - action.due)
        worst_board.append(worst)
    return {
        "pairs": len(boards),
        "missing": missing,
        "message_after_due_ms": {"p50": _ms(percentile(messages, 50)), "p99": _ms(percentile(messages, 99))},
        "board_current_after_due_ms": {
            "p50": _ms(percentile(boards, 50)),
            "p99": _ms(percentile(boards, 99)),
            "max": _ms(max(boards, default=float("nan"))),
        },
        "last_phone_of_table_current_ms_p99": _ms(percentile(worst_board, 99)),
    }


def action_figures(posted: Sequence[Posted], resent: Sequence[tuple[float, str, str]] = ()) -> dict[str, Any]:
    """Latency of the driver's actions from when each was due; refusals and errors counted apart."""
    latencies = [action.seconds for action in posted]
    first = min((action.due for action in posted), default=0.0)
    return {
        # When the slow ones were due (seconds into the phase): spread out, or bunched at one moment?
        "over_100_ms_due_at_s": sorted(round(action.due - first, 1) for action in posted if action.seconds > 0.1),
        # The ten slowest: (seconds into the phase it was due, its latency in ms).
        "slowest_due_s_ms": sorted(
            ((round(action.due - first, 2), _ms(action.seconds)) for action in posted),
            key=lambda pair: -pair[1],
        )[:10],
        "actions": len(posted),
        "accepted": sum(1 for action in posted if action.status == 200),
        "not_accepted": sorted({str(action.status) for action in posted if action.status != 200}),
        # Sent again on a new connection: the kept-alive one was closed by the server (seconds idle, error, end).
        "resent_on_closed_keepalive": list(resent),
        "p50_ms": _ms(percentile(latencies, 50)),
        "p99_ms": _ms(percentile(latencies, 99)),
        "max_ms": _ms(max(latencies, default=float("nan"))),
    }


async def live_phones(
    action_port: int, phone_port: int, tables: Sequence[Table], phones: int, rate: float, seconds: float
) -> dict[str, Any]:
    """`phones` phones (spread evenly over `tables`) on `phone_port`; `rate` actions/s posted to `action_port`."""
    stop = asyncio.Event()
    everyone = [Phone(index, tables[index % len(tables)].code) for index in range(phones)]
    gate = asyncio.Semaphore(50)  # connect 50 at a time, as a room of phones would not all at one instant
    tasks: list[asyncio.Task[None]] = []
    ramp_started = time.monotonic()

    async def start(phone: Phone) -> None:
        async with gate:
            connected = asyncio.Event()
            tasks.append(asyncio.create_task(run_phone(phone, phone_port, connected, stop)))
            await asyncio.wait_for(connected.wait(), 3 * TIMEOUT)

    await asyncio.gather(*(start(phone) for phone in everyone), return_exceptions=True)
    ramp = time.monotonic() - ramp_started
    await asyncio.sleep(1.0)
    driver = Driver(action_port, tables)
    driver_started = time.time()
    await driver.run(rate, seconds)
    await asyncio.sleep(1.5)  # the last messages and the board fetches they cause
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    driver.close()
    refused = [phone.refused for phone in everyone if phone.refused is not None]
    board_requests = [value for phone in everyone for value in phone.board_seconds]
    return {
        "phones": phones,
        "tables": len(tables),
        "rate": rate,
        "seconds": seconds,
        "ramp_seconds": round(ramp, 1),
        "actions_started_unix": round(driver_started, 3),
        "phones_refused": len(refused),
        "refused_why": sorted(set(refused)),
        "board_reconnects": sum(phone.reconnects for phone in everyone),
        "board_errors": sum(phone.board_errors for phone in everyone),
        "board_request_ms": {"p50": _ms(percentile(board_requests, 50)), "p99": _ms(percentile(board_requests, 99))},
        "action": action_figures(driver.posted, driver.resent),
        **delivery_figures(everyone, driver.posted),
    }
