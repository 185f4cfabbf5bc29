"""Health probes (`/healthz`: the process answers; `/readyz`: the database can be read and written) and the
answer when storage fails mid-request (disk full, read-only file): a 503 with a sentence, logged once.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, render_template, request

from .extensions import get_referee
from .store import storage_errors

log = logging.getLogger(__name__)
PLAIN = {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}
STORAGE_MESSAGE = (
    "The referee could not save that: the computer running it has no room left or cannot write its database. "
    "Nothing was changed. Tell whoever runs the referee, then try again."
)


def init_app(app: Flask, api_prefix: str) -> None:
    """Add the probes and the storage-failure answer to the app."""
    app.add_url_rule("/healthz", "healthz", healthz)
    app.add_url_rule("/readyz", "readyz", readyz)

    def storage_failed(error: Exception) -> Any:
        # One line, no traceback: the cause (full disk, read-only file) is in SQLite's message.
        log.error("storage failed during %s %s: %s", request.method, request.path, error)
        if request.path.startswith(f"{api_prefix}/") or request.path == api_prefix:
            response = jsonify({"error": {"code": "storage_unavailable", "message": STORAGE_MESSAGE}})
            response.status_code = 503
        else:
            response = Response(
                render_template("error.html", title="Could not save", message=STORAGE_MESSAGE), status=503
            )
        response.headers["Retry-After"] = "30"
        return response

    for kind in storage_errors():
        app.register_error_handler(kind, storage_failed)


def healthz() -> tuple[str, int, dict[str, str]]:
    """Answer "ok" without touching the database: the process is up."""
    return "ok", 200, PLAIN


def readyz() -> tuple[str, int, dict[str, str]]:
    """Answer "ready" if the database can be read and written, else 503 with the reason."""
    try:
        get_referee().store.check_writable()
    except storage_errors() as error:
        log.error("readiness check failed: %s", error)
        return f"not ready: the database cannot be written ({error})", 503, PLAIN
    return "ready", 200, PLAIN
