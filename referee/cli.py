"""The `referee` command: `referee serve` runs the production server and shows a QR code to join."""

from __future__ import annotations

import argparse
import io
import os
from collections.abc import Sequence

import qrcode

from .netaddr import lan_address
from .serving import REQUEST_THREADS, WORKER_SOCKET_FLAG

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


def serve(
    host: str,
    port: int,
    threads: int | None = None,
    workers: int = 1,
    worker_socket: int | None = None,
    public_url: str | None = None,
) -> int:
    """Run the app under hypercorn (pure Python) through the ASGI front; see referee/serving.py."""
    from . import create_app
    from .serving import ServeOptions, inherited_socket, run, run_worker

    # Join links name an address the server really listens on (pages/joining.py: join_url); through the
    # environment, so that worker processes see it too.
    os.environ["REFEREE_LISTEN_HOST"] = host
    if public_url:
        os.environ["REFEREE_PUBLIC_URL"] = public_url
    options = ServeOptions(host, port, threads or REQUEST_THREADS, workers)
    if worker_socket is not None:
        # A worker started by `--workers N`: serve on the socket the parent bound; the parent printed the address.
        run_worker(create_app, inherited_socket(worker_socket), options.threads)
        return 0
    address = os.environ.get("REFEREE_PUBLIC_URL") or phone_address(host, port)
    print("5 Alive Referee is running.")
    print(f"On a phone on the same Wi-Fi, open: {address}")
    print(terminal_qr(address))
    print("Press Ctrl+C to stop.", flush=True)
    return run(create_app, options)


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
        help=f"threads per process for pages, taps and the API (live streams need none; default {REQUEST_THREADS})",
    )
    serve_parser.add_argument(
        "--workers",
        type=_positive,
        default=1,
        help="server processes sharing the port (they share tables and live updates through the database)",
    )
    serve_parser.add_argument(WORKER_SOCKET_FLAG, type=int, default=None, help=argparse.SUPPRESS)
    serve_parser.add_argument(
        "--public-url", default=None, help="address phones open, behind a proxy (or REFEREE_PUBLIC_URL)"
    )
    bench_parser = commands.add_parser("bench", help="measure the engine and a real server; update docs/performance.md")
    # Imported inside main: importing referee.cli (wsgi servers, tests) stays light.
    from .bench.__main__ import add_arguments, run_from_args

    add_arguments(bench_parser)
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(args.host, args.port, args.threads, args.workers, args.worker_socket, args.public_url)
    return run_from_args(args)


if __name__ == "__main__":
    raise SystemExit(main())
