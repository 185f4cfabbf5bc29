"""Gzip for text responses: the server (hypercorn) sends bytes as the app gives them, so the app compresses.

Pages, partials, CSS, JS, JSON and SVG shrink four to six times, which matters on a phone hotspot. A
response is compressed only when the browser says it accepts gzip, it has a whole body big enough to
gain (not a 204, 206 or 304), and it is not a live stream (text/event-stream must reach the phone message by message).
Static files (sent with `direct_passthrough`) are compressed once per file version and kept in memory.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict

from flask import Flask, Request, Response, request

COMPRESSIBLE = frozenset(
    {
        "text/html",
        "text/css",
        "text/plain",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/problem+json",
        "image/svg+xml",
    }
)
# A body this small already fits in one TCP segment with its headers: gzip would save no packet and
# no round trip, only cost CPU (the API's State of a 4-player table is about 700 bytes).
MIN_SIZE = 1024
# htmx's answers (a board at every tap and live refresh) are compressed at level 1, nginx's default
# (gzip_comp_level): a 27 KB board in about 50 µs, where zlib's default 6 took 160 µs for 15 % fewer bytes (4.1
# against 3.5 KB). A whole page comes once per phone and counts towards the first load's budget, so it gets 6
# (docs/performance.md). Static files are compressed once, so they get the best level.
HTMX_LEVEL = 1
PAGE_LEVEL = 6
STATIC_LEVEL = 9
# At level 1 a smaller hash table is faster still: memLevel 5 (zlib's default is 8) gzipped a 27 KB board in
# 72 µs instead of 101 µs, into 4,147 bytes instead of 4,125; every tap and live refresh pays it. At levels 6
# and 9 it was slower and larger, so pages and static files keep the default.
HTMX_MEM_LEVEL = 5
# zlib writes a gzip header and trailer (RFC 1952) for window bits 16 + 9..15; its header's time is 0.
GZIP_WBITS = 16 + zlib.MAX_WBITS
STATIC_CACHE_ENTRIES = 64


def accepts_gzip(req: Request) -> bool:
    """True if the client listed gzip in Accept-Encoding without refusing it (q=0)."""
    for item in req.headers.get("Accept-Encoding", "").split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            quality = params.strip().lower().replace(" ", "")
            return quality not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def gzips(content_type: str, length: int, req: Request) -> bool:
    """True if compress_response gzips a whole 200 answer of this type and known length for `req`."""
    media = content_type.partition(";")[0].strip().lower()
    return media in COMPRESSIBLE and length >= MIN_SIZE and req.method != "HEAD" and accepts_gzip(req)


def _add_vary(response: Response, header: str) -> None:
    # Plain string work: response.vary parses and re-serialises a HeaderSet, slow on every response.
    existing = response.headers.get("Vary")
    if not existing:
        response.headers["Vary"] = header
    elif header.lower() not in (item.strip().lower() for item in existing.split(",")):
        response.headers["Vary"] = f"{existing}, {header}"


class StaticCache:
    """Gzipped static files, keyed by path and ETag (a new file version gets a new ETag)."""

    def __init__(self, entries: int = STATIC_CACHE_ENTRIES):
        self.entries = entries
        self._items: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> bytes | None:
        """Return the compressed body for `key`, if it is cached."""
        with self._lock:
            body = self._items.get(key)
            if body is not None:
                self._items.move_to_end(key)
            return body

    def put(self, key: tuple[str, str], body: bytes) -> None:
        """Remember a compressed body, forgetting the least recently used beyond the limit."""
        with self._lock:
            self._items[key] = body
            self._items.move_to_end(key)
            while len(self._items) > self.entries:
                self._items.popitem(last=False)


def gzip_bytes(data: bytes, level: int) -> bytes:
    """`data` as one gzip member, compressed at `level` (with the smaller hash table at HTMX_LEVEL)."""
    memory = HTMX_MEM_LEVEL if level == HTMX_LEVEL else zlib.DEF_MEM_LEVEL
    packer = zlib.compressobj(level, zlib.DEFLATED, GZIP_WBITS, memory)
    return packer.compress(data) + packer.flush()


def _level(static: bool) -> int:
    if static:
        return STATIC_LEVEL
    return HTMX_LEVEL if request.headers.get("HX-Request") == "true" else PAGE_LEVEL


def compress_response(response: Response, cache: StaticCache) -> Response:
    """Gzip `response` in place when the request allows it; always add `Vary: Accept-Encoding` to text."""
    # The media type without parameters; cheaper than response.mimetype, which parses them too.
    if response.headers.get("Content-Type", "").partition(";")[0].strip().lower() not in COMPRESSIBLE:
        return response
    # The same URL answers differently with and without gzip: caches must keep both.
    _add_vary(response, "Accept-Encoding")
    if (
        response.status_code < 200
        or response.status_code in (204, 206, 304)
        or request.method == "HEAD"
        or "Content-Encoding" in response.headers
        or "Content-Range" in response.headers
        or not accepts_gzip(request)
    ):
        return response
    static = response.direct_passthrough
    length = response.content_length
    if length is not None and length < MIN_SIZE:
        return response  # known to be small (most API answers): no need to look at the body
    if response.is_streamed and not static:
        # A generator (never one of ours for text, but a future one): do not buffer it.
        return response
    etag, weak = response.get_etag()
    key = (request.path, etag or "") if static and etag else None
    body = cache.get(key) if key is not None else None
    if body is None:
        # direct_passthrough: the body is a file wrapper; read it through the normal path.
        response.direct_passthrough = False
        data = response.get_data()
        if len(data) < MIN_SIZE:
            return response
        body = gzip_bytes(data, _level(static))
        if key is not None:
            cache.put(key, body)
    else:
        response.direct_passthrough = False
        close = getattr(response.response, "close", None)
        if callable(close):
            close()  # the open static file is not needed: its gzip is cached
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    if etag and not weak:
        # The gzipped body is not byte-identical to the file, so its ETag may only be weak (as nginx does).
        # Conditional requests still work: If-None-Match compares weakly, so the next load gets a 304.
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    """Compress every eligible response of `app`."""
    cache = StaticCache()

    def _compress(response: Response) -> Response:
        return compress_response(response, cache)

    app.after_request(_compress)
