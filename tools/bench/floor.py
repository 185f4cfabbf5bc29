"""The floor of the browser phase: `referee serve` as the README runs it, with a bare Flask + htmx page beside it.

`python -m tools.bench.floor --host H --port P` serves the real app exactly as `referee serve` does (the same
settings from the environment, the same hypercorn, ASGI front and request threads) and mounts one more WSGI app
under `/floor` with Werkzeug's documented `DispatcherMiddleware`, the way Flask's documentation mounts one app
beside another. That app has one page whose button posts and swaps a one-line board: what the network, this
server and htmx cost with nothing else. It exists only in this process, which only the benchmark starts: no
route of it ships with the app (`referee serve` never mounts it).
"""

from __future__ import annotations

import argparse
import itertools
import threading
from collections.abc import Sequence

from flask import Flask, Response
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from referee.server import cli, serving

PREFIX = "/floor"
# The same htmx the app serves, from the app's own static route.
HTMX = "/static/vendor/htmx-2.0.11.min.js"
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Floor</title>
<script src="{htmx}" defer></script>
</head>
<body>
<main>
{board}
<button type="button" id="tap" hx-post="{prefix}/tap" hx-target="#board" hx-swap="outerHTML">Tap</button>
</main>
</body>
</html>
"""
BOARD = '<p id="board">Total <output id="total">{total}</output></p>'


def floor_app() -> Flask:
    """The bare page (`/floor/`) and its tap (`POST /floor/tap`): a count kept in memory, a one-line board back."""
    app = Flask(__name__)
    counter = itertools.count(1)
    lock = threading.Lock()
    shown = [0]

    @app.get("/")
    def page() -> Response:
        html = PAGE.format(htmx=HTMX, prefix=PREFIX, board=BOARD.format(total=shown[0]))
        return Response(html, mimetype="text/html")

    @app.post("/tap")
    def tap() -> Response:
        with lock:
            shown[0] = next(counter)
            total = shown[0]
        return Response(BOARD.format(total=total), mimetype="text/html")

    return app


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the app as `referee serve --host H --port P` does, with the floor mounted under /floor."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench.floor")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", required=True)
    args = parser.parse_args(argv)
    settings = cli.settings_from(argparse.Namespace(host=args.host, port=args.port))
    app = cli.open_app(settings)
    # Flask's documented way to put another WSGI app beside one: requests under PREFIX never reach the app.
    app.wsgi_app = DispatcherMiddleware(app.wsgi_app, {PREFIX: floor_app()})  # type: ignore[method-assign]
    sock = serving.listening_socket(settings.host, settings.port)
    options = serving.ServeOptions(settings.host, settings.port, settings.threads, 1)
    print(f"serving on http://{settings.host}:{settings.port}/ with the floor at {PREFIX}/", flush=True)
    return serving.run(lambda: app, options, sock)


if __name__ == "__main__":
    raise SystemExit(main())
