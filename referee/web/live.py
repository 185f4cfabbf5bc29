"""Server-sent events: one stream per table page, carrying only "changed, version N, revision M".

`referee serve` answers streams in its ASGI front (referee/server/asgi.py), as coroutines; this Flask route serves
them under any other WSGI server (`wsgi.py`) and in tests, a thread per stream. Both send the messages below.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

from flask import Blueprint, Response, current_app

from ..service.errors import ServiceError
from .extensions import get_referee
from .http_status import http_status

bp = Blueprint("stream", __name__)

STREAM_RULE = "/t/<code>/events"
# Any path ending like the stream's rule (a proxy may add a prefix).
STREAM_PATH = re.compile(r"/t/(?P<code>[^/]+)/events$")


def message(version: int, revision: int) -> str:
    """The message that tells a page the table is at this version and revision."""
    return f"event: changed\ndata: {json.dumps({'version': version, 'revision': revision})}\n\n"


def first_message(version: int, revision: int) -> str:
    """A stream's opening: the browser retries after 2 s; the numbers make a page that slept resync at once."""
    return "retry: 2000\n" + message(version, revision)


@bp.get(STREAM_RULE)
def events(code: str) -> Response:
    """Stream a table's changes; the first message tells the page the version it should show."""
    referee = get_referee()
    try:
        view = referee.view(code)
    except ServiceError as error:
        return Response(error.message, status=http_status(error), mimetype="text/plain")
    listener = referee.bus.subscribe(view.code, view.revision)
    if listener is None:
        # The page falls back to polling when the server holds its maximum number of streams.
        return Response("Too many open streams.", status=503, headers={"Retry-After": "10"}, mimetype="text/plain")
    keepalive = float(current_app.config["STREAM_KEEPALIVE"])
    lifetime = float(current_app.config["STREAM_MAX_SECONDS"])

    def generate() -> Iterator[str]:
        # The browser retries after 2 s; the first message makes a page that slept resync at once. Its
        # numbers are read after subscribing: a change committed in between would otherwise go unannounced.
        yield first_message(*(referee.revision(view.code) or (view.version, view.revision)))
        ends = time.monotonic() + lifetime
        while not listener.closed and time.monotonic() < ends:
            if listener.wait(keepalive):
                if listener.closed:
                    break
                numbers = referee.revision(view.code)
                if numbers is None:
                    break
                yield message(*numbers)
            else:
                yield ": keep-alive\n\n"

    response = Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"},
    )
    # The stream's place is freed when the response closes (the server always closes it), not when the
    # generator ends: a body that is never read (a HEAD request) would otherwise keep its place forever.
    response.call_on_close(lambda: referee.bus.unsubscribe(listener))
    return response
