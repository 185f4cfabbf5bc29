"""Attack a real `referee serve` from outside, as a stranger on the network would, and print what each attack got.

Every phase starts its own `referee serve` (this venv's `referee` program, a temporary data folder, loopback only;
127.0.0.2 is the attacker, 127.0.0.3 an innocent phone) and checks what docs/security.md promises: the exit status
is 1 if a promise broke. Standard library only, plus psycopg for the PostgreSQL restart (the test extra has it).

    .venv/bin/python scripts/attack.py [--quick] [--only 1,4,8c] [--json FIGURES.json] [--keep]
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import http.client
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

HOST, ATTACKER, PHONE = "127.0.0.1", "127.0.0.2", "127.0.0.3"
REFEREE = Path(sys.executable).with_name("referee")
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
FILES = resource.getrlimit(resource.RLIMIT_NOFILE)  # the servers get the open-files limit this shell gave
FIGURES: dict[str, Any] = {}
BROKEN: list[str] = []
SEEN: set[str] = set()  # every table code, API token and join secret the script was given
SERVERS: list[Server] = []
QUICK = False


def figure(name: str, value: Any) -> None:
    """Print one measured figure and keep it for --json."""
    FIGURES[name] = value
    print(f"  {name}: {value}")


def promise(kept: bool, what: str) -> None:
    """Say whether a promise of docs/security.md held; a broken one makes the exit status 1."""
    print(f"  {'ok' if kept else 'BROKEN'}: {what}")
    if not kept:
        BROKEN.append(what)


def spread(values: list[float], scale: float = 1000.0) -> str:
    """min / median / max of `values` (seconds), in ms, or in s with `scale` 1."""
    shown = [value * scale for value in (min(values), statistics.median(values), max(values))] if values else []
    return " / ".join(f"{value:.{1 if scale > 1 else 2}f}" for value in shown) or "none"


class Server:
    """`referee serve` in a subprocess on its own port and data folder; its whole output kept in one file."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> None:
        """`env` adds variables (DATABASE_URL for PostgreSQL); `args` go to `referee serve`."""
        self.folder, self.env, self.args, self.log = folder, env or {}, args, folder / "output.log"
        folder.mkdir(parents=True, exist_ok=True)
        with socket.create_server((HOST, 0)) as probe:
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen[bytes] | None = None
        SERVERS.append(self)

    def start(self, wrapper: tuple[str, ...] = ()) -> Server:
        """Start it (through `wrapper`, e.g. bash with a ulimit) and wait until /healthz answers."""
        command = [*wrapper, str(REFEREE), "serve", "--host", HOST, "--port", str(self.port), *self.args]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [*command, "--data-dir", str(self.folder / "data")],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env},
                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, FILES),
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            with contextlib.suppress(OSError, http.client.HTTPException):
                if Client(self.port, "127.0.0.9", 2).send("GET", "/healthz").status == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"referee serve did not start: {self.output()[-1500:]}")

    def stop(self, sig: int = signal.SIGINT) -> tuple[int | None, float]:
        """Stop it with `sig` (SIGKILL: kill -9); its exit status and how long it took."""
        started = time.monotonic()
        if self.process is None or self.process.poll() is not None:
            return (None if self.process is None else self.process.returncode), 0.0
        self.process.send_signal(sig)
        try:
            status = self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        return status, time.monotonic() - started

    def output(self) -> str:
        """Everything it printed, across restarts."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Reply(NamedTuple):
    """One answer: its status, body and how many seconds it took."""

    status: int
    body: bytes
    seconds: float

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)


class Client:
    """One keep-alive HTTP/1.1 connection from a chosen loopback address, with a browser's cookie jar."""

    def __init__(self, port: int, source: str = PHONE, timeout: float = 15.0) -> None:
        """A client of the server on `port`, connecting from `source`."""
        self.port, self.source, self.timeout = port, source, timeout
        self.connection: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> Reply:
        """Send one request (on a new connection if the server closed the kept-alive one before it)."""
        cookies = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}
        sent = {**(headers or {}), **(cookies if self.cookies else {})}
        for attempt in (1, 2):
            reused = self.connection is not None
            self.connection = self.connection or http.client.HTTPConnection(
                HOST, self.port, timeout=self.timeout, source_address=(self.source, 0)
            )
            started = time.perf_counter()
            try:
                self.connection.request(method, path, body, sent)
                response = self.connection.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.close()
                stale = isinstance(error, http.client.RemoteDisconnected | BrokenPipeError | ConnectionResetError)
                if attempt == 2 or not (reused and stale):
                    raise
                continue
            for cookie in response.msg.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
            if response.will_close:
                self.close()
            return Reply(response.status, data, time.perf_counter() - started)
        raise AssertionError("unreachable")

    def api(self, method: str, path: str, payload: object = None, token: str | None = None) -> Reply:
        """Send JSON to the API (with a table's token if given)."""
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        return self.send(method, path, None if payload is None else json.dumps(payload).encode(), headers)

    def close(self) -> None:
        """Close the connection."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def remember(reply: Reply) -> dict[str, Any]:
    """A 201's new table (code, token, join link, state); its code, token and join secret are kept for phase 9."""
    if reply.status != 201:
        raise RuntimeError(f"no table made: {reply.status} {reply.body[:200]!r}")
    made: dict[str, Any] = reply.json()
    SEEN.update((made["code"], made["token"], made["join_url"].rstrip("/").rsplit("/", 1)[1]))
    return made


def new_table(client: Client, players: list[str] = PLAYERS) -> dict[str, Any]:
    """Start a table through the API."""
    return remember(client.api("POST", "/api/v1/tables", {"players": players}))


def import_document(client: Client, document: bytes) -> Reply:
    """POST an export document to the import endpoint."""
    reply = client.send("POST", "/api/v1/tables/import", document, {"Content-Type": "application/json"})
    if reply.status == 201:
        remember(reply)
    return reply


def until_closed(sock: socket.socket, within: float, data: bytes = b"") -> tuple[bytes, float]:
    """Send `data`; what comes back until the server closes, and after how many seconds (inf: not within)."""
    sock.sendall(data)
    started, received = time.monotonic(), b""
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


def raw(port: int, data: bytes, within: float = 5) -> tuple[bytes, float]:
    """`until_closed` on a new connection from the attacker's address."""
    with socket.create_connection((HOST, port), source_address=(ATTACKER, 0)) as sock:
        return until_closed(sock, within, data)


def status_of(answer: bytes) -> str:
    """The status code of a raw HTTP/1.1 answer, or "closed" if none came."""
    return answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.1 ") else "closed"


def next_move(state: dict[str, Any], rng: random.Random, undo_rate: float = 0.0) -> dict[str, Any]:
    """A legal action in `state`: a hand correction for a player low on cards (so the game never ends), else a card
    that fits the total for the player whose turn it is; now and then an undo or a redo."""
    roll = rng.random()
    if state["can_redo"] and roll < undo_rate / 2:
        return {"type": "redo"}
    if state["can_undo"] and roll < undo_rate:
        return {"type": "undo"}
    low = [player["name"] for player in state["players"] if not player["out"] and player["hand"] <= 2]
    if low:
        return {"type": "hand", "player": low[0], "cards": 6}
    numbers = [str(value) for value in range(8) if state["total"] + value <= 21] * 3
    wild = ["pass", "skip", "reverse", "eq0", "eq10", "eq21", "draw1", "draw2"]
    return {"type": "play", "player": state["current"], "card": rng.choice(numbers + wild)}


def log_of(commands: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The export's `actions` and `undone` that exactly these acknowledged commands leave."""
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    for command in commands:
        if command["type"] == "undo":
            undone.append(done.pop())
        elif command["type"] == "redo":
            done.append(undone.pop())
        else:
            done.append(command)
            undone.clear()
    return done + undone[::-1], len(undone)


def build_document(folder: Path, actions: int) -> bytes:
    """Play `actions` legal actions through the API and export the table: the largest legal import document. Its
    server's per-table action limit is raised (1,200 a minute would take 8 minutes); attacked servers keep defaults."""
    with Server(folder, env={"REFEREE_TOKEN_ACTIONS_PER_MINUTE": "100000000"}) as server:
        client, rng = Client(server.port, "127.0.0.9"), random.Random(1)
        made = new_table(client, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"])
        state, path = made["state"], f"/api/v1/tables/{made['code']}/actions"
        while state["version"] < actions and state["current"] is not None:
            reply = client.api("POST", path, next_move(state, rng), made["token"])
            if reply.status not in (200, 422):
                raise RuntimeError(f"building the document: {reply.status} {reply.body[:200]!r}")
            state = reply.json() if reply.status == 200 else state
        return client.api("GET", f"/api/v1/tables/{made['code']}/export", token=made["token"]).body


def phone_request(phone: Client, made: dict[str, Any], number: int) -> Reply:
    """The innocent phone's `number`th request: /healthz, the home page, the table page or a tap, in turn."""
    if number % 4 < 3:
        return phone.send("GET", ["/healthz", "/", f"/t/{made['code']}"][number % 4])
    ann = made["state"]["players"][0]
    body = {"type": "hand", "player": ann["name"], "cards": ann["hand"] + 1 + number // 4 % 2}  # each a change
    return phone.api("POST", f"/api/v1/tables/{made['code']}/actions", body, made["token"])


def phase_1_half_sent_bodies(folder: Path) -> None:
    """Posts that announce a body and send one byte of it, from one address; another address meanwhile."""
    body_seconds = 3.0 if QUICK else 10.0
    with Server(folder, env={"REFEREE_BODY_SECONDS": str(body_seconds)}) as server:
        made = new_table(Client(server.port))
        shapes = [("/api/v1/tables/import", 900_000)] * 4 + [("/api/v1/tables", 60_000)] * 4
        held = [socket.create_connection((HOST, server.port), source_address=(ATTACKER, 0)) for _ in shapes]
        head = f"HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\nContent-Length:"
        data = [f"POST {path} {head} {size}\r\n\r\n{{".encode() for path, size in shapes]  # "{" and no more
        sent = time.monotonic()
        with ThreadPoolExecutor(len(held)) as pool:
            answers = pool.map(lambda pair: until_closed(pair[0], 120, pair[1]), zip(held, data, strict=True))
            phone, waits, statuses = Client(server.port), [], Counter()
            while time.monotonic() - sent < body_seconds * (1 + 900_000 / 262_144) + 1:
                reply = phone_request(phone, made, len(waits))
                waits.append(reply.seconds)
                statuses[reply.status] += 1
                time.sleep(0.3)
            closed = [
                (status_of(answer), seconds, size) for (answer, seconds), (_, size) in zip(answers, shapes, strict=True)
            ]
    for sock in held:
        sock.close()
    figure("1 other address: requests, latency ms min/median/max", f"{len(waits)}, {spread(waits)}")
    for size in (900_000, 60_000):
        said = Counter(f"{status} after {seconds:.1f} s" for status, seconds, length in closed if length == size)
        figure(f"1 held bodies announced at {size:,} B", ", ".join(f"{n}x {what}" for what, n in sorted(said.items())))
    in_time = [status in ("408", "503") and t < body_seconds * (1 + size / 262_144) + 2 for status, t, size in closed]
    promise(all(in_time), "every held body gets its 408 (or 503) and is closed within its time")
    promise(set(statuses) == {200} and max(waits) < 2, "another address is served, each request within 2 s")


def phase_2_connection_flood(folder: Path) -> None:
    """3,000 idle connections from one address; another address's pages meanwhile."""
    count = 1000 if QUICK else 3000
    with Server(folder) as server:
        made, before = new_table(Client(server.port)), len(server.output())
        crowd = [socket.create_connection((HOST, server.port), source_address=(ATTACKER, 0)) for _ in range(count)]
        time.sleep(1)
        closed = 0
        for sock in crowd:
            try:
                closed += sock.recv(1, socket.MSG_DONTWAIT) == b""
            except ConnectionResetError:
                closed += 1
            except BlockingIOError:
                pass  # open, and nothing to read
        phone = Client(server.port)
        replies = [phone.send("GET", ["/", "/healthz", f"/t/{made['code']}"][number % 3]) for number in range(30)]
        for sock in crowd:
            sock.close()
        output = server.output()[before:]
    waits = [reply.seconds for reply in replies]
    figure(f"2 of {count:,} sockets closed at accept", closed)
    figure("2 another address's pages ms min/median/max", spread(waits))
    figure("2 server log bytes during the flood", len(output.encode()))
    promise(count - closed <= 512, "one address holds at most 512 connections")
    promise({reply.status for reply in replies} == {200} and max(waits) < 2, "another address is served within 2 s")
    promise("Traceback" not in output and len(output) < 20_000, "the flood does not flood the log")


def h2_frames(data: bytes) -> list[tuple[int, int, int, bytes]]:
    """HTTP/2 frames as (type, flags, stream, payload)."""
    frames = []
    while len(data) >= 9:
        length = int.from_bytes(data[:3], "big")
        frames.append((data[3], data[4], int.from_bytes(data[5:9], "big") & 0x7FFFFFFF, data[9 : 9 + length]))
        data = data[9 + length :]
    return frames


def h2_status(flags: int, block: bytes) -> str:
    """The :status a HEADERS frame starts with (HPACK: the static table, or a literal in Huffman-coded digits)."""
    static = {8: "200", 9: "204", 10: "206", 11: "304", 12: "400", 13: "404", 14: "500"}
    block = block[1 : len(block) - block[0]] if flags & 0x8 else block  # padded
    block = block[5:] if flags & 0x20 else block  # with a priority
    block = block[1:] if block[0] & 0xE0 == 0x20 else block  # a table size update first
    if block[0] & 0x80:
        return static.get(block[0] & 0x7F, "?")
    if block[0] & (0x3F if block[0] & 0x40 else 0x0F) not in static:
        return "?"
    value = block[2 : 2 + (block[1] & 0x7F)]
    if not block[1] & 0x80:
        return value.decode("latin-1")
    bits, digits = "".join(f"{byte:08b}" for byte in value), ""
    while len(bits) >= 5 and bits[:5] != "11111":  # '0'-'2' are 5 bits (0-2), '3'-'9' 6 bits (0x19-0x1f)
        small = int(bits[:5], 2) <= 2
        digits += str(int(bits[:5], 2) if small else int(bits[:6], 2) - 0x19 + 3)
        bits = bits[5 if small else 6 :]
    return digits


def phase_3_protocol_odds(folder: Path) -> None:
    """HTTP/2 with prior knowledge, an upgrade to h2c, a WebSocket upgrade, and a length given twice over."""
    preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes.fromhex("000000040000000000")
    with Server(folder) as server:
        answer, seconds = raw(server.port, preface)
        goaway = [int.from_bytes(payload[4:8], "big") for kind, _, _, payload in h2_frames(answer) if kind == 7]
        figure("3 h2 prior knowledge: GOAWAY codes, closed after s", f"{goaway}, {seconds:.2f}")
        promise(goaway == [0xD] and seconds < 1, "HTTP/2 prior knowledge: GOAWAY HTTP_1_1_REQUIRED, closed at once")
        upgrade = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
        with socket.create_connection((HOST, server.port), source_address=(ATTACKER, 0)) as sock:
            sock.sendall(f"{upgrade}HTTP2-Settings: AAMAAABk\r\n\r\n".encode())
            switched, received, started = b"", b"", time.monotonic()
            while b"\r\n\r\n" not in switched and (chunk := sock.recv(1)):
                switched += chunk
            ping, closed = preface, float("inf")
            while closed == float("inf") and time.monotonic() - started < 20:  # a PING a second keeps nothing open
                with contextlib.suppress(OSError):
                    chunk, closed = until_closed(sock, 1, ping)
                received, ping = received + chunk, bytes.fromhex("000008060000000000") + b"ping 1 s"
            seconds = time.monotonic() - started
        frames = [frame for frame in h2_frames(received) if frame[2] == 1]
        status = next((h2_status(flags, payload) for kind, flags, _, payload in frames if kind == 1), "none")
        text = b"".join(payload for kind, *_, payload in frames if kind == 0).decode(errors="replace")
        figure("3 h2c upgrade: answers, closed after s", f"{status_of(switched)} then {status}, {seconds:.1f}")
        promise(status == "505" and "HTTP/1.1" in text and seconds < 13, "h2c: a 505 in words, closed at keep-alive")
        websocket = f"GET / HTTP/1.1\r\nHost: {HOST}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-"
        answer, _ = raw(
            server.port, f"{websocket}Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        bare, _ = raw(server.port, f"{websocket}Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode(), 1)  # no version
        ours = b"content-security-policy" in bare  # the app's headers, or the server's own bare answer
        figure("3 WebSocket upgrade: status; without a version", f"{status_of(answer)}; {status_of(bare)}, {ours=}")
        promise(status_of(answer) == "400" and b"WebSocket" in answer, "a WebSocket upgrade is refused in words")
        smuggled = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n\r\n"
        post = f"POST /api/v1/tables HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        twice = f"Content-Length: {5 + len(smuggled)}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{smuggled}"
        answer, seconds = raw(server.port, (post + twice).encode())
        answers = answer.count(b"HTTP/1.1 ")
        figure("3 CL+TE: status, answers, closed after s", f"{status_of(answer)}, {answers}, {seconds:.2f}")
        promise(status_of(answer) == "400" and answers == 1 and seconds < 1, "CL+TE: one 400, nothing smuggled")


def phase_4_import_bomb(folder: Path, document: bytes) -> None:
    """Eight of the largest imports at once from eight addresses; 70 refused ones from one; cross-site posts."""
    with Server(folder) as server:
        clients = [Client(server.port, f"127.0.0.{10 + number}", 120) for number in range(8)]
        phone, waits, started = Client(server.port), [], time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            running = [pool.submit(import_document, client, document) for client in clients]
            while not all(future.done() for future in running):
                waits.append(phone.send("GET", "/healthz").seconds)
            answers = [future.result().status for future in running]
        figure("4 eight imports: wall s, answers", f"{time.monotonic() - started:.2f}, {dict(Counter(answers))}")
        figure("4 /healthz meanwhile ms min/median/max", spread(waits))
        promise(201 in answers and set(answers) <= {201, 503}, "each import is made (201) or told to come back (503)")
        promise(max(waits) < 2, "/healthz from elsewhere answers within 2 s during the imports")
        bad = json.loads(document)
        bad["actions"][-1] = {"type": "play", "player": "Nobody", "card": "3"}  # refused at its very last action
        refused, attacker = json.dumps(bad).encode(), Client(server.port, "127.0.0.4", 60)
        sent = [(time.monotonic(), import_document(attacker, refused).status) for _ in range(70)]
        first = next((number for number, (_, status) in enumerate(sent, 1) if status == 429), 0)
        figure("4 70 refused imports: answers", dict(Counter(status for _, status in sent)))
        figure("4 first 429 at number, after s", f"{first}, {sent[max(first, 1) - 1][0] - sent[0][0]:.1f}")
        counted = [when for when, status in sent if status != 429]
        most = max(sum(1 for other in counted if when - 60 < other <= when) for when in counted)
        promise(most <= 60, f"at most 60 imports a minute from one address, refused ones included (saw {most})")
        cross, form = Client(server.port, "127.0.0.5"), b'{"players": ["Ann", "Bob"]}'
        kinds = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]
        paths = ["/api/v1/tables", "/api/v1/tables/import"]
        got = [cross.send("POST", path, form, {"Content-Type": kind}).status for kind in kinds for path in paths]
        figure("4 cross-site simple posts (3 types x create, import)", got)
        promise(set(got) == {415}, "a cross-site simple post creates and imports nothing (415)")


HOSTILE = [  # (what, players, should be refused)
    ("CGJ U+034F", ["Ann", "Ann\u034f"], True),
    ("Hangul choseong filler U+115F", ["\u115f", "Bob"], True),
    ("Hangul filler U+3164", ["\u3164", "Bob"], True),
    ("Khmer vowel U+17B4", ["Ann\u17b4", "Bob"], True),
    ("halfwidth filler U+FFA0", ["\uffa0", "Bob"], True),
    ("Braille blank U+2800", ["\u2800", "Bob"], True),
    ("zero-width space", ["Ann", "An\u200bn"], True),
    ("zero-width joiner", ["Ann", "An\u200dn"], True),
    ("RTL override", ["\u202eAnn", "Bob"], True),
    ("fullwidth ANN vs ANN", ["ANN", "\uff21\uff2e\uff2e"], True),
    ("Cyrillic Аnn vs Ann", ["Ann", "\u0410nn"], True),
    ("Greek ΑΝΝ vs ANN", ["ANN", "\u0391\u039d\u039d"], True),
    ("Bill vs BiII", ["Bill", "BiII"], True),
    ("Sam vs Sarn", ["Sam", "Sarn"], True),
    ("10 KB name", ["A" * 10_240, "Bob"], True),
    ("5,000 accents", ["a" + "\u0301" * 5000, "Bob"], True),
    ("markup", ["<b>x</b>", "<img src=x onerror=1>"], False),
    ("SQL", ["Robert'); DROP TABLE", "Bob"], False),
    ("emoji cook", ["\U0001f469\u200d\U0001f373 Mum", "Bob"], False),
]
LOOKS_LIKE = str.maketrans("\u0410\u0430\u0391\u039d\u0395\u0435\u041e\u043e\u0399I1", "AaANEeOolll")


def look(name: str) -> str:
    """A crude look-alike key of the script's own: NFKC, no invisible or blank characters, Cyrillic and Greek
    letters as the Latin ones they look like, I and 1 as l, rn as m, case folded."""
    kept = "".join(ch for ch in unicodedata.normalize("NFKC", name) if unicodedata.category(ch) not in ("Cf", "Mn"))
    kept = "".join(ch for ch in kept if ch not in "\u115f\u1160\u3164\u17b4\u17b5\uffa0\u2800\u034f")
    return kept.translate(LOOKS_LIKE).replace("rn", "m").casefold().strip()


def phase_5_names(folder: Path) -> None:
    """Hostile names through the API's create endpoint: which are refused, and how they are stored and shown."""
    with Server(folder) as server:
        client, wrong, alike = Client(server.port), [], []
        for what, players, refuse in HOSTILE:
            reply = client.api("POST", "/api/v1/tables", {"players": players})
            figure(f"5 {what}", f"{reply.status} {reply.json()['error']['code'] if reply.status >= 400 else 'kept'}")
            if reply.status == 201:
                made = remember(reply)
                keys = [look(player["name"]) for player in made["state"]["players"]]
                alike += [keys] if len(set(keys)) < len(keys) or "" in keys else []
                page = client.send("GET", f"/t/{made['code']}").body.decode()
                wrong += [what] if refuse or "<img src=x" in page or "<b>x</b>" in page else []
            elif not refuse or reply.status >= 500:
                wrong.append(what)
    promise(not wrong, f"hostile names refused, the others stored and shown as text (wrong: {wrong})")
    promise(not alike, f"no two stored names at a table look alike, and none is blank (saw {alike})")


def phase_6_log_page(folder: Path, document: bytes) -> None:
    """The log page of a table at its cap; 32 readers from one address while another loads the table page."""
    with Server(folder) as server:
        made = remember(import_document(Client(server.port, "127.0.0.4", 60), document))
        log, table, reader, phone = (
            f"/t/{made['code']}/log",
            f"/t/{made['code']}",
            Client(server.port),
            Client(server.port),
        )
        pages = [reader.send("GET", log) for _ in range(5)]
        alone = [phone.send("GET", table).seconds for _ in range(10)]
        figure("6 log page bytes, ms min/median/max", f"{len(pages[0].body)}, {spread([p.seconds for p in pages])}")
        stop, statuses, waits = threading.Event(), Counter(), []

        def read() -> None:
            mine = Client(server.port, ATTACKER)
            while not stop.is_set():
                try:
                    statuses[mine.send("GET", log).status] += 1
                except (OSError, http.client.HTTPException):
                    statuses["no answer"] += 1

        threads = [threading.Thread(target=read) for _ in range(32)]
        for thread in threads:
            thread.start()
        ends = time.monotonic() + (3 if QUICK else 10)
        while time.monotonic() < ends:
            reply = phone.send("GET", table)
            waits.append(reply.seconds if reply.status == 200 else float("inf"))
        stop.set()
        for thread in threads:
            thread.join()
    figure("6 32 readers from one address: answers", dict(statuses))
    figure("6 another address's table page ms min/median/max, alone / meanwhile", f"{spread(alone)}; {spread(waits)}")
    promise(len(pages[0].body) < 100_000, "a page of the log stays under 100 KB")
    promise(max(waits) < 2, "another address's table page answers within 2 s while 32 read the log")


def ask(client: Client, code: str, player: str) -> Reply:
    """A phone opens the table page and asks to be `player`, with the form's CSRF token from the page."""
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.send("GET", f"/t/{code}").body.decode())
    body = f"csrf={csrf.group(1) if csrf else ''}&player={player}".encode()
    return client.send("POST", f"/t/{code}/ask", body, {"Content-Type": "application/x-www-form-urlencoded"})


def phase_7_join_requests(folder: Path) -> None:
    """One address with a new cookie for every ask floods a table's requests; a phone elsewhere then asks."""
    with Server(folder) as server:
        made, host = new_table(Client(server.port, "127.0.0.4")), Client(server.port, "127.0.0.4")
        statuses = Counter(ask(Client(server.port, ATTACKER), made["code"], "Ann").status for _ in range(20))
        listing = f"/api/v1/tables/{made['code']}/join-requests"
        flood = len(host.api("GET", listing, token=made["token"]).json()["requests"])
        ask(Client(server.port), made["code"], "Dee")
        waiting = host.api("GET", listing, token=made["token"]).json()["requests"]
        other = any(item["player"] == "Dee" for item in waiting)
    figure("7 20 asks from one address, each with a new cookie: answers", dict(statuses))
    figure("7 requests the flood left waiting, a phone elsewhere got in", f"{flood}, {other}")
    promise(flood <= 2, "one address leaves at most 2 requests at a table")
    promise(other, "a phone from another address can still ask")


class Tapper:
    """One client playing its own table through the API: what the server acknowledged, and what it answered."""

    def __init__(self, port: int, source: str, made: dict[str, Any], seed: int) -> None:
        """A client from `source` for the table `made`."""
        self.port, self.source, self.made, self.rng = port, source, made, random.Random(seed)
        self.acked: list[dict[str, Any]] = []
        self.in_flight: dict[str, Any] | None = None
        self.state, self.statuses, self.false_503s = made["state"], Counter[str](), list[str]()
        self.stopping, self.last_ok = threading.Event(), 0.0
        self.unknown = 0  # 503s that said they could not tell whether the action was saved

    def tap(self, until_dead: bool) -> None:
        """Tap until stopped; with `until_dead`, until the server is gone (kill -9), else on through errors."""
        client, path = Client(self.port, self.source, 10), f"/api/v1/tables/{self.made['code']}/actions"
        while not self.stopping.is_set():
            command = self.in_flight = next_move(self.state, self.rng, undo_rate=0.12)
            try:
                reply = client.api("POST", path, {**command, "expected_version": len(self.acked)}, self.made["token"])
            except (OSError, http.client.HTTPException):
                self.statuses["no answer"] += 1
                if until_dead:
                    return
                self.resync(client, said_unchanged=False)
                continue
            self.statuses[str(reply.status)] += 1
            if reply.status == 200:
                self.acked.append(command)
                self.state, self.in_flight, self.last_ok = reply.json(), None, time.monotonic()
            elif reply.status != 422:
                # "storage_unavailable" says nothing was changed; "outcome_unknown" that it cannot tell.
                said = reply.json().get("error", {}).get("code") if reply.status == 503 else None
                self.unknown += said == "outcome_unknown"
                self.resync(client, said_unchanged=said == "storage_unavailable")

    def resync(self, client: Client, said_unchanged: bool) -> None:
        """After an answer that was not 200, read the table: an in-flight action that was stored counts, whole."""
        reply = None
        while not self.stopping.is_set() and (reply is None or reply.status != 200):
            time.sleep(0.05)
            with contextlib.suppress(OSError, http.client.HTTPException):
                reply = client.api("GET", f"/api/v1/tables/{self.made['code']}")
        if reply is None or reply.status != 200:
            return
        state = reply.json()
        if state["version"] == len(self.acked) + 1 and self.in_flight is not None:
            if said_unchanged:
                self.false_503s.append(f"{self.in_flight} answered 503 'Nothing was changed', yet it is in the table")
            self.acked.append(self.in_flight)
        self.state, self.in_flight = state, None


def check_table(client: Client, tapper: Tapper) -> list[str]:
    """What is wrong with a table after the attack: its log must be exactly the acknowledged actions (plus the one
    in flight, whole), and its state the replay of them (the expected log imported on the same server)."""
    code, token = tapper.made["code"], tapper.made["token"]
    state = client.api("GET", f"/api/v1/tables/{code}").json()
    if state["version"] == len(tapper.acked) + 1 and tapper.in_flight is not None:
        tapper.acked.append(tapper.in_flight)  # committed, its answer never sent: it counts, whole
    tapper.in_flight, tapper.state = None, state
    document = client.api("GET", f"/api/v1/tables/{code}/export", token=token).json()
    actions, undone = log_of(tapper.acked)
    problems = []
    if state["version"] != len(tapper.acked) or document["actions"] != actions or document["undone"] != undone:
        problems.append(f"{code}: version {state['version']} for {len(tapper.acked)} acknowledged; the log differs")
    replay = remember(import_document(client, json.dumps({**document, "actions": actions, "undone": undone}).encode()))
    if {k: v for k, v in state.items() if k not in ("code", "version")} != {
        k: v for k, v in replay["state"].items() if k not in ("code", "version")
    }:
        problems.append(f"{code}: the state is not the replay of the acknowledged actions")
    return problems


def phase_8a_kill_9(folder: Path) -> None:
    """kill -9 the server three times mid-burst from 4 clients; after each restart nothing acknowledged is lost."""
    server, rng, problems, bursts = Server(folder).start(), random.Random(8), [], []
    try:
        tables = [new_table(Client(server.port, f"127.0.0.{2 + index}")) for index in range(4)]
        tappers = [Tapper(server.port, f"127.0.0.{2 + i}", made, i) for i, made in enumerate(tables)]
        for _ in range(1 if QUICK else 3):
            before = sum(len(tapper.acked) for tapper in tappers)
            threads = [threading.Thread(target=tapper.tap, args=(True,), daemon=True) for tapper in tappers]
            for thread in threads:
                thread.start()
            target, deadline = before + rng.randint(40, 120), time.monotonic() + 30
            while sum(len(tapper.acked) for tapper in tappers) < target and time.monotonic() < deadline:
                time.sleep(0.001)
            server.stop(signal.SIGKILL)
            for thread in threads:
                thread.join(15)
            bursts.append(sum(len(tapper.acked) for tapper in tappers) - before)
            server.start()
            checker = Client(server.port, "127.0.0.6", 60)
            problems += [problem for tapper in tappers for problem in check_table(checker, tapper)]
    finally:
        server.stop()
    figure("8a actions acknowledged in each burst before kill -9", bursts)
    promise(not problems, f"kill -9: every acknowledged action is there, nothing half-done ({problems[:3]})")
    promise("Traceback" not in server.output(), "no traceback in the server's output")


def phase_8b_disk_full(folder: Path) -> None:
    """The server under `ulimit -f 400` (a disk that fills up): tap until 503, then restart without the limit."""
    server = Server(folder).start(("bash", "-c", 'ulimit -f 400 && exec "$@"', "bash"))
    try:
        client = Client(server.port)
        made = new_table(client)
        path, acknowledged = f"/api/v1/tables/{made['code']}/actions", 0
        for number in range(5000):
            reply = client.api("POST", path, {"type": "hand", "player": "Ann", "cards": 5 + number % 2}, made["token"])
            if reply.status != 200:
                break
            acknowledged = reply.json()["version"]
        said = f"{reply.status} {reply.json()['error']['code']}"
        health, ready = client.send("GET", "/healthz").status, client.send("GET", "/readyz").status
        server.stop()
        server.start()
        after = client.api("GET", f"/api/v1/tables/{made['code']}").json()["version"]
        again = client.api("POST", path, {"type": "hand", "player": "Bob", "cards": 3}, made["token"]).status
    finally:
        server.stop()
    figure("8b taps acknowledged until the disk was full", acknowledged)
    figure("8b the failing tap; /healthz, /readyz", f"{said}; {health}, {ready}")
    figure("8b restarted without the limit: version, next tap", f"{after}, {again}")
    promise(said.startswith("503") and ready == 503, "a full disk answers 503 and /readyz says not ready")
    promise(after == acknowledged and again == 200, "nothing acknowledged lost, and taps go on after the restart")
    leaked = [secret for secret in SEEN if secret in server.output()]
    promise(not leaked, "the log of the full disk names no code, token or join secret")


class Postgres:
    """A throwaway PostgreSQL cluster (Debian's packages) listening on a Unix socket in its folder, run as the
    postgres user when this script runs as root, as initdb requires (the approach of tools/pgcluster.py)."""

    def __init__(self, folder: Path) -> None:
        """A cluster to be made in `folder`, which the postgres user must be able to reach."""
        self.folder, self.data = folder, folder / "data"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.url = f"postgresql:///postgres?host={folder}" + ("&user=postgres" if self.as_user else "")

    def run(self, program: str, *args: str) -> None:
        """Run one of PostgreSQL's programs."""
        binary = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"))[-1]
        subprocess.run([*self.as_user, binary, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        """initdb and start it."""
        self.folder.mkdir(parents=True)
        if self.as_user:
            shutil.chown(self.folder, "postgres")
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        options = f"-c listen_addresses='' -c unix_socket_directories='{self.folder}' -c max_connections=100"
        self.pg_ctl("-o", options, "start")

    def pg_ctl(self, *args: str) -> None:
        """pg_ctl on the cluster (start, restart, stop); the server's output goes to its log, not to our pipe."""
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", *args)


def phase_8c_postgres_restart(folder: Path) -> None:
    """`referee serve --workers 2` on PostgreSQL, 4 clients tapping, `pg_ctl restart -m fast` mid-burst."""
    os.chmod(folder.parent, 0o755)  # the postgres user reaches its folder through this one
    cluster = Postgres(folder / "pg")
    cluster.start()
    try:
        server = Server(folder / "serve", env={"DATABASE_URL": cluster.url}, args=("--workers", "2")).start()
        tables = [new_table(Client(server.port, f"127.0.0.{2 + index}")) for index in range(4)]
        tappers = [Tapper(server.port, f"127.0.0.{2 + i}", made, i) for i, made in enumerate(tables)]
        threads = [threading.Thread(target=tapper.tap, args=(False,), daemon=True) for tapper in tappers]
        for thread in threads:
            thread.start()
        restarts, recoveries, refusals = [], [], []
        for _ in range(1 if QUICK else 3):
            time.sleep(2)
            refused, started = sum(tapper.statuses["503"] for tapper in tappers), time.monotonic()
            cluster.pg_ctl("restart", "-m", "fast")
            restarts.append(time.monotonic() - started)
            while min(tapper.last_ok for tapper in tappers) < started + restarts[-1] < started + 60 > time.monotonic():
                time.sleep(0.01)
            recoveries.append(max(tapper.last_ok for tapper in tappers) - started)
            time.sleep(0.5)
            refusals.append(sum(tapper.statuses["503"] for tapper in tappers) - refused)
        time.sleep(2)
        for tapper, thread in zip(tappers, threads, strict=True):
            tapper.stopping.set()
            thread.join(20)
        checker = Client(server.port, "127.0.0.6", 60)
        problems = [problem for tapper in tappers for problem in check_table(checker, tapper)]
        tasks = Path(f"/proc/{server.process.pid if server.process else 0}/task").glob("*/children")
        workers = [int(pid) for task in tasks for pid in task.read_text().split()]
        status, seconds = server.stop(signal.SIGTERM)
        left = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    finally:
        with contextlib.suppress(subprocess.SubprocessError):
            cluster.pg_ctl("stop", "-m", "immediate")
    answers = sum((tapper.statuses for tapper in tappers), Counter())
    false_503s = [said for tapper in tappers for said in tapper.false_503s]
    figure("8c answers while tapping", dict(answers))
    figure("8c 503s during each restart; of them, stored after all", f"{refusals}; {len(false_503s)}")
    figure("8c 503s that said they could not tell whether the action was saved", sum(t.unknown for t in tappers))
    figure("8c pg_ctl restart s min/median/max", spread(restarts, 1))
    figure("8c every client acknowledged again after s min/median/max", spread(recoveries, 1))
    figure("8c SIGTERM: exit status, seconds, workers left", f"{status}, {seconds:.2f}, {len(left)}")
    promise(not problems, f"PostgreSQL restart: every acknowledged action is there ({problems[:3]})")
    promise(not false_503s, f"a 503 during the restart changed nothing, as its sentence says ({false_503s[:2]})")
    # 429: a client flat out on a quiet machine passes the token's 1,200 actions a minute (told to wait, fine).
    promise(max(recoveries) < 30 and set(answers) <= {"200", "422", "429", "503"}, "the server goes on by itself")
    promise(status == 0 and not left and seconds < 10, "SIGTERM stops the server and its workers cleanly")


def phase_9_secrets_in_logs(folder: Path) -> None:
    """Odd spellings of secret paths, then every server's whole output searched for every secret seen."""
    with Server(folder) as server:
        client = Client(server.port)
        made = new_table(client)
        code, secret = made["code"], made["join_url"].rstrip("/").rsplit("/", 1)[1]
        odd = [f"/t/{code.lower()}", f"/watch?code={code}", f"/j/{code}/{secret}/x", f"//t/{code}"]
        for path in [*odd, f"/j/{code}/{secret}", f"/api/v1/tables/{code}/export", f"/t/{code}/log?page=99"]:
            client.send("GET", path, headers={"Authorization": f"bearer\t{made['token']}"})
    outputs = "".join(each.output() for each in SERVERS)
    leaked = sorted(secret for secret in SEEN if secret in outputs or secret.lower() in outputs.lower())
    tracebacks = outputs.count("Traceback")
    figure("9 secrets seen, servers' output bytes, tracebacks", f"{len(SEEN)}, {len(outputs):,}, {tracebacks}")
    promise(not leaked, f"no code, token or join secret in any server's output (found {leaked[:5]})")


PHASES: dict[str, Callable[..., None]] = {
    name.split("_")[1]: f for name, f in globals().items() if name[:6] == "phase_"
}


@contextlib.contextmanager
def workspace(keep: bool) -> Iterator[Path]:
    """A temporary folder for every server's data and output, removed afterwards unless `keep`."""
    folder = Path(tempfile.mkdtemp(prefix="referee-attack-"))
    try:
        yield folder
    finally:
        print(f"the servers' data and output are in {folder}" if keep else "")
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    """Run the phases asked for, each printing its figures; exit status 1 if a promise broke."""
    global QUICK
    parser = argparse.ArgumentParser(description="Attack a real `referee serve` from outside.")
    parser.add_argument("--quick", action="store_true", help="shorter phases and a smaller import document")
    parser.add_argument("--only", default=",".join(PHASES), help="the phases to run, e.g. 1,4,8c")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--keep", action="store_true", help="keep the servers' data and output (each output.log)")
    args = parser.parse_args()
    QUICK = args.quick
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(FILES[1], 16_384), FILES[1]))  # phase 2's 3,000 sockets
    FIGURES["load average at start"] = os.getloadavg()[0]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with workspace(args.keep) as folder:
        document = b""
        for name in args.only.split(","):
            print(f"phase {name}: {PHASES[name].__doc__}")
            started = time.monotonic()
            try:
                if name in ("4", "6") and not document:
                    document = build_document(folder / "builder", 2000 if QUICK else 10_000)
                    actions, seconds = len(json.loads(document)["actions"]), time.monotonic() - started
                    figure("document: actions, bytes, seconds to build", f"{actions}, {len(document):,}, {seconds:.0f}")
                PHASES[name](folder / f"phase-{name}", *([document] if name in ("4", "6") else []))
            except Exception as error:  # a phase that cannot finish is a finding: reported, and the others run
                promise(False, f"phase {name} could not finish: {type(error).__name__}: {error}")
            for server in SERVERS:
                server.stop()
            FIGURES[f"phase {name} seconds"] = round(time.monotonic() - started, 1)
    FIGURES["load average at end"] = os.getloadavg()[0]
    if args.json:
        Path(args.json).write_text(json.dumps({"figures": FIGURES, "broken": BROKEN}, indent=1, ensure_ascii=False))
    print("\n".join(["broken promises:", *BROKEN] if BROKEN else ["every promise kept"]))
    return 1 if BROKEN else 0


if __name__ == "__main__":
    raise SystemExit(main())
