"""Server-sent events: one stream per table page, carrying only "changed, version N"."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from flask import Blueprint, Response, current_app

from .errors import ServiceError
from .extensions import get_referee
from .http_status import http_status
from .serving import STREAM_RULE, on_request_thread

bp = Blueprint("stream", __name__)


def _message(version: int, revision: int) -> str:
    return f"event: changed\ndata: {json.dumps({'version': version, 'revision': revision})}\n\n"


@bp.get(STREAM_RULE)
def events(code: str) -> Response:
    """Stream a table's changes; the first message tells the page the version it should show."""
    if on_request_thread():
        # `referee serve` gives streams threads of their own; if one ever got here, holding the one
        # request thread would freeze every table. The page falls back to polling instead.
        return Response("Live updates are not available.", status=503, headers={"Retry-After": "10"})
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
        # The browser retries after 2 s; the first message makes a page that slept resync at once.
        yield "retry: 2000\n" + _message(view.version, view.revision)
        ends = time.monotonic() + lifetime
        while not listener.closed and time.monotonic() < ends:
            if listener.wait(keepalive):
                if listener.closed:
                    break
                numbers = referee.revision(view.code)
                if numbers is None:
                    break
                yield _message(*numbers)
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
