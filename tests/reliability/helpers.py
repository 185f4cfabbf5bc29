"""Helpers shared by the reliability tests: apps on temporary databases, snapshots of what is stored."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from conftest import fresh_database_url
from flask import Flask
from flask.testing import FlaskClient

from referee import create_app
from referee.web.extensions import shutdown

# Apps made by make_app during the current test: closed after it (conftest.py), connections included.
MADE: list[Flask] = []


def make_app(folder: Path, **config: Any) -> Flask:
    """An app on its own database in `folder`; TESTING stays off so errors behave as in production."""
    app = create_app(
        {
            "SECRET_KEY": "reliability-secret",
            "DATABASE_URL": fresh_database_url(folder),
            "STREAM_KEEPALIVE": 0.2,
            "STREAM_MAX_SECONDS": 1.0,
            **config,
        }
    )
    MADE.append(app)
    return app


def close_made_apps() -> None:
    """Close the apps made during a test: end their streams and relays, close their database connections."""
    while MADE:
        shutdown(MADE.pop())


def snapshot(app: Flask) -> dict[str, Any]:
    """Everything a request could change: every table's row, event, device and request to play ("changed nothing")."""
    store = app.extensions["referee"].store
    try:
        db = store.read()
        return {
            name: [tuple(row) for row in db.execute(f"SELECT * FROM {name} ORDER BY id").fetchall()]
            for name in ("tables", "events", "devices", "join_requests")
        }
    finally:
        store.release()


def csrf_from(html: str) -> str:
    """The CSRF token a page carries (hidden field or htmx header)."""
    found = re.search(r'name="csrf" value="([^"]+)"', html) or re.search(r'"X-CSRF-Token": "([^"]+)"', html)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)


def start_table_by_form(client: FlaskClient, names: list[str], **fields: str) -> str:
    """Start a table from the home page as a host's phone would; return its code."""
    csrf = csrf_from(client.get("/").get_data(as_text=True))
    form: dict[str, Any] = {"csrf": csrf, "name": names, "op": "start", "variant": "standard", "entry": "joined"}
    form.update(fields)
    response = client.post("/", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    # The host lands in the lobby (/t/CODE/lobby) first.
    return str(response.headers["Location"]).rstrip("/").removesuffix("/lobby").rsplit("/", 1)[-1]


def join_link(client: FlaskClient, code: str) -> str:
    """The join path (/j/CODE/SECRET) shown to a host's phone on the table page."""
    html = client.get(f"/t/{code}").get_data(as_text=True)
    found = re.search(r"(/j/[A-Z0-9]+/[A-Za-z0-9_-]+)", html)
    assert found is not None, "the host's page shows no join link"
    return found.group(1)
