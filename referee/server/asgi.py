"""The ASGI front that `referee serve` runs: live streams to their coroutines, every other request through Flask.

A live stream waits for minutes: it is a coroutine on the event loop (referee/web/live.py), a few kilobytes,
where a thread each stopped the server accepting anyone past about 150 phones (docs/performance.md compares the
servers measured). Everything else, pages, taps and the API, is the Flask app, run by a2wsgi in a small pool
of threads.

The front also keeps one client from starving the others: it caps requests in progress per address, answering
429 with Retry-After (the live streams have caps of their own). It reads each request's whole body before a
thread takes the request, and answers itself what Flask should never see: HTTP/2 over plain HTTP, WebSockets,
and a request whose length is given twice over.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable

from a2wsgi import WSGIMiddleware
from flask import Flask

from ..engine.words import N_
from ..service import normalise_code
from ..web.api import body_limit
from ..web.asgi_answers import Message, Receive, Scope, Send, decrement, disconnected, refuse
from ..web.http import HTTP_ERROR_SENTENCES
from ..web.live import STREAM_PATH, LiveStreams
from ..web.logs import log_request
from ..web.security import trusted_client_address

# A request's whole body is read here, on the event loop, before a worker thread takes the request: read on a
# thread, a client that sent its headers and then only part of its body held that thread, and four such
# requests held every thread, whatever their size. A body has BODY_SECONDS (10 by default), and as many again
# for each BODY_STEP bytes it announces: a tap's few hundred bytes get 10 s, a 1 MB import 50 s.
BODY_STEP = 256 * 1024
# Bodies above MAX_CONTENT_LENGTH (only an import's, up to 1 MB) read at once in each process, and from one
# address: what the front holds in memory for them stays under 8 MB, and one address cannot hold all of it.
LARGE_BODIES = 8
LARGE_BODIES_PER_ADDRESS = 2
# The front's own refusals, each marked for the catalogs and said in the phone's language (web/asgi_answers.py).
TOO_SLOW = N_("The request arrived too slowly, so nothing was done: send it again.")
TOO_LARGE = HTTP_ERROR_SENTENCES[413]
LARGE_BUSY = N_("The referee is receiving other large uploads just now: send it again in a moment.")
TWO_LENGTHS = N_("The request gave its length twice over (Content-Length and Transfer-Encoding), so nothing was done.")
# Phones speak HTTP/1.1 to the referee on a LAN address (browsers speak HTTP/2 only over TLS), and an HTTPS
# proxy in front speaks HTTP/2 to the phones itself and HTTP/1.1 to us: HTTP/2 over plain HTTP serves nobody
# here, and hypercorn keeps such a connection open with no idle limit. A connection that starts with HTTP/2's
# preface is closed as it arrives (referee/server/serving.py); a request upgraded to it (`Upgrade: h2c`) gets a 505.
ONLY_HTTP_1 = N_("This server speaks HTTP/1.1 on plain HTTP: send the request again over HTTP/1.1.")
NO_WEBSOCKETS = N_("This server opens no WebSockets: live updates come as server-sent events.")
STREAM_WITH_BODY = N_("A live stream is asked for with no body, and this request had one: nothing was opened.")
# Seconds a refusal waits for what is left of the request's body to be dropped (it takes a moment: see _answer).
DRAIN_SECONDS = 5.0


class Front:
    """The ASGI application: route live streams to coroutines and the rest to Flask, within per-address caps."""

    def __init__(self, app: Flask, *, threads: int):
        config = app.config
        self.flask = app
        self.wsgi = WSGIMiddleware(app, workers=threads)  # type: ignore[arg-type]
        self.max_requests_per_address = int(config["MAX_REQUESTS_PER_ADDRESS"])
        self.max_body = int(config["MAX_CONTENT_LENGTH"])
        self.body_seconds = float(config["BODY_SECONDS"])
        self.large_bodies: Counter[str] = Counter()  # large bodies being read, by address
        self.large_bodies_in_all = 0
        self.trusted_proxies = frozenset(config["TRUSTED_PROXIES"]) if config["TRUST_PROXY"] else frozenset()
        self.requests_by_address: Counter[str] = Counter()
        self.live = LiveStreams(app, self.trusted_proxies)

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
            await self._logged(scope, send, lambda logged: self.live.serve(scope, receive, logged, code, address))
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
            decrement(self.requests_by_address, address)

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
                decrement(self.large_bodies, address)
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
            await self._logged(scope, send, lambda logged: refuse(logged, scope, status, code, text, close=close))
            return
        rest = asyncio.ensure_future(disconnected(receive))
        try:
            await self._logged(scope, send, lambda logged: refuse(logged, scope, status, code, text, close=close))
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
        self.live.close()

    # --- lifespan and the bus ---------------------------------------------------------------------

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            event = await receive()
            if event["type"] == "lifespan.startup":
                self.live.start()
                await send({"type": "lifespan.startup.complete"})
            elif event["type"] == "lifespan.shutdown":
                self.close_streams()
                await send({"type": "lifespan.shutdown.complete"})
                return


BUSY = N_("Too many requests at once from this address: wait a moment.")


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

        await refuse(as_websocket, scope, status, "no_websockets", NO_WEBSOCKETS)
    else:
        status = 403  # a server without the denial-response extension can only close: it answers 403 itself
        await send({"type": "websocket.close"})
    log_request(
        "GET", scope.get("root_path", "") + scope["path"], bool(scope.get("query_string")), str(status), started
    )
