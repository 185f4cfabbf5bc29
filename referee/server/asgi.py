"""The ASGI front that `referee serve` runs: live streams as coroutines, every other request through Flask.

A live stream waits for minutes. As a coroutine on the event loop it costs a few kilobytes; as a thread (how
waitress served it) it cost a thread each, and past about 150 phones the server stopped accepting anyone
(docs/performance.md compares the servers measured). Everything else, pages, taps and the API, is the Flask
app unchanged, run by a2wsgi in a small pool of threads.

The front also keeps one client from starving the others: it caps open streams per address and in all, and
requests in progress per address, answering 429 or 503 with Retry-After. A page whose stream is refused
polls instead (static/app.js). It reads each request's whole body before a thread takes the request, and
answers itself what Flask should never see: HTTP/2 over plain HTTP, WebSockets, and a request whose length
is given twice over.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from a2wsgi import WSGIMiddleware
from flask import Flask

from ..service import Referee, no_table_message, normalise_code
from ..store import storage_errors
from ..web.api import body_limit, is_api_request
from ..web.http_status import HTTP_ERROR_SENTENCES
from ..web.live import STREAM_PATH, first_message, message
from ..web.logs import log_request
from ..web.security import BAD_HOST_MESSAGE, SECURITY_HEADERS, host_allowed, trusted_client_address

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

KEEP_ALIVE = b": keep-alive\n\n"
# A request's whole body is read here, on the event loop, before a worker thread takes the request: read on a
# thread, a client that sent its headers and then only part of its body held that thread, and four such
# requests held every thread, whatever their size. A body has BODY_SECONDS (10 by default), and as many again
# for each BODY_STEP bytes it announces: a tap's few hundred bytes get 10 s, a 1 MB import 50 s.
BODY_STEP = 256 * 1024
# Bodies above MAX_CONTENT_LENGTH (only an import's, up to 1 MB) read at once in each process, and from one
# address: what the front holds in memory for them stays under 8 MB, and one address cannot hold all of it.
LARGE_BODIES = 8
LARGE_BODIES_PER_ADDRESS = 2
TOO_SLOW = "The request arrived too slowly, so nothing was done: send it again."
TOO_LARGE = HTTP_ERROR_SENTENCES[413]
LARGE_BUSY = "The referee is receiving other large uploads just now: send it again in a moment."
TWO_LENGTHS = "The request gave its length twice over (Content-Length and Transfer-Encoding), so nothing was done."
# Phones speak HTTP/1.1 to the referee on a LAN address (browsers speak HTTP/2 only over TLS), and an HTTPS
# proxy in front speaks HTTP/2 to the phones itself and HTTP/1.1 to us: HTTP/2 over plain HTTP serves nobody
# here, and hypercorn keeps such a connection open with no idle limit. A connection that starts with HTTP/2's
# preface is closed as it arrives (referee/server/serving.py); a request upgraded to it (`Upgrade: h2c`) gets a 505.
ONLY_HTTP_1 = "This server speaks HTTP/1.1 on plain HTTP: send the request again over HTTP/1.1."
NO_WEBSOCKETS = "This server opens no WebSockets: live updates come as server-sent events."
STREAM_WITH_BODY = "A live stream is asked for with no body, and this request had one: nothing was opened."
# Seconds a refusal waits for what is left of the request's body to be dropped (it takes a moment: see _answer).
DRAIN_SECONDS = 5.0


class _Stream:
    """One open live stream: woken when its table changes."""

    def __init__(self, code: str, address: str):
        self.code = code
        self.address = address
        self.changed = asyncio.Event()


class Front:
    """The ASGI application: route live streams to coroutines and the rest to Flask, within per-address caps."""

    def __init__(self, app: Flask, *, threads: int):
        config = app.config
        self.flask = app
        self.referee: Referee = app.extensions["referee"]
        self.wsgi = WSGIMiddleware(app, workers=threads)  # type: ignore[arg-type]
        self.max_streams = int(config["MAX_STREAMS"])
        self.max_streams_per_address = int(config["MAX_STREAMS_PER_ADDRESS"])
        self.max_requests_per_address = int(config["MAX_REQUESTS_PER_ADDRESS"])
        self.max_body = int(config["MAX_CONTENT_LENGTH"])
        self.body_seconds = float(config["BODY_SECONDS"])
        self.large_bodies: Counter[str] = Counter()  # large bodies being read, by address
        self.large_bodies_in_all = 0
        self.keepalive = float(config["STREAM_KEEPALIVE"])
        self.lifetime = float(config["STREAM_MAX_SECONDS"])
        self.trusted_proxies = frozenset(config["TRUSTED_PROXIES"]) if config["TRUST_PROXY"] else frozenset()
        self.allowed_hosts = tuple(config["ALLOWED_HOSTS"])
        self.streams: dict[str, set[_Stream]] = defaultdict(set)
        self.streams_by_address: Counter[str] = Counter()
        self.starting_streams = 0  # places taken by streams that are still being set up
        self.requests_by_address: Counter[str] = Counter()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closing = asyncio.Event()
        self.referee.bus.add_hook(self._published)
        self.referee.bus.add_wake_hook(self._woken)

    @property
    def open_streams(self) -> int:
        """How many live streams are open now."""
        return sum(len(streams) for streams in self.streams.values())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await self._lifespan(receive, send)
            else:
                await _no_websocket(scope, receive, send)
            return
        # `referee serve` has no TLS, so HTTP/2 here is always HTTP/2 over plain HTTP (see ONLY_HTTP_1).
        if scope["http_version"] == "2":
            await self._answer(scope, receive, send, 505, "http_version", ONLY_HTTP_1)
            return
        headers: dict[bytes, bytes] = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is not None and b"transfer-encoding" in headers:
            # RFC 9112 section 6.1: such a request may be refused, and the connection closed after; answered, its
            # body could be read as one length by a proxy and another here, and a request hidden in it served.
            await self._answer(scope, receive, send, 400, "bad_request", TWO_LENGTHS, close=True)
            return
        address = trusted_client_address(scope, self.trusted_proxies)
        found = STREAM_PATH.search(scope["path"])
        if found is not None and scope["method"] in ("GET", "HEAD"):
            if _may_have_body(scope):
                await self._answer(scope, receive, send, 400, "bad_request", STREAM_WITH_BODY, close=True)
                return
            code = normalise_code(found.group("code"))
            await self._logged(scope, send, lambda logged: self._stream(scope, receive, logged, code, address))
            return
        if self.requests_by_address[address] >= self.max_requests_per_address:
            await self._answer(scope, receive, send, 429, "too_many", BUSY)
            return
        self.requests_by_address[address] += 1
        try:
            replay = await self._read_body(scope, declared, receive, send, address)
            if replay is not None:
                await self.wsgi(scope, replay, send)  # type: ignore[arg-type]
        finally:
            _decrement(self.requests_by_address, address)

    async def _read_body(
        self, scope: Scope, declared: bytes | None, receive: Receive, send: Send, address: str
    ) -> Receive | None:
        """A receive that gives the whole body at once, read here first; None when the front answered instead.

        A body announced (`declared`, the Content-Length) above the path's limit is refused from the header,
        unread (413); one that arrives too slowly gets a 408, one that grows past the limit a 413, and a client
        gone before its body arrived gets nothing.
        """
        limit = body_limit(scope["path"], self.max_body)
        announced = int(declared) if declared is not None and declared.isdigit() else None
        if announced is not None and announced > limit:
            await self._answer(scope, receive, send, 413, "too_large", TOO_LARGE, close=True)
            return None
        large = limit > self.max_body and (announced is None or announced > self.max_body)
        if large and not self._take_large_body(address):
            await self._answer(scope, receive, send, 503, "busy", LARGE_BUSY, close=True)
            return None
        try:
            # A timeout scope, not wait_for: no task of its own on every request (a tap's cost counts,
            # docs/performance.md).
            async with asyncio.timeout(self.body_seconds * (1 + (announced or limit) / BODY_STEP)):
                first = await _whole_body(receive, limit)
        except TimeoutError:
            await self._answer(scope, receive, send, 408, "too_slow", TOO_SLOW, close=True)
            return None
        finally:
            if large:
                self.large_bodies_in_all -= 1
                _decrement(self.large_bodies, address)
        if first is None:
            await self._answer(scope, receive, send, 413, "too_large", TOO_LARGE, close=True)
            return None
        if first["type"] != "http.request":
            return None  # the client went away before its body arrived: nobody to answer
        return _replaying(first, receive)

    def _take_large_body(self, address: str) -> bool:
        """Count one more large body being read from `address`, if the caps allow it (else False)."""
        if self.large_bodies_in_all >= LARGE_BODIES or self.large_bodies[address] >= LARGE_BODIES_PER_ADDRESS:
            return False
        self.large_bodies[address] += 1
        self.large_bodies_in_all += 1
        return True

    async def _answer(
        self, scope: Scope, receive: Receive, send: Send, status: int, code: str, text: str, close: bool = False
    ) -> None:
        """Refuse the request in the front, in words (JSON under the API's prefix), with its access-log line.

        What is left of a body is read and dropped meanwhile. Hypercorn queues at most 10 body chunks for the
        app, and once the answer is complete it queues the disconnect behind them: with the queue full and
        nobody reading, the answer (and the request's place in the per-address counts) waited for ever, and
        five fast 4 MB posts shut their address out until a restart (measured).
        """
        if not _may_have_body(scope):
            await self._logged(
                scope, send, lambda logged: _refuse(logged, scope["path"], status, code, text, close=close)
            )
            return
        rest = asyncio.ensure_future(_disconnected(receive))
        try:
            await self._logged(
                scope, send, lambda logged: _refuse(logged, scope["path"], status, code, text, close=close)
            )
            # Once answered, the connection is closed or ready for the next request: the disconnect comes at once.
            async with asyncio.timeout(DRAIN_SECONDS):
                await rest
        except TimeoutError:
            pass
        finally:
            rest.cancel()

    async def _logged(self, scope: Scope, send: Send, answer: Callable[[Send], Awaitable[None]]) -> None:
        """Answer in the front (a live stream, or a refusal) with its access-log line.

        Requests that reach Flask are logged there (referee/web/logs.py); these never do.
        """
        started = time.perf_counter()
        status = ["-"]

        async def recording_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = str(message["status"])
            await send(message)

        try:
            await answer(recording_send)
        finally:
            path = scope.get("root_path", "") + scope["path"]
            log_request(scope.get("method", "GET"), path, bool(scope.get("query_string")), status[0], started)

    def close_streams(self) -> None:
        """End every open stream (shutdown): phones reconnect to the server that comes next."""
        self.closing.set()
        for streams in self.streams.values():
            for stream in streams:
                stream.changed.set()

    # --- lifespan and the bus ---------------------------------------------------------------------

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            event = await receive()
            if event["type"] == "lifespan.startup":
                self.loop = asyncio.get_running_loop()
                await send({"type": "lifespan.startup.complete"})
            elif event["type"] == "lifespan.shutdown":
                self.close_streams()
                await send({"type": "lifespan.shutdown.complete"})
                return

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

    # --- one live stream --------------------------------------------------------------------------

    def _refusal(self, address: str) -> tuple[int, str] | None:
        if self.closing.is_set() or self.open_streams + self.starting_streams >= self.max_streams:
            return 503, "Too many open streams: this page will poll instead."
        if self.streams_by_address[address] >= self.max_streams_per_address:
            return 429, "Too many open streams from this address: this page will poll instead."
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

    async def _stream(self, scope: Scope, receive: Receive, send: Send, code: str, address: str) -> None:
        # The same DNS-rebinding defence as every Flask page (referee/__init__.py), for the route Flask never sees.
        if not host_allowed(self._host(scope), self.allowed_hosts):
            await _plain(send, 400, BAD_HOST_MESSAGE)
            return
        refusal = self._refusal(address)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        # The place is taken before the first await: taken after it, a burst of streams from one address all
        # passed the check before any of them counted (play test 7b: 100 at once, against a cap of 24).
        self.streams_by_address[address] += 1
        self.starting_streams += 1
        starting = True
        try:
            try:
                numbers = await self._numbers(code)
            except storage_errors():
                # The page polls instead, and the stream is asked for again once the database answers.
                await _plain(send, 503, "The referee cannot read its database just now: this page will poll instead.")
                return
            if numbers is None:
                await _plain(send, 404, no_table_message(code))
                return
            headers = [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache, no-transform"),
                (b"x-accel-buffering", b"no"),
                *_security_headers(),
            ]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            if scope["method"] == "HEAD":
                await send({"type": "http.response.body", "body": b""})
                return
            stream = _Stream(code, address)
            self.streams[code].add(stream)
            self.starting_streams -= 1
            starting = False
            try:
                # Read again now that the stream is registered: a change committed between the first read and
                # the registration woke nobody, and the first message must not announce an older revision.
                numbers = await self._numbers(code) or numbers
                await self._serve_stream(stream, numbers, receive, send)
            finally:
                self.streams[code].discard(stream)
                if not self.streams[code]:
                    del self.streams[code]
        finally:
            if starting:
                self.starting_streams -= 1
            _decrement(self.streams_by_address, address)

    async def _serve_stream(self, stream: _Stream, numbers: tuple[int, int], receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        gone = asyncio.ensure_future(_disconnected(receive))
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
                await send({"type": "http.response.body", "body": message(*latest).encode(), "more_body": True})
            if not gone.done():
                await send({"type": "http.response.body", "body": b""})
        except OSError:
            pass  # the phone went away mid-write
        finally:
            gone.cancel()


async def _disconnected(receive: Receive) -> None:
    """Return when the client goes away."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _decrement(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def _security_headers() -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS]


BUSY = "Too many requests at once from this address: wait a moment."


def _may_have_body(scope: Scope) -> bool:
    """Whether the request may come with a body: one announced, chunked, or HTTP/2 (which need not announce it)."""
    headers: dict[bytes, bytes] = dict(scope["headers"])
    return (
        scope["http_version"] == "2"
        or b"transfer-encoding" in headers
        or bool(headers.get(b"content-length", b"0").strip(b"0"))
    )


async def _whole_body(receive: Receive, limit: int) -> Message | None:
    """The request's body as one message (or the disconnect that cut it short); None once it passes `limit` bytes."""
    message = await receive()
    body = message.get("body", b"")
    if not message.get("more_body", False) or message["type"] != "http.request":
        return None if len(body) > limit else message  # a GET, or a body that came in one piece: nothing to join
    chunks = [body]
    size = len(body)
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return message
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}


def _replaying(first: Message, receive: Receive) -> Receive:
    """A receive that gives `first` first, then whatever comes next (the disconnect, for a stream of Flask's)."""
    waiting = [first]

    async def replay() -> Message:
        return waiting.pop() if waiting else await receive()

    return replay


async def _no_websocket(scope: Scope, receive: Receive, send: Send) -> None:
    """Refuse a WebSocket in words, with our headers (left unanswered, the server sent a bare 500)."""
    started = time.perf_counter()
    if (await receive())["type"] != "websocket.connect":
        return
    status = 400
    if "websocket.http.response" in scope.get("extensions", {}):

        async def as_websocket(message: Message) -> None:
            await send({**message, "type": "websocket." + message["type"]})

        await _refuse(as_websocket, scope["path"], status, "no_websockets", NO_WEBSOCKETS)
    else:
        status = 403  # a server without the denial-response extension can only close: it answers 403 itself
        await send({"type": "websocket.close"})
    log_request(
        "GET", scope.get("root_path", "") + scope["path"], bool(scope.get("query_string")), str(status), started
    )


async def _refuse(send: Send, path: str, status: int, code: str, text: str, *, close: bool = False) -> None:
    """Refuse in the front: JSON under the API's prefix, as every API error is (play test 7c: a client parsing
    JSON broke on a plain sentence), a plain sentence elsewhere. `close` ends the connection after the answer."""
    if not is_api_request(path):
        await _plain(send, status, text, close=close)
        return
    body = json.dumps({"error": {"code": code, "message": text}}).encode()
    headers = [(b"content-type", b"application/json"), *_answer_headers(status, close, body)]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _plain(send: Send, status: int, text: str, *, close: bool = False) -> None:
    """Answer with a short plain-text sentence (and Retry-After when the client should come back)."""
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), *_answer_headers(status, close, body)]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _answer_headers(status: int, close: bool, body: bytes) -> list[tuple[bytes, bytes]]:
    """Our security headers and the length; Retry-After when the client should come back; Connection: close when
    asked (a body not read whole, or not to be trusted: nothing left of it may be read as a request of its own)."""
    headers = [*_security_headers(), (b"content-length", str(len(body)).encode())]
    if status in (429, 503):
        headers.append((b"retry-after", b"10"))
    if close:
        headers.append((b"connection", b"close"))
    return headers
