"""The live stream: one server-sent-events stream per table page, carrying only "changed, version N, revision M".

A stream waits for minutes, so each is a coroutine on the server's event loop (a few kilobytes), never a thread:
the ASGI front of `referee serve` (referee/server/asgi.py) hands every `/t/CODE/events` request to `LiveStreams`.
The service's change bus wakes a table's streams after each commit; a woken stream reads the table's numbers
and sends them, and the page then fetches its board. Caps per address and in all keep one client from taking
every place; a page whose stream is refused, or served by a plain WSGI server that has none, polls instead
(static/js/sync.js).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter, defaultdict

from flask import Blueprint, Flask, Response

from ..engine.words import N_
from ..service import Referee, no_table_message, storage_errors
from .asgi_answers import Receive, Scope, Send, decrement, disconnected, plain, security_headers
from .i18n import worded
from .security import BAD_HOST_MESSAGE, host_allowed

STREAM_RULE = "/t/<code>/events"
# Any path ending like the stream's rule (a proxy may add a prefix).
STREAM_PATH = re.compile(r"/t/(?P<code>[^/]+)/events$")
KEEP_ALIVE = b": keep-alive\n\n"
NO_STREAM_HERE = N_("This server sends no live updates (run it with `referee serve`): this page will poll instead.")
# The stream's refusals, said in the phone's language (web/asgi_answers.py): a page whose stream is refused polls.
TOO_MANY_STREAMS = N_("Too many open streams: this page will poll instead.")
TOO_MANY_STREAMS_HERE = N_("Too many open streams from this address: this page will poll instead.")
NO_DATABASE = N_("The referee cannot read its database just now: this page will poll instead.")

bp = Blueprint("stream", __name__)


@bp.get(STREAM_RULE)
def events(code: str) -> Response:
    """Under a plain WSGI server (wsgi.py) there is no stream: say so, and the page polls (static/js/sync.js)."""
    return Response(worded(NO_STREAM_HERE), status=503, headers={"Retry-After": "10"}, mimetype="text/plain")


def message(version: int, revision: int) -> str:
    """The message that tells a page the table is at this version and revision."""
    return f"event: changed\ndata: {json.dumps({'version': version, 'revision': revision})}\n\n"


def first_message(version: int, revision: int) -> str:
    """A stream's opening: the browser retries after 2 s; the numbers make a page that slept resync at once."""
    return "retry: 2000\n" + message(version, revision)


class _Stream:
    """One open live stream: woken when its table changes."""

    def __init__(self, code: str):
        self.code = code
        self.changed = asyncio.Event()


class LiveStreams:
    """Every open stream of this process, woken by the service's change bus, within caps per address and in all."""

    def __init__(self, app: Flask, trusted_proxies: frozenset[str]):
        config = app.config
        self.referee: Referee = app.extensions["referee"]
        self.max_streams = int(config["MAX_STREAMS"])
        self.max_streams_per_address = int(config["MAX_STREAMS_PER_ADDRESS"])
        self.keepalive = float(config["STREAM_KEEPALIVE"])
        self.lifetime = float(config["STREAM_MAX_SECONDS"])
        self.allowed_hosts = tuple(config["ALLOWED_HOSTS"])
        self.trusted_proxies = trusted_proxies
        self.streams: dict[str, set[_Stream]] = defaultdict(set)
        self.by_address: Counter[str] = Counter()
        self.starting = 0  # places taken by streams that are still being set up
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closing = asyncio.Event()
        self.referee.bus.add_hook(self._published)
        self.referee.bus.add_wake_hook(self._woken)

    @property
    def open_streams(self) -> int:
        """How many live streams are open now."""
        return sum(len(streams) for streams in self.streams.values())

    def start(self) -> None:
        """Begin on the running event loop (the server's lifespan start-up): publishes reach it from now on."""
        self.loop = asyncio.get_running_loop()

    def close(self) -> None:
        """End every open stream and open no more (shutdown): phones reconnect to the server that comes next."""
        self.closing.set()
        for streams in self.streams.values():
            for stream in streams:
                stream.changed.set()

    # --- the change bus, from the writers' threads -----------------------------------------------------

    def _published(self, code: str, revision: int) -> None:
        """A table changed (called from the writer's thread): wake its streams on the event loop."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, code)

    def _woken(self) -> None:
        """Every stream must read its table again (called from the relay's thread)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake_every_stream)

    def _wake_every_stream(self) -> None:
        for code in list(self.streams):
            self._wake(code)

    def _wake(self, code: str) -> None:
        for stream in self.streams.get(code, ()):
            stream.changed.set()

    # --- one stream --------------------------------------------------------------------------------------

    def _refusal(self, address: str) -> tuple[int, str] | None:
        if self.closing.is_set() or self.open_streams + self.starting >= self.max_streams:
            return 503, TOO_MANY_STREAMS
        if self.by_address[address] >= self.max_streams_per_address:
            return 429, TOO_MANY_STREAMS_HERE
        return None

    async def _numbers(self, code: str) -> tuple[int, int] | None:
        """The table's (version, revision), read on a worker thread (the event loop never waits on the database)."""
        return await asyncio.get_running_loop().run_in_executor(None, self.referee.revision, code)

    def _host(self, scope: Scope) -> str:
        """The Host the browser asked for (a trusted proxy's X-Forwarded-Host when one forwarded the request)."""
        headers: dict[bytes, bytes] = dict(scope.get("headers", ()))
        client = scope.get("client")
        if client and str(client[0]) in self.trusted_proxies and b"x-forwarded-host" in headers:
            return headers[b"x-forwarded-host"].decode("latin-1").split(",")[-1].strip()
        return headers.get(b"host", b"").decode("latin-1")

    async def serve(self, scope: Scope, receive: Receive, send: Send, code: str, address: str) -> None:
        """Answer a request for the table's stream from `address`: the stream, or a refusal in words."""
        # The same DNS-rebinding defence as every Flask page (referee/__init__.py), for the route Flask never sees.
        if not host_allowed(self._host(scope), self.allowed_hosts):
            await plain(send, scope, 400, BAD_HOST_MESSAGE)
            return
        refusal = self._refusal(address)
        if refusal is not None:
            await plain(send, scope, *refusal)
            return
        # The place is taken before the first await: taken after it, a burst of streams from one address all
        # passed the check before any of them counted (100 at once got in, against a cap of 24).
        self.by_address[address] += 1
        self.starting += 1
        try:
            await self._open(scope, receive, send, code)
        finally:
            decrement(self.by_address, address)

    async def _open(self, scope: Scope, receive: Receive, send: Send, code: str) -> None:
        """Read the table's numbers, send the stream's headers, then serve it until it ends."""
        starting = True
        try:
            try:
                numbers = await self._numbers(code)
            except storage_errors():
                # The page polls instead, and the stream is asked for again once the database answers.
                await plain(send, scope, 503, NO_DATABASE)
                return
            if numbers is None:
                await plain(send, scope, 404, no_table_message(code))
                return
            headers = [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache, no-transform"),
                (b"x-accel-buffering", b"no"),
                *security_headers(),
            ]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            if scope["method"] == "HEAD":
                await send({"type": "http.response.body", "body": b""})
                return
            stream = _Stream(code)
            self.streams[code].add(stream)
            self.starting -= 1
            starting = False
            try:
                # Read again now that the stream is registered: a change committed between the first read and
                # the registration woke nobody, and the first message must not announce an older revision.
                numbers = await self._numbers(code) or numbers
                await self._serve(stream, numbers, receive, send)
            finally:
                self.streams[code].discard(stream)
                if not self.streams[code]:
                    del self.streams[code]
        finally:
            if starting:
                self.starting -= 1

    async def _serve(self, stream: _Stream, numbers: tuple[int, int], receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        gone = asyncio.ensure_future(disconnected(receive))
        ends = loop.time() + self.lifetime
        try:
            await send({"type": "http.response.body", "body": first_message(*numbers).encode(), "more_body": True})
            while not self.closing.is_set() and loop.time() < ends:
                changed = asyncio.ensure_future(stream.changed.wait())
                # A phone that leaves frees its place at once, not at the next keep-alive.
                done, _ = await asyncio.wait(
                    {changed, gone},
                    timeout=min(self.keepalive, ends - loop.time()),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                changed.cancel()
                if gone in done or self.closing.is_set():
                    break
                if not done:
                    await send({"type": "http.response.body", "body": KEEP_ALIVE, "more_body": True})
                    continue
                stream.changed.clear()
                # Several publishes may have merged into one wake-up: the newest numbers are read now.
                try:
                    latest = await self._numbers(stream.code)
                except storage_errors():
                    break  # the database is out of reach: the phone falls back to polling, and opens it again
                if latest is None:
                    break
                if latest == numbers:
                    # A wake-up with nothing new (the relay wakes every stream when it reconnects): say nothing, or
                    # each phone fetches a board it already shows.
                    continue
                numbers = latest
                await send({"type": "http.response.body", "body": message(*latest).encode(), "more_body": True})
            if not gone.done():
                await send({"type": "http.response.body", "body": b""})
        except OSError:
            pass  # the phone went away mid-write
        finally:
            gone.cancel()
