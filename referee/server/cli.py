"""The `referee` command: `referee serve` runs the production server and shows a QR code to join; `export`,
`import` and `backup` work on the same database. Flags and REFEREE_* variables become settings in
`config.resolve` (apart from the server start, which is `serving.run`)."""

from __future__ import annotations

import argparse
import io
import ipaddress
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import qrcode
from flask import Flask

from .. import version
from ..config import DATABASE_FILE, SERVE_FLAGS, ServeSettings, SettingError, resolve
from ..store import database_label, database_path, driver_errors, is_postgres
from ..web import logs
from ..web.links import lan_address
from .backup import CommandError, StartError, run_command
from .serving import WORKER_SOCKET_FLAG


def phone_address(host: str, port: int) -> str:
    """Return the address a phone on the same Wi-Fi should open."""
    if host in ("0.0.0.0", "::", ""):
        lan = lan_address()
        shown = lan or "localhost"
    else:
        shown = host
    return f"http://{shown}:{port}/" if port != 80 else f"http://{shown}/"


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.x.x.x, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def terminal_qr(text: str) -> str:
    """Return `text` drawn as a QR code with block characters for a terminal."""
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def serve(settings: ServeSettings, worker_socket: int | None = None) -> int:
    """Run the app under hypercorn (pure Python) through the ASGI front; see referee/server/serving.py."""
    from ..web.extensions import shutdown
    from .serving import ServeOptions, inherited_socket, listening_socket, run, run_worker

    logs.configure(settings.log_level)
    options = ServeOptions(settings.host, settings.port, settings.threads, settings.workers)
    if worker_socket is not None:
        # A worker started by `--workers N`: serve on the socket the parent bound; the parent printed the address.
        run_worker(lambda: open_app(settings), inherited_socket(worker_socket), options.threads)
        return 0
    # The database is checked and the port bound before "running" is printed: a bad database or a port in use
    # is one line and exit status 1, never a QR code for a server that is not there.
    app = open_app(settings)
    try:
        sock = listening_socket(options.host, options.port)
    except OSError as error:
        shutdown(app)
        # create_server adds the address to strerror; the line names it already.
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise StartError(
            f"cannot listen on {settings.host} port {settings.port}: {reason}"
            " (is another server there? choose another with --port)"
        ) from None
    if settings.workers > 1:
        # Workers read their settings from the environment and open their own app.
        os.environ.update(settings.environ())
        shutdown(app)
    address = settings.public_url or phone_address(settings.host, settings.port)
    print("5 Alive Referee is running.")
    print(f"Data (database and cookie key): {settings.data_dir}")
    if not settings.database.endswith(f"{settings.data_dir}/{DATABASE_FILE}"):
        print(f"Database: {database_label(settings.database)}")
    if settings.public_url or not is_loopback(settings.host):
        print(f"On a phone on the same Wi-Fi, open: {address}")
        print(terminal_qr(address))
    else:
        # No phone can open this machine's loopback address: no QR code of it, which would only mislead.
        print(f"Only this machine can open {address}: for phones, serve on every address (the default --host)")
        print("or behind a proxy with --public-url.")
    print("Press Ctrl+C to stop.", flush=True)
    return run(lambda: app, options, sock)


def open_app(settings: ServeSettings) -> Flask:
    """Set up logging and create the app these settings describe; StartError if the database is unusable."""
    from .. import create_app

    logs.configure(settings.log_level)
    try:
        return create_app(settings.app_config())
    except (OSError, RuntimeError) + driver_errors() as error:
        # One line: the first of the driver's (PostgreSQL's can run to several).
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise StartError(f"cannot use the database {database_label(settings.database)}: {reason}") from None


def _database_exists(settings: ServeSettings, command: str) -> None:
    """Refuse to export or back up a SQLite database that is not there: opening it would make an empty one (and a
    cookie key) and back that up as if it were the server's (a mistyped --data-dir is enough to do it)."""
    if is_postgres(settings.database):
        return
    path = Path(database_path(settings.database))
    if not path.exists():
        raise CommandError(
            f"there is no database at {path}: give the server's --data-dir or --database "
            f"(nothing was {'backed up' if command == 'backup' else 'exported'})"
        )


def add_setting_flags(parser: argparse.ArgumentParser, names: Sequence[str] | None = None) -> None:
    """Add a flag for each setting of `referee serve` (or those named), with its default and its variable."""
    for setting in SERVE_FLAGS:
        if names is None or setting.name in names:
            text = f"{setting.help_line} [{setting.variable}]"
            parser.add_argument(setting.flag, dest=setting.name, metavar=setting.metavar, help=text)


def settings_from(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> ServeSettings:
    """Turn parsed flags and the environment into settings (SettingError if any is bad)."""
    return resolve({setting.name: getattr(args, setting.name, None) for setting in SERVE_FLAGS}, environ)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="5 Alive Referee")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser(
        "serve",
        help="run the server for phones on this network",
        description="Run the server. Every flag can also be set by the environment variable in brackets; "
        "a flag wins over its variable.",
    )
    add_setting_flags(serve_parser)
    serve_parser.add_argument(WORKER_SOCKET_FLAG, type=int, default=None, help=argparse.SUPPRESS)
    export_parser = commands.add_parser("export", help="write a table's game (setup and every action) as JSON")
    export_parser.add_argument("code", help="the table's code")
    export_parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of the screen")
    import_parser = commands.add_parser("import", help="make a new table from a file `referee export` wrote")
    import_parser.add_argument("file", help="the exported JSON file ('-' reads it from the keyboard or a pipe)")
    backup_parser = commands.add_parser("backup", help="copy the database safely, even while the server runs")
    backup_parser.add_argument("path", help="the backup file to write (must not exist yet)")
    for sub in (export_parser, import_parser, backup_parser):
        add_setting_flags(sub, ("data_dir", "database"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `referee` command line; a bad setting or an unusable database is one line and exit status 2 or 1."""
    args = _parser().parse_args(argv)
    try:
        settings = settings_from(args)
        if args.command == "serve":
            return serve(settings, args.worker_socket)
        if args.command in ("export", "backup"):
            _database_exists(settings, args.command)
        return run_command(args, open_app(replace(settings, log_level="warning")))
    except SettingError as error:
        print(f"referee: {error}", file=sys.stderr)
        return 2
    except (StartError, CommandError) as error:
        print(f"referee: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # the port is taken, or the address is not this machine's
        print(f"referee: cannot start the server: {error.strerror or error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
