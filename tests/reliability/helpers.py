"""Helpers shared by the reliability tests: apps on temporary databases, snapshots of what is stored."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee import create_app
from referee.store import database_path


def make_app(folder: Path, **config: Any) -> Flask:
    """An app on its own database in `folder`; TESTING stays off so errors behave as in production."""
    return create_app(
        {
            "SECRET_KEY": "reliability-secret",
            "DATABASE_URL": f"sqlite:///{folder / 'referee.sqlite3'}",
            "STREAM_KEEPALIVE": 0.2,
            "STREAM_MAX_SECONDS": 1.0,
            **config,
        }
    )


def snapshot(app: Flask) -> dict[str, Any]:
    """Everything a request could change: every table's row, every event, every device (for "changed nothing")."""
    with sqlite3.connect(database_path(app.config["DATABASE_URL"])) as db:
        return {
            "tables": db.execute("SELECT * FROM tables ORDER BY id").fetchall(),
            "events": db.execute("SELECT * FROM events ORDER BY id").fetchall(),
            "devices": db.execute("SELECT * FROM devices ORDER BY id").fetchall(),
        }


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
    return str(response.headers["Location"]).rstrip("/").rsplit("/", 1)[-1]


def join_link(client: FlaskClient, code: str) -> str:
    """The join path (/j/CODE/SECRET) shown to a host's phone on the table page."""
    html = client.get(f"/t/{code}").get_data(as_text=True)
    found = re.search(r"(/j/[A-Z0-9]+/[A-Za-z0-9_-]+)", html)
    assert found is not None, "the host's page shows no join link"
    return found.group(1)
