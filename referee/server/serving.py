"""How `referee serve` runs: hypercorn (pure Python) serving the ASGI front, in one process or several.

Why hypercorn: of the servers measured side by side (docs/performance.md) it is the one that is pure Python
(it runs on a Raspberry Pi and under Termux), holds a thousand live phones, and closes idle and slow-header
connections (`keep_alive_timeout` counts before the first request too), so one client cannot hold sockets
open forever. Only its documented API is used: `Config`, `hypercorn.asyncio.serve` with a shutdown trigger,
and an `fd://` bind for worker processes that share one listening socket.

Hypercorn has no hook for the moment a connection is accepted, and an ASGI app sees requests, not connections.
So the event loop does the counting (`ConnectionGate`): hypercorn hands asyncio's documented `create_server`
a protocol factory, and our loop wraps it, so that each accepted connection meets the gate first.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask

from ..web.redaction import redacted_logger

log = redacted_logger(__name__)

# Seconds in-flight requests get to finish after SIGTERM; streams are ended at once (phones reconnect).
GRACEFUL_SECONDS = 3
# Waiting connections the kernel keeps: a thousand phones reconnect at once after a restart.
BACKLOG = 2048
# Allocations between two young garbage collections (CPython's default is 700). With a thousand phones the
# process holds some 2,000 connections, and each closed one leaves a reference cycle (hypercorn's objects)
# that only the collector frees. At the default, the young collections caught so many requests in flight
# that their objects piled up in the oldest generation, and a full collection (250-1,000 ms on this machine,
# every request stopped) ran every 6-10 s; at 10,000, none ran in a 20-s live phase (docs/performance.md).
GC_YOUNG_THRESHOLD = 10_000
# Out of open files, asyncio's loop logs a traceback for every accept it tries (up to BACKLOG of them, again every
# second: 141,000 tracebacks, 62 MB, in 10 s with 400 sockets against 256 files), so it is said once in this many
# seconds instead. (uvloop's libuv closes the waiting connections itself and says nothing.)
OUT_OF_FILES_EVERY = 60.0
# The first bytes of an HTTP/2 connection with prior knowledge (RFC 9113 section 3.4). Such a connection gets
# HTTP/2's own "use HTTP/1.1": the server's empty SETTINGS frame, then GOAWAY with HTTP_1_1_REQUIRED (0xd)
# (RFC 9113 sections 6.5, 6.8 and 7); referee/server/asgi.py (ONLY_HTTP_1) says why.
H2_PREFACE = b"PRI * HTTP/2.0\r\n"
H2_USE_HTTP_1 = bytes.fromhex("000000040000000000" + "0000080700000000000000000000000d")


@dataclass(frozen=True)
class ServeOptions:
    """Where and how to serve (`referee serve`'s settings of those names; their defaults are config.SETTINGS')."""

    host: str
    port: int
    threads: int
    workers: int


def raise_open_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit (each phone holds two sockets); return it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return soft


def listening_socket(host: str, port: int) -> socket.socket:
    """Bind the port once, so that every worker process accepts on the same socket."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family, backlog=BACKLOG, reuse_port=False)
    sock.set_inheritable(True)
    return sock


def _config(sock: socket.socket, keep_alive: float) -> object:
    from hypercorn.config import Config

    config = Config()
    config.bind = [f"fd://{sock.fileno()}"]
    # Before the first request as well as between them: this closes idle and slow-header connections.
    config.keep_alive_timeout = keep_alive
    # A per-read timeout would cut live streams, on which the phone sends nothing for minutes.
    config.read_timeout = None
    config.graceful_timeout = GRACEFUL_SECONDS
    config.backlog = BACKLOG
    # A request head still incomplete after 16 KB is refused (a phone's are well under 2 KB). This bounds what a
    # slow or endless head can make the server hold; a head that arrives whole in one read (hypercorn reads up
    # to 64 KB at a time) is parsed as it is, and costs no more than its size.
    config.h11_max_incomplete_size = 16 * 1024
    config.include_server_header = False
    # The app writes one access-log line per request itself; hypercorn's own would double it.
    config.accesslog = None
    config.errorlog = redacted_logger("hypercorn.error")
    return config


class ConnectionGate:
    """Open connections per peer address, in this process: one past the cap is closed as it is accepted.

    The refused connection costs no task, thread or log line: hypercorn never learns of it. Trusted proxies
    are not counted (behind one, every phone's connection comes from it).
    """

    def __init__(self, per_address: int, exempt: frozenset[str]):
        self.per_address = per_address
        self.exempt = exempt
        self.open: Counter[str] = Counter()

    def wrap(self, factory: Callable[[], asyncio.BaseProtocol]) -> Callable[[], asyncio.BaseProtocol]:
        """The protocol factory to give asyncio instead of `factory`: each connection meets the gate first."""
        return lambda: _GatedConnection(self, factory)

    def admit(self, address: str) -> bool:
        """Count a new connection from `address`, unless the address already holds its share (then False)."""
        if address in self.exempt:
            return True
        if self.open[address] >= self.per_address:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        """A connection from `address` closed."""
        if address in self.exempt:
            return
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


class _GatedConnection(asyncio.Protocol):
    """One accepted connection: admitted (then everything goes on to hypercorn's protocol) or closed at once.

    It also closes a connection that opens with HTTP/2's preface, before hypercorn reads it (see H2_PREFACE).
    """

    def __init__(self, gate: ConnectionGate, factory: Callable[[], asyncio.BaseProtocol]):
        self.gate = gate
        self.factory = factory
        self.inner: asyncio.Protocol | None = None
        self.address = ""
        self.first: bytes | None = b""  # the bytes read so far while they might still be the preface

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # a TCP connection's transport (asyncio's or uvloop's)
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) else ""
        if not self.gate.admit(self.address):
            self.transport.abort()
            return
        # asyncio.start_server's StreamReaderProtocol, a plain Protocol: it is only ever given bytes.
        self.inner = cast(asyncio.Protocol, self.factory())
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        assert self.inner is not None
        if self.first is not None:
            data = self.first + data
            if H2_PREFACE.startswith(data[: len(H2_PREFACE)]):
                if len(data) < len(H2_PREFACE):
                    self.first = data
                    return
                self.transport.write(H2_USE_HTTP_1)
                self.transport.close()
                return
            self.first = None
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.gate.release(self.address)
            self.inner.connection_lost(exc)


class OutOfFiles:
    """The event loop's exception handler: running out of open files is one warning a minute, not a traceback
    for every accept the loop tries; anything else goes to asyncio's own handler."""

    def __init__(self) -> None:
        self.said_at: float | None = None
        self.unsaid = 0  # times it happened since the last warning

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if not (isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE)):
            loop.default_exception_handler(context)
            return
        now = time.monotonic()
        if self.said_at is not None and now - self.said_at < OUT_OF_FILES_EVERY:
            self.unsaid += 1
            return
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        again = f" ({self.unsaid} times since it was last said)" if self.unsaid else ""
        log.warning(
            "out of open files (%d allowed): new connections wait until some close%s; raise `ulimit -n`,"
            " or lower --max-connections-per-address",
            soft,
            again,
        )
        self.said_at = now
        self.unsaid = 0


def run_worker(make_app: Callable[[], Flask], sock: socket.socket, threads: int) -> None:
    """Serve on `sock` in this process until SIGTERM or SIGINT, then stop within a few seconds."""
    from hypercorn.asyncio import serve

    from .. import rulebook
    from ..web.extensions import shutdown
    from .asgi import Front

    app = make_app()
    # Build the rules search index now, not on the first question a player types.
    rulebook.warm()
    front = Front(app, threads=threads)
    # Everything built so far lives as long as the server: out of the collector's sight, each full collection
    # (which pauses every request) is about 25 ms shorter (docs/performance.md).
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, oldest)

    gate = ConnectionGate(int(app.config["MAX_CONNECTIONS_PER_ADDRESS"]), front.trusted_proxies)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(OutOfFiles())
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, stop.set)

        async def shutdown_trigger() -> None:
            await stop.wait()
            # Streams first: they would otherwise hold the graceful wait open to its end.
            front.close_streams()

        await serve(front, _config(sock, float(app.config["KEEP_ALIVE_SECONDS"])), shutdown_trigger=shutdown_trigger)  # type: ignore[arg-type]

    try:
        with asyncio.Runner(loop_factory=lambda: gated_event_loop(gate)) as runner:
            runner.run(main())
    finally:
        shutdown(app)


def gated_event_loop(gate: ConnectionGate) -> asyncio.AbstractEventLoop:
    """uvloop's event loop when the `fast` extra installed it (compiled; not on Termux), else asyncio's; either
    way, the servers it starts pass each accepted connection through `gate`."""
    base: type[asyncio.AbstractEventLoop]
    try:
        import uvloop

        base = uvloop.Loop
    except ImportError:
        base = asyncio.SelectorEventLoop

    class GatedLoop(base):  # type: ignore[valid-type,misc]
        async def create_server(
            self, protocol_factory: Callable[[], asyncio.BaseProtocol], *args: Any, **kwargs: Any
        ) -> asyncio.Server:
            server: asyncio.Server = await super().create_server(gate.wrap(protocol_factory), *args, **kwargs)
            return server

    loop: asyncio.AbstractEventLoop = GatedLoop()
    return loop


def run(make_app: Callable[[], Flask], options: ServeOptions, sock: socket.socket) -> int:
    """Serve on the bound `sock` until stopped; with several workers, start them on it and keep them running."""
    limit = raise_open_file_limit()
    if limit < 4096:
        log.warning("only %d open files allowed: fewer phones can connect (raise `ulimit -n`)", limit)
    if options.workers == 1:
        run_worker(make_app, sock, options.threads)
        return 0
    return _supervise(sock, options)


def worker_command(sock: socket.socket, options: ServeOptions) -> list[str]:
    """The command that starts one worker process on the inherited listening socket."""
    return [
        sys.executable,
        "-m",
        "referee",
        "serve",
        "--threads",
        str(options.threads),
        WORKER_SOCKET_FLAG,
        str(sock.fileno()),
    ]


def inherited_socket(descriptor: int) -> socket.socket:
    """The listening socket a worker was handed by its parent."""
    return socket.socket(fileno=descriptor)


WORKER_SOCKET_FLAG = "--worker-socket"


def _supervise(sock: socket.socket, options: ServeOptions) -> int:
    """Run `workers` processes on one socket; replace one that dies; on SIGTERM/SIGINT stop them all.

    Workers are new processes (not forks): each opens its own database connections and threads. They tell
    each other of changes through the database (CROSS_PROCESS_UPDATES).
    """
    stopping = False

    def stop(number: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    env = {**os.environ, "REFEREE_CROSS_PROCESS_UPDATES": "true"}

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(worker_command(sock, options), pass_fds=(sock.fileno(),), env=env)

    children = [start() for _ in range(options.workers)]
    while not stopping:
        time.sleep(0.2)
        for index, child in enumerate(children):
            if child.poll() is not None and not stopping:
                log.warning("worker %d stopped (status %s); starting another", child.pid, child.returncode)
                children[index] = start()
    for child in children:
        child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + GRACEFUL_SECONDS + 1.5
    for child in children:
        try:
            child.wait(max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    return 0
