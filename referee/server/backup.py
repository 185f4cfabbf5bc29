"""The `referee export`, `referee import` and `referee backup` commands, run against the configured database."""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from pathlib import Path

from flask import Flask, current_app, url_for

from ..config import setting
from ..service.errors import ServiceError
from ..service.transfer import export_document, import_document
from ..store import database_label
from ..web.api.shapes import state_of
from ..web.extensions import get_referee
from ..web.links import lan_address


class CommandError(Exception):
    """A command cannot do what it was asked; the message is the one line printed."""


class StartError(Exception):
    """The server or a command cannot start (an unusable database); the message is the one line printed."""


def run_command(args: argparse.Namespace, app: Flask) -> int:
    """Run export, import or backup with the app's database; CommandError says what went wrong."""
    with app.app_context():
        try:
            if args.command == "export":
                return _export(args.code, args.output)
            if args.command == "import":
                return _import(args.file)
            return _backup(args.path)
        except ServiceError as error:
            raise CommandError(error.message) from None
        finally:
            get_referee().store.release()


def _export(code: str, output: str | None) -> int:
    view = get_referee().view(code)
    state = state_of(view)  # the same State as the API's export carries
    text = json.dumps(export_document(get_referee(), code, state), ensure_ascii=False, indent=2) + "\n"
    if output is None or output == "-":
        sys.stdout.write(text)
    else:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}") from None
        print(f"Table {view.code} written to {output}.")
    return 0


def _import(file: str) -> int:
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read {file}: {getattr(error, 'strerror', None) or error}") from None
    try:
        document = json.loads(text)
    except ValueError:
        raise CommandError(f"{file} is not JSON: it should be a file `referee export` wrote.") from None
    created = import_document(get_referee(), document)
    view = created.view
    # An imported table has no host phone: without its join link nobody could play it, only watch and ask a
    # host who is not there. The server's port is not known here: the default one is shown.
    public = current_app.config.get("PUBLIC_URL")
    port = setting("port").default
    base = public or f"http://{lan_address() or 'localhost'}:{port}"
    with current_app.test_request_context(base_url=base):
        link = url_for("joining.ask", code=view.code, secret=view.join_secret, _external=True)
    print(f"Imported as table {view.code}.")
    print(f"Phones join with its link: {link}")
    if not public:  # a public address is where phones open the referee already: nothing to change in it
        print(f"  (that is this machine's address and the default port {port}: change them to where you serve)")
    print(f"Its API token (keep it secret): {created.token}")
    return 0


def _backup(path: str) -> int:
    target = Path(path)
    if not get_referee().store.backs_up():
        # Said before any file is made: an empty file named like a backup would pass for one.
        raise CommandError("referee backup copies a SQLite database; back PostgreSQL up with pg_dump (docs/deploy.md)")
    if target.exists():
        raise CommandError(f"{path} already exists: choose a new file, so no backup is overwritten.")
    try:
        # Readable by this user only, like the database itself: a backup holds the same join secrets.
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        get_referee().store.backup(str(target))
    except (OSError, sqlite3.Error) as error:
        raise CommandError(f"cannot write the backup {path}: {error}") from None
    print(f"Backed up the database {database_label(current_app.config['DATABASE_URL'])} to {path}.")
    return 0
