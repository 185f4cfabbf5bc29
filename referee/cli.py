"""The `referee` command: `referee serve` runs the production server and shows a QR code to join."""

from __future__ import annotations

import argparse
import gc
import io
from collections.abc import Sequence

import qrcode

from .netaddr import lan_address
from .serving import REQUEST_THREADS, SPARE_STREAM_THREADS

DEFAULT_PORT = 8000


def phone_address(host: str, port: int) -> str:
    """Return the address a phone on the same Wi-Fi should open."""
    if host in ("0.0.0.0", "::", ""):
        lan = lan_address()
        shown = lan or "localhost"
    else:
        shown = host
    return f"http://{shown}:{port}/" if port != 80 else f"http://{shown}/"


def terminal_qr(text: str) -> str:
    """Return `text` drawn as a QR code with block characters for a terminal."""
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def serve(host: str, port: int, threads: int | None = None) -> None:
    """Run the app under waitress, a production WSGI server written in pure Python."""
    import waitress

    from . import create_app, rulebook
    from .serving import SplitDispatcher

    app = create_app()
    # Build the rules search index now, not on the first question a player types.
    rulebook.warm()
    # Everything built so far (routes, templates, the rules index) lives as long as the server: moving it
    # out of the garbage collector's sight makes each full collection, which pauses every request, about
    # 25 ms shorter on the benchmark machine (docs/performance.md).
    gc.freeze()
    streams = int(app.config["MAX_STREAMS"])
    bus = app.extensions["referee"].bus
    dispatcher = SplitDispatcher(threads or REQUEST_THREADS, streams + SPARE_STREAM_THREADS, bus.close_all)
    address = phone_address(host, port)
    print("5 Alive Referee is running.")
    print(f"On a phone on the same Wi-Fi, open: {address}")
    print(terminal_qr(address))
    print("Press Ctrl+C to stop.", flush=True)
    try:
        waitress.serve(
            app,
            host=host,
            port=port,
            _dispatcher=dispatcher,
            connection_limit=streams + 100,
            channel_timeout=120,
            # Bodies over the app's 64 KB limit get its JSON 413; far bigger ones are refused by waitress
            # before it reads them (it would otherwise spool up to 1 GB per request to disk first).
            max_request_body_size=16 * int(app.config["MAX_CONTENT_LENGTH"]),
            ident="5alive",
        )
    finally:
        bus.close_all()


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `referee` command line."""
    parser = argparse.ArgumentParser(prog="referee", description="5 Alive Referee")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="run the server for phones on this network")
    serve_parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve_parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve_parser.add_argument(
        "--threads",
        type=_positive,
        default=None,
        help=f"threads for requests other than live streams (default {REQUEST_THREADS})",
    )
    bench_parser = commands.add_parser("bench", help="measure the engine and a real server; update docs/performance.md")
    # Imported inside main: importing referee.cli (wsgi servers, tests) stays light.
    from .bench.__main__ import add_arguments, run_from_args

    add_arguments(bench_parser)
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port, args.threads)
        return 0
    return run_from_args(args)


if __name__ == "__main__":
    raise SystemExit(main())
